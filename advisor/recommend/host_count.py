"""``host_count``: how many hosts the workloads need, the bottleneck, the headroom, and what the
plan delivers against the scenario's targets.

Per resource, the *fractional* hosts' worth of demand (``hosts_for_<resource>``; they explain
the bottleneck) is the workloads' total over one host's usable capacity:

* ``cpu_allocation``: vCPUs over physical cores through the chosen over-allocation ratio
  (vCPUs per physical core; hardware threads are not counted as cores; real-time VMs' vCPUs
  are pinned 1:1);
* ``cpu_load``: busy cores of the one busy-core model (advisor/recommend/load.py, shared with the
  over-allocation card): core-GHz per VM from its CPU intensity (vCPUs x a busy share: low 0.2,
  medium 0.5, high 0.9 — an assumption — or the workload's measured ``cpu_busy_share`` from an
  imported estate, on a core of the thesis' 2.0 GHz) and its request load (the thesis' CPU per
  request at the chosen over-allocation, doc 004 Section 8.4.1), over the hosts' clock; over
  physical cores x the planned utilization ceiling
  (``preferences.targets.max_host_cpu_pct`` when given, else ``preferences.max_host_cpu_percent``,
  default 80 %, near the 82 % ceiling of doc 004 ch. 6);
* ``ram``: guest RAM (+ 2 % overhead per VM) over host RAM less the hypervisor's reserve, which
  scales with the host (0.5 GiB + 3 % of its RAM: a 4 GB host keeps 0.62 GiB, so doc 001's host
  runs its three 1 GB guests), times ``preferences.ram_overcommit`` (1.0 = no over-commit);
* ``disk_capacity`` and ``disk_iops`` on local disks (when images stay local): virtual disk
  sizes against 90 % of the local capacity; IOPS per VM (given, or 50/200/1000 by I/O
  intensity) against the disks' IOPS (site figures when calibrated, else per-kind defaults:
  HDD 150, SSD 50,000, NVMe 300,000 per disk);
* ``network``: shared-storage traffic (IOPS x block size) over 70 % of the host NIC.

**Hard and soft limits.** Hard: RAM (with the chosen over-commit), the CPU allocation of the
chosen over-allocation ratio (a VM's vCPUs are only bounded by a host's hardware threads, which
the scenario checks), local disk capacity, and the targets the user marks hard. Soft: CPU load,
IOPS and storage traffic — running above them is slow, not impossible (doc 002 booted VMs next
to three I/O-heavy ones on one disk, 15x slower; the thesis ran a 16-vCPU telecom VM on an
8-core host). CPU load still sets the count up to the planned ceiling, but a VM whose load
exceeds an empty host gets a host to itself (its demand is capped at the host); IOPS and
storage traffic do not place VMs (more hosts are no cure for slow disks or links; the boot-time
and throughput targets add hosts where that helps). The plan shows the consequence instead of
refusing:
``soft_limits`` in the details and a warning with the expected host CPU, the share of the IOPS
or MB/s each VM gets, and the boot time on the chosen storage (``boot_time`` family).
``infeasible`` only when no host count meets a hard limit: a VM larger than a host in a hard
resource, a resource the hosts lack, or a hard target no count meets; the warnings name it.

A VM cannot be split over hosts, so the active host count (before the N+x reserve) is that of
a placement of whole VMs (:func:`pack`): deterministic first-fit decreasing over the VMs of all
workloads, largest dominant share (its largest demand / capacity ratio) first, where a VM fits
a host only when it fits in every resource at once (a few other decreasing orders are tried
too and the fewest hosts kept). It is never below the ceiling of the largest per-resource need.

**Targets** (``preferences.targets``, :mod:`advisor.recommend.targets`): the host count is the
smallest count, from the placement's upwards, at which every target that depends on it (host
CPU, boot time, throughput per VM) is met; when a soft target is met by no count, the smallest
count that comes closest; when a hard one is met by none, ``infeasible`` naming it. ``details.
targets`` lists each target at the recommended count.

``utilization_<resource>`` is the share (%) of the *usable* capacity (80 % CPU ceiling, 90 % of
the disks, 70 % of the NIC) the workloads take on the recommended active hosts. Images on shared
storage are checked against its stated capacity, link (``network_gbps`` x 125 MB/s) and IOPS,
cluster-wide: a warning and ``shared_storage_*_utilization`` figures, not a host count (more
hosts do not make the storage faster).

The documents' sizing conclusions reserve capacity when their rules fire (:data:`HOST_BUDGETS`,
``details.budgets``): source hosts of live migrations keep 14 points of CPU (doc 004 c5-C4: CPU
climbed by up to 14 points while migrating), several co-located database clusters 10 more points
(c10-C3), and I/O-intensive VMs should find host RAM for the page cache (doc 001 C6: 1 GiB per
I/O-heavy VM, the testbed's two-VM level, half of it per medium one) — a soft budget: the RAM
left after the guests is reported per VM (``details.page_cache``) and a shortfall is warned, the
cache-mode figures showing what it costs. VMs that live-migrate need at least two hosts.

Then the reserve is added. Headroom: for each workload profile, how many more whole VMs of it
fit into the per-host leftovers of the active hosts after the placement.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from advisor.hardware import SHARED_KIND
from advisor.recommend import vcpu_overallocation
from advisor.recommend.base import Alternative, EngineContext, Recommendation, figure
from advisor.recommend.disks import disk_iops
from advisor.recommend.load import IOPS_PER_VM, request_driven, vm_busy_cores, vm_iops  # noqa: F401 (IOPS_PER_VM: its old home)
from advisor.rules import evaluate
from advisor.scenario import TARGETS as TARGET_NAMES
from advisor.statements import statement

DECISION = "host_count"
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
#: hard limits (no host count helps a VM that exceeds one) and soft ones (slow, not impossible)
HARD = ("cpu_allocation", "ram", "disk_capacity")
SOFT = ("cpu_load", "disk_iops", "network")
#: soft limits that do not place VMs at all: their shortfall is reported (and targets act on it)
REPORTED_ONLY = ("disk_iops", "network")
#: the hypervisor's RAM: a base plus a share of the host's RAM (GiB; scales with the host)
RESERVE_BASE_GIB, RESERVE_SHARE = 0.5, 0.03
#: the most hosts the target search adds beyond the placement's count
MAX_EXTRA_HOSTS = 256


def hypervisor_reserve_gib(host_ram_gib: float) -> float:
    """RAM the hypervisor keeps on a host of ``host_ram_gib``: 0.5 GiB + 3 %."""
    return RESERVE_BASE_GIB + RESERVE_SHARE * host_ram_gib


def planned_cpu_percent(sc) -> float:
    """The host CPU ceiling of the plan: the ``max_host_cpu_pct`` target, else the preference."""
    t = sc.preferences.target("max_host_cpu_pct")
    return t.value if t is not None else sc.preferences.max_host_cpu_percent


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
    ram = (h.ram_gib - hypervisor_reserve_gib(h.ram_gib)) * sc.preferences.ram_overcommit
    iops = 0.0
    for d in h.disks:
        iops += disk_iops(ctx, d)[0] * d.count
    return {"cpu_allocation": float(h.cpu.cores),
            "cpu_load": h.cpu.cores * budgets.cpu_ceiling(planned_cpu_percent(sc)) / 100.0,
            "ram": max(ram, 0.1), "disk_capacity": sum(d.size_gb * d.count for d in h.disks) * DISK_USABLE,
            "disk_iops": iops, "network": h.nic_gbps * MB_S_PER_GBPS * NIC_USABLE}


def _local(ctx: EngineContext) -> bool:
    return (ctx.facts.storage_backend or "local_disk") == "local_disk"


def _iops(w) -> float:
    return vm_iops(w)


def _disk_gb(w) -> float:
    return w.disk_size_gb


def vm_demand(ctx: EngineContext, w, budgets: Budgets = NO_BUDGETS) -> dict[str, float]:
    """One VM of workload ``w``: cores allocated (vCPUs / over-allocation ratio, at most a host's
    cores; real-time vCPUs pinned 1:1), busy cores, GiB RAM (guest + 2 %; the page cache is a soft
    budget, see the module doc), GB disk, IOPS, MB/s of storage traffic. ``budgets`` is kept for
    callers; it no longer changes the demand. (Computed once per workload and the facts it reads:
    the sizing asks for it five times per workload.)"""
    f = ctx.facts
    key = ("vm_demand", id(w), f.overallocation_ratio, f.storage_backend, f.hypervisor)
    return dict(ctx.once(key, lambda: _vm_demand(ctx, w)))


def _vm_demand(ctx: EngineContext, w) -> dict[str, float]:
    ratio = ctx.facts.overallocation_ratio or 1.0
    local = _local(ctx)
    iops = _iops(w)
    disk = _disk_gb(w)
    rt = w.realtime is not None
    cores = float(ctx.scenario.hosts.cpu.cores)
    # one VM's vCPUs are bounded by a host's hardware threads (the scenario checks it): a VM with
    # more vCPUs than the ratio allows on one host takes that host's whole allocation
    alloc = float(w.vcpus) if rt else min(w.vcpus / ratio, cores)
    return {"cpu_allocation": alloc,
            "cpu_load": vm_busy_cores(ctx, w),
            "ram": w.ram_gib * (1 + VM_RAM_OVERHEAD),
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
    #: the groups' leftovers and counts as arrays (made by the first :meth:`fits`; groups stay as placed)
    _arrays: tuple | None = field(default=None, repr=False, compare=False)

    @functools.cached_property
    def hosts(self) -> int:
        return sum(g.count for g in self.groups)  # (the groups do not change once placed)

    def fits(self, demand: dict[str, float], extra_hosts: int = 0) -> int:
        """How many more whole VMs of ``demand`` fit into the leftovers (plus ``extra_hosts``
        empty hosts): :func:`_fits` of every group, in one array operation over the groups."""
        d = [demand[k] for k in self.resources]
        used = [j for j, x in enumerate(d) if x > 0]
        extra = max(0, extra_hosts) * _fits(self.capacity, d)
        if not used or not self.groups:
            return extra
        if self._arrays is None:
            self._arrays = (np.array([g.free for g in self.groups], dtype=float).reshape(len(self.groups), -1),
                            np.array([g.count for g in self.groups], dtype=np.int64))
        free, counts = self._arrays
        # the same floor(free / need + EPS) per resource as _fits, its least, none below 0
        each = np.floor(free[:, used] / np.array([d[j] for j in used]) + EPS).min(axis=1).clip(min=0)
        return int((counts * each.astype(np.int64)).sum()) + extra

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


def _takes(free: list[float], need: list[tuple[int, float]]) -> bool:
    """``_fits(free, d) > 0`` for the (index, demand) pairs ``need`` of the resources ``d`` uses:
    floor(free / need + EPS) >= 1 in each."""
    for k, x in need:
        if free[k] / x + EPS < 1.0:
            return False
    return True


#: the decreasing orders :func:`pack` tries: by dominant share (largest demand / capacity ratio)
#: first, then by the sum of the shares, then by each resource's share alone
ORDERS = ("dominant", "sum", "cpu_allocation", "cpu_load", "ram", "disk_capacity", "disk_iops", "network")


def _by_resource(j: int, t: tuple) -> tuple:
    """Packing order by resource ``j`` (largest first), then the dominant one, then the name."""
    return (-t[0][j], -max(t[0], default=0.0), t[1])


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
    best: list[tuple] | None = None
    best_order, best_count, tried = "", 0, set()
    key: Callable[[tuple], tuple]
    for order in orders:
        if order == "dominant":
            key = lambda t: (-max(t[0], default=0.0), t[1])  # noqa: E731
        elif order == "sum":
            key = lambda t: (-sum(t[0]), t[1])  # noqa: E731
        elif order in keys:
            j = keys.index(order)
            if not any(t[0][j] for t in items):
                continue
            key = functools.partial(_by_resource, j)
        else:  # a resource these hosts do not describe
            continue
        ordered = sorted(items, key=key)
        sequence = tuple(t[1] for t in ordered)
        if sequence in tried:
            continue
        tried.add(sequence)
        placed = _first_fit(cap, _runs(ordered), best_count if best is not None else None)
        if placed is None:  # as many hosts as the best order's before every VM was placed: not kept
            continue
        count = sum(g.count for g in placed)
        if best is None or count < best_count:
            best, best_order, best_count = ordered, order, count
        if best_count <= bound:
            break
    groups = (_first_fit(cap, [(t[2], t[3], t[4]) for t in best]) or []) if best else []
    return Packing(keys, cap, groups, unplaced, best_order)


def _runs(ordered: list[tuple]) -> list[tuple[str, list[float], int]]:
    """``ordered`` items as (name, per-VM demand, VMs) for counting hosts only: consecutive items
    of one demand merged into one (first fit places them one after the other on the same hosts
    whatever their names, so the host count is the same), under one name."""
    out: list[tuple[str, list[float], int]] = []
    for t in ordered:
        if out and out[-1][1] == t[3]:
            out[-1] = ("", t[3], out[-1][2] + t[4])
        else:
            out.append(("", t[3], t[4]))
    return out


class _Block:
    """Consecutive host groups and an upper bound of each resource's leftover among them."""

    __slots__ = ("groups", "tops", "version", "pos")

    def __init__(self, groups: list[HostGroup], tops: list[float], pos: int):
        self.groups, self.tops, self.pos = groups, tops, pos
        self.version = 0  # changes whenever groups move within the block (an index into it is stale)


