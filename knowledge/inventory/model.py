"""What an estate export says: virtual machines, hosts and where each fact came from.

Plain dataclasses shared by every reader. Units are fixed here so that each reader converts
once: RAM in MiB, disks in GB (10^9 B), CPU clock in GHz. ``None`` means "the source does not
say" (never a guessed value): the scenario builder decides what to assume and says so.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

#: bytes per MiB and per GB, for readers converting sizes
MIB = 1024 * 1024
GB = 1000 ** 3
#: GB per MiB
GB_PER_MIB = MIB / GB
#: warnings listed one by one for VMs, hosts and rows left out (the rest are counted)
WARNINGS_LISTED = 20
#: how a measurement that is a collector's average over its collection (not a snapshot) is described:
#: readers end a ``cpu_from`` / ``usage_from`` with it, and the summary says when usage was taken by it
OVER_COLLECTION = "average over the collection"


class CancelLike(Protocol):
    """A cancel flag (advisor.progress.CancelToken satisfies it; knowledge does not import advisor)."""

    def raise_if_cancelled(self) -> None: ...


@dataclass
class VM:
    """One virtual machine (or container) of the estate."""

    name: str
    source: str                      # file it was read from
    platform: str = ""               # vmware | libvirt | proxmox | openstack | template
    uid: str = ""                    # UUID, vmid or server id when the source gives one
    moid: str = ""                   # vCenter's managed object id (vm-123: Live Optics MOB ID, Nutanix MOID)
    ips: str = ""                    # its IP addresses as the export lists them (Azure Migrate 'IP addresses')
    vcpus: int | None = None
    ram_mib: float | None = None
    disk_gb: float | None = None     # provisioned virtual disk, GB
    used_gb: float | None = None     # data in use, GB
    powered_on: bool | None = None
    template: bool = False
    container: bool = False          # a container (Proxmox LXC), not a VM
    host: str = ""
    cluster: str = ""
    os: str = ""
    application: str = ""            # what runs in it, when the source has such a column (our CSV template)
    cache_modes: list[str] = field(default_factory=list)  # per disk (libvirt driver cache=)
    disk_ids: list[str] = field(default_factory=list)     # per disk, parallel to cache_modes (libvirt target dev)
    pinned: bool | None = None       # vCPUs pinned to host CPUs (libvirt vcpupin)
    storage: list[str] = field(default_factory=list)      # per disk: local | nfs | iscsi | distributed | file | block
    group: str = ""                  # a group the source names (our CSV template)
    count: int = 1                   # identical VMs this row stands for (our CSV template)
    where: str = ""                  # where in its file (tab and row, entry, line), for messages
    # measured at export time (RVTools quick statistics; None: not in the export)
    cpu_usage_mhz: float | None = None   # vCPU tab 'Overall'
    cpu_max_mhz: float | None = None     # vCPU tab 'Max' (vCPUs x host clock, or the VM's limit)
    cpu_usage_pct: float | None = None   # a per-VM 'CPU usage %' column, where an export has one
    cpu_from: str = ""                   # the column cpu_usage_pct was read from ("": a per-VM CPU usage %)
    cpu_pcts: dict[str, float] | None = None  # CPU % over a collection per percentile key (p50, p95, peak)
    cpu_ready_pct: float | None = None   # vInfo 'Overall Cpu Readiness' / vCPU 'CPU ready %'
    mem_consumed_mib: float | None = None  # vMemory 'Consumed'
    mem_active_mib: float | None = None    # vMemory 'Active' / vInfo 'Active Memory'
    mem_from: str = ""                     # the column mem_consumed_mib was read from (the summary names it)

    @property
    def ram_gib(self) -> float | None:
        return None if self.ram_mib is None else self.ram_mib / 1024.0


@dataclass
class Host:
    """One physical host (hypervisor node)."""

    name: str
    source: str
    cluster: str = ""
    cpu_model: str = ""
    sockets: int | None = None
    cores_per_socket: int | None = None
    threads_per_core: int | None = None
    logical_cpus: int | None = None   # when only the thread count is known (Proxmox maxcpu)
    ghz: float | None = None
    ram_mib: float | None = None
    cpu_usage_pct: float | None = None
    mem_usage_pct: float | None = None
    usage_from: str = ""              # the sheet the usage % came from, when not the host's own row
    hypervisor: str = ""              # e.g. "VMware ESXi 8.0.3", "KVM"
    aliases: list[str] = field(default_factory=list)  # other names of this host in the sources

    @property
    def cores(self) -> int | None:
        """Physical cores, when the source gives them."""
        if self.sockets and self.cores_per_socket:
            return self.sockets * self.cores_per_socket
        return None


@dataclass
class Source:
    """One input file: its format and what it contributed."""

    path: str
    format: str
    vms: int = 0
    hosts: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass
class Estate:
    """Everything read from the input files, merged."""

    vms: list[VM] = field(default_factory=list)
    hosts: list[Host] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    shared_storage: list[str] = field(default_factory=list)  # kinds seen: nfs | iscsi | distributed
    extra: dict[str, Any] = field(default_factory=dict)
    left_out: int = 0  # VMs, hosts and rows left out (each named in a warning, up to WARNINGS_LISTED)

    def leave_out(self, why: str) -> None:
        """Record one VM, host or row left out (``why`` names file, row and field)."""
        self.left_out += 1
        if self.left_out <= WARNINGS_LISTED:
            self.warnings.append(f"left out: {why}")
        elif self.left_out == WARNINGS_LISTED + 1:
            self.warnings.append("left out: more rows (only the first "
                                 f"{WARNINGS_LISTED} are listed; see the count in 'found')")

    @property
    def platforms(self) -> list[str]:
        return sorted({v.platform for v in self.vms if v.platform})

    def counts(self) -> dict[str, int]:
        """VMs, powered off, templates, containers and hosts found (each a number of VMs or
        hosts; a template CSV row with ``count`` counts that many VMs), and rows left out."""
        vms = [v for v in self.vms if not v.template]
        out = {"vms": sum(v.count for v in vms if not v.container),
               "containers": sum(v.count for v in vms if v.container),
               "powered_off": sum(v.count for v in vms if v.powered_on is False),
               "templates": sum(v.count for v in self.vms if v.template),
               "hosts": len(self.hosts)}
        if self.left_out:
            out["left_out"] = self.left_out
        return out

    def cache_mode_counts(self) -> Counter:
        """Virtual disks per cache mode (not VMs: a VM with two disks counts twice)."""
        out: Counter = Counter()
        for v in self.vms:
            if not v.template:
                for m in v.cache_modes:
                    out[m] += v.count
        return out
