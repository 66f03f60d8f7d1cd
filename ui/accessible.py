"""Accessible names for every interactive widget of the application, so that a screen reader says
"Hosts, edit, 6" rather than "edit, 6" (or "slider, 46").

Widgets that know their name set it themselves (charts, sliders, the data tables). For the rest
an application-wide event filter names each interactive widget when it is first shown, if Qt
finds no name for it (no text, no buddy label): from the label of its form row, its group's
title, the first clause of its tooltip, its placeholder text, and last its object name. The
tooltip stays the accessible description (Qt's own default).

A drop-down list (a combo box that is not editable) is named the same way, though Qt names it by its
current choice: on Linux Qt's own interface says "medium, combo box" for CPU intensity, whatever the
box's accessible name. Its interface (:mod:`ui.choice_access`) says its name and has its choice
as the value: "CPU intensity, combo box, medium"."""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QScrollBar,
    QTabBar,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from ui.choice_access import name_choices

#: the widget classes a user operates (and a screen reader must name)
INTERACTIVE = (QAbstractButton, QAbstractSlider, QAbstractSpinBox, QComboBox, QLineEdit, QTextEdit,
               QPlainTextEdit, QAbstractItemView, QTabBar)

_TAGS = re.compile(r"<[^>]+>")


def accessible_name(widget: QWidget) -> str:
    """The name a screen reader announces for ``widget`` (Qt's, from its text or buddy label)."""
    iface = QAccessible.queryAccessibleInterface(widget)
    return iface.text(QAccessible.Text.Name).strip() if iface is not None else ""


def is_interactive(widget: QWidget) -> bool:
    return isinstance(widget, INTERACTIVE) and not isinstance(widget, QScrollBar)


def _clean(text: str) -> str:
    text = _TAGS.sub("", text or "").replace("&&", "\0").replace("&", "").replace("\0", "&")
    return " ".join(text.split()).rstrip(":").strip()


def _first_clause(text: str, limit: int = 70) -> str:
    text = _clean(text)
    for sep in (". ", "; ", " (", ": "):
        if sep in text:
            text = text.split(sep, 1)[0]
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"


def _form_label(widget: QWidget) -> str:
    w: QWidget | None = widget
    for _ in range(3):  # the field, or an editor row around it
        parent = w.parentWidget() if w is not None else None
        if parent is None or w is None:
            return ""
        layout = parent.layout()
        if isinstance(layout, QFormLayout):
            label = layout.labelForField(w)
            if isinstance(label, QLabel) and _clean(label.text()):
                return _clean(label.text())
        w = parent
    return ""


def _group_title(widget: QWidget) -> str:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QGroupBox) and _clean(parent.title()):
            return _clean(parent.title())
        parent = parent.parentWidget()
    return ""


def _tab_title(widget: QWidget) -> str:
    """The title of the tab page ``widget`` is (or lies on), in a tab widget."""
    w: QWidget | None = widget
    while w is not None:
        stack = w.parentWidget()
        tabs = stack.parentWidget() if stack is not None else None
        if isinstance(tabs, QTabWidget) and tabs.indexOf(w) >= 0:
            return _clean(tabs.tabText(tabs.indexOf(w)))
        w = stack
    return ""


def _scroll_bar_name(bar: QScrollBar) -> str:
    word = "Scroll up and down" if bar.orientation() == Qt.Orientation.Vertical else "Scroll left and right"
    area = bar.parentWidget()
    while area is not None and not isinstance(area, QAbstractScrollArea):
        area = area.parentWidget()
    name = (area.accessibleName() or _tab_title(area)) if area is not None else ""
    return f"{word}: {name}" if name else word


def derived_name(widget: QWidget) -> str:
    """A name for ``widget`` from what the user sees around it (see the module doc)."""
    if widget.objectName() == "qt_tableview_cornerbutton":
        return "Select all cells"
    field = widget.parentWidget()
    if isinstance(widget, QAbstractButton) and isinstance(field, QLineEdit):  # its clear button
        what = accessible_name(field) or derived_name(field)
        return f"Clear {what}" if what else "Clear the field"
    if isinstance(widget, QHeaderView):
        return "Column headers" if widget.orientation() == Qt.Orientation.Horizontal else "Row headers"
    name = _form_label(widget)
    if not name and isinstance(widget, QAbstractItemView | QComboBox):
        group = _group_title(widget) or (_tab_title(widget) if isinstance(widget, QAbstractItemView) else "")
        kind = "table" if isinstance(widget, QAbstractItemView) else "choice"
        name = f"{group} {kind}" if group else ""
    if not name and widget.toolTip():
        name = _first_clause(widget.toolTip())
    if not name and isinstance(widget, QLineEdit) and widget.placeholderText():
        name = _clean(widget.placeholderText())
    if not name and widget.objectName() and not widget.objectName().startswith("qt_"):
        words = re.sub(r"^(field|target|slider|table)_", "", widget.objectName()).replace("_", " ")
        name = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", words).strip().capitalize()
    return name


def name_widget(widget: QWidget) -> None:
    """Give ``widget`` an accessible name when it is interactive and has none (a drop-down list's
    name from Qt is its current choice: it gets one of its own)."""
    name_choices()
    if isinstance(widget, QScrollBar):
        if not widget.accessibleName():
            widget.setAccessibleName(_scroll_bar_name(widget))
        return
    if not is_interactive(widget) or widget.accessibleName():
        return
    if not isinstance(widget, QComboBox) and accessible_name(widget):
        return
    name = derived_name(widget)
    if name:
        widget.setAccessibleName(name)


def name_all(root: QWidget) -> None:
    """Name ``root`` and every widget under it (see :func:`name_widget`)."""
    name_widget(root)
    for child in root.findChildren(QWidget):
        name_widget(child)


class _Namer(QObject):
    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Show and isinstance(obj, QWidget):
            name_widget(obj)
        return False


_namer: _Namer | None = None


def install() -> None:
    """Name every interactive widget of the application as it is shown (once per application)."""
    global _namer
    name_choices()
    app = QApplication.instance()
    if _namer is None and app is not None:
        _namer = _Namer(app)
        app.installEventFilter(_namer)
