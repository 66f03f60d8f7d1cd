"""Speed of ``advise``: a 10-workload scenario, warm (models loaded, citation index built) against
a cold first run in the same process as the baseline. Target: warm under 50 ms.

Run: ``.venv/bin/python tests/benchmarks/bench_advise.py`` (prints times and ratios; exits 0).
"""

from __future__ import annotations

import copy
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

TARGET_MS = 50.0
RUNS = 30


def scenario() -> dict:
    """Ten workloads of every kind (random/sequential/mixed I/O, migration, containers, real time)."""
    from advisor.scenario import load_scenario

    base = load_scenario(ROOT / "resources" / "examples" / "scenario.yaml").to_dict()
    workloads = []
    for i in range(10):
        w = copy.deepcopy(base["workloads"][i % len(base["workloads"])])
        w["name"] = f"{w['name']}-{i}"
        workloads.append(w)
    base["workloads"] = workloads
    base["hosts"]["count"] = 12
    return base


def main() -> int:
    import os

    os.environ.setdefault("CAPADVISOR_CACHE_DIR", tempfile.mkdtemp(prefix="capadvisor-bench-"))
    from advisor.engine import advise
    from advisor.scenario import parse_scenario
    from knowledge.store import KnowledgeBase

    sc = parse_scenario(scenario())
    with KnowledgeBase.open() as kb:
        t0 = time.perf_counter()
        advice = advise(sc, kb=kb)
        cold = time.perf_counter() - t0
        times = []
        for _ in range(RUNS):
            t0 = time.perf_counter()
            advise(sc, kb=kb)
            times.append(time.perf_counter() - t0)
    warm = statistics.median(times)
    print(f"advise, 10 workloads, {len(advice.recommendations)} recommendations")
    print(f"  cold (first run: models trained or loaded, citation index built): {cold * 1000:8.1f} ms")
    print(f"  warm median of {RUNS}:                                           {warm * 1000:8.1f} ms "
          f"(min {min(times) * 1000:.1f}, max {max(times) * 1000:.1f})")
    print(f"  cold / warm: {cold / warm:.1f}x; target warm < {TARGET_MS:.0f} ms: "
          f"{'met' if warm * 1000 < TARGET_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
