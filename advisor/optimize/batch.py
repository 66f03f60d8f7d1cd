"""Model access in batches: the engine's own functions, run for many designs, with their model
calls gathered into one vectorised prediction per family.

:class:`BatchedModels` is a :class:`~advisor.recommend.base.ModelAccess` that remembers every
row it predicted. :func:`run_batched` runs a list of tasks twice: first recording (each model
call is answered with a placeholder and its queries are noted), then, after one
``predict`` per family over all the noted queries, for real, every call answered from the stored
rows. The families predict each row on its own (a row's figure does not depend on the other
rows of the call), so the figures are those of separate calls; the brute-force test checks it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from advisor.models.base import Prediction
from advisor.recommend.base import ModelAccess

_Key = tuple


def _key(query: Mapping[str, Any]) -> _Key:
    return tuple(sorted((str(k), v if isinstance(v, str | int | float | bool) or v is None else repr(v))
                        for k, v in query.items()))


class BatchedModels(ModelAccess):
    """Model access answering from stored row predictions (see the module doc)."""

    def __init__(self, kb, calibration: dict | None = None):
        super().__init__(kb, calibration)
        self.recording = False
        #: (family, calibrate) -> {row key: (mean, low, high, extrapolated)}
        self._rows: dict[tuple[str, bool], dict[_Key, tuple[float, float, float, bool]]] = {}
        #: (family, calibrate) -> (unit, basis, citations) of its last prediction, or None if it failed
        self._meta: dict[tuple[str, bool], tuple[str, str, tuple] | None] = {}
        self._pending: dict[tuple[str, bool], dict[_Key, Mapping[str, Any]]] = {}
        self.calls = 0
        self.batches = 0

    def predict(self, name: str, queries: Sequence[Mapping[str, Any]], calibrate: bool = True):
        self.calls += 1
        slot = (name, bool(calibrate))
        rows = self._rows.setdefault(slot, {})
        keys = [_key(q) for q in queries]
        missing = {k: q for k, q in zip(keys, queries, strict=True) if k not in rows}
        if missing and self.recording:
            self._pending.setdefault(slot, {}).update(missing)
            fam = self.family(name)
            if fam is None:
                return None
            n = len(queries)
            return Prediction(np.ones(n), np.ones(n), np.ones(n), getattr(fam, "unit", ""), np.zeros(n, dtype=bool))
        if missing:
            self._fill(slot, missing)
        meta = self._meta.get(slot)
        if meta is None:
            return None
        got = [rows[k] for k in keys]
        unit, basis, cites = meta
        arr = np.array([g[:3] for g in got], dtype=float).reshape(len(got), 3)
        return Prediction(arr[:, 0].copy(), arr[:, 1].copy(), arr[:, 2].copy(), unit,
                          np.array([g[3] for g in got], dtype=bool), basis, cites)

    def _fill(self, slot: tuple[str, bool], queries: dict[_Key, Mapping[str, Any]]) -> None:
        self.batches += 1
        pred = super().predict(slot[0], list(queries.values()), slot[1])
        if pred is None:
            self._meta[slot] = None
            rows = self._rows[slot]
            for k in queries:  # answered (with None) from now on
                rows[k] = (np.nan, np.nan, np.nan, False)
            return
        self._meta[slot] = (pred.unit, pred.basis, pred.citations)
        rows = self._rows[slot]
        for i, k in enumerate(queries):
            rows[k] = (float(pred.mean[i]), float(pred.low[i]), float(pred.high[i]), bool(pred.extrapolated[i]))

    def flush(self) -> None:
        """Predict every query noted while recording, one call per family."""
        pending, self._pending = self._pending, {}
        for slot, queries in pending.items():
            todo = {k: q for k, q in queries.items() if k not in self._rows.setdefault(slot, {})}
            if todo:
                self._fill(slot, todo)


def run_batched(models: BatchedModels, tasks: Sequence[Callable[[], Any]]) -> list[Any]:
    """Each task's result, its model calls batched (see the module doc). A task must be
    repeatable (build its own contexts); an exception while recording is ignored (the real run
    raises it again)."""
    models.recording = True
    try:
        for task in tasks:
            try:
                task()
            except Exception:  # noqa: BLE001 - placeholders may upset a figure; the real run tells
                pass
    finally:
        models.recording = False
    models.flush()
    return [task() for task in tasks]
