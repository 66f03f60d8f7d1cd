"""Review 3 of #31, finding 8: the timeline chart's legend and step line, and the what-if's empty
real-time chart. Real MainWindow on the shipped growth example, real chart widgets, offscreen."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel

from tests.ui.conftest import wait_idle
from tests.ui.test_growth_gui import _load_growth


def _names(chart) -> list[str]:
    return [e[0] for e in chart.legend_entries(chart.spec)]


@pytest.mark.timeout(240)
def test_timeline_legend_names_the_star_in_active_hosts_and_the_whatif_names_triangles_and_star(window, qtbot):
    _load_growth(window, qtbot)
    advice = window.session.advice
    active = advice.find("host_count").expected["active_hosts"].value
    plots = window.show_view("plots")
    wait_idle(qtbot, plots, 60000)
    qtbot.waitUntil(lambda: plots.charts["timeline"].spec is not None, timeout=60000)
    chart = plots.charts["timeline"]
    names = _names(chart)
    assert f"advised: {active:g} active hosts" in names  # one quantity, one number (not "4 hosts")
    assert not any(n == f"advised: {active:g} hosts" for n in names)
    step = chart.spec.curves[0]
    assert step.name == "active hosts needed"
    assert max(step.x) == advice.timeline.years[-1].year  # not on past the horizon
    assert "hosts bought" in names

    tab = window.show_view("whatif")
    wait_idle(qtbot, tab, 60000)
    small = tab.charts["timeline"]
    qtbot.waitUntil(lambda: small.spec is not None and not small.spec.empty, timeout=60000)
    assert small.compact
    names = _names(small)
    assert "hosts bought" in names and any(n.startswith("advised: ") for n in names)
    assert "hosts bought" in small.legend_label.text()


@pytest.mark.timeout(240)
def test_an_empty_compact_chart_says_why_whole_in_a_wrapped_caption(window, qtbot):
    _load_growth(window, qtbot)  # no real-time task set: the real-time chart is empty
    tab = window.show_view("whatif")
    wait_idle(qtbot, tab, 60000)
    chart = tab.charts["realtime"]
    qtbot.waitUntil(lambda: chart.spec is not None, timeout=60000)
    assert chart.spec.empty and chart.compact
    reason = chart.spec.empty_reason
    assert "real-time task set" in reason
    shown = [lb for lb in chart.findChildren(QLabel) if lb.isVisible() and lb.text() == reason]
    assert shown and shown[0].wordWrap()  # whole, wrapped to the chart's width
    assert shown[0].width() <= chart.width()
