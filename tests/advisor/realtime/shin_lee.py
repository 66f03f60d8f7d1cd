"""An independent implementation of the periodic resource model of Shin and Lee, for cross-checks.

I. Shin and I. Lee, "Periodic Resource Model for Compositional Real-Time Guarantees" (RTSS 2003) and
"Compositional real-time scheduling framework with periodic model" (ACM TECS 7(3), 2008), thesis refs
[22] and [25]. The resource Gamma(Pi, Theta) supplies Theta time units every Pi; its supply bound function

    sbf(t) = t - (k + 1)(Pi - Theta)   if t in [(k + 1) Pi - 2 Theta, (k + 1) Pi - Theta]
             (k - 1) Theta              otherwise,      k = max(ceil((t - (Pi - Theta)) / Pi), 1)

and the exact tests: fixed priorities, task i meets its deadline iff some t in (0, D_i] has
rbf_i(t) = C_i + sum_{j<i} ceil(t / T_j) C_j <= sbf(t); EDF iff dbf(t) <= sbf(t) for all t > 0.

Written from the papers, sharing no code with advisor.realtime: plain Python, fractions allowed.
"""

from __future__ import annotations

import math
from fractions import Fraction


def sbf(t, pi, theta):
    """Shin and Lee's supply bound function of Gamma(pi, theta) (TECS 2008, Eq. (1)), evaluated
    exactly: floats are turned into Fractions (exactly) first. In floating point the two halves of
    Eq. (1) can disagree at a corner: ``t - (pi - theta)`` rounds down onto a multiple of ``pi``
    (so ``k`` stays one too small) while ``t`` is still an ulp above ``(k + 1) pi - theta``; the
    "otherwise" branch then answers ``(k - 1) theta``, a whole ``theta`` below the true value."""
    t, pi, theta = Fraction(t), Fraction(pi), Fraction(theta)
    if theta <= 0 or t <= 0:
        return 0
    k = max(math.ceil((t - (pi - theta)) / pi), 1)
    if (k + 1) * pi - 2 * theta <= t <= (k + 1) * pi - theta:
        return t - (k + 1) * (pi - theta)
    return (k - 1) * theta


def sbf_with_overhead(t, period, budget, overhead):
    """The thesis' overhead model expressed through Gamma(T_VM, C_VM - X): the useful supply of an
    interval of length t is that of an interval X longer without overhead accounting (exact, as
    :func:`sbf`: the sums are taken in Fractions too)."""
    t, period, budget, overhead = Fraction(t), Fraction(period), Fraction(budget), Fraction(overhead)
    return sbf(t + overhead, period, budget - overhead)


def fp_schedulable(tasks, period, budget, overhead=0):
    """tasks: [(T, C, D)] in priority order. Exact FP test of Shin and Lee at the scheduling points."""
    for i, (_, c_i, d_i) in enumerate(tasks):
        points = {d_i}
        for t_j, _, _ in tasks[:i]:
            k = 1
            while k * t_j < d_i:
                points.add(k * t_j)
                k += 1
        ok = False
        for t in sorted(points):
            rbf = c_i + sum(math.ceil(Fraction(t) / Fraction(t_j)) * c_j for t_j, c_j, _ in tasks[:i])
            if rbf <= sbf_with_overhead(Fraction(t), Fraction(period), Fraction(budget), Fraction(overhead)):
                ok = True
                break
        if not ok:
            return False
    return True


def dbf(t, tasks):
    return sum(max(0, math.floor((t - d) / p) + 1) * c for p, c, d in tasks)


def edf_horizon(tasks, period, budget, overhead=0):
    """Length up to which :func:`edf_schedulable` checks the deadlines (``None`` when the long-run
    supply rate is below the utilization: then no horizon is long enough).

    Integer periods are assumed: the demand and the supply are both periodic with the least common
    multiple L of all periods (tasks and VM) up to their linear growth, so 0 < t <= 3 L + max D
    suffices when the long-run supply rate rho = Theta / Pi is at least the utilization U. When it
    exceeds U a shorter horizon follows from two straight lines: Shin and Lee's linear supply bound
    lsbf(t) = rho (t - 2 (Pi - Theta)) lies below sbf (here of t + X: rho (t - B) with
    B = 2 (Pi - C) + X), and dbf(t) <= U t + sum (T_i - D_i) C_i / T_i for D_i <= T_i; beyond their
    crossing (rho B + K) / (rho - U) the demand never exceeds the supply. (3 L alone reaches tens of
    millions of time units for periods like 29, 33, 37, 38 and 17: minutes in plain Python.)"""
    theta = Fraction(budget) - Fraction(overhead)
    if theta <= 0:
        return None
    u = sum(Fraction(c) / Fraction(p) for p, c, _ in tasks)
    rho = theta / Fraction(period)
    if rho < u:
        return None
    lcm = math.lcm(*[int(p) for p, _, _ in tasks], int(period))
    horizon = 3 * lcm + max(Fraction(d) for _, _, d in tasks)
    if rho > u:
        blackout = 2 * (Fraction(period) - Fraction(budget)) + Fraction(overhead)
        k = sum((Fraction(p) - Fraction(d)) * Fraction(c) / Fraction(p) for p, c, d in tasks)
        horizon = min(horizon, (rho * blackout + k) / (rho - u))
    return horizon


def edf_schedulable(tasks, period, budget, overhead=0):
    """EDF test of Shin and Lee: dbf(t) <= sbf(t) at every absolute deadline up to
    :func:`edf_horizon`."""
    horizon = edf_horizon(tasks, period, budget, overhead)
    if horizon is None:
        return False
    deadlines = sorted({Fraction(d) + k * Fraction(p) for p, _, d in tasks
                        for k in range(int((horizon - Fraction(d)) // Fraction(p)) + 1)})
    return all(dbf(t, tasks) <= sbf_with_overhead(t, Fraction(period), Fraction(budget), Fraction(overhead))
               for t in deadlines)
