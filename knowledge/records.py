"""The records of the knowledge base, declared once beside ``schema/kb.sql``: a document, a
testbed, a measurement, a conclusion and a note as the curated files give them
(:mod:`knowledge.curated`), the build stores them (:mod:`knowledge.build`) and the knowledge base
returns them (:mod:`knowledge.store`).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class MeasurementRow:
    """One measurement; ``value`` is in ``unit``; ``value_si`` in the SI base of the unit's dimension."""

    document: str
    key: str
    locator: str
    metric: str
    value: float
    unit: str
    kind: str
    subject: str
    baseline: str
    qualifier: str
    value_low: float | None
    value_high: float | None
    value_si: float
    testbed: str
    note: str
    factors: dict[str, str] = field(default_factory=dict)
    source: str = ""  # where the curated file gives it (file:line, for messages); "" when read from the base

    def factor_num(self, name: str) -> float | None:
        """A factor's level as a number, or None when absent or not numeric."""
        try:
            return float(self.factors[name])
        except (KeyError, ValueError):
            return None

    def citation(self) -> dict[str, str]:
        """``{"document", "locator", "id"}`` for this row."""
        return {"document": self.document, "locator": self.locator, "id": self.key}


@dataclass(frozen=True)
class TestbedRow:
    document: str
    id: str
    locator: str
    description: str
    cpu: str
    cores: str
    ram: str
    disks: str
    nic: str
    hypervisor: str
    hypervisor_version: str
    host_os: str
    guest_os: str
    other: str


@dataclass(frozen=True)
class ConclusionRow:
    document: str
    id: str
    decision: str
    locator: str
    condition: str
    recommendation: str
    evidence: tuple[str, ...]


@dataclass(frozen=True)
class NoteRow:
    """Where a document disagrees with itself: ``text`` what disagrees, ``reading`` which reading the
    advice uses and why, ``rows`` the measurement ids of ``document`` it concerns."""

    document: str
    id: str
    locator: str
    text: str
    reading: str
    rows: tuple[str, ...]

    def to_dict(self) -> dict:
        """``{document, id, locator, rows, text, reading}`` (the JSON of ``capadvisor kb notes``)."""
        return {"document": self.document, "id": self.id, "locator": self.locator, "rows": list(self.rows),
                "text": self.text, "reading": self.reading}


@dataclass(frozen=True)
class DocumentRow:
    id: str
    short: str
    title: str
    authors: str
    kind: str
