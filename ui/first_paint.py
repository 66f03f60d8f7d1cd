"""Work that waits until a window has been painted once (issue #30: start-up is measured to the
first paint of the main window). Opening the knowledge base in a worker, the welcome, the
application-wide tooltip filter and the parts of a form below the fold start right after it, at
the next turn of the event loop: the user sees the window a moment sooner and the rest follows."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

#: a window that is never painted (hidden, minimised at start) still gets its work done after this
FALLBACK_MS = 1500


class _FirstPaint(QObject):
    """Event filter on one widget: runs its callbacks once, after the widget's first paint event."""

    def __init__(self, widget: QWidget, fallback_ms: int | None):
        super().__init__(widget)
        self.widget = widget
        self.callbacks: list[Callable[[], object]] = []
        self.painted = False
        self.ran = False
        widget.installEventFilter(self)
        if fallback_ms is not None:
            QTimer.singleShot(fallback_ms, self, self._run)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        if obj is self.widget and event.type() == QEvent.Type.Paint and not self.painted:
            self.painted = True
            self.widget.removeEventFilter(self)
            QTimer.singleShot(0, self, self._run)  # after the whole paint (children, flush)
        return False

    def _run(self) -> None:
        if self.ran:
            return
        self.ran = True
        self.widget.removeEventFilter(self)
        callbacks, self.callbacks = self.callbacks, []
        for callback in callbacks:
            callback()


def after_first_paint(widget: QWidget, callback: Callable[[], object], fallback_ms: int | None = FALLBACK_MS) -> None:
    """Call ``callback`` once ``widget`` has been painted for the first time (at the next turn of the
    event loop after its first paint event); at the next turn when that has happened already. With a
    ``fallback_ms`` it runs after that many milliseconds when no paint came (None: only on a paint)."""
    hook = getattr(widget, "_first_paint_hook", None)
    if hook is None:
        hook = widget._first_paint_hook = _FirstPaint(widget, fallback_ms)
    if hook.ran:
        QTimer.singleShot(0, widget, callback)
    else:
        hook.callbacks.append(callback)

