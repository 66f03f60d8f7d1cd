"""Capacity over time: the scenario's ``growth`` section turned into the advice's ``timeline``
(hosts needed per year, utilization of the planned hosts per resource and the binding one, cost
per year with a cost catalogue) and ``runs_out`` (the first year the planned hosts miss a hard
limit), with the host count's own search for each year's VMs.

**Growth.** Demand grows per resource, compounded: CPU (allocation and load) at
``cpu_pct_per_year``, RAM at ``ram_pct_per_year``, storage (capacity, IOPS and storage traffic) at
``storage_pct_per_year``; a workload's own ``growth`` replaces a rate for it. A step event adds
``add_vms`` VMs of its workload's shape in its year (negative: retires them); they grow with the
workload from then on. In year ``y`` a workload of ``n`` VMs therefore holds, in resource ``r``,
``n (1 + p_r)^y + sum_events add (1 + p_r)^(y - year)`` VMs' worth of its per-VM demand.

**Placement.** A workload grows as more whole VMs of its shape: as many as its fastest-growing
resource needs, rounded up; the other resources' per-VM demand is scaled by their growth over the
fastest one (each at most today's VM, so a VM never outgrows a host). Demand and utilization are
the exact totals; the placement's exceed them by less than one VM's worth per workload. The host count of a year is
the host count's own search on the year's VMs (:func:`year_count`: the placement, the placement
constraints, failures to survive and HA admission, then the count-dependent targets), at least
live migration's second host, and never below today's advised count while every resource's
demand is at least today's; year 0 is the advice itself.

**Planned hosts** are the scenario's (``preferences.fixed.host_count`` when a design is fixed,
else ``hosts.count``), reserve included; utilization is of their usable capacity (the host
count's ceilings) on the active ones. The planned hosts hold a year (``planned_hosts_fit``) when
the hosts it needs are no more than the planned ones (the placement within every limit that places
VMs: CPU allocation, CPU load at the planned ceiling, RAM, local disk capacity, and the
constraints and targets) and the whole VMs fit them in the hard limits (CPU allocation, RAM, local
disk capacity). ``runs_out`` is the first year they no longer do, naming where the plan breaks: the
constraint or targets that raise the count when the resources still fit, else the most used of the
resources that place VMs that year (a hard resource the hosts lack altogether first).
"""

from __future__ import annotations

import copy
import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

from advisor.hardware import SHARED_KIND
from advisor.recommend.base import EngineContext, Recommendation
from advisor.recommend.host_demand import (
    DISK_USABLE,
    HARD,
    LABELS,
    REPORTED_ONLY,
    UNITS,
    Budgets,
    _migration_points,
    host_capacity,
    pin_vm_demand,
    placement_demand,
    vm_demand,
)
from advisor.recommend.load import busy_share, vm_iops
from advisor.recommend.packing import pack
from advisor.recommend.placed_count import Placed, placed_active
from advisor.scenario.model import GROWTH_RATES, Growth, GrowthEvent, Scenario, Workload, compound, level_of
from knowledge.infra.errors import InputError

#: which growth rate each resource of the host count follows
RATE_OF = {"cpu_allocation": "cpu", "cpu_load": "cpu", "ram": "ram", "disk_capacity": "storage",
           "disk_iops": "storage", "network": "storage"}
RATES = GROWTH_RATES
#: the resources that place VMs (the host count's limits; IOPS and storage traffic are only reported)
PLACING = tuple(k for k in RATE_OF if k not in REPORTED_ONLY)


@dataclass
class Year:
    """One year of the timeline: hosts needed (reserve included) and bought this year, VMs,
    demand per resource, utilization (%) of the planned hosts' usable capacity, the binding
    resource, whether the planned hosts still hold it (hard limits), and the cost with a catalogue."""

    year: int
    hosts: int
    active_hosts: int
    buy: int
    vms: int
    demand: dict[str, float]
    utilization: dict[str, float]
    binding: str
    fits: bool
    cost: dict[str, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"year": self.year, "hosts": self.hosts, "active_hosts": self.active_hosts,
                               "buy": self.buy, "vms": self.vms,
                               "utilization": {k: round(v, 2) for k, v in self.utilization.items()},
                               "binding": self.binding, "planned_hosts_fit": self.fits,
                               "demand": {k: round(v, 3) for k, v in self.demand.items()}}
        if self.cost is not None:
            out["cost"] = dict(self.cost)
        return out


