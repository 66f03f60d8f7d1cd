"""Worst-case response times of fixed-priority tasks inside a VM (thesis Equation (5) with (6)).

``R_i = f^-1(C_i + sum_{j<i} ceil(R_i / T_j) C_j, T_VM, C_VM, X)``, solved by the usual fixed-point
iteration from below (section 11.4). Tasks are in priority order (RM, or DM with constrained
deadlines). All times are in the task set's unit; ``inf`` marks a task whose higher-priority load is at
least the VM's useful share (no finite fixed point).

:func:`response_time` is the plain scalar iteration of the thesis (the reference); the other functions
run the same iteration on numpy arrays: all tasks at once (:func:`response_times`), or every task over
many VM periods (:func:`response_time_curves`, :func:`max_ratio_curve`) for plotting.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from advisor.progress import CancelToken, ProgressCallback, check, report
from advisor.realtime.supply import REL_TOL, ceil_tol, supply_inverse
from knowledge.infra.errors import InputError

MAX_ITERATIONS = 1_000_000
#: :func:`response_times` and :func:`task_response_at_budgets` give up (:class:`IterationLimit`) after
#: this many rounds; the start from the linear lower bound makes ordinary sets settle in a few dozen
MAX_VECTOR_ITERATIONS = 20_000


class IterationLimit(InputError):
    """The response-time iteration did not settle within :data:`MAX_VECTOR_ITERATIONS` rounds."""


def linear_start(wcet, hp_util, period, budget, overhead=0.0):
    """A lower bound on the least fixed point ``R_i`` (time units), where the iteration may start.

    ``W(t) >= C_i + U_hp t`` and ``f^-1(w) >= (T_VM - C_VM) + w / rho`` with ``rho = (C_VM - X) / T_VM``,
    so ``R_i >= ((T_VM - C_VM) + C_i / rho) / (1 - U_hp / rho)`` whenever ``U_hp < rho`` (0 otherwise);
    shrunk by 1e-6 against rounding. Iterating from below any start under ``R_i`` ends at ``R_i``."""
    rho = (np.asarray(budget, float) - overhead) / period
    with np.errstate(divide="ignore", invalid="ignore"):
        beta = np.where(rho > 0, hp_util / np.where(rho > 0, rho, 1.0), np.inf)
        alpha = (period - np.asarray(budget, float)) + np.asarray(wcet, float) / np.where(rho > 0, rho, 1.0)
        start = np.where(beta < 1, alpha / np.where(beta < 1, 1 - beta, 1.0), 0.0)
    return np.maximum(start, 0.0) * (1 - 1e-6)


def _ceil(x: float) -> int:
    return math.ceil(x - REL_TOL * max(1.0, abs(x)))


def response_time(i: int, periods: Sequence[float], wcets: Sequence[float], period: float,
                  budget: float, overhead: float = 0.0, limit: float | None = None) -> float:
    """``R_i`` of the task at priority position ``i`` (0 = highest), by Equation (5) iterated.

    ``periods``/``wcets`` are in priority order; ``period``/``budget`` are ``T_VM``/``C_VM``; time units.
    With ``limit``, the iteration stops as soon as it exceeds ``limit`` and returns ``inf`` (enough to
    decide ``R_i <= D_i`` without following a slowly converging iteration).
    """
    theta = budget - overhead
    if theta <= 0:
        return math.inf
    hp_util = math.fsum(wcets[j] / periods[j] for j in range(i))
    if theta / period <= hp_util * (1 - REL_TOL):
        return math.inf

    def f_inv(w: float) -> float:  # Equation (6)
        return (period - budget) + w + _ceil(w / theta) * (period - theta)

    r = f_inv(math.fsum(wcets[: i + 1]))
    for _ in range(MAX_ITERATIONS):
        if limit is not None and r > limit * (1 + REL_TOL):
            return math.inf
        w = wcets[i] + math.fsum(_ceil(r / periods[j]) * wcets[j] for j in range(i))
        nxt = f_inv(w)
        if nxt <= r:
            return r
        r = nxt
    return math.inf


class _Demand:
    """``sum_{j < i} ceil(r / T_j) C_j`` for tasks at priority positions ``i`` at times ``r``.

    With few distinct periods the higher-priority wcets are summed per distinct period once (an
    ``n x d`` table); otherwise each row masks the lower-priority columns. Rows are processed in
    blocks so that temporaries stay below a few million entries."""

    def __init__(self, periods: np.ndarray, wcets: np.ndarray):
        self.periods, self.wcets = periods, wcets
        self.uniq, inverse = np.unique(periods, return_inverse=True)
        n, d = len(periods), len(self.uniq)
        self.table = None
        if n * d <= 4_000_000 and d < n:
            step = np.zeros((n, d))
            step[np.arange(n), inverse] = wcets
            self.table = np.vstack([np.zeros((1, d)), np.cumsum(step, axis=0)[:-1]])  # row i: tasks < i

    def __call__(self, r: np.ndarray, tasks: np.ndarray) -> np.ndarray:
        out = np.zeros(len(tasks))
        if self.table is not None:
            step = max(1, 2_000_000 // len(self.uniq))
            for a in range(0, len(tasks), step):
                jobs = np.ceil(r[a:a + step, None] / self.uniq[None, :] * (1 - REL_TOL))
                out[a:a + step] = np.einsum("ij,ij->i", jobs, self.table[tasks[a:a + step]])
            return out
        step = max(1, 2_000_000 // max(1, len(self.periods)))
        for a in range(0, len(tasks), step):
            ii = tasks[a:a + step]
            m = int(ii.max())
            if m == 0:
                continue
            jobs = np.ceil(r[a:a + step, None] / self.periods[None, :m] * (1 - REL_TOL))
            jobs[np.arange(m)[None, :] >= ii[:, None]] = 0.0
            out[a:a + step] = jobs @ self.wcets[:m]
        return out


def response_times(periods: np.ndarray, wcets: np.ndarray, period: float, budget: float,
                   overhead: float = 0.0, limits: np.ndarray | None = None,
                   only: np.ndarray | None = None, demand: _Demand | None = None) -> np.ndarray:
    """``R_i`` of every task (priority order) at one ``(T_VM, C_VM)``, all tasks iterated together.

    ``limits`` (per task, time units): stop a task's iteration once it exceeds its limit (``inf``).
    ``only``: the priority positions to compute (the others stay ``inf``)."""
    n = len(periods)
    theta = budget - overhead
    out = np.full(n, np.inf)
    if theta <= 0:
        return out
    hp_util = np.concatenate([[0.0], np.cumsum(wcets / periods)[:-1]])
    alive = theta / period > hp_util * (1 - REL_TOL)
    r = supply_inverse(np.cumsum(wcets), period, budget, overhead)
    r = np.maximum(r, linear_start(wcets, hp_util, period, budget, overhead))
    active = np.flatnonzero(alive)
    if only is not None:
        active = np.intersect1d(active, np.asarray(only, dtype=np.int64))
    demand = demand or _Demand(periods, wcets)
    for _ in range(MAX_VECTOR_ITERATIONS):
        if not len(active):
            break
        if limits is not None:
            over = r[active] > limits[active] * (1 + REL_TOL)
            active = active[~over]
            if not len(active):
                break
        w = wcets[active] + demand(r[active], active)
        nxt = supply_inverse(w, period, budget, overhead)
        done = nxt <= r[active]
        out[active[done]] = r[active[done]]
        r[active] = np.maximum(nxt, r[active])
        active = active[~done]
    else:
        if len(active):
            raise _limit()
    return out


def _limit() -> IterationLimit:
    return IterationLimit(f"the response-time iteration did not settle within {MAX_VECTOR_ITERATIONS:,} "
                          "rounds (a VM share just above the higher-priority load, with deadlines far "
                          "apart); give a larger share or budget")


def response_time_curves(periods: np.ndarray, wcets: np.ndarray, vm_periods: np.ndarray,
                         share: float, overhead: float = 0.0, limits: np.ndarray | None = None,
                         progress: ProgressCallback | None = None,
                         cancel: CancelToken | None = None) -> np.ndarray:
    """``R_i`` for every task (rows, priority order) at every ``T_VM`` in ``vm_periods`` (columns),
    with ``C_VM = share * T_VM``. ``inf`` where no finite response time exists or, with ``limits`` (per
    task, time units), where it exceeds the task's limit."""
    vm = np.asarray(vm_periods, dtype=float)
    budget = share * vm
    theta = budget - overhead
    n, m = len(periods), len(vm)
    out = np.full((n, m), np.inf)
    rho = np.where(theta > 0, theta / vm, -1.0)
    hp_util = 0.0
    uniq, inverse = np.unique(periods, return_inverse=True)
    load = np.zeros(len(uniq))  # higher-priority wcets summed per distinct period
    for i in range(n):
        check(cancel)
        report(progress, i / n, f"response times of task {i + 1}/{n}")
        cols = np.flatnonzero(rho > hp_util * (1 - REL_TOL))
        present = np.flatnonzero(load > 0)
        hp_t, hp_c = uniq[present], load[present]
        r = supply_inverse(np.full(len(cols), wcets[: i + 1].sum()), vm[cols], budget[cols], overhead)
        r = np.maximum(r, linear_start(wcets[i], hp_util, vm[cols], budget[cols], overhead))
        if i:  # R_i >= R_{i-1}: the request bound of task i dominates that of i-1, so start there
            prev = out[i - 1, cols]
            r = np.where(np.isfinite(prev), np.maximum(r, prev), r)
        for _ in range(MAX_ITERATIONS):
            if limits is not None:
                keep = r <= limits[i] * (1 + REL_TOL)
                cols, r = cols[keep], r[keep]
            if not len(cols):
                break
            if i:  # ceil with a relative tolerance (r > 0): a ratio within REL_TOL above k counts as k
                w = wcets[i] + np.ceil(r[:, None] / hp_t[None, :] * (1 - REL_TOL)) @ hp_c
            else:
                w = np.full(len(cols), wcets[0])
            nxt = supply_inverse(w, vm[cols], budget[cols], overhead)
            done = nxt <= r
            out[i, cols[done]] = r[done]
            cols, r = cols[~done], nxt[~done]
        hp_util += wcets[i] / periods[i]
        load[inverse[i]] += wcets[i]
    report(progress, 1.0, "response times done")
    return out


