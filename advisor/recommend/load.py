"""How busy a workload keeps the hosts' cores: read by the host count, the targets and load
balancing (here, so that none of them needs another's module)."""

from __future__ import annotations

#: busy share of a vCPU per CPU intensity
BUSY = {"low": 0.2, "medium": 0.5, "high": 0.9}


def busy_cores(w) -> float:
    """Cores one VM of ``w`` keeps busy: vCPUs x the busy share of its CPU intensity (real-time
    vCPUs are pinned: wholly)."""
    return w.vcpus * (1.0 if w.realtime is not None else BUSY[w.cpu_intensity])
