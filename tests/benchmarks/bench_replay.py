"""Leave-the-experiment-out accuracy of the advice on the documents' own experiments (a script,
not a test; always exits 0).

    timeout 900 .venv/bin/python tests/benchmarks/bench_replay.py

For every experiment of the replay suite (resources/replay/*.yaml) every model family
is refitted without the training points that rest on that experiment's rows — the whole table,
figure series or worked example is held out, not one point — and then:

1. **Advice level, per document**: the experiment is replayed through ``advise`` with the
   refitted families; the median absolute percentage error (MdAPE) of the advice's expected
   figure against the document's number, per document and overall, next to the in-sample one.
2. **Family level, per family**: the held-out training points are predicted by the refitted
   family and by two baselines measured in the same run on the same points: the family mean (the
   mean of the family's remaining targets) and the nearest neighbour on factors (as in
   bench_models.py). MdAPE per family over all its held-out points (and the mean APE); **PASS**
   when the model beats both baselines, required for families with at least 5 experiments
   (smaller families are reported only). Beating means a lower MdAPE; where the MdAPEs tie (a
   family whose most held-out points are met exactly by both, e.g. DRS migration counts at 0 %),
   the lower mean APE decides, and the verdict says so.
3. **Interval coverage per family**: the share of the held-out points inside the refitted
   family's interval, next to its nominal level (90 %, :mod:`advisor.models.conformal`), and the
   median interval width; then the same per advice figure of the replay (held out).
"""

from __future__ import annotations

import math
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

MIN_EXPERIMENTS = 5


def mdape(errors) -> float:
    errs = [e for e in errors if e is not None and math.isfinite(e)]
    return float(np.median(errs)) if errs else math.nan


def _fmt(x: float) -> str:
    """A MdAPE for the table ("-" when the held-out family cannot predict at all: no points left)."""
    return "-" if math.isnan(x) else f"{x:.1f}"


def mean_ape(errors) -> float:
    errs = [e for e in errors if e is not None and math.isfinite(e)]
    return float(np.mean(errs)) if errs else math.nan


#: MdAPEs closer than this (percentage points) are a tie
TIE = 0.05


def beats(model: list, base: list) -> tuple[bool, bool]:
    """(whether the model's errors beat the baseline's, whether that took the tie-break): a lower
    MdAPE, or on a tied MdAPE a lower mean APE."""
    m, b = mdape(model), mdape(base)
    if abs(m - b) < TIE:
        return mean_ape(model) < mean_ape(base), True
    return m < b, False


def ape(pred: float, target: float) -> float | None:
    return abs(pred - target) / abs(target) * 100.0 if target else None


