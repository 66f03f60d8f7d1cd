"""What the advice chose, per workload group, in the units the targets take.

:func:`plan_from_advice` reads a typed :class:`~advisor.engine.Advice` (never its JSON) and
gathers, for the cluster and for every workload group, the settings the configuration
generators write: the cache mode, where the images live, the vCPU over-allocation, the memory
over-commit the host count was sized with, and the real-time period and budget. Each setting
keeps the :class:`Source` it came from (decision, scope, choice, citations) so that every line
of the exported files can say which recommendation it implements.

Unit conversions are exact (decimal arithmetic on the shortest representation of each number)
and round in the safe direction only:

- a real-time period T_VM in ``time_unit`` becomes whole microseconds rounded *down* (a shorter
  period never lengthens the worst-case gap 2(T_VM - C_VM) the analysis allowed for), and the
  budget C_VM becomes ``ceil(period_us x C_VM / T_VM)`` (the share C_VM/T_VM never drops). The
  advice's period and budget already carry the WCET scaling by host speed (design GHz / host
  GHz, applied once by the analysis); nothing here scales them again;
- RAM in GiB becomes MiB or KiB, rounded up; disk sizes in GB (10^9 B) become bytes, or GiB
  (2^30 B) rounded up;
- the over-allocation (vCPUs per physical core) becomes vCPUs per hardware thread (divided by
  the threads per core) where a target counts threads (OpenStack's ``cpu_allocation_ratio``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

from knowledge.infra.errors import InputError

#: microseconds per unit of a task set's ``time_unit`` ("units" has no physical meaning)
US_PER_UNIT = {"us": 1, "ms": 1000, "s": 1_000_000}
#: disk placement choices that put an image on a host partition (a block device), not a file
PARTITION_CHOICES = ("partition-backed, sized to the footprint", "partition-backed, outer zone, sized to the footprint")
#: cache modes that open the image with O_DIRECT (they bypass the host page cache): the only ones
#: QEMU accepts asynchronous native I/O (io=native / aio=native) with
DIRECT_MODES = ("none", "directsync")
#: the CPU a real-time VM's emulator threads are pinned to (housekeeping, never a real-time core)
HOUSEKEEPING_CPU = 0


# --- exact unit conversions -------------------------------------------------------------------
def exact(x: float | int) -> Decimal:
    """The decimal the user wrote (the shortest representation of the float), exactly."""
    if isinstance(x, int):
        return Decimal(x)
    if not math.isfinite(x):
        raise InputError(f"not a finite number: {x!r}")
    return Decimal(repr(float(x)))


def _floor(d: Decimal) -> int:
    return int(d.to_integral_value(rounding=ROUND_FLOOR))


def _ceil(d: Decimal) -> int:
    return int(d.to_integral_value(rounding=ROUND_CEILING))


def to_microseconds(value: float, unit: str) -> Decimal:
    """``value`` in ``unit`` (us, ms, s) as an exact number of microseconds."""
    if unit not in US_PER_UNIT:
        raise InputError(f"time unit {unit!r} has no length in seconds (known: {', '.join(US_PER_UNIT)})")
    return exact(value) * US_PER_UNIT[unit]


def period_budget_us(period: float, budget: float, unit: str, dedicated: bool = False) -> tuple[int, int]:
    """(period, budget) in whole microseconds: the period rounded down, the budget rounded up so
    that budget/period is at least the advised share (a dedicated core: budget = period)."""
    p = _floor(to_microseconds(period, unit))
    if p < 1:
        raise InputError(f"a period of {period:g} {unit} is shorter than one microsecond")
    if dedicated:
        return p, p
    b = _ceil(Decimal(p) * exact(budget) / exact(period))
    return p, min(max(b, 1), p)


def gib_to_mib(gib: float) -> int:
    """GiB -> MiB, rounded up."""
    return _ceil(exact(gib) * 1024)


def gib_to_kib(gib: float) -> int:
    """GiB -> KiB, rounded up."""
    return _ceil(exact(gib) * 1024 * 1024)


def gb_to_bytes(gb: float) -> int:
    """GB (10^9 B) -> bytes, rounded up."""
    return _ceil(exact(gb) * 10**9)


def gb_to_gib(gb: float) -> int:
    """GB (10^9 B) -> whole GiB (2^30 B), rounded up."""
    return -(-gb_to_bytes(gb) // 2**30)


def per_thread(ratio_per_core: float, threads_per_core: int) -> Decimal:
    """vCPUs per physical core -> vCPUs per hardware thread."""
    return exact(ratio_per_core) / threads_per_core


def decimal_text(d: Decimal | float | int | None) -> str:
    """A plain decimal string without exponent: 2 -> "2.0", 0.625 -> "0.625" (None: "")."""
    if d is None:
        return ""
    text = format((d if isinstance(d, Decimal) else exact(d)).normalize(), "f")
    return text if "." in text else text + ".0"


def one_line(text: str) -> str:
    """Free text (scenario and workload names) as it may appear in a comment of any target: one
    line, no control characters (a newline in a name must never start a command or a setting)."""
    import unicodedata

    cleaned = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in str(text))
    return " ".join(cleaned.split())


def slug(name: str) -> str:
    """A name every target accepts as a host name and a file name: lower-case letters, digits and
    dashes, starting and ending with a letter or digit."""
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return s or "group"


# --- where a setting comes from ------------------------------------------------------------------
def cite(c: dict) -> str:
    """One citation as the reports write it: document number, locator and knowledge-base row."""
    doc = str(c.get("document", ""))[:3]
    out = f"doc {doc} {c.get('locator', '')}".strip()
    return out + (f" ({c['id']})" if c.get("id") else "")


@dataclass(frozen=True)
class Source:
    """The recommendation a setting implements."""

    decision: str
    scope: str
    choice: str
    value: float | None = None
    confidence: str = ""
    citations: tuple[str, ...] = ()
    basis: str = "documents"

    @classmethod
    def of(cls, rec) -> Source:
        return cls(rec.decision, rec.scope, rec.choice, rec.value, rec.confidence_label,
                   tuple(cite(c) for c in rec.citations), rec.basis)

    @property
    def label(self) -> str:
        where = "cluster" if self.scope == "cluster" else one_line(self.scope.split(":", 1)[-1])
        return f"{self.decision} ({where}): {one_line(self.choice)}"

    def lines(self, max_citations: int = 3) -> list[str]:
        """Comment lines: the recommendation, its confidence, and its first citations."""
        out = [f"capadvisor {self.label}" + (f" [confidence {self.confidence}]" if self.confidence else "")]
        if self.citations:
            more = len(self.citations) > max_citations
            out.append("sources: " + "; ".join(self.citations[:max_citations])
                       + (" (and more: capadvisor advise)" if more else ""))
        return out


@dataclass(frozen=True)
class ExportedValue:
    """One value written into an exported file, and the recommendation it came from."""

    file: str
    setting: str
    value: str
    decision: str
    scope: str
    advised: str
    conversion: str = ""

    def to_dict(self) -> dict:
        return {"file": self.file, "setting": self.setting, "value": self.value, "decision": self.decision,
                "scope": self.scope, "advised": self.advised, "conversion": self.conversion}


# --- the plan -------------------------------------------------------------------------------------
@dataclass
class RealtimePlan:
    """A real-time VM's period and budget, as advised (in ``unit``) and in microseconds."""

    unit: str
    period: float
    budget: float
    share: float
    dedicated: bool
    source: Source
    period_us: int | None = None
    budget_us: int | None = None
    problem: str | None = None  # why no microsecond values exist (abstract time unit)

    @property
    def advised(self) -> str:
        return (f"T_VM={self.period:.10g} {self.unit}, C_VM={self.budget:.10g} {self.unit}"
                + (" (dedicated core)" if self.dedicated else ""))


