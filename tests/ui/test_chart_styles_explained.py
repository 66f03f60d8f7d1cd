"""Issue #29: a chart that draws curves in more than one line style says what each style stands for
(was: dashed testbed curves next to solid scenario curves, explained nowhere in the what-if tab and
the workshop, whose charts show no caption)."""

from __future__ import annotations

import re

import pytest

from tests.ui.conftest import wait_idle

SAMPLES = {"solid": "━━", "dash": "╌╌", "dot": "┈┈"}
WORDS = {"solid": "solid", "dash": "dash", "dot": "dot"}


def _unexplained(chart) -> list[str]:
    spec = chart.spec
    styles = {c.style for c in spec.curves}
    if len(styles) < 2:
        return []
    legend = re.sub(r"<[^>]+>", "", chart.legend_label.text()) if chart.legend_label.isVisible() else ""
    caption = chart.caption.text().lower() if chart.caption.isVisible() else ""
    return [f"{spec.key}: {style}" for style in styles
            if SAMPLES[style] not in legend and WORDS[style] not in caption]


@pytest.mark.timeout(300)
def test_every_line_style_of_a_chart_is_explained_in_every_view(window, qtbot):
    from ui.plots.charts import ChartWidget

    checked, bad = 0, []
    for view in ("plots", "whatif"):
        panel = window.show_view(view)
        wait_idle(qtbot, panel, 60000)
        qtbot.wait(50)
        for chart in panel.findChildren(ChartWidget):
            if chart.spec is not None and not chart.spec.empty and chart.isVisible():
                checked += 1
                bad += [f"{view} {b}" for b in _unexplained(chart)]
    window.toggle_workshop(True, full_screen=False)
    panel = window._workshop.whatif
    wait_idle(qtbot, panel, 60000)
    qtbot.wait(50)
    for chart in panel.charts.values():
        if chart.spec is not None and not chart.spec.empty:
            checked += 1
            bad += [f"workshop {b}" for b in _unexplained(chart)]
    window.toggle_workshop(False)
    mixed = [c for c in panel.charts.values() if c.spec is not None and len({k.style for k in c.spec.curves}) > 1]
    assert checked >= 10 and mixed  # the cache-mode chart draws solid and dashed curves
    assert not bad, bad
