"""Micro-benchmarks of this machine, run only on request: disk and memory throughput.

:func:`run_benchmarks` measures, in a temporary folder it creates under the chosen
directory and always removes (also on cancel or error):

* sequential write and read with 1 MiB requests, and random 4 KiB read and write, all with
  O_DIRECT where the file system accepts it (tmpfs, for one, does not: then buffered I/O
  with fdatasync, and the result says so);
* memory bandwidth: a numpy array copy, counting bytes read plus bytes written (as STREAM).

It is bounded in time (the whole run, set-up and clean-up included, stays within the
``seconds`` budget) and in space (the test file is at most ``max_file_bytes`` and at most a
quarter of the free space). Results are throughput in MiB/s and IOPS in ops/s, in the
knowledge base's vocabulary, ready for the user database (:func:`save_results`).
"""

from __future__ import annotations

import errno
import mmap
import os
import random
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from advisor.progress import CancelToken, ProgressCallback, check, report
from knowledge.infra.errors import InputError

MIB = 1 << 20
SEQ_BLOCK = MIB
RAND_BLOCK = 4096
TOOL = "capadvisor-probe"
TOOL_VERSION = "1"
#: share of the budget for each phase; the rest is left for set-up and clean-up
PHASES = (("sequential_write", 0.22), ("sequential_read", 0.20), ("random_read", 0.20),
          ("random_write", 0.20), ("memory_copy", 0.12))
USABLE_SHARE = 0.93
MIN_FILE_BYTES = 8 * MIB


@dataclass
class BenchMeasurement:
    """One benchmark figure: metric (throughput or iops), value in ``unit`` (MiB/s, ops/s)."""

    metric: str
    value: float
    unit: str
    factors: dict[str, str]
    subject: str = ""


@dataclass
class BenchResult:
    """All figures of one run, the conditions they were taken under, and notes for the user."""

    directory: str
    fstype: str
    direct_io: bool
    file_bytes: int
    budget_s: float
    elapsed_s: float = 0.0
    measurements: list[BenchMeasurement] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return asdict(self)

    def value(self, metric: str, operation: str) -> float | None:
        """The value of ``metric`` for ``operation`` ("random_read"), or None."""
        return next((m.value for m in self.measurements
                     if m.metric == metric and m.factors.get("operation") == operation), None)


class _Clock:
    """Absolute phase deadlines within the budget, and time-based progress.

    The clock starts before any set-up; :meth:`schedule` spreads the phases over the time left
    until ``USABLE_SHARE`` of the budget, so set-up time is paid by the phases, and the rest of
    the budget is left for clean-up."""

    def __init__(self, seconds: float, progress: ProgressCallback | None, cancel: CancelToken | None):
        self.start = time.perf_counter()
        self.seconds = seconds
        self.progress, self.cancel = progress, cancel
        self._last = 0.0
        self.ends: dict[str, float] = {}
        self.schedule()

    def schedule(self) -> None:
        """Set the phase deadlines from now to the end of the usable budget."""
        now, end = time.perf_counter(), self.start + self.seconds * USABLE_SHARE
        total, acc = sum(s for _, s in PHASES), 0.0
        for name, share in PHASES:
            acc += share
            self.ends[name] = now + max(end - now, 0.0) * acc / total

    def loop(self, phase: str, op: Callable[[], int]) -> tuple[int, int, float]:
        """Run ``op`` (returns bytes moved) at least once and until the phase deadline;
        returns (operations, bytes, seconds)."""
        deadline = self.ends[phase]
        ops = moved = 0
        t0 = now = time.perf_counter()
        report(self.progress, (now - self.start) / self.seconds, phase.replace("_", " "))
        while True:
            moved += op()
            ops += 1
            now = time.perf_counter()
            if now >= deadline:
                break
            if now - self._last > 0.1:
                check(self.cancel)
                self._last = now
                report(self.progress, (now - self.start) / self.seconds, phase.replace("_", " "))
        check(self.cancel)
        return ops, moved, max(now - t0, 1e-9)


def _open(path: str, flags: int, want_direct: bool) -> tuple[int, bool]:
    """Open with O_DIRECT if wanted and allowed; returns (fd, direct)."""
    direct_flag = getattr(os, "O_DIRECT", 0)
    if want_direct and direct_flag:
        try:
            return os.open(path, flags | direct_flag, 0o600), True
        except OSError as exc:
            if exc.errno not in (errno.EINVAL, errno.EOPNOTSUPP):
                raise
    return os.open(path, flags, 0o600), False


def _free_bytes(directory: Path) -> int:
    return shutil.disk_usage(directory).free  # statvfs's f_bavail x f_frsize where there is one (not on Windows)


