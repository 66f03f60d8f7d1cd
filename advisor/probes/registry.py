"""The registry of hardware probes: built-ins registered in code, third parties through
:func:`register` (the CLI feeds it the entry-point group ``capadvisor.probes``).

:meth:`ProbeRegistry.run` tries the probes supporting the platform from the highest
priority down and returns the first facts it gets; a probe that raises or returns something
other than :class:`HostFacts` is reported in ``ProbeRun.failures`` and skipped, never fatal.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field

from advisor.probes.base import Probe, ProbeFailure
from advisor.probes.facts import HostFacts
from advisor.progress import Cancelled, CancelToken, ProgressCallback, check

log = logging.getLogger(__name__)


@dataclass
class ProbeRun:
    """The outcome of :meth:`ProbeRegistry.run`: the facts and every probe that failed."""

    facts: HostFacts
    failures: list[ProbeFailure] = field(default_factory=list)


class ProbeRegistry:
    """Probes by name; :meth:`register` accepts a :class:`Probe` subclass or instance."""

    def __init__(self) -> None:
        self._probes: dict[str, Probe] = {}

    def register(self, probe: object) -> Probe:
        """Add ``probe`` (a class is instantiated without arguments); a later probe with the
        same name replaces the earlier one. Raises TypeError for an object that is not a probe."""
        instance = probe() if isinstance(probe, type) else probe
        name = getattr(instance, "name", None)
        if not isinstance(name, str) or not name:
            raise TypeError(f"{probe!r} is not a probe: it needs a non-empty str 'name'")
        if not callable(getattr(instance, "probe", None)):
            raise TypeError(f"probe {name!r} has no probe(progress, cancel) method")
        platforms = getattr(instance, "platforms", None)
        if not platforms or isinstance(platforms, str):
            raise TypeError(f"probe {name!r}: 'platforms' must be a tuple of platform prefixes")
        if not callable(getattr(instance, "supports", None)):
            raise TypeError(f"probe {name!r} has no supports(platform) method; subclass Probe")
        self._probes[name] = instance  # type: ignore[assignment]
        return instance  # type: ignore[return-value]

    def unregister(self, name: str) -> None:
        """Remove the probe named ``name`` if present."""
        self._probes.pop(name, None)

    def names(self) -> list[str]:
        return list(self._probes)

    def get(self, name: str) -> Probe:
        """The probe named ``name``; KeyError if none."""
        return self._probes[name]

    def copy(self) -> ProbeRegistry:
        """A registry with the same probes (so plug-ins can be added without touching this one)."""
        other = ProbeRegistry()
        other._probes = dict(self._probes)
        return other

    def candidates(self, platform: str | None = None) -> list[Probe]:
        """The probes supporting ``platform`` (default: this one), highest priority first."""
        platform = sys.platform if platform is None else platform
        found = []
        for p in self._probes.values():
            try:
                if p.supports(platform):
                    found.append(p)
            except Exception as exc:  # noqa: BLE001 - a broken plug-in must not stop the others
                log.warning("probe %s: supports() failed: %s", p.name, exc)
        return sorted(found, key=lambda p: -int(getattr(p, "priority", 0) or 0))

    def run(self, progress: ProgressCallback | None = None, cancel: CancelToken | None = None,
            platform: str | None = None, only: str | None = None) -> ProbeRun:
        """Probe this machine with the best working probe (or only the probe named ``only``).

        Raises :class:`advisor.progress.Cancelled` when cancelled and RuntimeError when no
        probe succeeded (the message lists every failure).
        """
        probes = self.candidates(platform)
        if only is not None:
            probes = [p for p in probes if p.name == only]
            if not probes:
                raise KeyError(f"no probe named {only!r} for this platform "
                               f"(known: {', '.join(self.names()) or 'none'})")
        failures: list[ProbeFailure] = []
        for p in probes:
            check(cancel)
            try:
                facts = p.probe(progress=progress, cancel=cancel)
            except Cancelled:
                raise
            except Exception as exc:  # noqa: BLE001 - reported and skipped
                log.warning("probe %s failed: %s: %s", p.name, type(exc).__name__, exc)
                failures.append(ProbeFailure(p.name, "probe", f"{type(exc).__name__}: {exc}"))
                continue
            if not isinstance(facts, HostFacts):
                failures.append(ProbeFailure(p.name, "probe",
                                             f"returned {type(facts).__name__}, not HostFacts"))
                continue
            return ProbeRun(facts, failures)
        detail = "; ".join(f"{f.name}: {f.error}" for f in failures) or "no probe supports it"
        raise RuntimeError(f"no hardware probe worked on {platform or sys.platform}: {detail}")


def builtin_registry() -> ProbeRegistry:
    """A new registry holding the built-in probes (Linux, portable psutil fallback)."""
    from advisor.probes.linux import LinuxProbe
    from advisor.probes.portable import PsutilProbe

    reg = ProbeRegistry()
    reg.register(LinuxProbe)
    reg.register(PsutilProbe)
    return reg


#: the process-wide registry: built-ins plus whatever third parties register()
REGISTRY = builtin_registry()


def register(probe: object) -> Probe:
    """Register a third-party probe (class or instance) in the process-wide registry."""
    return REGISTRY.register(probe)
