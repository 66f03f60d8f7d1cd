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
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from advisor.progress import CancelToken, ProgressCallback, check, report
from advisor.realtime import edf
from advisor.realtime.bounds import PredictionBounds, prediction_bounds
from advisor.realtime.intervals import Points, TooManyCheckpoints, fp_intervals, fp_min_budget, fp_points
from advisor.realtime.response import max_ratio_curve, min_budget_by_iteration, response_times
from advisor.realtime.result import RealtimeResult, TaskResult, infeasible_reason, make_result
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
    x = float(overhead)
    try:
        points = prep.points() if policy == "rm" else None
    except TooManyCheckpoints as exc:
        return _without_checkpoints(prep, period, x, speed_scale, exc)
    run = _Run(prep, points, period, x, speed_scale, progress, cancel)
    report(progress, 0.0, "analysing")
    settled = _settle_share(run, share)
    if isinstance(settled, RealtimeResult):
        return settled
    return _at_share(run, settled, curve_points)


@dataclass
class _Run:
    """One :func:`analyze` call: the prepared task set, the inputs every step reads, the notes so far."""

    prep: _Prepared
    points: Points | None  # the fixed-priority checkpoints; None under EDF
    period: float | None
    x: float
    speed_scale: float | None
    progress: ProgressCallback | None
    cancel: CancelToken | None
    notes: list[str] = field(default_factory=list)

    @property
    def policy(self) -> str:
        return self.prep.policy

    @property
    def u(self) -> float:
        return self.prep.ts.utilization

    def bounds(self, share: float) -> PredictionBounds:
        """The prediction bounds of section 11.8.2 at ``share`` (first task in priority order)."""
        first = self.prep.ts.tasks[self.prep.order[0]]
        return prediction_bounds(share, self.x, self.u, first.name, first.relative_deadline, first.wcet)

    def result(self, **kw: Any) -> RealtimeResult:
        """The result with the bounds at ``kw``'s share and the given period, ``kw`` on top."""
        s = kw.get("share")
        bounds = None if s is None else self.bounds(s)
        ts = self.prep.ts
        order_name = "edf" if self.policy == "edf" else ("dm" if ts.has_constrained_deadlines else "rm")
        return make_result(self.prep.ts, self.prep.order, self.policy, order_name, self.x, self.speed_scale, self.notes,
                            **({"bounds": bounds, "period": self.period} | kw))


@dataclass(frozen=True)
class _Share:
    """The share the periods are searched at, and what finding it left (the least budget at a given
    period, per task under fixed priorities; the smallest share when none was given)."""

    share: float
    chosen_budget: float | None = None
    per_task_budget: np.ndarray | None = None
    found_min_share: float | None = None


@dataclass(frozen=True)
class _Periods:
    """The schedulable periods at one share (see :func:`_intervals`); ``unknown``: EDF could check
    no period exactly."""

    ivals: list[tuple[float, float]]
    per_task: list[list[tuple[float, float]]] | None
    exact: bool
    exact_range: tuple[float, float] | None
    windowed: list[list[tuple[float, float]]] | None
    unknown: bool


@dataclass(frozen=True)
class _Point:
    """The chosen operating point: the largest schedulable period (and the largest with schedulable
    neighbours), the period the response times are given at and its budget."""

    max_period: float | None
    robust: float | None
    period: float
    budget: float | None


def _without_checkpoints(prep: _Prepared, period: float | None, x: float, speed_scale: float | None,
                         exc: TooManyCheckpoints) -> RealtimeResult:
    """Too many fixed-priority checkpoints: one VM period is still answered by response-time
    iteration when the task set allows; otherwise the refusal says what still works."""
    ts = prep.ts
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


def _settle_share(run: _Run, share: float | None) -> RealtimeResult | _Share:
    """The share to search the periods at (given, from the least budget at the given period, or the
    smallest that works), or the final result when that already settles the question."""
    if run.period is not None:
        return _budget_at_period(run, run.period)
    if share is None and run.x == 0:
        return _fluid_share(run)
    if share is None:
        return _searched_share(run)
    return _Share(share)


