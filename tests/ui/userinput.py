"""Input as a user gives it, for QTest-driven tests: a click goes to the widget under the mouse
(not to a widget the test picks), keys go to the widget that has the keyboard focus."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget


def widget_at(window: QWidget, pos_in: QWidget, point: QPoint) -> tuple[QWidget, QPoint]:
    """The deepest visible widget of ``window`` under ``point`` (in ``pos_in``'s coordinates),
    and the point in that widget's coordinates."""
    global_point = pos_in.mapToGlobal(point)
    local = window.mapFromGlobal(global_point)
    target = window.childAt(local) or window
    return target, target.mapFromGlobal(global_point)


def scroll_into_view(widget: QWidget) -> None:
    """Scroll every scroll area around ``widget`` so that it is visible (as a user would)."""
    from PySide6.QtWidgets import QScrollArea

    QApplication.processEvents()
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QScrollArea) and parent.widget() is not None and parent.widget().isAncestorOf(widget):
            parent.ensureWidgetVisible(widget, 10, 10)
        parent = parent.parentWidget()
    QApplication.processEvents()


def click(window: QWidget, pos_in: QWidget, point: QPoint | None = None,
          button=Qt.MouseButton.LeftButton, double: bool = False) -> QWidget:
    """Click where a user would: at ``point`` of ``pos_in`` (its centre by default), delivered to
    whatever widget is there. Returns that widget."""
    QApplication.processEvents()  # pending layouts first: the user sees the laid-out window
    scroll_into_view(pos_in)
    point = pos_in.rect().center() if point is None else point
    target, local = widget_at(window, pos_in, point)
    QTest.mouseMove(target, local)
    if double:
        QTest.mouseDClick(target, button, Qt.KeyboardModifier.NoModifier, local)
    else:
        QTest.mouseClick(target, button, Qt.KeyboardModifier.NoModifier, local)
    QApplication.processEvents()
    return target


def focus() -> QWidget:
    """The widget that has the keyboard focus (keys go there)."""
    w = QApplication.focusWidget()
    assert w is not None, "no widget has the keyboard focus"
    return w


def type_text(text: str) -> None:
    """Type ``text`` into whichever widget has the focus, key by key."""
    for ch in text:
        QTest.keyClicks(focus(), ch)
        QApplication.processEvents()


def key(k, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    """Press and release one key in the focused widget (shortcuts included)."""
    QTest.keyClick(focus(), k, modifier)
    QApplication.processEvents()


def wheel(window: QWidget, pos_in: QWidget, point: QPoint | None = None, steps: int = -1,
          modifiers=Qt.KeyboardModifier.NoModifier) -> QWidget:
    """Turn the mouse wheel over ``point`` of ``pos_in`` (negative = towards the user, scrolling down);
    the event goes to the widget under the mouse and travels up to its parents while it is
    ignored, as Qt does with a wheel turn of the real mouse."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QWheelEvent

    point = pos_in.rect().center() if point is None else point
    target, _local = widget_at(window, pos_in, point)
    global_point = pos_in.mapToGlobal(point)
    w = target
    while w is not None:
        local = w.mapFromGlobal(global_point)
        ev = QWheelEvent(QPointF(local), QPointF(global_point), QPoint(0, 0), QPoint(0, 120 * steps),
                         Qt.MouseButton.NoButton, modifiers, Qt.ScrollPhase.NoScrollPhase, False)
        ev.ignore()
        QApplication.sendEvent(w, ev)
        if ev.isAccepted() or w.isWindow():
            break
        w = w.parentWidget()
    QApplication.processEvents()
    return target
