"""Micro-benchmarks: real (short) runs in tmp_path; figures in the vocabulary's units and
factors; bounded in space; the temporary folder removed on success, cancel and error;
results stored in the user database as site measurements."""

from __future__ import annotations

import pytest

from advisor.probes.bench import MIB, TOOL, run_benchmarks, save_results
from advisor.progress import Cancelled, CancelToken
from knowledge.infra.errors import InputError
from knowledge.userdb import UserDatabase


@pytest.fixture()
def bench_dir(tmp_path):
    """An empty folder of its own (tmp_path also holds the test's user dirs)."""
    path = tmp_path / "scratch"
    path.mkdir()
    return path


OPERATIONS = ("sequential_write", "sequential_read", "random_read", "random_write")


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    directory = tmp_path_factory.mktemp("bench")
    res = run_benchmarks(directory, seconds=1, max_file_bytes=16 * MIB, memory_bytes=8 * MIB, fstype="test")
    res.leftover = list(directory.iterdir())
    return res


def test_every_figure_is_there_in_vocabulary_units(result):
    rows = {(m.metric, m.factors["operation"]): m for m in result.measurements}
    for op in OPERATIONS:
        assert rows[("throughput", op)].unit == "MiB/s" and rows[("throughput", op)].value > 0
        assert rows[("throughput", op)].factors["direct_io"] == ("yes" if result.direct_io else "no")
        assert rows[("throughput", op)].factors["access_pattern"] == op.split("_")[0]
    for op in ("random_read", "random_write"):
        iops = rows[("iops", op)]
        assert iops.unit == "ops/s" and iops.factors["block_size"] == "4"
        # 4 KiB per operation: throughput and IOPS describe the same work
        assert rows[("throughput", op)].value == pytest.approx(iops.value * 4096 / MIB)
    assert rows[("throughput", "sequential_read")].factors["block_size"] == "1024"
    assert rows[("throughput", "memory_copy")].value > 0


def test_space_is_bounded_and_the_folder_is_removed(result):
    assert 0 < result.file_bytes <= 16 * MIB
    assert result.leftover == []


def test_progress_rises_to_one(bench_dir):
    seen = []
    run_benchmarks(bench_dir, seconds=1, progress=lambda f, m: seen.append((f, m)),
                   max_file_bytes=8 * MIB, memory_bytes=MIB)
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert {"sequential write", "random read", "memory copy"} <= {m for _, m in seen}


def test_cancel_stops_the_run_and_cleans_up(bench_dir):
    token = CancelToken()

    def progress(fraction, message):
        if message == "random read":
            token.cancel()

    with pytest.raises(Cancelled):
        run_benchmarks(bench_dir, seconds=2, progress=progress, cancel=token, max_file_bytes=8 * MIB,
                       memory_bytes=MIB)
    assert list(bench_dir.iterdir()) == []


def test_an_error_midway_cleans_up(bench_dir):
    def progress(fraction, message):
        if message == "sequential read":
            raise RuntimeError("the GUI went away")

    with pytest.raises(RuntimeError, match="GUI went away"):
        run_benchmarks(bench_dir, seconds=1, progress=progress, max_file_bytes=8 * MIB, memory_bytes=MIB)
    assert list(bench_dir.iterdir()) == []


def test_buffered_io_is_said_when_direct_io_is_not_used(bench_dir):
    res = run_benchmarks(bench_dir, seconds=1, max_file_bytes=8 * MIB, memory_bytes=MIB, try_direct=False)
    assert res.direct_io is False
    assert any("buffered" in n for n in res.notes)
    assert {m.factors.get("direct_io") for m in res.measurements if "block_size" in m.factors} == {"no"}


def test_too_little_space_or_time_is_an_input_error(bench_dir):
    with pytest.raises(InputError, match="free"):
        run_benchmarks(bench_dir, seconds=1, max_file_bytes=MIB)
    with pytest.raises(InputError, match="at least 1 second"):
        run_benchmarks(bench_dir, seconds=0.5)
    assert list(bench_dir.iterdir()) == []


def test_unusable_directory_is_an_input_error(bench_dir):
    blocker = bench_dir / "file"
    blocker.write_text("not a folder")
    with pytest.raises(InputError, match="cannot create"):
        run_benchmarks(blocker / "sub", seconds=1)


def test_results_become_site_measurements(result, tmp_path):
    db_path = tmp_path / "user.sqlite"
    first = save_results(result, "lab-host", db_path=db_path, host={"cpu": "test"})
    second = save_results(result, "lab-host", db_path=db_path)  # a second run is a second import
    assert second != first
    with UserDatabase(db_path) as db:
        (site,) = db.sites()
        assert (site.name, site.imports, site.measurements) == ("lab-host", 2, 2 * len(result.measurements))
        imp = db.imports("lab-host")[0]
        assert imp.tool == TOOL and imp.parameters["host"] == {"cpu": "test"}
        stored = db.site_measurements("lab-host", metric="iops")
    assert {m.factors["operation"] for m in stored} == {"random_read", "random_write"}
    m = stored[0]
    assert m.unit == "ops/s" and m.value_si == pytest.approx(m.value)
    assert set(m.factors) >= {"access_pattern", "operation", "block_size", "direct_io"}
    thr = next(x for x in result.measurements if x.metric == "throughput")
    with UserDatabase(db_path) as db:
        got = db.site_measurements("lab-host", metric="throughput")[0]
    assert got.value_si == pytest.approx(thr.value * MIB)


def test_a_python_without_positioned_io_is_told_so_not_crashed(bench_dir, monkeypatch):
    """Windows' Python has no os.preadv/os.pwrite (issue #33: no Linux-only call outside the Linux
    plug-in without a guard): the benchmark says what it needs instead of an AttributeError."""
    import os

    monkeypatch.delattr(os, "preadv")
    with pytest.raises(InputError, match="positioned reads and writes"):
        run_benchmarks(bench_dir, seconds=1, max_file_bytes=8 * MIB, memory_bytes=MIB)
    assert list(bench_dir.iterdir()) == []


def test_buffered_io_without_fdatasync_or_fadvise_still_runs(bench_dir, monkeypatch):
    """macOS has neither os.fdatasync nor os.posix_fadvise: fsync stands in, the cache is not dropped."""
    import os

    import advisor.probes.bench as bench

    monkeypatch.setattr(bench, "_datasync", os.fsync)
    monkeypatch.delattr(os, "posix_fadvise")
    monkeypatch.delattr(os, "fdatasync")
    res = run_benchmarks(bench_dir, seconds=1, max_file_bytes=8 * MIB, memory_bytes=MIB, try_direct=False)
    assert {m.factors.get("operation") for m in res.measurements} >= set(OPERATIONS)
