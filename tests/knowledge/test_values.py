"""Specific numbers of the documents, looked up in the compiled knowledge base.

The check lists under tests/knowledge/expected/ were re-read from the documents
independently of the curated CSV files; each row must be found by a query on its
document, locator, metric, unit and identifying factors, with the same value.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from knowledge.curated import parse_factors

EXPECTED = Path(__file__).parent / "expected"


def _cases():
    for path in sorted(EXPECTED.glob("*.csv")):
        with path.open(newline="", encoding="utf-8") as fh:
            for i, row in enumerate(csv.DictReader(fh), start=2):
                yield pytest.param(row, id=f"{path.stem}:{i}:{row['locator']}:{row['metric']}")


CASES = list(_cases())


def test_enough_values_are_checked():
    assert len(CASES) >= 40
    assert len({c.values[0]["document"] for c in CASES}) == 5


@pytest.mark.parametrize("row", CASES)
def test_value_is_in_the_knowledge_base(kb, row):
    where = dict(parse_factors(row["factors"]))
    hits = kb.measurements(document=row["document"], locator=row["locator"], metric=row["metric"],
                           where=where)
    hits = [h for h in hits if h.unit == row["unit"]]
    assert hits, f"nothing at {row['locator']} for {row['metric']} with {where}"
    expected = float(row["value"])
    assert any(abs(h.value - expected) <= 1e-9 * max(1.0, abs(expected)) for h in hits), \
        [(h.key, h.value) for h in hits]


# A few values checked by hand here, with what the document says in the comment.
@pytest.mark.parametrize(("document", "locator", "metric", "where", "value", "unit"), [
    # KVM cache modes, Table 1: Postmark test set 1, random read, writeback
    ("001", "Table 1", "throughput", {"cache_mode": "writeback", "test_set": "1",
                                      "operation": "random_read"}, 59.77, "MB/s"),
    # Table 1: test set 2, random write, cache mode none
    ("001", "Table 1", "throughput", {"cache_mode": "none", "test_set": "2",
                                      "operation": "random_write"}, 9.94, "MB/s"),
])
def test_hand_checked_values(kb, document, locator, metric, where, value, unit):
    hits = kb.measurements(document=document, locator=locator, metric=metric, where=where)
    assert [(h.value, h.unit) for h in hits] == [(value, unit)]
