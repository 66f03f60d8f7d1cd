"""EDF inside the VM: demand bound against the VM's worst-case supply (the option of section 11.2).

The thesis replaces the fixed-priority response-time equation by "the corresponding analysis for EDF";
that is the processor-demand test: all deadlines are met iff ``dbf(t) <= supply(t)`` for every ``t``,
with ``dbf(t) = sum_i max(0, floor((t - D_i) / T_i) + 1) C_i``. Equivalently ``f^-1(dbf(t)) <= t``
(Equation (6)), checked at the absolute deadlines ``t = k T_i + D_i``.

Only deadlines up to ``t_max = (rho B + K) / (rho - U)`` need checking, where ``rho = (C_VM - X) / T_VM``,
``B = 2 (T_VM - C_VM) + X``, ``U = sum C_i / T_i`` and ``K = sum (T_i - D_i) C_i / T_i``: beyond it the
linear bounds ``dbf(t) <= U t + K`` and ``supply(t) >= rho (t - B)`` settle it. ``t_max`` grows without
bound as ``rho`` approaches ``U``; the number of checkpoints is capped, and results say in which range
of ``T_VM`` (or for which budgets) they are exact. The interval search checks each deadline only where
the linear bounds leave it open (:func:`settled_range`), so its pieces stay few; should their cap still
bite, it checks fewer deadlines and, failing that, says above which ``T_VM`` it is exact. Times in
task-set units.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from advisor.progress import CancelToken, ProgressCallback, check, report
from advisor.realtime.intervals import Pieces, intersect_owners, merge_by_owner, min_effective_budget, pieces
from advisor.realtime.supply import REL_TOL, supply_inverse

#: at most this many absolute deadlines are checked
MAX_CHECKPOINTS = 200_000
#: when the pieces of the checked deadlines exceed their cap, the horizon is divided by this factor,
#: up to this many times, before the exact range is cut at the lowest dropped piece
_SHRINK_FACTOR = 8.0
_SHRINKS = 3
#: hyperperiods longer than this (in time units, or denominators above it) are treated as unknown
_LCM_LIMIT = 10**15


def _k_term(periods, wcets, deadlines) -> float:
    return float(np.sum((periods - deadlines) * wcets / periods))


def horizon(periods, wcets, deadlines, period: float, budget: float, overhead: float) -> float:
    """``t_max`` (time units): beyond it ``dbf(t) <= supply(t)`` holds; ``inf`` if ``rho <= U``."""
    u = float(np.sum(wcets / periods))
    rho = (budget - overhead) / period
    if rho <= u * (1 + REL_TOL):
        return math.inf
    b = 2 * (period - budget) + overhead
    return (rho * b + _k_term(periods, wcets, deadlines)) / (rho - u)


def hyperperiod(values) -> float | None:
    """Least common multiple of the given times if they are (to 1e-12 relative) rationals with
    denominators up to 10^6, else ``None``. Time units."""
    fracs = []
    for v in values:
        f = Fraction(float(v)).limit_denominator(10**6)
        if f <= 0 or abs(float(f) - float(v)) > 1e-12 * abs(float(v)):
            return None
        fracs.append(f)
    den = 1
    for f in fracs:
        den = math.lcm(den, f.denominator)
        if den > _LCM_LIMIT:
            return None
    num = 1
    for f in fracs:
        num = math.lcm(num, f.numerator * (den // f.denominator))
        if num > _LCM_LIMIT * den:  # longer than any horizon worth enumerating (and than a float)
            return None
    return num / den


def _periodic_horizon(periods, deadlines, period: float, budget: float, overhead: float) -> float | None:
    """``B + L + max D`` with ``L`` the hyperperiod of the tasks and the VM: the slack
    ``supply - dbf`` repeats every ``L`` after the blackout ``B``, growing by ``(rho - U) L >= 0``."""
    big = hyperperiod(list(periods) + [period])
    if big is None:
        return None
    return 2 * (period - budget) + overhead + big + float(np.max(deadlines))


def checkpoints(periods, wcets, deadlines, until: float,
                cap: int = MAX_CHECKPOINTS) -> tuple[np.ndarray, np.ndarray, float]:
    """Absolute deadlines ``t <= until`` and ``dbf(t)`` there; returns ``(t, dbf, covered)`` where
    ``covered`` is the horizon actually reached (smaller than ``until`` when the cap bit)."""
    rate = float(np.sum(1.0 / periods))
    if not math.isfinite(until) or until * rate > cap:
        until = cap / rate  # (not extended to the largest deadline: that may need far more than cap)
    counts = np.maximum(np.floor((until - deadlines) / periods + REL_TOL) + 1, 0).astype(np.int64)
    total = int(counts.sum())
    idx = np.repeat(np.arange(len(periods)), counts)
    k = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
    t = k * periods[idx] + deadlines[idx]
    if total == 0:
        return np.zeros(0), np.zeros(0), until
    order = np.argsort(t, kind="stable")
    t, c = t[order], wcets[idx][order]
    dbf = np.cumsum(c)
    last = np.append(np.diff(t) > REL_TOL * t[1:], True)  # equal deadlines: keep the total demand
    return t[last], dbf[last], until


def ratio(periods, wcets, deadlines, period: float, budget: float, overhead: float = 0.0,
          cap: int = MAX_CHECKPOINTS) -> tuple[float, bool]:
    """``max_t f^-1(dbf(t)) / t`` over the checked deadlines and whether the check was complete.

    At most 1 iff every deadline is met (when complete); above 1 the value is exact.
    """
    u = float(np.sum(wcets / periods))
    if (budget - overhead) / period < u * (1 - REL_TOL):
        return math.inf, True  # the slack falls by (U - rho) per time unit
    need = horizon(periods, wcets, deadlines, period, budget, overhead)
    periodic = _periodic_horizon(periods, deadlines, period, budget, overhead)
    if periodic is not None:
        need = min(need, periodic)
    t, d, covered = checkpoints(periods, wcets, deadlines, need, cap)
    value = float(np.max(supply_inverse(d, period, budget, overhead) / t)) if len(t) else 0.0
    return value, covered >= need


def worst_deadline(periods, wcets, deadlines, period: float, budget: float,
                   overhead: float = 0.0) -> tuple[float, int] | None:
    """The absolute deadline ``t`` with the largest ``f^-1(dbf(t)) / t`` (the first missed one when the
    VM is too weak) and the index of a task with a job due there; ``None`` if no deadline is checked."""
    need = horizon(periods, wcets, deadlines, period, budget, overhead)
    periodic = _periodic_horizon(periods, deadlines, period, budget, overhead)
    if periodic is not None:
        need = min(need, periodic)
    t, d, _ = checkpoints(periods, wcets, deadlines, need)
    if not len(t):
        return None
    when = float(t[int(np.argmax(supply_inverse(d, period, budget, overhead) / t))])
    phase = (when - deadlines) / periods
    due = np.flatnonzero((phase >= -REL_TOL) & (np.abs(phase - np.round(phase)) <= 1e-6))
    return when, int(due[0]) if len(due) else int(np.argmin(np.abs(phase - np.round(phase))))


def schedulable(periods, wcets, deadlines, period: float, budget: float, overhead: float = 0.0) -> bool:
    """True if every deadline is met under EDF inside the VM ``(T_VM, C_VM)`` with overhead ``X``."""
    value, complete = ratio(periods, wcets, deadlines, period, budget, overhead)
    return value <= 1 + REL_TOL and complete


def _budget_for_horizon(periods, wcets, deadlines, period: float, overhead: float, until: float) -> float:
    """Useful budget ``Theta`` at which ``t_max`` equals ``until``: the positive root of
    ``2 Theta^2 + (H + X - 2 T) Theta - (K + H U) T = 0`` (time units)."""
    u = float(np.sum(wcets / periods))
    kk = _k_term(periods, wcets, deadlines)
    b = until + overhead - 2 * period
    return (-b + math.sqrt(b * b + 8 * (kk + until * u) * period)) / 4


def min_budget(periods, wcets, deadlines, period: float, overhead: float = 0.0) -> tuple[float, bool]:
    """Least ``C_VM`` (time units) for EDF at ``T_VM = period``; ``(inf, True)`` if none works.

    The second value says whether the answer is exact (to 1e-6 relative); when the checkpoint cap bit,
    it is a sufficient budget instead. Method: with ``Theta >= u T_VM (1 + 1e-6)``, check every deadline
    up to ``t_max(Theta)``; the largest per-deadline minimum ``M`` is the answer if ``M >= Theta``
    (its own horizon is shorter), otherwise the answer lies in ``[M, Theta]``.
    """
    u = float(np.sum(wcets / periods))
    if period - overhead <= 0 or u > 1:
        return math.inf, True
    periodic = _periodic_horizon(periods, deadlines, period, 0.0, 0.0)  # covers every budget
    if periodic is not None and periodic * float(np.sum(1.0 / periods)) <= MAX_CHECKPOINTS:
        t, d, _ = checkpoints(periods, wcets, deadlines, periodic)
        theta = max(float(np.max(min_effective_budget(t, d, period, overhead))), u * period)
        return (theta + overhead, True) if theta <= (period - overhead) * (1 + REL_TOL) else (math.inf, True)
    early = float(deadlines.max() + 2 * periods.max())
    t, d, _ = checkpoints(periods, wcets, deadlines, early)
    first = float(np.max(min_effective_budget(t, d, period, overhead)))
    theta = max(first, u * period * (1 + 1e-6))
    if not math.isfinite(theta) or theta > period - overhead:
        return math.inf, True
    need = max(horizon(periods, wcets, deadlines, period, theta + overhead, overhead), early)
    t, d, covered = checkpoints(periods, wcets, deadlines, need)
    best = float(np.max(min_effective_budget(t, d, period, overhead)))
    if not math.isfinite(best):
        return math.inf, True
    if covered < need * (1 - REL_TOL):
        safe = _budget_for_horizon(periods, wcets, deadlines, period, overhead, covered)
        out = max(best, safe)
        return (out + overhead, False) if out <= period - overhead else (math.inf, False)
    return max(best, theta) + overhead, True


@dataclass(frozen=True)
class EdfIntervals:
    """Schedulable ``T_VM`` intervals under EDF and the range ``exact_range`` where they are exact."""

    intervals: list[tuple[float, float]]
    exact_range: tuple[float, float]
    truncated: bool


def settled_range(t: np.ndarray, d: np.ndarray, share: float, overhead: float) -> tuple[np.ndarray, np.ndarray]:
    """Per deadline ``t`` with demand ``d``, the range ``[r1, r2]`` of ``T_VM`` (``C_VM = share T_VM``)
    where the linear supply bound alone meets it, ``rho (t - B) >= d`` (``nan`` where there is none).

    Multiplied by ``T_VM``: ``2 s (1 - s) T^2 + (d - s (t - X) - 2 (1 - s) X) T + X (t - X) <= 0``;
    the root range lies where ``rho > 0`` (at ``T = X / s`` the left side is ``d X / s > 0``).
    """
    s, x = float(share), float(overhead)
    a = 2 * s * (1 - s)
    b = d - s * (t - x) - 2 * (1 - s) * x
    c = x * (t - x)
    disc = b * b - 4 * a * c
    ok = (disc >= 0) & (b < 0)  # b < 0: both roots positive (c >= 0) or one at 0 (c = 0)
    q = -b + np.sqrt(np.where(ok, disc, 0.0))  # > 0 where ok; the stable pair of roots
    with np.errstate(divide="ignore", invalid="ignore"):
        r1 = np.where(ok, 2 * c / np.where(ok, q, 1.0), np.nan)
        r2 = np.where(ok, q / (2 * a), np.nan)
    return r1, r2


def _deadline_intervals(t: np.ndarray, d: np.ndarray, share: float, overhead: float, lo: float,
                        hi: float) -> tuple[Pieces, int]:
    """Where in ``[lo, hi]`` each deadline is met, for the deadlines not met all over it: their rows
    of ``T_VM`` (owner ``i`` = the ``i``-th such deadline; not yet merged per owner; ``truncated`` and
    ``complete_above`` as in :func:`pieces`) and how many such deadlines there are.

    A deadline at ``t`` is met where the linear supply bound alone meets it (:func:`settled_range`, one
    row); pieces of ``f^-1(d) <= t`` are made only where that leaves it open: near ``lo``, where
    ``rho`` approaches ``U``, and at large ``T_VM``, where the blackout grows. That is a few pieces per
    deadline even when ``t`` is millions of task periods. (Made over all of ``[lo, hi]``, a far
    deadline has one piece per budget count ``k`` up to ``d / (s lo - X)``; the cap on all pieces then
    dropped the small periods of every deadline, and schedulable periods went missing.)
    """
    s, x = float(share), float(overhead)
    n = len(t)
    if s >= 1.0 - 1e-12:  # pieces() makes one piece per deadline at share 1
        return pieces(np.arange(n), t, d, s, x), n
    r1, r2 = settled_range(t, d, s, x)
    has = np.isfinite(r1) & np.isfinite(r2)
    r1 = np.where(has, np.maximum(r1 * (1 + 1e-9), lo), hi)  # (kept off the roots' rounding)
    r2 = np.where(has, np.minimum(r2 * (1 - 1e-9), hi), hi)
    has &= r1 <= r2
    binding = ~(has & (r1 <= lo) & (r2 >= hi))  # the others are met all over [lo, hi]
    t, d, r1, r2, has = t[binding], d[binding], r1[binding], r2[binding], has[binding]
    n = len(t)
    open_lo = ~has | (r1 > lo)  # [lo, r1) left open (without a settled range: all of [lo, hi])
    open_hi = has & (r2 < hi)  # (r2, hi] left open
    owner = np.arange(n)
    parts = [pieces(owner[m], t[m], d[m], s, x, window=(np.full(int(m.sum()), lo) if lo_side else r2[m],
                                                          r1[m] if lo_side else np.full(int(m.sum()), hi)))
             for m, lo_side in ((open_lo, True), (open_hi, False)) if m.any()]
    o = np.concatenate([owner[has]] + [q.owner for q in parts])
    st = np.concatenate([r1[has]] + [q.start for q in parts])
    en = np.concatenate([r2[has]] + [q.end for q in parts])
    return Pieces(o, st, en, any(q.truncated for q in parts),
                  max([q.complete_above for q in parts], default=0.0)), n


def intervals(periods, wcets, deadlines, share: float, overhead: float = 0.0,
              progress: ProgressCallback | None = None, cancel: CancelToken | None = None,
              max_checkpoints: int = MAX_CHECKPOINTS) -> EdfIntervals:
    """Exact schedulable ``T_VM`` intervals under EDF for ``C_VM = share * T_VM`` (see module doc);
    ``max_checkpoints`` caps the deadlines checked (fewer: a narrower ``exact_range``)."""
    s, x = float(share), float(overhead)
    u = float(np.sum(wcets / periods))
    kk = _k_term(periods, wcets, deadlines)
    if s >= 1 and x == 0 and u >= 1 * (1 - REL_TOL):
        # a dedicated core: EDF works iff U <= 1 with implicit deadlines (Liu and Layland)
        ok = u <= 1 + REL_TOL and bool(np.all(deadlines == periods))
        return EdfIntervals([(0.0, math.inf)] if ok else [], (0.0, math.inf), not ok)
    if s <= u * (1 + REL_TOL):
        return EdfIntervals([], (0.0, math.inf), False)
    t_left = x / (s - u) if s > u else 0.0
    t_up = (float(np.min(deadlines - wcets)) - x) / (2 * (1 - s)) if s < 1 else math.inf
    if t_up <= t_left:
        return EdfIntervals([], (0.0, math.inf), False)
    rate = float(np.sum(1.0 / periods))
    h_cap = max_checkpoints / rate

    def t_max(tv: float) -> float:
        return horizon(periods, wcets, deadlines, tv, s * tv, x)

    need = t_max(t_up) if (x == 0 and s < 1) else math.inf
    # deadlines beyond t_max(T_VM) are settled by the linear bounds, so checking up to h is exact
    # wherever t_max <= h, even when some task's first deadline lies beyond h
    h = min(need, h_cap if float(deadlines.max()) * rate > max_checkpoints else max(h_cap, float(deadlines.max())))
    last = None
    for attempt in range(_SHRINKS + 1):
        if x == 0 and s < 1 and need <= h:
            lo, hi = 0.0, math.inf
        else:  # where t_max(T_VM) <= h: where the linear bounds settle the demand bound U h + K at h
            r1, r2 = settled_range(np.array([h]), np.array([u * h + kk]), s, x)
            lo, hi = (max(float(r1[0]), t_left), float(r2[0])) if np.isfinite(r1[0]) else (math.inf, math.inf)
        if last is not None and not lo < hi:
            break  # a horizon this short settles no T_VM: keep the attempt before
        report(progress, 0.1 + 0.3 * attempt / _SHRINKS, "EDF checkpoints")
        check(cancel)
        t, d, _ = checkpoints(periods, wcets, deadlines, h, max_checkpoints)
        report(progress, 0.4, "EDF intervals")
        check(cancel)
        last = (lo, hi, *_deadline_intervals(t, d, s, x, lo, min(hi, t_up)))
        if not last[2].truncated or x == 0:
            break
        # too many pieces at periods just above t_left, where rho approaches U and the exact test
        # needs ever later deadlines: check fewer deadlines, exact on a slightly narrower range
        h /= _SHRINK_FACTOR
    assert last is not None
    lo, hi, (o, st, en, truncated, complete_above), n = last
    if truncated:  # what is left is exact above every dropped piece
        lo = min(max(lo, complete_above), hi)
    if not lo < hi:  # the checked deadlines settle no T_VM (a share a hair above U): nothing is known
        return EdfIntervals([], (lo, hi), True)
    o, st, en = merge_by_owner(o, st, en)
    o = np.append(o, n)
    st = np.append(st, lo)
    en = np.append(en, hi)
    result = intersect_owners(o, st, en, n + 1)
    report(progress, 1.0, "EDF intervals done")
    return EdfIntervals(result, (lo, hi), truncated)


def possible_range(t: np.ndarray, d: np.ndarray, share: float, overhead: float) -> tuple[float, float] | None:
    """The range of ``T_VM`` (``C_VM = share T_VM``, ``share < 1``) outside of which some of the
    deadlines ``t`` (demand ``d > 0``) is surely missed, or ``None`` if every ``T_VM`` misses one.

    The supply never exceeds the upper linear bound ``rho (t - (T_VM - C_VM))`` (Shin and Lee's upper
    bound of the periodic resource ``Gamma(T_VM, C_VM - X)`` at ``t + X``; it touches the supply at the
    ends of the VM's executions), so a deadline can be met only where
    ``s (1 - s) T^2 - (s t + (1 - s) X - d) T + X t <= 0``: one range of ``T_VM`` per deadline, and
    their intersection for all. A necessary condition only, to rule periods out; slightly widened so
    that rounding never rules out a period the exact test accepts.
    """
    s, x = float(share), float(overhead)
    a = s * (1 - s)
    b = s * t + (1 - s) * x - d
    disc = b * b - 4 * a * x * t
    if len(t) == 0:
        return 0.0, math.inf
    if not (np.all(disc >= 0) and np.all(b > 0)):
        return None
    q = b + np.sqrt(disc)
    lo = float(np.max(2 * x * t / q))  # the stable pair of roots
    hi = float(np.min(q / (2 * a)))
    lo, hi = lo * (1 - 1e-6), hi * (1 + 1e-6)
    return (lo, hi) if lo <= hi else None


#: deadlines checked first when only asked whether some ``T_VM`` works (:func:`any_schedulable`)
_QUICK_CHECKPOINTS = 2_000


def any_schedulable(periods, wcets, deadlines, share: float, overhead: float = 0.0) -> bool:
    """Whether :func:`intervals` finds some schedulable ``T_VM`` at this share, mostly without its
    full cost: a short horizon first (what it finds is exact, so schedulable); if it finds nothing,
    the upper supply bound at its deadlines rules out the periods outside its exact range, or else
    the full search decides. (Near the smallest share with an overhead the full search checks
    :data:`MAX_CHECKPOINTS` deadlines at every step of the bisection, for periods next to
    ``X / (share - U)`` that the first deadlines already rule out.)"""
    s, x = float(share), float(overhead)
    if x > 0 and s < 1:
        quick = intervals(periods, wcets, deadlines, s, x, max_checkpoints=_QUICK_CHECKPOINTS)
        if quick.intervals:
            return True
        u = float(np.sum(wcets / periods))
        if s <= u * (1 + REL_TOL):
            return False
        t, d, _ = checkpoints(periods, wcets, deadlines, math.inf, _QUICK_CHECKPOINTS)
        keep = d > 0
        possible = possible_range(t[keep], d[keep], s, x)
        lo, hi = quick.exact_range
        if possible is None or (lo <= possible[0] and possible[1] <= hi):
            return False
    return bool(intervals(periods, wcets, deadlines, s, x).intervals)


def ratio_curve(periods, wcets, deadlines, vm_periods: np.ndarray, share: float, overhead: float = 0.0,
                progress: ProgressCallback | None = None, cancel: CancelToken | None = None) -> np.ndarray:
    """``max_t f^-1(dbf(t)) / t`` at every ``T_VM`` (``C_VM = share T_VM``), the EDF counterpart of
    ``max R_i / D_i``: at most 1 exactly where EDF meets every deadline (checkpoint cap permitting)."""
    vm = np.asarray(vm_periods, float)
    out = np.full(len(vm), np.inf)
    needs = np.array([horizon(periods, wcets, deadlines, tv, share * tv, overhead) for tv in vm])
    finite = np.isfinite(needs)
    if not finite.any():
        return out
    t, d, _ = checkpoints(periods, wcets, deadlines, float(needs[finite].max()))
    if len(t) == 0:  # no deadline can be missed (a whole core, no overhead): the first deadlines show the ratio
        t, d, _ = checkpoints(periods, wcets, deadlines, float(np.max(deadlines)))
    chunk = max(1, 4_000_000 // max(1, len(t)))
    cols = np.flatnonzero(finite)
    for start in range(0, len(cols), chunk):
        check(cancel)
        report(progress, start / len(cols), "EDF demand curve")
        c = cols[start:start + chunk]
        g = supply_inverse(d[:, None], vm[c][None, :], share * vm[c][None, :], overhead)
        out[c] = (g / t[:, None]).max(axis=0)
    report(progress, 1.0, "EDF demand curve done")
    return out