def main() -> int:
    from advisor import replay
    from advisor.models import FAMILIES, get_family
    from knowledge.store import KnowledgeBase
    from tests.benchmarks.bench_models import nearest_neighbour

    experiments = replay.load_suite()
    with KnowledgeBase.open() as kb:
        inside = replay.run(experiments, kb)
        held = replay.run(experiments, kb, held_out=True)

        # 1. advice level, per document
        print("1. Advice figures against the documents' numbers (MdAPE, %; each experiment held out)")
        print(f"   {'document':<24} {'experiments':>11} {'values':>7} {'in-sample':>10} {'held out':>9}")
        per_doc: dict[str, tuple[list, list, int]] = {}
        for a, b in zip(inside.experiments, held.experiments, strict=True):
            doc = a.experiment.document
            ins, out, n = per_doc.setdefault(doc, ([], [], 0))
            ins += [c.error for c in a.cases]
            out += [c.error for c in b.cases]
            per_doc[doc] = (ins, out, n + 1)
        all_in, all_out = [], []
        for doc, (ins, out, n) in per_doc.items():
            all_in += ins
            all_out += out
            print(f"   {doc:<24} {n:>11} {len(ins):>7} {_fmt(mdape(ins)):>10} {_fmt(mdape(out)):>9}")
        print(f"   {'all':<24} {len(experiments):>11} {len(all_in):>7} {_fmt(mdape(all_in)):>10} {_fmt(mdape(all_out)):>9}")
        print(f"   held out: {held.passed} of {len(held.experiments)} experiments still within the stated intervals")

        # 2. family level, against the family mean and the nearest neighbour
        families = {name: get_family(name, kb) for name in FAMILIES}
        errs: dict[str, dict[str, list]] = defaultdict(lambda: {"model": [], "mean": [], "nn": []})
        inside: dict[str, list] = defaultdict(list)  # per family: (inside the interval, relative width)
        n_exp: dict[str, int] = defaultdict(int)
        for exp in experiments:
            doc = kb.resolve_document(exp.document)
            rows = set(exp.rows)
            for name, fam in families.items():
                pts = fam.training_points()
                out = [p for p in pts if replay._rests_on(p, doc, rows)]
                keep = [p for p in pts if not replay._rests_on(p, doc, rows)]
                if not out or not keep:
                    continue
                n_exp[name] += 1
                refit = FAMILIES[name].factory(kb).fit(keep)
                pred = refit.predict_points(refit._core, out)
                for p, y in zip(out, pred, strict=True):
                    # like with like: a slowdown ratio (feature "relative") against the remaining
                    # ratios, a time against times; none left: a ratio of 1 (no effect)
                    same = [q for q in keep if q.features.get("relative") == p.features.get("relative")]
                    if same:
                        mean, nn = float(np.mean([q.target for q in same])), nearest_neighbour(same, p)
                    else:
                        mean = nn = 1.0
                    errs[name]["model"].append(ape(float(y), p.target))
                    inside[name].append(_inside(refit, p))
                    errs[name]["mean"].append(ape(mean, p.target))
                    errs[name]["nn"].append(ape(nn, p.target))
        print("\n2. Families, each experiment's training points held out (MdAPE, %)")
        print(f"   {'family':<28} {'experiments':>11} {'points':>7} {'model':>8} {'mean':>8} {'nearest':>8}"
              f"  {'mean APE: model':>15} {'mean':>6} {'nearest':>7}  verdict")
        for name in sorted(errs, key=lambda n: -n_exp[n]):
            e = errs[name]
            m, b1, b2 = mdape(e["model"]), mdape(e["mean"]), mdape(e["nn"])
            (w1, t1), (w2, t2) = beats(e["model"], e["mean"]), beats(e["model"], e["nn"])
            won = w1 and w2
            tie = " on the mean APE (MdAPE tied)" if won and (t1 or t2) else ""
            if n_exp[name] >= MIN_EXPERIMENTS:
                verdict = ("PASS" if won else "FAIL") + tie
                verdict += f" (target: beat both with >= {MIN_EXPERIMENTS} experiments)"
            else:
                verdict = ("beats both" + tie if won else "does not beat both") + " (reported only)"
            means = "".join(f" {mean_ape(e[k]):>{w}.1f}" for k, w in (("model", 15), ("mean", 6), ("nn", 7)))
            print(f"   {name:<28} {n_exp[name]:>11} {len(e['model']):>7} {m:>8.1f} {b1:>8.1f} {b2:>8.1f} {means}  {verdict}")
        _coverage(inside, held)
    return 0


def _inside(refit, p) -> tuple[bool, float, float | None] | None:
    """(the held-out point inside the refitted family's interval, its relative width, the level), or
    None when the family cannot predict the point's features as a query."""
    try:
        pr = refit.predict([dict(p.features)])
    except Exception:  # noqa: BLE001 - a point whose features are not a query of the family: not counted
        return None
    lo, hi, mean = float(pr.low[0]), float(pr.high[0]), float(pr.mean[0])
    y = p.target * getattr(refit, "target_scale", 1.0)  # in the prediction's unit (e.g. % of native)
    return lo * 0.995 <= y <= hi * 1.005, (hi - lo) / abs(mean) if mean else math.nan, pr.level


def _coverage(inside: dict[str, list], held) -> None:
    print("\n3. Interval coverage, each experiment's points held out (share inside the interval, nominal level)")
    print(f"   {'family':<28} {'points':>7} {'inside':>7} {'coverage':>9} {'nominal':>8} {'median width':>13}")
    for name in sorted(inside):
        got = [x for x in inside[name] if x is not None]
        if not got:
            continue
        share = sum(x[0] for x in got) / len(got)
        level = next((x[2] for x in got if x[2]), None)
        nominal = "-" if level is None else f"{100 * level:.0f} %"
        print(f"   {name:<28} {len(got):>7} {sum(x[0] for x in got):>7} {100 * share:>8.0f}% {nominal:>8} "
              f"{float(np.nanmedian([x[1] for x in got])):>13.2f}")
    print(f"\n   advice figures (replay held out): {'figure':<50} {'values':>6} {'coverage':>9} {'nominal':>8}")
    for name, f in held.to_dict()["figures"].items():
        print(f"   {'':<34}{name:<50} {f['values']:>6} {100 * f['coverage']:>8.0f}% {100 * f['nominal']:>7.0f}%"
              f"  width {f['median_width'] if f['median_width'] is not None else '-'}")


if __name__ == "__main__":
    sys.exit(main())
