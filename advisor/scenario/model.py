"""The scenario as typed dataclasses: hosts, workload groups and preferences (what the user wants
to build). Every field's kind, unit, default and bounds are in the field table
(:mod:`advisor.scenario.fields`); an attribute here has the default of its row.

Units: RAM in GiB, disk and image sizes in GB (10^9 B), link rates in Gb/s, CPU clock
in GHz, request loads in requests per second, real-time times in ``time_unit``.
"""

from __future__ import annotations

import re
from dataclasses import asdict, field
from typing import Any

from advisor.scenario.fields import DEFAULT_DISK_GB, OVERALLOCATION_LEVELS, SCENARIO_VERSION
from knowledge.host_types import Cpu, Disk
from knowledge.infra.lean import lean_dataclass


@lean_dataclass
class SharedStorage:
    """Shared storage on offer: kind, its network (Gb/s) and capacity (TB); for a distributed
    store, which ``system`` it is (None: the thesis' best design, Compuverde Structured)."""

    kind: str = "nfs"
    network_gbps: float = 1.0
    capacity_tb: float | None = None
    iops: float | None = None
    system: str | None = None
    model: str | None = None  # the cost catalogue's storage product (capadvisor costs)


@lean_dataclass
class FailureDomain:
    """A rack, room or site with its own power and network: its name and the hosts planned in it."""

    name: str = ""
    hosts: int = 1


@lean_dataclass
class Survive:
    """Failures the placement must survive: ``hosts`` at once, or ``domains`` whole failure domains."""

    hosts: int = 0
    domains: int = 0


@lean_dataclass
class HaPolicy:
    """The platform's HA admission control: ``slot``, ``percentage`` or ``failover_hosts``."""

    policy: str = "slot"
    tolerate_hosts: int = 1


@lean_dataclass
class Hosts:
    """The planned hosts (all alike) and the N+x reserve kept free."""

    count: int = 1
    reserve: int = 0
    cpu: Cpu = field(default_factory=Cpu)
    ram_gib: float = 64.0
    disks: list[Disk] = field(default_factory=list)
    nic_gbps: float = 1.0
    shared_storage: list[SharedStorage] = field(default_factory=list)
    model: str | None = None  # the cost catalogue's host model these hosts are (capadvisor costs)
    failure_domains: list[FailureDomain] = field(default_factory=list)


@lean_dataclass
class IOProfile:
    """A VM's disk I/O: pattern, read share 0..1, intensity, block size (KiB), data footprint and
    virtual disk size (GB), I/O operations per second per VM when known, and the share of the
    written bytes that rewrite data in place (read, modify, write back; Bonnie++'s rewrite)."""

    pattern: str = "mixed"
    read_share: float = 0.5
    intensity: str = "low"
    block_size_kib: float = 4.0
    footprint_gb: float | None = None
    disk_gb: float | None = None
    iops: float | None = None
    rewrite_share: float = 0.0


@lean_dataclass
class RtTask:
    """A hard real-time task: period, worst-case execution time and deadline in the task set's
    ``time_unit`` (deadline defaults to the period)."""

    name: str
    period: float
    wcet: float
    deadline: float | None = None


@lean_dataclass
class Realtime:
    """A real-time VM's task set, the CPU speed it was designed for, the VM switch overhead X
    and an optional fixed share C_VM/T_VM and period T_VM (a period the platform imposes)."""

    time_unit: str = "ms"
    design_speed_ghz: float | None = None
    overhead: float = 0.0
    share: float | None = None
    period: float | None = None
    tasks: list[RtTask] = field(default_factory=list)

    @property
    def utilization(self) -> float:
        """Sum of wcet/period over the tasks (dimensionless)."""
        return sum(t.wcet / t.period for t in self.tasks)



@lean_dataclass
class GrowthRates:
    """A workload's own growth rates, % per year compounded (None: the scenario's ``growth``)."""

    cpu_pct_per_year: float | None = None
    ram_pct_per_year: float | None = None
    storage_pct_per_year: float | None = None