@dataclass
class GroupPlan:
    """One workload group: its VM shape and the per-workload choices of the advice."""

    name: str
    slug: str
    vms: int
    vcpus: int
    ram_gib: float
    disk_gb: float
    live_migration: bool
    cache: str | None = None
    cache_src: Source | None = None
    placement: str | None = None
    placement_src: Source | None = None
    block: str | None = None
    block_src: Source | None = None
    containers: bool = False
    runs_as_src: Source | None = None
    runs_as: str = ""  # the per-workload hypervisor choice (containers: how they run)
    realtime: RealtimePlan | None = None
    rt_first_cpu: int | None = None  # host CPU of the first real-time vCPU of the group's first VM
    anti_affinity: bool | str = False  # the scenario's placement constraints (#32)
    affinity: bool | str = False
    replication_factor: int | None = None
    #: a shape group (a workload whose VMs differ in shape, :func:`shape_groups`): the workload's
    #: slug its VMs are named by, its VMs before this group's first, and its VMs in all (0: not one)
    vm_slug: str = ""
    first: int = 0
    of: int = 0
    #: the workload's storage total in whole GiB, rounded up (a workload given as totals with
    #: ``total_storage_tb``; None: each VM's disk is its own size), and this group's whole GiB a VM
    #: once :meth:`ClusterPlan.whole_gib_groups` spread that total over the VMs
    total_gib: int | None = None
    gib: int | None = None

    @property
    def label(self) -> str:
        """The group for people: the workload's name, a shape group's VMs of it added."""
        return self.name if not self.of else f"{self.name}, VMs {self.first + 1}-{self.first + self.vms} of {self.of}"

    @property
    def workload_slug(self) -> str:
        """The slug of its workload (its VMs are named by it; a shape group's files by ``slug``)."""
        return self.vm_slug or self.slug

    def vm_number(self, index: int) -> str:
        """VM ``index`` (0-based) of the group as its workload counts it: ``VM 17 of 128``."""
        return f"VM {self.first + index + 1} of {self.of or self.vms}"

    @property
    def ram_mib(self) -> int:
        return gib_to_mib(self.ram_gib)

    @property
    def ram_kib(self) -> int:
        return gib_to_kib(self.ram_gib)

    @property
    def disk_bytes(self) -> int:
        return gb_to_bytes(self.disk_gb)

    @property
    def disk_gib(self) -> int:
        """Whole GiB of a VM's disk: the group's share of its workload's storage total when spread
        (:func:`gib_parts`), else its size rounded up."""
        return self.gib if self.gib is not None else gb_to_gib(self.disk_gb)

    def gib_text(self) -> str:
        """How the group's disk became whole GiB when its workload's storage total was spread
        (:func:`gib_parts`), for the comments of the targets that size in GiB; else ''."""
        if self.gib is None or self.total_gib is None:
            return ""
        n = self.of or self.vms
        q, r = divmod(self.total_gib, n)
        spread = f"{r:,} VMs of {q + 1} GiB, {n - r:,} of {q}" if r else f"{n:,} VMs of {q} GiB"
        return (f"{self.disk_gb:g} GB a VM; the workload's storage total, {self.total_gib:,} GiB rounded up, in "
                f"whole GiB over its VMs ({spread}): {self.gib} GiB each here")

    @property
    def io_mode(self) -> str:
        """QEMU's asynchronous I/O mode for the cache mode: native needs O_DIRECT."""
        return "native" if self.cache in DIRECT_MODES else "threads"

    @property
    def partition(self) -> bool:
        return self.placement in PARTITION_CHOICES

    def vm_cpus(self, index: int) -> list[int]:
        """Host CPUs the vCPUs of VM ``index`` (0-based) are pinned to: every real-time VM gets cores
        of its own (so that VMs of a group placed on one host never share a core)."""
        if self.rt_first_cpu is None:
            return []
        first = self.rt_first_cpu + index * self.vcpus
        return list(range(first, first + self.vcpus))

    @property
    def rt_cpus(self) -> list[int]:
        """Host CPUs of the example (first) VM's vCPUs; empty for VMs that are not pinned."""
        return self.vm_cpus(0)

    @property
    def all_rt_cpus(self) -> list[int]:
        return [c for i in range(self.vms) for c in self.vm_cpus(i)]

    def vm_names(self) -> list[str]:
        """Its VMs' names: the workload's slug and the VM's number in the workload."""
        width = max(2, len(str(self.of or self.vms)))
        return [f"{self.workload_slug}-{i:0{width}d}" for i in range(self.first + 1, self.first + self.vms + 1)]