@dataclass
class Timeline:
    """The years of the horizon (year 0: today), the planned hosts and their usable capacity per
    resource (one host, and the active ones), and the first year they run out."""

    years: list[Year]
    planned_hosts: int
    reserve: int
    capacity: dict[str, float]
    runs_out: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)
    shared_usable_gb: float = 0.0  # the shared store's usable GB the images live on (0: none stated)
    currency: str = ""  # of the years' cost, with a cost catalogue

    @property
    def planned_active(self) -> int:
        return max(self.planned_hosts - self.reserve, 1)

    def to_list(self) -> list[dict[str, Any]]:
        return [y.to_dict() for y in self.years]

    def units(self) -> dict[str, Any]:
        """The units of the JSON timeline's entries (``timeline_units`` beside ``timeline``)."""
        cores = self.capacity.get("cpu_allocation", 0.0)
        ceiling = 100.0 * self.capacity.get("cpu_load", 0.0) / cores if cores else 0.0
        out: dict[str, Any] = {
            "hosts": "hosts (reserve included)", "active_hosts": "hosts", "buy": "hosts", "vms": "VMs",
            "demand": {k: UNITS[k] for k in self.capacity} | (
                {SHARED: "GB (virtual disks on the shared store)"} if self.shared_usable_gb else {}),
            "utilization": f"% of the usable capacity of the {self.planned_active} planned active hosts "
                           f"(CPU load: of {ceiling:.4g} % of their cores, the planned ceiling"
                           + (f"; shared storage capacity: of the store's {self.shared_usable_gb:,.0f} GB usable"
                              if self.shared_usable_gb else "") + ")"}
        if self.currency:
            out["cost"] = f"{self.currency}; year 0: the purchase, years 1 to {self.years[-1].year}: each year's opex"
        return out


factor = compound  # compound growth of ``pct`` % per year over ``years`` (declared in the scenario model)


def rates(g: Growth, w: Workload) -> dict[str, float]:
    """The growth rates (% per year) of workload ``w``: its own where given, else the scenario's."""
    return g.rates(w)


def vm_equivalents(g: Growth, w: Workload, year: int, events: list[GrowthEvent] | None = None) -> dict[str, float]:
    """Per growth rate: how many of today's VMs of ``w`` the demand of ``year`` is worth (today's
    VMs and the events' VMs, each compounded from its year; never below 0: the reader refuses
    events that retire more). ``events``: those of ``w`` (default: found in ``g``)."""
    return {r: max(n, 0.0) for r, n in g.worth(w, year, events).items()}


def grown(g: Growth, w: Workload, demand: dict[str, float], year: int, events: list[GrowthEvent] | None = None
          ) -> tuple[int, dict[str, float], dict[str, float]]:
    """(whole VMs, per-VM demand, exact demand) of ``w`` in ``year``: as many VMs as the
    fastest-growing rate needs, rounded up; each resource's per-VM demand scaled by its growth
    over the fastest one (the same scale for every workload of one profile and rates without
    events, so the placement keeps them together; the placed total exceeds the exact one by less
    than one VM's worth)."""
    mine = [e for e in g.events if e.workload == w.name] if events is None else events
    eq = vm_equivalents(g, w, year, mine)
    exact = {k: v * eq[RATE_OF.get(k, "cpu")] for k, v in demand.items()}
    top = max(eq.values())
    n = math.ceil(top - 1e-9)
    if n <= 0:
        return 0, dict.fromkeys(demand, 0.0), exact
    if any(e.year <= year for e in mine):
        scale = {r: eq[r] / top for r in RATES}
    else:
        p = rates(g, w)
        f = {r: factor(p[r], year) for r in RATES}
        scale = {r: f[r] / max(f.values()) for r in RATES}
    return n, {k: v * scale[RATE_OF.get(k, "cpu")] for k, v in demand.items()}, exact


