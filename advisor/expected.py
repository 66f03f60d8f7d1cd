"""The typed expected figure of a recommendation (:class:`ExpectedFigure`), from the recommender that
makes it to the JSON edge (:meth:`ExpectedFigure.to_dict`, the keys of ``capadvisor advise --format
json``: ``{value, low, high, unit, basis, extrapolated, ...}``).

A figure is a point (``value``, in ``unit``) with its interval ``[low, high]`` at the nominal
``level`` (0.9: a 90 % interval calibrated on held-out residuals of the figure's model family,
see :mod:`advisor.models.conformal`; None: no stated level, e.g. a count or a bound), the basis it
rests on (``documents``, ``site:<name>``, ...), whether it extrapolates past what was measured,
the hardware figures it rests on, and its notes. A figure that no model predicts but a document
measured on its own testbed names that testbed in ``measured_on`` (``"doc 003's testbed"``): it is
shown as the document's number, not as an expected figure for the scenario.

Anything else a recommender attaches (``source``, ``note``, ``event``, ``operations``, ...) is kept
in ``extra`` and written as its own key. For the readers of the JSON form an ``ExpectedFigure``
also reads as a mapping of those keys (``fig["value"]``, ``fig.get("note")``, ``"basis" in fig``)
and accepts ``fig["event"] = ...`` or ``fig.update(...)`` while it is being built; code of the engine reads the
attributes.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

#: the nominal coverage of every expected figure's interval (the models' conformal bands, the charts' bands)
INTERVAL_LEVEL = 0.9

#: the attributes written as keys of their own (in this order, after value/low/high/unit); None or
#: an empty list is not written
_OPTIONAL = ("level", "basis", "extrapolated", "hardware", "testbed", "measured_on", "notes")
_FIELDS = ("value", "low", "high", "unit", *_OPTIONAL)


def rounded(x: Any) -> Any:
    """``x`` to 6 significant digits (what a figure states); non-numbers and non-finite unchanged."""
    if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
        return x
    return float(f"{x:.6g}")


@dataclass(eq=False)
class ExpectedFigure(MutableMapping):
    """One expected figure: ``value`` with ``[low, high]`` in ``unit`` (see the module doc)."""

    value: Any
    unit: str = ""
    low: Any = None
    high: Any = None
    level: float | None = None
    basis: str | None = None
    extrapolated: bool | None = None
    hardware: list[str] | None = None
    testbed: str | None = None
    measured_on: str | None = None
    notes: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.low is None:
            self.low = self.value
        if self.high is None:
            self.high = self.value

    # --- typed readings ---------------------------------------------------------------------
    @property
    def interval(self) -> tuple[Any, Any]:
        """``(low, high)``."""
        return self.low, self.high

    @property
    def width(self) -> float | None:
        """``(high - low) / |value|``: the interval's width relative to the value (None without one)."""
        try:
            return (float(self.high) - float(self.low)) / abs(float(self.value))
        except (TypeError, ValueError, ZeroDivisionError):
            return None

    @property
    def is_point(self) -> bool:
        """Whether the figure states no interval (low == value == high)."""
        return self.low == self.value == self.high

    def number(self, key: str) -> float | None:
        """A number inside the figure (``"operations.random_read"``: a path through ``extra``), or None."""
        cur: Any = self
        for part in key.split("."):
            cur = cur.get(part) if isinstance(cur, Mapping) else None
        return float(cur) if isinstance(cur, int | float) and not isinstance(cur, bool) else None

    # --- the JSON edge ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{value, low, high, unit, ...}`` (see the module doc); the mapping view's
        items, built directly (no ``__getitem__`` per key: 10k groups write ~28k figures)."""
        out: dict[str, Any] = {}
        for name in _FIELDS:
            v = getattr(self, name)
            if v is not None and not (name == "notes" and not v):
                out[name] = v
            elif name in ("value", "low", "high", "unit"):
                raise KeyError(name)
        for key, v in self.extra.items():
            out[key] = self[key] if key in _FIELDS else v
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ExpectedFigure:
        """The figure a JSON form (or a dict written the old way) describes."""
        if isinstance(data, ExpectedFigure):
            return data
        known = {k: data[k] for k in _FIELDS if k in data}
        notes = known.pop("notes", [])
        extra = {k: v for k, v in data.items() if k not in _FIELDS}
        return cls(**known, notes=list(notes), extra=extra)

    # --- the mapping view (the keys of the JSON form) ---------------------------------------
    def _keys(self) -> Iterator[str]:
        yield from ("value", "low", "high", "unit")
        for name in _OPTIONAL:
            v = getattr(self, name)
            if v is not None and not (name == "notes" and not v):
                yield name
        yield from self.extra

    def __getitem__(self, key: str) -> Any:
        if key in _FIELDS:
            v = getattr(self, key)
            if v is None or (key == "notes" and not v):
                raise KeyError(key)
            return v
        return self.extra[key]

    def __setitem__(self, key: str, value: Any) -> None:
        if key in _FIELDS:
            setattr(self, key, value)
        else:
            self.extra[key] = value

    def __delitem__(self, key: str) -> None:
        if key in ("value", "unit"):
            raise KeyError(f"an expected figure keeps its {key}")
        if key in _FIELDS:
            if key in ("low", "high"):
                setattr(self, key, self.value)
            else:
                setattr(self, key, [] if key == "notes" else None)
        else:
            del self.extra[key]

    def __iter__(self) -> Iterator[str]:
        return self._keys()

    def __len__(self) -> int:
        return sum(1 for _ in self._keys())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self.to_dict() == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


def as_figure(fig: ExpectedFigure | Mapping[str, Any]) -> ExpectedFigure:
    """``fig`` as an :class:`ExpectedFigure` (a dict written the old way is converted)."""
    return fig if isinstance(fig, ExpectedFigure) else ExpectedFigure.from_dict(fig)


def figures_to_dict(figures: Mapping[str, ExpectedFigure | Mapping[str, Any]]) -> dict[str, dict]:
    """A choice's expected figures in their JSON form."""
    return {name: as_figure(f).to_dict() for name, f in figures.items()}
