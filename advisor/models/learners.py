"""Thin wrappers around scikit-learn estimators (Orange style: a learner records the estimator
and its parameters; calling it on data returns a small model object that predicts).

The families fit *parametric models in log space*: the documents give a handful of points per
curve (three VM counts, three over-allocation levels, ...), too few for trees or kernels, and
the physics is multiplicative (a cache that is shared by n VMs, a slowdown factor, a cost per
transaction). Monotonicity is imposed through the sign of a coefficient: a feature that
physics says can only lower the target gets a coefficient <= 0, and so on.

Where the physics is not log-linear (a hit ratio that mixes two service times, a utilization
that saturates), :class:`LogNonlinearLearner` fits a model function the family writes, by
bounded least squares on ``log(y)`` with optional ridge rows (``scipy.optimize.least_squares``,
SciPy being scikit-learn's own numerical base).

scikit-learn and SciPy are imported inside the learners' ``__call__`` only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

FREE, POSITIVE, NEGATIVE = 0, 1, -1


@dataclass
class LogLinearModel:
    """``exp(X @ coef)``: a fitted log-linear model (picklable, numpy only)."""

    coef: np.ndarray
    learner: str = ""
    params: dict = field(default_factory=dict)

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Predicted targets (in the unit of the training targets) for the rows of ``X``."""
        return np.exp(np.asarray(X, dtype=float) @ self.coef)

    def predict_log(self, X: np.ndarray) -> np.ndarray:
        """Natural log of :meth:`predict`."""
        return np.asarray(X, dtype=float) @ self.coef


class LogLinearLearner:
    """Least squares on ``log(y)`` with a sign constraint per column of ``X``.

    ``signs[j]`` is ``FREE`` (0), ``POSITIVE`` (+1: coefficient >= 0) or ``NEGATIVE`` (-1:
    coefficient <= 0). Implemented with scikit-learn's ``LinearRegression(positive=True)`` on
    an expanded design (a free column becomes the pair ``x, -x``); ``alpha`` adds a small ridge
    penalty so that sparse designs (a group with one point) stay determined. With
    ``penalize_free=False`` only the sign-constrained (slope) columns are shrunk, which leaves
    intercepts alone and pulls uncertain slopes towards "no effect".
    """

    name = "sign-constrained log-linear least squares (sklearn LinearRegression, positive=True)"

    def __init__(self, signs: Sequence[int], alpha: float = 1e-4, penalize_free: bool = True):
        self.signs = tuple(int(s) for s in signs)
        self.alpha = float(alpha)
        self.penalize_free = bool(penalize_free)
        self.params = {"signs": self.signs, "alpha": self.alpha, "penalize_free": self.penalize_free}

    def __call__(self, X: np.ndarray, y: np.ndarray) -> LogLinearModel:
        from sklearn.linear_model import LinearRegression

        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float)
        if X.ndim != 2 or X.shape[1] != len(self.signs):
            raise ValueError(f"design has {X.shape} columns, learner expects {len(self.signs)}")
        if np.any(y <= 0):
            raise ValueError("log-linear targets must be > 0")
        cols, back = [], []  # back[k] = (original column, sign applied)
        for j, s in enumerate(self.signs):
            if s == FREE:
                cols += [X[:, j], -X[:, j]]
                back += [(j, 1.0), (j, -1.0)]
            else:
                cols.append(X[:, j] * s)
                back.append((j, float(s)))
        Xe = np.column_stack(cols)
        target = np.log(y)
        if self.alpha > 0:
            k = Xe.shape[1]
            weight = np.array([self.penalize_free or self.signs[j] != FREE for j, _ in back], dtype=float)
            Xe = np.vstack([Xe, np.sqrt(self.alpha) * np.diag(weight)])
            target = np.concatenate([target, np.zeros(k)])
        est = LinearRegression(positive=True, fit_intercept=False)
        est.fit(Xe, target)
        coef = np.zeros(X.shape[1])
        for fitted, (j, sign) in zip(est.coef_, back, strict=True):
            coef[j] += sign * fitted
        return LogLinearModel(coef=coef, learner=self.name, params=dict(self.params))


