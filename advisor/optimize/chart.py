"""The cost chart of a design-space search (:func:`advisor.optimize.optimize`), as plain data: every
design that meets the targets (a sample when there are many), the Pareto front of cost against the
chosen figure, and the best design by the objective. Drawn by :class:`ui.plots.pareto.ParetoChart`;
each point knows its design, so clicking it can load that design."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from advisor.cost import money
from advisor.figures.prose import fmt_value
from advisor.figures.spec import ChartSpec, Curve, Points

#: the series names (the chart's legend)
FEASIBLE, FRONT, BEST = "designs that meet the targets", "Pareto front", "best by the objective"
#: at most this many of the other feasible designs are drawn
MAX_POINTS = 1500


@dataclass
class ParetoFigure:
    """A chart spec and, per series, the design of each of its points (in point order)."""

    spec: ChartSpec
    designs: dict[str, list] = field(default_factory=dict)

    def design_at(self, series: str, index: int):
        """The candidate of point ``index`` of ``series`` (None when there is none)."""
        items = self.designs.get(series, [])
        return items[index] if 0 <= index < len(items) else None


def design_text(c, result) -> str:
    """One line about a candidate: what it is, what it costs, its figure."""
    from advisor.optimize.search import FIGURES

    d = c.design
    label, unit, _ = FIGURES[result.figure]
    value = c.figure(result.figure)
    return (f"{d.host_model} x {c.hosts} hosts, {d.hypervisor}, {d.level} over-allocation, {d.storage.text()}: "
            f"{money(c.total, result.currency)} over {result.years:g} years; {label} "
            + ("—" if value is None else f"{fmt_value(value)} {unit}"))


def pareto_figure(result, max_points: int = MAX_POINTS) -> ParetoFigure:
    """The chart of ``result`` (an :class:`advisor.optimize.OptimizeResult`; with its table, the
    other feasible designs are drawn too)."""
    from advisor.optimize.search import FIGURES, _candidate, figure_values, representatives

    label, unit, larger = FIGURES[result.figure]
    spec = ChartSpec("pareto", f"Cost against {label}: {result.size:,} designs searched", "total cost over "
                     f"{result.years:g} years", result.currency, label, unit, legend="br" if larger else "tr")
    fig = ParetoFigure(spec)
    if result.best is None:
        spec.empty_reason = "No design meets every target and hard limit: " + ("; ".join(result.notes) or "")
        return fig
    table = result.table
    if table is not None:
        feasible, picks, values = representatives(table)
        rows = np.flatnonzero(feasible)
        if rows.size > max_points:
            rows = rows[np.linspace(0, rows.size - 1, max_points).astype(int)]
        ys = figure_values(table, result.figure, values)
        keep = rows[~np.isnan(ys[rows])]
        others = [_candidate(table, int(i), picks, values) for i in keep]
        spec.points.append(Points(FEASIBLE, table.total[keep].astype(float), ys[keep].astype(float),
                                  [design_text(c, result) for c in others], color_key="documents"))
        fig.designs[FEASIBLE] = others
    front = [c for c in result.pareto if c.figure(result.figure) is not None]
    if front:
        x = np.array([c.total for c in front], dtype=float)
        y = np.array([c.figure(result.figure) for c in front], dtype=float)
        spec.curves.append(Curve(FRONT, x, y, highlight=True, color_key=FRONT, in_legend=False))
        spec.points.append(Points(FRONT, x, y, [design_text(c, result) for c in front], color_key=FRONT,
                                  highlight=True))
        fig.designs[FRONT] = front
    b = result.best
    by = b.figure(result.figure)
    if by is not None:
        spec.points.append(Points(f"{BEST} ({result.objective})", np.array([b.total]), np.array([float(by)]),
                                  [design_text(b, result)], color_key=BEST, symbol="star", highlight=True))
        fig.designs[f"{BEST} ({result.objective})"] = [b]
    spec.caption = (f"{result.feasible:,} of {result.size:,} designs meet every target and hard limit. Each point is a "
                    f"design (host model, hypervisor, over-allocation, storage, cache modes, host count); the front "
                    f"holds those no cheaper design beats on {label}.")
    return fig
