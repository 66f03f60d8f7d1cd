"""``host_count``: how many hosts the workloads need, the bottleneck, and the headroom.

Per resource, the *fractional* hosts' worth of demand (``hosts_for_<resource>``; they explain
the bottleneck) is the workloads' total over one host's usable capacity:

* ``cpu_allocation``: vCPUs over physical cores through the chosen over-allocation ratio
  (vCPUs per physical core; hardware threads are not counted as cores; real-time VMs' vCPUs
  are pinned 1:1);
* ``cpu_load``: busy cores (vCPUs x a busy share per CPU intensity: low 0.2, medium 0.5,
  high 0.9 — an assumption) over physical cores x the planned utilization ceiling
  (``preferences.max_host_cpu_percent``, default 80 %, near the 82 % ceiling of doc 004 ch. 6);
* ``ram``: guest RAM (+ 2 % overhead per VM) over host RAM less the hypervisor's share
  (max(4 GiB, 5 %)), times ``preferences.ram_overcommit`` (1.0 = no over-commit);
* ``disk_capacity`` and ``disk_iops`` on local disks (when images stay local): virtual disk
  sizes against 90 % of the local capacity; IOPS per VM (given, or 50/200/1000 by I/O
  intensity) against the disks' IOPS (site figures when calibrated, else per-kind defaults:
  HDD 150, SSD 50,000, NVMe 300,000 per disk);
* ``network``: shared-storage traffic (IOPS x block size) over 70 % of the host NIC.

A VM cannot be split over hosts, so the active host count (before the N+x reserve) is that of
a placement of whole VMs (:func:`pack`): deterministic first-fit decreasing over the VMs of all
workloads, largest dominant share (its largest demand / capacity ratio) first, where a VM fits
a host only when it fits in every resource at once (a few other decreasing orders are tried
too and the fewest hosts kept). It is never below the ceiling of the largest per-resource need.
A VM larger than one host in some resource is reported by workload and resource (no host count
fixes it).

``utilization_<resource>`` is the share (%) of the *usable* capacity (80 % CPU ceiling, 90 % of
the disks, 70 % of the NIC) the workloads take on the recommended active hosts. Images on shared
storage are checked against its stated capacity, link (``network_gbps`` x 125 MB/s) and IOPS,
cluster-wide: a warning and ``shared_storage_*_utilization`` figures, not a host count (more
hosts do not make the storage faster).

The documents' sizing conclusions reserve capacity when their rules fire (:data:`HOST_BUDGETS`,
``details.budgets``): source hosts of live migrations keep 14 points of CPU (doc 004 c5-C4: CPU
climbed by up to 14 points while migrating), several co-located database clusters 10 more points
(c10-C3), and I/O-intensive VMs get host RAM for the page cache (doc 001 C6: 1 GiB per I/O-heavy
VM, the testbed's two-VM level, half of it per medium one). VMs that live-migrate need at least
two hosts.

Then the reserve is added. Headroom: for each workload profile, how many more whole VMs of it
fit into the per-host leftovers of the active hosts after the placement. When no host count can
place every VM (a VM larger than a host, or a resource the hosts lack), the choice is
``infeasible`` (no ``value``) and the warnings name the workload, the resource and the figures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from advisor.recommend.base import Alternative, EngineContext, Recommendation, figure
from advisor.recommend.disks import SHARED_KIND, disk_iops
from advisor.rules import evaluate

DECISION = "host_count"
BUSY = {"low": 0.2, "medium": 0.5, "high": 0.9}
IOPS_PER_VM = {"low": 50.0, "medium": 200.0, "high": 1000.0}
VM_RAM_OVERHEAD = 0.02
NIC_USABLE = 0.7
DISK_USABLE = 0.9
#: MB/s per Gb/s of link
MB_S_PER_GBPS = 125.0
#: relative tolerance of the fit tests (floating-point sums of demands)
EPS = 1e-9
#: percentage points of host CPU kept free when a rule fires (doc 004 c5-C4, c10-C3)
CPU_POINTS = {"hc.migration-headroom": 14.0, "hc.multi-cluster-cpu": 10.0}
#: GiB of host page cache planned per VM by I/O intensity when hc.page-cache fires (doc 001 C6,
#: S5.3-01: each guest took 1 GB of the testbed's page cache; two VMs had 1 GiB each)
PAGE_CACHE_GIB = {"low": 0.0, "medium": 0.5, "high": 1.0}
#: the lowest CPU ceiling the budgets may leave, % (a plan, never a host that takes no load)
MIN_CPU_CEILING = 20.0


@dataclass(frozen=True)
class Budgets:
    """What the fired host_count rules reserve: CPU points and page cache per VM."""

    cpu_points: float = 0.0
    page_cache: bool = False
    min_hosts: int = 1
    rules: tuple[str, ...] = ()

    @classmethod
    def of(cls, fired_ids) -> Budgets:
        ids = tuple(fired_ids)
        return cls(cpu_points=sum(CPU_POINTS.get(i, 0.0) for i in ids), page_cache="hc.page-cache" in ids,
                   min_hosts=2 if "hc.migration-two-hosts" in ids else 1,
                   rules=tuple(i for i in ids if i in CPU_POINTS or i in ("hc.page-cache", "hc.migration-two-hosts")))

    def cpu_ceiling(self, planned_percent: float) -> float:
        """The CPU utilization hosts are planned at, %, after the reserved points."""
        return max(MIN_CPU_CEILING, planned_percent - self.cpu_points) if self.cpu_points else planned_percent

    def to_dict(self, planned_percent: float) -> dict:
        return {"cpu_points_reserved": self.cpu_points, "cpu_ceiling_percent": self.cpu_ceiling(planned_percent),
                "page_cache_gib_per_vm": dict(PAGE_CACHE_GIB) if self.page_cache else {},
                "min_hosts": self.min_hosts, "rules": list(self.rules)}


NO_BUDGETS = Budgets()


def host_capacity(ctx: EngineContext, budgets: Budgets = NO_BUDGETS) -> dict[str, float]:
    """What one host offers, per resource, in the units of :func:`vm_demand` (CPU load after the
    CPU points the ``budgets`` reserve)."""
    sc = ctx.scenario
    h = sc.hosts
    ram = (h.ram_gib - max(4.0, 0.05 * h.ram_gib)) * sc.preferences.ram_overcommit
    iops = 0.0
    for d in h.disks:
        iops += disk_iops(ctx, d)[0] * d.count
    return {"cpu_allocation": float(h.cpu.cores),
            "cpu_load": h.cpu.cores * budgets.cpu_ceiling(sc.preferences.max_host_cpu_percent) / 100.0,
            "ram": max(ram, 0.1), "disk_capacity": sum(d.size_gb * d.count for d in h.disks) * DISK_USABLE,
            "disk_iops": iops, "network": h.nic_gbps * MB_S_PER_GBPS * NIC_USABLE}


def _local(ctx: EngineContext) -> bool:
    return (ctx.facts.storage_backend or "local_disk") == "local_disk"


def _iops(w) -> float:
    return w.io.iops if w.io.iops is not None else IOPS_PER_VM[w.io.intensity]


def _disk_gb(w) -> float:
    return w.disk_size_gb


def busy_cores(w) -> float:
    """Cores one VM of ``w`` keeps busy: vCPUs x the busy share of its CPU intensity (real-time
    vCPUs are pinned: wholly)."""
    return w.vcpus * (1.0 if w.realtime is not None else BUSY[w.cpu_intensity])


def vm_demand(ctx: EngineContext, w, budgets: Budgets = NO_BUDGETS) -> dict[str, float]:
    """One VM of workload ``w``: cores allocated (vCPUs / over-allocation ratio; real-time vCPUs
    pinned 1:1), busy cores, GiB RAM (with the page cache the ``budgets`` plan for it), GB disk,
    IOPS, MB/s of storage traffic."""
    ratio = ctx.facts.overallocation_ratio or 1.0
    local = _local(ctx)
    iops = _iops(w)
    disk = _disk_gb(w)
    rt = w.realtime is not None
    return {"cpu_allocation": float(w.vcpus) if rt else w.vcpus / ratio,
            "cpu_load": busy_cores(w),
            "ram": w.ram_gib * (1 + VM_RAM_OVERHEAD) + (PAGE_CACHE_GIB[w.io.intensity] if budgets.page_cache else 0.0),
            "disk_capacity": disk if local else 0.0,
            "disk_iops": iops if local else 0.0,
            "network": 0.0 if local else iops * w.io.block_size_kib * 1024 / 1e6}


def _needed(ctx: EngineContext, budgets: Budgets = NO_BUDGETS
            ) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    cap = host_capacity(ctx, budgets)
    total = dict.fromkeys(cap, 0.0)
    for w in ctx.scenario.workloads:
        for k, v in vm_demand(ctx, w, budgets).items():
            total[k] += v * w.vms
    need = {}
    for k in cap:
        need[k] = total[k] / cap[k] if cap[k] > 0 else (math.inf if total[k] > 0 else 0.0)
    return need, cap, total


UNITS = {"cpu_allocation": "cores", "cpu_load": "cores", "ram": "GiB", "disk_capacity": "GB",
         "disk_iops": "IOPS", "network": "MB/s"}
#: what each resource is, for messages
LABELS = {"cpu_allocation": "CPU allocation (vCPUs / over-allocation ratio)",
          "cpu_load": "CPU load (busy cores)", "ram": "RAM (guest RAM + 2 % overhead)",
          "disk_capacity": "local disk capacity", "disk_iops": "local disk IOPS",
          "network": "network (shared-storage traffic)"}


# --- placing whole VMs ------------------------------------------------------------------------
@dataclass
class HostGroup:
    """``count`` identical hosts, each holding ``vms`` (workload -> VMs per host) and keeping
    ``free`` (per resource, in the order of the capacity mapping) unused."""

    count: int
    free: list[float]
    vms: dict[str, int] = field(default_factory=dict)


@dataclass
class Packing:
    """A placement of whole VMs: host groups in first-fit order, and the workloads none of whose
    VMs fits an empty host (name -> resources it exceeds)."""

    resources: tuple[str, ...]
    capacity: list[float]
    groups: list[HostGroup]
    unplaced: dict[str, list[str]]
    order: str = "dominant"

    @property
    def hosts(self) -> int:
        return sum(g.count for g in self.groups)

    def fits(self, demand: dict[str, float], extra_hosts: int = 0) -> int:
        """How many more whole VMs of ``demand`` fit into the leftovers (plus ``extra_hosts``
        empty hosts)."""
        d = [demand[k] for k in self.resources]
        n = sum(g.count * _fits(g.free, d) for g in self.groups)
        return n + max(0, extra_hosts) * _fits(self.capacity, d)

    def placement(self) -> list[dict]:
        """JSON-ready: ``[{"hosts": n, "vms": {workload: VMs per host}}]``."""
        return [{"hosts": g.count, "vms": {k: v for k, v in g.vms.items() if v}} for g in self.groups]


def _fits(free: list[float], d: list[float]) -> int:
    """Whole VMs of per-VM demand ``d`` that fit into ``free`` (min over resources of
    floor(free / need); resources the VM does not use do not limit it)."""
    n = math.inf
    for f, x in zip(free, d, strict=True):
        if x > 0:
            q = math.floor(f / x + EPS)
            if q < n:
                n = q
                if n <= 0:
                    return 0
    return int(n) if math.isfinite(n) else 0


#: the decreasing orders :func:`pack` tries: by dominant share (largest demand / capacity ratio)
#: first, then by the sum of the shares, then by each resource's share alone
ORDERS = ("dominant", "sum", "cpu_allocation", "cpu_load", "ram", "disk_capacity", "disk_iops", "network")


def pack(capacity: dict[str, float], profiles: list[tuple[str, dict[str, float], int]],
         orders: tuple[str, ...] = ORDERS) -> Packing:
    """First-fit decreasing of whole VMs onto identical hosts of ``capacity``.

    ``profiles`` lists (workload name, per-VM demand, VMs). VMs are taken largest first (ties:
    the order given); each goes to the first open host where it fits in every resource, else to
    a new host. "Largest" is by dominant share (the VM's largest demand / capacity ratio); the
    other ``orders`` (sum of shares, one resource's share) are tried too and the placement with
    the fewest hosts kept (the earliest order on ties); the search stops once a placement reaches
    the pooled lower bound. VMs of one profile are identical, so they are placed in bulk: a host
    takes min over resources of floor(leftover / need) of them, and identical hosts are kept as
    one group — the same result as placing the VMs one by one.
    """
    keys = tuple(capacity)
    cap = [float(capacity[k]) for k in keys]
    unplaced: dict[str, list[str]] = {}
    items = []
    total = [0.0] * len(keys)
    for i, (name, demand, n) in enumerate(profiles):
        d = [float(demand.get(k, 0.0)) for k in keys]
        over = [k for k, x, c in zip(keys, d, cap, strict=True) if x > 0 and x > c * (1 + EPS)]
        if over:
            unplaced[name] = over
            continue
        if n <= 0:
            continue
        shares = [x / c if c > 0 else 0.0 for x, c in zip(d, cap, strict=True)]
        total = [t + x * n for t, x in zip(total, shares, strict=True)]
        items.append((shares, i, name, d, int(n)))
    bound = max(1, max((math.ceil(t - 1e-9) for t in total), default=1)) if items else 0
    best: list[HostGroup] | None = None
    best_order, tried = "", set()
    for order in orders:
        if order == "dominant":
            key = lambda t: (-max(t[0], default=0.0), t[1])  # noqa: E731
        elif order == "sum":
            key = lambda t: (-sum(t[0]), t[1])  # noqa: E731
        elif order in keys:
            j = keys.index(order)
            if not any(t[0][j] for t in items):
                continue
            key = lambda t, j=j: (-t[0][j], -max(t[0], default=0.0), t[1])  # noqa: E731
        else:  # a resource these hosts do not describe
            continue
        sequence = tuple(t[1] for t in sorted(items, key=key))
        if sequence in tried:
            continue
        tried.add(sequence)
        groups = _first_fit(cap, [(t[2], t[3], t[4]) for t in sorted(items, key=key)])
        if best is None or sum(g.count for g in groups) < sum(g.count for g in best):
            best, best_order = groups, order
        if sum(g.count for g in best) <= bound:
            break
    return Packing(keys, cap, best or [], unplaced, best_order)


def _first_fit(cap: list[float], items: list[tuple[str, list[float], int]]) -> list[HostGroup]:
    """First fit of ``items`` (name, per-VM demand, VMs) in the order given, in bulk per item."""
    groups: list[HostGroup] = []
    for name, d, n in items:
        j = 0
        while n > 0 and j < len(groups):
            g = groups[j]
            f = _fits(g.free, d)
            if f <= 0:
                j += 1
                continue
            full, rest = divmod(n, f)
            if full >= g.count:  # every host of the group takes f
                g.free = [a - f * x for a, x in zip(g.free, d, strict=True)]
                g.vms = {**g.vms, name: g.vms.get(name, 0) + f}
                n -= f * g.count
                j += 1
                continue
            split = []
            if full:
                split.append(HostGroup(full, [a - f * x for a, x in zip(g.free, d, strict=True)],
                                       {**g.vms, name: g.vms.get(name, 0) + f}))
            if rest:
                split.append(HostGroup(1, [a - rest * x for a, x in zip(g.free, d, strict=True)],
                                       {**g.vms, name: g.vms.get(name, 0) + rest}))
            untouched = g.count - full - (1 if rest else 0)
            if untouched:
                split.append(HostGroup(untouched, g.free, g.vms))
            groups[j:j + 1] = split
            n = 0
        if n > 0:
            f0 = _fits(cap, d)
            full, rest = divmod(n, f0)
            if full:
                groups.append(HostGroup(full, [a - f0 * x for a, x in zip(cap, d, strict=True)], {name: f0}))
            if rest:
                groups.append(HostGroup(1, [a - rest * x for a, x in zip(cap, d, strict=True)], {name: rest}))
    return groups


def _pack(ctx: EngineContext, cap: dict[str, float], budgets: Budgets = NO_BUDGETS) -> Packing:
    return pack(cap, [(w.name, vm_demand(ctx, w, budgets), w.vms) for w in ctx.scenario.workloads])


def headroom(ctx: EngineContext, active: int, packing: Packing | None = None,
             budgets: Budgets = NO_BUDGETS) -> dict[str, int]:
    """Workload name -> how many more whole VMs of its profile fit into the per-host leftovers of
    ``active`` hosts after the VMs are placed (hosts beyond the placement's count are empty)."""
    cap = host_capacity(ctx, budgets)
    packing = packing or _pack(ctx, cap, budgets)
    out = {}
    for w in ctx.scenario.workloads:
        out[w.name] = 0 if w.name in packing.unplaced else packing.fits(vm_demand(ctx, w, budgets),
                                                                        active - packing.hosts)
    return out


def _num(x: float) -> str:
    """A figure for a message: thousands separated, at most 4 significant digits below 1000."""
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.4g}"


def _oversize(ctx: EngineContext, cap: dict[str, float], packing: Packing, budgets: Budgets = NO_BUDGETS
              ) -> list[str]:
    """One message per workload whose VM fits no host, naming the resources and figures."""
    cap_note = {"cpu_allocation": "physical cores",
                "cpu_load": f"{budgets.cpu_ceiling(ctx.scenario.preferences.max_host_cpu_percent):g} % of its "
                            "physical cores",
                "ram": "host RAM less the hypervisor's max(4 GiB, 5 %)"
                       + (f", over-committed {ctx.scenario.preferences.ram_overcommit:g}x"
                          if ctx.scenario.preferences.ram_overcommit != 1 else ""),
                "disk_capacity": f"{DISK_USABLE * 100:.0f} % of its local disks", "disk_iops": "its local disks",
                "network": f"{NIC_USABLE * 100:.0f} % of its NIC"}
    out = []
    by_name = {w.name: w for w in ctx.scenario.workloads}
    for name, resources in packing.unplaced.items():
        d = vm_demand(ctx, by_name[name], budgets)
        parts = [f"{LABELS[k]} {_num(d[k])} {UNITS[k]} against {_num(cap[k])} {UNITS[k]} per host ({cap_note[k]})"
                 for k in resources if cap[k] > 0]  # resources the hosts lack entirely are reported apart
        if parts:
            out.append(f"one VM of workload {name!r} does not fit on any host, whatever the host count: "
                       + "; ".join(parts))
    return out


# --- shared storage, cluster-wide -------------------------------------------------------------
def _shared_capacity(ctx: EngineContext) -> str:
    """A warning when the images on shared storage exceed its stated capacity, else ''."""
    backend = ctx.facts.storage_backend or "local_disk"
    kind = SHARED_KIND.get(backend)
    caps = [s.capacity_tb for s in ctx.scenario.hosts.shared_storage if s.kind == kind and s.capacity_tb]
    if not caps:
        return ""
    need_gb = sum(w.vms * _disk_gb(w) for w in ctx.scenario.workloads)
    if need_gb <= max(caps) * 1000 * DISK_USABLE:
        return ""
    return (f"the virtual disks need {need_gb / 1000:.3g} TB but the {kind} storage offers {max(caps):g} TB "
            f"({DISK_USABLE:.0%} usable)")


def _shared_load(ctx: EngineContext, total: dict[str, float]) -> tuple[dict, list[str], dict]:
    """When images live on shared storage: the cluster's storage traffic (MB/s) against the
    storage's link (``network_gbps`` x 125 MB/s) and its total IOPS against the storage's
    ``iops`` when stated. Returns expected figures, warnings and details; more hosts do not
    help, so none of this changes the host count."""
    kind = SHARED_KIND.get(ctx.facts.storage_backend or "local_disk")
    offers = [s for s in ctx.scenario.hosts.shared_storage if s.kind == kind] if kind else []
    if not offers:
        return {}, [], {}
    link_gbps = max(s.network_gbps for s in offers)
    link = link_gbps * MB_S_PER_GBPS
    traffic = total["network"]
    iops = sum(w.vms * _iops(w) for w in ctx.scenario.workloads)
    stated = [s.iops for s in offers if s.iops]
    expected = {"shared_storage_throughput": figure(traffic, "MB/s"),
                "shared_storage_network_utilization": figure(100.0 * traffic / link, "%")}
    details = {"kind": kind, "throughput_mb_s": round(traffic, 3), "link_mb_s": round(link, 3),
               "iops": round(iops, 3)}
    fix = "more hosts do not help: use a faster storage network or more storage nodes"
    warnings = []
    if traffic > link * (1 + EPS):
        warnings.append(f"the VMs' storage traffic, {traffic:,.0f} MB/s in total, exceeds the {kind} storage's "
                        f"{link_gbps:g} Gb/s link ({link:,.0f} MB/s), {100 * traffic / link:.0f} % of it; {fix}")
    if stated:
        limit = max(stated)
        expected["shared_storage_iops_utilization"] = figure(100.0 * iops / limit, "%")
        details["iops_limit"] = round(limit, 3)
        if iops > limit * (1 + EPS):
            warnings.append(f"the VMs need {iops:,.0f} IOPS in total but the {kind} storage offers {limit:,.0f} "
                            f"IOPS, {100 * iops / limit:.0f} % of it; more hosts do not help: use faster storage "
                            f"or more storage nodes")
    return expected, warnings, details


def recommend(ctx: EngineContext) -> list[Recommendation]:
    """The host count (choice and ``value``), with per-resource needs, bottleneck and headroom;
    updates ``ctx.facts`` to the recommended active hosts. ``infeasible`` (no value) when no host
    count places every VM."""
    sc = ctx.scenario
    outcome = evaluate(DECISION, ctx.rule_ctx(), ["plan"])
    budgets = Budgets.of(r.id for r in outcome.fired)
    need, cap, total = _needed(ctx, budgets)
    packing = _pack(ctx, cap, budgets)
    finite = {k: v for k, v in need.items() if math.isfinite(v)}
    bottleneck = max(finite or need, key=lambda k: (finite or need)[k])
    pooled = max(1, max((math.ceil(v - 1e-9) for v in finite.values()), default=1))
    problems = []
    for k in cap:  # a resource the hosts lack entirely
        if not math.isfinite(need[k]):
            short = [w.name for w in sc.workloads if vm_demand(ctx, w, budgets)[k] > 0]
            problems.append(f"the hosts have no {LABELS[k]} for the workloads ({', '.join(short)} need "
                            f"{_num(total[k])} {UNITS[k]})")
    problems += _oversize(ctx, cap, packing, budgets)
    infeasible = bool(problems)
    active = max(pooled, packing.hosts)
    minimum = max(1, budgets.min_hosts - sc.hosts.reserve)
    raised = active < minimum
    active = max(active, minimum)
    if infeasible:  # no count places every VM: the later decisions read the planned (or placed) hosts
        active = max(1, sc.hosts.count - sc.hosts.reserve, packing.hosts)
    hosts = active + sc.hosts.reserve
    room = headroom(ctx, active, packing, budgets)
    expected = {"hosts": figure(hosts, "hosts"), "active_hosts": figure(active, "hosts"),
                "reserve_hosts": figure(sc.hosts.reserve, "hosts")}
    if infeasible:
        expected = {"reserve_hosts": figure(sc.hosts.reserve, "hosts")}
    for name, n in room.items():  # the headroom, right after the counts: what a planner reads first
        if not infeasible:
            expected[f"headroom_{name}"] = figure(n, "more VMs", workload=name)
    for k, v in finite.items():
        expected[f"hosts_for_{k}"] = figure(v, "hosts")
        if not infeasible:
            expected[f"utilization_{k}"] = figure(100.0 * v / active, "% of usable")
    shared_figures, shared_warnings, shared_details = _shared_load(ctx, total)
    expected.update(shared_figures)
    ratio = ctx.facts.overallocation_ratio or 1.0
    planned = sc.hosts.count
    shared_warning = _shared_capacity(ctx)
    alternatives = []
    if not infeasible:
        if planned != hosts:
            p_active = planned - sc.hosts.reserve
            why = (f"too few: placing whole VMs takes {active} active hosts ({bottleneck.replace('_', ' ')} "
                   f"alone needs {need[bottleneck]:.2f})" if planned < hosts and not raised else
                   "too few: VMs that live-migrate need a second host [hc.migration-two-hosts]"
                   if planned < hosts else f"{planned - hosts} more than needed; utilization of "
                   f"{bottleneck.replace('_', ' ')} would be {100 * need[bottleneck] / max(p_active, 1):.0f} %")
            alternatives.append(Alternative(str(planned), -1.0, {"hosts": figure(planned, "hosts")},
                                            f"the planned count: {why}"))
        if hosts + 1 != planned:
            alternatives.append(Alternative(str(hosts + 1), -0.5, {"hosts": figure(hosts + 1, "hosts")},
                                            "one more host than the workloads and the reserve need"))
    whole = (f" VMs are placed whole (first-fit decreasing, each VM within one host's CPU, RAM, disk and "
             f"network): {packing.hosts} active hosts, against {pooled} if capacity could be pooled across "
             f"hosts." if packing.hosts > pooled and not infeasible else "")
    ceiling = budgets.cpu_ceiling(sc.preferences.max_host_cpu_percent)
    reserved = []
    if budgets.cpu_points:
        reserved.append(f"host CPU is planned at {ceiling:g} % ({budgets.cpu_points:g} points of "
                        f"{sc.preferences.max_host_cpu_percent:g} % kept for "
                        + " and ".join(x for x, rid in (("live-migration sources", "hc.migration-headroom"),
                                                        ("co-located database clusters", "hc.multi-cluster-cpu"))
                                       if rid in budgets.rules) + ")")
    if budgets.page_cache:
        reserved.append("host RAM includes page cache for I/O-intensive VMs (1 GiB per I/O-heavy VM, 0.5 GiB "
                        "per medium one)")
    if raised:
        reserved.append("live migration needs a second host")
    budget_text = (" Reserved: " + "; ".join(reserved) + ".") if reserved else ""
    if infeasible:
        rationale = ("No host count places every VM: " + "; ".join(problems) + ". Change the hosts or the "
                     f"workloads; the later decisions assume the {active} planned active hosts.")
    else:
        rationale = (f"{hosts} hosts: {active} active for the workloads plus {sc.hosts.reserve} kept free "
                     f"(N+{sc.hosts.reserve}). The bottleneck is {bottleneck.replace('_', ' ')} "
                     f"({need[bottleneck]:.2f} hosts' worth).{whole} CPU counts physical cores "
                     f"({sc.hosts.cpu.cores} per host, threads not counted) at {ratio:g} vCPUs per core; RAM is "
                     f"{'not over-committed' if sc.preferences.ram_overcommit == 1 else f'over-committed {sc.preferences.ram_overcommit:g}x'}."
                     f"{budget_text}"
                     + (f" Still room on the {active} active hosts for "
                        + ", ".join(f"{n} more {name} VM{'s' if n != 1 else ''}" for name, n in room.items())
                        + " (each profile alone)." if room else ""))
    text = " ".join(r.text for r in outcome.fired)
    site_iops = _local(ctx) and any(disk_iops(ctx, d)[1] == "site" for d in sc.hosts.disks)
    rec = Recommendation(
        decision=DECISION, scope="cluster", choice="infeasible" if infeasible else str(hosts),
        value=None if infeasible else float(hosts), alternatives=alternatives,
        expected=expected, confidence=0.8 if not infeasible else 0.2, rationale=f"{rationale} {text}".strip(),
        citations=ctx.cites.for_rules(outcome.fired), rules=[r.id for r in outcome.fired],
        warnings=list(dict.fromkeys(outcome.warnings)) + [w for w in (*problems, shared_warning, *shared_warnings)
                                                          if w],
        basis=ctx.calibration.basis if site_iops else "documents")
    rec.details = {"bottleneck": bottleneck, "hosts_needed": {k: round(v, 3) for k, v in finite.items()},
                   "per_host_capacity": {k: round(v, 3) for k, v in cap.items()},
                   "demand": {k: round(v, 3) for k, v in total.items()}, "units": UNITS,
                   "headroom_vms": room, "reserve": sc.hosts.reserve,
                   "hosts_by_packing": packing.hosts, "hosts_by_pooling": pooled,
                   "placement": packing.placement(), "packing_order": packing.order,
                   "unplaced": dict(packing.unplaced), "infeasible": problems,
                   "budgets": budgets.to_dict(sc.preferences.max_host_cpu_percent),
                   "assumptions": ["vCPUs count against physical cores, not hardware threads",
                                   "busy share per vCPU: low 0.2, medium 0.5, high 0.9",
                                   "IOPS per VM when not given: low 50, medium 200, high 1000",
                                   "per-disk IOPS when not given or calibrated: HDD 150, SSD 50000, NVMe 300000",
                                   "hypervisor keeps max(4 GiB, 5 %) of host RAM; 2 % RAM overhead per VM",
                                   "90 % of local disk capacity and 70 % of the NIC are usable",
                                   "a VM is never split over hosts: whole VMs are placed first-fit decreasing"]}
    if shared_details:
        rec.details["shared_storage"] = shared_details
    ctx.chosen["host_count"] = None if infeasible else hosts
    ctx.facts.set_hosts(sc, active)
    return [rec]
