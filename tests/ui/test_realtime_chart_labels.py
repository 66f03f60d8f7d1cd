"""The Real-time tab's chart labels (issue 19 leftover): 'left bound', 'upper limit' and
'T_VM = ...' sit on vertical lines that can be close or at the same period (the largest T_VM is often
the upper limit); at 1024x700 and at 16 pt they covered each other. The chart stacks them where they
would overlap, and names a line whose label has no room on a short plot in the legend instead."""

from __future__ import annotations

import itertools
import re

import pytest
from PySide6.QtWidgets import QApplication

from app.gui import settings_store
from tests.ui.conftest import wait_idle
from ui.demo import demo_data


@pytest.fixture()
def realtime_tab(qtbot):
    from ui.main_window import MainWindow
    from ui.session import Session

    session = Session(settings_store())
    window = MainWindow(session)
    window.resize(1024, 700)
    window.show()
    session.document.load_data(demo_data())
    panel = window.show_view("realtime")
    wait_idle(qtbot, panel)
    QApplication.processEvents()
    yield window, panel
    session.document.undo_stack.setClean()
    window.close()
    session.close()
    window.deleteLater()


def _shown_rects(chart):
    return {lab.format: lab.sceneBoundingRect() for lab in chart.line_labels() if lab.isVisible()}


def _assert_apart(rects):
    for (a, ra), (b, rb) in itertools.combinations(rects.items(), 2):
        assert not ra.intersects(rb), (a, ra, b, rb)


def test_the_line_labels_do_not_overlap_at_1024x700(qtbot, realtime_tab):
    window, panel = realtime_tab
    assert window.width() == 1024 and window.height() == 700
    chart = panel.chart
    labels = {lab.format: lab for lab in chart.line_labels()}
    marker = next(name for name in labels if name.startswith("T_VM ="))
    assert {"left bound", "upper limit", "schedulability limit"} <= set(labels)
    # the demo's largest T_VM is its upper limit: two labels on one line
    assert labels[marker].line.value() == pytest.approx(labels["upper limit"].line.value(), rel=1e-3)
    rects = _shown_rects(chart)
    assert set(rects) == set(labels)  # all fit at this size
    box = chart.viewbox.sceneBoundingRect()
    assert all(box.contains(r) for r in rects.values())
    _assert_apart(rects)
    # and after a what-if share the labels move with their lines and stay apart
    panel.share.setValue(0.5)
    wait_idle(qtbot, panel)
    QApplication.processEvents()
    _assert_apart(_shown_rects(chart))


def test_at_16_pt_a_label_without_room_goes_into_the_legend(qtbot, realtime_tab):
    from PySide6.QtGui import QFont

    window, panel = realtime_tab
    app = QApplication.instance()
    before = app.font()
    try:
        big = QFont(before)
        big.setPointSizeF(16.0)
        app.setFont(big)
        panel.share.setValue(0.55)  # redraw at the new font
        wait_idle(qtbot, panel)
        for _ in range(3):
            QApplication.processEvents()
        chart = panel.chart
        rects = _shown_rects(chart)
        assert "left bound" in rects
        _assert_apart(rects)
        box = chart.viewbox.sceneBoundingRect()
        assert all(box.contains(r) for r in rects.values())
        hidden = [lab.format for lab in chart.line_labels() if not lab.isVisible()]
        legend = chart.legend_label.text()
        for name in hidden:  # named under the plot instead (the T_VM mark always is)
            assert name in legend, (name, legend)
    finally:
        app.setFont(before)


def test_a_plot_too_short_for_its_labels_names_the_lines_in_the_legend(qtbot):
    from PySide6.QtGui import QFont

    from advisor.figures.charts import realtime_chart
    from advisor.realtime import TaskSet
    from ui.plots.charts import ChartWidget

    ts = TaskSet.from_tuples([("sensor", 20, 2), ("control", 50, 8), ("logger", 100, 15)])
    spec = realtime_chart(ts, 0.6, 0.1, "rm", n=120)
    chart = ChartWidget()
    qtbot.addWidget(chart)
    font = QFont(chart.font())
    font.setPointSizeF(16.0)
    chart.setFont(font)
    chart.resize(240, 230)
    chart.show()
    chart.set_spec(spec)
    QApplication.processEvents()
    rects = _shown_rects(chart)
    _assert_apart(rects)
    hidden = [lab.format for lab in chart.line_labels() if not lab.isVisible()]
    assert hidden, rects
    legend = re.sub(r"<[^>]+>", "", chart.legend_label.text()).replace("&nbsp;", " ")  # the words read
    for name in hidden:
        assert name in legend
    chart.resize(1200, 900)  # room again: every label back on the plot, still apart
    QApplication.processEvents()
    assert all(lab.isVisible() for lab in chart.line_labels())
    _assert_apart(_shown_rects(chart))
    assert "upper limit" not in chart.legend_label.text()


def test_the_sloped_bound_is_named_in_the_legend_in_its_own_colour_and_dash(qtbot, realtime_tab):
    """The lower bound (Eq. 8) is a grey dashed line; its legend sample said red and solid."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor

    from ui import theme

    _, panel = realtime_tab
    chart = panel.chart
    pc = theme.plot_colors()
    entries = {name: (colour, sample) for name, colour, sample, _ in chart.legend_entries(chart.spec)}
    assert entries["lower bound (Eq. 8)"] == (pc["muted"], "╌╌")
    sloped = [item for item in chart.plot.getPlotItem().listDataItems()
              if item.opts["pen"].style() == Qt.PenStyle.DashLine]
    assert sloped and all(item.opts["pen"].color().name() == QColor(pc["muted"]).name() for item in sloped)