@lean_dataclass
class GrowthEvent:
    """A step of the growth: ``add_vms`` VMs of ``workload``'s shape arrive in ``year`` (negative:
    retired); they grow with the workload from then on."""

    year: int
    workload: str
    add_vms: int


@lean_dataclass
class Growth:
    """``growth``: demand growth per resource, % per year compounded, over ``horizon_years``, and
    step events (see :mod:`advisor.growth`)."""

    horizon_years: int = 5
    cpu_pct_per_year: float = 0.0
    ram_pct_per_year: float = 0.0
    storage_pct_per_year: float = 0.0
    events: list[GrowthEvent] = field(default_factory=list)

    def rates(self, w: Workload) -> dict[str, float]:
        """The growth rates (% per year) of workload ``w`` per resource (:data:`GROWTH_RATES`): its
        own where given, else the scenario's."""
        own = w.growth
        out = {}
        for r in GROWTH_RATES:
            mine = getattr(own, f"{r}_pct_per_year") if own is not None else None
            out[r] = float(mine if mine is not None else getattr(self, f"{r}_pct_per_year"))
        return out

    def worth(self, w: Workload, year: int, events: list[GrowthEvent] | None = None) -> dict[str, float]:
        """Per growth rate: how many of today's VMs of ``w`` the demand of ``year`` is worth (today's
        VMs and the events' VMs, each compounded from its year; below 0 when events retire more
        than there is). ``events``: those of ``w`` (default: found here)."""
        p = self.rates(w)
        mine = [e for e in self.events if e.workload == w.name] if events is None else events
        return {r: w.vms * compound(p[r], year) + sum(e.add_vms * compound(p[r], year - e.year)
                                                      for e in mine if e.year <= year) for r in GROWTH_RATES}


#: between a workload's name and a VM shape's vCPUs in the placement's name of the shape
#: (:attr:`Workload.shape_keys`; a name never holds it: the reader refuses NUL in names)
SHAPE_SEP = "\0:"

#: the resources a growth rate is given for (``<rate>_pct_per_year``)
GROWTH_RATES = ("cpu", "ram", "storage")


def compound(pct: float, years: float) -> float:
    """Compound growth of ``pct`` % per year over ``years``."""
    return (1.0 + pct / 100.0) ** years


