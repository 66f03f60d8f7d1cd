"""Work around reference-count bugs of PySide6 6.12 on Python < 3.12.

In this combination every ``Signal.emit`` from Python releases a reference to ``True`` it never
took, and Python overrides of C++ virtuals returning nothing (pyqtgraph's ``paint`` and friends)
release references to ``None``. On Python 3.11 these singletons are not immortal, so after
enough emits and repaints the interpreter aborts ("bool_dealloc" / "none_dealloc"), at the
latest when it exits.

:func:`install` detects the bug with one emit and, only if present, raises the reference counts
of ``True``, ``False`` and ``None`` far out of reach (2**40); :func:`top_up` does it again should
they ever come down to 2**30. Nothing is allocated; where the bug is absent (Python 3.12+ makes
these objects immortal) nothing is touched.
"""

from __future__ import annotations

import ctypes
import sys

#: reference count given to the singletons, and the level at which it is given again
HIGH, LOW = 1 << 40, 1 << 30
_affected: bool | None = None


def affected() -> bool:
    """True if emitting a signal loses a reference to ``True`` in this PySide6 / Python."""
    global _affected
    if _affected is None:
        if sys.version_info >= (3, 12):
            _affected = False
        else:
            from PySide6.QtCore import QObject, Signal

            class _Probe(QObject):
                sig = Signal()

            probe = _Probe()
            before = sys.getrefcount(True)
            for _ in range(10):
                probe.sig.emit()
            _affected = sys.getrefcount(True) < before
    return _affected


def top_up() -> bool:
    """Raise the reference counts of True, False and None if they came down; True if affected."""
    if not affected():
        return False
    for obj in (True, False, None):
        count = ctypes.c_ssize_t.from_address(id(obj))
        if count.value < LOW:
            count.value += HIGH
    return True


def install() -> None:
    """Detect the bug and protect the singletons (see the module doc)."""
    top_up()
