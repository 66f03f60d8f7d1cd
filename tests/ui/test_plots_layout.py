"""Issue #29: a chart on the Plots tab gives its word-wrapped legend the height the legend needs at
its width and is seen whole in the tab's scroll area (was: at 1280x720 each chart was 628 px tall in a
553 px view, the cache-mode legend's third line, "solid: ... dashed: ...", cut at the view's edge)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QScrollArea

from tests.ui.conftest import wait_idle
from tests.ui.test_workshop_layout import _problems, _rect_in


def _legend_cut(key, chart, view) -> list[str]:
    """The legend's needed height (height-for-width of the wrapped label) inside the chart, and the
    chart no taller than the scroll area's view (scrolled to, it is seen whole)."""
    legend = chart.legend_label
    if chart.height() > view.height():
        return [f"{key}: chart {chart.height()} px tall in a {view.height()} px view"]
    if not legend.isVisible() or not legend.text():
        return []
    needed = legend.heightForWidth(legend.width())
    bottom = _rect_in(chart, legend).top() + needed
    if legend.height() < needed or bottom > chart.height():
        return [f"{key}: legend needs {needed} px, has {legend.height()}, ends at {bottom} of {chart.height()}"]
    return []


@pytest.mark.timeout(300)
@pytest.mark.parametrize("size", [(1024, 700), (1280, 720)])
def test_the_plots_tab_charts_give_their_legends_the_height_they_need(window, qtbot, size):
    window.showNormal()
    window.resize(*size)
    panel = window.show_view("plots")
    wait_idle(qtbot, panel, 60000)
    for _ in range(5):
        QApplication.processEvents()
    qtbot.wait(100)
    charts = {k: c for k, c in panel.charts.items() if c.spec is not None and not c.spec.empty}
    assert "cache_mode" in charts and charts["cache_mode"].legend_label.isVisible()
    view = panel.findChild(QScrollArea).viewport()
    bad = [p for k, c in charts.items() for p in _legend_cut(k, c, view) + _problems(k, c)]
    assert not bad, bad
