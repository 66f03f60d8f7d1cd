"""The scenario's fields, declared once: one row per field of a scenario file with its kind, unit,
default, bounds, choices, label and tip. The validating reader (:mod:`advisor.scenario.reader`)
reads every field by its row, the GUI's scenario form (``ui/panels/qt_scenario.py``) takes its
labels, tips, units and defaults from it, and ``docs/scenario-format.md`` is generated from it
(``python -m advisor.scenario.doc``).

**Adding a field** is one row here (and the attribute of the same name, same default, in the
dataclass of its mapping in :mod:`advisor.scenario.model`): the reader reads it, the form shows it
(``form=True``), the format document lists it.

Paths have no list indices: ``workloads.io.iops`` is the field ``io.iops`` of every workload.
Kinds: ``int``, ``float``, ``text``, ``choice``, ``bool`` (values); ``section`` (a mapping of
fields), ``list`` (a list of mappings of fields), ``names`` (a list of field names), ``mapping``
(free-form), ``targets`` and ``fixed`` (see :data:`~advisor.scenario.model.TARGETS` and
:data:`~advisor.scenario.model.FIXABLE`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.realtime import MAX_TASKS
from knowledge.host_types import DEFAULT_GHZ, DISK_KINDS, HYPERVISORS, LEVELS, SHARED_KINDS, VIRTUALIZATION
from knowledge.infra.reader import MAX_NUMBER

#: the scenario format version this program reads and writes
SCENARIO_VERSION = 1

DISK_SOURCES = ("declared", "probe")  # where a disk group's iops / mb_s come from
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

#: at most this many workloads in one scenario, and this many problems listed in one message
MAX_WORKLOADS = 100_000
MAX_PROBLEMS_LISTED = 50
#: the largest scenario file read
MAX_SCENARIO_BYTES = 64 * 1024 * 1024
#: virtual disk (and image) per VM when the scenario gives no size, GB
DEFAULT_DISK_GB = 20.0
#: the typical VM a workload given as totals (``total_vcpus``, ...) is sized as, unless its
#: ``vcpus`` / ``ram_gib`` say otherwise (issue #31: 4 vCPU / 16 GiB)
TYPICAL_VCPUS, TYPICAL_RAM_GIB = 4, 16.0
#: the workload fields that give a workload as totals
TOTALS = ("total_vcpus", "total_ram_gib", "total_storage_tb")
#: the longest growth horizon, years
MAX_HORIZON_YEARS = 30

VALUE_KINDS = ("int", "float", "text", "choice", "bool", "group")
#: vSphere-style HA admission policies (``preferences.ha.policy``)
HA_POLICIES = ("slot", "percentage", "failover_hosts")


@dataclass(frozen=True)
class Field:
    """One field of a scenario file (see the module doc). ``default``: the value when the key is
    absent; for a ``required`` field, what a form proposes (None: nothing). ``fallback``: the
    value validation carries on with when the field is missing, zero or wrong (None: ``default``
    or what was read). ``form``: shown in the GUI's scenario form (``step`` and ``decimals`` its
    editor's); ``assumable`` / ``measurable``: an imported estate may list it in a workload's
    ``assumed`` / ``measured``; ``limit``: the most entries of a list; ``names``: words a number
    field also takes, each for its number (``peak`` for the 100th percentile)."""

    path: str
    kind: str
    label: str = ""
    tip: str = ""
    unit: str = ""
    default: Any = None
    required: bool = False
    fallback: Any = None
    minimum: float | None = None
    maximum: float | None = None
    exclusive_min: bool = False
    choices: tuple[str, ...] = ()
    empty: bool = True
    form: bool = True
    step: float = 1.0
    decimals: int = 2
    assumable: bool = False
    measurable: bool = False
    limit: int | None = None
    names: tuple[tuple[str, float], ...] = ()

    @property
    def key(self) -> str:
        """The field's key in its mapping."""
        return self.path.rsplit(".", 1)[-1]

    @property
    def parent(self) -> str:
        """The path of the mapping the field is in ('' for the top level)."""
        return self.path.rsplit(".", 1)[0] if "." in self.path else ""

    @property
    def bound(self) -> float:
        """The largest size a number of this field may have."""
        return min(MAX_NUMBER, self.maximum if self.maximum is not None else MAX_NUMBER)


