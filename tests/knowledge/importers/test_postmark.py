"""PostMark verbose and terse reports of the same real configuration."""

from __future__ import annotations

import pytest

from knowledge.importers import postmark
from knowledge.importers.base import ImporterError

from .conftest import one


def test_verbose_report(fixture_text):
    r = postmark.parse(fixture_text("postmark_verbose.txt"), "v.txt")
    assert (r.tool, r.tool_version, r.parameters["report"]) == ("postmark", "1.51", "verbose")
    tps = one(r.measurements, metric="transaction_rate")
    assert (tps.value, tps.unit) == (2000, "tps")
    assert one(r.measurements, operation="file_create").value == 1556
    data = one(r.measurements, metric="throughput", operation="read")
    assert (data.value, data.unit, data.value_si) == (5.96, "MiB/s", 5.96 * 2**20)
    assert any("under 10 s" in w for w in r.warnings)


def test_terse_report_in_bytes_agrees_with_the_scaled_megabytes(fixture_text):
    terse = postmark.parse(fixture_text("postmark_terse.txt"), "t.txt")
    verbose = postmark.parse(fixture_text("postmark_verbose.txt"), "v.txt")
    t = one(terse.measurements, metric="throughput", operation="write")
    assert (t.value, t.unit) == (10071540, "B/s")
    v = one(verbose.measurements, metric="throughput", operation="write")
    # PostMark's "megabytes" are 2^20 bytes: 10071540 B/s = 9.605 MiB/s, printed as 9.60
    assert abs(v.value_si - t.value_si) < 0.005 * 2**20
    assert one(terse.measurements, operation="file_delete").value == 1556


@pytest.mark.parametrize("damage, message", [
    (lambda t: t.split("Time:")[0], "no PostMark results"),
    (lambda t: t.replace("megabytes read (5.96 megabytes per", "megabytes read (5.96 zettabytes per"),
     "unknown data unit"),
])
def test_damaged_reports(fixture_text, damage, message):
    with pytest.raises(ImporterError, match=message):
        postmark.parse(damage(fixture_text("postmark_verbose.txt")), "bad.txt")


def test_every_report_of_a_session_is_imported(fixture_text):
    """Real PostMark 1.51 session: two verbose reports and a terse one (different file sizes)."""
    r = postmark.parse(fixture_text("postmark_three_reports.txt"), "pm.txt")
    assert (r.runs_found, r.runs_imported, r.skipped) == (3, 3, [])
    rates = [m for m in r.measurements if m.metric == "transaction_rate"]
    assert [m.value for m in rates] == [400.0, 400.0, 400.0]
    reads = [m.value for m in r.measurements if m.factors.get("operation") == "read"]
    assert reads == [1.07, 2.08, 2180711.0]
    assert [m.subject.split("(")[1] for m in rates] == ["report 1, line 5)", "report 2, line 25)",
                                                         "report 3, line 45)"]
