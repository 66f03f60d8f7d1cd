"""Loading third-party plug-ins from entry points, never fatally.

Built-in probes and importers are registered in code (PyInstaller does not carry entry
points); third parties add theirs through the entry-point groups ``capadvisor.probes`` and
``capadvisor.importers``. A plug-in that fails to load is reported and skipped.
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


def load_entry_points(group: str, register: Callable[[object], None]) -> list[PluginFailure]:
    """Load every entry point of ``group`` and pass the loaded object to ``register``.

    Returns the failures (import errors, exceptions from ``register``); never raises.
    """
    failures: list[PluginFailure] = []
    try:
        entry_points = metadata.entry_points(group=group)
    except Exception as exc:  # a broken distribution's metadata must not stop the app
        return [PluginFailure(group, "*", "", f"cannot list entry points: {exc}")]
    for ep in entry_points:
        try:
            register(ep.load())
        except Exception as exc:  # noqa: BLE001 - any plug-in error is reported, never fatal
            msg = f"{type(exc).__name__}: {exc}"
            log.warning("plug-in %s (%s) of %s failed: %s", ep.name, ep.value, group, msg)
            failures.append(PluginFailure(group, ep.name, ep.value, msg))
    return failures