@dataclass
class ClusterPlan:
    """The cluster-wide choices and every group."""

    scenario: str
    basis: str
    hypervisor: str
    hypervisor_src: Source | None
    cores: int
    threads_per_core: int
    host_ram_gib: float
    overalloc_per_core: float | None
    overalloc_src: Source | None
    ram_overcommit: float
    hosts: int | None
    hosts_src: Source | None
    reserved_ram_gib: float | None
    backend: str
    backend_src: Source | None
    shared_kinds: list[str]
    groups: list[GroupPlan]
    governor: str | None = None
    governor_src: Source | None = None
    notes: list[str] = field(default_factory=list)
    #: the host count's placement under constraints: [{host, domain, vms: {workload: n}}] (#32)
    placement: list[dict] = field(default_factory=list)

    @property
    def overalloc_per_thread(self) -> Decimal | None:
        if self.overalloc_per_core is None:
            return None
        return per_thread(self.overalloc_per_core, self.threads_per_core)

    @property
    def max_vcpus_per_host(self) -> int | None:
        """vCPUs a host may carry at the advised over-allocation (physical cores x ratio)."""
        if self.overalloc_per_core is None:
            return None
        return _floor(exact(self.overalloc_per_core) * self.cores)

    @property
    def reserved_ram_mib(self) -> int | None:
        return None if self.reserved_ram_gib is None else gib_to_mib(self.reserved_ram_gib)

    def vm_groups(self) -> list[GroupPlan]:
        """Groups that run as VMs (not containers)."""
        return [g for g in self.groups if not g.containers]

    def whole_gib_groups(self) -> list[GroupPlan]:
        """:attr:`groups` for the targets that size disks in whole GiB (Proxmox, OpenStack): a
        workload's storage total spread over its VMs (:func:`gib_parts`), so their disks add up to
        it (less than 1 GiB over), instead of every VM's disk rounded up."""
        slugs = {g.slug for g in self.groups}
        return [part for g in self.groups for part in gib_parts(g, slugs)]

    def workload_vms(self) -> list[tuple[GroupPlan, list[str]]]:
        """(its first group, every VM's name) of each workload exported as VMs: a workload's shape
        groups (:func:`shape_groups`) joined, as the placement and its constraints count them."""
        out: list[tuple[GroupPlan, list[str]]] = []
        for g in self.vm_groups():
            if g.first:
                out[-1][1].extend(g.vm_names())
            else:
                out.append((g, g.vm_names()))
        return out

    def realtime_groups(self) -> list[GroupPlan]:
        return [g for g in self.vm_groups() if g.realtime is not None]


