"""The probe interface every hardware probe implements, built-in or third-party.

A probe has a ``name``, the ``platforms`` it supports (``sys.platform`` prefixes such as
``"linux"``, or ``"*"`` for any), a ``priority`` (higher is tried first) and
``probe(progress=None, cancel=None) -> HostFacts``. Third parties subclass :class:`Probe`
(or provide the same attributes) and publish the class in the entry-point group
``capadvisor.probes``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from advisor.probes.facts import HostFacts
from advisor.progress import CancelToken, ProgressCallback

ENTRY_POINT_GROUP = "capadvisor.probes"


class Probe:
    """Base class of hardware probes; subclasses override :meth:`probe`."""

    #: unique, short name shown to users ("linux", "psutil")
    name: str = ""
    #: sys.platform prefixes this probe runs on; "*" means every platform
    platforms: tuple[str, ...] = ("*",)
    #: among the probes supporting a platform, the highest priority is tried first
    priority: int = 0

    def supports(self, platform: str | None = None) -> bool:
        """True if this probe runs on ``platform`` (default: the running one)."""
        platform = sys.platform if platform is None else platform
        return any(p == "*" or platform.startswith(p) for p in self.platforms)

    def probe(self, progress: ProgressCallback | None = None,
              cancel: CancelToken | None = None) -> HostFacts:
        """Read this machine and return its facts; never needs root."""
        raise NotImplementedError


@dataclass(frozen=True)
class ProbeFailure:
    """A probe that could not be loaded or that failed while probing, and why."""

    name: str
    stage: str          # "load", "register" or "probe"
    error: str
