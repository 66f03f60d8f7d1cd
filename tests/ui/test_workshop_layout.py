"""Issue #29: the workshop's charts keep their texts apart at 1024x700 with 16 pt fonts (was: charts
about 80 px tall, the x-axis title drawn over the legend, the real-time chart's line labels cut)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QTextDocument, QTextOption
from PySide6.QtWidgets import QApplication

from tests.ui.conftest import wait_idle


def _rect_in(chart, widget) -> QRect:
    return QRect(widget.mapTo(chart, widget.rect().topLeft()), widget.size())


def _widest_line(label) -> float:
    """The widest line of a word-wrapped label's text laid out at its width (a word, or words kept
    together, wider than the label stick out)."""
    doc = QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setDocumentMargin(0)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)  # as a QLabel: never inside a word
    doc.setDefaultTextOption(option)
    if label.textFormat() == Qt.TextFormat.PlainText or "<" not in label.text():
        doc.setPlainText(label.text())
    else:
        doc.setHtml(label.text())
    doc.setTextWidth(label.width())
    return doc.idealWidth()


def _problems(name, chart) -> list[str]:
    out = []
    parts = {"title": chart.title, "plot": chart.plot, "legend": chart.legend_label, "caption": chart.caption}
    shown = {k: w for k, w in parts.items() if w.isVisible() and w.height() > 0}
    rects = {k: _rect_in(chart, w) for k, w in shown.items()}
    keys = list(rects)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if rects[a].intersects(rects[b]):
                out.append(f"{name} {chart.geometry().getRect()}: {a} {rects[a].getRect()} overlaps {b} {rects[b].getRect()}")
    for k in ("title", "legend", "caption"):
        w = shown.get(k)
        if w is not None and w.text() and w.height() < w.heightForWidth(w.width()):
            out.append(f"{name}: {k} cut ({w.height()} px for {w.heightForWidth(w.width())})")
        if w is not None and w.text() and _widest_line(w) > w.width():  # a word wider than the chart
            out.append(f"{name}: {k} cut at the right ({_widest_line(w):.0f} px for {w.width()})")
    line = chart.plot.fontMetrics().height()
    axis = chart.plot.getAxis("bottom").height()
    room = chart.viewbox.sceneBoundingRect().height()
    if room < 3 * line:
        out.append(f"{name}: {room:.0f} px of plot left by the axes ({axis:.0f} px) at a {line} px line")
    return out


@pytest.mark.timeout(300)
@pytest.mark.parametrize("size", [(1024, 700), (1280, 720)])
def test_workshop_charts_keep_their_texts_apart_at_16_pt(window, qtbot, size):
    from ui import theme

    app = QApplication.instance()
    theme.apply(app, "light", 16.0)  # `capadvisor gui --font-pt 16`
    try:
        window.showNormal()
        window.resize(*size)
        window.toggle_workshop(True, full_screen=False)
        panel = window._workshop.whatif
        wait_idle(qtbot, panel, 60000)
        for _ in range(5):
            QApplication.processEvents()
        qtbot.wait(100)
        charts = {k: c for k, c in panel.charts.items() if c.spec is not None and not c.spec.empty}
        assert len(charts) == 4
        bad = [p for k, c in charts.items() for p in _problems(k, c)]
        assert not bad, bad
        window.toggle_workshop(False)
    finally:
        theme.apply(app, window.settings.theme, window.settings.font_pt)