def _rt_plan(rec, unit: str) -> RealtimePlan | None:
    if rec is None or rec.value is None:
        return None
    exp = rec.expected
    if "period" not in exp or "budget" not in exp:
        return None
    analysis = rec.details.get("analysis") or {}
    # the recommender's own numbers: T_VM is the recommendation's value, C_VM = T_VM x share
    period = float(rec.value)
    dedicated = bool(rec.details.get("dedicated_core"))
    share = 1.0 if dedicated else float(analysis.get("share") or exp["share"].value)
    budget = period * share
    rt = RealtimePlan(unit, period, budget, share, dedicated, Source.of(rec))
    try:
        rt.period_us, rt.budget_us = period_budget_us(period, budget, unit, dedicated)
    except InputError as exc:
        rt.problem = str(exc)
    return rt


def _reserved_ram(advice, hc) -> float | None:
    """GiB the host count kept for the hypervisor on each host (host RAM minus what it offered
    the VMs, before the over-commit)."""
    if hc is None:
        return None
    cap = (hc.details.get("per_host_capacity") or {}).get("ram")
    sc = advice.scenario
    if cap is None or sc.preferences.ram_overcommit <= 0:
        return None
    reserved = sc.hosts.ram_gib - float(cap) / sc.preferences.ram_overcommit
    return reserved if reserved > 0 else None