class _Groups:
    """The host groups of a first fit, in order, in blocks of about :attr:`SIZE` that know an
    upper bound of each resource's leftover among their groups: the search for the first group a
    VM fits into skips every block where some resource is short in all groups.

    Leftovers only shrink as VMs are placed, and a group that is split keeps its place and at
    most its leftovers, so a group that cannot take a VM of demand ``d`` never can: each distinct
    demand keeps where its last search found room (:attr:`start`), and the next search for it
    starts there instead of at the first host. The bounds are made exact again only when a
    block passes them but holds no group that fits. With thousands of workloads (and groups)
    that keeps the placement near linear."""

    SIZE = 48

    def __init__(self, width: int):
        self.width = width
        self.blocks: list[_Block] = []
        #: demand -> (block, index, block version) before which no group takes a VM of it
        self.start: dict[tuple, tuple[_Block, int, int]] = {}

    def _exact(self, blk: _Block) -> None:
        groups = blk.groups
        blk.tops = [max(g.free[k] for g in groups) for k in range(self.width)]

    def resume(self, key: tuple) -> tuple[int, int]:
        """(block, index) where the search for demand ``key`` starts."""
        where = self.start.get(key)
        if where is None:
            return 0, 0
        blk, i, version = where
        return blk.pos, i if blk.version == version else 0

    def first(self, d: list[float], need: list[tuple[int, float]], b: int, i: int) -> tuple[int, int, int] | None:
        """(block, index, VMs that fit) of the first group at or after (b, i) taking a VM of ``d``
        (``need``: the resources it uses, (index, demand))."""
        if not need:  # (as _fits: a VM that needs nothing "fits" nowhere)
            return None
        blocks = self.blocks
        while b < len(blocks):
            blk = blocks[b]
            if _takes(blk.tops, need):
                groups = blk.groups
                whole = i == 0
                while i < len(groups):
                    if _takes(groups[i].free, need):
                        return b, i, _fits(groups[i].free, d)
                    i += 1
                if whole:  # the bounds let a VM in that no group takes: make them exact
                    self._exact(blk)
            b, i = b + 1, 0
        return None

    def mark(self, key: tuple, b: int, i: int) -> None:
        """No group before (b, i) takes a VM of demand ``key`` (nor ever will)."""
        if b < len(self.blocks):
            blk = self.blocks[b]
            self.start[key] = (blk, i, blk.version)
        elif self.blocks:
            blk = self.blocks[-1]
            self.start[key] = (blk, len(blk.groups), blk.version)

    def replace(self, b: int, i: int, parts: list[HostGroup]) -> None:
        """Group (b, i) split into ``parts`` (each with at most its leftovers: the bounds hold)."""
        blk = self.blocks[b]
        groups = blk.groups
        groups[i:i + 1] = parts
        if len(parts) != 1:
            blk.version += 1
        if len(groups) > 2 * self.SIZE:
            half = len(groups) // 2
            blk.groups, rest = groups[:half], groups[half:]
            blk.version += 1
            self.blocks.insert(b + 1, _Block(rest, [], b + 1))
            for k in range(b + 2, len(self.blocks)):
                self.blocks[k].pos = k
            self._exact(blk)
            self._exact(self.blocks[b + 1])

    def append(self, g: HostGroup) -> None:
        if not self.blocks or len(self.blocks[-1].groups) >= self.SIZE:
            self.blocks.append(_Block([g], list(g.free), len(self.blocks)))
            return
        blk = self.blocks[-1]
        blk.groups.append(g)
        blk.tops = [max(a, f) for a, f in zip(blk.tops, g.free, strict=True)]

    def all(self) -> list[HostGroup]:
        return [g for blk in self.blocks for g in blk.groups]


