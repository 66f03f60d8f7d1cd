"""What a chart shows, as plain data (no Qt): curves with interval bands, measured points, limit
lines and shaded regions, with axis labels that carry their units. Built in workers by
:mod:`ui.plots.series`, drawn by :class:`ui.plots.charts.ChartWidget`, exported by the report."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


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

    @property
    def empty(self) -> bool:
        return not (self.curves or self.points)

    def color_keys(self) -> list[str]:
        """Series names in a stable order, so one option keeps its colour in every chart."""
        keys: list[str] = []
        for item in (*self.curves, *self.points):
            k = item.color_key or item.name
            if k not in keys:
                keys.append(k)
        return keys
