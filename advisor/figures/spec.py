"""What a chart shows, as plain data (no Qt): curves with interval bands, measured points, limit
lines, shaded regions and the advice's own numbers (:class:`Mark`), with axis labels that carry
their units. Built by :mod:`advisor.figures.charts` from an Advice, drawn by
:class:`ui.plots.charts.ChartWidget`, exported by the report."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from advisor.figures.prose import fmt_value


@dataclass
class Curve:
    """A model curve: ``mean`` over ``x`` with an optional ``[low, high]`` band; ``highlight`` marks
    the recommended option; ``style`` is ``solid``, ``dash`` or ``dot``."""

    name: str
    x: np.ndarray
    mean: np.ndarray
    low: np.ndarray | None = None
    high: np.ndarray | None = None
    highlight: bool = False
    style: str = "solid"
    color_key: str = ""
    extrapolated: np.ndarray | None = None
    in_legend: bool = True


@dataclass
class Points:
    """Measured points (``tips`` give each point's document and locator)."""

    name: str
    x: np.ndarray
    y: np.ndarray
    tips: list[str] = field(default_factory=list)
    color_key: str = ""
    symbol: str | list[str] = "o"
    highlight: bool = False


@dataclass
class Line:
    """A horizontal (``axis="y"``) or vertical (``axis="x"``) line at ``pos``, or a sloped line
    ``y = slope * x + pos`` when ``slope`` is given."""

    label: str
    pos: float
    axis: str = "y"
    slope: float | None = None
    kind: str = "limit"   # limit (red), bound (grey dashed), marker (accent)


@dataclass
class Region:
    """A shaded interval ``[start, end]`` of the x axis."""

    start: float
    end: float
    label: str = ""


@dataclass
class Mark:
    """Where the advice sits on a chart: the input it was decided at (``x``: a vertical line) and,
    when the chart plots the card's figure, that figure (``y``, the value of the expected figure
    ``figure`` of the recommendation ``decision``/``scope``). A what-if input moves ``x``; ``y``
    is then None (the card's figure belongs to the advised input)."""

    label: str
    x: float
    y: float | None = None
    decision: str = ""
    scope: str = ""
    figure: str = ""
    #: the unit of ``y`` in the star's legend entry, where it is not the chart's y unit ("active hosts")
    unit: str = ""


@dataclass
class ChartSpec:
    """One chart. ``key`` identifies it (and its screenshot/report figure)."""

    key: str
    title: str
    x_label: str
    x_unit: str
    y_label: str
    y_unit: str
    curves: list[Curve] = field(default_factory=list)
    points: list[Points] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    regions: list[Region] = field(default_factory=list)
    caption: str = ""
    log_x: bool = False
    log_y: bool = False
    x_ticks: list[tuple[float, str]] | None = None
    empty_reason: str = ""
    #: legend corner: "tr", "tl", "br", "bl"
    legend: str = "tr"
    #: fixed y range (data units), e.g. (0, 2.5) for ratios that go to infinity
    y_range: tuple[float, float] | None = None
    #: the advice's numbers on this chart (drawn as marker lines and highlighted points)
    marks: list[Mark] = field(default_factory=list)
    #: what a line style (``solid``, ``dash``, ``dot``) stands for, named in the legend where the
    #: curves drawn in it are not (e.g. dashed: the documents' testbed; solid: this cluster)
    style_notes: dict[str, str] = field(default_factory=dict)

    def mark(self, mark: Mark) -> Mark:
        """Add ``mark``: its marker line and, with a ``y``, its point on the recommended curve."""
        self.marks.append(mark)
        self.lines.append(Line(mark.label, float(mark.x), "x", kind="marker"))
        if mark.y is not None:  # on the recommended curve, in its colour (add the curves first)
            key = next((c.color_key or c.name for c in self.curves if c.highlight), "recommended")
            text = f"advised: {fmt_value(mark.y)} {mark.unit or self.y_unit}"
            self.points.append(Points(text, np.array([float(mark.x)]), np.array([float(mark.y)]), [text],
                                      color_key=key, symbol="star", highlight=True))
        return mark

    @property
    def empty(self) -> bool:
        return not (self.curves or self.points)

    def color_keys(self) -> list[str]:
        """Series names in a stable order, so one option keeps its colour in every chart."""
        keys: list[str] = []
        items: list[Curve | Points] = [*self.curves, *self.points]
        for item in items:
            k = item.color_key or item.name
            if k not in keys:
                keys.append(k)
        return keys
