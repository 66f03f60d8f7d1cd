"""A vertical line's label stays inside a narrow chart (#31 review 2, finding 19): at 1024x700 the what-if
timeline cut "runs out: year 3 (cpu load" at the plot's right edge. Real ChartWidget, offscreen."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("width", [300, 380, 900])
def test_a_vertical_line_label_flips_to_the_side_where_it_fits(qtbot, width):
    from advisor.figures.spec import ChartSpec, Curve, Line
    from ui.plots.charts import ChartWidget

    x = np.arange(6, dtype=float)
    spec = ChartSpec("t", "hosts over the years", "years from today", "years", "hosts", "hosts",
                     curves=[Curve("needed", x, 5 + x)],
                     lines=[Line("runs out: year 3 (cpu load)", 2.9, "x")])
    chart = ChartWidget(compact=True)
    qtbot.addWidget(chart)
    chart.resize(width, 300)
    chart.show()
    chart.set_spec(spec)
    for _ in range(3):
        QApplication.processEvents()
        qtbot.wait(30)
    (lab,) = chart.line_labels()
    box = chart.viewbox.sceneBoundingRect()
    if lab.isVisible():
        rect = lab.sceneBoundingRect()
        assert box.left() - 1 <= rect.left() and rect.right() <= box.right() + 1, (rect, box)
    else:  # no room on either side: named in the legend instead
        assert "runs out" in chart.legend_label.text()
