"""The scenario: what the user wants to build, as typed, validated dataclasses.

A scenario file (YAML, TOML or JSON, same structure; format documented in
the README) describes the hosts, the workload groups and the
preferences. :func:`load_scenario` reads a file, :func:`parse_scenario` a plain mapping;
both collect *every* problem by path (``workloads[2].vcpus: must be >= 1``) and raise
one :class:`~knowledge.infra.errors.InputError` listing them all. :func:`save_scenario` writes
YAML, JSON or (a minimal) TOML.

Units: RAM in GiB, disk and image sizes in GB (10^9 B), link rates in Gb/s, CPU clock
in GHz, request loads in requests per second, real-time times in ``time_unit``.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from knowledge.infra.errors import InputError

#: the scenario format version this program reads and writes
SCENARIO_VERSION = 1

LEVELS = ("low", "medium", "high")
VIRTUALIZATION = ("vmx", "svm", "none", "unknown")
DISK_KINDS = ("hdd", "ssd", "nvme")
DISK_SOURCES = ("declared", "probe")  # where a disk group's iops / mb_s come from
SHARED_KINDS = ("nfs", "iscsi", "distributed")
#: distributed stores the documents measured (doc 004 ch. 4): the ``system`` of a distributed shared storage
DISTRIBUTED_SYSTEMS = ("compuverde_structured", "compuverde_unstructured", "swift", "gluster")
#: vCPU over-allocation levels (vCPUs per hardware thread: none 1, little 1.25, moderate 2, medium 2.5,
#: massive 5; doc 004 chapters 6 and 8): ``preferences.vcpu_overallocation``
OVERALLOCATION_LEVELS = ("none", "little", "moderate", "medium", "massive")
#: what the load balancer reacts to (doc 004 ch. 7 test cases): ``preferences.balancing_event``
BALANCING_EVENTS = ("load_shift", "two_load_shifts", "host_added", "failover", "maintenance")
IO_PATTERNS = ("random", "sequential", "mixed")
LOSS_TOLERANCE = ("none", "seconds", "minutes", "any")
TIME_UNITS = ("us", "ms", "s", "units")


@dataclass
class Cpu:
    """One host's processors; ``ghz`` is the base clock."""

    model: str = ""
    sockets: int = 1
    cores_per_socket: int = 1
    threads_per_core: int = 1
    ghz: float = 2.0
    virtualization: str = "unknown"
    frequency_scaling: bool | None = None  # dynamic frequency scaling (ondemand-like governors) on?

    @property
    def cores(self) -> int:
        """Physical cores per host."""
        return self.sockets * self.cores_per_socket

    @property
    def threads(self) -> int:
        """Hardware threads per host."""
        return self.cores * self.threads_per_core


@dataclass
class Disk:
    """A group of identical local disks; ``size_gb`` per disk; optional measured ``iops`` and
    ``mb_s`` per disk override the per-kind defaults; ``source`` says where those came from
    (``probe``: this machine's micro-benchmark, written by "Use this machine"; else declared)."""

    kind: str = "ssd"
    count: int = 1
    size_gb: float = 1000.0
    iops: float | None = None
    mb_s: float | None = None
    source: str | None = None


@dataclass
class SharedStorage:
    """Shared storage on offer: kind, its network (Gb/s) and capacity (TB); for a distributed
    store, which ``system`` it is (None: the thesis' best design, Compuverde Structured)."""

    kind: str = "nfs"
    network_gbps: float = 1.0
    capacity_tb: float | None = None
    iops: float | None = None
    system: str | None = None
    model: str | None = None  # the cost catalogue's storage product (capadvisor costs)


@dataclass
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


@dataclass
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


@dataclass
class RtTask:
    """A hard real-time task: period, worst-case execution time and deadline in the task set's
    ``time_unit`` (deadline defaults to the period)."""

    name: str
    period: float
    wcet: float
    deadline: float | None = None


@dataclass
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


#: virtual disk (and image) per VM when the scenario gives no size, GB
DEFAULT_DISK_GB = 20.0


@dataclass
class Workload:
    """A group of identical VMs."""

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
    assumed: list[str] | None = None  # fields filled with defaults, not known (an imported estate)
    today: dict[str, Any] | None = None  # what these VMs run with today (an imported estate)
    #: share of each vCPU kept busy, 0-1, as measured (an imported estate's CPU usage); it sets the
    #: CPU load while ``cpu_intensity`` is the level it falls in (see advisor.recommend.load)
    cpu_busy_share: float | None = None
    measured: list[str] | None = None  # fields derived from the estate's measurements, not assumed

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


#: the hypervisors ``preferences.hypervisor`` may fix (as the hypervisor decision names them)
HYPERVISORS = ("KVM", "VMware ESXi", "XenServer", "Xen")
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
    "vcpu_overallocation": ("none", "little", "moderate", "medium", "massive"),
    "storage_backend": ("local_disk", "nfs_file", "nfs_root", "iscsi", "distributed"),
    "cache_mode": ("writeback", "writethrough", "none", "directsync", "unsafe"),
    "host_count": (),  # a number of hosts (reserve included)
}


@dataclass
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