def _first_fit(cap: list[float], items: list[tuple[str, list[float], int]], limit: int | None = None
               ) -> list[HostGroup] | None:
    """First fit of ``items`` (name, per-VM demand, VMs) in the order given, in bulk per item;
    None once it opens ``limit`` hosts with VMs still to place (it cannot end below ``limit``)."""
    groups = _Groups(len(cap))
    opened = 0
    for name, d, n in items:
        key = tuple(d)
        need = [(k, x) for k, x in enumerate(d) if x > 0]
        b, i = groups.resume(key)
        marked = False
        while n > 0:
            found = groups.first(d, need, b, i)
            if found is None:
                break
            b, i, f = found
            if not marked:  # every group before this one is too full for d
                groups.mark(key, b, i)
                marked = True
            g = groups.blocks[b].groups[i]
            full, rest = divmod(n, f)
            if full >= g.count:  # every host of the group takes f
                g.free = [a - f * x for a, x in zip(g.free, d, strict=True)]
                g.vms = {**g.vms, name: g.vms.get(name, 0) + f}
                n -= f * g.count
                i += 1
                continue
            if g.count == 1:  # one host takes the rest: the group itself changes (as a split into one part)
                g.free = [a - rest * x for a, x in zip(g.free, d, strict=True)]
                g.vms = {**g.vms, name: g.vms.get(name, 0) + rest}
                n = 0
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
            groups.replace(b, i, split)
            n = 0
        if n > 0:
            if not marked:
                groups.mark(key, len(groups.blocks), 0)
            f0 = _fits(cap, d)
            full, rest = divmod(n, f0)
            if full:
                groups.append(HostGroup(full, [a - f0 * x for a, x in zip(cap, d, strict=True)], {name: f0}))
            if rest:
                groups.append(HostGroup(1, [a - rest * x for a, x in zip(cap, d, strict=True)], {name: rest}))
            opened += full + (1 if rest else 0)
            if limit is not None and opened >= limit:
                return None
    return groups.all()


