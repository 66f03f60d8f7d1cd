"""Accuracy and speed of the regression families (a script, not a test; always exits 0).

    .venv/bin/python tests/benchmarks/bench_models.py

1. Leave-one-out over every family: median absolute percentage error (MdAPE) of the model and
   of two baselines measured in the same run on the same held-out points: the family mean (mean
   of the other targets) and the nearest neighbour on factors (categorical mismatch counts 1,
   numeric factors |log ratio| / log range). PASS when the model beats both, for families with
   at least 5 points (target of issue 3); smaller families are reported only. A family of counts
   with targets of 0 (no migration at all) has no percentage error at those points: its MdAPE is
   taken over the other points and shown, and its verdict is by mean absolute error over all
   points (model, mean and nearest neighbour alike).
2. Training time of all families from scratch (target < 3 s), against loading them back from the
   disk cache.
3. A 1,000-variant what-if sweep (target < 100 ms), against the same 1,000 variants predicted
   one query at a time.
"""

from __future__ import annotations

import math
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402


def _numeric(value) -> float | None:
    if isinstance(value, bool):
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def nearest_neighbour(train, held) -> float:
    """Target of the training point closest to ``held`` on its factors."""
    names = set(held.features)
    for p in train:
        names |= set(p.features)
    spans = {}
    for name in names:
        vals = [_numeric(p.features.get(name)) for p in train]
        vals = [v for v in vals if v is not None and v > 0]
        if vals:
            spans[name] = max(math.log(max(vals) / min(vals)), 1e-9)
    best, best_d = None, math.inf
    for p in train:
        d = 0.0
        for name in names:
            a, b = held.features.get(name), p.features.get(name)
            na, nb = _numeric(a), _numeric(b)
            if na is not None and nb is not None and na > 0 and nb > 0 and name in spans:
                d += min(abs(math.log(na / nb)) / spans[name], 1.0)
            else:
                d += 0.0 if str(a).lower() == str(b).lower() else 1.0
        if d < best_d:
            best, best_d = p, d
    return best.target


def mdape(y, p) -> float:
    """Median absolute percentage error, %, over the points whose target is not 0 (a count of
    zero events has no percentage error; such points are left out, and reported)."""
    y, p = np.asarray(y, float), np.asarray(p, float)
    keep = y != 0
    if not keep.any():
        return float("nan")
    return float(np.median(np.abs(p[keep] - y[keep]) / np.abs(y[keep])) * 100)


def mae(y, p) -> float:
    """Mean absolute error, in the family's unit."""
    return float(np.mean(np.abs(np.asarray(p, float) - np.asarray(y, float))))


def accuracy(kb) -> list[str]:
    from advisor.models import FAMILIES

    lines = [f"{'family':26} {'n':>3} {'model %':>8} {'mean %':>8} {'nn %':>8}  verdict"]
    for name, info in FAMILIES.items():
        fam = info.factory(kb)
        pts = fam.training_points()
        y, model = fam.loo()
        mean_b = [np.mean([q.target for j, q in enumerate(pts) if j != i]) for i in range(len(pts))]
        nn_b = [nearest_neighbour(pts[:i] + pts[i + 1:], pts[i]) for i in range(len(pts))]
        m, b1, b2 = mdape(y, model), mdape(y, mean_b), mdape(y, nn_b)
        if len(pts) >= 5:
            verdict = "PASS" if m < b1 and m < b2 else "FAIL"
        else:
            verdict = "n/a (< 5 points)"
        zeros = int(np.sum(np.asarray(y, float) == 0))
        note = ""
        if zeros:
            a, a1, a2 = mae(y, model), mae(y, mean_b), mae(y, nn_b)
            if len(pts) >= 5:
                verdict = "PASS" if a < a1 and a < a2 else "FAIL"
            note = (f" by mean absolute error: {a:.3g} vs {a1:.3g} and {a2:.3g} ({zeros} targets of 0, "
                    f"left out of the percentages)")
        lines.append(f"{name:26} {len(pts):3d} {m:8.1f} {b1:8.1f} {b2:8.1f}  {verdict}{note}")
    return lines


def training_time(kb) -> list[str]:
    import advisor.models as models

    start = time.perf_counter()
    import sklearn.linear_model  # noqa: F401 - what the first fit pays for, timed on its own

    imported = time.perf_counter() - start
    models.clear_memory_cache()
    models.train_all(kb)
    cold = time.perf_counter() - start
    models.clear_memory_cache()
    start = time.perf_counter()
    models.train_all(kb)
    warm = time.perf_counter() - start
    verdict = "PASS" if cold < 3.0 else "FAIL"
    return [f"train all {len(models.FAMILIES)} families: {cold * 1000:.0f} ms (target < 3000 ms) {verdict}; "
            f"of which importing scikit-learn {imported * 1000:.0f} ms and fitting {(cold - imported) * 1000:.0f} ms",
            f"reload from the disk cache: {warm * 1000:.1f} ms (ratio {cold / max(warm, 1e-9):.0f}x)",
            f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} (other work slows the import)"]


def whatif_speed(kb) -> list[str]:
    from advisor.models import get_family
    from advisor.models.sweep import sweep

    fam = get_family("cache_mode_throughput", kb)
    values = np.linspace(1, 8, 1000)
    fixed = {"operation": "random_read", "workload": "postmark_set2", "host_ram_gib": 16}
    alts = ("cache_mode", ["writeback", "writethrough", "none"])
    sweep(kb, "cache_mode_throughput", "vms_per_host", values, fixed, alts)  # warm-up
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        sweep(kb, "cache_mode_throughput", "vms_per_host", values, fixed, alts)
        runs.append(time.perf_counter() - start)
    fast = min(runs)
    start = time.perf_counter()
    for mode in alts[1]:
        for v in values:
            fam.predict([{**fixed, "cache_mode": mode, "vms_per_host": float(v)}])
    slow = time.perf_counter() - start
    n = len(values) * len(alts[1])
    verdict = "PASS" if fast < 0.1 else "FAIL"
    return [f"what-if sweep, {len(values)} values x {len(alts[1])} alternatives: {fast * 1000:.1f} ms "
            f"(target < 100 ms) {verdict}; one query at a time: {slow * 1000:.0f} ms for {n} "
            f"(ratio {slow / fast:.0f}x)"]


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["CAPADVISOR_CACHE_DIR"] = tmp  # a cold model cache, never the user's
        from knowledge.store import KnowledgeBase

        kb = KnowledgeBase.open()
        print("== training (first, so that it pays for importing scikit-learn) ==")
        print("\n".join(training_time(kb)))
        print("\n== leave-one-out accuracy (median absolute percentage error) ==")
        print("\n".join(accuracy(kb)))
        print("\n== what-if ==")
        print("\n".join(whatif_speed(kb)))
        kb.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
