"""The timeline chart (#31): demand against capacity over the growth horizon, from the advice's
own :class:`~advisor.growth.Timeline` (so chart, JSON and report are one set of numbers).

Per year: each resource's demand in hosts' worth (its total over one host's usable capacity),
the active hosts whole VMs need (a step: the purchase points are where it rises), the planned
active hosts as the capacity line and the year they run out. Registered in
:mod:`advisor.figures.registry` as ``timeline``; :mod:`advisor.figures.charts` imports it.
"""

from __future__ import annotations

import numpy as np

from advisor.figures.registry import builds
from advisor.figures.spec import ChartSpec, Curve, Line, Mark, Points

#: the resources the chart draws (the host count's labels, short), in legend order
SHOWN = {"cpu_allocation": "CPU allocation", "cpu_load": "CPU load", "ram": "RAM", "disk_capacity": "disk capacity"}
TITLE = "Demand against capacity over the years"


def _steps(years: list[int], values: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """A step line: each year's value held until the next year (the last year's ends there: the
    horizon says nothing of the years after it)."""
    x, y = [], []
    for i, (yr, v) in enumerate(zip(years, values, strict=True)):
        x += [float(yr), float(years[i + 1]) if i + 1 < len(years) else float(yr)]
        y += [float(v), float(v)]
    return np.array(x), np.array(y)


def _empty(reason: str) -> ChartSpec:
    return ChartSpec("timeline", TITLE, "years from today", "years", "hosts", "hosts", empty_reason=reason)


@builds("timeline")
def timeline_chart(kb, scenario, advice, inputs: dict) -> ChartSpec:
    """Hosts' worth of demand per resource and the hosts needed, per year, against the planned
    active hosts; purchase points and the year the planned hosts run out."""
    tl = advice.timeline if advice is not None else None
    if tl is None or not tl.years:
        return _empty("No growth in this scenario: add a growth section (horizon_years, cpu_pct_per_year, "
                      "ram_pct_per_year, storage_pct_per_year) to see the hosts over the years.")
    years = [y.year for y in tl.years]
    spec = ChartSpec("timeline", TITLE, "years from today", "years", "demand and capacity", "hosts", legend="tl",
                     caption=(f"Demand of each resource in hosts' worth (its total over one host's usable "
                              f"capacity), the active hosts whole VMs need (triangles: hosts bought) and the "
                              f"{tl.planned_active} planned active hosts."))
    for key, label in SHOWN.items():
        cap = tl.capacity.get(key, 0.0)
        if cap > 0 and any(y.demand.get(key, 0.0) > 0 for y in tl.years):
            spec.curves.append(Curve(f"{label} demand", np.array(years, dtype=float),
                                     np.array([y.demand[key] / cap for y in tl.years]), style="dash",
                                     color_key=key))
    x, needed = _steps(years, [y.active_hosts for y in tl.years])
    spec.curves.insert(0, Curve("active hosts needed", x, needed, highlight=True, color_key="hosts"))
    bought = [y for y in tl.years if y.year and y.buy]
    if bought:
        spec.points.append(Points("hosts bought", np.array([float(y.year) for y in bought]),
                                  np.array([float(y.active_hosts) for y in bought]),
                                  [f"year {y.year}: buy {y.buy} host{'s' if y.buy != 1 else ''}" for y in bought],
                                  color_key="purchase", symbol="t1"))
    spec.lines.append(Line(f"planned: {tl.planned_active} active hosts", float(tl.planned_active), "y"))
    if tl.runs_out is not None:
        spec.lines.append(Line(f"runs out: year {tl.runs_out['year']} ({tl.runs_out['resource'].replace('_', ' ')})",
                               float(tl.runs_out["year"]), "x"))
    rec = advice.find("host_count")
    if rec is not None and rec.value is not None and "active_hosts" in rec.expected:
        spec.mark(Mark(f"year 0, advised: {tl.years[0].active_hosts} active hosts", 0.0, rec.expected["active_hosts"].value,
                       "host_count", "cluster", "active_hosts", unit="active hosts"))
    spec.x_ticks = [(float(y), str(y)) for y in years]
    return spec
