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

MAX_ITERATIONS = 1_000_000


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


def response_times(periods: np.ndarray, wcets: np.ndarray, period: float, budget: float,
                   overhead: float = 0.0, limits: np.ndarray | None = None) -> np.ndarray:
    """``R_i`` of every task (priority order) at one ``(T_VM, C_VM)``, all tasks iterated together.

    ``limits`` (per task, time units): stop a task's iteration once it exceeds its limit (``inf``)."""
    n = len(periods)
    theta = budget - overhead
    out = np.full(n, np.inf)
    if theta <= 0:
        return out
    hp_util = np.concatenate([[0.0], np.cumsum(wcets / periods)[:-1]])
    alive = theta / period > hp_util * (1 - REL_TOL)
    lower = np.tril(np.ones((n, n)), -1) * wcets[None, :]
    r = supply_inverse(np.cumsum(wcets), period, budget, overhead)
    active = np.flatnonzero(alive)
    for _ in range(MAX_ITERATIONS):
        if not len(active):
            break
        if limits is not None:
            over = r[active] > limits[active] * (1 + REL_TOL)
            active = active[~over]
            if not len(active):
                break
        w = wcets[active] + (ceil_tol(r[active, None] / periods[None, :]) * lower[active]).sum(axis=1)
        nxt = supply_inverse(w, period, budget, overhead)
        done = nxt <= r[active]
        out[active[done]] = r[active[done]]
        r[active] = np.maximum(nxt, r[active])
        active = active[~done]
    return out


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
    for i in range(n):
        check(cancel)
        report(progress, i / n, f"response times of task {i + 1}/{n}")
        cols = np.flatnonzero(rho > hp_util * (1 - REL_TOL))
        hp_t, hp_c = periods[:i], wcets[:i]
        r = supply_inverse(np.full(len(cols), wcets[: i + 1].sum()), vm[cols], budget[cols], overhead)
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
