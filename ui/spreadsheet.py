"""Spreadsheet-like keyboard entry for every editable table of the application: typing goes to the
current cell, Tab and Shift+Tab go on cell by cell in column order (the next cell's editor opens,
so ``t4 Tab 20 Tab 2`` fills Name, Period, WCET), Enter commits, and Tab after the last cell (or
Shift+Tab before the first) leaves the table instead of wrapping round to the first cell."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemDelegate, QAbstractItemView, QTableView, QTableWidget, QWidget


class SpreadsheetKeys:
    """Mixin for a QTableView or QTableWidget (list it before the Qt class)."""

    def setup_keys(self) -> None:
        """Edit triggers and Tab navigation of a spreadsheet; a click opens the cell's editor at once
        (Qt's "selected clicked" waits a double-click interval, and keys typed meanwhile are lost)."""
        view: QAbstractItemView = self  # type: ignore[assignment]
        view.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                             | QAbstractItemView.EditTrigger.EditKeyPressed
                             | QAbstractItemView.EditTrigger.AnyKeyPressed)
        view.clicked.connect(lambda index: view.edit(index) if index.isValid() else None)
        view.setTabKeyNavigation(True)

    def _at_edge(self, forward: bool) -> bool:
        view: QAbstractItemView = self  # type: ignore[assignment]
        model, cur = view.model(), view.currentIndex()
        if model is None or not cur.isValid():
            return True
        if forward:
            return cur.row() == model.rowCount() - 1 and cur.column() == model.columnCount() - 1
        return cur.row() == 0 and cur.column() == 0

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: N802,A002 - Qt override
        if self._at_edge(next):
            return QWidget.focusNextPrevChild(self, next)  # out of the table
        return super().focusNextPrevChild(next)  # type: ignore[misc]

    def closeEditor(self, editor, hint) -> None:  # noqa: N802 - Qt override
        H = QAbstractItemDelegate.EndEditHint
        if hint in (H.EditNextItem, H.EditPreviousItem) and self._at_edge(hint == H.EditNextItem):
            super().closeEditor(editor, H.NoHint)  # type: ignore[misc]
            QWidget.focusNextPrevChild(self, hint == H.EditNextItem)
            return
        super().closeEditor(editor, hint)  # type: ignore[misc]


class SpreadsheetView(SpreadsheetKeys, QTableView):
    """A QTableView with spreadsheet keys."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setup_keys()


class SpreadsheetTable(SpreadsheetKeys, QTableWidget):
    """A QTableWidget with spreadsheet keys (``rows``, ``columns`` as QTableWidget's)."""

    def __init__(self, rows: int = 0, columns: int = 0, parent: QWidget | None = None):
        super().__init__(rows, columns, parent)
        self.setup_keys()
