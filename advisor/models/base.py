"""The contract between regression families and the recommenders.

A *family* interpolates one kind of measurement of the knowledge base (e.g. throughput
per cache mode vs VMs per host). It is trained from knowledge-base rows, predicts with an
interval, and says when a query lies outside what was measured. scikit-learn is imported
lazily inside the families, never at module import time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from knowledge.infra.errors import InputError


@dataclass(frozen=True)
class Prediction:
    """Predicted values for one or more query points, in ``unit``.

    ``mean``, ``low`` and ``high`` are arrays of the same length (one entry per query);
    ``[low, high]`` is the interval at the nominal ``level`` (90 %, calibrated on held-out residuals);
    ``extrapolated[i]`` is True where query ``i`` lies outside the measured range of a
    feature; ``basis`` names what the numbers rest on (``documents`` or ``site:<name>``).
    """

    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray
    unit: str
    extrapolated: np.ndarray
    basis: str = "documents"
    citations: tuple[tuple[str, str], ...] = ()  # (document, locator) pairs of the training rows
    level: float | None = None  # the nominal coverage of [low, high] (0.9: advisor.models.conformal)

    def item(self, i: int = 0) -> dict:
        """The i-th prediction as a plain dict (``value``, ``low``, ``high``, ``unit``, ...)."""
        return {"value": float(self.mean[i]), "low": float(self.low[i]), "high": float(self.high[i]),
                "unit": self.unit, "extrapolated": bool(self.extrapolated[i]), "basis": self.basis,
                "level": self.level}


@dataclass(frozen=True)
class TrainingPoint:
    """One measured point a family learns from: features, target, and where it comes from."""

    features: Mapping[str, float | str]
    target: float
    document: str
    locator: str
    key: str


class FamilyUnavailable(InputError):
    """A model family cannot be had for this knowledge base: no such family, no training rows,
    or an optional dependency missing. A known condition, not a bug: the engine decides from the
    rules alone and reports it (``Advice.model_problems``)."""


class ModelFamily(Protocol):
    """What every regression family provides (checked by mypy against every class of
    :data:`advisor.models.FAMILIES`): training rows, fitting, and batch prediction of a list of
    queries or of feature columns, optionally calibrated to a site's native figures."""

    @property
    def name(self) -> str: ...

    @property
    def unit(self) -> str: ...

    @property
    def feature_names(self) -> Sequence[str]: ...

    def training_points(self) -> list[TrainingPoint]:
        """The knowledge-base rows this family learns from, as features and target."""
        ...

    def fit(self, points: Sequence[TrainingPoint] | None = None) -> ModelFamily:
        """Train on ``points`` (default: all of :meth:`training_points`); returns self."""
        ...

    def predict(self, queries: Sequence[Mapping[str, float | str]],
                calibration: dict | None = None) -> Prediction:
        """Predict for each query (a mapping of feature name to value); ``calibration`` holds a
        site's native figures (``Prediction.basis`` then names the site)."""
        ...

    def predict_columns(self, columns: Mapping[str, object], n: int,
                        calibration: dict | None = None) -> Prediction:
        """Vectorised :meth:`predict`: one array (or scalar) per feature, ``n`` queries."""
        ...

    def citations(self) -> tuple[tuple[str, str], ...]:
        """(document, locator) of the training rows."""
        ...


@dataclass
class FamilyInfo:
    """Registry entry: how to build a family and what it is for (for docs and the GUI)."""

    name: str
    description: str
    factory: Callable[..., ModelFamily]  # factory(kb) -> an unfitted family
    tags: tuple[str, ...] = field(default_factory=tuple)
