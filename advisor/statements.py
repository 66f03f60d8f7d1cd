"""Numbers quoted from the documents in rationales and warnings, derived from the rows they cite.

A rationale that says "about 40 % more CPU than bare metal" or "about 15x slower" must not carry a
number typed into the code: :func:`derive` computes it from the knowledge-base rows it names, by a
named derivation, and :class:`Statement` keeps the rows, the derivation and the value next to
the text (``details.statements`` of a recommendation), so a test can re-derive every statement
from the knowledge base (tests/replay/test_statements.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: name -> (function of the rows' values, what it computes)
DERIVATIONS: dict[str, tuple[Callable[[Sequence[float]], float], str]] = {
    "value": (lambda v: v[0], "the row's value"),
    "ratio": (lambda v: v[0] / v[1], "first row / second row"),
    "percent_more": (lambda v: 100.0 * (v[0] / v[1] - 1.0), "how much the first row exceeds the second, %"),
    "points_above_rest_pct": (lambda v: 100.0 * v[1] / (v[0] - v[1]),
                              "a peak (first row) that lies some points (second row) above the others: "
                              "how much more that is than the others' level, %"),
}


@dataclass(frozen=True)
class Statement:
    """A number quoted in a text: ``rows`` are ``document:key`` references (document id or prefix)."""

    text: str
    value: float
    unit: str
    rows: tuple[str, ...]
    derivation: str
    digits: int = 0  # the text rounds the value to this many decimals

    def to_dict(self) -> dict:
        return {"text": self.text, "value": round(self.value, 6), "unit": self.unit, "rows": list(self.rows),
                "derivation": self.derivation, "digits": self.digits}


def row_values(kb, rows: Sequence[str]) -> list[float]:
    """The values of ``rows`` (``doc:key``; the document by id or prefix)."""
    out = []
    for ref in rows:
        doc, _, key = ref.partition(":")
        out.append(float(kb.get(kb.resolve_document(doc), key).value))
    return out


def derive(kb, rows: Sequence[str], derivation: str) -> float:
    """The number ``derivation`` computes from ``rows`` of ``kb``."""
    if derivation not in DERIVATIONS:
        raise KeyError(f"unknown derivation {derivation!r}; known: {', '.join(DERIVATIONS)}")
    return float(DERIVATIONS[derivation][0](row_values(kb, rows)))


def statement(kb, template: str, rows: Sequence[str], derivation: str, unit: str = "", digits: int = 0
              ) -> Statement:
    """A :class:`Statement` whose text is ``template`` with ``{n}`` replaced by the derived number
    (rounded to ``digits`` decimals)."""
    value = derive(kb, rows, derivation)
    return Statement(template.format(n=f"{value:.{digits}f}"), value, unit, tuple(rows), derivation, digits)
