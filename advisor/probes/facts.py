"""What a probe reports about a host: plain dataclasses, JSON-ready through ``to_dict()``.

A fact the probe could not determine holds the string :data:`UNKNOWN`; the reason sits in
``HostFacts.unknown`` under the fact's dotted key (``"cpu.governor"``, ``"nics.eth0.speed_mbps"``),
and where every fact came from sits in ``HostFacts.sources`` under the same key.
Sizes are bytes, frequencies MHz, link speeds Mbit/s.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from knowledge.host_types import VIRTUALIZATION

#: the value of a fact that could not be determined (the reason is in HostFacts.unknown)
UNKNOWN = "unknown"

#: scenario CPU virtualization values (UNKNOWN among them)
VIRT_EXTENSIONS = VIRTUALIZATION


@dataclass
class CpuFacts:
    """Processor: model, topology (counts), frequencies in MHz, vmx/svm, frequency governor."""

    model: str = UNKNOWN
    vendor: str = UNKNOWN
    sockets: int | str = UNKNOWN
    cores: int | str = UNKNOWN              # physical cores, all sockets
    threads: int | str = UNKNOWN            # online logical CPUs
    cores_per_socket: int | str = UNKNOWN
    threads_per_core: int | str = UNKNOWN
    base_mhz: float | str = UNKNOWN
    max_mhz: float | str = UNKNOWN
    current_mhz: float | str = UNKNOWN
    virtualization: str = UNKNOWN           # vmx | svm | none | unknown
    governor: str = UNKNOWN
    numa_nodes: int | str = UNKNOWN


@dataclass
class MemoryFacts:
    """RAM in bytes; huge pages as counts and page size in bytes."""

    total_bytes: int | str = UNKNOWN
    available_bytes: int | str = UNKNOWN
    hugepages_total: int | str = UNKNOWN
    hugepages_free: int | str = UNKNOWN
    hugepage_size_bytes: int | str = UNKNOWN


@dataclass
class DiskFacts:
    """A whole block device (not a partition). ``kind``: hdd, ssd, nvme, ram, virtual or unknown;
    ``rotational_confidence``: high, medium or low (NVMe, virtio, RAID and device-mapper report
    the rotational flag unreliably), ``rotational_reason`` says why."""

    name: str
    size_bytes: int | str = UNKNOWN
    kind: str = UNKNOWN
    rotational: bool | str = UNKNOWN
    rotational_confidence: str = "low"
    rotational_reason: str = ""
    transport: str = UNKNOWN                # nvme, virtio, scsi, xen, dm, md, loop, zram, mmc, ...
    scheduler: str = UNKNOWN
    model: str = UNKNOWN


@dataclass
class MountFacts:
    """A mounted file system that holds data (pseudo file systems left out); sizes in bytes."""

    mountpoint: str
    device: str
    fstype: str
    size_bytes: int | str = UNKNOWN
    free_bytes: int | str = UNKNOWN


@dataclass
class NicFacts:
    """A network interface: link speed in Mbit/s, ``up`` when the link is operationally up."""

    name: str
    speed_mbps: int | str = UNKNOWN
    up: bool = False
    admin_up: bool = False
    operstate: str = UNKNOWN
    virtual: bool = False
    mac: str = UNKNOWN


@dataclass
class HostFacts:
    """Everything a probe found about one machine, with the source of each fact."""

    probe: str
    platform: str
    hostname: str = UNKNOWN
    cpu: CpuFacts = field(default_factory=CpuFacts)
    memory: MemoryFacts = field(default_factory=MemoryFacts)
    disks: list[DiskFacts] = field(default_factory=list)
    mounts: list[MountFacts] = field(default_factory=list)
    nics: list[NicFacts] = field(default_factory=list)
    kvm_available: bool | str = UNKNOWN
    is_virtual_machine: bool | str = UNKNOWN
    hypervisor: str = UNKNOWN               # kvm, vmware, xen, microsoft, oracle, ... or none
    is_container: bool | str = UNKNOWN
    container: str = UNKNOWN                # docker, podman, lxc, ... or none
    virtualization_evidence: list[str] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    unknown: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict with the interface keys (``cpu``, ``memory``, ``disks``, ...)."""
        return asdict(self)

    def disk(self, name: str) -> DiskFacts | None:
        """The disk named ``name`` (``"sda"``), or None."""
        return next((d for d in self.disks if d.name == name), None)

    def nic(self, name: str) -> NicFacts | None:
        """The interface named ``name`` (``"eth0"``), or None."""
        return next((n for n in self.nics if n.name == name), None)


class FactLog:
    """Collects where each fact came from and why a fact is unknown, under dotted keys."""

    def __init__(self) -> None:
        self.sources: dict[str, str] = {}
        self.unknown: dict[str, str] = {}

    def found(self, key: str, source: str, value: Any) -> Any:
        """Record ``source`` for fact ``key`` and return ``value``."""
        self.sources[key] = source
        return value

    def missing(self, key: str, reason: str, source: str = "") -> str:
        """Record why fact ``key`` is unknown and return :data:`UNKNOWN`."""
        self.unknown[key] = reason
        if source:
            self.sources.setdefault(key, source)
        return UNKNOWN

    def attach(self, facts: HostFacts) -> HostFacts:
        """Copy the log into ``facts`` and return it."""
        facts.sources.update(self.sources)
        facts.unknown.update(self.unknown)
        return facts