@lean_dataclass
class Workload:
    """A group of identical VMs. A workload given as totals (``total_vcpus``, ``total_ram_gib``,
    ``total_storage_tb``) is the VMs that hold them (:func:`advisor.scenario.totals.size_totals`):
    the reader sets ``vms``, ``vcpus``, ``ram_gib`` (and ``io.disk_gb`` from the total storage);
    the file keeps the totals and the typical VM."""

    name: str
    vms: int = 1
    vcpus: int = 1
    ram_gib: float = 1.0
    cpu_intensity: str = "medium"
    io: IOProfile = field(default_factory=IOProfile)
    request_load_rps: float | None = None
    live_migration: bool = False
    data_loss_tolerance: str = "none"
    containerizable: bool = False
    application: str = ""  # free text, e.g. cassandra, telecom, web
    image_gb: float | None = None
    realtime: Realtime | None = None
    replication_factor: int | None = None  # copies of each item a distributed database keeps (Cassandra RF)
    anti_affinity: bool | str = False  # True: no two VMs share a host; a name: the group's VMs never share one
    affinity: bool | str = False  # True: the VMs stay on one host; a name: the group's VMs stay on one host
    assumed: list[str] | None = None  # fields filled with defaults, not known (an imported estate)
    today: dict[str, Any] | None = None  # what these VMs run with today (an imported estate)
    #: share of each vCPU kept busy, 0-1, as measured (an imported estate's CPU usage); it sets the
    #: CPU load while ``cpu_intensity`` is the level it falls in (see advisor.recommend.load)
    cpu_busy_share: float | None = None
    #: busy shares at percentiles of the measured series (``p50``, ``p95``, ``p99``, ``peak``, ...); the
    #: share at ``preferences.sizing_percentile`` becomes ``cpu_busy_share`` (see :func:`share_at`)
    cpu_busy_percentiles: dict[str, float] | None = None
    measured: list[str] | None = None  # fields derived from the estate's measurements, not assumed
    total_vcpus: int | None = None  # the workload as totals (#31): sized as VMs of at most the typical VM
    total_ram_gib: float | None = None
    total_storage_tb: float | None = None
    growth: GrowthRates | None = None  # this workload's own growth rates (None: the scenario's)
    #: a workload given as totals: the typical VM (vCPUs, GiB) its VMs are sized by, at most (the
    #: file's ``vcpus`` / ``ram_gib``; ``vcpus`` / ``ram_gib`` here are its sized VMs'). Not a file field.
    typical: tuple[int, float] | None = None
    #: a workload given as totals whose vCPU total its VMs of ``vcpus`` do not divide: how many of
    #: its VMs have one vCPU fewer, so that they hold the total exactly. Not a file field.
    fewer_vcpu_vms: int = 0

    @property
    def from_totals(self) -> bool:
        """Whether the workload is given as totals (its ``vms`` are derived from them)."""
        return self.total_vcpus is not None or self.total_ram_gib is not None or self.total_storage_tb is not None

    @property
    def vm_shapes(self) -> tuple[tuple[int, int], ...]:
        """(VMs, vCPUs a VM) of its VMs in order: the first of ``vcpus``, the last
        ``fewer_vcpu_vms`` of one fewer (a totals workload's split, made once by the sizing,
        :func:`advisor.scenario.totals.size_totals`). Exports, texts and totals read it."""
        k = self.fewer_vcpu_vms
        return ((self.vms - k, self.vcpus), (k, self.vcpus - 1)) if 0 < k < self.vms else ((self.vms, self.vcpus),)

    @property
    def shape_keys(self) -> tuple[str, ...]:
        """The placement's name of each of :attr:`vm_shapes`: the workload's name for the first, the
        name and the vCPUs (``erp\0:3``) for the others (the host count places each shape's VMs at
        their own size, :func:`advisor.recommend.host_demand.shape_demands`)."""
        return (self.name,) + tuple(f"{self.name}{SHAPE_SEP}{v}" for _, v in self.vm_shapes[1:])

    @property
    def all_vcpus(self) -> int:
        """The vCPUs of all its VMs (a totals workload's some one vCPU fewer: its vCPU total)."""
        return sum(n * v for n, v in self.vm_shapes)

    @property
    def mean_vcpus(self) -> float:
        """vCPUs a VM holds on average: ``vcpus``, less the VMs of one fewer spread over them (the
        demand of a VM of the workload; its size is ``vcpus``)."""
        return self.vcpus - self.fewer_vcpu_vms / self.vms if self.fewer_vcpu_vms else float(self.vcpus)

    @property
    def vcpus_label(self) -> str:
        """The vCPUs a VM for people: ``4``, or ``4 (3 of them 3)`` for a totals workload spread exactly."""
        (_, v), *fewer = self.vm_shapes
        return str(v) + "".join(f" ({k:,} of them {u})" for k, u in fewer)

    @property
    def disk_size_gb(self) -> float:
        """Virtual disk per VM, GB: ``io.disk_gb``, else ``image_gb``, else the footprint, else
        :data:`DEFAULT_DISK_GB`."""
        return self.io.disk_gb or self.image_gb or self.io.footprint_gb or DEFAULT_DISK_GB

    @property
    def image_size_gb(self) -> float:
        """Image to propagate, GB: ``image_gb``, else ``io.disk_gb``, else the footprint, else
        :data:`DEFAULT_DISK_GB`."""
        return self.image_gb or self.io.disk_gb or self.io.footprint_gb or DEFAULT_DISK_GB

    @property
    def heavily_loaded(self) -> bool:
        """High CPU intensity, or high I/O intensity: the thesis's 'heavily loaded VM'."""
        return self.cpu_intensity == "high" or self.io.intensity == "high"



