"""How busy a workload keeps the hosts' cores, and the I/O it asks: read by the host count, the
targets, the storage backend and load balancing (here, so that none of them needs another's module)."""

from __future__ import annotations

#: busy share of a vCPU per CPU intensity
BUSY = {"low": 0.2, "medium": 0.5, "high": 0.9}


def busy_cores(w) -> float:
    """Cores one VM of ``w`` keeps busy: vCPUs x the busy share of its CPU intensity (real-time
    vCPUs are pinned: wholly)."""
    return w.vcpus * (1.0 if w.realtime is not None else BUSY[w.cpu_intensity])


#: random IOPS a VM asks per I/O intensity when the workload does not state ``io.iops``
IOPS_PER_VM = {"low": 50.0, "medium": 200.0, "high": 1000.0}


def vm_iops(w) -> float:
    """IOPS one VM of ``w`` asks: its ``io.iops``, else the figure of its I/O intensity."""
    return w.io.iops if w.io.iops is not None else IOPS_PER_VM[w.io.intensity]
