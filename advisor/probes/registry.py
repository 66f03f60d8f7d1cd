"""The registry of hardware probes: built-ins registered in code, third parties through
:func:`register` or the entry-point group ``capadvisor.probes``, which the process-wide
:data:`REGISTRY` loads itself, lazily, on first use (so every front end sees the same probes).

Duplicate names: the first registration wins (built-ins come first); a later one with a taken
name is refused with :class:`ProbeRegistryError` (reported as a plug-in failure when it comes
from an entry point) -- the same policy as the importer registry. :meth:`ProbeRegistry.unregister`
removes a probe deliberately.

:meth:`ProbeRegistry.run` tries the probes supporting the platform from the highest
priority down and returns the first facts it gets; a probe that raises or returns something
other than :class:`HostFacts` is reported in ``ProbeRun.failures`` and skipped, never fatal.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field

from advisor.probes.base import ENTRY_POINT_GROUP, Probe, ProbeFailure
from advisor.probes.facts import HostFacts
from advisor.progress import Cancelled, CancelToken, ProgressCallback, check
from knowledge.infra.errors import RegistryError
from knowledge.infra.plugins import load_entry_points

log = logging.getLogger(__name__)


@dataclass
class ProbeRun:
    """The outcome of :meth:`ProbeRegistry.run`: the facts and every probe that failed."""

    facts: HostFacts
    failures: list[ProbeFailure] = field(default_factory=list)


class ProbeRegistryError(RegistryError):
    """The probe registry refused a request (unknown name, name taken, not a probe); a
    user-facing message."""


class NoProbeWorked(ProbeRegistryError):  # noqa: N818 - reads better at the raise site
    """No probe could read this machine (the message lists every failure); exit status 1."""

    exit_code = 1


class ProbeRegistry:
    """Probes by name; :meth:`register` accepts a :class:`Probe` subclass or instance. With
    ``entry_point_group``, that group's plug-ins are loaded on first use."""

    def __init__(self, *, entry_point_group: str | None = None) -> None:
        self._probes: dict[str, Probe] = {}
        self.entry_point_group = entry_point_group
        self._load_failures: list[ProbeFailure] | None = None if entry_point_group else []

    def load_plugins(self) -> list[ProbeFailure]:
        """Load the entry-point plug-ins once; returns the ones that failed (stage ``load``)."""
        if self._load_failures is None:
            self._load_failures = []
            self._load_failures.extend(
                ProbeFailure(f.name, "load", f"{f.value}: {f.error}")
                for f in load_entry_points(self.entry_point_group or "", self.register))
        return list(self._load_failures)

    @property
    def plugin_failures(self) -> list[ProbeFailure]:
        return self.load_plugins()

    def register(self, probe: object) -> Probe:
        """Add ``probe`` (a class is instantiated without arguments). A name already taken is
        refused (the first registration wins), as is an object that is not a probe: both raise
        :class:`ProbeRegistryError`."""
        try:
            instance = probe() if isinstance(probe, type) else probe
        except Exception as exc:  # noqa: BLE001 - a probe class that cannot be made is the plug-in's error
            raise ProbeRegistryError(f"probe {probe!r} could not be created: {type(exc).__name__}: {exc}"
                                     ) from exc
        name = getattr(instance, "name", None)
        if not isinstance(name, str) or not name:
            raise ProbeRegistryError(f"{probe!r} is not a probe: it needs a non-empty str 'name'")
        if not callable(getattr(instance, "probe", None)):
            raise ProbeRegistryError(f"probe {name!r} has no probe(progress, cancel) method")
        platforms = getattr(instance, "platforms", None)
        if not platforms or isinstance(platforms, str):
            raise ProbeRegistryError(f"probe {name!r}: 'platforms' must be a tuple of platform prefixes")
        if not callable(getattr(instance, "supports", None)):
            raise ProbeRegistryError(f"probe {name!r} has no supports(platform) method; subclass Probe")
        if name in self._probes:
            raise ProbeRegistryError(f"a probe named {name!r} is already registered "
                                     "(the first registration wins)")
        self._probes[name] = instance  # type: ignore[assignment]
        return instance  # type: ignore[return-value]

    def unregister(self, name: str) -> None:
        """Remove the probe named ``name`` if present."""
        self._probes.pop(name, None)

    def names(self) -> list[str]:
        self.load_plugins()
        return list(self._probes)

    def get(self, name: str) -> Probe:
        """The probe named ``name``; :class:`ProbeRegistryError` if none."""
        self.load_plugins()
        try:
            return self._probes[name]
        except KeyError:
            raise ProbeRegistryError(f"no probe named {name!r} (known: {', '.join(self._probes) or 'none'})"
                                     ) from None

    def copy(self) -> ProbeRegistry:
        """A registry with the same probes, plug-ins included (so more can be added without
        touching this one)."""
        failures = self.load_plugins()
        other = ProbeRegistry()
        other._probes = dict(self._probes)
        other._load_failures = failures
        return other

    def candidates(self, platform: str | None = None) -> list[Probe]:
        """The probes supporting ``platform`` (default: this one), highest priority first."""
        platform = sys.platform if platform is None else platform
        self.load_plugins()
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

        Raises :class:`advisor.progress.Cancelled` when cancelled, :class:`ProbeRegistryError`
        for an unknown ``only`` and :class:`NoProbeWorked` when no probe succeeded (the message
        lists every failure).
        """
        probes = self.candidates(platform)
        if only is not None:
            probes = [p for p in probes if p.name == only]
            if not probes:
                raise ProbeRegistryError(f"no probe named {only!r} for this platform "
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
        raise NoProbeWorked(f"no hardware probe worked on {platform or sys.platform}: {detail}")


def builtin_registry(entry_point_group: str | None = None) -> ProbeRegistry:
    """A new registry holding the built-in probes (Linux, portable psutil fallback), plus the
    plug-ins of ``entry_point_group`` (loaded on first use) when given."""
    from advisor.probes.linux import LinuxProbe
    from advisor.probes.portable import PsutilProbe

    reg = ProbeRegistry(entry_point_group=entry_point_group)
    reg.register(LinuxProbe)
    reg.register(PsutilProbe)
    return reg


#: the process-wide registry: built-ins, the entry-point plug-ins (on first use), whatever third parties register()
REGISTRY = builtin_registry(ENTRY_POINT_GROUP)


def register(probe: object) -> Probe:
    """Register a third-party probe (class or instance) in the process-wide registry."""
    return REGISTRY.register(probe)