def plan_from_advice(advice) -> ClusterPlan:
    """The export plan of ``advice`` (an :class:`advisor.engine.Advice`)."""
    sc = advice.scenario
    hv = advice.find("hypervisor")
    oa = advice.find("vcpu_overallocation")
    hc = advice.find("host_count")
    sb = advice.find("storage_backend")
    threads = int((oa.details.get("threads_per_core") if oa else None) or sc.hosts.cpu.threads_per_core or 1)
    plan = ClusterPlan(
        scenario=one_line(sc.name), basis=advice.basis,
        hypervisor=hv.choice if hv else "KVM", hypervisor_src=Source.of(hv) if hv else None,
        cores=sc.hosts.cpu.cores, threads_per_core=threads, host_ram_gib=sc.hosts.ram_gib,
        overalloc_per_core=float(oa.value) if oa and oa.value is not None else None,
        overalloc_src=Source.of(oa) if oa else None, ram_overcommit=sc.preferences.ram_overcommit,
        hosts=int(hc.value) if hc and hc.value is not None and math.isfinite(hc.value) else None,
        hosts_src=Source.of(hc) if hc else None, reserved_ram_gib=_reserved_ram(advice, hc),
        backend=sb.choice if sb else "local_disk", backend_src=Source.of(sb) if sb else None,
        shared_kinds=[s.kind for s in sc.hosts.shared_storage], groups=[])
    plan.placement = list((hc.details or {}).get("placement_by_host") or []) if hc else []
    if (gov := advice.find("cpu_governor")) is not None:
        plan.governor, plan.governor_src = gov.choice, Source.of(gov)
    next_cpu = HOUSEKEEPING_CPU + 1
    slugs: set[str] = set()
    for w in sc.workloads:
        g = _group_plan(advice, w, _unique_slug(slug(w.name), slugs))
        if g.realtime is not None and g.realtime.problem and not g.containers:
            plan.notes.append(f"{g.name}: {g.realtime.problem}; no period or budget exported")
        elif w.realtime is not None and g.realtime is None:
            plan.notes.append(f"{g.name}: the advice found no feasible VM period and budget; "
                              "no real-time settings exported")
        if g.containers:
            plan.notes.append(f"{g.name}: the advice runs it as {g.runs_as or 'containers'}; "
                              "no VM configuration exported")
        for part in shape_groups(g, w.vm_shapes, slugs):
            if part.realtime is not None and not part.containers:  # every real-time VM on cores of its own
                part.rt_first_cpu = next_cpu
                next_cpu += part.vcpus * part.vms
            plan.groups.append(part)
    if next_cpu > sc.hosts.cpu.cores:
        plan.notes.append(f"the real-time pinning gives every real-time VM cores of its own (host CPUs "
                          f"{HOUSEKEEPING_CPU + 1}-{next_cpu - 1}), more than the {sc.hosts.cpu.cores} cores of a "
                          "host: spread those VMs over hosts and reuse the CPU numbers on each")
    return plan