@dataclass
class Preferences:
    """User preferences; ``ram_overcommit`` is RAM allocated per GiB of host RAM (1.0 = none);
    ``max_host_cpu_percent`` is the CPU utilization a host is planned to reach at most;
    ``hypervisor`` fixes the hypervisor (None: the advice chooses); ``targets`` are the
    performance targets the plan must meet (see :class:`Target`)."""

    open_source_only: bool = False
    container_friendly: bool = False
    ram_overcommit: float = 1.0
    max_host_cpu_percent: float = 80.0
    frequent_provisioning: bool = False  # servers are created and started often (elastic scale-out)
    hypervisor: str | None = None
    targets: list[Target] = field(default_factory=list)
    balancing_event: str | None = None  # the event the load-balancing figures are for (None: from the reserve)
    balancing_mean_host_cpu_pct: float | None = None  # mean host CPU after that event, if known (monitoring)
    vcpu_overallocation: str | None = None  # fixes the over-allocation level (None: the advice chooses)
    #: choices the advice must take: decision -> choice (``cache_mode``: one mode, or workload -> mode;
    #: ``host_count``: hosts, reserve included); see :data:`FIXABLE`
    fixed: dict[str, Any] = field(default_factory=dict)

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


@dataclass
class CalibrationChoice:
    """``calibration`` of a scenario: the site whose imported benchmarks calibrate its advice
    (a site of the user database; None: the documents' ratios on the scenario's hardware)."""

    site: str | None = None


@dataclass
class Scenario:
    """A whole scenario: hosts, workloads and preferences."""

    name: str = "scenario"
    version: int = SCENARIO_VERSION
    hosts: Hosts = field(default_factory=Hosts)
    workloads: list[Workload] = field(default_factory=list)
    preferences: Preferences = field(default_factory=Preferences)
    estate: dict[str, Any] | None = None  # where an imported scenario came from and what runs today
    calibration: CalibrationChoice | None = None  # the site the advice is calibrated to

    def to_dict(self) -> dict:
        """A plain mapping in the file format (None values left out)."""
        out = _drop_none(asdict(self))
        prefs = out.get("preferences", {})
        targets = prefs.pop("targets", [])
        if targets:
            prefs["targets"] = _targets_to_file(self.preferences.targets)
        if not prefs.get("fixed"):
            prefs.pop("fixed", None)
        return out

    @property
    def total_vms(self) -> int:
        return sum(w.vms for w in self.workloads)


# --- parsing with every problem collected -------------------------------------------------
#: no number of a scenario may exceed this in size (beyond it sums and products of figures overflow
#: or lose all precision); fields with a tighter physical bound are in :data:`FIELD_MAX`
MAX_NUMBER = 1e12
#: upper bounds per field (paths without list indices); a value above is an error naming the field
FIELD_MAX: dict[str, float] = {
    "hosts.count": 100_000, "hosts.reserve": 100_000, "hosts.ram_gib": 1_048_576, "hosts.nic_gbps": 10_000,
    "hosts.cpu.sockets": 64, "hosts.cpu.cores_per_socket": 1024, "hosts.cpu.ghz": 100,
    "hosts.disks.count": 1000, "hosts.disks.size_gb": 1e6, "hosts.disks.iops": 1e8, "hosts.disks.mb_s": 1e6,
    "hosts.shared_storage.network_gbps": 10_000, "hosts.shared_storage.capacity_tb": 1e6,
    "hosts.shared_storage.iops": 1e9,
    "workloads.vms": 1_000_000, "workloads.vcpus": 4096, "workloads.ram_gib": 1_048_576,
    "workloads.request_load_rps": 1e9, "workloads.image_gb": 1e6, "workloads.io.footprint_gb": 1e6,
    "workloads.io.disk_gb": 1e6, "workloads.io.iops": 1e9,
    "workloads.realtime.design_speed_ghz": 100, "workloads.realtime.overhead": 1e9,
    "workloads.realtime.tasks.period": 1e9, "workloads.realtime.tasks.wcet": 1e9,
    "workloads.realtime.tasks.deadline": 1e9,
}
#: at most this many workloads in one scenario, and this many problems listed in one message
MAX_WORKLOADS = 100_000
MAX_PROBLEMS_LISTED = 50
#: the longest name (scenario, workload, task) or other text value, in characters
MAX_TEXT = 200
#: the largest scenario file read
MAX_SCENARIO_BYTES = 64 * 1024 * 1024
#: at most this many real-time tasks per workload (as for ``capadvisor rt``)
MAX_TASKS = 10_000


def _field(path: str) -> str:
    """``workloads[3].io.iops`` -> ``workloads.io.iops`` (the key of :data:`FIELD_MAX`)."""
    return _INDEX.sub("", path) if "[" in path else path


_INDEX = re.compile(r"\[\d+\]")


def _shown(value: Any) -> str:
    """A short representation of a rejected value for messages."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        return f"a {len(str(abs(value)))}-digit number"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def text_problem(value: str) -> str | None:
    """Why ``value`` cannot be a name or text of a scenario (None: it can)."""
    if len(value) > MAX_TEXT:
        return f"is {len(value)} characters long; at most {MAX_TEXT}"
    if _SURROGATE.search(value):
        return "is not valid Unicode text (a lone surrogate)"
    if _CONTROL.search(value):
        return "must not contain control characters (NUL, escape, ...; line breaks and tabs are allowed)"
    return None


#: what :func:`text_problem` refuses (one C-level scan per text: an estate has tens of thousands)
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class _Problems:
    """Collects validation problems by path."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, path: str, message: str) -> None:
        self.items.append(f"{path}: {message}" if path else message)

    def listing(self) -> str:
        shown = self.items[:MAX_PROBLEMS_LISTED]
        more = len(self.items) - len(shown)
        return "\n  ".join(shown + ([f"... and {more} more"] if more else []))


_MISSING = object()


