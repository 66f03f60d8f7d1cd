"""Connecting actions: the one place ``QAction.triggered`` is connected.

``triggered(bool)`` passes its ``checked`` flag to the slot, and a method with an optional first
parameter takes it as that parameter (``import_inventory(paths=False)`` returned at once: File >
Import inventory... did nothing). :func:`on_trigger` calls a zero-argument callable instead."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QAction


def on_trigger(action: QAction, fn: Callable[[], object]) -> QAction:
    """Run ``fn()`` (no arguments) when ``action`` is triggered; the ``checked`` flag of
    ``triggered(bool)`` is dropped here, never passed on to a slot's optional parameter."""

    def run(_checked: bool = False) -> None:
        fn()

    action.triggered.connect(run)
    return action
