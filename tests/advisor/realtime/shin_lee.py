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
    """Shin and Lee's supply bound function of Gamma(pi, theta) (TECS 2008, Eq. (1))."""
    if theta <= 0 or t <= 0:
        return 0
    k = max(math.ceil((t - (pi - theta)) / pi), 1)
    if (k + 1) * pi - 2 * theta <= t <= (k + 1) * pi - theta:
        return t - (k + 1) * (pi - theta)
    return (k - 1) * theta


def sbf_with_overhead(t, period, budget, overhead):
    """The thesis' overhead model expressed through Gamma(T_VM, C_VM - X): the useful supply of an
    interval of length t is that of an interval X longer without overhead accounting."""
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


def edf_schedulable(tasks, period, budget, overhead=0):
    """EDF test of Shin and Lee: dbf(t) <= sbf(t) at every absolute deadline up to a bound.

    Integer periods are assumed: the demand and the supply are both periodic with the least common
    multiple L of all periods (tasks and VM) up to their linear growth, so checking 0 < t <= 3 L + max D
    suffices when the long-run supply rate exceeds the utilization."""
    theta = Fraction(budget) - Fraction(overhead)
    if theta <= 0:
        return False
    u = sum(Fraction(c) / Fraction(p) for p, c, _ in tasks)
    if theta / Fraction(period) < u:
        return False
    lcm = math.lcm(*[int(p) for p, _, _ in tasks], int(period))
    horizon = 3 * lcm + max(d for _, _, d in tasks)
    deadlines = sorted({Fraction(d) + k * Fraction(p) for p, _, d in tasks
                        for k in range(int((horizon - d) // p) + 1)})
    return all(dbf(t, tasks) <= sbf_with_overhead(t, Fraction(period), Fraction(budget), Fraction(overhead))
               for t in deadlines)