def placement_demand(demand: dict[str, float], cap: dict[str, float]) -> dict[str, float]:
    """``demand`` for the placement: CPU load larger than an empty host is capped at the host (the
    VM gets a host to itself and the plan reports the consequence); IOPS and storage traffic do
    not place VMs (more hosts are no cure for slow disks or links: the plan reports what each VM
    gets, and the boot-time and throughput targets raise the count where more hosts help)."""
    out = {}
    for k, v in demand.items():
        if k in REPORTED_ONLY:
            out[k] = 0.0
        elif k in SOFT and cap.get(k, 0) > 0:
            out[k] = min(v, cap[k])
        else:
            out[k] = v
    return out


def _pack(ctx: EngineContext, cap: dict[str, float], budgets: Budgets = NO_BUDGETS) -> Packing:
    return pack(cap, [(w.name, placement_demand(vm_demand(ctx, w, budgets), cap), w.vms)
                      for w in ctx.scenario.workloads])


def headroom(ctx: EngineContext, active: int, packing: Packing | None = None,
             budgets: Budgets = NO_BUDGETS) -> dict[str, int]:
    """Workload name -> how many more whole VMs of its profile fit into the per-host leftovers of
    ``active`` hosts after the VMs are placed (hosts beyond the placement's count are empty)."""
    cap = host_capacity(ctx, budgets)
    packing = packing or _pack(ctx, cap, budgets)
    out = {}
    seen: dict[tuple, int] = {}  # workloads of one demand have the same headroom
    for w in ctx.scenario.workloads:
        if w.name in packing.unplaced:
            out[w.name] = 0
            continue
        demand = placement_demand(vm_demand(ctx, w, budgets), cap)
        key = tuple(sorted(demand.items()))
        if key not in seen:
            seen[key] = packing.fits(demand, active - packing.hosts)
        out[w.name] = seen[key]
    return out