def timeline_vms(sc: Scenario, year: int) -> int:
    """The VMs the timeline counts in ``year`` (:func:`grown`'s whole VMs of each workload, summed):
    the figure the advice's timeline states for that year, for texts that name it elsewhere."""
    g = sc.growth
    if g is None:
        return sc.total_vms
    return sum(grown(g, w, {}, year)[0] for w in sc.workloads)


def planned_hosts(sc: Scenario) -> int:
    """The planned hosts, reserve included: the fixed design's count, else ``hosts.count``."""
    pinned = sc.preferences.fixed.get("host_count")
    return int(pinned) if pinned is not None else sc.hosts.count


@dataclass
class _Grown:
    """One year's grown VMs: the count, the exact demand totals, the utilization of the planned
    hosts, and per workload (name, placement demand, VMs, per-VM demand) with its workload."""

    vms: int
    total: dict[str, float]
    util: dict[str, float]
    profiles: list[tuple]
    workloads: list[tuple[Workload, int, dict[str, float]]]


def _grow(g: Growth, base: list[tuple[Workload, dict[str, float]]], cap: dict[str, float], year: int,
          planned_active: int, events: dict[str, list[GrowthEvent]]) -> _Grown:
    """The VMs of ``year``, their demand and the planned hosts' utilization."""
    total = dict.fromkeys(cap, 0.0)
    profiles, grown_wl, vms = [], [], 0
    for w, d in base:
        n, per, exact = grown(g, w, d, year, events.get(w.name, []))
        vms += n
        for k, v in exact.items():
            total[k] += v
        profiles.append((w.name, placement_demand(per, cap), n, per))
        grown_wl.append((w, n, per))
    util = {k: 100.0 * total[k] / (cap[k] * planned_active) for k in cap if cap[k] > 0}
    return _Grown(vms, total, util, profiles, grown_wl)


def year_count(ctx: EngineContext, budgets: Budgets, grown_wl: list[tuple[Workload, int, dict[str, float]]]
               ) -> tuple[int, str, Placed]:
    """(active hosts, what raised them over the resources' placement or '', the placement) of a
    year's VMs: the host count's own search (:func:`advisor.recommend.placed_count.placed_active`:
    placement constraints, failures to survive, HA admission; then the count-dependent targets) on
    a copy of the scenario holding the grown VMs."""
    from advisor.recommend.host_count import _search_targets

    sc = copy.copy(ctx.scenario)
    sc.workloads = []
    yctx = dataclasses.replace(ctx, scenario=sc, memo={})
    for w, n, per in grown_wl:
        if n > 0:
            yw = copy.copy(w)
            yw.vms = n
            sc.workloads.append(yw)
            pin_vm_demand(yctx, yw, per, shaped=False)  # grown on average: placed as such
    placed = placed_active(yctx, budgets)
    active, why = placed.active, placed.binding
    if not placed.problems and sc.workloads:
        n, results, _ = _search_targets(yctx, active, _migration_points(budgets))
        if n > active:
            active, why = n, "targets: " + ", ".join(dict.fromkeys(r.name for r in results))
    return active, why, placed


def _hard_fits(placed, profiles: list[tuple], cap: dict[str, float], total: dict[str, float], active: int) -> bool:
    """Whether ``active`` hosts hold the whole VMs in the hard limits: yes when the full placement
    fits them, no when a hard resource is short in total (or missing), else a placement of the
    hard resources alone decides."""
    hard_cap = {k: cap[k] for k in HARD if cap.get(k, 0) > 0}
    if any(total[k] > 0 for k in HARD if cap.get(k, 0) <= 0):
        return False
    if not placed.unplaced and placed.hosts <= active:
        return True
    if any(total[k] > cap[k] * active * (1 + 1e-9) for k in hard_cap):
        return False
    held = pack(hard_cap, [(name, {k: per[k] for k in hard_cap}, n) for name, _, n, per in profiles])
    return not held.unplaced and held.hosts <= active


