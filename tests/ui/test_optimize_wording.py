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


def _optimize_panel(qtbot, session, width: int = 1024, height: int = 700):
    from ui.panels.qt_optimize import QtOptimizePanel

    panel = QtOptimizePanel(session)
    qtbot.addWidget(panel)
    panel.resize(width, height)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def test_without_a_search_optimize_says_what_to_do_instead_of_empty_axes(qtbot, session):
    """Was: empty 0-1 axes where the chart will be, and nothing said why."""
    session.catalogue = None
    panel = _optimize_panel(qtbot, session)
    assert not panel.chart.isVisible()
    assert panel.placeholder.isVisible()
    text = panel.placeholder.text()
    assert "Cost catalogue" in text and "Search designs" in text
    assert panel.placeholder.height() > 100  # it takes the chart's place


def test_the_front_table_shows_every_column_title_whole_at_1024_px(qtbot, session):
    """Was: the third column's title read "Hos" (cut) at 1024 and even at 1280 px."""
    from PySide6.QtGui import QFontMetrics

    panel = _optimize_panel(qtbot, session)
    header = panel.front.horizontalHeader()
    metrics = QFontMetrics(header.font())
    for col in range(panel.front.columnCount() - 1):
        title = panel.front.horizontalHeaderItem(col).text()
        widest = max(metrics.horizontalAdvance(line) for line in title.splitlines())
        assert header.sectionSize(col) >= widest + 8, (title, header.sectionSize(col), widest)
    for col in range(4):  # total, figure, hosts and hypervisor in view without scrolling
        right = header.sectionViewportPosition(col) + header.sectionSize(col)
        assert right <= header.viewport().width(), (col, right, header.viewport().width())


def test_the_host_counts_field_and_buttons_keep_their_size_on_a_wide_screen(qtbot, session):
    """Was: at 1920 px "6 host counts" and the buttons stretched over the whole row."""
    panel = _optimize_panel(qtbot, session, 1900, 1000)
    for w in (panel.counts, panel.run_button, panel.cancel_button):
        assert w.width() <= 2 * w.sizeHint().width(), (w, w.width(), w.sizeHint().width())
