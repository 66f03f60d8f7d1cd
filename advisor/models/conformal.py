"""Calibrated intervals from held-out residuals (split-conformal on the CV+ residuals of refits that
did not see the point), wider for extrapolations.

Every family's interval is a band in log units around its point, ``[mean x exp(lo), mean x
exp(hi)]``, at the nominal :data:`LEVEL` (90 %). The band comes from residuals of points the model
did not see when it predicted them, never from the points it was fitted on:

* the points split into :data:`FOLDS` folds; each fold is predicted by the model fitted on the
  others (CV+), and the band is the conformal quantile of those residuals;
* a query the family flags as outside what was measured (an extrapolation) gets that band
  :data:`EXTRAPOLATION_FACTOR` times wider (in log units). Bands from leave-one-group-out residuals
  (each table predicted by the model fitted on the other tables) were tried for extrapolations: on
  the held-out replay they were wider (median 1.70 of the value against 1.04) and covered fewer
  experiments (76 of 99 against 78), so the one factor, chosen once for every family, stays,
  except where a family names what its queries extrapolate over (``Family._extrapolation_folds``:
  a VM count outside the measured ones, as ``cache_mode_throughput``'s; a replication factor a
  platform never ran, as the CPU families' own band for those queries):
  there the extrapolation band is the conformal band of the residuals of each such fold predicted
  by the model fitted without it (never narrower than the interpolation band).

The quantiles carry the finite-sample correction of split-conformal prediction (the
``ceil((n + 1)(1 - a))``-th of ``n`` residuals for a two-sided level ``1 - 2a``), so with ``n``
held-out residuals the band covers a new point of the same kind at least at the level when the
points are exchangeable. With fewer than :data:`MIN_RESIDUALS` residuals there is nothing to
calibrate on: the largest residual seen, at least +-:data:`SMALL_HALF_WIDTH`. With fewer than 19
(:func:`finite_quantile_n`) the 90 % quantile is not finite and the band is the smallest and largest
residual, which covers a new point with probability (n - 1) / (n + 1) only: such a band is never narrower
than the fallback's +-:data:`SMALL_HALF_WIDTH` (families fitted on a handful of points, e.g. the migration
times on Table 8.3's three runs of one load, had +-5 % bands held out).

``capadvisor replay --held-out`` checks the level: each experiment's own rows are left out of the
families *before* they are fitted, so its calibration residuals come from the other experiments only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from advisor.expected import INTERVAL_LEVEL
from advisor.models.base import TrainingPoint
from knowledge.infra.errors import InputError

LEVEL = INTERVAL_LEVEL  # nominal coverage of every family's interval (declared with the figure type)
FOLDS = 10             # CV+ folds for the interpolation band
MIN_RESIDUALS = 3      # fewer held-out residuals: no calibration, the fallback band
MIN_HALF_WIDTH = 0.05  # log units, about +-5 %: a band is never narrower (the documents' rounding)
SMALL_HALF_WIDTH = 0.25  # log units, about +-25 %: the fallback band's least half-width
EXTRAPOLATION_FACTOR = 2.0  # an extrapolation's band is the calibrated band this much wider (log units)

#: ``fit(points) -> core`` and ``predict(core, points) -> array`` of one family
Fit = Callable[[list[TrainingPoint]], object]
Predict = Callable[[object, list[TrainingPoint]], np.ndarray]


def folds_cv(n: int, folds: int = FOLDS) -> list[list[int]]:
    """``min(n, folds)`` folds of the indices ``0..n-1`` (every k-th point)."""
    k = min(n, folds)
    return [list(range(j, n, k)) for j in range(k)]


def held_out_residuals(points: Sequence[TrainingPoint], folds: list[list[int]], fit: Fit,
                       predict: Predict) -> np.ndarray:
    """Log residuals ``log(target / prediction)`` of every point of every fold, predicted by the model
    fitted on the points outside the fold. A fold whose refit is impossible (nothing left, a level
    the rest never shows) gives no residual."""
    pts = list(points)
    out: list[float] = []
    for fold in folds:
        held = set(fold)
        keep = [p for i, p in enumerate(pts) if i not in held]
        if not keep or len(held) == len(pts):
            continue
        test = [pts[i] for i in fold]
        try:
            pred = np.asarray(predict(fit(keep), test), dtype=float)
        except (ArithmeticError, LookupError, ValueError, InputError, np.linalg.LinAlgError):
            continue  # the rest cannot be fitted or cannot predict this fold: no residual from it
        y = np.array([p.target for p in test], dtype=float)
        ok = (y > 0) & (pred > 0) & np.isfinite(pred)
        out += list(np.log(y[ok] / pred[ok]))
    return np.array(out, dtype=float)


def band(residuals: np.ndarray, level: float = LEVEL) -> tuple[float, float] | None:
    """The split-conformal band (log units) of ``residuals`` at ``level``, or None with fewer than
    :data:`MIN_RESIDUALS` of them."""
    r = np.sort(np.asarray(residuals, dtype=float))
    n = len(r)
    if n < MIN_RESIDUALS:
        return None
    a = round((1.0 - level) / 2.0, 12)  # 0.05, not 0.04999...: the order statistics are exact
    k_hi = min(n, math.ceil((n + 1) * (1.0 - a)))  # the k-th smallest, 1-based
    k_lo = max(1, math.floor((n + 1) * a))
    return min(float(r[k_lo - 1]), -MIN_HALF_WIDTH), max(float(r[k_hi - 1]), MIN_HALF_WIDTH)


def finite_quantile_n(level: float = LEVEL) -> int:
    """The fewest residuals whose conformal quantile at ``level`` is finite: ``ceil((n + 1)(1 - a)) <= n``,
    i.e. ``n >= 1 / a - 1`` (19 at 90 %). With fewer, the band of :func:`band` is the smallest and the
    largest residual, which covers a new point only with probability ``(n - 1) / (n + 1)`` (50 % with 3)."""
    a = round((1.0 - level) / 2.0, 12)
    return math.ceil(1.0 / a - 1.0 - 1e-9)


def fallback(in_sample: np.ndarray) -> tuple[float, float]:
    """The band without calibration: the largest in-sample residual, at least +-SMALL_HALF_WIDTH."""
    r = np.abs(np.asarray(in_sample, dtype=float))
    half = max(float(r.max()) if r.size else 0.0, SMALL_HALF_WIDTH)
    return -half, half


def calibrate(points: Sequence[TrainingPoint], fit: Fit, predict: Predict, in_sample: np.ndarray,
              groups: list[list[int]] | None = None) -> tuple[tuple[float, float], tuple[float, float]]:
    """(interpolation band, extrapolation band) in log units for a family fitted on ``points``.

    ``groups``: folds of what the family's queries extrapolate over (a configuration without points);
    the extrapolation band is then the band of those folds' held-out residuals (never narrower than
    the interpolation band), else the interpolation band :data:`EXTRAPOLATION_FACTOR` times wider."""
    pts = list(points)
    residuals = held_out_residuals(pts, folds_cv(len(pts)), fit, predict)
    inner = band(residuals) or fallback(in_sample)
    if len(residuals) < finite_quantile_n():  # the extreme residuals are not a 90 % band: the fallback's floor
        inner = (min(inner[0], -SMALL_HALF_WIDTH), max(inner[1], SMALL_HALF_WIDTH))
    outer = band(held_out_residuals(pts, groups, fit, predict)) if groups and len(groups) > 1 else None
    if outer is None:
        return inner, (inner[0] * EXTRAPOLATION_FACTOR, inner[1] * EXTRAPOLATION_FACTOR)
    return inner, (min(outer[0], inner[0]), max(outer[1], inner[1]))