def _binding(util: dict[str, float], keys: tuple[str, ...] | None = None) -> str:
    pool = {k: v for k, v in util.items() if keys is None or k in keys} or util
    return max(pool, key=lambda k: pool[k]) if pool else ""


def _breaks(util: dict[str, float], total: dict[str, float], cap: dict[str, float]) -> str:
    """Where the plan breaks in a year it no longer holds: a hard resource the hosts lack
    altogether, else the most used resource that places VMs."""
    missing = [k for k in HARD if total.get(k, 0) > 0 and cap.get(k, 0) <= 0]
    return missing[0] if missing else _binding(util, PLACING)


def timeline(ctx: EngineContext, hc: Recommendation | None, catalogue=None,
             design: dict[str, Any] | None = None) -> Timeline | None:
    """The timeline of the scenario's growth (None without a ``growth`` section or a host count
    card): ``hc`` is the advice's host count recommendation (its fired rules are the budgets, its
    count today's); ``catalogue`` and ``design`` (hypervisor, storage backend) price each year."""
    sc = ctx.scenario
    g = sc.growth
    if g is None or hc is None:
        return None
    budgets = Budgets.of(hc.rules)
    cap = host_capacity(ctx, budgets)
    base = [(w, vm_demand(ctx, w, budgets)) for w in sc.workloads]
    reserve = sc.hosts.reserve
    planned = planned_hosts(sc)
    p_active = max(planned - reserve, 1)
    today = int(hc.value) - reserve if hc.value is not None else None
    minimum = max(1, budgets.min_hosts - reserve)
    out = Timeline([], planned, reserve, cap)
    first: dict[str, float] = {}
    most = 0
    events: dict[str, list[GrowthEvent]] = {}
    for e in g.events:
        events.setdefault(e.workload, []).append(e)
    memo: dict[tuple, tuple[int, str, Placed]] = {}
    for y in range(g.horizon_years + 1):
        gy = _grow(g, base, cap, y, p_active, events)
        first = first or gy.total
        if y == 0 and today is not None:  # year 0 is the advice: its count, its placement
            active, why, packing = today, "", pack(cap, [p[:3] for p in gy.profiles])
        else:
            key = tuple((n, tuple(per.items())) for _, n, per in gy.workloads)
            if key not in memo:
                memo[key] = year_count(ctx, budgets, gy.workloads)
            active, why, placed = memo[key]
            packing = placed.packing
        active = max(active, minimum)
        if today is not None and all(gy.total[k] >= first[k] - 1e-9 for k in gy.total):
            active = max(active, today)
        hosts = active + reserve
        buy = max(hosts - most, 0) if y else hosts
        most = max(most, hosts)
        hard_fits = _hard_fits(packing, gy.profiles, cap, gy.total, p_active)
        fits = hard_fits and active <= p_active  # more hosts needed than planned: the plan does not hold
        out.years.append(Year(y, hosts, active, buy, gy.vms, gy.total, gy.util, _binding(gy.util, PLACING), fits))
        if not fits and out.runs_out is None:
            where = why if hard_fits and why else _breaks(gy.util, gy.total, cap)
            out.runs_out = {"year": y, "resource": where, "planned_hosts": planned}
    _shared_store(ctx, out, g)
    _single_vms(g, base, cap, out, events)
    _reported_only(out)
    if hc.value is None:
        out.notes.append("no host count meets every hard limit today: the hosts per year are the placement's")
    if catalogue is not None:
        _price(out, ctx, catalogue, design or {})
    return out


