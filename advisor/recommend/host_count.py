"""``host_count``: how many hosts the workloads need, the bottleneck, the headroom, and what the
plan delivers against the scenario's targets.

Per resource, the *fractional* hosts' worth of demand (``hosts_for_<resource>``; they explain the
bottleneck) is the workloads' total over one host's usable capacity
(:mod:`advisor.recommend.host_demand`: what a host offers and a VM asks, hard and soft limits,
budgets). The active count (before the N+x reserve) is that of a placement of whole VMs
(:mod:`advisor.recommend.packing`), never below the ceiling of the largest per-resource need;
what the plan delivers where the hosts fall short (soft limits, shared storage, page cache) is
:mod:`advisor.recommend.host_limits`. ``infeasible`` only when no host count meets a hard limit:
a VM larger than a host in a hard resource, a resource the hosts lack, or a hard target no count
meets; the warnings name it.

**Targets** (``preferences.targets``, :mod:`advisor.recommend.targets`): the host count is the
smallest count, from the placement's upwards, at which every target that depends on it (host
CPU, boot time, throughput per VM) is met; when a soft target is met by no count, the smallest
count that comes closest; when a hard one is met by none, ``infeasible`` naming it. ``details.
targets`` lists each target at the recommended count.

``utilization_<resource>`` is the share (%) of the *usable* capacity (80 % CPU ceiling, 90 % of
the disks, 70 % of the NIC) the workloads take on the recommended active hosts. Then the reserve
is added. Headroom: for each workload profile, how many more whole VMs of it fit into the per-host
leftovers of the active hosts after the placement.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from advisor.recommend import storage_backend, vcpu_overallocation
from advisor.recommend.base import Alternative, EngineContext, Recommendation, figure
from advisor.recommend.disks import disk_iops
from advisor.recommend.host_demand import (
    CPU_CEILING_ROW,
    CPU_POINTS,  # noqa: F401 (read from here by advisor.inventory)
    DECISION,
    HARD,
    LABELS,
    NO_BUDGETS,
    SOFT,
    UNITS,
    Budgets,
    _local,
    _migration_points,
    _needed,
    _num,
    _pack,
    by_workload,
    host_capacity,
    hypervisor_reserve_gib,
    placement_demand,
    placement_profiles,
    planned_cpu_percent,
    pooled_hosts,
    shape_demands,
    shape_names,
    vm_demand,
)
from advisor.recommend.host_limits import _oversize, _page_cache, _shared_capacity, _shared_load, _soft_limits
from advisor.recommend.packing import Packing, balance
from advisor.recommend.placement_plan import Constrained, constrain, declared
from advisor.rules import evaluate
from advisor.scenario import TARGETS as TARGET_NAMES
from advisor.scenario.percentiles import percentile_sizing
from advisor.scenario.totals import totals_text
from advisor.text import figure_label

#: the most hosts the target search adds beyond the placement's count
MAX_EXTRA_HOSTS = 256


def headroom(ctx: EngineContext, active: int, packing: Packing | None = None,
             budgets: Budgets = NO_BUDGETS) -> tuple[dict[str, int], list[str]]:
    """(workload name -> how many more whole VMs of its profile fit into the per-host leftovers of
    ``active`` hosts after the VMs are placed (hosts beyond the placement's count are empty); under
    placement constraints, as many of those as the constrained search still places
    (:mod:`advisor.recommend.room`); the workloads whose figure is a lower bound, their search
    stopped at its limit)."""
    out = resources_room(ctx, active, packing, budgets)
    if declared(ctx.scenario):  # what the constraints still place (#31 review 3 finding 1)
        from advisor.recommend.room import constrained_room

        return constrained_room(ctx, active, budgets, out)
    return out, []


def resources_room(ctx: EngineContext, active: int, packing: Packing | None = None,
                   budgets: Budgets = NO_BUDGETS) -> dict[str, int]:
    """:func:`headroom` before the placement constraints: the whole VMs of each workload's profile
    (a workload of several VM shapes: of its first, its VM size) the leftovers of the resources hold
    (an upper bound of the constrained room)."""
    cap = host_capacity(ctx, budgets)
    packing = packing or _pack(ctx, cap, budgets)
    out = {}
    seen: dict[tuple, int] = {}  # workloads of one demand have the same headroom
    for w in ctx.scenario.workloads:
        if any(key in packing.unplaced for key in w.shape_keys):
            out[w.name] = 0
            continue
        demand = placement_demand(shape_demands(ctx, w, budgets)[0][1], cap)  # VMs of its (first) VM size
        key = tuple(sorted(demand.items()))
        if key not in seen:
            seen[key] = packing.fits(demand, active - packing.hosts)
        out[w.name] = seen[key]
    return out



# --- targets: the smallest count that meets them ----------------------------------------------
def _search_targets(ctx: EngineContext, start: int, cpu_points: float) -> tuple[int, list, list[str]]:
    """(active hosts, target results there, problems): the smallest count from ``start`` that
    meets every count-dependent target; problems name the hard targets no count meets."""
    from advisor.recommend import targets as tg

    names = tg.COUNT_DEPENDENT
    if not any(t.name in names for t in ctx.scenario.preferences.targets):
        return start, [], []
    limit = start + min(MAX_EXTRA_HOSTS, max(ctx.scenario.total_vms, 1))
    best = None
    for n in range(start, limit + 1):
        res = tg.evaluate(ctx, n, names=names, cpu_points=cpu_points)
        if not tg.missed(res):
            return n, res, []
        # how far the soft targets are missed (relative), to keep the count that comes closest
        gap = sum(abs(r.expected - r.target) / max(r.target, 1e-9) for r in tg.missed(res) if r.expected is not None)
        hard = len(tg.missed(res, hard=True))
        if best is None or (hard, gap) < (best[0], best[1] - 1e-9):
            best = (hard, gap, n, res)
        if n >= start + 1 and n > ctx.scenario.total_vms:  # beyond one VM per host nothing changes
            break
    assert best is not None  # the loop ran at least once (limit >= start)
    _, _, n, res = best
    problems = [f"no host count meets the hard target {r.text()}" for r in tg.missed(res, hard=True)]
    return n, res, problems


@dataclass
class _Sizing:
    """The steps of the host count, carried from one to the next."""

    outcome: Any
    budgets: Budgets
    need: dict[str, float]
    cap: dict[str, float]
    total: dict[str, float]
    packing: Packing
    pooled: int
    problems: list[str]
    active: int = 0
    placed_active: int = 0
    raised: bool = False
    target_results: list = field(default_factory=list)
    room: dict[str, int] = field(default_factory=dict)
    #: the workloads whose ``room`` is a lower bound ("at least": the search stopped at its limit)
    at_least: list[str] = field(default_factory=list)
    #: the placement on the recommended hosts: the first fit's, or spread over the hosts targets add
    plan: Packing | None = None
    #: the placement under the scenario's constraints, failures and HA admission (None: none declared)
    constrained: Constrained | None = None

    @property
    def finite(self) -> dict[str, float]:
        return {k: v for k, v in self.need.items() if math.isfinite(v)}

    @property
    def bottleneck(self) -> str:
        pool = self.finite or self.need
        return max(pool, key=lambda k: pool[k])

    @property
    def infeasible(self) -> bool:
        return bool(self.problems)

    @property
    def by_targets(self) -> bool:
        return self.active > self.placed_active and not self.infeasible


def _place(ctx: EngineContext) -> _Sizing:
    """Rules, budgets, needs per resource, the placement of whole VMs and the hard limits none meets."""
    sc = ctx.scenario
    outcome = evaluate(DECISION, ctx.rule_ctx(), ["plan"])
    budgets = Budgets.of(r.id for r in outcome.fired)
    need, cap, total = _needed(ctx, budgets)
    profiles = placement_profiles(ctx, cap, budgets)
    packing = _pack(ctx, cap, budgets, profiles)
    problems = []
    for k in HARD:  # a hard resource the hosts lack entirely
        if not math.isfinite(need[k]):
            short = [w.name for w in sc.workloads if vm_demand(ctx, w, budgets)[k] > 0]
            problems.append(f"the hosts have no {LABELS[k]} for the workloads ({', '.join(short)} need "
                            f"{_num(total[k])} {UNITS[k]})")
    problems += _oversize(ctx, cap, packing, budgets)
    constrained = None if problems else constrain(ctx, cap, budgets, packing.hosts, profiles)
    if constrained is not None:
        problems += constrained.problems
    return _Sizing(outcome, budgets, need, cap, total, packing, pooled_hosts(ctx, cap, budgets, profiles), problems,
                   constrained=constrained)


def _count(ctx: EngineContext, s: _Sizing) -> None:
    """The active count: the placement's (at least the hosts live migration needs), then the
    pinned count or the smallest that meets the targets; the targets at that count."""
    from advisor.recommend import targets as tg

    sc = ctx.scenario
    active = max(s.pooled, s.packing.hosts, s.constrained.active if s.constrained else 0)
    minimum = max(1, s.budgets.min_hosts - sc.hosts.reserve)
    s.raised = active < minimum
    s.active = s.placed_active = active = max(active, minimum)
    points = _migration_points(s.budgets)
    pinned = sc.preferences.fixed.get("host_count")  # a design chosen elsewhere: its count, if it places
    if pinned is not None and not s.problems and pinned - sc.hosts.reserve < active:
        s.problems.append(f"the scenario fixes {pinned} hosts ({pinned - sc.hosts.reserve} active) but placing "
                          f"whole VMs takes {active} active hosts (preferences.fixed.host_count)")
    elif pinned is not None and not s.problems:
        s.active = pinned - sc.hosts.reserve
        s.target_results = tg.evaluate(ctx, s.active, cpu_points=points)
    elif not s.problems:
        s.active, s.target_results, target_problems = _search_targets(ctx, active, points)
        s.problems += target_problems
        # targets no host count moves (response time, migration downtime): a hard one missed is
        # missed at every count
        fixed = tg.evaluate(ctx, s.active, names=tuple(n for n in TARGET_NAMES if n not in tg.COUNT_DEPENDENT))
        s.target_results += fixed
        s.problems += [f"no host count meets the hard target {r.text()}" for r in tg.missed(fixed, hard=True)]
    if s.infeasible and pinned is not None:  # the later decisions read the design the scenario fixes
        s.active = max(1, pinned - sc.hosts.reserve)
    elif s.infeasible:  # no count meets a hard limit: the later decisions read the planned (or placed) hosts
        s.active = max(1, sc.hosts.count - sc.hosts.reserve, s.packing.hosts)


def _room(ctx: EngineContext, s: _Sizing) -> None:
    """The headroom on the counted hosts and the placement the card shows there."""
    s.room, s.at_least = headroom(ctx, s.active, s.packing, s.budgets)
    s.plan = s.packing
    if s.by_targets:  # the VMs spread over the hosts the targets add (as the targets' figures assume)
        s.plan = balance(s.cap, placement_profiles(ctx, s.cap, s.budgets), s.active)


def _expected(ctx: EngineContext, s: _Sizing) -> tuple[dict, dict, list[str]]:
    """(expected figures, details of the soft limits, page cache and shared storage, warnings)."""
    hosts = s.active + ctx.scenario.hosts.reserve
    reserve = figure(ctx.scenario.hosts.reserve, "hosts")
    expected = ({"reserve_hosts": reserve} if s.infeasible else
                {"hosts": figure(hosts, "hosts"), "active_hosts": figure(s.active, "hosts"), "reserve_hosts": reserve})
    for name, n in s.room.items():  # the headroom, right after the counts: what a planner reads first
        if not s.infeasible:
            expected[f"headroom_{name}"] = figure(n, "more VMs", workload=name,
                                                  **({"at_least": True} if name in s.at_least else {}))
    for k, v in s.finite.items():
        expected[f"hosts_for_{k}"] = figure(v, "hosts")
        if not s.infeasible:
            expected[f"utilization_{k}"] = figure(100.0 * v / s.active, "% of usable")
    soft_details, soft_warnings, soft_figs = (({}, [], {}) if s.infeasible else
                                              _soft_limits(ctx, s.plan or s.packing, s.cap, s.budgets, s.active))
    expected.update(soft_figs)
    cache_details, cache_warnings = ({}, []) if s.infeasible else _page_cache(ctx, s.plan or s.packing, s.budgets)
    shared_figures, shared_warnings, shared_details = _shared_load(ctx, s.total)
    expected.update(shared_figures)
    details = {"soft_limits": soft_details}
    if cache_details:
        details["page_cache"] = cache_details
    if shared_details:
        details["shared_storage"] = shared_details
    warnings = [w for w in (*s.problems, _shared_capacity(ctx), *shared_warnings, *soft_warnings, *cache_warnings,
                            *(s.constrained.notes if s.constrained else ()), _room_caveat(ctx, s)) if w]
    return expected, details, warnings


def _room_caveat(ctx: EngineContext, s: _Sizing) -> str:
    """Why the headroom is an upper bound (not searched under the constraints), or where it is a
    lower bound (a workload's search stopped before its room ended)."""
    from advisor.recommend.room import at_least, unsearched

    if s.infeasible or not declared(ctx.scenario):
        return ""
    return unsearched(ctx.scenario) or at_least(s.at_least)


def _alternatives(ctx: EngineContext, s: _Sizing) -> list[Alternative]:
    """The planned count (why it is too few or too many) and one host more."""
    from advisor.recommend import targets as tg

    if s.infeasible:
        return []
    sc = ctx.scenario
    hosts, planned, out = s.active + sc.hosts.reserve, sc.hosts.count, []
    bottleneck = s.bottleneck
    if planned != hosts:
        p_active = planned - sc.hosts.reserve
        if p_active < s.placed_active and not s.raised:
            why = (f"too few: placing whole VMs takes {s.placed_active} active hosts "
                   f"({figure_label(bottleneck)} alone needs {s.need[bottleneck]:.2f})")
        elif p_active < s.placed_active:
            why = "too few: VMs that live-migrate need a second host [hc.migration-two-hosts]"
        elif planned < hosts:
            missed = tg.missed(tg.evaluate(ctx, max(p_active, 1), names=tg.COUNT_DEPENDENT,
                                           cpu_points=_migration_points(s.budgets)))
            why = f"too few to meet the targets ({'; '.join(r.text() for r in missed)})"
        else:
            why = (f"{planned - hosts} more than needed; utilization of {figure_label(bottleneck)} would be "
                   f"{100 * s.need[bottleneck] / max(p_active, 1):.0f} %")
        out.append(Alternative(str(planned), -1.0, {"hosts": figure(planned, "hosts")}, f"the planned count: {why}"))
    if hosts + 1 != planned:
        out.append(Alternative(str(hosts + 1), -0.5, {"hosts": figure(hosts + 1, "hosts")},
                               "one more host than the workloads and the reserve need"))
    return out


def _reserved_text(ctx: EngineContext, s: _Sizing) -> str:
    """What the budgets keep back, for the rationale."""
    sc, budgets = ctx.scenario, s.budgets
    reserved = []
    if budgets.cpu_points:
        reserved.append(f"host CPU is planned at {budgets.cpu_ceiling(planned_cpu_percent(sc)):g} % "
                        f"({budgets.cpu_points:g} points of {planned_cpu_percent(sc):g} % kept for "
                        + " and ".join(x for x, rid in (("live-migration sources", "hc.migration-headroom"),
                                                        ("co-located database clusters", "hc.multi-cluster-cpu"))
                                       if rid in budgets.rules) + ")")
    if budgets.page_cache:
        reserved.append("host RAM left after the guests serves as page cache for I/O-intensive VMs (planned: 1 GiB "
                        "per I/O-heavy VM, 0.5 GiB per medium one; a soft budget)")
    if s.raised:
        reserved.append("live migration needs a second host")
    return (" Reserved: " + "; ".join(reserved) + ".") if reserved else ""


def _count_text(sc, s: _Sizing) -> str:
    """"N hosts: A active ... plus R kept free (N+R)"; hosts the constraints leave empty are said to be
    the spare they are, not hidden behind N+0."""
    hosts, reserve = s.active + sc.hosts.reserve, sc.hosts.reserve
    empty = s.constrained.empty if s.constrained else 0
    spare = (f" ({empty} of them hold no VM: the spare that {s.constrained.binding} needs)"
             if empty and s.constrained else "")
    kept = f" plus {reserve} kept free (N+{reserve})" if reserve or not empty else ", none kept free beyond them"
    return f"{hosts} host{'' if hosts == 1 else 's'}: {s.active} active for the workloads{spare}{kept}"


def _rationale(ctx: EngineContext, s: _Sizing) -> str:
    from advisor.recommend import targets as tg

    sc = ctx.scenario
    active = s.active
    if s.infeasible:
        return ("No host count meets every hard limit: " + "; ".join(s.problems) + ". Change the hosts, the "
                f"workloads or the targets; the later decisions assume the {active} planned active hosts.")
    whole = (f" VMs are placed whole (first-fit decreasing, each VM within one host's CPU, RAM, disk and "
             f"network): {s.packing.hosts} active hosts, against {s.pooled} if capacity could be pooled across "
             f"hosts." if s.packing.hosts > s.pooled else "")
    target_text = ""
    if s.target_results:
        met = [r for r in s.target_results if r.met]
        missed = tg.missed(s.target_results)
        target_text = (f" Targets: {len(met)} of {len(s.target_results)} met at {active} active hosts"
                       + (f" (the placement alone needs {s.placed_active}; more hosts meet them)"
                          if s.by_targets else "")
                       + (": missed " + "; ".join(r.text() for r in missed) if missed else "") + ".")
    over = sc.preferences.ram_overcommit
    room = s.room
    # a workload of two VM sizes (given as totals) counts its room in VMs of its first size
    sized = {w.name: f" of {w.vcpus} vCPU" for w in sc.workloads if len(w.vm_shapes) > 1}
    # a soft limit the hosts are already short of (HDDs' IOPS): the count and the room follow the hard
    # limits, and the text says so instead of naming it the bottleneck of a count it did not set
    short = [k for k in SOFT if s.finite.get(k, 0.0) > active]
    hard = max((k for k in HARD if k in s.finite), key=lambda k: s.finite[k], default=None)
    soft_text = ""
    if s.bottleneck in short and hard is not None:
        soft_text = (f", a soft limit: the count follows the hard limits, led by {figure_label(hard)} "
                     f"({s.need[hard]:.2f} hosts' worth), and the {active} active hosts run "
                     f"{figure_label(s.bottleneck)} at {100 * s.need[s.bottleneck] / max(active, 1):,.0f} % of what "
                     f"they offer (see the warnings)")
    return (f"{_count_text(sc, s)}. The bottleneck is {figure_label(s.bottleneck)} "
            f"({s.need[s.bottleneck]:.2f} hosts' worth){soft_text}.{whole} CPU counts physical cores "
            f"({sc.hosts.cpu.cores} per host, threads not counted) at {ctx.facts.overallocation_ratio or 1.0:g} "
            f"vCPUs per core; RAM is {'not over-committed' if over == 1 else f'over-committed {over:g}x'}"
            f" after the hypervisor's {hypervisor_reserve_gib(sc.hosts.ram_gib):.3g} GiB."
            f"{_reserved_text(ctx, s)}{s.constrained.text() if s.constrained else ''}{target_text}"
            + (f" Still room{' by the hard limits' if short else ''} on the {active} active hosts for "
               + ", ".join(f"{'at least ' if name in s.at_least else ''}{n} more {name} VM{'s' if n != 1 else ''}"
                           f"{sized.get(name, '')}" for name, n in room.items())
               + " (each profile alone)." if room else ""))


#: the sizing's assumptions, listed in ``details.assumptions``
ASSUMPTIONS = ("vCPUs count against physical cores, not hardware threads",
               "busy share per vCPU: low 0.2, medium 0.5, high 0.9 (or the workload's measured CPU busy share), on "
               "a core of the thesis' 2.0 GHz; a request load costs the thesis' CPU per request (doc 004 Section "
               "8.4.1); busy cores = core-GHz over the hosts' clock",
               "IOPS per VM when not given: low 50, medium 200, high 1000",
               "per-disk IOPS when not given or calibrated: HDD 150, SSD 50000, NVMe 300000",
               "hypervisor keeps 0.5 GiB + 3 % of host RAM; 2 % RAM overhead per VM",
               "90 % of local disk capacity and 70 % of the NIC are usable",
               "hard limits: CPU allocation, RAM, disk capacity, hard targets; soft: CPU load, IOPS, storage traffic "
               "(a VM above them gets a host of its own, the consequence is shown)",
               "a VM is never split over hosts: whole VMs are placed first-fit decreasing")


def _details(ctx: EngineContext, s: _Sizing, extra: dict) -> dict:
    sc = ctx.scenario
    details = {"bottleneck": s.bottleneck, "hosts_needed": {k: round(v, 3) for k, v in s.finite.items()},
               "per_host_capacity": {k: round(v, 3) for k, v in s.cap.items()},
               "demand": {k: round(v, 3) for k, v in s.total.items()}, "units": UNITS,
               "hard_limits": list(HARD), "soft_limits": extra["soft_limits"],
               "headroom_vms": s.room, "reserve": sc.hosts.reserve,
               "hosts_by_packing": s.packing.hosts, "hosts_by_pooling": s.pooled,
               "hosts_by_targets": s.active if s.by_targets else None,
               "placement": _by_workload((s.plan or s.packing).placement(), sc),
               "packing_order": (s.plan or s.packing).order,
               **(s.constrained.details(sc.hosts.reserve) if s.constrained else {}),
               "unplaced": _unplaced(s.packing.unplaced, sc), "infeasible": s.problems,
               "budgets": s.budgets.to_dict(planned_cpu_percent(sc)),
               "hypervisor_reserve_gib": round(hypervisor_reserve_gib(sc.hosts.ram_gib), 3),
               "targets": [r.to_dict() for r in s.target_results], "assumptions": list(ASSUMPTIONS)}
    details.update({k: v for k, v in extra.items() if k != "soft_limits"})
    return details


def _by_workload(placement: list[dict], sc) -> list[dict]:
    """The packing's host groups with their VMs per workload (:func:`by_workload`: a workload's VM
    shapes joined, and split out in ``vm_shapes``)."""
    shapes = shape_names(sc)
    return [{**g, **by_workload(g["vms"], shapes)} for g in placement] if shapes else placement


def _unplaced(unplaced: dict[str, list[str]], sc) -> dict[str, list[str]]:
    """Workload -> the resources one VM of it exceeds (of any of its VM shapes)."""
    shapes = shape_names(sc)
    out: dict[str, list[str]] = {}
    for key, resources in unplaced.items():
        name = shapes.get(key, (key, 0))[0]
        out[name] = list(dict.fromkeys(out.get(name, []) + resources))
    return out


def hosts_needed(ctx: EngineContext) -> int | None:
    """The hosts (reserve included) :func:`recommend` gives, None when infeasible, without its
    headroom, figures and text (what re-pricing an alternative choice reads)."""
    s = _place(ctx)
    _count(ctx, s)
    return None if s.infeasible else s.active + ctx.scenario.hosts.reserve


def recommend(ctx: EngineContext) -> list[Recommendation]:
    """The host count (choice and ``value``), with per-resource needs, bottleneck and headroom;
    updates ``ctx.facts`` to the recommended active hosts. ``infeasible`` (no value) when no host
    count meets a hard limit."""
    sc = ctx.scenario
    s = _place(ctx)
    _count(ctx, s)
    _room(ctx, s)
    hosts = s.active + sc.hosts.reserve
    expected, extra, warnings = _expected(ctx, s)
    outcome = s.outcome
    text = " ".join(r.text for r in outcome.fired)
    site_iops = _local(ctx) and any(disk_iops(ctx, d)[1] == "site" for d in sc.hosts.disks)
    sized_on = percentile_sizing(sc)
    rec = Recommendation(
        decision=DECISION, scope="cluster", choice="infeasible" if s.infeasible else str(hosts),
        value=None if s.infeasible else float(hosts), alternatives=_alternatives(ctx, s),
        expected=expected, confidence=0.2 if s.infeasible else 0.8,
        rationale=" ".join(x for x in (_rationale(ctx, s), sized_on.text, totals_text(sc), text) if x),
        citations=ctx.cites.for_rules(outcome.fired), rules=[r.id for r in outcome.fired],
        warnings=list(dict.fromkeys(outcome.warnings)) + warnings + sized_on.warnings,
        basis=ctx.calibration.basis if site_iops else "documents")
    if extra["soft_limits"].get("cpu_load", {}).get("statements"):
        rec.citations.append(ctx.kb.get(ctx.kb.resolve_document("004"), CPU_CEILING_ROW.split(":")[1]).citation())
    rec.details = _details(ctx, s, extra)
    ctx.chosen["host_count"] = None if s.infeasible else hosts
    ctx.chosen["cpu_points"] = _migration_points(s.budgets)
    ctx.facts.set_hosts(sc, s.active)
    vcpu_overallocation.refresh_cpu(ctx, s.active)  # the over-allocation card's CPU on these hosts
    storage_backend.refresh(ctx)  # the storage card's boot times on these hosts
    return [rec]
