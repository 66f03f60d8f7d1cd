"""Speed of placement under constraints (#32): 10,000 VMs (200 workloads x 50 VMs) with
anti-affinity (per workload, and 20 named groups shared by five workloads each), replicated
workloads (replication factor 3) and 3 failure domains, placed by
``advisor.recommend.placement_count.constrained_count`` to the smallest count that places every VM and
still does after losing any one domain. Baseline, same run, same VMs and hosts: the unconstrained
bulk packing (``advisor.recommend.packing.pack``). Target: the constrained placement under 5 s
(the ratio to the baseline is printed for the record).

Run: ``timeout 300 .venv/bin/python tests/benchmarks/bench_placement.py`` (exits 0).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

TARGET_S = 5.0


def estate():
    """(workloads with constraints, profiles) of 10,000 VMs."""
    workloads, profiles = [], []
    for i in range(200):
        anti = f"group-{i % 20}" if i % 2 == 0 else (i % 4 == 1)
        workloads.append(SimpleNamespace(name=f"w{i}", vms=50, anti_affinity=anti, affinity=False,
                                         replication_factor=3 if i % 10 == 3 else None))
        profiles.append((f"w{i}", {"cpu_allocation": 1.0 + i % 4, "ram": 4.0 + 4 * (i % 5)}, 50))
    return workloads, profiles


def main() -> int:
    from advisor.recommend.packing import pack
    from advisor.recommend.placement import rules_of
    from advisor.recommend.placement_count import constrained_count
    from advisor.scenario.model import FailureDomain, Survive

    cap = {"cpu_allocation": 64.0, "ram": 500.0}
    workloads, profiles = estate()
    domains = [FailureDomain(f"rack-{c}", 1) for c in "abc"]
    t = time.perf_counter()
    base = pack(cap, profiles)
    t_base = time.perf_counter() - t
    t = time.perf_counter()
    counted = constrained_count(cap, profiles, rules_of(workloads, len(domains)), domains, Survive(domains=1),
                                base.hosts)
    t_con = time.perf_counter() - t
    assert counted is not None
    placed = sum(sum(h.vms.values()) for h in counted.placement.hosts)
    print(f"10,000 VMs, 3 failure domains: unconstrained {base.hosts} hosts in {t_base * 1000:.1f} ms; "
          f"constrained {counted.by_constraints} hosts, surviving one domain {counted.by_survival} hosts "
          f"({placed} VMs placed) in {t_con:.2f} s; ratio {t_con / max(t_base, 1e-9):.0f}x the baseline")
    print(f"{'PASS' if t_con < TARGET_S and placed == 10_000 else 'FAIL'}: constrained placement under "
          f"{TARGET_S:g} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