def _num(x: float) -> str:
    """A figure for a message: thousands separated, at most 4 significant digits below 1000."""
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.4g}"


def _oversize(ctx: EngineContext, cap: dict[str, float], packing: Packing, budgets: Budgets = NO_BUDGETS
              ) -> list[str]:
    """One message per workload whose VM fits no host, naming the resources and figures."""
    cap_note = {"cpu_allocation": "physical cores",
                "cpu_load": f"{budgets.cpu_ceiling(planned_cpu_percent(ctx.scenario)):g} % of its "
                            "physical cores",
                "ram": "host RAM less the hypervisor's 0.5 GiB + 3 %"
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


# --- soft limits: what the plan delivers where the hosts fall short -----------------------------
def _per_host_load(ctx: EngineContext, packing: Packing, budgets: Budgets) -> dict[str, float]:
    """The busiest placed host's uncapped demand per soft resource (what its VMs ask)."""
    demand = {w.name: vm_demand(ctx, w, budgets) for w in ctx.scenario.workloads}
    out = dict.fromkeys(SOFT, 0.0)
    for g in packing.groups:
        for k in SOFT:
            out[k] = max(out[k], sum(n * demand[name][k] for name, n in g.vms.items()))
    return out


def _soft_limits(ctx: EngineContext, packing: Packing, cap: dict[str, float], budgets: Budgets,
                 active: int) -> tuple[dict, list[str], dict]:
    """Soft limits the busiest host exceeds: details, warnings with the expected consequence, and
    expected figures (host CPU; the share of IOPS or MB/s each VM gets)."""
    from advisor.recommend import targets as tg

    load = _per_host_load(ctx, packing, budgets)
    details, warnings, figs = {}, [], {}
    sc = ctx.scenario
    ceiling = budgets.cpu_ceiling(planned_cpu_percent(sc))
    cpu_pct = tg.host_cpu_pct(ctx, active)
    note = (f"busy cores on the busiest of {active} active hosts (CPU intensity and request load, in core-GHz "
            f"over the hosts' {sc.hosts.cpu.ghz:g} GHz), before the live-migration reserve")
    if request_driven(ctx):  # the per-request cost's interval (CPU from request loads)
        figs["host_cpu_utilization"] = figure(cpu_pct, "% of host", tg.host_cpu_pct(ctx, active, bound="low"),
                                              tg.host_cpu_pct(ctx, active, bound="high"), note=note)
    else:
        figs["host_cpu_utilization"] = figure(cpu_pct, "% of host", note=note)
    for k in SOFT:
        if cap[k] <= 0 or load[k] <= cap[k] * (1 + EPS):
            continue
        share = cap[k] / load[k]
        details[k] = {"demand_per_host": round(load[k], 3), "usable_per_host": round(cap[k], 3),
                      "unit": UNITS[k], "share_delivered": round(share, 4)}
        if k == "cpu_load":
            peak = statement(ctx.kb, "about {n} %", [CPU_CEILING_ROW], "value")
            warnings.append(f"host CPU is expected at about {cpu_pct:.0f} % on the busiest host, above the planned "
                            f"{ceiling:g} %: requests queue and response times grow (doc 004 Section 6.4 could not "
                            f"raise the load beyond {peak.text} host CPU); more or larger hosts, or fewer vCPUs "
                            "per VM, bring it down")
            details[k]["statements"] = [peak.to_dict()]
        elif k == "disk_iops":
            boot = tg.boot_time_s(ctx, active)
            figs["iops_share_per_vm"] = figure(100.0 * share, "% of the IOPS asked")
            warnings.append(f"the VMs of the busiest host ask {_num(load[k])} IOPS of local disks that deliver "
                            f"{_num(cap[k])}: each gets about {100 * share:.0f} % of its rate"
                            + (f"; a VM boot there takes about {boot:.0f} s" if boot is not None else "")
                            + " (see the storage and cache-mode figures); shared storage or faster disks help")
        else:
            figs["network_share_per_vm"] = figure(100.0 * share, "% of the MB/s asked")
            warnings.append(f"the VMs of the busiest host move {_num(load[k])} MB/s of storage traffic over "
                            f"{_num(cap[k])} MB/s of usable NIC: each gets about {100 * share:.0f} % of it; a faster "
                            "NIC helps")
    return details, warnings, figs


def _page_cache(ctx: EngineContext, packing: Packing, budgets: Budgets) -> tuple[dict, list[str]]:
    """Host RAM left for the page cache per VM on the busiest host against the doc 001 budget."""
    if not budgets.page_cache:
        return {}, []
    sc = ctx.scenario
    by_name = {w.name: w for w in sc.workloads}
    usable = sc.hosts.ram_gib - hypervisor_reserve_gib(sc.hosts.ram_gib)
    worst, planned_total = None, 0.0
    for g in packing.groups:
        vms = sum(g.vms.values())
        if not vms:
            continue
        guests = sum(n * by_name[name].ram_gib * (1 + VM_RAM_OVERHEAD) for name, n in g.vms.items())
        want = sum(n * PAGE_CACHE_GIB[by_name[name].io.intensity] for name, n in g.vms.items())
        left = max(usable - guests, 0.0)
        if want > 0 and (worst is None or left / want < worst[0] / max(worst[1], 1e-9)):
            worst = (left, want, vms)
        planned_total += want * g.count
    if worst is None:
        return {}, []
    left, want, vms = worst
    details = {"planned_gib": round(want, 3), "available_gib": round(left, 3), "vms": vms}
    if left + EPS >= want:
        return details, []
    return details, [f"the busiest host keeps about {left:.2g} GiB of page cache for its I/O-intensive VMs against the "
                     f"{want:.2g} GiB the doc 001 budget plans (1 GiB per I/O-heavy VM, 0.5 per medium one): cached "
                     "modes serve fewer reads from memory (see the cache-mode figures); more host RAM or fewer VMs per "
                     "host restore it"]


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


def recommend(ctx: EngineContext) -> list[Recommendation]:
    """The host count (choice and ``value``), with per-resource needs, bottleneck and headroom;
    updates ``ctx.facts`` to the recommended active hosts. ``infeasible`` (no value) when no host
    count meets a hard limit."""
    from advisor.recommend import targets as tg

    sc = ctx.scenario
    outcome = evaluate(DECISION, ctx.rule_ctx(), ["plan"])
    budgets = Budgets.of(r.id for r in outcome.fired)
    need, cap, total = _needed(ctx, budgets)
    packing = _pack(ctx, cap, budgets)
    finite = {k: v for k, v in need.items() if math.isfinite(v)}
    bottleneck = max(finite or need, key=lambda k: (finite or need)[k])
    # the pooled bound: hard resources as asked, soft ones with each VM capped at a host
    capped = dict.fromkeys(cap, 0.0)
    for w in sc.workloads:
        for k, v in placement_demand(vm_demand(ctx, w, budgets), cap).items():
            capped[k] += v * w.vms
    pooled = max(1, max((math.ceil(capped[k] / cap[k] - 1e-9) for k in cap if cap[k] > 0), default=1))
    problems = []
    for k in HARD:  # a hard resource the hosts lack entirely
        if not math.isfinite(need[k]):
            short = [w.name for w in sc.workloads if vm_demand(ctx, w, budgets)[k] > 0]
            problems.append(f"the hosts have no {LABELS[k]} for the workloads ({', '.join(short)} need "
                            f"{_num(total[k])} {UNITS[k]})")
    problems += _oversize(ctx, cap, packing, budgets)
    active = max(pooled, packing.hosts)
    minimum = max(1, budgets.min_hosts - sc.hosts.reserve)
    raised = active < minimum
    active = max(active, minimum)
    placed_active = active
    target_results: list = []
    pinned = sc.preferences.fixed.get("host_count")  # a design chosen elsewhere: its count, if it places
    if pinned is not None and not problems and pinned - sc.hosts.reserve < active:
        problems.append(f"the scenario fixes {pinned} hosts ({pinned - sc.hosts.reserve} active) but placing whole "
                        f"VMs takes {active} active hosts (preferences.fixed.host_count)")
    elif pinned is not None and not problems:
        active = pinned - sc.hosts.reserve
        target_results = tg.evaluate(ctx, active, cpu_points=_migration_points(budgets))
    elif not problems:
        active, target_results, target_problems = _search_targets(ctx, active, _migration_points(budgets))
        problems += target_problems
        # targets no host count moves (response time, migration downtime): a hard one missed is
        # missed at every count
        fixed = tg.evaluate(ctx, active, names=tuple(n for n in TARGET_NAMES if n not in tg.COUNT_DEPENDENT))
        target_results += fixed
        problems += [f"no host count meets the hard target {r.text()}" for r in tg.missed(fixed, hard=True)]
    infeasible = bool(problems)
    if infeasible:  # no count meets a hard limit: the later decisions read the planned (or placed) hosts
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
    soft_details, soft_warnings, soft_figs = ({}, [], {}) if infeasible else _soft_limits(ctx, packing, cap,
                                                                                          budgets, active)
    expected.update(soft_figs)
    cache_details, cache_warnings = ({}, []) if infeasible else _page_cache(ctx, packing, budgets)
    shared_figures, shared_warnings, shared_details = _shared_load(ctx, total)
    expected.update(shared_figures)
    ratio = ctx.facts.overallocation_ratio or 1.0
    planned = sc.hosts.count
    shared_warning = _shared_capacity(ctx)
    alternatives = []
    by_targets = active > placed_active and not infeasible
    if not infeasible:
        if planned != hosts:
            p_active = planned - sc.hosts.reserve
            why = (f"too few: placing whole VMs takes {placed_active} active hosts ({bottleneck.replace('_', ' ')} "
                   f"alone needs {need[bottleneck]:.2f})" if planned - sc.hosts.reserve < placed_active and not raised
                   else "too few: VMs that live-migrate need a second host [hc.migration-two-hosts]"
                   if planned - sc.hosts.reserve < placed_active else
                   f"too few to meet the targets ({'; '.join(r.text() for r in tg.missed(tg.evaluate(ctx, max(p_active, 1), names=tg.COUNT_DEPENDENT, cpu_points=_migration_points(budgets))))})"
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
    ceiling = budgets.cpu_ceiling(planned_cpu_percent(sc))
    reserved = []
    if budgets.cpu_points:
        reserved.append(f"host CPU is planned at {ceiling:g} % ({budgets.cpu_points:g} points of "
                        f"{planned_cpu_percent(sc):g} % kept for "
                        + " and ".join(x for x, rid in (("live-migration sources", "hc.migration-headroom"),
                                                        ("co-located database clusters", "hc.multi-cluster-cpu"))
                                       if rid in budgets.rules) + ")")
    if budgets.page_cache:
        reserved.append("host RAM left after the guests serves as page cache for I/O-intensive VMs (planned: 1 GiB "
                        "per I/O-heavy VM, 0.5 GiB per medium one; a soft budget)")
    if raised:
        reserved.append("live migration needs a second host")
    budget_text = (" Reserved: " + "; ".join(reserved) + ".") if reserved else ""
    target_text = ""
    if target_results:
        met = [r for r in target_results if r.met]
        target_text = (f" Targets: {len(met)} of {len(target_results)} met at {active} active hosts"
                       + (f" (the placement alone needs {placed_active}; more hosts meet them)" if by_targets else "")
                       + (": missed " + "; ".join(r.text() for r in tg.missed(target_results))
                          if tg.missed(target_results) else "") + ".")
    if infeasible:
        rationale = ("No host count meets every hard limit: " + "; ".join(problems) + ". Change the hosts, the "
                     f"workloads or the targets; the later decisions assume the {active} planned active hosts.")
    else:
        rationale = (f"{hosts} hosts: {active} active for the workloads plus {sc.hosts.reserve} kept free "
                     f"(N+{sc.hosts.reserve}). The bottleneck is {bottleneck.replace('_', ' ')} "
                     f"({need[bottleneck]:.2f} hosts' worth).{whole} CPU counts physical cores "
                     f"({sc.hosts.cpu.cores} per host, threads not counted) at {ratio:g} vCPUs per core; RAM is "
                     f"{'not over-committed' if sc.preferences.ram_overcommit == 1 else f'over-committed {sc.preferences.ram_overcommit:g}x'}"
                     f" after the hypervisor's {hypervisor_reserve_gib(sc.hosts.ram_gib):.3g} GiB."
                     f"{budget_text}{target_text}"
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
        warnings=list(dict.fromkeys(outcome.warnings)) + [w for w in (*problems, shared_warning, *shared_warnings,
                                                                      *soft_warnings, *cache_warnings) if w],
        basis=ctx.calibration.basis if site_iops else "documents")
    if soft_details.get("cpu_load", {}).get("statements"):
        rec.citations.append(ctx.kb.get(ctx.kb.resolve_document("004"), CPU_CEILING_ROW.split(":")[1]).citation())
    rec.details = {"bottleneck": bottleneck, "hosts_needed": {k: round(v, 3) for k, v in finite.items()},
                   "per_host_capacity": {k: round(v, 3) for k, v in cap.items()},
                   "demand": {k: round(v, 3) for k, v in total.items()}, "units": UNITS,
                   "hard_limits": list(HARD), "soft_limits": soft_details,
                   "headroom_vms": room, "reserve": sc.hosts.reserve,
                   "hosts_by_packing": packing.hosts, "hosts_by_pooling": pooled, "hosts_by_targets": active
                   if by_targets else None,
                   "placement": packing.placement(), "packing_order": packing.order,
                   "unplaced": dict(packing.unplaced), "infeasible": problems,
                   "budgets": budgets.to_dict(planned_cpu_percent(sc)),
                   "hypervisor_reserve_gib": round(hypervisor_reserve_gib(sc.hosts.ram_gib), 3),
                   "targets": [r.to_dict() for r in target_results],
                   "assumptions": ["vCPUs count against physical cores, not hardware threads",
                                   "busy share per vCPU: low 0.2, medium 0.5, high 0.9 (or the workload's measured "
                                   "cpu_busy_share), on a core of the thesis' 2.0 GHz; a request load costs the "
                                   "thesis' CPU per request (doc 004 Section 8.4.1); busy cores = core-GHz over "
                                   "the hosts' clock",
                                   "IOPS per VM when not given: low 50, medium 200, high 1000",
                                   "per-disk IOPS when not given or calibrated: HDD 150, SSD 50000, NVMe 300000",
                                   "hypervisor keeps 0.5 GiB + 3 % of host RAM; 2 % RAM overhead per VM",
                                   "90 % of local disk capacity and 70 % of the NIC are usable",
                                   "hard limits: CPU allocation, RAM, disk capacity, hard targets; soft: CPU load, "
                                   "IOPS, storage traffic (a VM above them gets a host of its own, the consequence "
                                   "is shown)",
                                   "a VM is never split over hosts: whole VMs are placed first-fit decreasing"]}
    if cache_details:
        rec.details["page_cache"] = cache_details
    if shared_details:
        rec.details["shared_storage"] = shared_details
    ctx.chosen["host_count"] = None if infeasible else hosts
    ctx.chosen["cpu_points"] = _migration_points(budgets)
    ctx.facts.set_hosts(sc, active)
    vcpu_overallocation.refresh_cpu(ctx, active)  # the over-allocation card's CPU on these hosts
    return [rec]


#: doc 004 Section 6.4: the host CPU at which the load could not be raised any further
CPU_CEILING_ROW = "004:c6-S6.4-08"


def _migration_points(budgets: Budgets) -> float:
    """Host CPU points live-migration sources climb by (reported on top of the steady load)."""
    return CPU_POINTS["hc.migration-headroom"] if "hc.migration-headroom" in budgets.rules else 0.0
