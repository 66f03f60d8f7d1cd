"""Spreadsheet-like keyboard entry in the app's tables (issue #29, point 4): Add task, then
``t4 Tab 20 Tab 2 Tab`` fills Name, Period, WCET in column order (Period stayed empty and the
numbers landed one column to the right), the Tab after the last cell leaves the table instead of
opening t1's name with its text selected, and the error names every problem of the row."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QTableView, QTableWidget

from app.gui import settings_store
from tests.ui.conftest import wait_idle
from tests.ui.userinput import click, focus, key, type_text
from ui.demo import demo_data


def _panel(qtbot):
    from ui.panels.qt_realtime import QtRealtimePanel
    from ui.session import Session

    session = Session(settings_store())
    session.document.load_data(demo_data())
    panel = QtRealtimePanel(session)
    qtbot.addWidget(panel)
    panel.resize(1000, 700)
    panel.show()
    wait_idle(qtbot, panel)
    return panel


def test_add_task_then_tab_fills_the_row_in_column_order(qtbot):
    panel = _panel(qtbot)
    n = panel.table.rowCount()
    click(panel, panel.add_button)
    type_text("t4")
    key(Qt.Key.Key_Tab)
    type_text("20")
    key(Qt.Key.Key_Tab)
    type_text("2")
    key(Qt.Key.Key_Tab)
    type_text("15")
    key(Qt.Key.Key_Tab)  # after the last cell of the last row: out of the table
    QApplication.processEvents()
    assert panel.cells()[n] == ["t4", "20", "2", "15"]
    assert panel.table.state() != QAbstractItemView.State.EditingState  # no editor opened on t1's name
    assert not panel.table.isAncestorOf(focus()) and focus() is not panel.table
    assert panel.cells()[0][0] == "sensor"
    wait_idle(qtbot, panel)
    assert not panel.problems


def test_three_tabs_in_a_new_row_leave_the_deadline_empty(qtbot):
    panel = _panel(qtbot)
    n = panel.table.rowCount()
    click(panel, panel.add_button)
    for text in ("t4", "20", "2"):
        type_text(text)
        key(Qt.Key.Key_Tab)
    key(Qt.Key.Key_Escape)
    QApplication.processEvents()
    assert panel.cells()[n] == ["t4", "20", "2", ""]
    assert panel.table.currentColumn() == 3


def test_the_error_lists_every_problem_of_the_row(qtbot):
    panel = _panel(qtbot)
    panel.paste("a\t\t20\t2\nb\t10\t50\t40\n")
    wait_idle(qtbot, panel)
    assert panel.problems[(0, 1)] == "period is missing"
    assert "WCET 20 exceeds its deadline 2" in panel.problems[(0, 2)]
    assert "deadline 40 is longer than the period 10" in panel.problems[(1, 3)]
    assert "WCET 50 exceeds its deadline 40" in panel.problems[(1, 2)]
    text = panel.summary.text()
    assert "Task 1, period" in text and "Task 1, WCET" in text


def _editable_tables(root) -> list:
    tables = []
    for t in root.findChildren(QTableView):
        model = t.model()
        if model is None or t.editTriggers() == QAbstractItemView.EditTrigger.NoEditTriggers:
            continue
        if (isinstance(t, QTableWidget) and model.rowCount() == 0) or any(
                model.flags(model.index(0, c)) & Qt.ItemFlag.ItemIsEditable for c in range(model.columnCount())):
            tables.append(t)
    return tables


def test_every_editable_table_takes_spreadsheet_keys(window, qtbot):
    """The scenario's disk and shared-storage tables, the task table and the cost catalogue's."""
    from ui.dialogs.costs import CostCatalogueDialog
    from ui.spreadsheet import SpreadsheetKeys

    found = []
    for name in ("scenario", "realtime"):
        view = window.show_view(name)
        found += _editable_tables(view)
    dialog = CostCatalogueDialog(window.session.userdb, window)
    qtbot.addWidget(dialog)
    found += _editable_tables(dialog)
    assert len(found) >= 3
    for t in found:
        assert isinstance(t, SpreadsheetKeys), (t.objectName(), type(t).__name__)
        assert t.editTriggers() & QAbstractItemView.EditTrigger.AnyKeyPressed
        assert t.tabKeyNavigation()
