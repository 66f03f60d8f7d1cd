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
    """Shared storage on offer: kind, its network (Gb/s) and capacity (TB)."""

    kind: str = "nfs"
    network_gbps: float = 1.0
    capacity_tb: float | None = None
    iops: float | None = None


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


@dataclass
class IOProfile:
    """A VM's disk I/O: pattern, read share 0..1, intensity, block size (KiB), data footprint and
    virtual disk size (GB), and I/O operations per second per VM when known."""

    pattern: str = "mixed"
    read_share: float = 0.5
    intensity: str = "low"
    block_size_kib: float = 4.0
    footprint_gb: float | None = None
    disk_gb: float | None = None
    iops: float | None = None


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
    and an optional fixed share C_VM/T_VM."""

    time_unit: str = "ms"
    design_speed_ghz: float | None = None
    overhead: float = 0.0
    share: float | None = None
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
    assumed: list[str] | None = None  # fields filled with defaults, not known (an imported estate)
    today: dict[str, Any] | None = None  # what these VMs run with today (an imported estate)

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
        return out

    @property
    def total_vms(self) -> int:
        return sum(w.vms for w in self.workloads)


# --- parsing with every problem collected -------------------------------------------------
class _Problems:
    """Collects validation problems by path."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, path: str, message: str) -> None:
        self.items.append(f"{path}: {message}" if path else message)


_MISSING = object()


class _Reader:
    """Typed access to one mapping of the file, reporting problems under ``path``."""

    def __init__(self, data: Any, path: str, problems: _Problems, known: tuple[str, ...]):
        self.path, self.problems = path, problems
        if not isinstance(data, dict):
            problems.add(path or "scenario", "must be a mapping")
            data = {}
        self.data = data
        for key in data:
            if key not in known:
                problems.add(self._p(str(key)), f"unknown key (known: {', '.join(known)})")

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

    def string(self, key: str, default: Any = _MISSING, choices: tuple[str, ...] | None = None) -> Any:
        value = self.raw(key, default)
        if value is None or value is default:
            return value
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            self.problems.add(self._p(key), "must be a string")
            return default if default is not _MISSING else None
        value = str(value)
        if choices and value not in choices:
            self.problems.add(self._p(key), f"must be one of {'|'.join(choices)}, not {value!r}")
            return default if default is not _MISSING else choices[0]
        return value

    def number(self, key: str, default: Any = _MISSING, *, minimum: float | None = None,
               maximum: float | None = None, integer: bool = False, exclusive_min: bool = False) -> Any:
        value = self.raw(key, default)
        if value is None or value is default:
            return value
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            self.problems.add(self._p(key), "must be an integer" if integer else "must be a number")
            return default if default is not _MISSING else None
        if integer and value != int(value):
            self.problems.add(self._p(key), "must be an integer")
            return default if default is not _MISSING else None
        if minimum is not None and (value <= minimum if exclusive_min else value < minimum):
            self.problems.add(self._p(key), f"must be {'>' if exclusive_min else '>='} {_num(minimum)}")
        if maximum is not None and value > maximum:
            self.problems.add(self._p(key), f"must be <= {_num(maximum)}")
        return int(value) if integer else float(value)

    def boolean(self, key: str, default: Any = _MISSING) -> Any:
        value = self.raw(key, default)
        if value is None or value is default:
            return value
        if not isinstance(value, bool):
            self.problems.add(self._p(key), "must be true or false")
            return default if default is not _MISSING else False
        return value

    def items(self, key: str, default: Any = _MISSING) -> list:
        value = self.raw(key, default)
        if value is None:
            return []
        if not isinstance(value, list):
            self.problems.add(self._p(key), "must be a list")
            return []
        return value


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
                                    "shared_storage"))
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
        sr = _Reader(s, f"hosts.shared_storage[{i}]", pr, ("kind", "network_gbps", "capacity_tb", "iops"))
        shared.append(SharedStorage(kind=sr.string("kind", choices=SHARED_KINDS) or "nfs",
                                    network_gbps=sr.number("network_gbps", 1.0, minimum=0, exclusive_min=True),
                                    capacity_tb=sr.number("capacity_tb", None, minimum=0, exclusive_min=True),
                                    iops=sr.number("iops", None, minimum=0, exclusive_min=True)))
    count = r.number("count", 1, minimum=1, integer=True) or 1
    reserve = r.number("reserve", 0, minimum=0, integer=True)
    if reserve is not None and reserve >= count:
        pr.add("hosts.reserve", f"must be smaller than hosts.count ({count})")
    return Hosts(count=count, reserve=reserve or 0, cpu=_cpu(r.raw("cpu", {}), "hosts.cpu", pr),
                 ram_gib=r.number("ram_gib", minimum=0, exclusive_min=True) or 1.0, disks=disks,
                 nic_gbps=r.number("nic_gbps", 1.0, minimum=0, exclusive_min=True), shared_storage=shared)


