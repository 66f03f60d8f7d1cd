"""Issue #29 point 9: Optimize's host-count field does not read as a number of hosts, and its
disabled "Search designs" looks disabled (not the accent colour of a button to press)."""

from __future__ import annotations

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QLabel


def test_host_counts_wording_and_a_disabled_search_looks_disabled(qtbot, session):
    from ui import theme
    from ui.panels.qt_optimize import QtOptimizePanel

    theme.apply(QApplication.instance(), "light")
    session.catalogue = None
    panel = QtOptimizePanel(session)
    qtbot.addWidget(panel)
    panel.resize(1200, 700)
    panel.show()
    qtbot.waitExposed(panel)
    label = next(lab for lab in panel.findChildren(QLabel) if lab.buddy() is panel.counts)
    assert label.text() == "&Try:" and panel.counts.text() == "6 host counts"
    panel._show_status()
    button = panel.run_button
    assert not button.isEnabled()
    image = button.grab().toImage()
    middle = QColor(image.pixel(6, image.height() // 2))
    accent = QColor(theme.colors()["accent"])
    assert abs(middle.blue() - accent.blue()) + abs(middle.red() - accent.red()) > 60, middle.name()
