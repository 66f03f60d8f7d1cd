"""Editor widgets of the scenario forms and tables that behave in a long, scrolled form:

- :class:`NumberEdit` takes any text. A number is a number; empty is "not set"; anything else
  is passed on as typed so that the core's validation names the problem next to the field
  (nothing is clamped to a range or dropped). Up/Down step it; the mouse wheel steps it only
  while it has the keyboard focus, so scrolling the form never changes a value.
- :class:`ChoiceBox` is a combo box the wheel changes only while it has the focus.
- Both leave Ctrl+Z / Ctrl+Shift+Z to the window, whose undo covers every edit of the document.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QObject, QRect, Qt, Signal
from PySide6.QtGui import QKeySequence, QPainter, QPalette
from PySide6.QtWidgets import QComboBox, QLineEdit, QStyle, QStyleOptionFrame, QWidget

_UNDO_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo)


def is_undo_key(event) -> bool:
    """True for the platform's undo or redo key (the window's undo handles those)."""
    return any(event.matches(k) for k in _UNDO_KEYS)


def parse_number(text: str, integer: bool = False, unit: str = ""):
    """The number typed in ``text`` (``,`` or ``.`` as the decimal mark, an optional trailing
    ``unit``); ``None`` for empty text; the stripped text itself when it is not a number."""
    t = text.strip()
    if unit and t.lower().endswith(unit.lower()):
        t = t[: -len(unit)].strip()
    if not t:
        return None
    t = t.replace("\u2212", "-").replace(" ", "")
    if "," in t and "." not in t:
        t = t.replace(",", ".")
    try:
        value = float(t)
    except ValueError:
        return text.strip()
    if not math.isfinite(value):
        return text.strip()
    if integer and value == int(value):
        return int(value)
    return value


def format_number(value, decimals: int = 6) -> str:
    """A number as typed by a person: no trailing zeros, no exponent for ordinary magnitudes."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if abs(value) >= 1e15 or 0 < abs(value) < 10 ** -decimals:
        return f"{value:.12g}".replace("e+", "e")  # 1e300, not its 301 digits
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    text = f"{value:.{decimals}f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


class _UndoIsTheWindows:
    """A field whose undo and redo keys are the window's while it has the focus (and which a
    wheel turn changes no more once it has lost it)."""

    def focusInEvent(self, event) -> None:  # noqa: N802 - Qt override
        _focus_entered(self)
        super().focusInEvent(event)  # type: ignore[misc]

    def focusOutEvent(self, event) -> None:  # noqa: N802 - Qt override
        _focus_left(self)
        super().focusOutEvent(event)  # type: ignore[misc]


class _ArmedByClick(_UndoIsTheWindows):
    """A field the wheel changes only after a click into it (:func:`wheel_allowed`)."""

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.setProperty(_CLICKED, True)  # type: ignore[attr-defined]
        super().mousePressEvent(event)  # type: ignore[misc]


