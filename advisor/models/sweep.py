"""Vectorised what-if: vary one input of a regression family over a range, for every alternative.

>>> sweep(kb, "cache_mode_throughput", "vms_per_host", np.linspace(1, 8, 50),
...       {"operation": "random_read"}, alternatives=("cache_mode", ["writeback", "none"]))
{"writeback": Prediction(...50 values...), "none": Prediction(...)}

The GUI's sliders and plots call this; one call costs one numpy pass per alternative (the varied
input is passed to the family as an array, never looped over in Python).
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence

import numpy as np

from advisor.models import get_family
from advisor.models.base import Prediction
from knowledge.infra.errors import InputError

#: key of the single result when ``alternatives`` is None
DEFAULT_KEY = "default"
#: how many sweeps :func:`remembered` keeps (the latest)
REMEMBERED = 64

_remembered: OrderedDict[tuple, tuple[object, dict[str, Prediction]]] = OrderedDict()
_remembered_lock = threading.Lock()


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


def remembered(kb, family: str, vary: str, values: Sequence[float], fixed: Mapping[str, object],
               alternatives: tuple[str, Sequence[str]] | None = None) -> dict[str, Prediction]:
    """:func:`sweep` (without calibration), not predicted again for a query asked before: a what-if
    step redraws a chart whose curves do not move with its slider (only its mark does), and a new
    advice redraws every chart. The same query of the same trained family (one object per knowledge
    base and training, :func:`get_family`) gives the same predictions; every caller gets copies."""
    fam = get_family(family, kb)
    try:
        levels = None if alternatives is None else (alternatives[0], tuple(alternatives[1]))
        key = (family, vary, np.asarray(values, dtype=float).tobytes(), tuple(fixed.items()), levels)
        hash(key)
    except (TypeError, ValueError):  # not a query to remember: sweep says what is wrong with it, if anything
        return sweep(kb, family, vary, values, fixed, alternatives)
    with _remembered_lock:
        found = _remembered.get(key)
        if found is not None and found[0] is fam:
            _remembered.move_to_end(key)
    if found is None or found[0] is not fam:
        found = (fam, sweep(kb, family, vary, values, fixed, alternatives))
        with _remembered_lock:
            _remembered[key] = found
            while len(_remembered) > REMEMBERED:
                _remembered.popitem(last=False)
    return {name: _copy(p) for name, p in found[1].items()}


def _copy(p: Prediction) -> Prediction:
    def own(a):
        return a.copy() if isinstance(a, np.ndarray) else a

    return dataclasses.replace(p, mean=own(p.mean), low=own(p.low), high=own(p.high),
                               extrapolated=own(p.extrapolated))