def max_ratio_curve(periods: np.ndarray, wcets: np.ndarray, deadlines: np.ndarray,
                    vm_periods: np.ndarray, share: float, overhead: float = 0.0, cap: float | None = None,
                    progress: ProgressCallback | None = None,
                    cancel: CancelToken | None = None) -> np.ndarray:
    """``max_i R_i / D_i`` (dimensionless) at every ``T_VM`` of ``vm_periods`` for ``C_VM = share T_VM``,
    the solid curve of Figures 11.12-11.15; at most 1 exactly where the task set is schedulable.
    With ``cap``, ratios above it are reported as ``inf`` (bounds the work near the left bound)."""
    limits = None if cap is None else cap * deadlines
    curves = response_time_curves(periods, wcets, vm_periods, share, overhead, limits, progress, cancel)
    return (curves / deadlines[:, None]).max(axis=0)


def task_response_at_budgets(i: int, periods: np.ndarray, wcets: np.ndarray, period: float,
                             budgets: np.ndarray, overhead: float, limit: float) -> np.ndarray:
    """``R_i`` of the task at priority position ``i`` for every VM budget in ``budgets`` at one
    ``T_VM`` (all iterated together); ``inf`` where it exceeds ``limit`` or has no fixed point."""
    budgets = np.asarray(budgets, float)
    out = np.full(len(budgets), np.inf)
    hp_t, hp_c = periods[:i], wcets[:i]
    hp_util = float(np.sum(hp_c / hp_t))
    cols = np.flatnonzero((budgets - overhead) / period > hp_util * (1 - REL_TOL))
    r = supply_inverse(np.full(len(cols), float(np.sum(wcets[: i + 1]))), period, budgets[cols], overhead)
    r = np.maximum(r, linear_start(wcets[i], hp_util, period, budgets[cols], overhead))
    for _ in range(MAX_VECTOR_ITERATIONS):
        keep = r <= limit * (1 + REL_TOL)
        cols, r = cols[keep], r[keep]
        if not len(cols):
            break
        w = wcets[i] + (ceil_tol(r[:, None] / hp_t[None, :]) @ hp_c if i else 0.0)
        nxt = supply_inverse(w, period, budgets[cols], overhead)
        done = nxt <= r
        out[cols[done]] = r[done]
        cols, r = cols[~done], nxt[~done]
    else:
        if len(cols):
            raise _limit()
    return out


