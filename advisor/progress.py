"""Progress reporting and cancellation for long operations, free of any GUI toolkit.

A long function takes ``progress: ProgressCallback | None`` and ``cancel: CancelToken | None``.
The Qt worker (ui/workers.py) passes a callback that emits a signal; the CLI passes a text
progress bar; tests pass nothing or a recorder.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

#: progress(fraction in [0, 1], message)
ProgressCallback = Callable[[float, str], None]


class Cancelled(Exception):  # noqa: N818 - reads better at the raise site
    """Raised inside a long operation when its cancel token was set."""


class CancelToken:
    """A thread-safe flag a long operation polls with :meth:`raise_if_cancelled`."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        """Ask the operation to stop at its next check."""
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        """Raise :class:`Cancelled` if :meth:`cancel` was called."""
        if self._event.is_set():
            raise Cancelled()


def report(progress: ProgressCallback | None, fraction: float, message: str = "") -> None:
    """Call ``progress`` if given, clamping the fraction to [0, 1]."""
    if progress is not None:
        progress(min(1.0, max(0.0, float(fraction))), message)


def check(cancel: CancelToken | None) -> None:
    """Raise :class:`Cancelled` if ``cancel`` is set (no-op for ``None``)."""
    if cancel is not None:
        cancel.raise_if_cancelled()
