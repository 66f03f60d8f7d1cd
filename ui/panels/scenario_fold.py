"""The scenario view's columns, and what its forms show above the fold first (issue #30): the fields
the view shows are made before the window's first paint, the others right after it, each in its
place in the Tab order.

The scenario view makes as many of the workload's fields as :func:`workload_rows_in_view` expects
its window to show (with the window, before the style sheet is applied: a field made later, under
the style sheet, costs ~4x as much); :func:`fill_view` adds any its view shows beyond them when it
is shown (a window resized or maximised after it was made, an odd look), before the first paint."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ui.panels.fields import BoundForm, FieldSpec


def tab_stops(root: QWidget) -> list[QWidget]:
    """The widgets under ``root`` that Tab stops at, in the order they were made."""
    return [w for w in root.findChildren(QWidget) if w.focusPolicy() & Qt.FocusPolicy.TabFocus
            and w.focusProxy() is None and w.window() is root.window()]  # not a combo box's popup


def follow_in_tab_order(anchor: QWidget, boxes) -> None:
    """Put the fields of ``boxes`` (made after the rest of the window, so last in its Tab order)
    right after the last field of ``anchor``, in their own order."""
    chain_tab_order((tab_stops(anchor) or [anchor])[-1], boxes)


def chain_tab_order(previous: QWidget, boxes) -> None:
    """Put the fields of ``boxes`` right after ``previous`` in the Tab order, in their own order."""
    for box in boxes:
        for widget in tab_stops(box):
            QWidget.setTabOrder(previous, widget)
            previous = widget


def grow_form(form: BoundForm, count: int | None = None) -> list[QWidget]:
    """Add ``count`` (default: all) of the fields ``form`` was made without, shown, and in their
    place in the Tab order (after the form's last field); returns their labels and rows."""
    last = (tab_stops(form) or [form])[-1]
    parts = [w for spec in form.add_later(count) for w in (form.labels[spec.path], form.rows[spec.path])]
    if form.isVisible():
        for part in parts:
            part.show()  # now, not at the next turn of the event loop
    chain_tab_order(last, parts)
    return parts


def view_of(area: QScrollArea) -> QWidget:
    """``area.viewport()``, found by its name: to learn the type of what viewport() returns, PySide6
    makes the Python enums of ~80 widget classes (~5 ms before the first paint)."""
    view = area.findChild(QWidget, "qt_scrollarea_viewport", Qt.FindChildOption.FindDirectChildrenOnly)
    return view if view is not None else area.viewport()


def lay_out(*widgets: QWidget) -> None:
    """Lay ``widgets`` out now, in this order (their layout requests waiting in the event queue)."""
    for widget in widgets:
        QApplication.sendPostedEvents(widget, QEvent.Type.LayoutRequest.value)


def _y_in(widget: QWidget, area: QScrollArea) -> int:
    """Where ``widget`` (under ``area``'s widget) stands in the area's view (without QWidget.mapTo's
    QPoint: PySide6 would make its type before the first paint)."""
    y = 0
    while widget is not area.widget():
        y += widget.y()
        widget = widget.parentWidget()
    return y + widget.y()


def fill_view(form: BoundForm, area: QScrollArea) -> None:
    """Add the fields to come of ``form`` that the view of ``area`` (shown, laid out) shows, laid out
    at once, so that the form's first paint shows what the whole form would show (only the scroll
    bar's handle is shorter until the others come)."""
    view = view_of(area)
    while form.later:
        rows = [form.rows[spec.path] for spec in form.specs]
        bottom = _y_in(rows[-1], area) + rows[-1].height() if rows else 0
        if rows and bottom >= view.height():  # the fields below it start below the view
            return
        pitch = min((r.height() for r in rows), default=0) + form.form.verticalSpacing()
        grow_form(form, -(-(view.height() - bottom) // max(pitch, 1)))
        lay_out(form, area.widget(), view)  # the form, its box, the area's scroll bars


def workload_rows_in_view(specs: Sequence[FieldSpec], window: QSize, line: int) -> int:
    """How many of the workload's fields (``specs``) the scenario view of a main window of size
    ``window`` shows, at most, with lines ``line`` px high (the font's height). From its layout
    measured at 10-20 pt, each figure rounded towards more fields: the view from 4 lines + 87 px
    below the window's top to 36 px above its bottom; the fields from 38 px into it, ``line`` +
    16 px apart, a check box 20; in a window narrower than 28 lines + 490 px (the workload list
    above the form, :meth:`FoldedColumns.arrange`) the list takes 3/8 of the column, at least 10
    lines. A few more than the window shows: :func:`fill_view` adds any it shows beyond them."""
    view = window.height() - 36 - (4 * line + 87)
    if window.width() < 28 * line + 490:
        view = min(view * 5 // 8, view - 10 * line)
    y, count = 38, 0
    for spec in specs:
        if y >= view:
            break
        y += 20 if spec.kind == "bool" else line + 16
        count += 1
    return count


class FoldedColumns(QWidget):
    """The scenario view's three columns (hosts; the workload list; the workload's form), the list
    above the form when they do not fit side by side; the workload's fields the view shows made
    before the first paint (:func:`fill_view`). The base of :class:`QtScenarioPanel`, which makes
    the parts named here."""

    banner: QLabel
    middle: QWidget
    workload_box: QWidget
    workload_list: QListWidget
    _workload_form: BoundForm

    def _build_columns(self, left: QWidget) -> None:
        """Three columns; in a narrow window (or with large fonts) the workload list moves above
        the workload's form, so that no column needs horizontal scrolling."""
        self.left_scroll = _scroll(left)
        self.right_scroll = _scroll(self.workload_box)
        self.right = QWidget()
        self.right_layout = QVBoxLayout(self.right)
        self.right_layout.setContentsMargins(0, 0, 0, 0)
        self.right_layout.addWidget(self.right_scroll, 1)
        self.columns = QHBoxLayout()
        self.columns.addWidget(self.left_scroll, 5)
        self.columns.addWidget(self.middle, 3)
        self.columns.addWidget(self.right, 5)
        self.narrow = False
        root = QVBoxLayout(self)
        root.addWidget(self.banner)
        root.addLayout(self.columns, 1)

    # --- layout --------------------------------------------------------------------------
    def _needed_width(self) -> int:
        bar = self.style().pixelMetric(self.style().PixelMetric.PM_ScrollBarExtent)
        left = self.left_scroll.widget().minimumSizeHint().width() + bar
        right = self.workload_box.minimumSizeHint().width() + bar
        middle = max(self.middle.minimumSizeHint().width(), 3 * self.fontMetrics().averageCharWidth() * 8)
        return left + middle + right + 3 * self.columns.spacing()

    def arrange(self) -> bool:
        """Three columns when they fit, else the workload list above the workload's form; True when
        that changed."""
        narrow = self._needed_width() > self.width()
        if narrow == self.narrow:
            return False
        self.narrow = narrow
        if narrow:
            self.columns.removeWidget(self.middle)
            self.right_layout.insertWidget(0, self.middle, 3)
            self.right_layout.setStretchFactor(self.right_scroll, 5)
            self.workload_list.setMinimumHeight(int(self.fontMetrics().height() * 2.4 * 2.5))
            self.columns.setStretchFactor(self.left_scroll, 1)
            self.columns.setStretchFactor(self.right, 1)
        else:
            self.right_layout.removeWidget(self.middle)
            self.workload_list.setMinimumHeight(0)
            self.columns.insertWidget(1, self.middle, 3)
            self.columns.setStretchFactor(self.left_scroll, 5)
            self.columns.setStretchFactor(self.right, 5)
        return True

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if self.arrange() and self._workload_form.later and self.isVisible():
            self.right_layout.activate()  # the form's view as arranged, its scroll bars for it before a paint
            lay_out(view_of(self.right_scroll), self.workload_box)
            self._scroll_bars_now()
        self._fill_view_soon()

    def _scroll_bars_now(self) -> None:
        """The workload form's scroll bars shown or hidden for the view and fields it has now (Qt queues
        that to the next turn, which may come after a paint)."""
        QApplication.sendPostedEvents(self.right_scroll, QEvent.Type.MetaCall.value)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self._fill_view_soon()

    def _fill_view_soon(self) -> None:
        """Fill the workload form's view once the layout work in hand is done (a layout request
        after theirs: the columns laid out as they will be painted), before the first paint."""
        if self._workload_form.later and self.isVisible():
            QApplication.postEvent(self, QEvent(QEvent.Type.LayoutRequest))

    def event(self, event) -> bool:
        done = super().event(event)
        if event.type() == QEvent.Type.LayoutRequest and self._workload_form.later and self.isVisible() \
                and self.middle.isVisible():  # (moved by arrange(), the list is shown at the next turn)
            self.right_layout.activate()  # the right column as arrange() left it
            lay_out(view_of(self.right_scroll), self.workload_box)
            fill_view(self._workload_form, self.right_scroll)
            self._scroll_bars_now()
        return done

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.arrange()


def _scroll(widget: QWidget) -> QScrollArea:
    area = QScrollArea()
    area.setWidget(widget)
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    return area
