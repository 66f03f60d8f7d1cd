"""Shared machinery of the regression families: columns, intervals, extrapolation, citations.

A family is built from a knowledge base (it reads its training rows once, then never needs the
knowledge base again, so a trained family pickles into the model cache), fitted, and asked for
predictions either row-wise (:meth:`Family.predict`, a list of query dicts, the
:class:`~advisor.models.base.ModelFamily` contract) or column-wise
(:meth:`Family.predict_columns`, one array per feature; what the vectorised what-if API uses).

Intervals: the 10th and 90th percentiles of the in-sample log residuals, inflated by
``sqrt(n / (n - p))`` for the ``p`` fitted coefficients (about an 80 % interval), never narrower
than +-5 %. Families with fewer than three degrees of freedom left use the largest log residual,
at least +-25 %. (Leave-one-out residuals were tried first: with a few points per curve, holding
out the only point that pins a slope gives absurd, 25-fold intervals.)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from advisor.models.base import Prediction, TrainingPoint
from knowledge.errors import InputError

MIN_HALF_WIDTH = 0.05   # log units, about +-5 %
SMALL_HALF_WIDTH = 0.25  # log units, about +-25 %, for families with < 3 degrees of freedom


def column(columns: Mapping[str, object], name: str, n: int, default=None, *, numeric: bool = True,
           family: str = "") -> np.ndarray:
    """Feature ``name`` as an array of length ``n`` (a scalar is broadcast; missing -> default).

    Categorical levels are lower-cased strings. Raises InputError when the feature is required
    (``default is None``) and missing, or when a numeric value is not a number.
    """
    value = columns.get(name)
    if value is None:
        if default is None:
            raise InputError(f"{family or 'model'}: query feature {name!r} is required")
        value = default
    if isinstance(value, (list, tuple)) and any(v is None for v in value):
        if default is None:
            raise InputError(f"{family or 'model'}: query feature {name!r} is required")
        value = [default if v is None else v for v in value]
    arr = np.asarray(value, dtype=object if not numeric else None)
    if arr.ndim == 0:
        arr = np.full(n, arr.item(), dtype=object if not numeric else None)
    if arr.shape != (n,):
        raise InputError(f"{family}: feature {name!r} has {arr.shape[0]} values for {n} queries")
    if numeric:
        try:
            out = arr.astype(float)
        except (TypeError, ValueError) as exc:
            raise InputError(f"{family}: feature {name!r} must be numeric, got {value!r}") from exc
        sentinel = isinstance(default, float) and np.isnan(default)  # NaN marks "use the default"
        if not np.all(np.isfinite(out) | (sentinel & np.isnan(out))):
            raise InputError(f"{family}: feature {name!r} must be a finite number")
        return out
    return np.char.lower(arr.astype(str))


def rows_to_columns(queries: Sequence[Mapping[str, object]]) -> tuple[dict[str, list], int]:
    """List of query dicts -> (feature -> list of values, number of queries)."""
    names: dict[str, None] = {}
    for q in queries:
        names.update(dict.fromkeys(q))
    cols = {k: [q.get(k) for q in queries] for k in names}
    # a feature absent from every row is left out (it takes its default); partly absent
    # features keep None in those rows, which column() replaces by the default
    return {k: v for k, v in cols.items() if any(x is not None for x in v)}, len(queries)


class Family:
    """Base of every family: training points, LOO intervals, the two predict entry points.

    Subclasses set ``name``, ``unit``, ``feature_names`` and implement ``_collect(kb)`` (the
    training points), ``_fit_core(points)`` (a fitted core model) and
    ``_predict_core(core, cols, n)`` (mean array, extrapolated array), plus optionally
    ``_calibrate(mean, cols, n, calibration)`` (returns the calibrated mean and a basis).
    """

    name = ""
    unit = ""
    feature_names: tuple[str, ...] = ()
    description = ""
    lower_bound = 0.0
    upper_bound = np.inf

    def __init__(self, kb=None, points: Sequence[TrainingPoint] | None = None):
        self._points: list[TrainingPoint] = list(points) if points is not None else []
        if kb is not None and points is None:
            self._points = self._collect(kb)
        self._core = None
        self._fit_points: list[TrainingPoint] = []
        self._log_lo = -SMALL_HALF_WIDTH
        self._log_hi = SMALL_HALF_WIDTH

    # --- contract ---------------------------------------------------------------------------
    def training_points(self) -> list[TrainingPoint]:
        """The knowledge-base rows this family learns from, as features and target."""
        return list(self._points)

    def fit(self, points: Sequence[TrainingPoint] | None = None):
        """Train on ``points`` (default: all training points); returns self."""
        pts = list(self._points if points is None else points)
        if not pts:
            raise InputError(f"{self.name}: no training points")
        self._core = self._fit_core(pts)
        self._fit_points = pts
        self._log_lo, self._log_hi = self._interval_from(pts)
        return self

    def predict(self, queries: Sequence[Mapping[str, float | str]],
                calibration: dict | None = None) -> Prediction:
        """Predict for each query (a mapping of feature name to value); see the family's doc."""
        cols, n = rows_to_columns(queries)
        return self.predict_columns(cols, n, calibration)

    def predict_columns(self, columns: Mapping[str, object], n: int,
                        calibration: dict | None = None) -> Prediction:
        """Vectorised predict: ``columns`` maps features to arrays of length ``n`` or scalars."""
        if self._core is None:
            raise RuntimeError(f"{self.name}: fit() before predict()")
        if n == 0:
            empty = np.zeros(0)
            return Prediction(mean=empty, low=empty, high=empty, unit=self.unit,
                              extrapolated=np.zeros(0, dtype=bool), citations=self.citations())
        mean, extrap = self._predict_core(self._core, columns, n)
        basis = "documents"
        if calibration:
            mean, basis = self._calibrate(mean, columns, n, calibration)
        mean = np.clip(mean, self.lower_bound, self.upper_bound)
        low, high = self._bounds(mean * np.exp(self._log_lo), mean * np.exp(self._log_hi), columns, n)
        return Prediction(mean=mean, low=np.minimum(low, mean), high=np.maximum(high, mean),
                          unit=self.unit, extrapolated=np.asarray(extrap, dtype=bool), basis=basis,
                          citations=self.citations())

    def citations(self) -> tuple[tuple[str, str], ...]:
        """(document, locator) of every training row, in order, without repeats."""
        seen: dict[tuple[str, str], None] = {}
        for p in self._fit_points or self._points:
            for doc, loc in _split_sources(p):
                seen[(doc, loc)] = None
        return tuple(seen)

    # --- hooks ------------------------------------------------------------------------------
    def _collect(self, kb) -> list[TrainingPoint]:
        raise NotImplementedError

    def _fit_core(self, points: list[TrainingPoint]):
        raise NotImplementedError

    def _predict_core(self, core, cols: Mapping[str, object], n: int) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    def _calibrate(self, mean: np.ndarray, cols, n: int, calibration: dict) -> tuple[np.ndarray, str]:
        return mean, "documents"

    def _bounds(self, low: np.ndarray, high: np.ndarray, cols, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Clip the interval to physical limits (default: the family's lower/upper bound)."""
        return (np.clip(low, self.lower_bound, self.upper_bound),
                np.clip(high, self.lower_bound, self.upper_bound))

    # --- helpers ----------------------------------------------------------------------------
    def _point_columns(self, points: Sequence[TrainingPoint]) -> tuple[dict[str, list], int]:
        return rows_to_columns([p.features for p in points])

    def predict_points(self, core, points: Sequence[TrainingPoint]) -> np.ndarray:
        """What ``core`` predicts for training points (in the points' target unit)."""
        cols, n = self._point_columns(points)
        return self._predict_core(core, cols, n)[0]

    def loo(self, points: Sequence[TrainingPoint] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Leave-one-out over ``points`` (default all): (targets, predictions without the point)."""
        pts = list(self._points if points is None else points)
        preds = [float(self.predict_points(self._fit_core(pts[:i] + pts[i + 1:]), [pts[i]])[0])
                 for i in range(len(pts))]
        return np.array([p.target for p in pts], dtype=float), np.array(preds)

    def _interval_from(self, pts: list[TrainingPoint]) -> tuple[float, float]:
        y = np.array([p.target for p in pts], dtype=float)
        pred = self.predict_points(self._core, pts)
        n = len(pts)
        r = np.log(y) - np.log(np.maximum(pred, 1e-12))
        n_params = self._n_params()
        if n - n_params < 3:
            half = max(float(np.abs(r).max()), SMALL_HALF_WIDTH)
            return -half, half
        inflate = np.sqrt(n / (n - n_params))
        lo, hi = float(np.quantile(r, 0.1)) * inflate, float(np.quantile(r, 0.9)) * inflate
        return min(lo, -MIN_HALF_WIDTH), max(hi, MIN_HALF_WIDTH)

    def _n_params(self) -> int:
        """Number of fitted coefficients (for the degrees-of-freedom inflation of intervals)."""
        model = self._core.get("model") if isinstance(self._core, dict) else None
        return int(len(model.coef)) if model is not None else 1


def _split_sources(p: TrainingPoint) -> list[tuple[str, str]]:
    """A point derived from several rows carries ``"doc|loc; doc|loc"`` in its locator."""
    if "|" not in p.locator:
        return [(p.document, p.locator)]
    out = []
    for part in p.locator.split(";"):
        doc, _, loc = part.strip().partition("|")
        out.append((doc, loc))
    return out


def sources(*rows) -> tuple[str, str]:
    """(document, locator) for a point derived from several rows: document of the first row,
    locator ``"doc|loc; doc|loc"`` naming every row (see :meth:`Family.citations`)."""
    if len(rows) == 1:
        return rows[0].document, rows[0].locator
    return rows[0].document, "; ".join(f"{r.document}|{r.locator}" for r in rows)


def point(row, features: dict, target: float | None = None, *, also=()) -> TrainingPoint:
    """A TrainingPoint traced to ``row`` (and the rows in ``also`` it was derived with)."""
    doc, loc = sources(row, *also)
    key = "+".join([row.key, *(r.key for r in also)])
    return TrainingPoint(features=features, target=float(row.value if target is None else target),
                         document=doc, locator=loc, key=key)
