"""What rule conditions test, and the choices the rule tables name."""

from __future__ import annotations

from advisor.rules.core import Rule, RuleContext
from advisor.scenario import FIXABLE, HYPERVISORS, Workload


def writes(w: Workload) -> bool:
    return w.io.read_share < 0.95


def any_writes(w: Workload) -> bool:
    """The workload writes at all (what data-integrity rules need)."""
    return w.io.read_share < 1.0


def io_heavy(w: Workload) -> bool:
    return w.io.intensity == "high"


def cpu_heavy(w: Workload) -> bool:
    return w.cpu_intensity == "high"


def neighbour_cores_busy(facts) -> bool:
    """Whether an I/O-bound VM runs next to a busy core: a host carries at least one CPU-heavy VM
    (on average). Then the ondemand governor keeps the clock up and serves as many requests as
    performance (doc 003 Table I, busy rows: one busy neighbour core of four sufficed); otherwise
    it drops the clock (idle rows). The CPU-governor rule and its card's figures read this one
    condition."""
    return facts.cpu_heavy_vms_per_host >= 1.0


def database(w: Workload) -> bool:
    return any(k in w.application.lower() for k in ("cassandra", "database", "nosql", "db"))


def telecom(w: Workload) -> bool:
    return "telecom" in w.application.lower()


def telecom_like(w: Workload) -> bool:
    """Like the thesis' telecom application: that application, or a CPU-heavy real-time service."""
    return telecom(w) or (w.realtime is not None and cpu_heavy(w))


def realtime_service(w: Workload) -> bool:
    """A service whose requests suffer from every pause: real-time tasks or a telecom application."""
    return w.realtime is not None or telecom(w)


def shared(ctx: RuleContext, kind: str) -> bool:
    return any(s.kind == kind for s in ctx.scenario.hosts.shared_storage)


def slow_shared_link(ctx: RuleContext) -> float:
    links = [s.network_gbps for s in ctx.scenario.hosts.shared_storage if s.kind in ("nfs", "iscsi")]
    return min(links) if links else 0.0


def rule(id, decision, scope, kind, text, condition, effect, conclusions=(), evidence=()) -> Rule:
    """A Rule from its fields (conclusions and evidence as tuples)."""
    return Rule(id, decision, scope, kind, text, condition, effect, tuple(conclusions), tuple(evidence))


HV = HYPERVISORS
CACHE = FIXABLE["cache_mode"]
#: modes that keep guest data in the host page cache (not migration-safe)
HOST_CACHED = ("writeback", "writethrough", "unsafe")

#: vCPU over-allocation levels: name -> vCPUs per hardware thread (logical CPU), the thesis' unit
#: (chapters 6 and 8 allocate 25, 50 and 100 vCPUs to a pool of 20 logical CPUs of hosts with two
#: 6-core hyper-threaded CPUs, Sections 6.3.1 and 8.3.1, and call them "cores": little 1.25, medium
#: 2.5, massive 5; chapter 6 also ran 2). Per physical core: times the threads per core.
OVERALLOCATION = {"none": 1.0, "little": 1.25, "moderate": 2.0, "medium": 2.5, "massive": 5.0}
ABOVE_LITTLE = ("moderate", "medium", "massive")
#: disk_placement choices
DP_SIZED = "partition-backed, sized to the footprint"
DP_OUTER = "partition-backed, outer zone, sized to the footprint"
DP_FILE = "file-backed image"
DP_FILE_SIZED = "image file, sized to the footprint"


def single_slow_disk(c: RuleContext) -> bool:
    disks = c.scenario.hosts.disks
    return not disks or (sum(d.count for d in disks) <= 1) or all(d.kind == "hdd" for d in disks)


def images_on_local_spindles(c: RuleContext) -> bool:
    """Images on the hosts' own hard disks (where zones and seek distances exist)."""
    return c.facts.storage_backend in (None, "local_disk") and any(d.kind == "hdd" for d in c.scenario.hosts.disks)


def oversized(w: Workload) -> bool:
    return bool(w.io.footprint_gb and w.io.disk_gb and w.io.disk_gb > 2 * w.io.footprint_gb)
