"""Vectorised what-if: vary one input of a regression family over a range, for every alternative.

>>> sweep(kb, "cache_mode_throughput", "vms_per_host", np.linspace(1, 8, 50),
...       {"operation": "random_read"}, alternatives=("cache_mode", ["writeback", "none"]))
{"writeback": Prediction(...50 values...), "none": Prediction(...)}

The GUI's sliders and plots call this; one call costs one numpy pass per alternative (the varied
input is passed to the family as an array, never looped over in Python).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from advisor.models import get_family
from advisor.models.base import Prediction
from knowledge.infra.errors import InputError

#: key of the single result when ``alternatives`` is None
DEFAULT_KEY = "default"


def sweep(kb, family: str, vary: str, values: Sequence[float], fixed: Mapping[str, object],
          alternatives: tuple[str, Sequence[str]] | None = None,
          calibration: dict | None = None) -> dict[str, Prediction]:
    """Predictions of ``family`` over ``values`` of feature ``vary`` with the other features at
    ``fixed``; one Prediction (``len(values)`` entries, in the family's unit) per level of
    ``alternatives = (feature, levels)``, keyed by level, or one keyed ``"default"``.

    ``calibration`` is passed to the family (site native figures; see the family's docs).
    Raises InputError when ``vary`` or the alternatives' feature is not one of the family's
    ``feature_names``, or when ``values`` are not finite numbers.
    """
    fam = get_family(family, kb)
    known = tuple(getattr(fam, "feature_names", ()) or ())
    if known and vary not in known:
        raise InputError(f"what-if: {family} has no feature {vary!r} to vary; its features: {', '.join(known)}")
    if vary in fixed:
        fixed = {k: v for k, v in fixed.items() if k != vary}
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InputError(f"what-if: values of {family} feature {vary!r} must be numbers, got {values!r}") from exc
    if arr.ndim != 1 or arr.size == 0:
        raise InputError(f"what-if: values of {family} feature {vary!r} must be a non-empty 1-D sequence")
    if not np.all(np.isfinite(arr)):
        raise InputError(f"what-if: values of {family} feature {vary!r} must be finite numbers")
    columns = dict(fixed)
    columns[vary] = arr
    if alternatives is None:
        return {DEFAULT_KEY: fam.predict_columns(columns, arr.size, calibration)}
    feature, levels = alternatives
    if feature == vary:
        raise InputError(f"what-if: cannot vary {vary!r} and use it for the alternatives")
    if known and feature not in known:
        raise InputError(f"what-if: {family} has no feature {feature!r} for the alternatives; its features: "
                         f"{', '.join(known)}")
    out = {}
    for level in levels:
        columns[feature] = level
        out[str(level)] = fam.predict_columns(columns, arr.size, calibration)
    return out
