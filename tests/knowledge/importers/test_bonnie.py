"""bonnie++ CSV lines (2.x and 1.03) and tables, from real bonnie++ 2.00a runs and published 1.03 output."""

from __future__ import annotations

import pytest

from knowledge.importers import bonnie
from knowledge.importers.base import ImporterError

from .conftest import by, one


def test_csv_2x_line_gives_exact_kib_rates_latencies_and_parameters(fixture_text):
    r = bonnie.parse(fixture_text("bonnie2_csv_sync.txt"), "b.csv")
    assert (r.tool, r.tool_version) == ("bonnie++", "2.00a")
    block = one(r.measurements, metric="throughput", operation="write")
    assert (block.value, block.unit, block.value_si) == (424644, "KiB/s", 424644 * 1024)
    assert block.factors == {"benchmark": "bonnie++", "threads": "1", "file_size": "262144",
                             "operation": "write", "access_pattern": "sequential"}
    assert one(r.measurements, metric="throughput", operation="file_create", access_pattern="random").value == 825
    lat = one(r.measurements, metric="latency", operation="write_per_char")
    assert (lat.value, lat.unit) == (142, "ms") and lat.value_si == pytest.approx(0.142)
    assert one(r.measurements, metric="latency", operation="read").unit == "us"
    run = r.parameters["runs"][0]
    assert (run["name"], run["size"], run["concurrency"], run["format_version"]) == ("labhost", "256M", 1, "1.98")


def test_plus_signs_are_left_out_and_counted(fixture_text):
    r = bonnie.parse(fixture_text("bonnie2_csv.txt"), "b.csv")
    assert any("10 result(s) were '+++++'" in w for w in r.warnings)
    assert not by(r.measurements, operation="write", metric="throughput")
    assert one(r.measurements, operation="write_per_char", metric="throughput").value == 1154


def test_csv_103_without_version_prefix(fixture_text):
    text = fixture_text("bonnie103_published.txt").splitlines()[-1]
    r = bonnie.parse(text, "old.csv")
    assert r.tool_version == "1.03"
    assert one(r.measurements, operation="read", metric="throughput").value == 49497
    seeks = one(r.measurements, operation="seek")
    assert (seeks.metric, seeks.value, seeks.unit, seeks.factors["access_pattern"]) == ("iops", 180.6, "ops/s", "random")
    assert one(r.measurements, operation="file_delete", access_pattern="random").value == 117
    assert by(r.measurements, metric="latency") == []


def test_csv_103_fast_mode_empty_fields(fixture_text):
    r = bonnie.parse(fixture_text("bonnie103_fastmode_csv.txt"), "fast.csv")
    assert sorted(m.factors["operation"] for m in r.measurements) == ["read", "rewrite", "write"]


def test_table_103_matches_its_csv_line(fixture_text):
    lines = fixture_text("bonnie103_published.txt").splitlines()
    table = bonnie.parse("\n".join(lines[:-1]), "t.txt")
    csv = bonnie.parse(lines[-1], "c.csv")
    key = lambda r: sorted((m.metric, m.factors["operation"], m.factors["access_pattern"], m.value)  # noqa: E731
                           for m in r.measurements)
    assert key(table) == key(csv)


def test_table_2x_uses_k_and_m_suffixes(fixture_text):
    r = bonnie.parse(fixture_text("bonnie2_table.txt"), "t.txt")
    block = one(r.measurements, metric="throughput", operation="write")
    assert (block.value, block.unit, block.factors["block_size"]) == (415, "MiB/s", "64")
    assert one(r.measurements, metric="throughput", operation="read_per_char").value == 1454
    assert any("CSV line is exact" in w for w in r.warnings)
    assert len(by(r.measurements, metric="latency")) == 12


def test_progress_lines_before_the_table_are_skipped(fixture_text):
    text = ("Using uid:0, gid:0.\nWriting with putc()...done\nWriting intelligently...done\n"
            "Rewriting...done\nstart 'em...done...done...done...\n" + fixture_text("bonnie103_published.txt"))
    r = bonnie.parse(text, "full.txt")
    assert one(r.measurements, operation="write").value == 9563


def test_table_with_missing_columns_uses_positions():
    text = ("Version  1.03       ------Sequential Output------ --Sequential Input- --Random-\n"
            "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
            "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
            "meghan         512M           118985  30  5173  99           294404  25 +++++ +++\n")
    r = bonnie.parse(text, "t.txt")
    assert {m.factors["operation"]: m.value for m in r.measurements} == {
        "write": 118985, "rewrite": 5173, "read": 294404}


@pytest.mark.parametrize("line, message", [
    ("1.98,2.00a,host,1,123,64M,,8192,5,1154,98,fast,53", "at least 21"),
    ("1.98,2.00a,host,1,123,64M,,8192,5,1154,98,4x4,53,+++++,+++,1,1,+++++,+++,1,1", "key put_block"),
    ("stan,4G,16092,36,9563", "14 or 27"),
    ("1.98,2.00a,h,1,1,64M,,8192,5,1,1,1,1,1,1,1,1,1,1,1,1,1,4096,1024,,2,1,1,1,1,1,1,1,1,1,1,1,1,9138ys",
     "putc_latency"),
])
def test_damaged_csv_names_line_and_field(line, message):
    with pytest.raises(ImporterError) as err:
        bonnie.parse("\n" + line, "bad.csv")
    assert "bad.csv, line 2" in str(err.value) and message in str(err.value)


def test_empty_or_foreign_text_is_an_error():
    with pytest.raises(ImporterError, match="no bonnie"):
        bonnie.parse("\n\n", "x")


def test_a_free_text_line_before_the_csv_lines_is_still_recognised_as_bonnie(fixture_text):
    from knowledge.importers import bonnie
    from knowledge.importers.registry import REGISTRY
    text = "results of the new array (run by hand)\n" + fixture_text("bonnie2_csv.txt")
    assert bonnie.identify(text) >= 0.7
    assert REGISTRY.parse_text(text, "b.csv").tool == "bonnie++"


def test_table_and_csv_line_of_one_run_with_a_name_longer_than_the_name_column(fixture_text):
    """Real bonnie++ 2.00a output (fixtures/bonnie2_table_and_csv_long_name.txt.cmd): the table on
    standard error and the CSV line on standard output in one file, the machine name running into
    the size column of the table; the CSV line (exact figures, the full name) is the run."""
    text = fixture_text("bonnie2_table_and_csv_long_name.txt")
    assert "azure-prem 256M:64k" in text  # the table cut the name
    r = bonnie.parse(text, "long.txt")
    assert (r.runs_found, r.runs_imported, r.tool_version) == (1, 1, "2.00a")
    assert any("CSV lines were used" in w for w in r.warnings)
    write = one(r.measurements, metric="throughput", operation="write")
    assert (write.value, write.unit, write.subject) == (428890, "KiB/s", "bonnie++ azure-premium-lrs-benchmark-vm")
    assert write.factors["file_size"] == "262144"
    assert one(r.measurements, metric="throughput", operation="rewrite").value == 188890
