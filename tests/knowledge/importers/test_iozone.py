"""IOzone standard output (published real output), throughput mode and the -R report layout."""

from __future__ import annotations

from pathlib import Path

import pytest

from knowledge.importers import iozone
from knowledge.importers.base import ImporterError

from .conftest import by, one


def test_auto_mode_table(fixture_text):
    r = iozone.parse(fixture_text("iozone3_auto_stdout.txt"), "io.txt")
    assert (r.tool, r.tool_version) == ("iozone", "3.489")
    assert len(r.measurements) == 6
    rr = one(r.measurements, operation="read", access_pattern="random")
    assert (rr.value, rr.unit, rr.value_si) == (986084, "KiB/s", 986084 * 1024)
    assert (rr.factors["block_size"], rr.factors["file_size"]) == ("4", "102400")
    assert one(r.measurements, operation="write", access_pattern="sequential").value == 2781
    assert "-i 2" in r.parameters["command_line"]


def test_excel_report(fixture_text):
    r = iozone.parse(fixture_text("iozone3_excel_R_sample.txt"), "r.txt")
    assert len(r.measurements) == 6 * 8
    w = one(r.measurements, operation="write", access_pattern="random", block_size="1024", file_size="1024")
    assert w.value == 2200000 + 16000 + 37 * 1024
    assert len(by(r.measurements, operation="read", access_pattern="sequential", file_size="64")) == 3


def test_throughput_mode_and_ops_units():
    text = ("\tIozone: Performance Test of File I/O\n\t        Version $Revision: 3.506 $\n"
            "\tOutput is in kBytes/sec\n\tThroughput test with 4 processes\n"
            "\tChildren see throughput for  4 initial writers  =     221.13 kB/sec\n"
            "\tParent sees throughput for  4 initial writers   =     217.22 kB/sec\n"
            "\tChildren see throughput for 4 random readers    =    2576.12 kB/sec\n")
    r = iozone.parse(text, "t.txt")
    w = one(r.measurements, operation="write")
    assert (w.value, w.unit, w.factors["threads"], w.factors["statistic"]) == (221.13, "KiB/s", "4", "total")
    assert one(r.measurements, operation="read", access_pattern="random").value == 2576.12


def test_unknown_columns_and_empty_output_are_errors(fixture_text):
    bad = fixture_text("iozone3_auto_stdout.txt").replace("reclen    write", "reclen    wirte")
    with pytest.raises(ImporterError, match="line 30: unknown table columns"):
        iozone.parse(bad, "bad.txt")
    with pytest.raises(ImporterError, match="no IOzone results"):
        iozone.parse(fixture_text("iozone3_auto_stdout.txt").split("random    random")[0], "cut.txt")


def test_auto_mode_rows_of_several_file_sizes_and_missing_columns(fixture_text):
    # the published table's header with rows for two file sizes (numbers constructed for the test);
    # the second size was run without the random tests, so its row is shorter
    head = fixture_text("iozone3_auto_stdout.txt").split("          102400")[0]
    rows = ("              64       4   111111   222222   333333   444444   555555   666666\n"
            "              64      16   121212   232323   343434   454545   565656   676767\n"
            "\n"
            "             128       4   131313   242424   353535   464646\n")
    r = iozone.parse(head + rows + "\niozone test complete.\n", "multi.txt")
    assert len(r.measurements) == 6 + 6 + 4
    assert one(r.measurements, file_size="64", block_size="16", operation="write", access_pattern="random"
               ).value == 676767
    assert one(r.measurements, file_size="128", operation="reread").value == 464646
    assert not by(r.measurements, file_size="128", access_pattern="random")


PUBLISHED = Path(__file__).resolve().parents[2] / "fixtures" / "published"


def test_throughput_runs_are_labelled_with_their_own_invocation():
    # a published contest log: per session an auto-mode row (4 MiB file) and seven throughput-mode
    # invocations (-t 4, 1 MiB per process), each after its own banner
    r = iozone.parse((PUBLISHED / "kairix_iozone3506_auto_and_throughput_2sessions.md").read_text(), "k.md")
    totals = by(r.measurements, statistic="total")
    assert r.runs_found == 2 + 40 and len(totals) == 40 and not r.warnings
    assert {(m.factors["threads"], m.factors["block_size"], m.factors["file_size"]) for m in totals} == {("4", "1", "1024")}
    table = [m for m in r.measurements if "statistic" not in m.factors]
    assert len(table) == 26 and {m.factors["file_size"] for m in table} == {"4096"}
    # pwrite/pread are tests of their own, not a second 'write'/'read' of the same invocation
    pwrite = by(totals, operation="pwrite", access_pattern="sequential")
    assert sorted(m.value for m in pwrite) == [3990.15, 12553.94]
    assert sorted(m.value for m in by(totals, operation="write", access_pattern="sequential"))[:2] == [3410.64, 3439.79]


