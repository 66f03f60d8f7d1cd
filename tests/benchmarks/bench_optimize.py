"""Speed of the design-space search (``capadvisor optimize``) against a naive loop that calls
``advise`` once per candidate design (the baseline, timed in the same run on a sample of the same
space and extrapolated to the whole space).

The space: the example scenario (four workloads) with the example cost catalogue: 3 host models x
4 hypervisors x 5 over-allocation levels x 5 storage options x 5 cache modes for each of the four
workloads x 6 host counts = 1,125,000 candidate designs. Targets: at least 100,000 designs searched
in under 10 s (in this process; and with two local processes), and the search's answer is the
naive loop's on the sample (every sampled design judged alike).

Then how the time grows with the size of the space: the search of 1, 2, 4, 8 and 16 host counts
(and of 1 to 3 host models), with the fitted exponent of time against designs (log-log slope).

Then two searches that advise more per design, each as CPU time (``process_time``) against a
baseline in the same run: a scenario that must survive the loss of 1 of its 2 failure domains (review
3's fd.yaml: the constrained count and headroom per configuration) against the same VMs without
the constraints, ``--horizon`` on the growth example (two advises per configuration) against
the search for today, and ``--horizon`` on the constrained scenario with review 3's growth (RAM
+20 % a year for 5 years) against its search for today. No target: the ratios show what the
constraints and the horizon cost.

Run: ``.venv/bin/python tests/benchmarks/bench_optimize.py`` (prints times and ratios; exits 0);
``--extra`` runs only the last two.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

TARGET_S = 10.0
MIN_DESIGNS = 100_000
SAMPLE = 24


def main() -> int:
    import numpy as np

    from advisor.optimize import SpaceOptions, optimize
    from advisor.optimize import reference as ref
    from advisor.optimize.evaluate import OK
    from advisor.optimize.space import dimensions
    from advisor.scenario import load_scenario
    from knowledge.costs import load_catalogue
    from knowledge.store import KnowledgeBase

    sc = load_scenario(ROOT / "resources" / "examples" / "scenario.yaml")
    cat = load_catalogue(ROOT / "resources" / "examples" / "costs-example.yaml")
    with KnowledgeBase.open() as kb:
        if "--extra" in sys.argv:
            return _constrained_and_horizon(kb, cat)
        t0 = time.perf_counter()
        optimize(sc, cat, kb, options=SpaceOptions(host_counts=1, host_models=[cat.hosts[0].name]), workers=1)
        warm = time.perf_counter() - t0
        print(f"warm-up (models, citation index): {warm:.2f} s")

        t0 = time.perf_counter()
        res = optimize(sc, cat, kb, workers=1, keep_table=True)
        took = time.perf_counter() - t0
        print(f"search: {res.size:,} designs ({res.rows:,} configurations) in {took:.2f} s = "
              f"{1e6 * took / res.size:.2f} us per design; {res.feasible:,} feasible; best "
              f"{res.best.design.host_model if res.best else None} {res.best.total if res.best else ''}")

        t0 = time.perf_counter()
        res2 = optimize(sc, cat, kb, workers=2)
        took2 = time.perf_counter() - t0
        same = res2.best is not None and res.best is not None and res2.best.design == res.best.design \
            and [c.design for c in res2.pareto] == [c.design for c in res.pareto]
        print(f"search in 2 local processes: {took2:.2f} s (start-up included); same answer: {same}")

        # the naive loop: advise per design, on a random sample of the same space
        dims = dimensions(sc, cat, SpaceOptions())
        table = res.table
        per_row = table.designs_per_row
        rng = random.Random(7)
        picks = sorted(rng.sample(range(res.size), SAMPLE))
        designs = list(_nth(ref.designs(dims, table.counts), picks))
        t0 = time.perf_counter()
        agree = 0
        for i, d in zip(picks, designs, strict=True):
            code, _cand = ref.judge(sc, cat, d, kb)
            row = i // per_row
            modes = [table.modes[w].index(m) for w, m in enumerate(d.cache_modes)]
            ok = table.reason[row] == OK and all(table.mode_ok[w][row, j] for w, j in enumerate(modes))
            agree += ok == (code == OK)
        naive = (time.perf_counter() - t0) / SAMPLE
        naive_total = naive * res.size
        print(f"naive loop: advise per design {1000 * naive:.1f} ms on a sample of {SAMPLE} -> "
              f"{naive_total:,.0f} s ({naive_total / 3600:.1f} h) for the whole space; the search agrees on "
              f"{agree} of {SAMPLE} sampled designs")
        print(f"ratio: naive / search = {naive_total / took:,.0f}x")
        ok_size = res.size >= MIN_DESIGNS
        print(f"target: >= {MIN_DESIGNS:,} designs in < {TARGET_S:g} s: {res.size:,} in {took:.2f} s: "
              f"{'PASS' if ok_size and took < TARGET_S else 'FAIL'}")
        print(f"target: 2 processes < {TARGET_S:g} s: {took2:.2f} s: {'PASS' if took2 < TARGET_S and same else 'FAIL'}")
        print(f"target: the search judges the sampled designs as advise does: "
              f"{'PASS' if agree == SAMPLE else 'FAIL'}")

        # how the time grows with the size of the space
        print("\ngrowth (one process):")
        print(f"{'space':>34} {'designs':>12} {'configs':>8} {'seconds':>8} {'us/design':>10}")
        sizes, times = [], []
        for label, opts in [(f"{n} host count(s), 3 host models", SpaceOptions(host_counts=n)) for n in (1, 2, 4, 8, 16)] \
                + [(f"6 host counts, {k} host model(s)", SpaceOptions(host_models=[h.name for h in cat.hosts[:k]]))
                   for k in (1, 2)]:
            t0 = time.perf_counter()
            r = optimize(sc, cat, kb, options=opts, workers=1)
            dt = time.perf_counter() - t0
            print(f"{label:>34} {r.size:>12,} {r.rows:>8,} {dt:>8.2f} {1e6 * dt / r.size:>10.2f}")
            sizes.append(r.size)
            times.append(dt)
        slope = float(np.polyfit(np.log(sizes), np.log(times), 1)[0])
        print(f"time grows as designs^{slope:.2f} (log-log fit): linear in the configurations evaluated, the cache "
              "modes multiply the designs without adding time (each workload's modes are judged once per configuration)")
        return _constrained_and_horizon(kb, cat)


#: review 3's fd.yaml: 6 hosts in 2 failure domains, survive the loss of one; 40 VMs of 2 vCPU / 16 GiB
FD = {"name": "failure domains", "workloads": [{"name": "app", "vms": 40, "vcpus": 2, "ram_gib": 16,
                                               "cpu_intensity": "low"}],
      "hosts": {"count": 6, "reserve": 0, "ram_gib": 512,
                "cpu": {"sockets": 2, "cores_per_socket": 16, "threads_per_core": 2, "ghz": 2.0},
                "failure_domains": [{"name": "rackA", "hosts": 3}, {"name": "rackB", "hosts": 3}]},
      "preferences": {"survive": {"domains": 1}}}


def _cpu(run) -> float:
    t0 = time.process_time()
    run()
    return time.process_time() - t0


def _constrained_and_horizon(kb, cat) -> int:
    """The constrained search and the horizon search, each against its baseline (see the module doc)."""
    import os

    from advisor.optimize import optimize
    from advisor.optimize.horizon import optimize_horizon
    from advisor.scenario import load_scenario, parse_scenario

    fd = parse_scenario(FD)
    free = parse_scenario({**FD, "hosts": {k: v for k, v in FD["hosts"].items() if k != "failure_domains"},
                           "preferences": {}})
    optimize(free, cat, kb, workers=1)  # warm-up (models, citation index)
    base = _cpu(lambda: optimize(free, cat, kb, workers=1))
    held = _cpu(lambda: optimize(fd, cat, kb, workers=1))
    print(f"\nconstrained (survive 1 of 2 failure domains): {held:.2f} s CPU against {base:.2f} s without the "
          f"constraints = {held / base:.1f}x (load {os.getloadavg()[0]:.1f})")
    growth = load_scenario(ROOT / "resources" / "examples" / "growth.yaml")
    today = _cpu(lambda: optimize(growth, cat, kb, workers=1))
    lasting = _cpu(lambda: optimize_horizon(growth, cat, kb, workers=1))
    print(f"--horizon (growth example): {lasting:.2f} s CPU against {today:.2f} s for today = "
          f"{lasting / today:.1f}x (load {os.getloadavg()[0]:.1f})")
    fd.growth = parse_scenario({**FD, "growth": {"horizon_years": 5, "ram_pct_per_year": 20}}).growth
    lasting = _cpu(lambda: optimize_horizon(fd, cat, kb, workers=1))
    print(f"--horizon (constrained, review 3's fd.yaml): {lasting:.2f} s CPU against {held:.2f} s for today = "
          f"{lasting / held:.1f}x (load {os.getloadavg()[0]:.1f})")
    return 0


def _nth(iterator, wanted):
    wanted = list(wanted)
    j = 0
    for i, item in enumerate(iterator):
        if j < len(wanted) and i == wanted[j]:
            yield item
            j += 1
            if j == len(wanted):
                return


if __name__ == "__main__":
    raise SystemExit(main())
