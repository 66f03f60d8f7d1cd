"""Hardware probe plug-ins: read this machine as a candidate host, and measure it if asked.

``REGISTRY.run()`` probes with the best probe for this platform (built-ins: ``linux``,
``psutil``); third parties :func:`register` their own or publish them in the entry-point
group ``capadvisor.probes``. Micro-benchmarks live in :mod:`advisor.probes.bench`, the
scenario ``hosts`` skeleton in :mod:`advisor.probes.skeleton`.
"""

from advisor.probes.base import ENTRY_POINT_GROUP, Probe, ProbeFailure
from advisor.probes.facts import UNKNOWN, CpuFacts, DiskFacts, HostFacts, MemoryFacts, MountFacts, NicFacts
from advisor.probes.registry import (
    REGISTRY,
    NoProbeWorked,
    ProbeRegistry,
    ProbeRegistryError,
    ProbeRun,
    builtin_registry,
    register,
)

__all__ = ["ENTRY_POINT_GROUP", "REGISTRY", "UNKNOWN", "CpuFacts", "DiskFacts", "HostFacts", "MemoryFacts",
           "MountFacts", "NicFacts", "NoProbeWorked", "Probe", "ProbeFailure", "ProbeRegistry",
           "ProbeRegistryError", "ProbeRun",
           "builtin_registry", "register"]
