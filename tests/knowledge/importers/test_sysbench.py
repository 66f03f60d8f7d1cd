"""sysbench fileio and cpu reports: real 1.0.20 runs and published 1.1.0 output."""

from __future__ import annotations

import pytest

from knowledge.importers import sysbench
from knowledge.importers.base import ImporterError

from .conftest import by, one


def test_fileio_10_random_rw(fixture_text):
    r = sysbench.parse(fixture_text("sysbench10_fileio_rndrw.txt"), "s.txt")
    assert (r.tool, r.tool_version, r.parameters["test"]) == ("sysbench", "1.0.20", "fileio")
    reads = one(r.measurements, metric="iops", operation="read")
    assert (reads.value, reads.unit) == (36947.64, "ops/s")
    assert reads.factors == {"benchmark": "sysbench", "access_pattern": "random", "read_share": "60",
                             "block_size": "4", "threads": "2", "direct_io": "no", "operation": "read"}
    mib = one(r.measurements, metric="throughput", operation="write")
    assert (mib.value, mib.unit, mib.value_si) == (96.22, "MiB/s", 96.22 * 1048576)
    assert one(r.measurements, metric="iops", operation="fsync").value == 2466.67
    lat = one(r.measurements, metric="latency", statistic="p95")
    assert (lat.value, lat.unit, lat.factors["operation"]) == (0.01, "ms", "mixed")


def test_fileio_10_sequential_write_with_direct_io(fixture_text):
    r = sysbench.parse(fixture_text("sysbench10_fileio_seqwr_direct.txt"), "s.txt")
    w = one(r.measurements, metric="throughput", operation="write")
    assert (w.value, w.factors["access_pattern"], w.factors["direct_io"], w.factors["block_size"]) == (
        310.6, "sequential", "yes", "64")
    assert not by(r.measurements, operation="read"), "a direction with 0.00 ops is left out"


def test_cpu_10_and_11(fixture_text):
    r10 = sysbench.parse(fixture_text("sysbench10_cpu.txt"), "c.txt")
    cpu = one(r10.measurements, metric="throughput")
    assert (cpu.value, cpu.unit, cpu.factors) == (10199.5, "ops/s",
                                                 {"benchmark": "sysbench", "operation": "cpu", "threads": "2"})
    assert r10.parameters["cpu_max_prime"] == 5000
    r11 = sysbench.parse(fixture_text("sysbench11_cpu_published.txt"), "c11.txt")
    assert r11.tool_version == "1.1.0-bbee5d5"
    assert one(r11.measurements, metric="throughput").value == 114.08


def test_fileio_11_iops_lines(fixture_text):
    r = sysbench.parse(fixture_text("sysbench11_fileio_rndrw_published.txt"), "f11.txt")
    assert one(r.measurements, metric="iops", operation="read").value == 2279.18
    assert one(r.measurements, metric="throughput", operation="write").value == 23.74
    assert one(r.measurements, metric="iops", operation="fsync").value == 4862.66
    assert any("threads unknown" in w for w in r.warnings)


@pytest.mark.parametrize("damage, message", [
    (lambda t: t.replace("reads/s:                      36947.64", "reads/s:   fast"), "line 24, key reads/s"),
    (lambda t: t.replace("sysbench 1.0.20", "sysbank 1.0.20"), "version"),
    (lambda t: t.split("File operations:")[0], "sysbench 1.0.20 fileio run without results"),
])
def test_damaged_reports(fixture_text, damage, message):
    with pytest.raises(ImporterError) as err:
        sysbench.parse(damage(fixture_text("sysbench10_fileio_rndrw.txt")), "bad.txt")
    assert "bad.txt" in str(err.value) and message in str(err.value)


def test_a_ratio_of_minus_one_is_an_error_not_a_division_by_zero(fixture_text):
    text = fixture_text("sysbench10_fileio_rndrw.txt").replace("IO test: 1.50", "IO test: -1")
    with pytest.raises(ImporterError, match="negative read/write ratio"):
        sysbench.parse(text, "bad.txt")


def test_a_session_log_imports_every_run_with_its_own_labels(fixture_text):
    """Real sysbench 1.0.20 session: cpu, memory, threads (unsupported), fileio rndrw, fileio seqrd."""
    r = sysbench.parse(fixture_text("sysbench10_session_log.txt"), "log.txt")
    assert (r.runs_found, r.runs_imported) == (5, 4)
    assert len(r.skipped) == 1 and "line 69" in r.skipped[0] and "sysbench 1.0.20" in r.skipped[0] \
        and "not recognised" in r.skipped[0]
    assert one(r.measurements, metric="throughput", operation="cpu").value == 21371.1
    mem = one(r.measurements, metric="throughput", operation="memory_write", unit="MiB/s")
    assert (mem.value, mem.factors["block_size"]) == (4798.24, "1")
    rnd = one(r.measurements, metric="iops", operation="read", access_pattern="random")
    seq = one(r.measurements, metric="iops", operation="read", access_pattern="sequential")
    assert (rnd.value, rnd.factors["read_share"]) == (7801.64, "60")
    assert (seq.value, seq.factors["read_share"]) == (260423.55, "100")
    assert [p["test"] for p in r.parameters["runs"]] == ["cpu", "memory", "fileio", "fileio"]