class _Reader:
    """Typed access to one mapping of the file, reporting problems under ``path``."""

    def __init__(self, data: Any, path: str, problems: _Problems, known: tuple[str, ...]):
        self.path, self.problems = path, problems
        self.field = _field(path)  # the path without list indices: where FIELD_MAX looks (once per mapping)
        if not isinstance(data, dict):
            problems.add(path or "scenario", "must be a mapping")
            data = {}
        self.data = data
        for key in data:
            if key not in known:
                problems.add(self._p(str(key)), f"unknown key (known: {', '.join(known)})")
        for key, line in getattr(data, "duplicates", ()):
            where = f" (line {line})" if line else ""
            problems.add(self._p(str(key)), f"duplicate key{where}: a key may appear once in a mapping")

    def _p(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        value = self.data.get(key, _MISSING)
        if value is _MISSING or value is None:
            if default is _MISSING:
                self.problems.add(self._p(key), "is required")
                return None
            return default
        return value

    def string(self, key: str, default: Any = _MISSING, choices: tuple[str, ...] | None = None,
               *, empty: bool = True) -> Any:
        value = self.raw(key, default)
        if value is None or value is default:
            return value
        fallback = default if default is not _MISSING else None
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            self.problems.add(self._p(key), f"must be a string, not a {_kind(value)}")
            return fallback
        value = str(value)
        if not empty and not value.strip():
            self.problems.add(self._p(key), "must not be empty")
            return fallback
        why = text_problem(value)
        if why:
            self.problems.add(self._p(key), why)
            return fallback
        if choices and value not in choices:
            self.problems.add(self._p(key), f"must be one of {'|'.join(choices)}, not {value!r}")
            return default if default is not _MISSING else choices[0]
        return value

    def number(self, key: str, default: Any = _MISSING, *, minimum: float | None = None,
               maximum: float | None = None, integer: bool = False, exclusive_min: bool = False) -> Any:
        value = self.raw(key, default)
        if value is None or value is default:
            return value
        fallback = default if default is not _MISSING else None
        kind = "an integer" if integer else "a number"
        if not is_number(value):
            if isinstance(value, int) and not isinstance(value, bool):  # an integer too large for a float
                self.problems.add(self._p(key), f"must be <= {_num(MAX_NUMBER)}, not {_shown(value)}")
            else:
                self.problems.add(self._p(key), f"must be {kind}, not {_shown(value)}")
            return fallback
        if integer and value != int(value):
            self.problems.add(self._p(key), f"must be an integer, not {_shown(value)}")
            return fallback
        bound = min(MAX_NUMBER, FIELD_MAX.get(f"{self.field}.{key}" if self.field else key, MAX_NUMBER),
                    maximum if maximum is not None else MAX_NUMBER)
        if abs(value) > bound:
            absurd = f", not {_shown(value)}" if abs(value) > MAX_NUMBER else ""  # say what was read
            self.problems.add(self._p(key), f"must be <= {_num(bound)}{absurd}")
            value = math.copysign(bound, value)
        if minimum is not None and (value <= minimum if exclusive_min else value < minimum):
            self.problems.add(self._p(key), f"must be {'>' if exclusive_min else '>='} {_num(minimum)}")
        return int(value) if integer else float(value)

    def boolean(self, key: str, default: Any = _MISSING) -> Any:
        value = self.raw(key, default)
        if value is None or value is default:
            return value
        if not isinstance(value, bool):
            self.problems.add(self._p(key), f"must be true or false, not {_shown(value)}")
            return default if default is not _MISSING else False
        return value

    def items(self, key: str, default: Any = _MISSING, limit: int | None = None) -> list:
        value = self.raw(key, default)
        if value is None:
            return []
        if not isinstance(value, list):
            self.problems.add(self._p(key), f"must be a list, not a {_kind(value)}")
            return []
        if limit is not None and len(value) > limit:
            self.problems.add(self._p(key), f"has {len(value):,} entries; at most {limit:,}")
            return value[:limit]
        return value


def is_number(value: Any) -> bool:
    """True for a finite int or float (not a bool, not an int too large for a float)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _kind(value: Any) -> str:
    for kind, name in ((bool, "boolean"), (dict, "mapping"), (list, "list"), (str, "string")):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _cpu(data: Any, path: str, pr: _Problems) -> Cpu:
    r = _Reader(data, path, pr, ("model", "sockets", "cores_per_socket", "threads_per_core", "ghz",
                                 "virtualization", "frequency_scaling"))
    return Cpu(model=r.string("model", ""), sockets=r.number("sockets", 1, minimum=1, integer=True),
               cores_per_socket=r.number("cores_per_socket", minimum=1, integer=True) or 1,
               threads_per_core=r.number("threads_per_core", 1, minimum=1, maximum=8, integer=True),
               ghz=r.number("ghz", 2.0, minimum=0, exclusive_min=True),
               virtualization=r.string("virtualization", "unknown", VIRTUALIZATION),
               frequency_scaling=r.boolean("frequency_scaling", None))


def _hosts(data: Any, pr: _Problems) -> Hosts:
    r = _Reader(data, "hosts", pr, ("count", "reserve", "cpu", "ram_gib", "disks", "nic_gbps",
                                    "shared_storage", "model"))
    disks = []
    for i, d in enumerate(r.items("disks", [])):
        dr = _Reader(d, f"hosts.disks[{i}]", pr, ("kind", "count", "size_gb", "iops", "mb_s", "source"))
        disks.append(Disk(kind=dr.string("kind", choices=DISK_KINDS) or "ssd",
                          count=dr.number("count", 1, minimum=1, integer=True),
                          size_gb=dr.number("size_gb", minimum=0, exclusive_min=True) or 1.0,
                          iops=dr.number("iops", None, minimum=0, exclusive_min=True),
                          mb_s=dr.number("mb_s", None, minimum=0, exclusive_min=True),
                          source=dr.string("source", None, DISK_SOURCES)))
    shared = []
    for i, s in enumerate(r.items("shared_storage", [])):
        sr = _Reader(s, f"hosts.shared_storage[{i}]", pr, ("kind", "network_gbps", "capacity_tb", "iops", "model",
                                                             "system"))
        shared.append(SharedStorage(kind=sr.string("kind", choices=SHARED_KINDS) or "nfs",
                                    network_gbps=sr.number("network_gbps", 1.0, minimum=0, exclusive_min=True),
                                    capacity_tb=sr.number("capacity_tb", None, minimum=0, exclusive_min=True),
                                    iops=sr.number("iops", None, minimum=0, exclusive_min=True),
                                    model=sr.string("model", None),
                                    system=sr.string("system", None, DISTRIBUTED_SYSTEMS)))
        if shared[-1].system is not None and shared[-1].kind != "distributed":
            pr.add(f"hosts.shared_storage[{i}].system", "is only for kind: distributed")
    count = r.number("count", 1, minimum=1, integer=True) or 1
    reserve = r.number("reserve", 0, minimum=0, integer=True)
    if reserve is not None and reserve >= count:
        pr.add("hosts.reserve", f"must be smaller than hosts.count ({count})")
    return Hosts(count=count, reserve=reserve or 0, cpu=_cpu(r.raw("cpu", {}), "hosts.cpu", pr),
                 ram_gib=r.number("ram_gib", minimum=0, exclusive_min=True) or 1.0, disks=disks,
                 nic_gbps=r.number("nic_gbps", 1.0, minimum=0, exclusive_min=True), shared_storage=shared,
                 model=r.string("model", None))


def _realtime(data: Any, path: str, pr: _Problems) -> Realtime:
    r = _Reader(data, path, pr, ("time_unit", "design_speed_ghz", "overhead", "share", "period", "tasks"))
    tasks = []
    for i, t in enumerate(r.items("tasks", limit=MAX_TASKS)):
        p = f"{path}.tasks[{i}]"
        tr = _Reader(t, p, pr, ("name", "period", "wcet", "deadline"))
        period = tr.number("period", minimum=0, exclusive_min=True)
        wcet = tr.number("wcet", minimum=0, exclusive_min=True)
        deadline = tr.number("deadline", None, minimum=0, exclusive_min=True)
        if period and wcet and wcet > period:
            pr.add(f"{p}.wcet", f"must be <= period ({_num(period)})")
        if period and deadline and deadline > period:
            pr.add(f"{p}.deadline", f"must be <= period ({_num(period)})")
        if wcet and deadline and wcet > deadline:
            pr.add(f"{p}.wcet", f"must be <= deadline ({_num(deadline)})")
        tasks.append(RtTask(name=tr.string("name", f"t{i + 1}", empty=False) or f"t{i + 1}",
                            period=period or 1.0, wcet=wcet or 0.0,
                            deadline=deadline))
    names: dict[str, int] = {}
    for i, t in enumerate(tasks):
        if t.name in names:
            pr.add(f"{path}.tasks[{i}].name", f"duplicate of tasks[{names[t.name]}].name ({t.name!r})")
        names.setdefault(t.name, i)
    if isinstance(data, dict) and "tasks" in data and not tasks and isinstance(data["tasks"], list):
        pr.add(f"{path}.tasks", "must list at least one task")
    rt = Realtime(time_unit=r.string("time_unit", "ms", TIME_UNITS),
                  design_speed_ghz=r.number("design_speed_ghz", None, minimum=0, exclusive_min=True),
                  overhead=r.number("overhead", 0.0, minimum=0),
                  share=r.number("share", None, minimum=0, maximum=1, exclusive_min=True),
                  period=r.number("period", None, minimum=0, exclusive_min=True), tasks=tasks)
    if rt.period is not None and rt.share is not None and rt.period * rt.share <= rt.overhead:
        pr.add(f"{path}.period", f"the budget period x share ({_num(rt.period * rt.share)}) must exceed the "
                                 f"overhead ({_num(rt.overhead)})")
    if tasks and rt.utilization > 1:
        pr.add(f"{path}.tasks", f"utilization {rt.utilization:.3g} exceeds 1: no VM can schedule them")
    elif tasks and rt.share is not None and rt.share <= rt.utilization:
        pr.add(f"{path}.share", f"must exceed the task utilization ({rt.utilization:.3g})")
    elif tasks:
        _check_analysable(tasks, f"{path}.tasks", pr)
    return rt


def _check_analysable(tasks: list[RtTask], path: str, pr: _Problems) -> None:
    """A problem at ``path`` when the exact real-time analysis would refuse the task set (too many
    checkpoints), so that the scenario says so up front, naming the field."""
    import numpy as np

    from advisor.realtime.intervals import MAX_CHECKPOINTS, count_points

    order = sorted(range(len(tasks)), key=lambda k: (tasks[k].deadline or tasks[k].period, tasks[k].period, k))
    periods = np.array([tasks[k].period for k in order], dtype=float)
    deadlines = np.array([tasks[k].deadline or tasks[k].period for k in order], dtype=float)
    if count_points(periods, deadlines, MAX_CHECKPOINTS) > MAX_CHECKPOINTS:
        pr.add(path, f"the exact analysis of these {len(tasks):,} tasks needs more than {MAX_CHECKPOINTS:,} "
                     "checkpoints (releases of higher-priority tasks before each deadline): the periods span "
                     "too large a ratio, or there are too many distinct periods")


#: workload fields an imported estate may mark as assumed (``assumed: [io.pattern, ...]``)
ASSUMABLE = ("vms", "vcpus", "ram_gib", "cpu_intensity", "request_load_rps", "live_migration", "data_loss_tolerance",
             "containerizable", "application", "image_gb", "io.pattern", "io.read_share", "io.intensity",
             "io.block_size_kib", "io.footprint_gb", "io.disk_gb", "io.iops")
#: workload fields an imported estate may mark as measured (``measured: [cpu_intensity, ...]``)
MEASURABLE = ("cpu_intensity", "cpu_busy_share", "ram_gib", "io.iops", "io.read_share", "request_load_rps")


def _assumed(r: _Reader, key: str, path: str, pr: _Problems, known: tuple[str, ...]) -> list[str] | None:
    value = r.raw(key, None)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        pr.add(f"{path}.{key}" if path else key, "must be a list of field names")
        return None
    for x in value:
        if x not in known:
            pr.add(f"{path}.{key}" if path else key, f"{x!r} is not a field that can be {key}")
    return list(value)


def _mapping(r: _Reader, key: str, path: str, pr: _Problems) -> dict | None:
    value = r.raw(key, None)
    if value is None:
        return None
    if not isinstance(value, dict):
        pr.add(f"{path}.{key}" if path else key, "must be a mapping")
        return None
    return value


def _workload(data: Any, i: int, pr: _Problems) -> Workload:
    path = f"workloads[{i}]"
    r = _Reader(data, path, pr, ("name", "vms", "vcpus", "ram_gib", "cpu_intensity", "io",
                                 "request_load_rps", "live_migration", "data_loss_tolerance",
                                 "containerizable", "application", "image_gb", "realtime", "assumed", "today",
                                 "cpu_busy_share", "measured", "replication_factor"))
    io_r = _Reader(r.raw("io", {}), f"{path}.io", pr, ("pattern", "read_share", "intensity", "block_size_kib",
                                                       "footprint_gb", "disk_gb", "iops", "rewrite_share"))
    io = IOProfile(pattern=io_r.string("pattern", "mixed", IO_PATTERNS),
                   read_share=io_r.number("read_share", 0.5, minimum=0, maximum=1),
                   intensity=io_r.string("intensity", "low", LEVELS),
                   block_size_kib=io_r.number("block_size_kib", 4.0, minimum=0.5, maximum=65536),
                   footprint_gb=io_r.number("footprint_gb", None, minimum=0),
                   disk_gb=io_r.number("disk_gb", None, minimum=0, exclusive_min=True),
                   iops=io_r.number("iops", None, minimum=0),
                   rewrite_share=io_r.number("rewrite_share", 0.0, minimum=0, maximum=1))
    if io.footprint_gb is not None and io.disk_gb is not None and io.footprint_gb > io.disk_gb:
        pr.add(f"{path}.io.footprint_gb", f"must be <= io.disk_gb ({_num(io.disk_gb)})")
    rt_data = r.raw("realtime", None)
    return Workload(
        name=r.string("name", empty=False) or f"workload{i + 1}",
        vms=r.number("vms", minimum=1, integer=True) or 1,
        vcpus=r.number("vcpus", minimum=1, integer=True) or 1,
        ram_gib=r.number("ram_gib", minimum=0, exclusive_min=True) or 1.0,
        cpu_intensity=r.string("cpu_intensity", "medium", LEVELS), io=io,
        request_load_rps=r.number("request_load_rps", None, minimum=0),
        live_migration=r.boolean("live_migration", False),
        data_loss_tolerance=r.string("data_loss_tolerance", "none", LOSS_TOLERANCE),
        containerizable=r.boolean("containerizable", False), application=r.string("application", ""),
        image_gb=r.number("image_gb", None, minimum=0, exclusive_min=True),
        realtime=_realtime(rt_data, f"{path}.realtime", pr) if rt_data is not None else None,
        replication_factor=r.number("replication_factor", None, minimum=1, maximum=100, integer=True),
        assumed=_assumed(r, "assumed", path, pr, ASSUMABLE), today=_mapping(r, "today", path, pr),
        cpu_busy_share=r.number("cpu_busy_share", None, minimum=0, maximum=1),
        measured=_assumed(r, "measured", path, pr, MEASURABLE))


def _target(name: str, raw: Any, path: str, workload: str | None, pr: _Problems) -> Target | None:
    """One target: a number (a hard target) or ``{value, hard}``."""
    unit, _, scope = TARGETS[name]
    if scope == "cluster" and workload is not None:
        pr.add(path, "is a cluster target (it applies to every host), not one per workload")
        return None
    hard, value, where = True, raw, path
    if isinstance(raw, dict):
        r = _Reader(raw, path, pr, ("value", "hard"))
        value, where = r.raw("value"), f"{path}.value"
        hard = r.boolean("hard", True)
        if value is None:
            return None
    if not is_number(value) or value <= 0 or value > MAX_NUMBER:
        pr.add(where, f"must be a number > 0 ({unit})" + ("" if not is_number(value) or value <= 0
                                                             else f", at most {_num(MAX_NUMBER)}"))
        return None
    if name == "max_host_cpu_pct" and value > 100:
        pr.add(where, "must be <= 100 (%)")
        return None
    return Target(name=name, value=float(value), hard=bool(hard), workload=workload)


def _targets(data: Any, workloads: set[str], pr: _Problems) -> list[Target]:
    """``preferences.targets``: target keys (for every workload, or the cluster) and
    ``workloads: {name: {key: ...}}`` for one workload."""
    r = _Reader(data, "preferences.targets", pr, (*TARGETS, "workloads"))
    out = []
    for name in TARGETS:
        if name in r.data and r.data[name] is not None:
            t = _target(name, r.data[name], f"preferences.targets.{name}", None, pr)
            if t:
                out.append(t)
    per = r.raw("workloads", {})
    if not isinstance(per, dict):
        pr.add("preferences.targets.workloads", "must be a mapping of workload names to targets")
        return out
    for wname, raw in per.items():
        path = f"preferences.targets.workloads.{wname}"
        if wname not in workloads:
            pr.add(path, f"no workload named {wname!r}")
            continue
        wr = _Reader(raw, path, pr, tuple(TARGETS))
        for name in TARGETS:
            if name in wr.data and wr.data[name] is not None:
                t = _target(name, wr.data[name], f"{path}.{name}", str(wname), pr)
                if t:
                    out.append(t)
    return out


def _targets_to_file(targets: list[Target]) -> dict:
    """The file form of ``targets`` (inverse of :func:`_targets`)."""
    out: dict[str, Any] = {}
    for t in targets:
        value: Any = t.value if t.hard else {"value": t.value, "hard": False}
        if t.workload is None:
            out[t.name] = value
        else:
            out.setdefault("workloads", {}).setdefault(t.workload, {})[t.name] = value
    return out


def _fixed(data: Any, workloads: set[str], reserve: int, pr: _Problems) -> dict[str, Any]:
    """``preferences.fixed``: decision -> choice (see :data:`FIXABLE`)."""
    r = _Reader(data, "preferences.fixed", pr, tuple(FIXABLE))
    out: dict[str, Any] = {}
    for name, choices in FIXABLE.items():
        if r.data.get(name) is None:
            continue
        path = f"preferences.fixed.{name}"
        if name == "host_count":
            n = r.number(name, None, minimum=1, integer=True)
            if n is not None and n <= reserve:
                pr.add(path, f"must be larger than hosts.reserve ({reserve})")
            elif n is not None:
                out[name] = n
        elif name == "cache_mode" and isinstance(r.data[name], dict):
            modes = {}
            for wname, mode in r.data[name].items():
                if wname not in workloads:
                    pr.add(f"{path}.{wname}", f"no workload named {wname!r}")
                elif mode not in choices:
                    pr.add(f"{path}.{wname}", f"must be one of {'|'.join(choices)}, not {mode!r}")
                else:
                    modes[str(wname)] = mode
            out[name] = modes
        else:
            value = r.string(name, None, choices)
            if value is not None and value in choices:
                out[name] = value
    return out


def parse_scenario(data: Any, source: str = "scenario") -> Scenario:
    """A validated :class:`Scenario` from a plain mapping; raises one :class:`InputError` that
    lists every problem by path."""
    pr = _Problems()
    r = _Reader(data, "", pr, ("version", "name", "hosts", "workloads", "preferences", "estate", "calibration"))
    version = r.number("version", SCENARIO_VERSION, integer=True)
    if version is not None and version != SCENARIO_VERSION:
        pr.add("version", f"scenario format version {version} is not supported (this program reads "
                          f"version {SCENARIO_VERSION})")
    if "hosts" in r.data:
        hosts = _hosts(r.data["hosts"], pr)
    else:
        pr.add("hosts", "is required")
        hosts = Hosts()
    workloads = [_workload(w, i, pr) for i, w in enumerate(r.items("workloads", limit=MAX_WORKLOADS))]
    if isinstance(r.data.get("workloads"), list) and not workloads:
        pr.add("workloads", "must list at least one workload")
    seen: dict[str, int] = {}
    for i, w in enumerate(workloads):
        if w.name in seen:
            pr.add(f"workloads[{i}].name", f"duplicate of workloads[{seen[w.name]}].name ({w.name!r})")
        seen.setdefault(w.name, i)
        if w.vcpus > hosts.cpu.threads and hosts.cpu.threads > 0 and "hosts" in r.data:
            pr.add(f"workloads[{i}].vcpus", f"{w.vcpus} vCPUs exceed the {hosts.cpu.threads} hardware threads "
                                            "of a host")
        if w.ram_gib > hosts.ram_gib and "hosts" in r.data:
            pr.add(f"workloads[{i}].ram_gib", f"{_num(w.ram_gib)} GiB exceeds a host's RAM "
                                              f"({_num(hosts.ram_gib)} GiB)")
    p = _Reader(r.raw("preferences", {}), "preferences", pr,
                ("open_source_only", "container_friendly", "ram_overcommit", "max_host_cpu_percent",
                 "frequent_provisioning", "hypervisor", "targets", "balancing_event",
                 "balancing_mean_host_cpu_pct", "vcpu_overallocation", "fixed"))
    prefs = Preferences(open_source_only=p.boolean("open_source_only", False),
                        container_friendly=p.boolean("container_friendly", False),
                        ram_overcommit=p.number("ram_overcommit", 1.0, minimum=1.0, maximum=4.0),
                        max_host_cpu_percent=p.number("max_host_cpu_percent", 80.0, minimum=10, maximum=100),
                        frequent_provisioning=p.boolean("frequent_provisioning", False),
                        hypervisor=p.string("hypervisor", None, HYPERVISORS),
                        targets=_targets(p.raw("targets", {}), {w.name for w in workloads}, pr),
                        balancing_event=p.string("balancing_event", None, BALANCING_EVENTS),
                        balancing_mean_host_cpu_pct=p.number("balancing_mean_host_cpu_pct", None, minimum=0,
                                                             maximum=100, exclusive_min=True),
                        vcpu_overallocation=p.string("vcpu_overallocation", None, OVERALLOCATION_LEVELS),
                        fixed=_fixed(p.raw("fixed", {}), {w.name for w in workloads}, hosts.reserve, pr))
    estate = _mapping(r, "estate", "", pr)
    calibration = None
    if r.raw("calibration", None) is not None:
        c = _Reader(r.raw("calibration", {}), "calibration", pr, ("site",))
        site = c.string("site", None, empty=False)
        calibration = CalibrationChoice(site=site.strip() if site else None)
    name = r.string("name", "scenario", empty=False)
    if pr.items:
        raise InputError(f"{source}: {len(pr.items)} problem(s) in the scenario:\n  {pr.listing()}")
    return Scenario(name=name, version=SCENARIO_VERSION, hosts=hosts,
                    workloads=workloads, preferences=prefs, estate=estate,
                    calibration=calibration if calibration is not None and calibration.site else None)


# --- files ---------------------------------------------------------------------------------
def load_scenario(path: Path | str) -> Scenario:
    """Read and validate a scenario file (.yaml/.yml, .toml or .json, chosen by suffix).

    Only a regular file of at most :data:`MAX_SCENARIO_BYTES` is read (a FIFO, a device or a
    folder is refused at once); every problem is an InputError naming the file, line or field."""
    return parse_scenario(_read_data(path), str(Path(path)))


def read_scenario_data(path: Path | str) -> Any:
    """The plain data of a scenario file (.yaml/.yml, .toml or .json, chosen by suffix), not yet
    validated: an editor opens a file with a wrong value to show and fix it (a key given twice keeps
    its last value here; :func:`load_scenario` refuses it). Raises InputError when the file cannot
    be read (not a regular file, larger than :data:`MAX_SCENARIO_BYTES`, not UTF-8) or parsed."""
    return _plain(_read_data(path))


def _read_data(path: Path | str) -> Any:
    from knowledge.infra.files import read_regular_text

    path = Path(path)
    fmt = _format_of(path)
    text = read_regular_text(path, "scenario", MAX_SCENARIO_BYTES)
    return loads(text.removeprefix("\ufeff"), fmt, str(path))


def _plain(data: Any) -> Any:
    """``data`` with every :class:`_Mapping` turned into a plain dict (iteratively: any depth)."""
    def convert(x: Any) -> Any:
        return dict(x) if isinstance(x, _Mapping) else x

    root = convert(data)
    stack = [root]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in list(items):
            if isinstance(value, (dict, list)):
                node[key] = convert(value)
                stack.append(node[key])
    return root


class _Mapping(dict):
    """A mapping read from a file that remembers the keys it had more than once (key, line or None)."""

    duplicates: list[tuple[Any, int | None]]

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.duplicates = []


def _json_pairs(pairs: list[tuple[str, Any]]) -> _Mapping:
    out = _Mapping(pairs)
    if len(out) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                out.duplicates.append((key, None))
            seen.add(key)
    return out


def _yaml_loader() -> type:
    """A safe YAML loader (libyaml's when present) whose mappings remember duplicate keys."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):  # type: ignore[misc, valid-type]
        def construct_yaml_map(self, node):  # noqa: ANN001 - PyYAML's constructor protocol
            data = _Mapping()
            yield data
            seen: set[Any] = set()
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue  # keys merged in with << may be overridden
                key = self.construct_object(key_node)
                try:
                    if key in seen:
                        data.duplicates.append((key, key_node.start_mark.line + 1))
                    seen.add(key)
                except TypeError:  # unhashable: construct_mapping says so
                    pass
            data.update(self.construct_mapping(node))

        def resolve(self, kind, value, implicit):  # noqa: ANN001, ANN201 - PyYAML's resolver protocol
            """The resolver's tag, remembered per (value, implicit) for scalars: an estate repeats the
            same few words and numbers tens of thousands of times."""
            if kind is not yaml.ScalarNode:
                return super().resolve(kind, value, implicit)
            cache = self.__dict__.setdefault("_tags", {})
            key = (value, implicit)
            tag = cache.get(key)
            if tag is None:
                tag = cache[key] = super().resolve(kind, value, implicit)
            return tag

    Loader.add_constructor("tag:yaml.org,2002:map", Loader.construct_yaml_map)
    return Loader


class _Slow(Exception):
    """A YAML document :func:`_yaml_fast` leaves to the loader's own construction."""


_YAML_TAG = "tag:yaml.org,2002:"
_YAML_SCALARS = {_YAML_TAG + t for t in ("int", "float", "bool", "null")}
#: deeper documents are left to the loader (which reports nesting it cannot follow)
_FAST_DEPTH = 64


def _yaml_fast(text: str, loader_class: type) -> Any:
    """The data of a YAML document as the loader constructs it (mappings that remember duplicate
    keys, the same numbers, booleans and nulls, aliases as one shared object), built straight
    from the composed nodes: the loader's construction costs a few Python calls per node, which
    at 10,000 workload groups was most of the time to read the file. Raises :class:`_Slow` for
    anything else (merge keys, other tags, keys that are not scalars, deep nesting)."""
    import yaml

    loader = loader_class(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None
        built: dict[int, Any] = {}
        values: dict[tuple[str, str], Any] = {}
        scalar_node, sequence_node, mapping_node = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode
        merge, string = _YAML_TAG + "merge", _YAML_TAG + "str"

        def scalar(node: Any) -> Any:
            if node.tag == string:
                return node.value
            key = (node.tag, node.value)
            try:
                return values[key]
            except KeyError:
                pass
            if node.tag not in _YAML_SCALARS:
                raise _Slow(node.tag)
            value = values[key] = loader.construct_object(node)
            return value

        def build(node: Any, depth: int) -> Any:
            cls = node.__class__
            if cls is scalar_node:
                return scalar(node)
            if depth > _FAST_DEPTH:
                raise _Slow("depth")
            if id(node) in built:  # an alias
                return built[id(node)]
            if cls is sequence_node and node.tag == _YAML_TAG + "seq":
                items: list = []
                built[id(node)] = items
                items.extend(build(n, depth + 1) for n in node.value)
                return items
            if cls is mapping_node and node.tag == _YAML_TAG + "map":
                data = _Mapping()
                built[id(node)] = data
                seen: set = set()
                for key_node, value_node in node.value:
                    if key_node.__class__ is not scalar_node or key_node.tag == merge:
                        raise _Slow("key")
                    key = scalar(key_node)
                    if key in seen:
                        data.duplicates.append((key, key_node.start_mark.line + 1))
                    seen.add(key)
                    data[key] = build(value_node, depth + 1)
                return data
            raise _Slow(node.tag)

        return build(root, 0)
    finally:
        loader.dispose()


def loads(text: str, fmt: str, source: str = "scenario") -> Any:
    """Parse scenario text of format ``yaml``, ``toml`` or ``json`` into plain data.

    Syntax errors, nesting too deep for the parser and (YAML, JSON) duplicate keys are reported as
    errors of that format naming the file and line; duplicate keys become problems of
    :func:`parse_scenario` at the field's path (TOML refuses them itself)."""
    if fmt == "json":
        try:
            return json.loads(text, object_pairs_hook=_json_pairs)
        except json.JSONDecodeError as exc:
            raise InputError(f"{source}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
        except RecursionError:
            raise InputError(f"{source}: invalid JSON: nested too deeply") from None
        except ValueError as exc:  # e.g. an integer of more than 4300 digits
            raise InputError(f"{source}: invalid JSON: {exc}") from None
    if fmt == "toml":
        import tomllib

        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise InputError(f"{source}: invalid TOML: {_toml_detail(exc, text)}") from None
        except RecursionError:
            raise InputError(f"{source}: invalid TOML: nested too deeply") from None
        except ValueError as exc:
            raise InputError(f"{source}: invalid TOML: {exc}") from None
    import yaml

    loader = _yaml_loader()
    try:
        try:
            return _yaml_fast(text, loader)
        except _Slow:
            pass
        return yaml.load(text, Loader=loader)  # noqa: S506 - a SafeLoader subclass
    except RecursionError:
        raise InputError(f"{source}: invalid YAML: nested too deeply") from None
    except (yaml.YAMLError, ValueError) as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise InputError(f"{source}: invalid YAML{where}: {getattr(exc, 'problem', None) or exc}") from None


def _toml_detail(exc: Exception, text: str) -> str:
    """tomllib's message, with the offending line quoted when it names one (duplicate keys)."""
    msg = str(exc)
    found = re.search(r"at line (\d+)", msg)
    lines = text.splitlines()
    if found and 0 < int(found.group(1)) <= len(lines):
        line = lines[int(found.group(1)) - 1].strip()
        if line:
            msg += f": {line[:80]!r}"
    return msg


def _format_of(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix in (".yaml", ".yml"):
        return "yaml"
    if suffix in (".toml", ".json"):
        return suffix[1:]
    raise InputError(f"{path}: unknown scenario format {suffix!r} (use .yaml, .yml, .toml or .json)")


def dumps(scenario: Scenario, fmt: str) -> str:
    """The scenario as text in ``yaml``, ``json`` or ``toml``."""
    data = scenario.to_dict()
    if fmt == "json":
        return json.dumps(data, indent=2) + "\n"
    if fmt == "toml":
        return to_toml(data)
    import yaml

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def save_scenario(scenario: Scenario, path: Path | str) -> None:
    """Write ``scenario`` atomically in the format given by the suffix of ``path``."""
    from knowledge.infra.atomic import write_text_atomic

    path = Path(path)
    write_text_atomic(path, dumps(scenario, _format_of(path)))


def to_toml(data: dict) -> str:
    """Minimal TOML writer for scenario data: scalars, lists of scalars, tables and arrays
    of tables (enough for every scenario; round-trips through :mod:`tomllib`)."""
    lines: list[str] = []
    _toml_table(data, [], lines)
    return "\n".join(lines).strip() + "\n"


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a JSON string is a valid TOML basic string
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"
    raise InputError(f"cannot write {type(v).__name__} values to TOML")


def _toml_key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() else json.dumps(k)


def _toml_table(data: dict, prefix: list[str], lines: list[str]) -> None:
    def is_table_list(v: Any) -> bool:
        return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)

    for k, v in data.items():
        if not isinstance(v, dict) and not is_table_list(v):
            lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
    for k, v in data.items():
        name = ".".join(_toml_key(p) for p in [*prefix, k])
        if isinstance(v, dict):
            lines += ["", f"[{name}]"]
            _toml_table(v, [*prefix, k], lines)
        elif is_table_list(v):
            for item in v:
                lines += ["", f"[[{name}]]"]
                _toml_table(item, [*prefix, k], lines)


def _drop_none(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_none(v) for v in value]
    return value