#: targets of ``preferences.targets``: name -> (unit, kind); ``max`` targets are upper bounds,
#: ``min`` targets lower bounds; ``cluster`` targets apply to every host, the others to every
#: workload unless given under ``targets.workloads.<name>``
TARGETS = {
    "max_host_cpu_pct": ("%", "max", "cluster"),
    "max_boot_time_s": ("s", "max", "workload"),
    "min_throughput_mb_s": ("MB/s", "min", "workload"),
    "max_response_time_ms": ("ms", "max", "workload"),
    "max_migration_downtime_ms": ("ms", "max", "workload"),
}


#: decisions ``preferences.fixed`` may fix, and their choices (as the decisions name them): a design
#: chosen elsewhere (``capadvisor optimize``, a point of the GUI's cost chart) loaded as a scenario
FIXABLE = {
    "vcpu_overallocation": OVERALLOCATION_LEVELS,
    "storage_backend": ("local_disk", "nfs_file", "nfs_root", "iscsi", "distributed"),
    "cache_mode": ("writeback", "writethrough", "none", "directsync", "unsafe"),
    "host_count": (),  # a number of hosts (reserve included)
}


@lean_dataclass
class Target:
    """A performance target the plan must meet: ``name`` (a key of :data:`TARGETS`), ``value``
    in the target's unit, ``hard`` (True: no plan that misses it is offered; False: the advice
    says how far it is missed) and ``workload`` (None: every workload, or the cluster)."""

    name: str
    value: float
    hard: bool = True
    workload: str | None = None

    @property
    def unit(self) -> str:
        return TARGETS[self.name][0]

    @property
    def upper(self) -> bool:
        """True for a maximum, False for a minimum."""
        return TARGETS[self.name][1] == "max"

    def met_by(self, expected: float) -> bool:
        return expected <= self.value * (1 + 1e-9) if self.upper else expected >= self.value * (1 - 1e-9)


@lean_dataclass
class Preferences:
    """User preferences; ``ram_overcommit`` is RAM allocated per GiB of host RAM (1.0 = none);
    ``max_host_cpu_percent`` is the CPU utilization a host is planned to reach at most;
    ``hypervisor`` fixes the hypervisor (None: the advice chooses); ``targets`` are the
    performance targets the plan must meet (see :class:`Target`)."""

    open_source_only: bool = False
    container_friendly: bool = False
    ram_overcommit: float = 1.0
    max_host_cpu_percent: float = 80.0
    sizing_percentile: float = 95.0  # the percentile of measured series the CPU is sized on
    frequent_provisioning: bool = False  # servers are created and started often (elastic scale-out)
    hypervisor: str | None = None
    targets: list[Target] = field(default_factory=list)
    balancing_event: str | None = None  # the event the load-balancing figures are for (None: from the reserve)
    balancing_mean_host_cpu_pct: float | None = None  # mean host CPU after that event, if known (monitoring)
    vcpu_overallocation: str | None = None  # fixes the over-allocation level (None: the advice chooses)
    #: choices the advice must take: decision -> choice (``cache_mode``: one mode, or workload -> mode;
    #: ``host_count``: hosts, reserve included); see :data:`FIXABLE`
    fixed: dict[str, Any] = field(default_factory=dict)
    survive: Survive | None = None  # failures the placement must survive (None: none)
    ha: HaPolicy | None = None  # the platform's HA admission control (None: only hosts.reserve)

    def pinned(self, decision: str, workload: str | None = None) -> Any:
        """The choice ``preferences.fixed`` (or ``preferences.hypervisor``) fixes for ``decision``
        (for ``workload``, for per-workload decisions), or None."""
        if decision == "hypervisor":
            return self.hypervisor if workload is None else None
        value = self.fixed.get(decision)
        if isinstance(value, dict):
            return value.get(workload) if workload is not None else None
        return value

    def target(self, name: str, workload: str | None = None) -> Target | None:
        """The target ``name`` for ``workload`` (its own, else the one for every workload)."""
        own = next((t for t in self.targets if t.name == name and t.workload == workload and workload), None)
        return own or next((t for t in self.targets if t.name == name and t.workload is None), None)