def test_a_log_of_unsupported_tests_only_is_refused_naming_version_and_test(fixture_text):
    text = fixture_text("sysbench10_session_log.txt")
    lines = text.splitlines(keepends=True)
    threads_only = "".join(lines[68:86])
    assert threads_only.startswith("sysbench 1.0.20")
    with pytest.raises(ImporterError, match=r"t.txt, line 1: sysbench 1.0.20 test that names itself nowhere"):
        sysbench.parse(threads_only, "t.txt")


def test_a_heading_or_command_before_the_banner_names_the_threads_and_mutex_tests(fixture_text):
    """sysbench 1.x prints nothing that names threads or mutex: the line before the banner does."""
    lines = fixture_text("sysbench10_session_log.txt").splitlines(keepends=True)
    threads = "".join(lines[68:86])
    r = sysbench.parse("THREADS BENCHMARKS\n-----\n" + threads, "t.txt")
    events = one(r.measurements, metric="throughput", operation="threads")
    assert events.unit == "ops/s" and "events /" in events.subject
    r = sysbench.parse("$ sysbench --test=mutex --threads=1 run\n" + threads, "m.txt")
    assert one(r.measurements, metric="elapsed_time", operation="mutex").unit == "s"


def test_prepare_and_cleanup_steps_are_not_runs_and_an_aborted_run_is_skipped_with_its_message():
    banner = "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n\n"
    prepare = banner + "128 files, 16384Kb each, 2048Mb total\nCreating files for the test...\n" \
        "Creating file test_file.0\nFATAL: Failed to write file! errno = 28 (No space left on device)\n"
    run = banner + "Running the test with following options:\nNumber of threads: 1\n\n" \
        "Doing random r/w test\nFATAL: Size of file 'test_file.0' is 1MiB, but at least 16MiB is expected.\n"
    cpu = banner + "Running the test with following options:\nNumber of threads: 2\n\nPrime numbers limit: 10000\n\n" \
        "CPU speed:\n    events per second:   123.45\n"
    cleanup = banner + "Removing test files...\n"
    r = sysbench.parse(prepare + run + cpu + cleanup, "s.txt")
    assert (r.runs_found, r.runs_imported) == (2, 1)
    assert "aborted" in r.skipped[0] and "FATAL: Size of file" in r.skipped[0]
    assert any("prepare step" in w and "No space left" in w for w in r.warnings)
    assert any("cleanup step" in w for w in r.warnings)
    assert one(r.measurements, operation="cpu", metric="throughput").value == 123.45


def test_a_banner_with_a_prefix_is_a_run_labelled_with_it():
    text = "CPU 3 sysbench 1.0.11 (using system LuaJIT 2.1.0-beta3)\n\nRunning the test with following options:\n" \
        "Number of threads: 1\n\nPrime numbers limit: 10000\n\nCPU speed:\n    events per second:   99.5\n"
    r = sysbench.parse(text, "p.txt")
    assert r.tool_version == "1.0.11" and r.measurements[0].subject == "sysbench CPU 3 cpu: events per second"


def test_a_real_session_with_headings_and_a_run_sysbench_aborted(fixture_text):
    """Real sysbench 1.0.20 output (fixtures/sysbench10_session_headings_fatal.txt.cmd): a session under
    'CPU/FILEIO/MEMORY/MUTEX/THREADS BENCHMARKS' headings whose fileio run sysbench aborted with FATAL
    (its files were smaller than the run asked for); prepare and cleanup are not runs."""
    r = sysbench.parse(fixture_text("sysbench10_session_headings_fatal.txt"), "session.txt")
    assert (r.runs_found, r.runs_imported, r.tool_version) == (5, 4, "1.0.20")
    assert len(r.skipped) == 1 and "fileio run aborted" in r.skipped[0] and "FATAL: Size of file" in r.skipped[0]
    assert any("prepare step" in w for w in r.warnings) and any("cleanup step" in w for w in r.warnings)
    assert {m.factors.get("operation") for m in r.measurements} == {"cpu", "memory_write", "mutex", "threads"}
    assert not [m for m in r.measurements if m.factors.get("operation", "").startswith("file")]
