"""Tick labels read as plain numbers and never run into each other (issue #29, point 8): the log
axes said ``7·10¹``; the load axis of the CPU chart at 1024 px and a large font read
``20000400006000080000``."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication


def test_plain_numbers():
    from ui.plots.axes import plain_number

    assert [plain_number(v) for v in (70.0, 0.4, 0.30000000000000004, 20000.0, 2.5, 0.0, 1500000.0)] == \
        ["70", "0.4", "0.3", "20,000", "2.5", "0", "1,500,000"]


def _drawn_labels(chart, name: str):
    """(rect, text) of every tick label the axis draws, from pyqtgraph's own draw specs."""
    from PySide6.QtGui import QImage, QPainter

    axis = chart.plot.getAxis(name)
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [(rect, text) for rect, _flags, text in specs[2] if text]


@pytest.mark.parametrize("width,pt", [(330, 16.0), (520, 16.0), (900, 11.0)])
def test_x_tick_labels_never_overlap(qtbot, width, pt):
    from PySide6.QtGui import QFont

    from advisor.figures.spec import ChartSpec, Curve
    from ui.plots.charts import ChartWidget

    x = np.linspace(10000, 88000, 40)
    spec = ChartSpec("t", "CPU utilization vs load", "request load", "req/s", "CPU utilization", "%",
                     curves=[Curve("docker", x, x / 1000)])
    chart = ChartWidget()
    qtbot.addWidget(chart)
    font = QFont(chart.font())
    font.setPointSizeF(pt)
    chart.setFont(font)
    chart.on_theme_changed()
    chart.resize(width, 320)
    chart.show()
    chart.set_spec(spec)
    QApplication.processEvents()
    labels = _drawn_labels(chart, "bottom")
    assert len(labels) >= (2 if width >= 500 else 1)
    rects = sorted((rect.left(), rect.right()) for rect, _t in labels)
    for (_l1, r1), (l2, _r2) in zip(rects, rects[1:], strict=False):
        assert l2 > r1, [t for _r, t in labels]


def test_log_axis_labels_are_plain_numbers(qtbot):
    from advisor.figures.spec import ChartSpec, Curve
    from ui.plots.charts import ChartWidget

    x = np.linspace(1, 10, 5)
    spec = ChartSpec("t", "boot", "x", "", "boot time", "s", log_y=True,
                     curves=[Curve("a", x, np.full(5, 3.0)), Curve("b", x, np.full(5, 300.0))])
    chart = ChartWidget()
    qtbot.addWidget(chart)
    chart.resize(600, 600)
    chart.show()
    chart.set_spec(spec)
    chart.plot.getPlotItem().enableAutoRange()
    QApplication.processEvents()
    texts = [t for _r, t in _drawn_labels(chart, "left")]
    assert "100" in texts and "10" in texts
    assert not [t for t in texts if "·" in t or "10¹" in t or "10²" in t], texts
