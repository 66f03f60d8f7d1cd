"""What one host offers and one VM asks, per resource, for the host count
(:mod:`advisor.recommend.host_count`), its bin-packer (:mod:`advisor.recommend.packing`) and the
design search (:mod:`advisor.optimize.evaluate`). Per resource, the workloads' total over one
host's usable capacity is the fractional hosts' worth of demand:

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
refusing (:mod:`advisor.recommend.host_limits`).

The documents' sizing conclusions reserve capacity when their rules fire (:class:`Budgets`):
source hosts of live migrations keep 14 points of CPU (doc 004 c5-C4), several co-located
database clusters 10 more points (c10-C3), and I/O-intensive VMs should find host RAM for the page
cache (doc 001 C6; a soft budget, :mod:`advisor.recommend.host_limits`). VMs that live-migrate
need at least two hosts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from advisor.recommend.base import EngineContext
from advisor.recommend.disks import disk_iops
from advisor.recommend.load import vm_busy_cores, vm_iops
from advisor.recommend.packing import EPS, Packing, pack  # noqa: F401 (EPS: the fit tolerance, shared)

DECISION = "host_count"
VM_RAM_OVERHEAD = 0.02
NIC_USABLE = 0.7
DISK_USABLE = 0.9
#: MB/s per Gb/s of link
MB_S_PER_GBPS = 125.0
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
    return (ctx.facts.storage_backend or "local_disk") == "local_disk" and not _outside(ctx)


def _outside(ctx: EngineContext) -> bool:
    """Whether the VM images live outside the plan: the scenario declares no storage at all (no
    local disks, no shared storage), so the hosts carry neither their capacity nor their traffic."""
    h = ctx.scenario.hosts
    return ctx.facts.storage_backend is None and not h.disks and not h.shared_storage


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
    return dict(ctx.once(_demand_key(ctx, w), lambda: _vm_demand(ctx, w)))


def _demand_key(ctx: EngineContext, w) -> tuple:
    f = ctx.facts
    return ("vm_demand", id(w), f.overallocation_ratio, f.storage_backend, f.hypervisor)


def pin_vm_demand(ctx: EngineContext, w, demand: dict[str, float], shaped: bool = True) -> None:
    """Make ``demand`` the per-VM demand of ``w`` in ``ctx`` (a copy of the scenario whose VMs are
    grown: the growth timeline's year), so the host count's steps place the grown VMs. ``shaped``:
    the vCPUs it is the demand of (:func:`_cpu_vcpus` of ``w`` now) scale it to each VM shape
    (:func:`shape_demands`; the room's steps, more VMs of the workload's shapes); else its VMs are
    placed at it, one shape (a grown year's VMs, the workload's VMs grown on average)."""
    ctx.memo[_demand_key(ctx, w)] = dict(demand)
    ctx.memo[("shape base", id(w))] = _cpu_vcpus(w) if shaped else None


def _cpu_vcpus(w) -> float:
    """The vCPUs the CPU demand of one VM of ``w`` stands for: its mean (real time: its vCPUs, pinned)."""
    return float(w.vcpus) if w.realtime is not None else w.mean_vcpus


#: the demands a VM shape scales in proportion to its vCPUs (the rest are the workload's per VM)
PER_VCPU = ("cpu_allocation", "cpu_load")


def shape_demands(ctx: EngineContext, w, budgets: Budgets = NO_BUDGETS) -> list[tuple[str, dict[str, float], int]]:
    """(placement name, per-VM demand, VMs) of each VM shape of ``w`` (:attr:`Workload.vm_shapes`,
    named by :attr:`Workload.shape_keys`): a workload given as totals whose vCPU total its VMs do
    not divide (growth.yaml's erp: 16 VMs of 4 vCPUs and 112 of 3) is placed as those VMs, each
    shape's CPU demand its share in proportion to its vCPUs, instead of every VM at the mean (3.125
    vCPUs), so each host holds the VMs its figures add up; any other workload is one shape, its
    :func:`vm_demand`."""
    demand = vm_demand(ctx, w, budgets)
    shapes = w.vm_shapes
    base = ctx.memo.get(("shape base", id(w)), 0.0)
    if len(shapes) == 1 or base is None:
        return [(w.name, demand, w.vms)]
    base = base or _cpu_vcpus(w)
    cores = float(ctx.scenario.hosts.cpu.cores)
    out = []
    for key, (n, v) in zip(w.shape_keys, shapes, strict=True):
        d = dict(demand)
        for k in PER_VCPU:
            d[k] = demand[k] * v / base
        d["cpu_allocation"] = min(d["cpu_allocation"], cores)  # (as vm_demand: a host's whole allocation at most)
        out.append((key, d, n))
    return out


def _vm_demand(ctx: EngineContext, w) -> dict[str, float]:
    ratio = ctx.facts.overallocation_ratio or 1.0
    local = _local(ctx)
    iops = _iops(w)
    disk = _disk_gb(w)
    rt = w.realtime is not None
    cores = float(ctx.scenario.hosts.cpu.cores)
    # one VM's vCPUs are bounded by a host's hardware threads (the scenario checks it): a VM with
    # more vCPUs than the ratio allows on one host takes that host's whole allocation
    alloc = float(w.vcpus) if rt else min(w.mean_vcpus / ratio, cores)  # a totals workload's exact vCPUs
    return {"cpu_allocation": alloc,
            "cpu_load": vm_busy_cores(ctx, w),
            "ram": w.ram_gib * (1 + VM_RAM_OVERHEAD),
            "disk_capacity": disk if local else 0.0,
            "disk_iops": iops if local else 0.0,
            "network": 0.0 if local or _outside(ctx) else iops * w.io.block_size_kib * 1024 / 1e6}


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


def placement_profiles(ctx: EngineContext, cap: dict[str, float], budgets: Budgets = NO_BUDGETS) -> list[tuple]:
    """(placement name, per-VM placement demand, VMs) of every VM shape of every workload
    (:func:`shape_demands`): what the packing, the pooled bound and the placement constraints read
    (made once per host count and carried, #30)."""
    return [(key, placement_demand(d, cap), n) for w in ctx.scenario.workloads
            for key, d, n in shape_demands(ctx, w, budgets)]


def shape_names(sc) -> dict[str, tuple[str, int]]:
    """Placement name -> (workload, vCPUs a VM) of every VM shape of the workloads of more than one."""
    return {key: (w.name, v) for w in sc.workloads if len(w.vm_shapes) > 1
            for key, (_, v) in zip(w.shape_keys, w.vm_shapes, strict=True)}


def by_workload(vms: dict[str, int], shapes: dict[str, tuple[str, int]]) -> dict:
    """A host's (or host group's) VMs by placement name as JSON: ``vms`` per workload and, for the
    workloads of more than one VM shape on it, ``vm_shapes``: [[VMs, vCPUs a VM], ...] as
    :attr:`Workload.vm_shapes` (``{"vms": {"erp": 39}, "vm_shapes": {"erp": [[5, 4], [34, 3]]}}``)."""
    out: dict[str, int] = {}
    split: dict[str, list[list[int]]] = {}
    for key, n in vms.items():
        if not n:
            continue
        name, v = shapes.get(key, (key, 0))
        out[name] = out.get(name, 0) + n
        if key in shapes:
            split.setdefault(name, []).append([n, v])
    return {"vms": out, **({"vm_shapes": split} if split else {})}


def _pack(ctx: EngineContext, cap: dict[str, float], budgets: Budgets = NO_BUDGETS,
          profiles: list[tuple] | None = None) -> Packing:
    return pack(cap, profiles if profiles is not None else placement_profiles(ctx, cap, budgets))


def _num(x: float) -> str:
    """A figure for a message: thousands separated, at most 4 significant digits below 1000."""
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.4g}"


def pooled_hosts(ctx: EngineContext, cap: dict[str, float], budgets: Budgets = NO_BUDGETS,
                 profiles: list[tuple] | None = None) -> int:
    """The pooled lower bound of the active hosts: hard resources as asked, soft ones with each VM
    capped at a host (as it is placed), summed over the VMs and over one host's capacity."""
    capped = dict.fromkeys(cap, 0.0)
    for _, demand, n in profiles if profiles is not None else placement_profiles(ctx, cap, budgets):
        for k, v in demand.items():
            capped[k] += v * n
    return max(1, max((math.ceil(capped[k] / cap[k] - 1e-9) for k in cap if cap[k] > 0), default=1))


#: doc 004 Section 6.4: the host CPU at which the load could not be raised any further
CPU_CEILING_ROW = "004:c6-S6.4-08"


def _migration_points(budgets: Budgets) -> float:
    """Host CPU points live-migration sources climb by (reported on top of the steady load)."""
    return CPU_POINTS["hc.migration-headroom"] if "hc.migration-headroom" in budgets.rules else 0.0
