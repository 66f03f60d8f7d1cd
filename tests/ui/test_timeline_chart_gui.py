"""The timeline chart as drawn in the Plots tab (#31 review 16) at 1280x720 and 1024x700: the row to
itself (was: the left column, the right half empty), its caption whole, the line labels clear of the
curves ("planned: 9 active hosts" sat on the step line at 1024x700), the legend drawing the marks the
chart draws (triangles for the hosts bought, was a circle) with short names on one line ("RAM" /
"demand" wrapped apart), and year 0 labelled as the advice's. Real MainWindow and engine, offscreen."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QScrollArea

from tests.ui.conftest import wait_idle
from tests.ui.test_growth_gui import _load_growth


@pytest.mark.timeout(240)
@pytest.mark.parametrize("size", [(1280, 720), (1024, 700)])
def test_plots_timeline_takes_its_row_and_keeps_its_labels_clear(window, qtbot, tmp_path, size):
    from ui.plots.line_labels import _hits, drawn_points

    window.resize(*size)
    _load_growth(window, qtbot)
    plots = window.show_view("plots")
    wait_idle(qtbot, plots, 60000)
    chart = plots.charts["timeline"]
    qtbot.waitUntil(lambda: chart.spec is not None and not chart.spec.empty, timeout=60000)
    area = plots.findChild(QScrollArea)
    for _ in range(3):  # (scrolled again once the layout has settled at the new size)
        QApplication.processEvents()
        qtbot.wait(50)
        area.ensureWidgetVisible(chart, 0, 0)
    QApplication.processEvents()
    grid = plots._grid
    _row, _col, _rows, columns = grid.getItemPosition(grid.indexOf(chart))
    assert columns == 2  # the last chart, alone on its row, takes the row
    other = next(c for k, c in plots.charts.items() if k != "timeline")
    assert chart.width() > 1.8 * other.width()
    # seen whole in the view, caption included
    top = chart.mapTo(area.viewport(), chart.rect().topLeft()).y()
    assert 0 <= top and top + chart.height() <= area.viewport().height()
    caption = chart.caption
    assert caption.isVisible() and caption.height() >= caption.heightForWidth(caption.width())
    assert caption.geometry().bottom() <= chart.height()

    samples = {name: sample for name, _c, sample, _chosen in chart.legend_entries(chart.spec)}
    assert samples["hosts bought"] == "▲"  # the chart draws triangles (symbol t1)
    assert samples[next(p.name for p in chart.spec.points if p.symbol == "star")] == "★"
    legend = chart.legend_label.text()
    for name in ("RAM demand", "CPU load demand", "CPU allocation demand"):  # each on one line
        assert f"&nbsp;{name}</span>" in legend, name
    assert chart.spec.marks[0].label.startswith("year 0, advised: ")

    px, py = drawn_points(chart.viewbox, chart.spec, chart._items)
    box = chart.viewbox.sceneBoundingRect()
    labels = {lab.format: lab for lab in chart.line_labels() if lab.isVisible()}
    planned = next(k for k in labels if k.startswith("planned:"))
    for name, lab in labels.items():
        rect = lab.sceneBoundingRect()
        assert box.contains(rect), name
        assert _hits(rect, px, py) == 0, f"{name} is crossed by a curve at {size}"
    assert planned in labels
    w, h = size
    chart.grab().save(str(tmp_path / f"timeline-{w}x{h}.png"))
    window.session.document.undo_stack.setClean()