def test_every_throughput_test_of_one_invocation_has_distinct_labels():
    r = iozone.parse((PUBLISHED / "tigerbsd_iozone3457_throughput_R_4proc.txt").read_text(), "t.txt")
    keys = {(m.factors["operation"], m.factors.get("access_pattern")) for m in r.measurements}
    assert len(r.measurements) == len(keys) == r.runs_found == 13  # the -R throughput report is not counted again
    mix = one(r.measurements, operation="random_mix")
    assert (mix.value, mix.factors["block_size"], mix.factors["file_size"]) == (354843.25, "128", "25165824")


def test_throughput_mode_in_ops_and_in_old_kb_units():
    # lines as IOzone 3.169 (capital KB) and 3.507 with -O -I print them, one invocation after the other
    text = ("        Iozone: Performance Test of File I/O\n                Version $Revision: 3.169 $\n"
            "        File size set to 2097152 KB\n        Record Size 128 KB\n        Output is in Kbytes/sec\n"
            "        Throughput test with 1 process\n"
            "        Each process writes a 2097152 Kbyte file in 128 Kbyte records\n\n"
            "        Children see throughput for  1 initial writers  =  109333.84 KB/sec\n"
            "        Parent sees throughput for  1 initial writers   =  109326.48 KB/sec\n"
            "        Min xfer                                        = 2097152.00 KB\n\n"
            "        Iozone: Performance Test of File I/O\n                Version $Revision: 3.507 $\n"
            "        File size set to 262144 kB\n        Record Size 4 kB\n"
            "        OPS Mode. Output is in operations per second.\n        O_DIRECT feature enabled\n"
            "        Throughput test with 2 processes\n"
            "        Each process writes a 262144 kByte file in 4 kByte records\n\n"
            "        Children see throughput for  2 initial writers  =    4000.45 ops/sec\n"
            "        Parent sees throughput for  2 initial writers   =    3999.67 ops/sec\n")
    r = iozone.parse(text, "two.txt")
    assert r.runs_found == 2 and len(r.measurements) == 2
    old, ops = r.measurements
    assert (old.metric, old.unit, old.value_si) == ("throughput", "KiB/s", 109333.84 * 1024)
    assert (old.factors["block_size"], old.factors["file_size"], old.factors["threads"]) == ("128", "2097152", "1")
    assert "direct_io" not in old.factors
    assert (ops.metric, ops.unit, ops.value) == ("iops", "ops/s", 4000.45)
    assert (ops.factors["block_size"], ops.factors["file_size"], ops.factors["threads"], ops.factors["direct_io"]
            ) == ("4", "262144", "2", "yes")


def test_zeros_of_an_interrupted_run_are_not_results(fixture_text):
    # IOzone prints its -R report when interrupted, with 0 for every test it did not finish
    text = (fixture_text("iozone3_excel_R_sample.txt")
            .replace('"1024"   1516148  1516592  1518368  1525472  1553888 ', '"1024"   1516148  1516592  0  0  0 ')
            .replace('"64"   2401148  2401592  2403368 ', '"64"   0  0  0 ')
            .replace("Excel output is below:", "iozone: interrupted\n\nExcel output is below:"))
    r = iozone.parse(text, "cut.txt")
    assert r.runs_found == 6 * 2 and r.runs_imported == 11
    assert len(r.skipped) == 1 and "'Re-writer' report, file 64 KiB: only 0" in r.skipped[0]
    assert "interrupted (line 20)" in r.skipped[0]
    assert any("'Writer' report, file 1024 KiB: 0 for record 64, 256, 1024 KiB" in w for w in r.warnings)
    assert len(r.measurements) == 6 * 8 - 3 - 3 and all(m.value > 0 for m in r.measurements)


def test_a_run_interrupted_before_any_result_is_refused():
    # published: a run on BeeGFS interrupted in its first row; the -R report then holds only zeros
    name = "parsa_iozone3489_interrupted_R_zeros.log"
    with pytest.raises(ImporterError, match=r"line 35: IOzone was interrupted here, before any test finished"):
        iozone.parse((PUBLISHED / name).read_text(), name)