def _realtime(data: Any, path: str, pr: _Problems) -> Realtime:
    r = _Reader(data, path, pr, ("time_unit", "design_speed_ghz", "overhead", "share", "tasks"))
    tasks = []
    for i, t in enumerate(r.items("tasks")):
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
        tasks.append(RtTask(name=tr.string("name", f"t{i + 1}"), period=period or 1.0, wcet=wcet or 0.0,
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
                  share=r.number("share", None, minimum=0, maximum=1, exclusive_min=True), tasks=tasks)
    if tasks and rt.utilization > 1:
        pr.add(f"{path}.tasks", f"utilization {rt.utilization:.3g} exceeds 1: no VM can schedule them")
    elif tasks and rt.share is not None and rt.share <= rt.utilization:
        pr.add(f"{path}.share", f"must exceed the task utilization ({rt.utilization:.3g})")
    return rt


#: workload fields an imported estate may mark as assumed (``assumed: [io.pattern, ...]``)
ASSUMABLE = ("vms", "vcpus", "ram_gib", "cpu_intensity", "request_load_rps", "live_migration", "data_loss_tolerance",
             "containerizable", "application", "image_gb", "io.pattern", "io.read_share", "io.intensity",
             "io.block_size_kib", "io.footprint_gb", "io.disk_gb", "io.iops")


def _assumed(r: _Reader, key: str, path: str, pr: _Problems, known: tuple[str, ...]) -> list[str] | None:
    value = r.raw(key, None)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        pr.add(f"{path}.{key}" if path else key, "must be a list of field names")
        return None
    for x in value:
        if x not in known:
            pr.add(f"{path}.{key}" if path else key, f"{x!r} is not a field that can be assumed")
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
                                 "containerizable", "application", "image_gb", "realtime", "assumed", "today"))
    io_r = _Reader(r.raw("io", {}), f"{path}.io", pr, ("pattern", "read_share", "intensity", "block_size_kib",
                                                       "footprint_gb", "disk_gb", "iops"))
    io = IOProfile(pattern=io_r.string("pattern", "mixed", IO_PATTERNS),
                   read_share=io_r.number("read_share", 0.5, minimum=0, maximum=1),
                   intensity=io_r.string("intensity", "low", LEVELS),
                   block_size_kib=io_r.number("block_size_kib", 4.0, minimum=0.5, maximum=65536),
                   footprint_gb=io_r.number("footprint_gb", None, minimum=0),
                   disk_gb=io_r.number("disk_gb", None, minimum=0, exclusive_min=True),
                   iops=io_r.number("iops", None, minimum=0))
    if io.footprint_gb is not None and io.disk_gb is not None and io.footprint_gb > io.disk_gb:
        pr.add(f"{path}.io.footprint_gb", f"must be <= io.disk_gb ({_num(io.disk_gb)})")
    rt_data = r.raw("realtime", None)
    return Workload(
        name=r.string("name") or f"workload{i + 1}",
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
        assumed=_assumed(r, "assumed", path, pr, ASSUMABLE), today=_mapping(r, "today", path, pr))


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
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        pr.add(where, f"must be a number > 0 ({unit})")
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
    workloads = [_workload(w, i, pr) for i, w in enumerate(r.items("workloads"))]
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
                 "frequent_provisioning", "hypervisor", "targets"))
    prefs = Preferences(open_source_only=p.boolean("open_source_only", False),
                        container_friendly=p.boolean("container_friendly", False),
                        ram_overcommit=p.number("ram_overcommit", 1.0, minimum=1.0, maximum=4.0),
                        max_host_cpu_percent=p.number("max_host_cpu_percent", 80.0, minimum=10, maximum=100),
                        frequent_provisioning=p.boolean("frequent_provisioning", False),
                        hypervisor=p.string("hypervisor", None, HYPERVISORS),
                        targets=_targets(p.raw("targets", {}), {w.name for w in workloads}, pr))
    estate = _mapping(r, "estate", "", pr)
    calibration = None
    if r.raw("calibration", None) is not None:
        c = _Reader(r.raw("calibration", {}), "calibration", pr, ("site",))
        site = c.string("site", None)
        if site is not None and not site.strip():
            pr.add("calibration.site", "must name a site (or leave calibration out)")
        calibration = CalibrationChoice(site=site.strip() if site else None)
    if pr.items:
        listing = "\n  ".join(pr.items)
        raise InputError(f"{source}: {len(pr.items)} problem(s) in the scenario:\n  {listing}")
    return Scenario(name=r.string("name", "scenario"), version=SCENARIO_VERSION, hosts=hosts,
                    workloads=workloads, preferences=prefs, estate=estate,
                    calibration=calibration if calibration is not None and calibration.site else None)


# --- files ---------------------------------------------------------------------------------
def load_scenario(path: Path | str) -> Scenario:
    """Read and validate a scenario file (.yaml/.yml, .toml or .json, chosen by suffix)."""
    return parse_scenario(read_scenario_data(path), str(Path(path)))


def read_scenario_data(path: Path | str) -> Any:
    """The plain data of a scenario file (.yaml/.yml, .toml or .json, chosen by suffix), not yet
    validated: an editor opens a file with a wrong value to show and fix it. Raises InputError
    when the file cannot be read or parsed."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read scenario {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text ({exc.reason})") from exc
    return loads(text, _format_of(path), str(path))


def loads(text: str, fmt: str, source: str = "scenario") -> Any:
    """Parse scenario text of format ``yaml``, ``toml`` or ``json`` into plain data."""
    try:
        if fmt == "json":
            return json.loads(text)
        if fmt == "toml":
            import tomllib

            return tomllib.loads(text)
        import yaml

        return yaml.safe_load(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from exc
    except ValueError as exc:  # tomllib.TOMLDecodeError is a ValueError
        raise InputError(f"{source}: invalid TOML: {exc}") from exc
    except Exception as exc:  # yaml.YAMLError and friends
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise InputError(f"{source}: invalid YAML{where}: {getattr(exc, 'problem', None) or exc}") from exc


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
