"""Charts read well (issue #17, point 10): the legend sits under the plot (never over a point or a
label) and names the recommended option; curves orders of magnitude apart get a log axis; the
PDF report holds every chart of the Plots view with legend text legible on paper."""

from __future__ import annotations

import html
import re
import shutil
import subprocess

import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import wait_idle


def test_legends_are_outside_the_plot_and_name_the_choice(window, qtbot):
    from advisor.figures.charts import CHARTS, build_charts
    from ui.plots.charts import ChartWidget

    s = window.session
    specs = build_charts(s.kb, s.document.scenario, s.advice, {}, list(CHARTS))
    drawn = 0
    for key, spec in specs.items():
        if spec.empty:
            continue
        chart = ChartWidget()
        qtbot.addWidget(chart)
        chart.resize(700, 480)
        chart.show()
        chart.set_spec(spec)
        QApplication.processEvents()
        assert chart.plot.getPlotItem().legend is None, key  # nothing drawn over the data
        html_text = chart.legend_label.text()
        text = html.unescape(re.sub(r"<[^>]+>", "", html_text)).replace("\xa0", " ")  # as read
        for c in spec.curves:
            if c.in_legend:
                assert c.name in text, (key, c.name)
        chosen = [c for c in spec.curves if c.highlight and c.in_legend]
        if chosen and len([c for c in spec.curves if c.in_legend]) > 1:
            assert f"{chosen[0].name} ★ recommended" in text, key
            bold = re.findall(r"<b>(.*?)</b>", html_text)
            assert any(chosen[0].name.split()[0] in b for b in bold), key  # the chosen one in bold
        for m in spec.marks:
            assert m.label in text, (key, m.label)
        drawn += 1
    assert drawn >= 6


def test_curves_orders_apart_get_a_log_axis():
    from advisor.figures.charts import log_if_squashed
    from advisor.figures.spec import ChartSpec, Curve

    x = np.linspace(1, 10, 5)
    squashed = ChartSpec("t", "t", "x", "", "y", "MB/s",
                         curves=[Curve("fast", x, np.full(5, 300.0)), Curve("slow", x, np.full(5, 0.8))])
    assert log_if_squashed(squashed).log_y
    close = ChartSpec("t", "t", "x", "", "y", "MB/s",
                      curves=[Curve("a", x, np.full(5, 30.0)), Curve("b", x, np.full(5, 8.0))])
    assert not log_if_squashed(close).log_y


@pytest.mark.skipif(shutil.which("pdfimages") is None, reason="pdfimages (poppler-utils) not installed")
def test_the_pdf_holds_every_chart_with_legible_text(window, qtbot, tmp_path):
    from ui.panels.qt_report import REPORT_CHARTS, REPORT_FONT_PT

    report = window.show_view("report")
    qtbot.waitUntil(lambda: not report.busy() and bool(report.images), timeout=60000)
    wait_idle(qtbot, report)
    # every chart of the Plots view (the site chart shows the documents without a site); the timeline only
    # where the scenario has a growth section (this one has none: it is left out, as every empty chart)
    expected = [k for k in REPORT_CHARTS if k != "timeline"]
    assert set(expected) <= set(report.images)
    pdf = report.export(tmp_path / "r.pdf")
    listing = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True, text=True, timeout=60).stdout
    rows = [ln.split() for ln in listing.splitlines()[2:] if ln.strip()]
    assert len(rows) == len(report.images)
    ppi = min(float(r[12]) for r in rows)  # x-ppi: pixels per inch on paper
    dpi = report.logicalDpiX()
    legend_px = REPORT_FONT_PT * 0.9 * dpi / 72
    assert legend_px / ppi * 72 >= 6.5  # legend text of at least 6.5 pt on paper (was about 4)


def test_log_axis_labels_never_overlap_at_large_fonts(qtbot):
    """A log axis over one and a half decades in a short chart at 16 pt: pyqtgraph labelled every
    minor tick (2·10¹ … 9·10¹ on top of each other); the labels kept lie a text line apart."""
    from PySide6.QtGui import QFont, QFontMetrics

    from advisor.figures.spec import ChartSpec, Curve
    from ui.plots.charts import ChartWidget

    x = np.linspace(1, 10, 5)
    spec = ChartSpec("t", "boot time", "x", "", "boot time", "s", log_y=True,
                     curves=[Curve("a", x, np.full(5, 6.0)), Curve("b", x, np.full(5, 200.0))])
    chart = ChartWidget()
    qtbot.addWidget(chart)
    font = QFont(chart.font())
    font.setPointSizeF(16.0)
    axis = chart.plot.getAxis("left")
    axis.setStyle(tickFont=font)
    chart.resize(420, 330)
    chart.show()
    chart.set_spec(spec)
    chart.plot.getPlotItem().enableAutoRange()
    QApplication.processEvents()
    lo, hi = axis.range
    height = axis.size().height()
    assert 1.0 <= hi - lo <= 3.0 and height > 50
    line = QFontMetrics(font).height()
    labelled = []
    for _spacing, values in axis.tickValues(lo, hi, height):
        strings = axis.tickStrings(values, axis.autoSIPrefixScale, _spacing or 1.0)
        labelled += [float(v) for v, s in zip(values, strings, strict=False) if s]
    pixels = sorted(v * height / (hi - lo) for v in set(labelled))
    assert len(pixels) >= 2
    gaps = [b - a for a, b in zip(pixels, pixels[1:], strict=False)]
    assert min(gaps) >= line, (gaps, line)


def test_the_y_axis_title_is_never_longer_than_the_plot_is_high(qtbot):
    """Large fonts and a short chart (the Real-time tab at 1024x700, 16 pt): 'max R_i / D_i (ratio)'
    ran past the top of the plot; the title falls back to its unit, and comes back with room."""
    from PySide6.QtGui import QFont, QFontMetrics

    from advisor.figures.spec import ChartSpec, Curve
    from ui.plots.charts import ChartWidget

    x = np.linspace(1, 10, 5)
    spec = ChartSpec("t", "schedulability", "VM period T_VM", "ms", "max R_i / D_i", "ratio",
                     curves=[Curve("a", x, x)])
    chart = ChartWidget()
    qtbot.addWidget(chart)
    font = QFont(chart.font())
    font.setPointSizeF(16.0)
    chart.setFont(font)
    chart.resize(380, 260)
    chart.show()
    chart.set_spec(spec)
    QApplication.processEvents()
    axis = chart.plot.getAxis("left")
    room = chart.plot.height() - chart.plot.getAxis("bottom").height()
    assert QFontMetrics(font).horizontalAdvance(axis.labelText) <= room
    assert "ratio" in axis.labelText
    chart.resize(380, 700)
    QApplication.processEvents()
    assert axis.labelText == "max R_i / D_i (ratio)"
