"""Loading third-party plug-ins from entry points, never fatally.

Built-in probes and importers are registered in code (PyInstaller does not carry entry
points); third parties add theirs through the entry-point groups ``capadvisor.probes`` and
``capadvisor.importers``. The registries (:mod:`knowledge.importers.registry`,
:mod:`advisor.probes.registry`) call :func:`load_entry_points` themselves, lazily, the first
time they are asked for their contents, so the CLI, the GUI and any other front end see the
same plug-ins. A plug-in that fails to load or to register is reported and skipped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PluginFailure:
    """A plug-in that could not be loaded: which one, from where, and why."""

    group: str
    name: str
    value: str
    error: str

    def __str__(self) -> str:
        return f"plug-in {self.name} ({self.value}) of {self.group} not loaded: {self.error}"


def load_entry_points(group: str, register: Callable[[object], object]) -> list[PluginFailure]:
    """Load every entry point of ``group`` and pass the loaded object to ``register``.

    Returns the failures (import errors, exceptions from ``register`` such as a name already
    taken); never raises.
    """
    failures: list[PluginFailure] = []
    try:
        entry_points = metadata.entry_points(group=group)
    except Exception as exc:  # noqa: BLE001 - a broken distribution's metadata must not stop the app
        return [PluginFailure(group, "*", "", f"cannot list entry points: {exc}")]
    for ep in sorted(entry_points, key=lambda e: (e.name, e.value)):
        try:
            register(ep.load())
        except Exception as exc:  # noqa: BLE001 - any plug-in error is reported, never fatal
            msg = f"{type(exc).__name__}: {exc}"
            # returned, and the caller tells the user (CLI warning, GUI status bar): at info level
            # here, so that Python's last-resort handler does not print it a second time
            log.info("plug-in %s (%s) of %s failed: %s", ep.name, ep.value, group, msg)
            failures.append(PluginFailure(group, ep.name, ep.value, msg))
    return failures
