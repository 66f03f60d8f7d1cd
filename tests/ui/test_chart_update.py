"""A chart redrawn with the same curves and points and a moved mark (a what-if slider step, #30) sets
only what changed; a changed curve is drawn anew."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtWidgets import QApplication

from advisor.figures.spec import ChartSpec, Curve, Line, Mark, Points
from ui.plots.charts import ChartWidget

pytestmark = pytest.mark.timeout(60)


def _spec(mean, marker: float) -> ChartSpec:
    x = np.linspace(1.0, 6.0, 20)  # a new array each time, as a chart builder makes it
    mean = np.asarray(mean, dtype=float)
    return ChartSpec("t", "downtime", "vCPU over-allocation", "vCPUs per core", "downtime", "s",
                     curves=[Curve("light", x, mean, mean * 0.9, mean * 1.1)],
                     points=[Points("light measured", np.array([2.0, 4.0]), np.array([1.0, 2.0]), ["a", "b"])],
                     lines=[Line("2 vCPUs/core", marker, "x", kind="marker"),
                            Line("line-rate limit", 0.0, "y", slope=0.5, kind="bound")])


def test_a_moved_mark_sets_no_curve_or_point_data_and_a_changed_curve_is_drawn(qtbot, monkeypatch):
    chart = ChartWidget()
    qtbot.addWidget(chart)
    chart.resize(420, 330)
    chart.show()
    curve = np.linspace(1.0, 3.0, 20)
    chart.set_spec(_spec(curve, 2.0))
    QApplication.processEvents()
    calls = []
    for cls in (pg.PlotDataItem, pg.ScatterPlotItem):
        real = cls.setData
        monkeypatch.setattr(cls, "setData", lambda self, *a, _real=real, **k: calls.append(self) or _real(self, *a, **k))
    chart.set_spec(_spec(curve.copy(), 3.5))
    assert calls == []
    assert chart._items["lines"][0].value() == pytest.approx(3.5)
    traced = []
    real_path = pg.FillBetweenItem.updatePath
    monkeypatch.setattr(pg.FillBetweenItem, "updatePath", lambda self: traced.append(self) or real_path(self))
    chart.set_spec(_spec(curve * 2, 3.5))
    main, lo, hi = chart._items["curves"][0]
    assert main.getData()[1].tolist() == pytest.approx((curve * 2).tolist())
    assert hi.getData()[1].tolist() == pytest.approx((curve * 2.2).tolist())
    assert lo.getData()[1].tolist() == pytest.approx((curve * 1.8).tolist())
    assert len(calls) == 3, "the band's edges and the curve (the sloped line spans the same x)"
    assert len(traced) == 1, "the band is traced once, with both edges new"


def test_a_chart_rebuilt_never_reads_the_new_spec_against_the_old_items(qtbot):
    """A compact chart that becomes empty shows its caption (the reason) before it is rebuilt; the plot
    is resized at once and placed the lines' labels of the new spec against the old drawn lines: a
    ValueError from zip(strict=True) in a Qt slot (seen moving the what-if sliders)."""
    chart = ChartWidget(compact=True)
    qtbot.addWidget(chart)
    chart.resize(420, 330)
    chart.show()
    x = np.linspace(1.0, 6.0, 20)
    drawn = ChartSpec("t", "a", "x", "", "y", "s", curves=[Curve("a", x, x * 10)],
                      lines=[Line("mark", 3.0, "x", kind="marker"), Line("limit", 50.0, "y")])
    empty = ChartSpec("t", "a", "", "", "", "", empty_reason="No chart: no model for this hypervisor")
    chart.set_spec(drawn)
    QApplication.processEvents()
    chart.set_spec(empty)
    QApplication.processEvents()
    assert chart.caption.isVisible() and chart._items is None
    chart.set_spec(drawn)
    assert len(chart._items["lines"]) == 2


def _marked(x_mark: float, advised: bool) -> ChartSpec:
    spec = _spec(np.linspace(1.0, 3.0, 20), 2.0)
    spec.lines = []
    spec.curves[0].highlight = True
    spec.mark(Mark(f"{x_mark:g} vCPUs/core", x_mark, 1.5 if advised else None, "vcpu_overallocation", "cluster"))
    return spec


def test_the_advised_star_comes_and_goes_in_place_and_the_legend_follows_the_mark(qtbot):
    """A what-if slider passing the advised level adds or removes the advice's star: the chart keeps its
    curves and measured points (rebuilding both over-allocation charts cost 35-85 ms a step, #30), and
    the legend names the marker where it is now (it kept the first one: "1 vCPUs/core" at 3.5)."""
    chart = ChartWidget(compact=True)
    qtbot.addWidget(chart)
    chart.resize(420, 330)
    chart.show()
    chart.set_spec(_marked(1.0, advised=False))
    QApplication.processEvents()
    (curve, _lo, _hi), (measured,) = chart._items["curves"][0], chart._items["points"]
    assert "1 vCPUs/core" in chart.legend_label.text()

    chart.set_spec(_marked(2.5, advised=True))
    assert chart._items["curves"][0][0] is curve and chart._items["points"][0] is measured
    assert len(chart._items["points"]) == 2
    star = chart._items["points"][1]
    assert star.scene() is chart.plot.scene() and star.opts["symbol"] == "star"
    legend = chart.legend_label.text()
    assert "2.5 vCPUs/core" in legend and "advised: 1.5 s" in legend and "1 vCPUs/core" not in legend

    chart.set_spec(_marked(3.5, advised=False))
    assert chart._items["curves"][0][0] is curve and chart._items["points"] == [measured]
    assert star.scene() is None, "the star is taken off the plot"
    legend = chart.legend_label.text()
    assert "3.5 vCPUs/core" in legend and "advised" not in legend