#: flush a buffered write: fdatasync where the OS has it (Linux), else fsync (macOS)
_datasync = getattr(os, "fdatasync", os.fsync)


def run_benchmarks(directory: str | os.PathLike, seconds: float = 10.0,
                   progress: ProgressCallback | None = None, cancel: CancelToken | None = None,
                   max_file_bytes: int = 256 * MIB, memory_bytes: int = 64 * MIB,
                   fstype: str = "", seed: int = 0, try_direct: bool = True) -> BenchResult:
    """Run the disk and memory micro-benchmarks in a temporary folder under ``directory``.

    ``seconds``: total time budget (>= 1). ``max_file_bytes``: cap of the test file.
    ``memory_bytes``: size of each array of the memory copy. ``fstype``: the file system
    of ``directory`` if known (recorded only). ``try_direct=False`` skips O_DIRECT (buffered
    I/O with fdatasync, as on a file system that refuses it). Raises InputError for an unusable directory
    and :class:`advisor.progress.Cancelled` when cancelled; the temporary folder is removed
    in every case.
    """
    if seconds < 1:
        raise InputError(f"the benchmark needs at least 1 second, not {seconds:g}")
    if not hasattr(os, "preadv") or not hasattr(os, "pwrite"):
        raise InputError("the disk benchmark needs positioned reads and writes (os.preadv, os.pwrite: Linux, "
                         "macOS 11 or later), which this system's Python lacks")
    clock = _Clock(float(seconds), progress, cancel)
    base = Path(directory)
    try:
        base.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix="capadvisor-bench-", dir=base))
    except OSError as exc:
        raise InputError(f"cannot create a benchmark folder in {base}: {exc.strerror or exc}") from exc
    try:
        free = _free_bytes(scratch)
        cap = min(int(max_file_bytes), free // 4) // MIB * MIB
        if cap < MIN_FILE_BYTES:
            raise InputError(f"{base} has only {free // MIB} MiB free; the benchmark needs "
                             f"{4 * MIN_FILE_BYTES // MIB} MiB")
        result = BenchResult(directory=str(base), fstype=fstype or "unknown", direct_io=False,
                             file_bytes=0, budget_s=float(seconds))
        arrays = _memory_arrays(memory_bytes)  # allocated first so the copy phase gets its full share
        clock.schedule()
        _disk_phases(scratch / "bench.dat", cap, clock, result, random.Random(seed), try_direct)
        _memory_phase(clock, result, arrays)
        del arrays
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    result.elapsed_s = time.perf_counter() - clock.start
    report(progress, 1.0, "benchmarks done")
    return result


def _open_checked(path: str, want_direct: bool, buf: mmap.mmap) -> tuple[int, bool]:
    """Open the test file, falling back to buffered I/O if an O_DIRECT write is refused."""
    fd, direct = _open(path, os.O_RDWR | os.O_CREAT, want_direct)
    if direct:
        try:
            os.pwrite(fd, buf, 0)
        except OSError as exc:
            os.close(fd)
            if exc.errno not in (errno.EINVAL, errno.EOPNOTSUPP):
                raise
            fd, direct = _open(path, os.O_RDWR | os.O_CREAT, False)
    return fd, direct


def _disk_phases(path: Path, cap: int, clock: _Clock, result: BenchResult, rng: random.Random,
                 try_direct: bool) -> None:
    buf = mmap.mmap(-1, SEQ_BLOCK)  # page-aligned, as O_DIRECT needs
    buf.write(os.urandom(SEQ_BLOCK))
    small = memoryview(buf)[:RAND_BLOCK]
    fd, direct = _open_checked(str(path), try_direct, buf)
    result.direct_io = direct
    subject = f"{result.fstype} file system at {result.directory}"
    if not try_direct:
        result.notes.append("O_DIRECT not requested: buffered I/O with fdatasync; reads may come "
                            "from the page cache")
    elif not direct:
        result.notes.append(f"the file system at {result.directory} ({result.fstype}) refuses O_DIRECT: "
                            "buffered I/O with fdatasync; reads may come from the page cache")
    state = {"offset": 0, "size": 0, "dirty": 0}

    def sync_if_buffered(nbytes: int, every: int) -> None:
        if not direct:
            state["dirty"] += nbytes
            if state["dirty"] >= every:
                _datasync(fd)
                state["dirty"] = 0

    def seq_write() -> int:
        n = os.pwrite(fd, buf, state["offset"])
        state["offset"] = (state["offset"] + n) % cap
        state["size"] = max(state["size"], state["offset"] or cap)
        sync_if_buffered(n, 4 * MIB)
        return n

    def seq_read() -> int:
        n = os.preadv(fd, [buf], state["offset"])
        state["offset"] = (state["offset"] + SEQ_BLOCK) % state["size"]
        return n

    def rand_read() -> int:
        return os.preadv(fd, [small], rng.randrange(state["size"] // RAND_BLOCK) * RAND_BLOCK)

    def rand_write() -> int:
        n = os.pwrite(fd, small, rng.randrange(state["size"] // RAND_BLOCK) * RAND_BLOCK)
        sync_if_buffered(n, 256 * RAND_BLOCK)
        return n

    try:
        for phase, op, block in (("sequential_write", seq_write, SEQ_BLOCK),
                                 ("sequential_read", seq_read, SEQ_BLOCK),
                                 ("random_read", rand_read, RAND_BLOCK),
                                 ("random_write", rand_write, RAND_BLOCK)):
            if phase == "sequential_read":
                state["offset"] = 0
                if not direct:
                    _datasync(fd)
                    if hasattr(os, "posix_fadvise"):  # not on macOS: its reads may come from the cache
                        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            ops, moved, secs = clock.loop(phase, op)
            if phase.endswith("write") and not direct:
                t = time.perf_counter()
                _datasync(fd)
                secs += time.perf_counter() - t
            factors = {"access_pattern": phase.split("_")[0], "operation": phase,
                       "block_size": str(block // 1024), "direct_io": "yes" if direct else "no",
                       "queue_depth": "1", "threads": "1", "benchmark": TOOL}
            result.measurements.append(BenchMeasurement("throughput", moved / MIB / secs, "MiB/s",
                                                        dict(factors), subject))
            if block == RAND_BLOCK:
                result.measurements.append(BenchMeasurement("iops", ops / secs, "ops/s", dict(factors), subject))
        result.file_bytes = state["size"]
    finally:
        small.release()
        os.close(fd)
        buf.close()


def _memory_arrays(memory_bytes: int) -> tuple:
    """Two float64 arrays of about ``memory_bytes`` each (at most 1/8 of available RAM)."""
    import numpy as np

    try:
        import psutil

        memory_bytes = min(memory_bytes, psutil.virtual_memory().available // 8)
    except Exception:  # noqa: BLE001 - psutil missing or failing: keep the requested size
        pass
    src = np.ones(max(memory_bytes // 8, 1024), dtype=np.float64)
    return src, np.empty_like(src)


def _memory_phase(clock: _Clock, result: BenchResult, arrays: tuple) -> None:
    import numpy as np

    src, dst = arrays

    def copy() -> int:
        np.copyto(dst, src)
        return 2 * src.nbytes

    _, moved, secs = clock.loop("memory_copy", copy)
    result.measurements.append(BenchMeasurement(
        "throughput", moved / MIB / secs, "MiB/s",
        {"access_pattern": "sequential", "operation": "memory_copy", "benchmark": TOOL,
         "threads": "1"}, f"RAM, numpy copy of {src.nbytes // MIB} MiB arrays (read + write bytes)"))


def site_measurements(result: BenchResult) -> list:
    """The figures as :class:`knowledge.userdb.SiteMeasurement` (value_si in B/s or 1/s)."""
    from knowledge.userdb import SiteMeasurement

    si = {"MiB/s": float(MIB), "ops/s": 1.0}
    return [SiteMeasurement(m.metric, m.value, m.unit, m.subject, dict(m.factors), m.value * si[m.unit])
            for m in result.measurements]


def save_results(result: BenchResult, site: str, db_path: str | os.PathLike | None = None,
                 host: dict | None = None) -> int:
    """Store the run in the user database as one import of site ``site`` (tool
    ``capadvisor-probe``); ``host`` (facts of the machine) goes into the parameters.
    Returns the import id."""
    import hashlib
    import json

    from knowledge.userdb import UserDatabase

    params = {"directory": result.directory, "fstype": result.fstype, "direct_io": result.direct_io,
              "file_bytes": result.file_bytes, "budget_s": result.budget_s, "elapsed_s": result.elapsed_s}
    if host:
        params["host"] = host
    digest = hashlib.sha256(json.dumps([result.to_dict(), time.time_ns()], default=str).encode()).hexdigest()
    with UserDatabase(Path(db_path) if db_path else None) as db:
        return db.add_import(site, path=f"capadvisor probe --bench ({result.directory})", tool=TOOL,
                             tool_version=TOOL_VERSION, content_hash=digest, parameters=params,
                             measurements=site_measurements(result), warnings=result.notes)