class NumberEdit(_ArmedByClick, QLineEdit):
    """A number field with its unit drawn inside on the right. ``sig_edited(value)`` on every
    keystroke or step: a number, ``None`` when emptied, or the text when it is not a number."""

    sig_edited = Signal(object)

    def __init__(self, unit: str = "", integer: bool = False, step: float = 1.0, optional: bool = False,
                 parent=None):
        super().__init__(parent)
        self.unit, self.integer, self.step, self.optional = unit, integer, step, optional
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # the wheel does not take the focus
        self.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if optional:
            self.setPlaceholderText("not set")
        self.textEdited.connect(lambda _t: self.sig_edited.emit(self.value()))
        self._update_margins()

    # --- value ---------------------------------------------------------------------------
    def value(self):
        """The number shown, ``None`` when empty, or the text when it is not a number."""
        return parse_number(self.text(), self.integer, self.unit)

    def setValue(self, value) -> None:  # noqa: N802 - Qt-style, like QSpinBox
        """Show ``value`` unless the text already says it (a half-typed ``2.`` stays)."""
        if self.value() == value and (value is None) == (self.text().strip() == ""):
            return
        self.setText(format_number(value))
        self.setCursorPosition(len(self.text()))

    def step_by(self, steps: int) -> None:
        """Step the number by ``steps`` times the field's step (as the user would)."""
        v = self.value()
        if isinstance(v, str):
            return
        base = 0 if v is None else v
        new = base + steps * (1 if self.integer else self.step)
        new = int(round(new)) if self.integer else round(new, 10)
        self.setText(format_number(new))
        self.sig_edited.emit(self.value())

    # --- input (the wheel steps it only after a click into it: _ArmedByClick) ------------
    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt override
        key = event.key()
        if key in (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
            n = 10 if key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown) else 1
            self.step_by(n if key in (Qt.Key.Key_Up, Qt.Key.Key_PageUp) else -n)
            return
        super().keyPressEvent(event)

    def wheelEvent(self, event) -> None:  # noqa: N802 - Qt override
        if not wheel_allowed(self):
            event.ignore()  # the form under it scrolls
            return
        steps = event.angleDelta().y() // 120
        if steps:
            self.step_by(int(steps))
        event.accept()

    # --- unit inside the field ---------------------------------------------------------
    def _unit_width(self) -> int:
        return self.fontMetrics().horizontalAdvance(f" {self.unit} ") if self.unit else 0

    def _update_margins(self) -> None:
        self.setTextMargins(0, 0, self._unit_width(), 0)

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._update_margins()

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().paintEvent(event)
        if not self.unit:
            return
        opt = QStyleOptionFrame()
        self.initStyleOption(opt)
        area = self.style().subElementRect(QStyle.SubElement.SE_LineEditContents, opt, self)
        p = QPainter(self)
        p.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
        w = self._unit_width()
        p.drawText(QRect(area.right() - w + 1, area.top(), w, area.height()),
                   int(Qt.AlignmentFlag.AlignCenter), self.unit)
        p.end()

    def sizeHint(self):  # noqa: N802 - Qt override
        hint = super().sizeHint()
        hint.setWidth(max(hint.width() // 2, self.fontMetrics().horizontalAdvance("0" * 9)) + self._unit_width())
        return hint

    def minimumSizeHint(self):  # noqa: N802 - Qt override
        hint = super().minimumSizeHint()
        hint.setWidth(self.fontMetrics().horizontalAdvance("0" * 5) + self._unit_width())
        return hint


class ChoiceBox(_ArmedByClick, QComboBox):
    """A combo box that the mouse wheel changes only while it has the keyboard focus."""

    def __init__(self, parent=None):
        from ui.choice_access import name_choices

        name_choices()  # before a screen reader first asks about it: its own name, its choice the value
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, event) -> None:  # noqa: N802 - Qt override
        if not wheel_allowed(self):
            event.ignore()
            return
        super().wheelEvent(event)


class TextEdit(_UndoIsTheWindows, QLineEdit):
    """A line edit whose Ctrl+Z is the window's undo (over the whole document)."""


class _WindowUndo(QObject):
    """On the field that has the focus (only there: every event of every field through Python
    would slow building and painting a form down, issue #30): its undo and redo keys are left to
    the window, whose undo covers every edit of the document."""

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.ShortcutOverride and is_undo_key(event):
            event.ignore()  # not the field's own undo: the window's
            return True
        return False


def _focus_entered(field: QWidget) -> None:
    guard = getattr(field, "_window_undo", None)
    if guard is None:
        guard = field._window_undo = _WindowUndo(field)  # goes with the field
    field.installEventFilter(guard)


def _focus_left(field: QWidget) -> None:
    guard = getattr(field, "_window_undo", None)
    if guard is not None:
        field.removeEventFilter(guard)
    field.setProperty(_CLICKED, False)  # a wheel turn over it scrolls the form again


#: the dynamic property set on a field the user clicked into (cleared when it loses the focus)
_CLICKED = "_wheelArmed"


def wheel_allowed(widget: QWidget) -> bool:
    """The wheel changes a field only after a click into it, while it keeps the focus: a field
    reached with Tab (the focus passing through it) is not changed by a wheel turn meant to
    scroll the form."""
    return widget.hasFocus() and bool(widget.property(_CLICKED))


class WheelGuard(QObject):
    """An event filter that arms a field on a click into it, disarms it when it loses the focus,
    and lets the wheel change it only while armed (else the view under it scrolls). Installed on
    the app's own fields and, by :func:`guard_wheel`, on Qt's spin boxes and combo boxes."""

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        field = self.parent()
        if kind == QEvent.Type.MouseButtonPress and isinstance(field, QWidget):
            field.setProperty(_CLICKED, True)  # (a click into a spin box's text reaches its line edit)
        elif kind == QEvent.Type.FocusOut and isinstance(obj, QWidget):
            obj.setProperty(_CLICKED, False)
        elif kind == QEvent.Type.Wheel and isinstance(obj, QWidget) and not wheel_allowed(obj):
            event.ignore()
            return True
        return False


def guard_wheel(*widgets: QWidget) -> None:
    """Let the wheel change ``widgets`` only while they have the focus (and not take it)."""
    for w in widgets:
        guard = w.findChild(WheelGuard) or WheelGuard(w)
        w.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        w.installEventFilter(guard)
        for child in w.findChildren(QLineEdit):
            child.installEventFilter(guard)
