"""The pyqtgraph chart of the application: draws a :class:`~advisor.figures.spec.ChartSpec` with
labelled axes (units), a legend, interval bands, measured points with tooltips, limit lines,
shaded regions and the recommended option emphasised."""

from __future__ import annotations

import math
import os

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
import numpy as np  # noqa: E402
import pyqtgraph as pg  # noqa: E402
import PySide6  # noqa: E402,F401 - pin the binding before pyqtgraph picks one
from PySide6.QtCore import QEvent, Qt, QTimer, Signal  # noqa: E402
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage  # noqa: E402
from PySide6.QtWidgets import (  # noqa: E402
    QApplication,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from advisor.figures.spec import ChartSpec  # noqa: E402
from ui import theme  # noqa: E402
from ui.plots import legend  # noqa: E402
from ui.plots.axes import ReadableAxis  # noqa: E402
from ui.plots.chart_data import data_button  # noqa: E402
from ui.plots.line_labels import LABEL_TOP, place_flat_labels, stagger_labels  # noqa: E402

pg.setConfigOptions(antialias=True, useNumba=False, foreground="k")

_STYLES = {"solid": Qt.PenStyle.SolidLine, "dash": Qt.PenStyle.DashLine, "dot": Qt.PenStyle.DotLine}
def _same_numbers(a, b) -> bool:
    """Whether two series of a chart hold the same numbers (None for both: no series)."""
    if a is None or b is None:
        return a is b
    return a is b or np.array_equal(np.asarray(a, dtype=float), np.asarray(b, dtype=float), equal_nan=True)


def _color(hex_color: str, alpha: int = 255) -> QColor:
    c = QColor(hex_color)
    c.setAlpha(alpha)
    return c


def axis_label(name: str, unit: str) -> str:
    """``"VMs per host (VMs)"``; no parentheses without a unit."""
    return f"{name} ({unit})" if unit else name


class _ChartViewBox(pg.ViewBox):
    """Zooms with the wheel only while Ctrl is held: a wheel turn over a chart in a scrolled view
    scrolls the view (the event goes on to it) instead of zooming by accident."""

    sigResetRequested = Signal()

    def wheelEvent(self, ev, axis=None):  # noqa: N802 - pyqtgraph override
        if not ev.modifiers() & Qt.KeyboardModifier.ControlModifier:
            ev.ignore()
            return
        super().wheelEvent(ev, axis)

    def mouseClickEvent(self, ev):  # noqa: N802 - pyqtgraph override
        if ev.double() and ev.button() == Qt.MouseButton.LeftButton:
            ev.accept()
            self.sigResetRequested.emit()
            return
        super().mouseClickEvent(ev)





class ChartWidget(QWidget):
    """A titled chart with a caption; call :meth:`set_spec` to draw."""

    def __init__(self, parent: QWidget | None = None, compact: bool = False):
        super().__init__(parent)
        self.spec: ChartSpec | None = None
        self.compact = compact
        self.min_floor = 0  # the least height a view asks of the chart (see _fit_height)
        self.look: str | None = None  # a look of its own (workshop), else the application's
        self.title = QLabel()
        self.title.setObjectName("chartTitle")
        self.title.setWordWrap(True)
        self.viewbox = _ChartViewBox()
        self.plot = pg.PlotWidget(viewBox=self.viewbox, axisItems={"left": ReadableAxis("left"),
                                                                   "bottom": ReadableAxis("bottom")})
        self._fit_plot_minimum()  # workshop: four charts fit a small screen
        self.plot.installEventFilter(self)
        self.reset_button = QPushButton("Reset view")
        self.reset_button.setObjectName("resetView")
        self.reset_button.setToolTip("Show the whole chart again (or double-click the chart)")
        self.reset_button.clicked.connect(self.reset_view)
        self.reset_button.hide()
        self.viewbox.sigRangeChangedManually.connect(lambda *_a: self.reset_button.show())
        self.viewbox.sigResetRequested.connect(self.reset_view)
        self.viewbox.sigRangeChanged.connect(lambda *_a: self._stagger_labels())
        self.viewbox.sigResized.connect(lambda *_a: self._stagger_labels())
        self.setMinimumWidth(180)
        for name in ("left", "bottom"):
            self.plot.getAxis(name).enableAutoSIPrefix(False)
        self.plot.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.plot.setMenuEnabled(False)
        self.legend_label = QLabel()  # the legend, under the plot: it never covers a point or a label
        self.legend_label.setObjectName("legend")
        self.legend_label.setWordWrap(True)
        self.legend_label.setTextFormat(Qt.TextFormat.RichText)
        self.legend_label.hide()
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setObjectName("hint")
        for label in (self.legend_label, self.caption):  # the plot gives way, the text stays whole
            policy = label.sizePolicy()
            policy.setVerticalPolicy(QSizePolicy.Policy.Minimum)
            label.setSizePolicy(policy)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.setSpacing(2)
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(self.title, 1)
        head.addWidget(self.reset_button, 0, Qt.AlignmentFlag.AlignTop)
        self.data_button = data_button(self)
        self.data_button.setEnabled(False)
        for widget in (self, self.plot):
            widget.setAccessibleName("Chart: nothing drawn yet")
            widget.setAccessibleDescription("The chart appears when there is something to draw")
        head.addWidget(self.data_button, 0, Qt.AlignmentFlag.AlignTop)
        lay.addLayout(head)
        lay.addWidget(self.plot, 1)
        lay.addWidget(self.legend_label)
        lay.addWidget(self.caption)
        self.legend = None
        self._items: dict | None = None
        self._hidden_labels: list[str] = []  # vertical lines' labels with no room on the plot
        self._legend_shown: list = []  # the entries the legend shows (legend_entries)
        self.series_color: dict[str, str] = {}
        self._apply_colors()

    def _fit_plot_minimum(self) -> None:
        """The plot at least as tall as its axes plus three lines of plot area at its font (was a
        fixed 100 px: at 16 pt the axes took it all and the x-axis title met the legend)."""
        line = self.plot.fontMetrics().height()
        self.plot.setMinimumSize(150, max(100 if self.compact else 140, 6 * line))

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # (a look of its own, e.g. the workshop's)
            self._apply_colors()  # the axes' fonts follow
            self._fit_plot_minimum()
            self._fit_height()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if self.compact:  # after the layout has placed the parts at the new size
            QTimer.singleShot(0, self, self._fit_height)

    def _fit_height(self) -> None:
        """A compact chart (what-if, workshop) asks for the height its wrapped title, legend and
        caption need at its width (a grid counts only one line of each): a view too small for that
        scrolls instead of drawing the legend over the axis title."""
        lay = self.layout()
        if not self.compact or lay is None or not lay.hasHeightForWidth():
            return
        needed = max(self.min_floor, lay.minimumHeightForWidth(self.width()))
        if needed != self.minimumHeight():
            self.setMinimumHeight(needed)

    def show_data(self) -> None:
        """The chart's numbers in a dialog with a table (read by screen readers) and Copy."""
        from ui.plots.chart_data import ChartDataDialog

        if self.spec is not None and not self.spec.empty:
            ChartDataDialog(self.spec, self).exec()

    def copy_data(self) -> bool:
        """The chart's numbers to the clipboard as tab-separated text."""
        from ui.plots.chart_data import copy_chart_data

        return copy_chart_data(self.spec)

    def _describe(self, spec: ChartSpec) -> None:
        """Accessible name and description of the chart: its title, axes and what it draws."""
        series = [c.name for c in spec.curves if c.in_legend] + [p.name for p in spec.points]
        about = (spec.empty_reason or
                 f"x: {axis_label(spec.x_label, spec.x_unit)}; y: {axis_label(spec.y_label, spec.y_unit)}; "
                 f"series: {', '.join(series) or 'none'}. {spec.caption} The Data button shows the numbers.")
        for widget in (self, self.plot):
            widget.setAccessibleName(f"Chart: {spec.title}")
            widget.setAccessibleDescription(about)
        self.data_button.setEnabled(not spec.empty)

    # --- look ----------------------------------------------------------------------------
    def _apply_colors(self) -> None:
        pc = theme.plot_colors(self.look)
        self.plot.setBackground(pc["background"])
        font = QFont(self.font())
        for name in ("left", "bottom"):
            ax = self.plot.getAxis(name)
            ax.setPen(pg.mkPen(pc["muted"]))
            ax.setTextPen(pg.mkPen(pc["foreground"]))
            ax.setTickFont(font)
            ax.label.setFont(font)
        tf = QFont(self.font())
        tf.setBold(True)
        self.title.setFont(tf)
        self.plot.showGrid(x=True, y=True, alpha=0.18)

    def on_theme_changed(self) -> None:
        self._apply_colors()
        if self.spec is not None:
            self._items = None  # colours changed: rebuild
            self.set_spec(self.spec)

    def _series_colors(self, spec: ChartSpec) -> dict[str, str]:
        pc = theme.plot_colors(self.look)
        out, i = {}, 0
        for key in spec.color_keys():
            if key == "documents":
                out[key] = pc["muted"]
                continue
            out[key] = pc["series"][i % len(pc["series"])]
            i += 1
        return out

    # --- drawing -------------------------------------------------------------------------
    @staticmethod
    def _signature(spec: ChartSpec) -> tuple:
        """What must match for :meth:`set_spec` to update the drawn items in place."""
        return (spec.empty, spec.log_x, spec.log_y, spec.legend, spec.x_label, spec.y_label,
                tuple((c.name, c.low is not None, c.highlight, c.style, c.in_legend) for c in spec.curves),
                tuple((ln.kind, ln.axis, ln.slope is not None) for ln in spec.lines), len(spec.regions),
                tuple(spec.x_ticks or ()))

    def set_spec(self, spec: ChartSpec) -> None:
        """Draw ``spec``: the items are updated in place when only the numbers changed (what-if),
        otherwise rebuilt."""
        was = self.spec
        same = (was is not None and self._items is not None
                and self._signature(spec) == self._signature(was)
                and self._series_colors(spec) == self.series_color)  # (points may come and go: _update)
        if not same:
            # rebuilt below; a caption shown or hidden first resizes the plot at once, and placing the
            # lines' labels then must not read the old items against the new spec
            self._items = None
        self.spec = spec
        self.title.setText(spec.title)
        self._describe(spec)
        self.caption.setText(spec.empty_reason or spec.caption)
        # a compact chart has no caption, but an empty one says why in it (wrapped: the text drawn in a
        # small plot was cut at both sides)
        self.caption.setVisible(bool(self.caption.text()) and (not self.compact or spec.empty))
        if same:
            self._update(spec, was)
            if not spec.empty and self.legend_entries(spec) != self._legend_shown:  # e.g. the marker's "3.5 vCPUs/core"
                self._show_legend(spec, self.series_color, theme.plot_colors(self.look))
        else:
            self._build(spec)
        self._apply_range(spec)
        self._stagger_labels()
        self._fit_height()  # the legend may wrap to more lines

    def line_labels(self) -> list:
        """The labels drawn on the chart's straight lines (pyqtgraph InfLineLabel items)."""
        if self._items is None:
            return []
        return [lab for drawn in self._items["lines"] if (lab := getattr(drawn, "label", None)) is not None]

    def _stagger_labels(self) -> None:
        """Lines' labels clear of each other and of the curves (:mod:`ui.plots.line_labels`); a
        vertical line's label with no room on the plot is named in the legend instead."""
        if self._items is None or self.spec is None:
            return
        place_flat_labels(self.viewbox, self.spec, self._items)
        hidden = stagger_labels(self.viewbox, self.spec, self._items)
        if hidden != self._hidden_labels:
            self._hidden_labels = hidden
            self._show_legend(self.spec, self.series_color, theme.plot_colors(self.look))

    def _fit_left_label(self) -> None:
        """The y axis title whole: the unit alone when the quantity and unit are longer than the
        plot is high (large fonts, a short chart)."""
        full, short, style = getattr(self, "_left_label", (None, None, None))
        if full is None or full == short:
            return
        axis = self.plot.getAxis("left")
        room = self.plot.height() - self.plot.getAxis("bottom").height() - 12
        size = style.get("font-size")
        font = QFont(self.font())
        if size:
            font.setPointSizeF(float(size[:-2]))
        wanted = full if QFontMetrics(font).horizontalAdvance(full) <= room else short
        if axis.labelText != wanted:
            self.plot.getPlotItem().setLabel("left", wanted, **style)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        if obj is self.plot and event.type() == QEvent.Type.Resize:
            self._fit_left_label()  # the plot shrinks as the legend or caption below it grows
        return super().eventFilter(obj, event)

    def reset_view(self) -> None:
        """Back to the whole chart after the user moved or zoomed it."""
        if self.spec is not None:
            self.plot.getPlotItem().enableAutoRange(axis="x")
            self._apply_range(self.spec)
        self.reset_button.hide()

    def _apply_range(self, spec: ChartSpec) -> None:
        item = self.plot.getPlotItem()
        if spec.y_range is not None:
            item.setYRange(*spec.y_range, padding=0.02)
        elif not spec.empty:
            item.enableAutoRange(axis="y")

    def _x_span(self, spec: ChartSpec) -> tuple[float, float]:
        xs = [np.nanmin(np.asarray(c.x, dtype=float)) for c in spec.curves] + \
             [np.nanmin(np.asarray(p.x, dtype=float)) for p in spec.points if len(p.x)]
        xe = [np.nanmax(np.asarray(c.x, dtype=float)) for c in spec.curves] + \
             [np.nanmax(np.asarray(p.x, dtype=float)) for p in spec.points if len(p.x)]
        return (min(xs), max(xe)) if xs else (0.0, 1.0)

    @staticmethod
    def _scatter_xy(spec: ChartSpec, p) -> tuple[np.ndarray, np.ndarray]:
        px, py = np.asarray(p.x, dtype=float), np.asarray(p.y, dtype=float)
        if spec.log_x:  # scatter items are not log-transformed by the plot
            px = np.log10(np.where(px > 0, px, np.nan))
        if spec.log_y:
            py = np.log10(np.where(py > 0, py, np.nan))
        return px, py

    def _update(self, spec: ChartSpec, was: ChartSpec) -> None:
        """The drawn items moved from ``was`` (the spec they show) to ``spec``; curves and points whose
        numbers did not change are left as drawn (a what-if step mostly moves a mark, not the curves)."""
        items = self._items
        for c, old, (main, lo, hi) in zip(spec.curves, was.curves, items["curves"], strict=True):
            if all(_same_numbers(getattr(c, f), getattr(old, f)) for f in ("x", "mean", "low", "high")):
                continue
            x = np.asarray(c.x, dtype=float)
            if lo is not None:
                lo.blockSignals(True)  # the band between the edges is traced once, when both are new
                lo.setData(x, np.asarray(c.low, dtype=float))
                lo.blockSignals(False)
                hi.setData(x, np.asarray(c.high, dtype=float))
            main.setData(x, np.asarray(c.mean, dtype=float))
        self._update_points(spec, was)
        x0, x1 = self._x_span(spec)
        span_moved = (x0, x1) != self._x_span(was)
        for line, old_line, drawn in zip(spec.lines, was.lines, items["lines"], strict=True):
            if drawn is None:
                continue
            if line.slope is not None:
                if not span_moved and (line.slope, line.pos) == (old_line.slope, old_line.pos):
                    continue  # drawn over the same span
                x = np.linspace(x0, x1, 50)
                drawn.setData(x, line.slope * x + line.pos)
                continue
            log = spec.log_y if line.axis == "y" else spec.log_x
            if log and line.pos > 0:
                drawn.setPos(math.log10(line.pos))
            elif not log:
                drawn.setPos(line.pos)
            label = getattr(drawn, "label", None)
            if label is not None and label.format != line.label:
                label.setFormat(line.label)
        for region, drawn in zip(spec.regions, items["regions"], strict=True):
            drawn.setRegion((region.start, region.end))

    def _update_points(self, spec: ChartSpec, was: ChartSpec) -> None:
        """The scatter items moved from ``was.points`` to ``spec.points``: one drawn alike (same kind
        and colour) is given the new numbers, the others are added or removed (the advice's star comes
        and goes as a what-if slider passes the advised level: rebuilding the chart cost 35-85 ms)."""
        item, pc = self.plot.getPlotItem(), theme.plot_colors(self.look)
        drawn = self._items["points"]
        kept = []
        for i, p in enumerate(spec.points):
            old = was.points[i] if i < len(was.points) else None
            if old is None or not self._drawn_alike(p, old):
                kept.append(self._add_points(item, spec, p, pc))
                if old is not None:
                    item.removeItem(drawn[i])
                continue
            kept.append(drawn[i])
            if (_same_numbers(p.x, old.x) and _same_numbers(p.y, old.y) and list(p.tips) == list(old.tips)
                    and p.symbol == old.symbol):
                continue
            px, py = self._scatter_xy(spec, p)
            drawn[i].setData(x=px, y=py, data=list(p.tips) or None, symbol=p.symbol)
        for scatter in drawn[len(spec.points):]:
            item.removeItem(scatter)
        self._items["points"] = kept

    def _drawn_alike(self, p, old) -> bool:
        """Whether the scatter item drawing ``old`` draws ``p`` by new numbers alone."""
        return (p.highlight == old.highlight
                and self.series_color.get(p.color_key or p.name) == self.series_color.get(old.color_key or old.name))

    def _add_points(self, item, spec: ChartSpec, p, pc: dict):
        """One set of points: the advice's (highlighted) larger and outlined."""
        col = self.series_color.get(p.color_key or p.name, pc["accent"])
        px, py = self._scatter_xy(spec, p)
        scatter = pg.ScatterPlotItem(
            x=px, y=py, symbol=p.symbol,
            size=12 if p.highlight else 9, brush=pg.mkBrush(_color(col, 230)),
            pen=pg.mkPen(pc["foreground"] if p.highlight else pc["background"], width=1.2),
            data=list(p.tips) or None, hoverable=True, tip=_tip_text)
        item.addItem(scatter)
        return scatter

    def _build(self, spec: ChartSpec) -> None:
        pc = theme.plot_colors(self.look)
        item = self.plot.getPlotItem()
        item.clear()
        self._items = None
        if self.legend is not None:
            if self.legend.scene() is not None:
                self.legend.scene().removeItem(self.legend)
            item.legend = None  # PlotItem.addLegend would otherwise hand back the removed legend
            self.legend = None
        self._set_axes(item, spec, pc)
        if spec.empty:  # nothing of the chart before stays: no legend under an empty plot
            self.legend_label.hide()
            self.legend_label.clear()
            self._hidden_labels = []
            if not (self.compact and spec.empty_reason):  # (a compact chart says why in its caption)
                text = pg.TextItem(spec.empty_reason or "No data", color=pc["muted"], anchor=(0.5, 0.5))
                item.addItem(text)
                text.setPos(0.5, 0.5)
            item.setXRange(0, 1)
            item.setYRange(0, 1)
            return
        item.enableAutoRange(axis="x")  # a chart drawn anew spans its data (an empty one fixed 0-1)
        items: dict[str, list] = {"curves": [], "points": [], "lines": [], "regions": []}
        colors = self._series_colors(spec)
        self.series_color = colors
        for region in spec.regions:
            r = pg.LinearRegionItem(values=(region.start, region.end), movable=False,
                                    brush=pg.mkBrush(_color(pc["good"], 55)), pen=pg.mkPen(None))
            r.setZValue(-10)
            item.addItem(r)
            items["regions"].append(r)
        items["curves"] = self._add_curves(item, spec, colors, pc)
        items["points"] = [self._add_points(item, spec, p, pc) for p in spec.points]
        x0, x1 = self._x_span(spec)
        for line in spec.lines:
            items["lines"].append(self._add_line(item, line, pc, x0, x1, spec))
        self._items = items
        self._show_legend(spec, colors, pc)

    def _set_axes(self, item, spec: ChartSpec, pc: dict) -> None:
        """Log modes, axis titles (shortened to the unit on a compact chart) and the x ticks."""
        item.setLogMode(x=spec.log_x, y=spec.log_y)
        style = {"color": pc["foreground"]}
        if self.compact:  # workshop mode: large fonts, small plots; keep the axis titles whole
            base = QApplication.font().pointSizeF()
            style["font-size"] = f"{max(min(base, 10.0), base * 0.75):.1f}pt"
        bottom_label = axis_label(spec.x_label, spec.x_unit)
        if self.compact and len(bottom_label) > 30 and spec.x_unit:
            bottom_label = spec.x_unit  # a small chart: the unit under the axis, the quantity in the title
        item.setLabel("bottom", bottom_label, **style)
        left = axis_label(spec.y_label, spec.y_unit)
        if self.compact and len(left) > 16 and spec.y_unit:
            left = spec.y_unit  # a small chart: the unit on the axis, the quantity in the title (never cut)
        self._left_label = (left, spec.y_unit or left, style)
        item.setLabel("left", left, **style)
        self._fit_left_label()
        bottom = self.plot.getAxis("bottom")
        bottom.setTicks([spec.x_ticks] if spec.x_ticks else None)

    def _add_curves(self, item, spec: ChartSpec, colors: dict, pc: dict) -> list:
        """Each curve (its band between low and high first), the recommended one wide; ``(main, lo,
        hi)`` per curve."""
        any_highlight = any(c.highlight for c in spec.curves)
        drawn = []
        for c in spec.curves:
            col = colors.get(c.color_key or c.name, pc["accent"])
            mean = np.asarray(c.mean, dtype=float)
            x = np.asarray(c.x, dtype=float)
            lo = hi = None
            if c.low is not None and c.high is not None:
                lo = item.plot(x, np.asarray(c.low, dtype=float), pen=pg.mkPen(None))
                hi = item.plot(x, np.asarray(c.high, dtype=float), pen=pg.mkPen(None))
                band = pg.FillBetweenItem(lo, hi, brush=pg.mkBrush(_color(col, 60 if c.highlight else 34)))
                band.setZValue(-5)
                item.addItem(band)
            width = 3.6 if c.highlight else (1.6 if any_highlight else 2.2)
            alpha = 255 if c.highlight or not any_highlight else 190
            name = c.name + ("  ★ recommended" if c.highlight and any_highlight and len(spec.curves) > 1 else "")
            if not c.in_legend:
                name = None
            main = item.plot(x, mean, pen=pg.mkPen(_color(col, alpha), width=width, style=_STYLES.get(c.style)))
            main.opts["name"] = name  # named for the legend under the plot (not drawn in the plot area)
            drawn.append((main, lo, hi))
        return drawn

    def legend_entries(self, spec: ChartSpec, colors: dict | None = None) -> list[tuple[str, str, str, bool]]:
        """(name, colour, sample, chosen) of each series the legend names (:func:`ui.plots.legend.entries`)."""
        colors = colors if colors is not None else self._series_colors(spec)
        return legend.entries(spec, colors, theme.plot_colors(self.look), self.compact, self._hidden_labels)

    def _show_legend(self, spec: ChartSpec, colors: dict, pc: dict) -> None:
        entries = self.legend_entries(spec, colors)
        self._legend_shown = entries
        if not entries:
            self.legend_label.hide()
            return
        size = max(self.font().pointSizeF(), 7.0) * 0.9
        self.legend_label.setText(legend.html_text(entries, size, pc["foreground"]))
        self.legend_label.show()
        self._fit_height()

    def _add_line(self, item, line, pc, x0: float, x1: float, spec: ChartSpec):
        """Draw one line; returns its item (None when it cannot be drawn, e.g. <= 0 on a log axis)."""
        color = pc[legend.LINE_COLOR[line.kind]]
        label = None if self.compact and line.kind in ("bound", "marker") else line.label
        style = Qt.PenStyle.DashLine if line.kind == "bound" else Qt.PenStyle.SolidLine
        pen = pg.mkPen(color, width=2 if line.kind != "bound" else 1.5, style=style)
        if line.slope is not None:
            x = np.linspace(x0, x1, 50)
            return item.plot(x, line.slope * x + line.pos, pen=pen)
        pos = line.pos
        log = spec.log_y if line.axis == "y" else spec.log_x
        if log:
            if pos <= 0:
                return None
            pos = math.log10(pos)
        right_half = line.axis == "x" and x1 > x0 and (line.pos - x0) / (x1 - x0) > 0.55
        # a horizontal line's label sits at the left end, or at the right end when the legend is on the left
        label_right = line.axis == "y" and spec.legend in ("tl", "bl")
        anchor = (1, 0) if right_half or label_right else (0, 0)
        position = LABEL_TOP if line.axis == "x" or label_right else 0.1
        inf = pg.InfiniteLine(pos=pos, angle=0 if line.axis == "y" else 90, pen=pen, movable=False,
                              label=label,
                              labelOpts={"position": position, "color": color,
                                         "fill": _color(pc["background"], 200), "anchors": [anchor, anchor]})
        item.addItem(inf)
        return inf

    # --- export --------------------------------------------------------------------------
    def to_image(self, width: int = 900, height: int = 520) -> QImage:
        """The chart (title, plot, caption) rendered at ``width`` x ``height`` pixels (without
        its buttons: the picture goes to paper)."""
        hidden = self.data_button.isHidden()
        self.data_button.hide()
        try:
            return self._grab(width, height)
        finally:
            self.data_button.setHidden(hidden)

    def _grab(self, width: int, height: int) -> QImage:
        self.resize(width, height)
        self.layout().activate()
        self.grab()  # the first paint sizes the axes to their tick labels (pyqtgraph measures while drawing)
        QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        self.layout().activate()
        return self.grab().toImage()


def _tip_text(x, y, data) -> str:
    return f"{data}\n{y:.4g}" if data else f"{y:.4g}"
