"""VM period and budget for a hard real-time task set (thesis chapter 11): the queries in one call.

:func:`analyze` answers, for one task set, overhead ``X`` and scheduling policy inside the VM:

* with ``share`` (``C_VM / T_VM``): every schedulable interval of ``T_VM``, the largest ``T_VM``, its
  budget and the critical task (queries (a) and (c) of the issue);
* with ``period`` (``T_VM``): the smallest budget ``C_VM`` (query (b)), then the intervals for the
  resulting share;
* with neither: the smallest share for which some ``T_VM`` works (to 1e-6 relative), then as with
  ``share``;

and always the prediction bounds of section 11.8.2 (query (d)) and every task's response time at the
chosen ``(T_VM, C_VM)``. :func:`ratio_curve` gives the plotted curve ``max R_i / D_i`` against ``T_VM``.
All times are in the task set's unit. Pure functions; long loops take ``progress`` and ``cancel``.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from advisor.progress import CancelToken, ProgressCallback, check, report
from advisor.realtime import edf
from advisor.realtime.bounds import PredictionBounds, prediction_bounds
from advisor.realtime.intervals import TooManyCheckpoints, fp_intervals, fp_min_budget, fp_points
from advisor.realtime.response import max_ratio_curve, min_budget_by_iteration, response_times
from advisor.realtime.supply import REL_TOL
from advisor.realtime.tasks import TaskSet
from knowledge.infra.errors import InputError

POLICIES = ("rm", "edf")
#: relative precision of the smallest-share search
SHARE_TOL = 1e-7
#: :func:`ratio_curve` (fixed priorities) refuses curves needing more (task, distinct higher-priority
#: period, curve point) evaluations per iteration than this (about a second of numpy work per iteration)
MAX_CURVE_WORK = 20_000_000
#: beyond the checkpoint cap, a given VM period is still answered by response-time iteration when the
#: tasks have at most this many (task, distinct higher-priority period) pairs in all
MAX_ITERATION_PAIRS = 1_000_000


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


# ----------------------------------------------------------------------------------------- helpers

def _intersect_lists(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if lo <= hi * (1 + REL_TOL):
            out.append((lo, max(lo, hi)))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def _containing_end(intervals: list[tuple[float, float]], x: float) -> float | None:
    for a, b in intervals:
        if a * (1 - REL_TOL) <= x <= b * (1 + REL_TOL):
            return b
    return None


@dataclass(frozen=True)
class _Prepared:
    ts: TaskSet
    order: list[int]
    periods: np.ndarray
    wcets: np.ndarray
    deadlines: np.ndarray
    policy: str

    def points(self):
        return fp_points(self.periods, self.wcets, self.deadlines)


def _prepare(taskset: TaskSet, policy: str, speed_scale: float | None) -> _Prepared:
    if policy not in POLICIES:
        raise InputError(f"policy {policy!r}: use one of {', '.join(POLICIES)}")
    ts = taskset.scaled(speed_scale)
    order = ts.priority_order()
    tasks = [ts.tasks[i] for i in order]
    return _Prepared(ts, order, np.array([t.period for t in tasks]), np.array([t.wcet for t in tasks]),
                     np.array([t.relative_deadline for t in tasks]), policy)


def _check_numbers(share, period, overhead) -> None:
    if share is not None and period is not None:
        raise InputError("give either a share (C_VM/T_VM) or a period (T_VM), not both")
    if share is not None and not (math.isfinite(share) and 0 < share <= 1):
        raise InputError(f"share {share!r}: must be in (0, 1] (C_VM / T_VM)")
    if period is not None and not (math.isfinite(period) and period > 0):
        raise InputError(f"period {period!r}: must be a positive time")
    if not (math.isfinite(overhead) and overhead >= 0):
        raise InputError(f"overhead {overhead!r}: must be a non-negative time")


def _intervals(prep: _Prepared, points, share: float, overhead: float, progress=None, cancel=None):
    """``(set intervals, per-task intervals or None, exact, exact_range, windowed)`` for one share;
    ``windowed`` is None, or (when the per-task lists were truncated) the per-task intervals within
    the prediction bounds, exact there."""
    if prep.policy == "edf":
        ed = edf.intervals(prep.periods, prep.wcets, prep.deadlines, share, overhead, progress, cancel)
        full = ed.exact_range[0] <= 0 and math.isinf(ed.exact_range[1])
        return ed.intervals, None, not ed.truncated, None if full else ed.exact_range, None
    res = fp_intervals(points, share, overhead)
    if not res.truncated:
        return res.intervals, res.per_task, True, None, None
    # too many pieces: the per-task lists lost some at the smallest periods; the set's intervals are
    # recomputed where they can lie (the prediction bounds), which needs far fewer pieces
    u = float(np.sum(prep.wcets / prep.periods))
    window = prediction_bounds(share, overhead, u, "", float(prep.deadlines[0]),
                               float(prep.wcets[0])).predicted_interval
    if window is None:
        return [], res.per_task, True, None, []
    inner = fp_intervals(points, share, overhead, window)
    return inner.intervals, res.per_task, not inner.truncated, None, inner.per_task


def min_share(prep: _Prepared, points, overhead: float, progress: ProgressCallback | None = None,
              cancel: CancelToken | None = None) -> float | None:
    """Smallest ``C_VM / T_VM`` for which some ``T_VM`` is schedulable, to ``SHARE_TOL`` relative
    (bisection: schedulability at a fixed ``T_VM`` only improves with the budget); ``None`` if even
    share 1 fails."""
    u = float(np.sum(prep.wcets / prep.periods))

    def ok(s: float) -> bool:
        if prep.policy == "edf":
            return edf.any_schedulable(prep.periods, prep.wcets, prep.deadlines, s, overhead)
        # only periods within the prediction bounds can work (necessary conditions): look there only
        window = prediction_bounds(s, overhead, u, "", float(prep.deadlines[0]),
                                   float(prep.wcets[0])).predicted_interval
        return window is not None and bool(fp_intervals(points, s, overhead, window).intervals)

    if not ok(1.0):
        return None
    lo = float(np.sum(prep.wcets / prep.periods))
    hi = 1.0
    steps = max(1, math.ceil(math.log2(max(hi - lo, 1e-300) / (SHARE_TOL * hi))))
    for n in range(steps + 2):
        if hi - lo <= SHARE_TOL * hi:
            break
        check(cancel)
        report(progress, n / steps, "searching the smallest share")
        mid = 0.5 * (lo + hi)
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def fluid_min_share(prep: _Prepared, points) -> float:
    """Without overhead, the infimum of the shares for which some ``T_VM`` works: as ``T_VM -> 0`` the
    supply tends to ``s t``, so it is ``max_i min_p w / p`` (fixed priorities) or ``sup_t dbf(t) / t``
    (EDF); it is approached only as ``T_VM -> 0`` (sections 11.6 and 11.9). Dimensionless."""
    if prep.policy == "rm":
        best = np.full(points.n_owners, np.inf)
        np.minimum.at(best, points.owner, points.w / points.p)
        return float(best.max())
    u = float(np.sum(prep.wcets / prep.periods))
    kk = float(np.sum((prep.periods - prep.deadlines) * prep.wcets / prep.periods))
    until = float(prep.deadlines.max() + prep.periods.max())
    while True:
        t, d, covered = edf.checkpoints(prep.periods, prep.wcets, prep.deadlines, until)
        m = max(float(np.max(d / t)), u)
        if u + kk / covered <= m * (1 + REL_TOL) or covered < until:
            return m
        until *= 4


def _infeasible_reason(share: float, overhead: float, u: float, bounds: PredictionBounds) -> str:
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


# ------------------------------------------------------------------------------------------- API

def analyze(taskset: TaskSet, share: float | None = None, period: float | None = None,
            overhead: float = 0.0, policy: str = "rm", speed_scale: float | None = None,
            curve_points: int = 0, progress: ProgressCallback | None = None,
            cancel: CancelToken | None = None) -> RealtimeResult:
    """Analyse ``taskset`` in a VM with overhead ``X = overhead`` (time units); see the module doc.

    ``share`` in (0, 1] or ``period`` (time units), not both; ``policy`` is ``"rm"`` (fixed priorities,
    rate- or deadline-monotonic) or ``"edf"``; ``speed_scale`` is host core speed / measured core speed
    (``C_i`` are divided by it); ``curve_points > 0`` adds ``max R_i / D_i`` over that many periods.
    Infeasible inputs give ``feasible=False`` with a ``reason``; malformed ones raise InputError.
    """
    _check_numbers(share, period, overhead)
    if share is not None and share >= 1 - 1e-12:
        share = 1.0  # below this distance the formulas in (1 - share) are all rounding
    prep = _prepare(taskset, policy, speed_scale)
    ts, x = prep.ts, float(overhead)
    u = ts.utilization
    notes: list[str] = []
    try:
        points = prep.points() if policy == "rm" else None
    except TooManyCheckpoints as exc:
        if period is not None and _distinct_hp_pairs(prep.periods) <= MAX_ITERATION_PAIRS:
            # one VM period: response-time iteration needs no checkpoints
            return _period_by_iteration(prep, period, x, speed_scale, exc)
        where = f"{ts.source}: " if ts.source else ""
        if period is not None:
            raise InputError(f"{where}{exc}; the check by response-time iteration at one VM period is "
                             f"limited to {MAX_ITERATION_PAIRS:,} (task, distinct higher-priority period) "
                             "pairs too. EDF has its own bounded analysis (--policy edf)") from None
        raise InputError(f"{where}{exc}. At one VM period the exact check by response-time iteration "
                         "still works (give a period, e.g. rt --period T), and EDF has its own bounded "
                         "analysis (--policy edf)") from None
    order_name = "edf" if policy == "edf" else ("dm" if ts.has_constrained_deadlines else "rm")
    first = ts.tasks[prep.order[0]]
    report(progress, 0.0, "analysing")

    def result(**kw: Any) -> RealtimeResult:
        s = kw.get("share")
        bounds = None if s is None else prediction_bounds(s, x, u, first.name, first.relative_deadline,
                                                          first.wcet)
        return _make_result(prep, policy, order_name, x, speed_scale, notes,
                            **({"bounds": bounds, "period": period} | kw))

    chosen_budget = None
    per_task_budget = None
    found_min_share = None
    if period is not None:
        if x >= period:
            return result(reason=f"overhead {x:g} is not below the period {period:g}: no budget can leave "
                                 f"useful time (C_VM must exceed X)")
        if policy == "edf":
            need, exact_b = edf.min_budget(prep.periods, prep.wcets, prep.deadlines, period, x)
            if not exact_b:
                notes.append("EDF checkpoint cap reached: min_budget is sufficient, not minimal")
        else:
            assert points is not None  # fixed priority: the checkpoints exist
            need, per_task_budget = fp_min_budget(points, period, x)
        if not math.isfinite(need) or need > period * (1 + REL_TOL):
            return result(min_budget=None,
                          reason=f"no budget C_VM <= T_VM = {period:g} makes the task set schedulable "
                                 f"with overhead {x:g}" + (f" (utilization {u:.6g})" if u >= 1 else ""))
        chosen_budget = min(need, period)
        share = chosen_budget / period
    elif share is None and x == 0:
        found_min_share = fluid_min_share(prep, points)
        notes.append("without overhead, shorter periods always need a smaller share (sections 11.6, 11.9): "
                     "min_share is only approached as T_VM -> 0; give an overhead for a finite best period, "
                     "or a share or period")
        return result(feasible=found_min_share <= 1 + REL_TOL, min_share=found_min_share,
                      reason=None if found_min_share <= 1 + REL_TOL else
                      f"not schedulable even with the whole core: demand rate {found_min_share:.6g} > 1")
    elif share is None:
        found_min_share = min_share(prep, points, x, progress, cancel)
        if found_min_share is None:
            return result(reason=f"not schedulable even with the whole core (share 1) and overhead {x:g}"
                                 + (f"; utilization {u:.6g} > 1" if u > 1 else ""))
        share = found_min_share
        notes.append(f"no share or period given: using the smallest share that works, {share:.7g}")

    check(cancel)
    report(progress, 0.3, "schedulable periods")
    ivals, per_task, exact, exact_range, windowed = _intervals(prep, points, share, x, progress, cancel)
    if not exact:
        notes.append("some result ranges were truncated (very many breakpoints); see exact/exact_range")
    elif windowed is not None:
        notes.append("per-task intervals at the smallest periods were truncated (very many breakpoints); "
                     "the task set's intervals are exact")
    unknown = exact_range is not None and not exact_range[0] < exact_range[1]
    if unknown:
        notes.append("EDF intervals: no T_VM could be checked exactly (the deadlines to check exceed the "
                     "limit: the share is too close to the utilization)")
    elif exact_range is not None:
        notes.append(f"EDF intervals are exact for T_VM in [{exact_range[0]:.6g}, {exact_range[1]:.6g}]")
    bounds = prediction_bounds(share, x, u, first.name, first.relative_deadline, first.wcet)

    if not ivals and period is None:
        why = (f"no T_VM found at share {share:g}: it exceeds the utilization {u:.6g} by too little for "
               f"an exact EDF check" if unknown else _infeasible_reason(share, x, u, bounds))
        return result(share=share, min_share=found_min_share, exact=exact, exact_range=exact_range, reason=why)

    max_period = ivals[-1][1] if ivals else None
    robust = next((b for a, b in reversed(ivals) if b - a > REL_TOL * max(1.0, b)), None)
    if max_period is not None and robust is not None and robust < max_period:
        notes.append(f"the largest schedulable T_VM {max_period:.6g} is an isolated point; the largest "
                     f"with schedulable neighbours is {robust:.6g}")
    # the chosen operating point
    if period is not None:
        chosen_period, budget = period, chosen_budget
    elif max_period is not None and math.isfinite(max_period):
        chosen_period, budget = max_period, share * max_period
    else:
        chosen_period = ivals[-1][0] if ivals[-1][0] > 0 else prep.deadlines.max()
        budget = share * chosen_period
        notes.append(f"every T_VM from {ivals[-1][0]:.6g} on works; response times are given at "
                     f"T_VM = {chosen_period:.6g}")

    # per-task figures
    if policy == "rm":
        assert points is not None and budget is not None  # a feasible fixed-priority result
        rts = response_times(prep.periods, prep.wcets, chosen_period, budget, x,
                             limits=100 * prep.deadlines)  # R/D > 100: inf, not a long iteration
        if period is None:
            per_task_budget = fp_min_budget(points, chosen_period, x)[1]
    else:
        rts = None
        notes.append("EDF: the demand-bound test gives no per-task response times or per-task periods")
    cumulative: list[tuple[float, float]] | None = None
    tasks, ends = [], []
    for r, i in enumerate(prep.order):
        t = ts.tasks[i]
        own = per_task[r] if per_task is not None else []
        if per_task is not None:
            cumulative = own if cumulative is None else _intersect_lists(cumulative, own)
        rt = None if rts is None else float(rts[r])
        tasks.append(TaskResult(
            t.name, r + 1, t.period, t.wcet, t.relative_deadline, t.utilization,
            response_time=rt, ratio=None if rt is None else rt / t.relative_deadline,
            meets_deadline=None if rt is None else rt <= t.relative_deadline * (1 + REL_TOL),
            max_period=own[-1][1] if own else None, first_limit=own[0][1] if own else None,
            cumulative_max_period=cumulative[-1][1] if cumulative else None,
            min_budget=None if per_task_budget is None else float(per_task_budget[r]),
            intervals=own))
        near = own if not windowed else windowed[r]  # exact around max_period
        ends.append(_containing_end(near, max_period) if max_period is not None else None)

    critical = None
    if policy == "edf":  # the task with a job due at the deadline that fails first beyond the optimum
        if period is not None and budget is not None:
            probe = (period, x + (budget - x) * (1 - 1e-6))
        elif max_period is not None and math.isfinite(max_period):
            probe = (max_period * (1 + 1e-6), share * max_period * (1 + 1e-6))
        else:
            probe = None
        worst = probe and edf.worst_deadline(prep.periods, prep.wcets, prep.deadlines, *probe, x)
        critical = tasks[worst[1]].name if worst else None
    elif period is not None and per_task_budget is not None:
        critical = tasks[int(np.argmax(per_task_budget))].name
    elif per_task is not None and max_period is not None and math.isfinite(max_period):
        candidates = [(e, r) for r, e in enumerate(ends) if e is not None]
        if candidates:
            critical = tasks[min(candidates)[1]].name

    curve = None
    if curve_points:
        lo = bounds.left_bound or 0.0
        hi = max(bounds.upper_limit if math.isfinite(bounds.upper_limit) else 0.0,
                 max_period if max_period and math.isfinite(max_period) else 0.0) * 1.25
        if hi <= lo:
            hi = lo + float(prep.deadlines.max())
        grid = np.linspace(max(0.8 * lo, hi * 1e-3), hi, int(curve_points))
        values = ratio_curve(ts, grid, share, x, policy, progress=progress, cancel=cancel)
        curve = {"periods": grid.tolist(), "max_ratio": values.tolist()}

    report(progress, 1.0, "done")
    feasible = bool(ivals) if period is None else True
    reason = None if feasible else _infeasible_reason(share, x, u, bounds)
    if period is not None and not ivals:
        notes.append("the min budget works at this period, but no interval of periods has positive length")
    return result(feasible=feasible, reason=reason, share=share, max_period=max_period,
                  max_period_robust=robust, budget=chosen_budget if period is not None else budget,
                  critical_task=critical, feasible_intervals=ivals, period=chosen_period,
                  chosen_budget=budget, min_budget=chosen_budget if period is not None else None,
                  min_share=found_min_share, tasks=tasks, bounds=bounds, exact=exact,
                  exact_range=exact_range, curve=curve)


def _make_result(prep: _Prepared, policy: str, order_name: str, x: float, speed_scale: float | None,
                 notes: list[str], **kw: Any) -> RealtimeResult:
    """A RealtimeResult with the common fields filled in, ``kw`` on top; every task listed."""
    ts = prep.ts
    res = RealtimeResult(unit=ts.unit, policy=policy, priority_order=order_name, overhead=x,
                         utilization=ts.utilization, speed_scale=speed_scale, feasible=False, reason=None,
                         share=None, max_period=None, max_period_robust=None, budget=None,
                         critical_task=None, feasible_intervals=[], period=None, chosen_budget=None,
                         min_budget=None, min_share=None, tasks=[], bounds=None, notes=notes)
    res = replace(res, **kw)
    if not res.tasks:
        res = replace(res, tasks=[TaskResult(t.name, r + 1, t.period, t.wcet, t.relative_deadline,
                                             t.utilization)
                                  for r, t in enumerate(ts.tasks[i] for i in prep.order)])
    return res


def _period_by_iteration(prep: _Prepared, period: float, x: float, speed_scale: float | None,
                         why: TooManyCheckpoints) -> RealtimeResult:
    """``analyze`` with a ``period`` for a task set with too many checkpoints: the least budget by
    bisection on ``C_VM`` with exact response-time iteration (schedulability at a fixed ``T_VM`` only
    improves with the budget), to ``SHARE_TOL`` relative; no interval of periods, no per-task budgets."""
    ts = prep.ts
    u = ts.utilization
    first = ts.tasks[prep.order[0]]
    order_name = "dm" if ts.has_constrained_deadlines else "rm"
    notes = [f"more than {why.limit:,} checkpoints: the least budget at T_VM = {period:g} was "
             "found by response-time iteration and bisection on C_VM; schedulable period intervals and "
             "per-task budgets are not computed"]

    def result(**kw: Any) -> RealtimeResult:
        return _make_result(prep, "rm", order_name, x, speed_scale, notes,
                            **({"intervals_computed": False, "period": period} | kw))

    if x >= period:
        return result(reason=f"overhead {x:g} is not below the period {period:g}: no budget can leave "
                             f"useful time (C_VM must exceed X)")
    budget, crit = (math.inf, None) if u > 1 + REL_TOL else min_budget_by_iteration(
        prep.periods, prep.wcets, prep.deadlines, period, x, SHARE_TOL)
    if not math.isfinite(budget):
        return result(reason=f"no budget C_VM <= T_VM = {period:g} makes the task set schedulable "
                             f"with overhead {x:g}" + (f" (utilization {u:.6g})" if u >= 1 else ""))
    share = budget / period
    rts = response_times(prep.periods, prep.wcets, period, budget, x, limits=100 * prep.deadlines)
    tasks = []
    for r, i in enumerate(prep.order):
        t = ts.tasks[i]
        rt = float(rts[r])
        tasks.append(TaskResult(t.name, r + 1, t.period, t.wcet, t.relative_deadline, t.utilization,
                                response_time=rt if math.isfinite(rt) else None,
                                ratio=rt / t.relative_deadline if math.isfinite(rt) else None,
                                meets_deadline=rt <= t.relative_deadline * (1 + REL_TOL)))
    bounds = prediction_bounds(share, x, u, first.name, first.relative_deadline, first.wcet)
    return result(feasible=True, share=share, budget=budget, chosen_budget=budget, min_budget=budget,
                  critical_task=None if crit is None else tasks[crit].name, tasks=tasks,
                  bounds=bounds)


def ratio_curve(taskset: TaskSet, vm_periods, share: float, overhead: float = 0.0, policy: str = "rm",
                speed_scale: float | None = None, cap: float | None = 100.0,
                progress: ProgressCallback | None = None, cancel: CancelToken | None = None) -> np.ndarray:
    """The curve of Figures 11.12-11.15 for plotting: at every ``T_VM`` in ``vm_periods`` (time units),
    ``max_i R_i / D_i`` (fixed priorities) or ``max_t f^-1(dbf(t)) / t`` (EDF), with ``C_VM = share T_VM``.
    At most 1 exactly where the task set is schedulable; ``inf`` where no finite value exists or (fixed
    priorities) where a ratio exceeds ``cap`` (``None``: no cap, exact however slow the iteration)."""
    _check_numbers(share, None, overhead)
    prep = _prepare(taskset, policy, speed_scale)
    grid = np.asarray(vm_periods, dtype=float)
    if policy == "edf":
        return edf.ratio_curve(prep.periods, prep.wcets, prep.deadlines, grid, share, overhead,
                               progress, cancel)
    work = _distinct_hp_pairs(prep.periods) * max(1, grid.size)
    if work > MAX_CURVE_WORK:
        where = f"{taskset.source}: " if taskset.source else ""
        raise InputError(f"{where}the curve of max R_i/D_i would need {work:,} task-period evaluations per "
                         f"iteration (limit {MAX_CURVE_WORK:,}): use fewer points, or fewer distinct periods")
    return max_ratio_curve(prep.periods, prep.wcets, prep.deadlines, grid, share, overhead, cap, progress,
                           cancel)


def _distinct_hp_pairs(periods: np.ndarray) -> int:
    """Sum over tasks (priority order) of the number of distinct higher-priority periods."""
    seen: set[float] = set()
    total = 0
    for t in periods.tolist():
        total += len(seen)
        seen.add(t)
    return total


def min_budget(taskset: TaskSet, period: float, overhead: float = 0.0, policy: str = "rm",
               speed_scale: float | None = None) -> float:
    """Least ``C_VM`` (time units) at ``T_VM = period`` that keeps every deadline; ``inf`` if none."""
    _check_numbers(None, period, overhead)
    prep = _prepare(taskset, policy, speed_scale)
    if policy == "edf":
        return edf.min_budget(prep.periods, prep.wcets, prep.deadlines, period, overhead)[0]
    value = fp_min_budget(prep.points(), period, overhead)[0]
    return value if value <= period * (1 + REL_TOL) else math.inf


def schedulable(taskset: TaskSet, period: float, budget: float, overhead: float = 0.0,
                policy: str = "rm", speed_scale: float | None = None) -> bool:
    """True if every task meets its deadline in a VM getting ``budget`` every ``period`` (time units)."""
    prep = _prepare(taskset, policy, speed_scale)
    if policy == "edf":
        return edf.schedulable(prep.periods, prep.wcets, prep.deadlines, period, budget, overhead)
    rts = response_times(prep.periods, prep.wcets, period, budget, overhead, limits=prep.deadlines)
    return bool(np.all(rts <= prep.deadlines * (1 + REL_TOL)))
