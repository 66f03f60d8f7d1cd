"""Speed of ``advise``: a 10-workload scenario, warm (models loaded, citation index built) against
a cold first run in the same process as the baseline. Target: warm under 50 ms.

And the host count's placement of whole VMs at scale: 10,000 VMs (50 profiles x 200) placed in
bulk per profile by ``advisor.recommend.packing.pack``, against a straightforward first fit
that places the same VMs one by one (the baseline, same run, same hosts); both must give the
same hosts. Targets: the bulk placement at least 10x faster than VM by VM, and warm ``advise``
of a 50-workload, 10,000-VM scenario under 100 ms.

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
PACK_SPEEDUP = 10.0
LARGE_TARGET_MS = 100.0


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


def profiles() -> tuple[dict, list]:
    cap = {"cpu": 32.0, "ram": 243.2, "net": 875.0}
    return cap, [(f"w{i}", {"cpu": 1 + i % 7, "ram": 2.04 * (1 + i % 13), "net": 0.5 + (i * 37) % 50}, 200)
                 for i in range(50)]


def vm_by_vm(cap: dict, prof: list) -> int:
    """The baseline: largest dominant share first, each VM to the first host it fits in."""
    order = sorted(range(len(prof)), key=lambda i: (-max(prof[i][1][k] / cap[k] for k in cap), i))
    hosts: list[dict] = []
    for i in order:
        _, d, n = prof[i]
        for _ in range(n):
            for free in hosts:
                if all(free[k] >= d[k] - 1e-9 for k in cap):
                    break
            else:
                free = dict(cap)
                hosts.append(free)
            for k in cap:
                free[k] -= d[k]
    return len(hosts)


def best_of(fn, runs: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def bench_packing(kb) -> None:
    from advisor.engine import advise
    from advisor.recommend.packing import pack
    from advisor.scenario import parse_scenario

    cap, prof = profiles()
    t_bulk, packing = best_of(lambda: pack(cap, prof, orders=("dominant",)), 5)
    t_naive, naive_hosts = best_of(lambda: vm_by_vm(cap, prof), 1)
    t_all, best = best_of(lambda: pack(cap, prof), 5)
    same = packing.hosts == naive_hosts
    speedup = t_naive / t_bulk
    print("placing 10,000 whole VMs (50 profiles x 200) on identical hosts")
    print(f"  VM by VM first fit (baseline): {t_naive * 1000:8.1f} ms, {naive_hosts} hosts")
    print(f"  bulk first fit, one order:     {t_bulk * 1000:8.1f} ms, {packing.hosts} hosts "
          f"({'same' if same else 'DIFFERENT'} hosts)")
    print(f"  bulk, every decreasing order:  {t_all * 1000:8.1f} ms, {best.hosts} hosts")
    print(f"  speed-up {speedup:.0f}x; target >= {PACK_SPEEDUP:.0f}x: "
          f"{'PASS' if speedup >= PACK_SPEEDUP and same else 'FAIL'}")
    base = scenario()
    base["workloads"] = [{"name": f"w{i}", "vms": 200, "vcpus": 1 + i % 8, "ram_gib": 1 + i % 16,
                          "cpu_intensity": ("low", "medium", "high")[i % 3]} for i in range(50)]
    sc = parse_scenario(base)
    advise(sc, kb=kb)
    t_large, advice = best_of(lambda: advise(sc, kb=kb), 10)
    rec = advice.find("host_count")
    print(f"  warm advise, 50 workloads x 200 VMs: {t_large * 1000:8.1f} ms ({rec.choice} hosts); "
          f"target < {LARGE_TARGET_MS:.0f} ms: {'PASS' if t_large * 1000 < LARGE_TARGET_MS else 'FAIL'}")


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
              f"{'PASS' if warm * 1000 < TARGET_MS else 'FAIL'}")
        bench_packing(kb)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
