"""What :func:`advisor.realtime.analysis.analyze` returns: the task set's and every task's figures.

Times are in the task set's unit; :meth:`RealtimeResult.to_dict` is the JSON of ``capadvisor rt``.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from advisor.realtime.bounds import PredictionBounds
from advisor.realtime.supply import REL_TOL
from advisor.realtime.tasks import TaskSet


def _json(value):
    """Floats for JSON: ``inf``/``nan`` become ``None``."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


@dataclass(frozen=True)
class TaskResult:
    """One task's figures (times in task-set units).

    ``response_time`` is at the chosen ``(T_VM, C_VM)`` (``None`` under EDF, where the demand test has
    no per-task response time); ``intervals`` are the periods where this task alone meets its deadline at
    the result's share, ``max_period`` their supremum, ``first_limit`` the end of the first one and
    ``cumulative_max_period`` the largest ``T_VM`` where it and all higher-priority tasks meet theirs
    (the per-task numbers of section 11.5); ``min_budget`` is its own least ``C_VM`` at the chosen period.
    """

    name: str
    priority: int
    period: float
    wcet: float
    deadline: float
    utilization: float
    response_time: float | None = None
    ratio: float | None = None
    meets_deadline: bool | None = None
    max_period: float | None = None
    first_limit: float | None = None
    cumulative_max_period: float | None = None
    min_budget: float | None = None
    intervals: list[tuple[float, float]] = field(default_factory=list)


@dataclass(frozen=True)
class RealtimeResult:
    """Everything :func:`analyze` found; :meth:`to_dict` is the CLI's JSON."""

    unit: str
    policy: str
    priority_order: str
    overhead: float
    utilization: float
    speed_scale: float | None
    feasible: bool
    reason: str | None
    share: float | None
    max_period: float | None
    max_period_robust: float | None
    budget: float | None
    critical_task: str | None
    feasible_intervals: list[tuple[float, float]]
    period: float | None
    chosen_budget: float | None
    min_budget: float | None
    min_share: float | None
    tasks: list[TaskResult]
    bounds: PredictionBounds | None
    exact: bool = True
    exact_range: tuple[float, float] | None = None
    notes: list[str] = field(default_factory=list)
    curve: dict | None = None
    intervals_computed: bool = True

    @property
    def response_times(self) -> dict[str, float | None]:
        """Task name -> worst-case response time at the chosen ``(T_VM, C_VM)`` (time units)."""
        return {t.name: t.response_time for t in self.tasks}

    def to_dict(self) -> dict:
        """JSON-ready dict (``inf`` -> ``None``); keys as documented in ``capadvisor rt --help``."""
        out = {
            "unit": self.unit, "policy": self.policy, "priority_order": self.priority_order,
            "feasible": self.feasible, "reason": self.reason,
            "share": self.share, "overhead": self.overhead, "utilization": self.utilization,
            "speed_scale": self.speed_scale,
            "max_period": self.max_period, "max_period_robust": self.max_period_robust,
            "budget": self.budget, "critical_task": self.critical_task,
            "feasible_intervals": [list(iv) for iv in self.feasible_intervals],
            "period": self.period, "chosen_budget": self.chosen_budget,
            "response_times": self.response_times,
            "tasks": [asdict(t) | {"intervals": [list(iv) for iv in t.intervals]} for t in self.tasks],
            "bounds": self.bounds.to_dict() if self.bounds else None,
            "exact": self.exact,
            "exact_range": list(self.exact_range) if self.exact_range else None,
            "notes": list(self.notes),
            "intervals_computed": self.intervals_computed,
        }
        if self.min_budget is not None:
            out["min_budget"] = self.min_budget
        if self.min_share is not None:
            out["min_share"] = self.min_share
        if self.curve is not None:
            out["curve"] = self.curve
        return _json(out)


def make_result(ts: TaskSet, order: list[int], policy: str, order_name: str, x: float,
                speed_scale: float | None, notes: list[str], **kw: Any) -> RealtimeResult:
    """A RealtimeResult with the common fields filled in, ``kw`` on top; every task listed (``order``:
    the task indices in priority order)."""
    res = RealtimeResult(unit=ts.unit, policy=policy, priority_order=order_name, overhead=x,
                         utilization=ts.utilization, speed_scale=speed_scale, feasible=False, reason=None,
                         share=None, max_period=None, max_period_robust=None, budget=None,
                         critical_task=None, feasible_intervals=[], period=None, chosen_budget=None,
                         min_budget=None, min_share=None, tasks=[], bounds=None, notes=notes)
    res = replace(res, **kw)
    if not res.tasks:
        res = replace(res, tasks=[TaskResult(t.name, r + 1, t.period, t.wcet, t.relative_deadline,
                                             t.utilization)
                                  for r, t in enumerate(ts.tasks[i] for i in order)])
    return res


def infeasible_reason(share: float, overhead: float, u: float, bounds: PredictionBounds) -> str:
    if u > 1 + REL_TOL:
        return f"the task set's utilization {u:.6g} exceeds 1: no single core can run it"
    if bounds.left_bound is None or (share <= u * (1 + REL_TOL) and not (share >= 1 and overhead == 0)):
        return (f"share {share:g} is not above the task set's utilization {u:.6g}: the VM would get less "
                f"CPU than the tasks need (Equation (7) needs (C_VM - X)/T_VM >= U)")
    if bounds.predicted_interval is None:
        return (f"no T_VM works at share {share:g} with overhead {overhead:g}: the left bound "
                f"{bounds.left_bound:.6g} (Equation (7)) lies right of the lower bound's crossing of 1 at "
                f"{bounds.upper_limit:.6g} (Equation (8)), section 11.8.2")
    return (f"no T_VM works at share {share:g} with overhead {overhead:g}: between the bounds "
            f"{bounds.left_bound:.6g} and {bounds.upper_limit:.6g} some task always misses its deadline")
