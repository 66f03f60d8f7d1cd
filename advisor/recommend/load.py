"""How busy a workload keeps the hosts' cores: read by the host count, the targets and load
balancing (here, so that none of them needs another's module)."""

from __future__ import annotations

#: busy share of a vCPU per CPU intensity
BUSY = {"low": 0.2, "medium": 0.5, "high": 0.9}
#: a measured busy share falls in the level whose share is nearest: below 0.35 low, below 0.7 medium
LEVEL_BOUNDS = (("low", 0.35), ("medium", 0.7), ("high", 1.0))


def level_of(share: float) -> str:
    """The CPU intensity a measured busy share (0-1) falls in."""
    return next((name for name, top in LEVEL_BOUNDS if share < top), "high")


def busy_share(w) -> float:
    """Share of each vCPU of ``w`` kept busy: the measured ``cpu_busy_share`` (an imported estate)
    while ``cpu_intensity`` is still the level it falls in (a user who changes the intensity
    overrides the measurement), else the intensity's share; real-time vCPUs are pinned: wholly."""
    if w.realtime is not None:
        return 1.0
    measured = getattr(w, "cpu_busy_share", None)
    if measured is not None and level_of(measured) == w.cpu_intensity:
        return float(measured)
    return BUSY[w.cpu_intensity]


def busy_cores(w) -> float:
    """Cores one VM of ``w`` keeps busy: vCPUs x :func:`busy_share`."""
    return w.vcpus * busy_share(w)
