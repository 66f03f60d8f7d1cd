"""Exact sets of schedulable VM periods ``T_VM`` for a fixed share ``C_VM / T_VM``, in closed form.

Schedulability is not monotone in ``T_VM`` (section 11.8.2, Figure 11.12), so the answer is a union of
intervals. Instead of stepping a grid, every interval end is computed from the breakpoints of the
response-time equations:

* A task (or, for EDF, a deadline) is checked at a finite set of points ``p`` with a demand ``w``
  (the request bound ``C_i + sum_{j<i} ceil(p / T_j) C_j`` at the release times ``p`` of
  higher-priority jobs before ``D_i``, and ``D_i`` itself). Task ``i`` meets its deadline iff at some
  point ``f^-1(w) <= p`` (Equation (6); the least such point's ``f^-1(w)`` is ``R_i``).
* For fixed share ``s`` and overhead ``X``, ``f^-1(w)`` as a function of ``T_VM`` is piecewise linear:
  ``k = ceil(w / (s T_VM - X))`` is constant on ``[a_k, a_{k-1})`` with ``a_k = (w / k + X) / s``,
  where ``f^-1 = (k + 1)(1 - s) T_VM + w + k X``. So ``f^-1(w) <= p`` holds on
  ``[a_k, min(b_k, a_{k-1})]`` with ``b_k = (p - w - k X) / ((k + 1)(1 - s))``: closed-form roots.
* Which ``k`` give a non-empty piece, and which pieces touch, are integer ranges between the roots of
  two quadratics in ``k``; long runs of touching pieces become one interval, so the work per point is
  small even when ``X`` is tiny.

The per-task sets are unions over the task's points; the task set's is their intersection. All ends are
exact up to floating-point rounding (far below the required 1e-6 relative). Times in task-set units.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from advisor.realtime.supply import REL_TOL, floor_tol
from knowledge.infra.errors import InputError

#: at most this many isolated (non-touching) pieces are generated per point; beyond it, the pieces
#: at the smallest periods are dropped and the result is flagged ``truncated``
MAX_ISOLATED_PIECES = 20_000
#: at most this many fixed-priority checkpoints (about 24 bytes each, plus the pieces made from them);
#: a task set that needs more is refused with :class:`TooManyCheckpoints`
MAX_CHECKPOINTS = 1_000_000
#: at most this many isolated pieces over all points of one call (tens of bytes each); beyond it every
#: point keeps fewer (those at the largest periods) and the result is flagged ``truncated``
MAX_TOTAL_PIECES = 1_000_000


@dataclass(frozen=True)
class Points:
    """Checkpoints of a fixed-priority task set, tasks in priority order.

    ``owner[m]`` is the task's position in priority order, ``p[m]`` the checkpoint (time units) and
    ``w[m]`` the demand of the task and its higher-priority tasks up to that point (time units).
    """

    owner: np.ndarray
    p: np.ndarray
    w: np.ndarray
    n_owners: int


class TooManyCheckpoints(InputError):
    """The exact fixed-priority analysis of a task set needs more than :data:`MAX_CHECKPOINTS`
    checkpoints (a message says how many, and what still works)."""

    def __init__(self, needed: int, limit: int, task: int):
        self.needed, self.limit, self.task = needed, limit, task
        super().__init__(
            f"the exact fixed-priority analysis of this task set needs more than {limit:,} checkpoints "
            f"(releases of higher-priority tasks before each deadline: the periods span too large a "
            f"ratio, or there are too many distinct periods)")


def count_points(periods: np.ndarray, deadlines: np.ndarray, limit: int | None = None) -> int:
    """Checkpoints :func:`fp_points` would generate before merging (arrays in priority order): per
    task, one per release ``k T`` of each distinct higher-priority period ``T`` before ``D_i``, plus
    ``D_i``. O(n x distinct periods) time, O(n) memory; stops counting once it exceeds ``limit``."""
    uniq, inverse = np.unique(np.asarray(periods, float), return_inverse=True)
    seen = np.zeros(len(uniq), dtype=bool)
    total = 0.0  # a float: a deadline 1e300 times a period counts as inf, not as an overflowed int
    for i in range(len(periods)):
        hp = uniq[seen]
        if len(hp):
            total += float(np.maximum(np.ceil(deadlines[i] / hp * (1 - REL_TOL)) - 1, 0).sum())
        total += 1
        if limit is not None and total > limit:
            return limit + 1
        seen[inverse[i]] = True
    return int(total) if math.isfinite(total) else 2**63 - 1


def _task_points(hp_t: np.ndarray, hp_c: np.ndarray, wcet: float, deadline: float) -> tuple[np.ndarray, np.ndarray]:
    """Checkpoints of one task (the releases of the higher-priority periods ``hp_t`` before its
    deadline, and the deadline; merged where they differ by rounding only) and its demand there:
    ``C_i + sum_j ceil(p / T_j) C_j`` with ``hp_c`` the wcets summed per distinct period."""
    counts = np.maximum(np.ceil(deadline / hp_t * (1 - REL_TOL)) - 1, 0).astype(np.int64)
    total = int(counts.sum())
    which = np.repeat(np.arange(len(hp_t)), counts)
    k = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts) + 1
    p = np.sort(np.append(k * hp_t[which], deadline))
    keep = np.ones(len(p), dtype=bool)
    keep[:-1] = p[1:] - p[:-1] > REL_TOL * p[1:]
    p = p[keep]
    # in row blocks (bounded temporaries)
    w = np.full(len(p), wcet)
    if len(hp_t):
        step = max(1, 4_000_000 // len(hp_t))
        for a in range(0, len(p), step):
            w[a:a + step] += np.ceil(p[a:a + step, None] / hp_t[None, :] * (1 - REL_TOL)) @ hp_c
    return p, w


def fp_points(periods: np.ndarray, wcets: np.ndarray, deadlines: np.ndarray,
              limit: int | None = None) -> Points:
    """The checkpoints of every task (arrays in priority order, time units): the releases ``k T_j`` of
    higher-priority tasks before ``D_i``, and ``D_i``. Points that differ by rounding only are merged;
    points whose demand exceeds the point itself (``w > p``) can never be met and are left out.

    Tasks of equal period contribute one release sequence (their wcets summed), so the work grows
    with the number of *distinct* periods; a task with the period and deadline of the task before it
    has that task's checkpoints (3,000 automotive tasks have 9 distinct periods). More than ``limit`` (default :data:`MAX_CHECKPOINTS`)
    checkpoints raise :class:`TooManyCheckpoints` before anything large is allocated.
    """
    periods = np.asarray(periods, float)
    wcets = np.asarray(wcets, float)
    deadlines = np.asarray(deadlines, float)
    n = len(periods)
    limit = MAX_CHECKPOINTS if limit is None else limit
    needed = count_points(periods, deadlines, limit)
    if needed > limit:
        raise TooManyCheckpoints(needed, limit, n)
    uniq, inverse = np.unique(periods, return_inverse=True)
    load = np.zeros(len(uniq))  # wcets of the higher-priority tasks, summed per distinct period
    owners, ps, ws = [], [], []
    prev: tuple[np.ndarray, np.ndarray] | None = None
    for i in range(n):
        if prev is not None and periods[i] == periods[i - 1] and deadlines[i] == deadlines[i - 1]:
            # the same checkpoints as the task before; its job counts once at each (p <= D <= T)
            p, w = prev[0], prev[1] + wcets[i]
        else:
            p, w = _task_points(uniq[load > 0], load[load > 0], wcets[i], deadlines[i])
        ok = w <= p * (1 + REL_TOL)
        owners.append(np.full(int(ok.sum()), i, dtype=np.int64))
        ps.append(p[ok])
        ws.append(w[ok])
        prev = (p, w)
        load[inverse[i]] += wcets[i]
    return Points(np.concatenate(owners), np.concatenate(ps), np.concatenate(ws), n)


# ------------------------------------------------------------------------------------ pieces in T_VM

class Pieces(NamedTuple):
    """Intervals of ``T_VM`` per checkpoint (one row each, see :func:`pieces`).

    ``truncated`` says that some isolated pieces were dropped (caps on their number); every dropped
    piece lies below ``complete_above`` (0 when none was dropped), so the rows are complete above it.
    """

    owner: np.ndarray
    start: np.ndarray
    end: np.ndarray
    truncated: bool
    complete_above: float


def _a(k, w, s, x):
    """Start ``a_k = (w / k + X) / s`` of the range of ``T_VM`` where ``ceil(w / (s T_VM - X)) = k``."""
    with np.errstate(divide="ignore"):
        return np.where(k > 0, (w / np.where(k > 0, k, 1) + x) / s, np.inf)


def _b(k, p, w, s, x):
    """``b_k``: the largest ``T_VM`` with ``f^-1(w) <= p`` if ``ceil(...) = k`` held there."""
    return (p - w - k * x) / ((k + 1) * (1 - s))


def _piece_end(k, p, w, s, x):
    return np.minimum(_b(k, p, w, s, x), _a(k - 1, w, s, x))


def _nonempty(k, p, w, s, x):
    return (k >= 1) & (_b(k, p, w, s, x) >= _a(k, w, s, x))


def _touches(k, p, w, s, x):
    """Piece ``k`` reaches the start of piece ``k - 1`` (so they form one interval)."""
    return (k >= 2) & (_b(k, p, w, s, x) >= _a(k - 1, w, s, x))


def _roots(b, c, x):
    """Real roots ``r_lo <= r_hi`` of ``-x k^2 + b k - c = 0`` (x >= 0), stable form; nan if none.

    For ``x = 0`` the single root ``c / b`` is ``r_lo`` and ``r_hi`` is ``inf`` (for ``b > 0``).
    """
    if x == 0:
        with np.errstate(divide="ignore", invalid="ignore"):
            lo = np.where(b > 0, c / np.where(b > 0, b, 1.0), np.nan)
        return lo, np.where(b > 0, np.inf, np.nan)
    disc = b * b - 4.0 * x * c
    ok = (disc >= 0) & (b > 0)
    q = b + np.sqrt(np.where(ok, disc, 0.0))
    hi = np.where(ok, q / (2.0 * x), np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        lo = np.where(ok, 2.0 * c / np.where(q > 0, q, 1.0), np.nan)
    return lo, hi


def pieces(owner: np.ndarray, p: np.ndarray, w: np.ndarray, share: float, overhead: float,
           max_isolated: int = MAX_ISOLATED_PIECES,
           window: tuple[float | np.ndarray, float | np.ndarray] | None = None,
           ) -> Pieces:
    """For each checkpoint ``(p, w)``, the closed intervals of ``T_VM`` where ``f^-1(w) <= p``.

    Returns :class:`Pieces` ``(owner, start, end, truncated, complete_above)`` with one row per
    interval (a start of 0 means the open end ``T_VM -> 0``; an end of ``inf`` means unbounded).
    ``share`` is ``C_VM / T_VM`` in (0, 1], ``overhead`` is ``X`` in time units. With
    ``window = (lo, hi)`` only the pieces that may meet ``[lo, hi]`` are made (the others are left
    out, so intervals outside the window are missing); ``lo`` and ``hi`` are numbers or arrays with
    one window per checkpoint.
    """
    s, x = float(share), float(overhead)
    if s >= 1.0 - 1e-12:  # (1 - s) is divided by below: treat a share this close to 1 as 1
        s = 1.0
    p = np.asarray(p, float)
    w = np.asarray(w, float)
    owner = np.asarray(owner)
    if window is not None:  # one (lo, hi) per checkpoint, filtered along with the checkpoints
        win_lo = np.broadcast_to(np.asarray(window[0], float), p.shape)
        win_hi = np.broadcast_to(np.asarray(window[1], float), p.shape)
    if s >= 1.0:
        return _whole_core_pieces(owner, p, w, x)
    rows, k_lo, k_hi = _piece_range(p, w, s, x)
    if window is not None:
        ok, k_lo, k_hi = _window_range(k_lo, k_hi, w[rows], s, x, win_lo[rows], win_hi[rows])
        rows = rows[ok]
    owner, p, w = owner[rows], p[rows], w[rows]
    m_lo, m_hi = _touching_runs(p, w, k_lo, k_hi, s, x)
    run = m_lo <= m_hi

    out_owner, out_start, out_end = [], [], []
    if run.any():
        r_hi = m_hi[run]
        start = np.where(np.isfinite(r_hi), _a(np.where(np.isfinite(r_hi), r_hi, 1), w[run], s, x), x / s)
        out_owner.append(owner[run])
        out_start.append(start)
        out_end.append(_piece_end(m_lo[run] - 1, p[run], w[run], s, x))
    bases, counts, truncated, complete_above = _isolated_counts(k_lo, k_hi, m_lo, m_hi, run, w, s, x,
                                                               max_isolated)
    for base, count in zip(bases, counts, strict=True):
        _add_isolated(base, count, owner, p, w, s, x, (out_owner, out_start, out_end))
    if not out_owner:
        return Pieces(np.zeros(0, np.int64), np.zeros(0), np.zeros(0), truncated, complete_above)
    return Pieces(np.concatenate(out_owner), np.concatenate(out_start), np.concatenate(out_end), truncated,
                  complete_above)


def _whole_core_pieces(owner: np.ndarray, p: np.ndarray, w: np.ndarray, x: float) -> Pieces:
    """Share 1: ``f^-1(w) = w + ceil(w / (T_VM - X)) X``, independent of the blackout; one unbounded
    piece per checkpoint that can be met."""
    if x == 0:
        ok = w <= p * (1 + REL_TOL)
        return Pieces(owner[ok], np.zeros(int(ok.sum())), np.full(int(ok.sum()), np.inf), False, 0.0)
    kmax = floor_tol((p - w) / x)
    ok = kmax >= 1
    return Pieces(owner[ok], w[ok] / kmax[ok] + x, np.full(int(ok.sum()), np.inf), False, 0.0)


def _piece_range(p: np.ndarray, w: np.ndarray, s: float, x: float):
    """``(rows, k_lo, k_hi)``: the checkpoints (indices) with a non-empty piece, and per such
    checkpoint the range of ``k`` whose pieces are non-empty (``k_hi`` may be inf)."""
    # non-empty pieces: -X k^2 + (s p - w - (1 - s) X) k - (1 - s) w >= 0
    lo, hi = _roots(s * p - w - (1 - s) * x, (1 - s) * w, x)
    has = np.isfinite(lo) | np.isfinite(hi)
    p, w, lo, hi = p[has], w[has], lo[has], hi[has]
    k_lo = np.maximum(1.0, np.ceil(lo))
    k_hi = np.floor(hi)  # inf stays inf
    for _ in range(2):  # repair rounding of the roots with the defining inequality
        down = (k_lo > 1) & _nonempty(k_lo - 1, p, w, s, x)
        k_lo = np.where(down, k_lo - 1, k_lo)
        up = ~_nonempty(k_lo, p, w, s, x) & (k_lo <= k_hi)
        k_lo = np.where(up, k_lo + 1, k_lo)
        fin = np.isfinite(k_hi)
        k_hi_f = np.where(fin, k_hi, 0.0)
        grow = fin & _nonempty(k_hi_f + 1, p, w, s, x)
        k_hi = np.where(grow, k_hi + 1, k_hi)
        k_hi_f = np.where(fin, k_hi, 0.0)
        shrink = fin & ~_nonempty(k_hi_f, p, w, s, x) & (k_hi >= k_lo)
        k_hi = np.where(shrink, k_hi - 1, k_hi)
    ok = (k_lo <= k_hi) & _nonempty(k_lo, p, w, s, x)
    return np.flatnonzero(has)[ok], k_lo[ok], k_hi[ok]


def _window_range(k_lo, k_hi, w, s: float, x: float, win_lo, win_hi):
    """``(ok, k_lo, k_hi)``: the ranges of ``k`` narrowed to the pieces that may meet the windows,
    and which rows keep one. Piece ``k`` lies in ``[a_k, a_{k-1}]``; ``a_k = (w / k + X) / s`` falls
    with ``k``."""
    w_lo, w_hi = win_lo * (1 - 1e-6), win_hi * (1 + 1e-6)
    top = np.isfinite(w_hi) & (s * w_hi > x)
    with np.errstate(divide="ignore", invalid="ignore"):
        k_lo = np.where(top, np.maximum(k_lo, np.floor(w / np.where(top, s * w_hi - x, 1.0)) - 1), k_lo)
        bottom = s * w_lo > x
        k_hi = np.where(bottom, np.minimum(k_hi, np.ceil(w / np.where(bottom, s * w_lo - x, 1.0)) + 2), k_hi)
    # non-empty pieces form one range of k, so every k between the new ends is non-empty
    ok = k_lo <= k_hi
    return ok, k_lo[ok], k_hi[ok]


def _touching_runs(p, w, k_lo, k_hi, s: float, x: float):
    """``(m_lo, m_hi)``: per checkpoint, the pieces ``k`` in ``[m_lo, m_hi]`` each touch piece ``k - 1``,
    so pieces ``m_lo - 1 .. m_hi`` form one interval (none where ``m_lo > m_hi``)."""
    # runs of touching pieces: -X k^2 + (s p - w + s X) k - (s p - 2 s w + w - (1 - s) X) >= 0
    c_lo, c_hi = _roots(s * p - w + s * x, s * p - 2 * s * w + w - (1 - s) * x, x)
    m_lo = np.maximum(np.maximum(np.ceil(np.where(np.isnan(c_lo), np.inf, c_lo)) + 1, 2.0), k_lo + 1)
    m_hi = np.minimum(np.floor(np.where(np.isnan(c_hi), -np.inf, c_hi)) - 1, k_hi)
    m_lo = np.where(np.isfinite(m_lo), m_lo, np.inf)
    for _ in range(4):  # shrink to where touching is verified (conservative: unverified ones stay apart)
        bad_lo = (m_lo <= m_hi) & np.isfinite(m_lo) & ~_touches(np.where(np.isfinite(m_lo), m_lo, 2), p, w, s, x)
        m_lo = np.where(bad_lo, m_lo + 1, m_lo)
        fin = np.isfinite(m_hi)
        bad_hi = (m_lo <= m_hi) & fin & ~_touches(np.where(fin, m_hi, 2), p, w, s, x)
        m_hi = np.where(bad_hi, m_hi - 1, m_hi)
    return m_lo, m_hi


def _isolated_counts(k_lo, k_hi, m_lo, m_hi, run, w, s: float, x: float, max_isolated: int):
    """The isolated pieces of every checkpoint, as two segments of ``k``: ``[k_lo, m_lo - 2]`` and
    ``[m_hi + 1, k_hi]`` with a run, else ``[k_lo, k_hi]``. Returns ``(bases, counts, truncated,
    complete_above)``: each segment keeps the pieces ``base .. base + count - 1`` (those at the largest
    ``T_VM``) within the caps, and every dropped piece lies below ``complete_above``."""
    fin_hi = np.isfinite(k_hi)
    k_hi_f = np.where(fin_hi, k_hi, 0.0)
    m_lo_f = np.where(run, m_lo, 0.0)
    m_hi_f = np.where(run & fin_hi, m_hi, 0.0)
    bases = (k_lo, np.where(run & fin_hi, m_hi_f + 1, 0))
    first_n = np.where(run, m_lo_f - 1 - k_lo, np.where(fin_hi, k_hi_f - k_lo + 1, 0))
    second_n = np.where(run & fin_hi, k_hi_f - m_hi_f, 0)
    counts = full = [np.maximum(first_n, 0), np.maximum(second_n, 0)]
    truncated = False
    if (counts[0] > max_isolated).any() or (counts[1] > max_isolated).any():
        truncated = True
        counts = [np.minimum(c, max_isolated) for c in counts]
    if float(counts[0].sum() + counts[1].sum()) > MAX_TOTAL_PIECES:  # bound the memory of all points
        truncated = True
        counts = _cap_total(counts)
    complete_above = 0.0
    if truncated:
        for base, count, whole in zip(bases, counts, full, strict=True):
            cut = count < whole
            if cut.any():
                complete_above = max(complete_above, float(np.max(_a(base[cut] + count[cut] - 1, w[cut], s, x))))
    return bases, counts, truncated, complete_above


def _cap_total(counts: list[np.ndarray]) -> list[np.ndarray]:
    """The counts capped at the largest per-point cap that keeps their total within
    :data:`MAX_TOTAL_PIECES`."""
    both = np.concatenate(counts)
    lo_c, hi_c = 0.0, float(both.max())
    while hi_c - lo_c > 1:
        mid = np.floor(0.5 * (lo_c + hi_c))
        if float(np.minimum(both, mid).sum()) <= MAX_TOTAL_PIECES:
            lo_c = mid
        else:
            hi_c = mid
    return [np.minimum(c, lo_c) for c in counts]


def _add_isolated(base, count, owner, p, w, s: float, x: float, out: tuple[list, list, list]) -> None:
    """Append the pieces ``k = base .. base + count - 1`` of every checkpoint to ``out`` (owner,
    start, end), the empty ones left out."""
    count = count.astype(np.int64)
    total = int(count.sum())
    if not total:
        return
    idx = np.repeat(np.arange(len(count)), count)
    offs = np.arange(total) - np.repeat(np.cumsum(count) - count, count)
    k = base[idx] + offs
    pp, ww = p[idx], w[idx]
    st, en = _a(k, ww, s, x), _piece_end(k, pp, ww, s, x)
    good = en >= st
    out[0].append(owner[idx][good])
    out[1].append(st[good])
    out[2].append(en[good])


# ------------------------------------------------------------------------------- interval algebra

def merge_by_owner(owner: np.ndarray, start: np.ndarray, end: np.ndarray):
    """Union of the intervals of each owner: ``(owner, start, end)`` sorted, disjoint per owner.

    Intervals that touch (up to ``REL_TOL`` relative) are joined.
    """
    if len(owner) == 0:
        return owner, start, end
    n_owners = int(owner.max()) + 1
    if n_owners <= 4096:  # few owners (tasks): group by a radix sort, sort each group by start
        order = np.argsort(owner.astype(np.int16 if n_owners < 32768 else np.int64), kind="stable")
        owner, start, end = owner[order], start[order], end[order]
        bounds = np.flatnonzero(np.diff(owner)) + 1
        firsts = np.concatenate([[0], bounds])
        lasts = np.concatenate([bounds, [len(owner)]])
        run_max = np.empty_like(end)
        for a, b in zip(firsts.tolist(), lasts.tolist(), strict=True):
            sub = np.argsort(start[a:b])
            start[a:b] = start[a:b][sub]
            end[a:b] = end[a:b][sub]
            np.maximum.accumulate(end[a:b], out=run_max[a:b])
    else:  # many owners (EDF deadlines): one lexsort, running maximum via ranks of the ends
        order = np.lexsort((start, owner))
        owner, start, end = owner[order], start[order], end[order]
        uniq, rank = np.unique(end, return_inverse=True)
        span = len(uniq) + 1
        key = owner.astype(np.int64) * span + rank
        run_max = uniq[np.maximum.accumulate(key) - owner.astype(np.int64) * span]
        firsts = np.flatnonzero(np.concatenate([[True], owner[1:] != owner[:-1]]))
    new = np.ones(len(owner), dtype=bool)
    new[1:] = start[1:] > run_max[:-1] * (1 + REL_TOL)
    new[firsts] = True
    first = np.flatnonzero(new)
    last = np.append(first[1:] - 1, len(owner) - 1)
    return owner[first], start[first], run_max[last]


def intersect_owners(owner: np.ndarray, start: np.ndarray, end: np.ndarray, n_owners: int,
                     drop_points: bool = False) -> list[tuple[float, float]]:
    """Where all ``n_owners`` owners (0..n-1, each with disjoint intervals) cover ``T_VM``.

    Returns sorted ``[(start, end), ...]``. Single points are dropped when ``drop_points``.
    """
    if n_owners == 0:
        return [(0.0, math.inf)]
    if len(np.unique(owner)) < n_owners:
        return []
    pos = np.concatenate([start, end * (1 + 2 * REL_TOL)])
    true_pos = np.concatenate([start, end])
    delta = np.concatenate([np.ones(len(start), np.int64), -np.ones(len(end), np.int64)])
    order = np.lexsort((-delta, pos))
    count = np.cumsum(delta[order])
    hits = np.flatnonzero(count == n_owners)
    out = []
    for h in hits:
        a, b = float(true_pos[order[h]]), float(true_pos[order[h + 1]]) if h + 1 < len(order) else math.inf
        if b < a:
            continue
        if drop_points and b - a <= REL_TOL * max(1.0, abs(b)):
            continue
        out.append((a, b))
    return out


def per_owner_lists(owner: np.ndarray, start: np.ndarray, end: np.ndarray,
                    n_owners: int) -> list[list[tuple[float, float]]]:
    """Merged per-owner intervals as Python lists, owner ``i`` at index ``i``."""
    lists: list[list[tuple[float, float]]] = [[] for _ in range(n_owners)]
    for o, a, b in zip(owner.tolist(), start.tolist(), end.tolist(), strict=True):
        lists[o].append((a, b))
    return lists


# ------------------------------------------------------------------------- fixed-priority queries

@dataclass(frozen=True)
class IntervalResult:
    """Schedulable ``T_VM`` intervals for one share: the set's and each task's (priority order)."""

    intervals: list[tuple[float, float]]
    per_task: list[list[tuple[float, float]]]
    truncated: bool


def fp_intervals(points: Points, share: float, overhead: float,
                 window: tuple[float, float] | None = None) -> IntervalResult:
    """Exact schedulable ``T_VM`` intervals under fixed priorities for ``C_VM = share * T_VM``
    (with ``window``, only those within it: see :func:`pieces`)."""
    o, a, b, truncated, _ = pieces(points.owner, points.p, points.w, share, overhead, window=window)
    o, a, b = merge_by_owner(o, a, b)
    return IntervalResult(intersect_owners(o, a, b, points.n_owners),
                          per_owner_lists(o, a, b, points.n_owners), truncated)


def min_effective_budget(p: np.ndarray, w: np.ndarray, period: float, overhead: float) -> np.ndarray:
    """Per checkpoint, the least useful budget ``Theta = C_VM - X`` with ``f^-1(w) <= p`` at the given
    ``T_VM`` (time units); ``inf`` where even ``C_VM = T_VM`` does not do.

    In the range of ``Theta`` where ``k = ceil(w / Theta)`` is constant, ``f^-1 <= p`` iff
    ``Theta >= T_VM - (p - w + X) / (k + 1)``; the best ``k`` is next to the crossing with ``w / k``.
    """
    t, x = float(period), float(overhead)
    p = np.asarray(p, float)
    w = np.asarray(w, float)
    q = p - w + x
    bq = t - q - w
    kc = (-bq + np.sqrt(bq * bq + 4 * t * w)) / (2 * t)
    best = np.full(len(p), np.inf)
    base = np.floor(kc)
    for d in (-1, 0, 1, 2):
        k = np.maximum(base + d, 1.0)
        lo = np.maximum(w / k, t - q / (k + 1))
        with np.errstate(divide="ignore"):
            upper = np.where(k > 1, w / np.where(k > 1, k - 1, 1), np.inf)
        valid = lo < upper
        best = np.where(valid & (lo < best), lo, best)
    best = np.where(q >= -REL_TOL * p, best, np.inf)
    return np.where(best <= (t - x) * (1 + REL_TOL), np.minimum(best, t - x), np.inf)


def fp_min_budget(points: Points, period: float, overhead: float) -> tuple[float, np.ndarray]:
    """Least ``C_VM`` at ``T_VM = period`` so that all tasks meet their deadlines, and each task's own
    least ``C_VM`` (priority order). ``inf`` where impossible. Time units."""
    theta = min_effective_budget(points.p, points.w, period, overhead)
    per_task = np.full(points.n_owners, np.inf)
    np.minimum.at(per_task, points.owner, theta)
    per_task = per_task + overhead
    return float(per_task.max()), per_task