def _f(path: str, kind: str, label: str = "", tip: str = "", unit: str = "", **kw: Any) -> Field:
    return Field(path, kind, label, tip, unit, **kw)


_POS: dict[str, Any] = {"minimum": 0, "exclusive_min": True}  # a number > 0

#: every field of a scenario file, in the order the format document and the forms list them
FIELDS: tuple[Field, ...] = (
    _f("version", "int", "Format version", f"The scenario format version (this program reads {SCENARIO_VERSION})",
       default=SCENARIO_VERSION, form=False),
    _f("name", "text", "Scenario name", "Shown in the window title and the report", default="scenario",
       empty=False),
    # --- hosts
    _f("hosts", "section", "Hosts", "The planned hosts (all alike) and the N+x reserve kept free", required=True),
    _f("hosts.count", "int", "Hosts", "How many identical hosts the cluster has", "hosts", default=1, fallback=1,
       minimum=1, maximum=100_000),
    _f("hosts.reserve", "int", "Reserve (N+x)", "Hosts kept free for failure or maintenance", "hosts", default=0,
       fallback=0, minimum=0, maximum=100_000),
    _f("hosts.cpu", "section", "CPU", "One host's processors", default={}),
    _f("hosts.cpu.model", "text", "CPU model", "Processor model name (for the report)", default=""),
    _f("hosts.cpu.sockets", "int", "CPU sockets", "Processor sockets per host", default=1, minimum=1, maximum=64),
    _f("hosts.cpu.cores_per_socket", "int", "Cores per socket", "Physical cores per socket", default=8,
       required=True, fallback=1, minimum=1, maximum=1024),
    _f("hosts.cpu.threads_per_core", "int", "Threads per core", "2 with SMT/Hyper-Threading", default=1,
       minimum=1, maximum=8),
    _f("hosts.cpu.ghz", "float", "Base clock", "Base clock frequency of a core", "GHz", default=DEFAULT_GHZ,
       maximum=100, step=0.1, **_POS),
    _f("hosts.cpu.virtualization", "choice", "Virtualization", "Hardware virtualization extensions",
       default="unknown", choices=VIRTUALIZATION),
    _f("hosts.cpu.frequency_scaling", "bool", "Frequency scaling",
       "Whether an on-demand CPU frequency governor is active today (it informs the CPU governor advice)"),
    _f("hosts.ram_gib", "float", "RAM", "Memory per host", "GiB", default=64.0, required=True, fallback=1.0,
       maximum=1_048_576, step=8, **_POS),
    _f("hosts.nic_gbps", "float", "Network", "Link rate of a host's NIC", "Gb/s", default=1.0, maximum=10_000,
       **_POS),
    _f("hosts.model", "text", "Host model", "The cost catalogue's host model these hosts are (capadvisor costs)",
       form=False),
    # placement constraints (#32)
    _f("hosts.failure_domains", "list", "Failure domains", "Racks, rooms or sites the hosts stand in (each with "
       "its own power and network): a VM group spreads over them", default=[], form=False),
    _f("hosts.failure_domains.name", "text", "Name", "Name of the failure domain", required=True, fallback="",
       empty=False),
    _f("hosts.failure_domains.hosts", "int", "Hosts", "Hosts planned in this domain (new hosts are added to the "
       "domains in turn)", "hosts", default=1, minimum=0, maximum=100_000, decimals=0),
    _f("hosts.disks", "list", "Local disk groups", "Groups of identical local disks per host", default=[]),
    _f("hosts.disks.kind", "choice", "Kind", "Kind of the local disks of this group", default="ssd",
       required=True, fallback="ssd", choices=DISK_KINDS),
    _f("hosts.disks.count", "int", "Count", "Disks of this kind per host", default=1, minimum=1, maximum=1000),
    _f("hosts.disks.size_gb", "float", "Size", "Size of one disk (10^9 B)", "GB", default=1000.0, required=True,
       fallback=1.0, maximum=1e6, step=100, decimals=0, **_POS),
    _f("hosts.disks.iops", "float", "IOPS", "Random IOPS of one disk, if measured", maximum=1e8, decimals=0,
       step=1000, **_POS),
    _f("hosts.disks.mb_s", "float", "Seq.", "Sequential throughput of one disk, if measured", "MB/s", maximum=1e6,
       decimals=0, step=50, **_POS),
    _f("hosts.disks.source", "choice", "Source", "Where iops and mb_s come from (probe: this machine's "
       "micro-benchmark)", choices=DISK_SOURCES, form=False),
    _f("hosts.shared_storage", "list", "Shared storage", "Shared storage on offer for VM images", default=[]),
    _f("hosts.shared_storage.kind", "choice", "Kind", "Kind of shared storage on offer for VM images",
       default="nfs", required=True, fallback="nfs", choices=SHARED_KINDS),
    _f("hosts.shared_storage.network_gbps", "float", "Network", "Link rate between a host and this storage",
       "Gb/s", default=1.0, maximum=10_000, **_POS),
    _f("hosts.shared_storage.capacity_tb", "float", "Capacity", "Usable capacity (10^12 B), if known", "TB",
       maximum=1e6, step=1, **_POS),
    _f("hosts.shared_storage.iops", "float", "IOPS", "IOPS the storage sustains, if known", maximum=1e9,
       decimals=0, step=1000, **_POS),
    _f("hosts.shared_storage.model", "text", "Storage model", "The cost catalogue's storage product "
       "(capadvisor costs)", form=False),
    _f("hosts.shared_storage.system", "choice", "System", "For a distributed store: which one (the thesis "
       "measured these four; not set: Compuverde Structured, its best)", choices=DISTRIBUTED_SYSTEMS),
    # --- workloads
    _f("workloads", "list", "Workload groups", "Groups of identical VMs", required=True, limit=MAX_WORKLOADS),
    _f("workloads.name", "text", "Name", "Unique name of this group of identical VMs", required=True,
       empty=False),
    _f("workloads.application", "text", "Application",
       "What runs in the VMs, e.g. cassandra, telecom, web (some rules depend on it)", default="", assumable=True),
    _f("workloads.vms", "int", "VMs", "Number of VMs in this group (not given when the group is given as totals)",
       "VMs", default=1, required=True, fallback=1, minimum=1, maximum=1_000_000, assumable=True),
    _f("workloads.vcpus", "int", "vCPUs per VM", "Virtual CPUs of one VM", "vCPUs", default=1, required=True,
       fallback=1, minimum=1, maximum=4096, assumable=True),
    _f("workloads.ram_gib", "float", "RAM per VM", "Memory of one VM", "GiB", default=1.0, required=True,
       fallback=1.0, maximum=1_048_576, step=0.5, assumable=True, measurable=True, **_POS),
    _f("workloads.cpu_intensity", "choice", "CPU intensity", "How busy the vCPUs are", default="medium",
       choices=LEVELS, assumable=True, measurable=True),
    _f("workloads.io", "section", "Disk I/O", "A VM's disk I/O", default={}),
    _f("workloads.io.pattern", "choice", "I/O pattern", "Dominant disk access pattern", default="mixed",
       choices=IO_PATTERNS, assumable=True),
    _f("workloads.io.read_share", "float", "Read share", "Fraction of I/O that reads (0 to 1)", default=0.5,
       minimum=0, maximum=1, step=0.05, assumable=True, measurable=True),
    _f("workloads.io.intensity", "choice", "I/O intensity", "How heavy the disk I/O is", default="low",
       choices=LEVELS, assumable=True),
    _f("workloads.io.block_size_kib", "float", "Block size", "Typical I/O request size", "KiB", default=4.0,
       minimum=0.5, maximum=65536, assumable=True),
    _f("workloads.io.disk_gb", "float", "Virtual disk", "Size of the VM's virtual disk", "GB", maximum=1e6,
       assumable=True, **_POS),
    _f("workloads.io.footprint_gb", "float", "Data footprint",
       "Data the VM actually reads and writes (at most the virtual disk)", "GB", minimum=0, maximum=1e6,
       assumable=True),
    _f("workloads.io.iops", "float", "IOPS per VM", "Disk operations per second of one VM, if known", "IOPS",
       minimum=0, maximum=1e9, decimals=0, step=10, assumable=True, measurable=True),
    _f("workloads.io.rewrite_share", "float", "Rewrite share", "Fraction of the written bytes that rewrite "
       "data in place (read, change, write back), 0 to 1", default=0.0, minimum=0, maximum=1, step=0.1),
    _f("workloads.image_gb", "float", "Image size", "Size of the VM image to propagate", "GB", maximum=1e6,
       assumable=True, **_POS),
    _f("workloads.request_load_rps", "float", "Request load", "Requests per second per VM", "req/s", minimum=0,
       maximum=1e9, assumable=True, measurable=True),
    _f("workloads.live_migration", "bool", "Must live-migrate", "The VMs must move between hosts live",
       default=False, assumable=True),
    _f("workloads.data_loss_tolerance", "choice", "Data loss tolerated", "How much data may be lost on a host "
       "crash", default="none", choices=LOSS_TOLERANCE, assumable=True),
    _f("workloads.containerizable", "bool", "Could run as containers",
       "The application could run in containers instead of VMs", default=False, assumable=True),
    _f("workloads.replication_factor", "int", "Replication factor",
       "Copies of each item a distributed database keeps (Cassandra's RF; not set: 3)", "copies", minimum=1,
       maximum=100, decimals=0),
    _f("workloads.anti_affinity", "group", "Anti-affinity", "true: no two VMs of this workload share a host; a "
       "group name: no two VMs of the workloads of that group share a host", default=False, form=False),
    _f("workloads.affinity", "group", "Affinity", "true: the VMs of this workload stay on one host; a group name: "
       "the VMs of the workloads of that group stay on one host (refused with anti-affinity or a replication "
       "factor that keeps two of them apart, or more RAM than a host)", default=False, form=False),
    _f("workloads.cpu_busy_share", "float", "CPU busy share", "Share of each vCPU kept busy, 0-1, as measured "
       "(an imported estate's CPU usage)", minimum=0, maximum=1, form=False, measurable=True),
    # l-long (#31): percentile sizing from series
    _f("workloads.cpu_busy_percentiles", "mapping", "CPU busy percentiles", "Busy share of each vCPU, 0-1, at "
       "percentiles of the measured series (keys p50, p95, p99, peak, ...): the share at "
       "preferences.sizing_percentile is the one sized on", form=False, measurable=True),
    _f("workloads.realtime", "section", "Real-time tasks", "A hard real-time task set of the VMs (edited in the "
       "Real-time tab)", form=False),
    _f("workloads.realtime.time_unit", "choice", "Time unit", "The unit of the task set's times", default="ms",
       choices=TIME_UNITS),
    _f("workloads.realtime.design_speed_ghz", "float", "Design speed", "The CPU speed the task set was "
       "designed for", "GHz", maximum=100, **_POS),
    _f("workloads.realtime.overhead", "float", "Overhead", "The VM switch overhead X", default=0.0, minimum=0,
       maximum=1e9),
    _f("workloads.realtime.share", "float", "Share", "A fixed share C_VM/T_VM of the CPU", maximum=1, **_POS),
    _f("workloads.realtime.period", "float", "Period", "A period T_VM the platform imposes", **_POS),
    _f("workloads.realtime.tasks", "list", "Tasks", "The tasks (at least one)", default=[], required=True,
       limit=MAX_TASKS),
    _f("workloads.realtime.tasks.name", "text", "Name", "Unique name of the task (not set: t1, t2, ...)",
       empty=False),
    _f("workloads.realtime.tasks.period", "float", "Period", "The task's period", required=True, fallback=1.0,
       maximum=1e9, **_POS),
    _f("workloads.realtime.tasks.wcet", "float", "WCET", "The task's worst-case execution time", required=True,
       fallback=0.0, maximum=1e9, **_POS),
    _f("workloads.realtime.tasks.deadline", "float", "Deadline", "The task's deadline (not set: the period)",
       maximum=1e9, **_POS),
    # --- totals and growth of a workload (#31)
    _f("workloads.total_vcpus", "int", "Total vCPUs", "The workload as totals: all its vCPUs together. It is "
       f"sized as the fewest VMs that hold every total, none larger than the typical VM (vcpus / ram_gib, default "
       f"{TYPICAL_VCPUS} vCPU / {TYPICAL_RAM_GIB:g} GiB); give no vms then", "vCPUs",
       minimum=1, maximum=100_000_000),
    _f("workloads.total_ram_gib", "float", "Total RAM", "The workload as totals: all its RAM together, shared "
       f"evenly by its VMs (each at most the typical VM's ram_gib, default {TYPICAL_RAM_GIB:g} GiB)", "GiB", maximum=1e10, step=64, decimals=0, **_POS),
    _f("workloads.total_storage_tb", "float", "Total storage", "The workload as totals: all its virtual disks "
       "together (10^12 B), shared evenly by its VMs; give no io.disk_gb then, and total_vcpus or "
       "total_ram_gib beside it", "TB", maximum=1e7,
       step=1, **_POS),
    _f("workloads.growth", "section", "Growth of this workload", "Growth rates of this workload where they differ "
       "from the scenario's growth section"),
    _f("workloads.growth.cpu_pct_per_year", "float", "CPU growth", "This workload's CPU demand growth per year, "
       "compounded (not set: growth.cpu_pct_per_year)", "%/year", minimum=-90, maximum=1000, step=5),
    _f("workloads.growth.ram_pct_per_year", "float", "RAM growth", "This workload's RAM demand growth per year, "
       "compounded (not set: growth.ram_pct_per_year)", "%/year", minimum=-90, maximum=1000, step=5),
    _f("workloads.growth.storage_pct_per_year", "float", "Storage growth", "This workload's storage (capacity, "
       "IOPS, traffic) growth per year, compounded (not set: growth.storage_pct_per_year)", "%/year",
       minimum=-90, maximum=1000, step=5),
    _f("workloads.assumed", "names", "Assumed", "Fields filled with defaults, not known (an imported estate)",
       form=False),
    _f("workloads.measured", "names", "Measured", "Fields derived from the estate's measurements, not assumed",
       form=False),
    _f("workloads.today", "mapping", "Today", "What these VMs run with today (an imported estate)", form=False),
    # --- preferences
    _f("preferences", "section", "Preferences", "What the advice should prefer or keep fixed", default={}),
    _f("preferences.open_source_only", "bool", "Open source only", "Only open-source hypervisors", default=False),
    _f("preferences.container_friendly", "bool", "Container friendly", "Prefer containers where possible",
       default=False),
    _f("preferences.ram_overcommit", "float", "RAM over-commit", "RAM allocated per GiB of host RAM", "x",
       default=1.0, minimum=1.0, maximum=4.0, step=0.1),
    _f("preferences.max_host_cpu_percent", "float", "Max host CPU", "Planned peak CPU utilization", "%",
       default=80.0, minimum=10, maximum=100, step=5),
    _f("preferences.sizing_percentile", "float", "Sizing percentile", "The percentile of the measured "
       "utilisation series the CPU is sized on (workloads with measured series; 100: the peak)", "%",
       default=95.0, minimum=1, maximum=100, step=1, decimals=1, names=(("peak", 100.0),)),
    _f("preferences.frequent_provisioning", "bool", "Frequent provisioning",
       "Servers are created and started often (elastic scale-out)", default=False),
    _f("preferences.hypervisor", "choice", "Hypervisor", "Fixes the hypervisor (not set: the advice chooses)",
       choices=HYPERVISORS, form=False),
    _f("preferences.vcpu_overallocation", "choice", "Over-allocation",
       "Fix the vCPU over-allocation level (not set: the advice chooses)", choices=OVERALLOCATION_LEVELS),
    _f("preferences.balancing_event", "choice", "Balancing event", "The event the load-balancing figures are for "
       "(not set: maintenance with a reserve, else a load shift)", choices=BALANCING_EVENTS),
    _f("preferences.balancing_mean_host_cpu_pct", "float", "Mean host CPU after balancing", "Mean host CPU "
       "after that event, if known (monitoring)", "%", maximum=100, form=False, **_POS),
    _f("preferences.targets", "targets", "Targets", "Performance targets the plan must meet", default={}),
    _f("preferences.fixed", "fixed", "Fixed choices", "Choices the advice must take: decision -> choice",
       default={}),
    _f("preferences.survive", "section", "Survive", "Failures the placement must survive: every VM still placed "
       "after losing this many hosts, or whole failure domains", form=False),
    _f("preferences.survive.hosts", "int", "Hosts", "Hosts that may fail at once", "hosts", default=0, minimum=0,
       maximum=64, decimals=0),
    _f("preferences.survive.domains", "int", "Domains", "Whole failure domains that may fail at once",
       "domains", default=0, minimum=0, maximum=16, decimals=0),
    _f("preferences.ha", "section", "HA admission", "The platform's HA admission control and the capacity it "
       "reserves", form=False),
    _f("preferences.ha.policy", "choice", "Policy", "slot: vSphere slots (largest reservation); percentage: a "
       "share of the cluster; failover_hosts: dedicated idle hosts", default="slot", choices=HA_POLICIES),
    _f("preferences.ha.tolerate_hosts", "int", "Tolerate", "Host failures the admission control tolerates",
       "hosts", default=1, minimum=0, maximum=64, decimals=0),
    # --- growth over a horizon (#31)
    _f("growth", "section", "Growth", "Demand growth over a horizon of years: the advice's timeline (hosts needed "
       "per year, utilization of the planned hosts, the year they run out)"),
    _f("growth.horizon_years", "int", "Horizon", "Years the timeline covers (year 0 is today)", "years", default=5,
       minimum=1, maximum=MAX_HORIZON_YEARS),
    _f("growth.cpu_pct_per_year", "float", "CPU growth", "CPU demand growth per year, compounded", "%/year",
       default=0.0, minimum=-90, maximum=1000, step=5),
    _f("growth.ram_pct_per_year", "float", "RAM growth", "RAM demand growth per year, compounded", "%/year",
       default=0.0, minimum=-90, maximum=1000, step=5),
    _f("growth.storage_pct_per_year", "float", "Storage growth", "Storage demand growth per year (capacity, IOPS, "
       "storage traffic), compounded", "%/year", default=0.0, minimum=-90, maximum=1000, step=5),
    _f("growth.events", "list", "Step events", "One-off changes: VMs added to (or taken from) a workload in a year; "
       "they grow with the workload from then on", default=[], limit=1000),
    _f("growth.events.year", "int", "Year", "The year the VMs arrive (1 = a year from today)", "year",
       required=True, fallback=1, minimum=1, maximum=MAX_HORIZON_YEARS),
    _f("growth.events.workload", "text", "Workload", "The workload the VMs join (its name)", required=True,
       empty=False),
    _f("growth.events.add_vms", "int", "VMs added", "VMs of the workload's shape added (negative: retired)", "VMs",
       required=True, fallback=1, minimum=-1_000_000, maximum=1_000_000),
    # --- where it came from
    _f("estate", "mapping", "Estate", "Where an imported scenario came from and what runs today", form=False),
    _f("calibration", "section", "Calibration", "The site whose imported benchmarks calibrate the advice",
       form=False),
    _f("calibration.site", "text", "Site", "A site of the user database (not set: the documents' ratios)",
       empty=False),
)

