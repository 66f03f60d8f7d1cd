"""The chart registry: every chart declared once, with the decision whose card it shows and where it
appears (the Plots tab, the report, the what-if tab, the workshop view), in each view's reading order.

Its builder is registered where it is written (:func:`builds` in :mod:`advisor.figures.charts`); the
views read :func:`keys`, the tests :func:`of_decision`. Adding a chart: a :class:`Chart` line here, a
builder with ``@builds("<key>")``; nothing else lists chart keys. This module imports nothing of the
project, so every layer may read it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

#: the views that show charts
PLOTS, REPORT, WHATIF, WORKSHOP = "plots", "report", "whatif", "workshop"
VIEWS = (PLOTS, REPORT, WHATIF, WORKSHOP)


@dataclass(frozen=True)
class Chart:
    """One chart: its key, the decision whose card it shows (None: no card) and its place in each
    view (position in reading order, from 1; None: not shown there)."""

    key: str
    decision: str | None
    plots: int | None = None
    report: int | None = None
    whatif: int | None = None
    workshop: int | None = None

    def place(self, view: str) -> int | None:
        return getattr(self, view)


#: every chart (the report holds every chart of the Plots tab; the workshop the first four what-if charts)
CHARTS: tuple[Chart, ...] = (
    Chart("cache_mode", "cache_mode", plots=1, report=1, whatif=1, workshop=1),
    Chart("boot_time", "storage_backend", plots=2, report=2),
    Chart("cpu_utilization", "hypervisor", plots=3, report=3, whatif=5),
    Chart("image_transfer", "image_transfer", plots=4, report=4, whatif=3, workshop=3),
    Chart("overallocation_overhead", "vcpu_overallocation", plots=5, report=5, whatif=2, workshop=2),
    Chart("migration_downtime", "vcpu_overallocation", plots=6, report=6, whatif=6),
    Chart("realtime", "vm_period_budget", plots=7, report=7, whatif=4, workshop=4),
    Chart("site", None, plots=8, report=8),
    Chart("timeline", None, plots=9, report=9, whatif=7),  # the growth (#31): no card of its own
)
_BY_KEY = {c.key: c for c in CHARTS}
_BUILDERS: dict[str, Callable] = {}


def keys(view: str) -> tuple[str, ...]:
    """The chart keys of ``view``, in its reading order."""
    if view not in VIEWS:
        raise ValueError(f"no view {view!r}; views: {', '.join(VIEWS)}")
    placed = [(pos, c.key) for c in CHARTS if (pos := c.place(view)) is not None]
    return tuple(key for _, key in sorted(placed))


def of_decision(decision: str) -> tuple[str, ...]:
    """The charts that show ``decision``'s card (in the Plots tab's order)."""
    return tuple(c.key for c in CHARTS if c.decision == decision)


def builds(key: str) -> Callable[[Callable], Callable]:
    """Register the decorated function as the builder of chart ``key`` (declared in :data:`CHARTS`)."""
    if key not in _BY_KEY:
        raise KeyError(f"chart {key!r} is not declared in advisor.figures.registry.CHARTS")

    def register(fn: Callable) -> Callable:
        if key in _BUILDERS:
            raise KeyError(f"chart {key!r} has two builders: {_BUILDERS[key].__name__} and {fn.__name__}")
        _BUILDERS[key] = fn
        return fn

    return register


def builders() -> dict[str, Callable]:
    """key -> builder, for every chart of :data:`CHARTS`; a chart without a builder fails loudly."""
    missing = [c.key for c in CHARTS if c.key not in _BUILDERS]
    if missing:
        raise LookupError(f"charts declared without a builder: {', '.join(missing)}")
    return {c.key: _BUILDERS[c.key] for c in CHARTS}