def _budget_at_period(run: _Run, period: float) -> RealtimeResult | _Share:
    """Query (b): the least budget ``C_VM`` at ``T_VM = period``, and the share it gives."""
    prep, x, u = run.prep, run.x, run.u
    if x >= period:
        return run.result(reason=f"overhead {x:g} is not below the period {period:g}: no budget can leave "
                                 f"useful time (C_VM must exceed X)")
    per_task_budget = None
    if run.policy == "edf":
        need, exact_b = edf.min_budget(prep.periods, prep.wcets, prep.deadlines, period, x)
        if not exact_b:
            run.notes.append("EDF checkpoint cap reached: min_budget is sufficient, not minimal")
    else:
        assert run.points is not None  # fixed priority: the checkpoints exist
        need, per_task_budget = fp_min_budget(run.points, period, x)
    if not math.isfinite(need) or need > period * (1 + REL_TOL):
        return run.result(min_budget=None,
                          reason=f"no budget C_VM <= T_VM = {period:g} makes the task set schedulable "
                                 f"with overhead {x:g}" + (f" (utilization {u:.6g})" if u >= 1 else ""))
    chosen_budget = min(need, period)
    return _Share(chosen_budget / period, chosen_budget=chosen_budget, per_task_budget=per_task_budget)


def _fluid_share(run: _Run) -> RealtimeResult:
    """No share, period or overhead: the infimum share, approached only as ``T_VM -> 0``."""
    found = fluid_min_share(run.prep, run.points)
    run.notes.append("without overhead, shorter periods always need a smaller share (sections 11.6, 11.9): "
                     "min_share is only approached as T_VM -> 0; give an overhead for a finite best period, "
                     "or a share or period")
    return run.result(feasible=found <= 1 + REL_TOL, min_share=found,
                      reason=None if found <= 1 + REL_TOL else
                      f"not schedulable even with the whole core: demand rate {found:.6g} > 1")


def _searched_share(run: _Run) -> RealtimeResult | _Share:
    """No share or period: the smallest share for which some ``T_VM`` works."""
    x, u = run.x, run.u
    found = min_share(run.prep, run.points, x, run.progress, run.cancel)
    if found is None:
        return run.result(reason=f"not schedulable even with the whole core (share 1) and overhead {x:g}"
                                 + (f"; utilization {u:.6g} > 1" if u > 1 else ""))
    run.notes.append(f"no share or period given: using the smallest share that works, {found:.7g}")
    return _Share(found, found_min_share=found)


def _at_share(run: _Run, settled: _Share, curve_points: int) -> RealtimeResult:
    """Queries (a), (c) and (d) at the settled share: the schedulable periods, the operating point,
    every task's figures, the critical task and the curve."""
    share, x, u, period = settled.share, run.x, run.u, run.period
    check(run.cancel)
    report(run.progress, 0.3, "schedulable periods")
    found = _schedulable_periods(run, share)
    bounds = run.bounds(share)
    if not found.ivals and period is None:
        why = (f"no T_VM found at share {share:g}: it exceeds the utilization {u:.6g} by too little for "
               f"an exact EDF check" if found.unknown else infeasible_reason(share, x, u, bounds))
        return run.result(share=share, min_share=settled.found_min_share, exact=found.exact,
                          exact_range=found.exact_range, reason=why)
    point = _operating_point(run, share, found.ivals, settled.chosen_budget)
    rts, per_task_budget = _response_times(run, point, settled.per_task_budget)
    tasks, ends = _task_results(run, found, point, rts, per_task_budget)
    critical = _critical_task(run, share, found, point, tasks, ends, per_task_budget)
    curve = _curve(run, share, bounds, point.max_period, curve_points) if curve_points else None
    report(run.progress, 1.0, "done")
    feasible = bool(found.ivals) if period is None else True
    reason = None if feasible else infeasible_reason(share, x, u, bounds)
    if period is not None and not found.ivals:
        run.notes.append("the min budget works at this period, but no interval of periods has positive length")
    return run.result(feasible=feasible, reason=reason, share=share, max_period=point.max_period,
                      max_period_robust=point.robust,
                      budget=settled.chosen_budget if period is not None else point.budget,
                      critical_task=critical, feasible_intervals=found.ivals, period=point.period,
                      chosen_budget=point.budget,
                      min_budget=settled.chosen_budget if period is not None else None,
                      min_share=settled.found_min_share, tasks=tasks, bounds=bounds, exact=found.exact,
                      exact_range=found.exact_range, curve=curve)


def _schedulable_periods(run: _Run, share: float) -> _Periods:
    """Every schedulable interval of ``T_VM`` at ``share``, with notes on what is exact."""
    ivals, per_task, exact, exact_range, windowed = _intervals(run.prep, run.points, share, run.x,
                                                               run.progress, run.cancel)
    notes = run.notes
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
    return _Periods(ivals, per_task, exact, exact_range, windowed, unknown)