def _single_vms(g: Growth, base: list[tuple[Workload, dict[str, float]]], cap: dict[str, float], tl: Timeline,
                events: dict[str, list[GrowthEvent]]) -> None:
    """A workload of one VM (a database, a licence-bound VM) grows as more VMs of its shape here;
    say so, and the first year that VM, grown in place, outgrows a host in a hard limit no longer
    holds (a VM cannot be split over hosts)."""
    for w, d in base:
        if w.vms != 1 or events.get(w.name):
            continue
        first = None
        for y in tl.years:
            eq = vm_equivalents(g, w, y.year)
            over = [k for k in HARD if cap.get(k, 0) > 0 and d[k] * eq[RATE_OF[k]] > cap[k] * (1 + 1e-9)]
            if over:
                y.fits = False
                first = first or (y.year, over[0], d[over[0]] * eq[RATE_OF[over[0]]])
        if first is not None:
            year, k, size = first
            if tl.runs_out is None or tl.runs_out["year"] > year:
                tl.runs_out = {"year": year, "resource": k, "planned_hosts": tl.planned_hosts, "workload": w.name}
            tl.notes.append(f"{w.name} is one VM today: the timeline grows it as more VMs of its shape; as one VM its "
                            f"{LABELS[k]} ({size:,.1f} {UNITS[k]}) outgrows a host's {cap[k]:,.1f} {UNITS[k]} usable in year {year}")
            continue
        more = next((y.year for y in tl.years if max(vm_equivalents(g, w, y.year).values()) > 1 + 1e-9), None)
        if more is not None:
            tl.notes.append(f"{w.name} is one VM today: the timeline grows it as more VMs of its shape from "
                            f"year {more} (as one VM it still fits a host every year)")


#: the demand and utilization key of the virtual disks on the shared store the images live on
SHARED = "shared_storage_capacity"


def _shared_store(ctx: EngineContext, tl: Timeline, g: Growth) -> None:
    """When the images live on a shared store of stated capacity: each year's virtual disks (GB, at
    the storage rate) against its usable capacity (90 %, as today's advice checks it); the first
    year they exceed it the plan no longer holds, naming the store's ``capacity_tb``."""
    kind = SHARED_KIND.get(ctx.facts.storage_backend or "local_disk")
    stores = [(s.capacity_tb, i) for i, s in enumerate(ctx.scenario.hosts.shared_storage)
              if s.kind == kind and s.capacity_tb]
    if not stores:
        return
    tb, i = max((float(t or 0.0), i) for t, i in stores)
    usable = tb * 1000 * DISK_USABLE
    for y in tl.years:
        need = sum(_disks_gb(g, w, y.year) for w in ctx.scenario.workloads)
        y.demand[SHARED], y.utilization[SHARED] = need, 100.0 * need / usable
        if need > usable * (1 + 1e-9):
            y.fits = False
            if tl.runs_out is None or tl.runs_out["year"] > y.year:
                tl.runs_out = {"year": y.year, "resource": SHARED, "planned_hosts": tl.planned_hosts,
                               "field": f"hosts.shared_storage[{i}].capacity_tb"}
    tl.shared_usable_gb = usable


def _reported_only(tl: Timeline) -> None:
    """A note for each resource that does not place VMs (disk IOPS, storage traffic) once it passes
    100 % of the planned hosts: more hosts are no cure, so the plan is said to hold without it."""
    for k in REPORTED_ONLY:
        over = next((y for y in tl.years if y.utilization.get(k, 0.0) > 100.0), None)
        if over is not None:
            tl.notes.append(f"{LABELS[k]} reaches {over.utilization[k]:,.0f} % of the planned hosts' in year "
                            f"{over.year}: reported only (it places no VMs; faster disks or links, not more hosts, "
                            "cure it), so the planned hosts are said to hold without it")


