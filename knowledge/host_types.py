"""The host hardware and the vocabularies both the scenario (:mod:`advisor.scenario`) and the cost
catalogue (:mod:`knowledge.costs`) describe hosts with, declared once below both.

A scenario's ``hosts.cpu`` and a catalogue host model's ``cpu`` are the same :class:`Cpu`; a local
disk group is the same :class:`Disk` in both.
"""

from __future__ import annotations

from knowledge.infra.lean import lean_dataclass

#: low / medium / high: a workload's CPU and I/O intensity
LEVELS = ("low", "medium", "high")
#: the hardware virtualization extensions a CPU may have
VIRTUALIZATION = ("vmx", "svm", "none", "unknown")
#: kinds of local disks
DISK_KINDS = ("hdd", "ssd", "nvme")
#: kinds of shared storage (a scenario's ``hosts.shared_storage``, a catalogue's storage products)
SHARED_KINDS = ("nfs", "iscsi", "distributed")
#: the hypervisors as the hypervisor decision names them (``preferences.hypervisor``, a licence's)
HYPERVISORS = ("KVM", "VMware ESXi", "XenServer", "Xen")
#: a CPU's base clock when none is given, GHz
DEFAULT_GHZ = 2.0


@lean_dataclass
class Cpu:
    """One host's processors; ``ghz`` is the base clock."""

    model: str = ""
    sockets: int = 1
    cores_per_socket: int = 1
    threads_per_core: int = 1
    ghz: float = DEFAULT_GHZ
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


@lean_dataclass
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