def _operating_point(run: _Run, share: float, ivals: list[tuple[float, float]],
                     chosen_budget: float | None) -> _Point:
    """The largest schedulable ``T_VM`` and the period and budget the response times are given at."""
    max_period = ivals[-1][1] if ivals else None
    robust = next((b for a, b in reversed(ivals) if b - a > REL_TOL * max(1.0, b)), None)
    if max_period is not None and robust is not None and robust < max_period:
        run.notes.append(f"the largest schedulable T_VM {max_period:.6g} is an isolated point; the largest "
                         f"with schedulable neighbours is {robust:.6g}")
    if run.period is not None:
        return _Point(max_period, robust, run.period, chosen_budget)
    if max_period is not None and math.isfinite(max_period):
        return _Point(max_period, robust, max_period, share * max_period)
    chosen_period = ivals[-1][0] if ivals[-1][0] > 0 else run.prep.deadlines.max()
    run.notes.append(f"every T_VM from {ivals[-1][0]:.6g} on works; response times are given at "
                     f"T_VM = {chosen_period:.6g}")
    return _Point(max_period, robust, chosen_period, share * chosen_period)


def _response_times(run: _Run, point: _Point, per_task_budget: np.ndarray | None,
                    ) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Every task's response time at the operating point, and (fixed priorities) every task's least
    budget there; EDF has neither."""
    prep = run.prep
    if run.policy != "rm":
        run.notes.append("EDF: the demand-bound test gives no per-task response times or per-task periods")
        return None, per_task_budget
    assert run.points is not None and point.budget is not None  # a feasible fixed-priority result
    rts = response_times(prep.periods, prep.wcets, point.period, point.budget, run.x,
                         limits=100 * prep.deadlines)  # R/D > 100: inf, not a long iteration
    if run.period is None:
        per_task_budget = fp_min_budget(run.points, point.period, run.x)[1]
    return rts, per_task_budget


def _task_results(run: _Run, found: _Periods, point: _Point, rts: np.ndarray | None,
                  per_task_budget: np.ndarray | None) -> tuple[list[TaskResult], list[float | None]]:
    """Every task's figures (priority order), and the end of its interval containing ``max_period``."""
    cumulative: list[tuple[float, float]] | None = None
    tasks, ends = [], []
    for r, i in enumerate(run.prep.order):
        t = run.prep.ts.tasks[i]
        own = found.per_task[r] if found.per_task is not None else []
        if found.per_task is not None:
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
        near = own if not found.windowed else found.windowed[r]  # exact around max_period
        ends.append(_containing_end(near, point.max_period) if point.max_period is not None else None)
    return tasks, ends


def _critical_task(run: _Run, share: float, found: _Periods, point: _Point, tasks: list[TaskResult],
                   ends: list[float | None], per_task_budget: np.ndarray | None) -> str | None:
    """The task that limits the result: under EDF the one with a job due at the deadline that fails
    first beyond the optimum; at a given period the one needing the largest budget; else the one whose
    interval around ``max_period`` ends first."""
    prep, x, period, max_period = run.prep, run.x, run.period, point.max_period
    if run.policy == "edf":
        if period is not None and point.budget is not None:
            probe = (period, x + (point.budget - x) * (1 - 1e-6))
        elif max_period is not None and math.isfinite(max_period):
            probe = (max_period * (1 + 1e-6), share * max_period * (1 + 1e-6))
        else:
            probe = None
        worst = probe and edf.worst_deadline(prep.periods, prep.wcets, prep.deadlines, *probe, x)
        return tasks[worst[1]].name if worst else None
    if period is not None and per_task_budget is not None:
        return tasks[int(np.argmax(per_task_budget))].name
    if found.per_task is not None and max_period is not None and math.isfinite(max_period):
        candidates = [(e, r) for r, e in enumerate(ends) if e is not None]
        if candidates:
            return tasks[min(candidates)[1]].name
    return None


def _curve(run: _Run, share: float, bounds: PredictionBounds, max_period: float | None,
           curve_points: int) -> dict:
    """``max R_i / D_i`` over ``curve_points`` periods around the bounds and ``max_period``."""
    lo = bounds.left_bound or 0.0
    hi = max(bounds.upper_limit if math.isfinite(bounds.upper_limit) else 0.0,
             max_period if max_period and math.isfinite(max_period) else 0.0) * 1.25
    if hi <= lo:
        hi = lo + float(run.prep.deadlines.max())
    grid = np.linspace(max(0.8 * lo, hi * 1e-3), hi, int(curve_points))
    values = ratio_curve(run.prep.ts, grid, share, run.x, run.policy, progress=run.progress,
                         cancel=run.cancel)
    return {"periods": grid.tolist(), "max_ratio": values.tolist()}


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
        return make_result(prep.ts, prep.order, "rm", order_name, x, speed_scale, notes,
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
