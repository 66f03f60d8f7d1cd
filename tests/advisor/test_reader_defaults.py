"""The scenario reader's shortcut for fields a mapping leaves out (#30: 10,000 workloads leave out
most of theirs) gives what reading each field by its row gives: the same values and problems, for
every mapping of the field table, empty and with every other field given."""

from __future__ import annotations

from advisor.scenario import reader
from advisor.scenario.fields import CHILDREN
from knowledge.infra.reader import Problems


def _both(field: str, data: dict):
    fast, slow = Problems(), Problems()
    got = reader._Reader(dict(data), field, fast).values()
    r = reader._Reader(dict(data), field, slow)
    want = {key: r.get(key) for key, _ in reader._value_rows(field)}
    return (got, fast.items), (want, slow.items)


def test_left_out_fields_read_as_their_rows_say():
    checked = 0
    for field in CHILDREN:
        rows = reader._value_rows(field)
        if not rows:
            continue
        a, b = _both(field, {})
        assert a == b, field
        every_other = {key: f.default for i, (key, f) in enumerate(rows) if i % 2 and f.default is not None}
        a, b = _both(field, every_other)
        assert a == b, field
        checked += 1
    assert checked >= 8 and reader._value_rows("workloads")