BY_PATH: dict[str, Field] = {f.path: f for f in FIELDS}
#: the keys of each mapping, in table order ('' is the top level)
CHILDREN: dict[str, tuple[str, ...]] = {}
for _row in FIELDS:
    CHILDREN[_row.parent] = (*CHILDREN.get(_row.parent, ()), _row.key)
del _row

#: upper bounds per field (paths without list indices); a value above is an error naming the field
FIELD_MAX: dict[str, float] = {f.path: f.maximum for f in FIELDS if f.maximum is not None}
#: workload fields an imported estate may mark as assumed (``assumed: [io.pattern, ...]``)
ASSUMABLE = tuple(f.path.removeprefix("workloads.") for f in FIELDS if f.assumable)
#: workload fields an imported estate may mark as measured (``measured: [cpu_intensity, ...]``)
MEASURABLE = tuple(f.path.removeprefix("workloads.") for f in FIELDS if f.measurable)


def form_fields(section: str, nested: bool = True) -> list[Field]:
    """The value fields the scenario form shows for the mapping ``section`` (``''``: the top
    level), in table order; ``nested``: with those of its sections (``workloads``: ``io.*``)."""
    out = []
    for f in FIELDS:
        if f.kind in VALUE_KINDS and f.form and _in_form(f.parent, section, nested):
            out.append(f)
    return out


def _in_form(parent: str, section: str, nested: bool) -> bool:
    """True when the fields of mapping ``parent`` show in the form of ``section``."""
    while parent != section:
        row = BY_PATH.get(parent)
        if not nested or row is None or row.kind != "section" or not row.form:
            return False
        parent = row.parent
    return True
