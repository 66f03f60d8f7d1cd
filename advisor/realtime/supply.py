"""Worst-case CPU supply of a VM that gets a budget ``C_VM`` every period ``T_VM`` (thesis 11.4, 11.8).

All times are in the task set's unit. The model, with a fixed switching overhead ``X`` at the start of
each VM execution (section 11.8.1), is:

* the VM executes ``C_VM`` time units (contiguously) in every period of length ``T_VM``; the first ``X``
  of each execution is overhead, so ``Theta = C_VM - X`` is useful;
* in the worst case an interval of length ``t`` starts just after the VM's useful execution ended as early
  as possible in one period, and the next execution comes as late as possible: no supply for the
  *blackout* ``B = 2 (T_VM - C_VM) + X`` (Figures 11.1 and 11.3), then ``Theta`` every ``T_VM``.

:func:`supply` is Equation (2) extended by the overhead (``X = 0`` gives Equation (2) exactly);
:func:`supply_inverse` is Equation (6) (``X = 0`` gives Equation (4), see the note there), the smallest
``t`` with ``supply(t) >= demand``. With ``X = 0`` this is the supply bound function of the periodic
resource ``Gamma(T_VM, C_VM)`` of Shin and Lee; with ``X > 0`` it is ``sbf_Gamma(T_VM, C_VM - X)(t + X)``.

Functions take floats or numpy arrays (broadcasting) and return the same kind.
"""

from __future__ import annotations

import numpy as np

#: relative tolerance of every comparison and ceiling (floating-point noise, not modelling slack)
REL_TOL = 1e-9


def ceil_tol(x):
    """``ceil(x)`` that treats ``x`` within ``REL_TOL`` (relative) above an integer as that integer."""
    x = np.asarray(x, dtype=float)
    out = np.ceil(x - REL_TOL * np.maximum(1.0, np.abs(x)))
    return out if out.ndim else float(out)


def floor_tol(x):
    """``floor(x)`` that treats ``x`` within ``REL_TOL`` (relative) below an integer as that integer."""
    x = np.asarray(x, dtype=float)
    out = np.floor(x + REL_TOL * np.maximum(1.0, np.abs(x)))
    return out if out.ndim else float(out)


def blackout(period, budget, overhead=0.0):
    """Longest interval without useful supply, ``B = 2 (T_VM - C_VM) + X`` (time units)."""
    return 2.0 * (period - budget) + overhead


def supply(t, period, budget, overhead=0.0):
    """Minimum useful execution time the VM gets in any interval of length ``t`` (Equation (2), with
    the overhead model of section 11.8): ``floor(u / T) Theta + min(u - floor(u / T) T, Theta)`` with
    ``u = t - B``, ``Theta = C_VM - X``; 0 for ``t <= B``. Time units in, time units out."""
    t = np.asarray(t, dtype=float)
    theta = np.asarray(budget, float) - overhead
    u = t - (2.0 * (np.asarray(period, float) - budget) + overhead)
    full = np.floor(np.maximum(u, 0.0) / period)
    rest = np.maximum(u, 0.0) - full * period
    out = np.where(u > 0, full * theta + np.minimum(rest, theta), 0.0)
    out = np.where(theta > 0, out, 0.0)
    return out if out.ndim else float(out)


def supply_inverse(demand, period, budget, overhead=0.0):
    """Smallest interval length that surely supplies ``demand`` time units (Equation (6)):

    ``f^-1(w) = (T_VM - C_VM) + w + ceil(w / (C_VM - X)) (T_VM - C_VM + X)`` for ``w > 0``, else 0.

    With ``X = 0`` this equals Equation (4), ``2 (T_VM - C_VM) + w + floor(w / C_VM) (T_VM - C_VM)``,
    except when ``w`` is an exact multiple of ``C_VM``, where Equation (4) gives a (pessimistic) extra
    period; Equation (6)'s ceiling is the exact inverse of Equation (2) and is used throughout.
    Returns ``inf`` where ``C_VM <= X`` (no useful supply).
    """
    w = np.asarray(demand, dtype=float)
    period = np.asarray(period, dtype=float)
    budget = np.asarray(budget, dtype=float)
    theta = budget - overhead
    with np.errstate(divide="ignore", invalid="ignore"):
        k = ceil_tol(np.where(theta > 0, w / np.where(theta > 0, theta, 1.0), 0.0))
        out = (period - budget) + w + k * (period - theta)
    out = np.where(w > 0, out, 0.0)
    out = np.where((theta > 0) | (w <= 0), out, np.inf)
    return out if out.ndim else float(out)


def effective_rate(period, budget, overhead=0.0):
    """Long-run useful share ``rho = (C_VM - X) / T_VM`` (dimensionless), the left side of Eq. (7)."""
    return (budget - overhead) / period


def linear_supply_bound(t, period, budget, overhead=0.0):
    """A straight line below :func:`supply`: ``rho (t - B)`` clipped at 0 (time units)."""
    rho = effective_rate(period, budget, overhead)
    b = 2.0 * (period - budget) + overhead
    out = np.maximum(rho * (np.asarray(t, float) - b), 0.0)
    return out if out.ndim else float(out)