def one_hot(values: np.ndarray, levels: Sequence[str]) -> np.ndarray:
    """An ``(n, len(levels))`` 0/1 matrix: column ``k`` marks ``values == levels[k]``."""
    values = np.asarray(values, dtype=object).astype(str)
    return (values[:, None] == np.asarray(levels, dtype=str)[None, :]).astype(float)


@dataclass
class NonlinearModel:
    """``exp(fn(coef, data))``: a fitted model whose log prediction is the family's ``fn``.

    ``fn`` must be a module-level function (the model cache stores it by name);
    ``data`` is whatever the family passes it (a dict of arrays).
    """

    coef: np.ndarray
    fn: Callable
    learner: str = ""
    params: dict = field(default_factory=dict)

    def predict_log(self, data) -> np.ndarray:
        """Natural log of the prediction for ``data``."""
        return np.asarray(self.fn(self.coef, data), dtype=float)

    def predict(self, data) -> np.ndarray:
        """Predictions (in the unit of the training targets) for ``data``."""
        return np.exp(self.predict_log(data))


#: weight of each coefficient's pull towards its start value (residuals in log units): pins the
#: directions the data leave flat (a coefficient of a term that saturates moved by 200 at the same
#: cost), so that the fit has one optimum and reaches it on every CPU; 1e-4 moves no prediction of the
#: replay measurably and makes its figures the same under every BLAS kernel
ANCHOR = 1e-4
#: the trust region stops on a small step short of the optimum (xtol) on flat ground: it starts again
#: from where it stopped at most this many times, while the cost still falls
RESTARTS = 5


class LogNonlinearLearner:
    """Bounded least squares on ``log(y)`` for a model ``log y = fn(coef, data)``.

    ``x0``, ``lower`` and ``upper`` give the start and the bounds of every coefficient (equal
    bounds fix one); ``ridge`` is an optional ``(k, len(coef))`` matrix whose rows ``r`` add the
    penalty ``alpha_k * (r @ coef)**2`` (``alphas``, one per row): ties between coefficients
    that physics says should be alike (two cache modes reading through the same page cache, ...).
    """

    name = "bounded nonlinear least squares on log(y) (scipy.optimize.least_squares, trust region)"

    def __init__(self, fn: Callable, x0: Sequence[float], lower: Sequence[float], upper: Sequence[float],
                 ridge: np.ndarray | None = None, alphas: Sequence[float] | None = None):
        self.fn = fn
        self.x0 = np.asarray(x0, dtype=float)
        self.lower = np.asarray(lower, dtype=float)
        self.upper = np.asarray(upper, dtype=float)
        fixed = np.isfinite(self.lower) & (self.lower >= self.upper)  # scipy needs lower < upper
        self.upper = self.upper.copy()
        self.upper[fixed] = self.lower[fixed] + 1e-12 * np.maximum(1.0, np.abs(self.lower[fixed]))
        self.x0 = np.clip(self.x0, self.lower, self.upper)
        self.ridge = None if ridge is None else np.asarray(ridge, dtype=float)
        self.alphas = None if alphas is None else np.sqrt(np.asarray(alphas, dtype=float))
        self.params = {"fn": getattr(fn, "__name__", str(fn)), "n_coef": int(self.x0.size),
                       "ridge_rows": 0 if self.ridge is None else int(self.ridge.shape[0])}

    def __call__(self, data, y: np.ndarray) -> NonlinearModel:
        from scipy.optimize import least_squares

        y = np.asarray(y, dtype=float)
        if np.any(y <= 0):
            raise ValueError("log targets must be > 0")
        target = np.log(y)

        anchor = ANCHOR * np.isfinite(self.x0)

        def residuals(coef):
            r = np.asarray(self.fn(coef, data), dtype=float) - target
            if self.ridge is not None:
                r = np.concatenate([r, self.alphas * (self.ridge @ coef)])
            return np.concatenate([r, anchor * (coef - self.x0)])

        fit = least_squares(residuals, self.x0, bounds=(self.lower, self.upper), method="trf")
        for _ in range(RESTARTS):  # the trust region stops on a small step before the optimum; go on from there
            again = least_squares(residuals, fit.x, bounds=(self.lower, self.upper), method="trf")
            if again.cost >= fit.cost * (1 - 1e-9):
                break
            fit = again
        return NonlinearModel(coef=fit.x, fn=self.fn, learner=self.name, params=dict(self.params))
