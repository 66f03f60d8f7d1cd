"""The scenario form's drop-down lists have a screen-reader name of their own (close note of session 5:
CPU intensity, I/O pattern, I/O intensity and Data loss tolerated announced only their choice, "medium,
combo box": Qt names a drop-down list by its current text on Linux). Real MainWindow, offscreen,
read through Qt's accessibility interface (what AT-SPI reads)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAccessible, QAccessibleActionInterface
from PySide6.QtWidgets import QApplication

FOUR = {("cpu_intensity",): "CPU intensity", ("io", "pattern"): "I/O pattern", ("io", "intensity"): "I/O intensity",
        ("data_loss_tolerance",): "Data loss tolerated"}


@pytest.mark.timeout(180)
def test_the_workload_drop_downs_say_their_name_and_their_choice(window, qtbot):
    panel = window.show_view("scenario")
    for _ in range(5):
        QApplication.processEvents()
    qtbot.waitUntil(lambda: all(e.accessibleName() for e in panel._workload_form.editors.values()), timeout=10000)
    form = panel._workload_form
    found = {path: form.labels[path].text() for path in form.editors if path in FOUR}
    assert found == FOUR  # the four, labelled as the names below
    for path, name in FOUR.items():
        box = form.editors[path]
        iface = QAccessible.queryAccessibleInterface(box)
        assert iface.role() == QAccessible.Role.ComboBox
        assert iface.text(QAccessible.Text.Name) == name, path
        assert iface.text(QAccessible.Text.Value) == box.currentText() != ""
        assert QAccessibleActionInterface.showMenuAction() in iface.actionInterface().actionNames()
