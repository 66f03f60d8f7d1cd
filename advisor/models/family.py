"""Shared machinery of the regression families: columns, intervals, extrapolation, citations.

A family is built from a knowledge base (it reads its training rows once, then never needs the
knowledge base again, so a trained family is stored in the model cache), fitted, and asked for
predictions either row-wise (:meth:`Family.predict`, a list of query dicts, the
:class:`~advisor.models.base.ModelFamily` contract) or column-wise
(:meth:`Family.predict_columns`, one array per feature; what the vectorised what-if API uses).

Intervals: split-conformal bands at 90 % from held-out (CV+) log residuals
(:mod:`advisor.models.conformal`), wider for a query the family flags as extrapolated. ``Prediction.level`` states the level. A family may narrow
the band for queries that are exact by definition (:meth:`Family._relative_interval`; native in
``container_overhead``).

Calibration: every value of a calibration dict other than ``site`` must be a positive finite
number (checked once here, :func:`check_calibration`: an InputError names the family and the
key); a calibrated prediction keeps the documents' *relative* interval around the site's level.

Query features: :func:`column` reads them; a NaN default marks an optional feature "not given"
(absent or None), while an explicit NaN or infinity is an InputError naming the feature.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from advisor.models import conformal
from advisor.models.base import FamilyUnavailable, Prediction, TrainingPoint
from advisor.models.conformal import LEVEL, SMALL_HALF_WIDTH
from knowledge.infra.errors import InputError


def column(columns: Mapping[str, object], name: str, n: int, default=None, *, numeric: bool = True,
           family: str = "") -> np.ndarray:
    """Feature ``name`` as an array of length ``n`` (a scalar is broadcast; missing -> default).

    Categorical levels are lower-cased strings. Raises InputError when the feature is required
    (``default is None``) and missing, or when a numeric value is not a finite number. A NaN
    ``default`` marks "not given": absent entries (a missing key, or None in a row) come back as
    NaN for the caller to fill, while a NaN the caller passed explicitly is an error like any
    other non-finite value.
    """
    who = family or "model"
    value = columns.get(name)
    absent = np.zeros(n, dtype=bool)
    if value is None:
        if default is None:
            raise InputError(f"{who}: query feature {name!r} is required")
        value = default
        absent[:] = True
    elif isinstance(value, (list, tuple)) and any(v is None for v in value):
        if default is None:
            raise InputError(f"{who}: query feature {name!r} is required")
        if len(value) == n:
            absent = np.array([v is None for v in value], dtype=bool)
        value = [default if v is None else v for v in value]
    try:
        arr = np.asarray(value, dtype=object if not numeric else None)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{who}: feature {name!r} must be numeric, got {value!r}") from exc
    if arr.ndim == 0:
        arr = np.full(n, arr.item(), dtype=object if not numeric else None)
    if arr.ndim != 1 or arr.shape != (n,):
        raise InputError(f"{who}: feature {name!r} has {arr.size} values for {n} queries")
    if numeric:
        try:
            out = arr.astype(float)
        except (TypeError, ValueError) as exc:
            raise InputError(f"{who}: feature {name!r} must be numeric, got {value!r}") from exc
        if not np.all(np.isfinite(out) | (absent & np.isnan(out))):
            raise InputError(f"{who}: feature {name!r} must be a finite number")
        return out
    return np.char.lower(arr.astype(str))


def check_levels(family: str, **features: tuple[np.ndarray, Sequence[str]]) -> None:
    """Raise InputError naming every categorical value outside its allowed levels.

    ``features`` maps a feature name to (its values, the allowed levels)."""
    bad = [f"{name} {v!r}" for name, (values, allowed) in features.items()
           for v in sorted(set(values) - set(allowed))]
    if bad:
        known = ", ".join(f"{name} one of {', '.join(a for a in allowed if a)}"
                          for name, (_, allowed) in features.items())
        raise InputError(f"{family}: unknown level(s) {', '.join(bad)}; {known}")


def positive(values: np.ndarray, name: str, family: str, unit: str = "", *, allow_zero: bool = False) -> np.ndarray:
    """``values`` unchanged when all are > 0 (>= 0 with ``allow_zero``), else InputError naming
    the family and the feature."""
    bad = values < 0 if allow_zero else values <= 0
    if np.any(bad):
        first = float(values[np.argmax(bad)])
        limit = ">= 0" if allow_zero else "> 0"
        raise InputError(f"{family}: {name} must be {limit}{' ' + unit if unit else ''}, got {first:g}")
    return values


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
    #: a prediction's unit over its training targets' (container_overhead: % of native over fractions)
    target_scale = 1.0

    def __init__(self, kb=None, points: Sequence[TrainingPoint] | None = None):
        self._points: list[TrainingPoint] = list(points) if points is not None else []
        if kb is not None and points is None:
            self._points = self._collect(kb)
        self._core: Any = None  # the fitted model, whatever each family keeps
        self._fit_points: list[TrainingPoint] = []
        self._log_lo = -SMALL_HALF_WIDTH
        self._log_hi = SMALL_HALF_WIDTH
        self._ext_lo = -SMALL_HALF_WIDTH  # the band of an extrapolated query (see the module doc)
        self._ext_hi = SMALL_HALF_WIDTH

    # --- contract ---------------------------------------------------------------------------
    def training_points(self) -> list[TrainingPoint]:
        """The knowledge-base rows this family learns from, as features and target."""
        return list(self._points)

    def fit(self, points: Sequence[TrainingPoint] | None = None) -> Family:
        """Train on ``points`` (default: all training points); returns self."""
        pts = list(self._points if points is None else points)
        if not pts:
            raise FamilyUnavailable(f"{self.name}: the knowledge base has no rows to learn it from")
        self._core = self._fit_core(pts)
        self._fit_points = pts
        (self._log_lo, self._log_hi), (self._ext_lo, self._ext_hi) = self._interval_from(pts)
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
        calibration = self._check_calibration(calibration)
        mean, extrap = self._predict_core(self._core, columns, n)
        basis = "documents"
        if calibration:
            mean, basis = self._calibrate(mean, columns, n, calibration)
        mean = np.clip(mean, self.lower_bound, self.upper_bound)
        # a calibrated figure keeps the documents' relative interval (it moves the level, not
        # the uncertainty of the documents' ratios)
        extrap = np.asarray(extrap, dtype=bool)
        rel_lo, rel_hi = self._relative_interval(columns, n, extrap)
        low, high = self._bounds(mean * rel_lo, mean * rel_hi, columns, n)
        return Prediction(mean=mean, low=np.minimum(low, mean), high=np.maximum(high, mean),
                          unit=self.unit, extrapolated=extrap, basis=basis,
                          citations=self.citations(), level=LEVEL)

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

    def _relative_interval(self, cols, n: int, extrap: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(low / mean, high / mean) per query: the calibrated band, the extrapolation band where
        ``extrap`` flags the query (see the module doc)."""
        ext = np.zeros(n, dtype=bool) if extrap is None else np.asarray(extrap, dtype=bool)
        return (np.exp(np.where(ext, self._ext_lo, self._log_lo)),
                np.exp(np.where(ext, self._ext_hi, self._log_hi)))

    def _check_calibration(self, calibration: Mapping[str, object] | None) -> dict | None:
        """The calibration dict with every figure checked: None when empty; ``site`` kept as a
        name; every other value (None = absent) must be a positive finite number, else InputError
        naming the family and the key."""
        return check_calibration(self.name, calibration)

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

    def _interval_from(self, pts: list[TrainingPoint]) -> tuple[tuple[float, float], tuple[float, float]]:
        """(interpolation band, extrapolation band) in log units, from held-out residuals."""
        y = np.array([p.target for p in pts], dtype=float)
        pred = self.predict_points(self._core, pts)
        ok = (y > 0) & (pred > 0)
        in_sample = np.log(y[ok] / pred[ok])
        return conformal.calibrate(pts, self._fit_core, self.predict_points, in_sample,
                                   self._extrapolation_folds(pts))

    def _extrapolation_folds(self, points: list[TrainingPoint]) -> list[list[int]] | None:
        """Folds of the points a query extrapolates over (e.g. one configuration each), whose held-out
        residuals calibrate the extrapolation band; None: the interpolation band, widened."""
        return None

    def _n_params(self) -> int:
        """Number of fitted coefficients (for the degrees-of-freedom inflation of intervals)."""
        model = self._core.get("model") if isinstance(self._core, dict) else None
        return int(len(model.coef)) if model is not None else 1


def check_calibration(family: str, calibration: Mapping[str, object] | None) -> dict | None:
    """A site's calibration dict, validated (see :meth:`Family._check_calibration`)."""
    if not calibration:
        return None
    if not isinstance(calibration, Mapping):
        raise InputError(f"{family}: calibration must be a mapping of figure names to numbers")
    out: dict[str, object] = {}
    for key, value in calibration.items():
        if key == "site":
            if value is not None:
                out["site"] = str(value)
            continue
        if value is None:
            continue
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise InputError(f"{family}: calibration figure {key!r} must be a positive number, got {value!r}")
        number = float(value)
        if not np.isfinite(number) or number <= 0:
            raise InputError(f"{family}: calibration figure {key!r} must be a positive finite number, "
                             f"got {value!r}")
        out[key] = number
    return out if any(k != "site" for k in out) else None


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