def _price(tl: Timeline, ctx: EngineContext, cat, design: dict[str, Any]) -> None:
    """Each year's cost with the catalogue: capex of the hosts (and storage) bought that year (the
    rise of the design's capex) plus that year's opex (none in year 0, the purchase: years 1 to the
    horizon are its years of running cost, as the bill's total counts the catalogue's years); the
    running total."""
    from advisor.cost import DesignFacts, match_host, match_storage, price

    sc = ctx.scenario
    host = match_host(cat, sc.hosts)
    backend = design.get("storage_backend")
    storage = match_storage(cat, sc, backend)
    cores = max(sc.hosts.cpu.cores, 1)
    g = sc.growth
    assert g is not None  # (a timeline is made of a growth section)
    spent, capex_before = 0.0, 0.0
    tl.currency = cat.currency
    for y in tl.years:
        busy = min(1.0, y.demand.get("cpu_load", 0.0) / max(y.active_hosts * cores, 1))
        image_tb = sum(_disks_gb(g, w, y.year) for w in sc.workloads) / 1000.0
        bill = price(cat, DesignFacts(host, y.hosts, y.active_hosts, busy, design.get("hypervisor"), backend,
                                      storage, image_tb))
        capex = max(bill.capex - capex_before, 0.0)
        capex_before = max(capex_before, bill.capex)
        opex = bill.opex_per_year if y.year else 0.0
        spent += capex + opex
        y.cost = {"capex": round(capex, 2), "opex": round(opex, 2), "spend": round(capex + opex, 2),
                  "cumulative": round(spent, 2)}
    if float(cat.years) != g.horizon_years:
        tl.notes.append(f"the cumulative cost counts the {g.horizon_years} years of the horizon's opex; "
                        f"the bill's total the cost catalogue's {cat.years:g} years")
    if host is None:
        tl.notes.append("no host model of the cost catalogue matches the hosts: the hosts are not priced")


def _disks_gb(g: Growth, w: Workload, year: int) -> float:
    """GB of virtual disks of ``w`` in ``year`` (at the storage rate)."""
    return vm_equivalents(g, w, year)["storage"] * w.disk_size_gb


def horizon_scenario(sc: Scenario) -> Scenario:
    """The scenario at the most demanding point of its growth, as a scenario without growth (what
    ``capadvisor optimize --horizon`` searches a design for: one that lasts every year). Each
    workload holds the most whole VMs its CPU or RAM asks in any year; RAM per VM is scaled to the
    largest total any year asks, vCPUs per VM too, rounded up to whole vCPUs (at most one more per
    VM than the timeline's CPU, with the busy share a vCPU scaled down so that the busy cores stay the
    year's), and the virtual disk and IOPS per VM to the largest storage total
    (a VM's disk may grow). So where storage grows fastest it holds fewer, larger VMs than the
    timeline counts that year (:func:`timeline_vms`: as many as the fastest rate needs); a text
    naming both says which is which (:func:`advisor.optimize.horizon.optimize_horizon`'s note)."""
    g = sc.growth
    if g is None:
        raise InputError(f"{sc.name}: the scenario has no growth section (growth: {{horizon_years, "
                         "cpu_pct_per_year, ram_pct_per_year, storage_pct_per_year}}) to size for")
    out = copy.deepcopy(sc)
    out.growth, out.name = None, f"{sc.name} (year {g.horizon_years} of its growth)"
    for w, o in zip(sc.workloads, out.workloads, strict=True):
        eqs = [vm_equivalents(g, w, y) for y in range(g.horizon_years + 1)]
        n = max(1, max(math.ceil(max(e["cpu"], e["ram"]) - 1e-9) for e in eqs))
        scale = {r: max(e[r] for e in eqs) / n for r in RATES}
        o.vms, o.total_vcpus, o.total_ram_gib, o.total_storage_tb, o.growth = n, None, None, None, None
        o.vcpus, o.fewer_vcpu_vms = max(1, math.ceil(w.mean_vcpus * scale["cpu"] - 1e-9)), 0
        o.ram_gib = w.ram_gib * scale["ram"]
        o.io.disk_gb = w.disk_size_gb * scale["storage"]
        o.io.footprint_gb = w.io.footprint_gb * scale["storage"] if w.io.footprint_gb else w.io.footprint_gb
        o.io.iops = vm_iops(w) * scale["storage"]
        if w.request_load_rps:
            o.request_load_rps = w.request_load_rps * scale["cpu"] * w.mean_vcpus / o.vcpus
        if w.realtime is None:  # the whole vCPUs keep the year's busy cores (#31 review 3 finding 17)
            share = busy_share(w) * w.mean_vcpus * scale["cpu"] / o.vcpus
            o.cpu_busy_share, o.cpu_intensity = share, level_of(share)
    return out
