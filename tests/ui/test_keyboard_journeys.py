"""Keyboard-only journeys through every view (issue #29): each view is reached with its Ctrl+<n>
key, Tab reaches every control of the view (and comes back round to the tab bar), and the
controls work from the keyboard: a chart's numbers open as a table (Data, Space, Enter), the
report's paper size changes with the arrow keys, a real-time task is typed in."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit, QRadioButton, QWidget

from tests.ui.conftest import wait_idle
from tests.ui.userinput import focus, key, type_text


def _settle(qtbot, window) -> None:
    for _ in range(5):
        QApplication.processEvents()
    for panel in window.panels.values():
        if hasattr(panel, "busy"):
            wait_idle(qtbot, panel, 60000)
    qtbot.wait(50)


def _controls(panel: QWidget) -> list[QWidget]:
    """The controls of a view a keyboard user must be able to reach."""
    from ui.accessible import is_interactive

    out = []
    for w in panel.findChildren(QWidget):
        if not (w.isVisible() and w.isEnabled() and is_interactive(w)):
            continue
        if w.objectName() in ("qt_spinbox_lineedit", "qt_tableview_cornerbutton") or w.inherits("QHeaderView"):
            continue  # parts of a spin box or table, which is the control
        if isinstance(w.parentWidget(), QLineEdit):
            continue  # a field's clear button (Ctrl+A, Delete do the same)
        out.append(w)
    return out


def _tab_round(window, limit: int = 400) -> list[QWidget]:
    """Tab from the tab bar until the focus comes back to it; the widgets that had the focus."""
    bar = window.tabs.tabBar()
    bar.setFocus()
    QApplication.processEvents()
    seen = []
    for _ in range(limit):
        QTest.keyClick(focus(), Qt.Key.Key_Tab)
        QApplication.processEvents()
        current = QApplication.focusWidget()
        if current is None or current is bar:
            break
        seen.append(current)
    return seen


@pytest.mark.timeout(300)
def test_every_view_is_reached_by_its_key_and_every_control_by_tab(window, qtbot):
    from ui.window_actions import VIEW_KEYS

    names = window.view_names()
    for i, name in enumerate(names):
        window.activateWindow()
        QTest.keySequence(window, VIEW_KEYS[i])
        _settle(qtbot, window)
        assert window.tabs.currentIndex() == i, (name, VIEW_KEYS[i])
        panel = window.panel(name)
        reached = _tab_round(window)
        missed = []
        for c in _controls(panel):
            if any(r is c or c.isAncestorOf(r) for r in reached):
                continue
            if isinstance(c, QRadioButton) and any(isinstance(r, QRadioButton) and r.parentWidget() is c.parentWidget()
                                                   for r in reached):
                continue  # a radio group: Tab reaches the checked one, the arrow keys the others
            missed.append((type(c).__name__, c.objectName(), c.accessibleName()))
        assert not missed, (name, missed)


def test_a_charts_numbers_are_copied_from_the_keyboard(window, qtbot):
    """Tab to the chart's Data button, Space opens its menu, C (Copy data) copies the numbers."""
    from PySide6.QtCore import QTimer
    from PySide6.QtGui import QGuiApplication

    from ui.plots.charts import ChartWidget

    panel = window.show_view("plots")
    _settle(qtbot, window)
    chart = next(c for c in panel.findChildren(ChartWidget) if c.spec is not None and not c.spec.empty)
    QGuiApplication.clipboard().setText("")
    chart.data_button.setFocus()
    assert chart.data_button.focusPolicy() & Qt.FocusPolicy.TabFocus
    seen = []

    def in_menu():
        menu = QApplication.activePopupWidget()
        seen.append(menu)
        if menu is not None:
            QTest.keyClick(menu, Qt.Key.Key_C)  # the "&Copy data" mnemonic

    def safety():
        menu = QApplication.activePopupWidget()
        if menu is not None:
            menu.close()

    QTimer.singleShot(300, in_menu)
    QTimer.singleShot(3000, safety)
    QTest.keyClick(chart.data_button, Qt.Key.Key_Space)  # opens the Data menu (runs until it closes)
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)
    assert seen[0] is not None
    qtbot.waitUntil(lambda: QGuiApplication.clipboard().text().startswith(chart.spec.title), timeout=5000)


def test_the_report_paper_changes_with_the_arrow_keys(window, qtbot):
    panel = window.show_view("report")
    _settle(qtbot, window)
    panel.paper_box.setFocus()
    start = panel.paper
    key(Qt.Key.Key_Down if panel.paper_box.currentIndex() == 0 else Qt.Key.Key_Up)
    assert panel.paper != start and window.session.settings.paper == panel.paper


def test_a_task_is_typed_in_from_the_keyboard(window, qtbot):
    panel = window.show_view("realtime")
    _settle(qtbot, window)
    n = panel.table.rowCount()
    panel.add_button.setFocus()
    key(Qt.Key.Key_Space)
    for text in ("t9", "40", "3", "30"):
        type_text(text)
        key(Qt.Key.Key_Tab)
    assert panel.cells()[n] == ["t9", "40", "3", "30"]
    panel.discard_edits()  # (the window would ask about the unsaved task set on closing)