def min_budget_by_iteration(periods: np.ndarray, wcets: np.ndarray, deadlines: np.ndarray, period: float,
                            overhead: float = 0.0, rel_tol: float = 1e-7) -> tuple[float, int | None]:
    """Least ``C_VM`` at ``T_VM = period`` (to ``rel_tol`` relative, on the safe side) for which every
    task meets its deadline, found with response-time iteration only (no checkpoints), and the
    position of the task that sets it; ``(inf, None)`` if even ``C_VM = T_VM`` fails.

    Schedulability at a fixed ``T_VM`` only improves with the budget. Starting from the utilization
    bound, each round checks all tasks at the current budget; a failing task's own least budget is
    then bracketed by evaluating it at 64 budgets at once, and becomes the new current budget. Each
    round raises the budget strictly, so the rounds end; picking the failing task at random leaves
    about half of the failing ones behind per round (O(log n) rounds expected)."""
    u = float(np.sum(wcets / periods))
    hi = float(period)
    demand = _Demand(periods, wcets)
    full = response_times(periods, wcets, period, hi, overhead, limits=deadlines, demand=demand)
    if not np.all(full <= deadlines * (1 + REL_TOL)):
        return math.inf, None
    current = max(overhead + u * period * (1 - REL_TOL), overhead)
    critical = None
    rng = np.random.default_rng(0)  # deterministic choices
    bad = np.arange(len(periods))
    for _ in range(len(periods) + 1):
        # a task that passed at a smaller budget passes at this one: recheck the failing ones only
        rts = response_times(periods, wcets, period, current, overhead, limits=deadlines, only=bad,
                             demand=demand)
        bad = bad[~(rts[bad] <= deadlines[bad] * (1 + REL_TOL))]
        if not len(bad):
            return current, critical
        i = int(rng.choice(bad))  # a random failing task: about half of the others pass at its budget
        lo, top = current, hi
        while top - lo > rel_tol * top:
            grid = np.linspace(lo, top, 66)[1:-1]
            ok = task_response_at_budgets(i, periods, wcets, period, grid, overhead,
                                          float(deadlines[i])) <= deadlines[i] * (1 + REL_TOL)
            first = int(np.argmax(ok)) if ok.any() else None
            if first is None:
                lo = float(grid[-1])
            else:
                top = float(grid[first])
                lo = float(grid[first - 1]) if first else lo
        current, critical = top, i
    return current, critical
