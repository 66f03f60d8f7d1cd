"""The scenario reader's shortcuts for fields a mapping leaves out and for well-formed values (#30:
10,000 workloads leave out most of their fields, and give the others well-formed) give what reading
each field by its row gives: the same values of the same types and the same problems, for every
mapping of the field table, empty, with every other field given, and with values of every kind."""

from __future__ import annotations

from advisor.scenario import reader
from advisor.scenario.fields import CHILDREN
from knowledge.infra.reader import Problems


def _both(field: str, data: dict):
    fast, slow = Problems(), Problems()
    got = reader._Reader(dict(data), field, fast).values()
    r = reader._Reader(dict(data), field, slow)
    want = {key: r.get(key) for key, _, _ in reader._value_rows(field)}
    return (got, fast.items), (want, slow.items)


def test_left_out_fields_read_as_their_rows_say():
    checked = 0
    for field in CHILDREN:
        rows = reader._value_rows(field)
        if not rows:
            continue
        a, b = _both(field, {})
        assert a == b, field
        every_other = {key: f.default for i, (key, f, _) in enumerate(rows) if i % 2 and f.default is not None}
        a, b = _both(field, every_other)
        assert a == b, field
        checked += 1
    assert checked >= 8 and reader._value_rows("workloads")


VALUES = [0, 1, -1, 2, 7, 0.5, 1.0, 2.5, -0.5, 64, 1e12, 1e13, 10**20, float("nan"), float("inf"), True, False, "",
          " ", "x", "low", "high", "mixed", "ssd", "vmx", "slot", "web", "a\x01b", "\ud800", "x" * 201, [], {}]


def test_values_of_every_kind_read_as_their_rows_say():
    """Every value of :data:`VALUES` (and each row's default) in every value field: the same value,
    of the same type (1 stays an int where the read keeps it, 1.0 a float), and the same problems."""
    checked = 0
    for field in CHILDREN:
        rows = reader._value_rows(field)
        for key, f, _ in rows:
            for value in [*VALUES, f.default, f.fallback, *f.choices]:
                if value is None:
                    continue
                a, b = _both(field, {key: value})
                assert repr(a) == repr(b), (field, key, value)
                checked += 1
    assert checked > 1000