@lean_dataclass
class CalibrationChoice:
    """``calibration`` of a scenario: the site whose imported benchmarks calibrate its advice
    (a site of the user database; None: the documents' ratios on the scenario's hardware)."""

    site: str | None = None


@lean_dataclass
class Scenario:
    """A whole scenario: hosts, workloads and preferences."""

    name: str = "scenario"
    version: int = SCENARIO_VERSION
    hosts: Hosts = field(default_factory=Hosts)
    workloads: list[Workload] = field(default_factory=list)
    preferences: Preferences = field(default_factory=Preferences)
    estate: dict[str, Any] | None = None  # where an imported scenario came from and what runs today
    calibration: CalibrationChoice | None = None  # the site the advice is calibrated to
    growth: Growth | None = None  # demand growth over a horizon (the advice's timeline)

    def to_dict(self) -> dict:
        """A plain mapping in the file format (None values left out)."""
        out = drop_none(asdict(self))
        prefs = out.get("preferences", {})
        targets = prefs.pop("targets", [])
        if targets:
            prefs["targets"] = targets_to_file(self.preferences.targets)
        if not prefs.get("fixed"):
            prefs.pop("fixed", None)
        for w, row in zip(self.workloads, out.get("workloads", []), strict=True):
            row.pop("typical", None)
            row.pop("fewer_vcpu_vms", None)
            if w.from_totals:  # the file keeps the totals and the typical VM; the VMs (and disks) follow
                row.pop("vms", None)
                if w.typical is not None:
                    row["vcpus"], row["ram_gib"] = w.typical
                if w.total_storage_tb is not None:
                    row.get("io", {}).pop("disk_gb", None)
        return out

    @property
    def total_vms(self) -> int:
        return sum(w.vms for w in self.workloads)


#: a measured busy share falls in the CPU intensity whose share is nearest: below 0.35 low, below 0.7 medium
LEVEL_BOUNDS = (("low", 0.35), ("medium", 0.7), ("high", 1.0))


def level_of(share: float) -> str:
    """The CPU intensity a measured busy share (0-1) falls in."""
    return next((name for name, top in LEVEL_BOUNDS if share < top), "high")


def percentile_key(q: float) -> str:
    """The key of percentile ``q`` in ``cpu_busy_percentiles``: ``p95``, ``p99.9``, ``peak`` (100)."""
    return "peak" if q >= 100 else f"p{q:g}"


def percentile_of(key: str) -> float | None:
    """The percentile a ``cpu_busy_percentiles`` key names (the inverse of :func:`percentile_key`):
    ``p95`` 95, ``p99.9`` 99.9, ``peak`` 100; None for a key of another form, ``p100`` included (the 100th
    percentile has one name, ``peak``: two keys for one point could hold two shares)."""
    if key == "peak":
        return 100.0
    m = re.fullmatch(r"p(\d+(?:\.\d+)?)", str(key))
    return float(m.group(1)) if m and float(m.group(1)) < 100 else None


def share_at(table: dict[str, float], q: float) -> float | None:
    """The busy share at percentile ``q`` of a ``cpu_busy_percentiles`` table: its own entry, else
    linear between the nearest keys around it, else the nearest end; None for an empty table."""
    points = sorted((float(percentile_of(k) or 0.0), float(v)) for k, v in table.items())
    if not points:
        return None
    for (qa, a), (qb, b) in zip(points, points[1:], strict=False):
        if qa <= q <= qb:
            return a + (b - a) * (q - qa) / (qb - qa) if qb > qa else b
    return points[0][1] if q < points[0][0] else points[-1][1]


def targets_to_file(targets: list[Target]) -> dict:
    """The file form of ``targets`` (inverse of :func:`advisor.scenario.reader.targets`)."""
    out: dict[str, Any] = {}
    for t in targets:
        value: Any = t.value if t.hard else {"value": t.value, "hard": False}
        if t.workload is None:
            out[t.name] = value
        else:
            out.setdefault("workloads", {}).setdefault(t.workload, {})[t.name] = value
    return out



def drop_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [drop_none(v) for v in value]
    return value
