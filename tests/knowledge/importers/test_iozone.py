"""IOzone standard output (published real output), throughput mode and the -R report layout."""

from __future__ import annotations

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
