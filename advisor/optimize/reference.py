"""A design judged by advising its scenario: the brute force :func:`advisor.optimize.optimize` is
checked against (tests) and timed against (``tests/benchmarks/bench_optimize.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from advisor.optimize.evaluate import EXCLUDED, OK, PLACEMENT, TARGET
from advisor.optimize.search import Candidate
from advisor.optimize.space import Design, Dimensions, design_scenario
from advisor.scenario import Scenario
from knowledge.costs import Catalogue


def designs(dims: Dimensions, counts: dict[str, list[int]]) -> Iterator[Design]:
    """Every design of a space in its enumeration order (host model, storage option, active count,
    hypervisor, level, cache modes)."""
    for h in dims.hosts:
        for s in dims.storage[h.name]:
            for n in counts[h.name]:
                for hv in dims.hypervisors:
                    for level in dims.levels:
                        for modes in product(*dims.cache_modes):
                            yield Design(h.name, hv, level, s, tuple(modes), n)


def judge(scenario: Scenario, catalogue: Catalogue, design: Design, kb) -> tuple[int, Candidate | None]:
    """(reason code of :mod:`advisor.optimize.evaluate`, the design with its figures when it is
    feasible), from one ``advise`` of the design's scenario."""
    from advisor.engine import advise

    sc = design_scenario(scenario, catalogue, design)
    return judge_advice(advise(sc, kb=kb, catalogue=catalogue), sc, design, kb)


def judge_advice(advice, sc: Scenario, design: Design, kb) -> tuple[int, Candidate | None]:
    """:func:`judge` from the advice of the design's scenario ``sc`` (with a cost catalogue)."""
    from advisor.recommend import targets as tg

    hc = advice.find("host_count")
    if hc is None or hc.value is None:
        return PLACEMENT, None
    if any(r.choice == "infeasible" or (r.details.get("fixed") or {}).get("excluded_by")
           for r in advice.recommendations):
        return EXCLUDED, None
    if any(t.met is False for t in advice.targets):
        return TARGET, None
    active = int(hc.value) - sc.hosts.reserve
    ctx = advice.context(kb)
    room = hc.details["headroom_vms"]
    headroom = min((100.0 * room.get(w.name, 0) / max(w.vms, 1) for w in sc.workloads), default=0.0)
    boot = tg.boot_time_s(ctx, active)
    thr = {}
    for w in sc.workloads:
        rec = advice.find("cache_mode", f"workload:{w.name}")
        fig = rec.expected.get("throughput_per_vm") if rec is not None else None
        thr[w.name] = None if fig is None else float(fig.value)
    cost = advice.cost
    assert cost is not None
    kwh = sum(line.quantity for line in cost.lines if line.category == "power")
    return OK, Candidate(design, int(hc.value), cost.capex, cost.opex_per_year, cost.total, kwh, headroom,
                         tg.host_cpu_pct(ctx, active), boot, thr)