def _unique_slug(base: str, slugs: set[str]) -> str:
    """``base``, numbered when taken ("Web" and "web!" need files of their own); now taken."""
    out, n = base, 1
    while out in slugs:
        n += 1
        out = f"{base}-{n}"
    slugs.add(out)
    return out


def _group_plan(advice, w, group_slug: str) -> GroupPlan:
    """Workload ``w``'s group: its VM shape (the first of :attr:`Workload.vm_shapes`) and the
    per-workload choices of the advice."""
    scope = f"workload:{w.name}"
    g = GroupPlan(name=one_line(w.name), slug=group_slug, vms=w.vms, vcpus=w.vcpus, ram_gib=w.ram_gib,
                  disk_gb=w.disk_size_gb, live_migration=w.live_migration, anti_affinity=w.anti_affinity,
                  affinity=w.affinity, replication_factor=w.replication_factor)
    if w.total_storage_tb is not None and w.vms > 0:  # the sized total, as the disks of all its VMs
        g.total_gib = -(-_ceil(exact(w.total_storage_tb) * 10**12) // 2**30)
    if (r := advice.find("cache_mode", scope)) is not None:
        g.cache, g.cache_src = r.choice, Source.of(r)
    if (r := advice.find("disk_placement", scope)) is not None:
        g.placement, g.placement_src = r.choice, Source.of(r)
    if (r := advice.find("io_block_size", scope)) is not None:
        g.block, g.block_src = r.choice, Source.of(r)
    if (r := advice.find("hypervisor", scope)) is not None:
        g.runs_as_src, g.runs_as = Source.of(r), r.choice
        g.containers = "container" in r.choice.lower()
    if w.realtime is not None:
        g.realtime = _rt_plan(advice.find("vm_period_budget", scope), w.realtime.time_unit)
    return g


def shape_groups(g: GroupPlan, shapes: tuple[tuple[int, int], ...], slugs: set[str]) -> list[GroupPlan]:
    """``g`` as one group per VM shape of its workload (``shapes``: (VMs, vCPUs a VM) in order,
    :attr:`advisor.scenario.model.Workload.vm_shapes`): a workload given as totals whose VMs are
    not all alike is exported as the VMs it was sized as, not as VMs of its largest shape. The
    first keeps the workload's slug, the others add their vCPUs (``erp-3vcpu``); every VM keeps
    its name and number in the workload."""
    if len(shapes) == 1:
        return [g]
    out, first = [], 0
    for i, (n, v) in enumerate(shapes):
        part_slug = g.slug if i == 0 else _unique_slug(f"{g.slug}-{v}vcpu", slugs)
        out.append(replace(g, slug=part_slug, vm_slug=g.slug, vms=n, vcpus=v, first=first, of=g.vms))
        first += n
    return out


def gib_parts(g: GroupPlan, slugs: set[str]) -> list[GroupPlan]:
    """``g`` with its disks in whole GiB: a workload's storage total (``total_gib``) spread over its
    VMs in workload order, the first ``total_gib mod VMs`` one GiB more, so its VMs' disks add up to
    the total (rounded up to a GiB) instead of each VM's rounded up (growth.yaml's erp: 20 TB =
    18,627 GiB, 67 VMs of 146 GiB and 61 of 145; each rounded up, 18,688). A group that straddles
    the cut becomes two, the second named by its size (``erp-3vcpu-145gib``)."""
    if g.total_gib is None:
        return [g]
    n = g.of or g.vms
    q, r = divmod(g.total_gib, n)
    more = min(max(r - g.first, 0), g.vms)  # this group's VMs of q + 1 GiB (they come first)
    if more in (0, g.vms):
        return [replace(g, gib=q + 1 if more else q)]
    rest = _unique_slug(f"{g.slug}-{q}gib", slugs)
    return [replace(g, gib=q + 1, vms=more, of=n),
            replace(g, slug=rest, vm_slug=g.workload_slug, gib=q, first=g.first + more, vms=g.vms - more, of=n)]
