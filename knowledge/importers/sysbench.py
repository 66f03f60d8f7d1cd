"""sysbench reports: ``cpu``, ``fileio``, ``memory`` and ``oltp`` of 0.4.x/0.5 and 1.0/1.1; a file
may hold several runs (a session log), each starting with its ``sysbench X.Y`` banner.

Units as sysbench writes them: file operations per second (ops/s), throughput in MiB/s
(1.0: ``read, MiB/s:``; 1.1: ``read:  IOPS=2279.18 35.61 MiB/s (37.34 MB/s)``; 0.4: ``Mb/sec``, which
sysbench 0.4 computes with 1024-based units, i.e. MiB/s), latency in ms, CPU speed in events
per second (ops/s, ``operation=cpu``; 0.4 prints none, so it is the events over the total time),
memory transfer in MiB/s and operations/s (``operation=memory_read|memory_write``), OLTP in
transactions per second (``transaction_rate``, tps) and queries per second (``operation=query``),
the threads test as events per second (``operation=threads``) and the mutex test as its run time
(``elapsed_time``, ``operation=mutex``), each with the per-event latency.

A session log holds several invocations: a banner may carry a prefix (``CPU 0 sysbench 1.0.11``);
``prepare`` and ``cleanup`` steps (creating or removing the fileio test files) are not runs and are
noted; a run that sysbench aborted (``FATAL: ...``) is skipped with that message. sysbench 1.x
prints nothing that names the threads or mutex test, so those are recognised from the heading or
command line just before the banner (``THREADS BENCHMARKS``, ``sysbench --test=mutex run``); a run
that names its test nowhere is skipped with a warning naming the version.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from knowledge.importers.base import ImporterError, ParsedFile, measurement, number, size_kib
from knowledge.userdb import SiteMeasurement

NAME = "sysbench"

#: "Doing <mode> test" -> (access_pattern, operation)
MODES = {"random r/w": ("random", "mixed"), "random read": ("random", "read"),
         "random write": ("random", "write"), "sequential write (creation)": ("sequential", "write"),
         "sequential rewrite": ("sequential", "write"), "sequential read": ("sequential", "read")}
BANNER_RE = re.compile(r"^(?:(?P<prefix>\S.{0,30}?)\s+)?sysbench (\d+\.\d+(?:\.\d+)?[\w.-]*)(?=\s*$|\s+\(|:)")
#: a test named in a heading or command line before a banner ("THREADS BENCHMARKS", "--test=mutex")
HINT_RE = re.compile(r"(?:--test[= ]|\bsysbench\s+(?:--\S+\s+)*)(cpu|fileio|memory|threads|mutex|oltp)\b|"
                     r"^\W*(cpu|fileio|memory|threads|mutex|oltp)\b[\w ]*(?:benchmark|test)", re.I)
TESTS = ("cpu", "fileio", "memory", "oltp", "threads", "mutex")
V10_RE = re.compile(r"^\s+(reads|writes|fsyncs)/s:\s*(\S*)\s*$")
V10_MIB_RE = re.compile(r"^\s+(read|written), MiB/s:\s*(\S*)\s*$")
V11_RE = re.compile(r"^\s+(read|write|fsync):\s+IOPS=(\S+?)(?:\s+(\S+) MiB/s)?(?:\s+\(.*\))?\s*$")
LAT_RE = re.compile(r"^\s+(min|avg|max|95th percentile|approx\.\s+95 percentile|sum):\s+(\S+?)(ms)?\s*$")
EPS_RE = re.compile(r"^\s+events per second:\s*(\S*)\s*$")
V04_OPS_RE = re.compile(r"^Operations performed:\s+(\d+) Read, (\d+) Write, (\d+) Other = (\d+) Total")
V04_MB_RE = re.compile(r"^Read (\S+?)([KMGT]?b)\s+Written (\S+?)([KMGT]?b)\s+Total transferred (\S+?)[KMGT]?b\s+"
                       r"\((\S+?)([KMGT]?b)/sec\)")
V04_REQ_RE = re.compile(r"^\s*(\S+) Requests/sec executed")
MEM_OPS_RE = re.compile(r"^(?:Total operations|Operations performed):\s+\d+\s+\(\s*(\S+) (?:per second|ops/sec)\)")
MEM_MIB_RE = re.compile(r"^(\S+) (MiB|MB) transferred \((\S+) (?:MiB|MB)/sec\)")
OLTP_RE = re.compile(r"^\s+(transactions|queries|read/write requests):\s+\d+\s+\((\S+) per sec\.\)")
TOTAL_TIME_RE = re.compile(r"^\s+total time:\s+(\S+?)s\s*$")
EVENTS_RE = re.compile(r"^\s+total number of events:\s+(\S+)\s*$")
MiB_PER = {"b": 1 / 1048576, "Kb": 1 / 1024, "Mb": 1.0, "Gb": 1024.0, "Tb": 1048576.0}

#: what a 0.4 "Doing ..." line or a 1.x option line says about the test
TEST_HINTS = (("Doing CPU performance benchmark", "cpu"), ("Prime numbers limit", "cpu"),
              ("Maximum prime number checked", "cpu"), ("Extra file open flags", "fileio"),
              ("Doing memory operations speed test", "memory"), ("Running memory speed test", "memory"),
              ("Doing OLTP test", "oltp"), ("OLTP test statistics", "oltp"), ("SQL statistics", "oltp"),
              ("Doing thread subsystem performance test", "threads"), ("Doing mutex performance test", "mutex"))


def identify(text: str) -> float:
    """Confidence that ``text`` is a sysbench report (or a log of several)."""
    head = text[:8192]
    if not re.search(r"^(?:\S.{0,30}?\s+)?sysbench \d+\.\d", head, re.M):
        return 0.0
    if "File operations:" in head or "CPU speed:" in head or re.search(r"^\s+read:\s+IOPS=", head, re.M) \
            or any(hint in head for hint, _ in TEST_HINTS) or "Operations performed:" in head:
        return 1.0
    return 0.3


def _runs(text: str) -> list[tuple[int, list[str], str | None]]:
    """(first line number, lines, test named just before the banner) of each invocation: one
    starts at a ``sysbench X.Y`` banner; lines before the first banner belong to none."""
    runs: list[tuple[int, list[str], str | None]] = []
    before: list[str] = []
    for n, line in enumerate(text.splitlines(), 1):
        if BANNER_RE.match(line.strip()):
            runs.append((n, [line.strip()], _hint(before)))
            before = []
        else:
            if runs:
                runs[-1][1].append(line)
            if line.strip() and not line.startswith((" ", "\t")):
                before = (before + [line.strip()])[-4:]
    return runs


def _hint(lines: list[str]) -> str | None:
    """The test named by a heading or command line among the lines just before a banner."""
    for line in reversed(lines):
        if m := HINT_RE.search(line):
            return (m.group(1) or m.group(2)).lower()
    return None


def _setup_step(lines: list[str]) -> str | None:
    """'prepare' or 'cleanup' when an invocation only creates or removes the fileio test files."""
    text = "\n".join(lines)
    if re.search(r"^\s*(Running the test with|Number of threads:|Threads started)", text, re.M):
        return None
    if "Removing test files" in text:
        return "cleanup"
    if re.search(r"^\d+ files, \S+ each, \S+ total|^Creating file", text, re.M):
        return "prepare"
    return None


def parse(text: str, path: str = "") -> ParsedFile:
    """Parse every sysbench run of ``text`` into site measurements."""
    runs = _runs(text)
    if not runs:
        raise ImporterError(path, "no 'sysbench X.Y' version line: not a sysbench report", line=1)
    warnings: list[str] = []
    skipped: list[str] = []
    out: list[SiteMeasurement] = []
    params_runs: list[dict] = []
    errors: list[ImporterError] = []
    steps = [(start, _setup_step(lines)) for start, lines, _ in runs]
    for start, step in steps:
        if step:
            fatal = next((ln.strip() for ln in runs[[s for s, _ in steps].index(start)][1]
                          if ln.startswith("FATAL")), "")
            warnings.append(f"line {start}: sysbench fileio {step} step (no results){': ' + fatal if fatal else ''}"
                            " - not a run")
    runs = [r for r, (_, step) in zip(runs, steps, strict=True) if not step]
    if not runs:
        raise ImporterError(path, "only sysbench prepare/cleanup steps, no test run", line=steps[0][0])
    for k, (start, lines, hint) in enumerate(runs):
        label = f"run {k + 1}" if len(runs) > 1 else ""
        prefix = BANNER_RE.match(lines[0]).group("prefix")  # type: ignore[union-attr]
        if prefix:
            label = f"{label} ({prefix})" if label else prefix
        try:
            got, params, run_warnings = _parse_run(lines, start, path, label, hint)
        except _Unsupported as exc:
            skipped.append(f"line {start}: {exc}: skipped")
            continue
        except ImporterError as exc:
            if len(runs) == 1:
                raise
            errors.append(exc)
            skipped.append(f"line {start}: {exc.reason} (line {exc.line}): run skipped")
            continue
        out += got
        params_runs.append(params)
        warnings += [f"{label}: {w}" if label else w for w in run_warnings]
    if not out:
        if errors:
            raise errors[0]
        raise ImporterError(path, "; ".join(dict.fromkeys(s.split(": ", 1)[1].removesuffix(": skipped")
                                                          for s in skipped)), line=runs[0][0])
    first = params_runs[0]
    params = dict(first) if len(params_runs) == 1 else {"runs": params_runs, "test": first["test"]}
    fmt = f"sysbench-{first['test']}" if len({p['test'] for p in params_runs}) == 1 else "sysbench-log"
    return ParsedFile(NAME, first["version"], params, out, warnings, path=path, format=fmt,
                      runs_found=len(runs), skipped=skipped)


class _Unsupported(Exception):  # noqa: N818
    """A run of a sysbench test this importer does not read (the message names version and test)."""


@dataclass
class _Scan:
    """What the lines of one run said: its settings (``params``) and every result line read."""

    params: dict
    ops: dict[str, float] = field(default_factory=dict)
    mib: dict[str, float] = field(default_factory=dict)
    latency: dict[str, float] = field(default_factory=dict)
    v04: dict[str, float] = field(default_factory=dict)
    mem: dict[str, float] = field(default_factory=dict)
    oltp: dict[str, float] = field(default_factory=dict)
    eps: float | None = None
    total_time: float | None = None
    events: float | None = None
    section: str = ""
    test: str | None = None
    fatal: list[tuple[int, str]] = field(default_factory=list)


def _parse_run(lines: list[str], start: int, path: str, label: str, hint: str | None = None
               ) -> tuple[list[SiteMeasurement], dict, list[str]]:
    warnings: list[str] = []
    version = BANNER_RE.match(lines[0]).group(2)  # type: ignore[union-attr]
    scan = _Scan({"version": version, "line": start})
    for i, line in enumerate(lines):
        _read_line(scan, line, start + i, path)
    params, test = scan.params, scan.test
    if test is None:
        test = "fileio" if (scan.ops or scan.mib or scan.v04) else "cpu" if scan.eps is not None else \
            "oltp" if scan.oltp else "memory" if scan.mem else hint
    if scan.fatal and not (scan.ops or scan.mib or scan.v04 or scan.eps is not None or scan.oltp or scan.mem
                           or scan.events is not None):
        n, msg = scan.fatal[0]
        raise _Unsupported(f"sysbench {version} {test or ''} run aborted at line {n} ({msg[:120]})".replace("  ", " "))
    threads = params.get("threads")
    if threads is None:
        warnings.append("the report has no 'Number of threads' line: threads unknown")
    who = f"sysbench {label + ' ' if label else ''}{test}"
    out, op = _measurements(scan, test, start, path, threads, warnings, who)
    for key, stat in (("avg", "mean"), ("95th percentile", "p95"), ("max", "max")):
        if key in scan.latency:
            out.append(measurement("latency", scan.latency[key], "ms",
                                   {"benchmark": "sysbench", "operation": op, "statistic": stat, "threads": threads},
                                   f"{who}: per-event latency"))
    params["test"] = test
    return out, params, warnings


def _read_line(scan: _Scan, line: str, n: int, path: str) -> None:
    """Read line ``n`` of a run into ``scan``: a test hint, a FATAL line, a setting, a section heading
    or a result."""
    s = line.strip()
    for mark, name in TEST_HINTS:
        if mark in line and scan.test is None:
            scan.test = name
    if s.startswith("FATAL:"):
        scan.fatal.append((n, s))
    if _read_setting(scan.params, s, n, path):
        return
    if s.endswith(":") and not line.startswith(" "):
        scan.section = s[:-1]
        return
    _read_result(scan, line, s, n, path)


def _read_setting(params: dict, s: str, n: int, path: str) -> bool:
    """Read a setting line (threads, prime limit, block size, mode, files...) into ``params``;
    False if ``s`` is none."""
    if m := re.match(r"^Number of threads: (\d+)", s):
        params["threads"] = int(m.group(1))
    elif m := re.match(r"^(?:Prime numbers limit|Maximum prime number checked in CPU test): (\d+)", s):
        params["cpu_max_prime"] = int(m.group(1))
    elif m := re.match(r"^Block size (\S+)", s):
        params["block_size"] = m.group(1)
    elif m := re.match(r"^block size: (\S+)", s):
        params["block_size"] = m.group(1)
    elif m := re.match(r"^operation: (\w+)", s):
        params["memory_operation"] = m.group(1)
    elif m := re.match(r"^Memory block size: (\S+)", s):
        params["block_size"] = m.group(1)
    elif m := re.match(r"^Memory operations type: (\w+)", s):
        params["memory_operation"] = m.group(1)
    elif m := re.match(r"^Extra file open flags: (.*)$", s):
        params["file_extra_flags"] = m.group(1)
    elif m := re.match(r"^Read/Write ratio for combined random IO test: (\S+)", s):
        params["rw_ratio"] = number(m.group(1), path, line=n, key="Read/Write ratio")
        if params["rw_ratio"] < 0:
            raise ImporterError(path, "a negative read/write ratio", line=n, key="Read/Write ratio")
    elif m := re.match(r"^Doing (.+) test\.?$", s):
        params.setdefault("mode", m.group(1))
    elif m := re.match(r"^(\d+) files, (\S+) each", s):
        params["files"], params["file_size"] = int(m.group(1)), m.group(2)
    else:
        return False
    return True


def _read_result(scan: _Scan, line: str, s: str, n: int, path: str) -> None:
    """Read a result line (``line``; ``s`` stripped) into ``scan``, if it is one."""
    section = scan.section
    if m := V10_RE.match(line):
        scan.ops[m.group(1).rstrip("s")] = number(m.group(2), path, line=n, key=f"{m.group(1)}/s")
    elif m := V10_MIB_RE.match(line):
        scan.mib["read" if m.group(1) == "read" else "write"] = number(m.group(2), path, line=n,
                                                                      key=f"{m.group(1)}, MiB/s")
    elif (m := V11_RE.match(line)) and section == "Throughput":
        scan.ops[m.group(1)] = number(m.group(2), path, line=n, key=f"{m.group(1)} IOPS")
        if m.group(3) is not None:
            scan.mib[m.group(1)] = number(m.group(3), path, line=n, key=f"{m.group(1)} MiB/s")
    elif (m := LAT_RE.match(line)) and (section.startswith("Latency") or "per-request statistics" in section
                                        or section == "Test execution summary"):
        key = "95th percentile" if "95" in m.group(1) else m.group(1)
        scan.latency[key] = number(m.group(2), path, line=n, key=f"latency {key}")
    elif m := EPS_RE.match(line):
        scan.eps = number(m.group(1), path, line=n, key="events per second")
    elif m := V04_OPS_RE.match(s):
        scan.v04.update(reads=float(m.group(1)), writes=float(m.group(2)))
    elif m := V04_MB_RE.match(s):
        _read_v04_transfer(scan.v04, m, n, path)
    elif m := V04_REQ_RE.match(s):
        scan.v04["req_s"] = number(m.group(1), path, line=n, key="Requests/sec executed")
    elif (m := MEM_OPS_RE.match(s)) and scan.test == "memory":
        scan.mem["ops_s"] = number(m.group(1), path, line=n, key="operations per second")
    elif m := MEM_MIB_RE.match(s):
        scan.mem["mib_s"] = number(m.group(3), path, line=n, key=f"{m.group(2)}/sec")
    elif m := OLTP_RE.match(line):
        scan.oltp[m.group(1)] = number(m.group(2), path, line=n, key=f"{m.group(1)} per sec.")
    elif m := TOTAL_TIME_RE.match(line):
        scan.total_time = number(m.group(1), path, line=n, key="total time")
    elif m := EVENTS_RE.match(line):
        scan.events = number(m.group(1), path, line=n, key="total number of events")


def _read_v04_transfer(v04: dict[str, float], m: re.Match, n: int, path: str) -> None:
    """A 0.4 ``Read ... Written ... Total transferred ... (X Mb/sec)`` line, in MiB."""
    unit = m.group(7)
    if unit not in MiB_PER:
        raise ImporterError(path, f"unknown unit {unit!r}/sec", line=n)
    v04["mib_s"] = number(m.group(6), path, line=n, key="Total transferred") * MiB_PER[unit]
    v04["read_mib"] = number(m.group(1), path, line=n, key="Read") * MiB_PER.get(m.group(2), 1.0)
    v04["written_mib"] = number(m.group(3), path, line=n, key="Written") * MiB_PER.get(m.group(4), 1.0)


def _measurements(scan: _Scan, test: str | None, start: int, path: str, threads, warnings: list[str],
                  who: str) -> tuple[list[SiteMeasurement], str]:
    """The measurements of a run of ``test`` and the operation its latency belongs to."""
    version, params = scan.params["version"], scan.params
    base = {"benchmark": "sysbench", "threads": threads}
    if test == "cpu":
        return _cpu(scan, start, path, base, warnings, who), "cpu"
    if test == "fileio":
        if not (scan.ops or scan.mib or scan.v04):
            raise ImporterError(path, f"sysbench {version} fileio run without results ('File operations', "
                                      "'read: IOPS=' or 'Operations performed')", line=start)
        out = _fileio(params, scan.ops, scan.mib, scan.v04, threads, warnings, who)
        return out, MODES.get(params.get("mode", ""), (None, "mixed"))[1]
    if test == "memory":
        return _memory(scan, start, path, base, who)
    if test == "oltp":
        return _oltp(scan, start, path, base, who), "transaction"
    if test in ("threads", "mutex"):
        return _threads_or_mutex(scan, test, start, path, base, who), test
    what = f"{test} test" if test else "test that names itself nowhere (threads, mutex or a Lua script)"
    raise _Unsupported(f"sysbench {version} {what}: not recognised (cpu, fileio, memory, oltp, threads and "
                       "mutex are read; a heading or the command line before the banner names the test)")


def _cpu(scan: _Scan, start: int, path: str, base: dict, warnings: list[str], who: str) -> list[SiteMeasurement]:
    version, eps, events, total_time = scan.params["version"], scan.eps, scan.events, scan.total_time
    if eps is None and events is not None and total_time:
        eps = events / total_time
        warnings.append(f"sysbench {version} prints no events per second: {events:g} events / "
                        f"{total_time:g} s = {eps:.2f} events/s")
    if eps is None:
        raise ImporterError(path, f"sysbench {version} cpu run without 'events per second' (or events and "
                                  "total time)", line=start)
    return [measurement("throughput", eps, "ops/s", dict(base, operation="cpu"), f"{who}: events per second")]


def _memory(scan: _Scan, start: int, path: str, base: dict, who: str) -> tuple[list[SiteMeasurement], str]:
    params, mem = scan.params, scan.mem
    if not mem:
        raise ImporterError(path, f"sysbench {params['version']} memory run without 'MiB transferred'",
                            line=start)
    op = f"memory_{params.get('memory_operation', 'write')}"
    block = size_kib(params["block_size"].replace("K", "k"), default_unit="B") if "block_size" in params else None
    f = dict(base, operation=op, block_size=block)
    out = []
    if "mib_s" in mem:
        out.append(measurement("throughput", mem["mib_s"], "MiB/s", f, f"{who}: transfer rate"))
    if "ops_s" in mem:
        out.append(measurement("throughput", mem["ops_s"], "ops/s", f, f"{who}: operations per second"))
    return out, op


def _oltp(scan: _Scan, start: int, path: str, base: dict, who: str) -> list[SiteMeasurement]:
    oltp = scan.oltp
    if "transactions" not in oltp:
        raise ImporterError(path, f"sysbench {scan.params['version']} oltp run without 'transactions: N (X per "
                                  "sec.)'", line=start)
    out = [measurement("transaction_rate", oltp["transactions"], "tps", dict(base, operation="transaction"),
                       f"{who}: transactions per second")]
    q = oltp.get("queries", oltp.get("read/write requests"))
    if q is not None:
        out.append(measurement("throughput", q, "ops/s", dict(base, operation="query"),
                               f"{who}: queries per second"))
    return out


def _threads_or_mutex(scan: _Scan, test: str, start: int, path: str, base: dict, who: str
                      ) -> list[SiteMeasurement]:
    events, total_time = scan.events, scan.total_time
    if events is None or not total_time:
        raise ImporterError(path, f"sysbench {scan.params['version']} {test} run without 'total time' and "
                                  "'total number of events'", line=start)
    if test == "threads":
        return [measurement("throughput", events / total_time, "ops/s", dict(base, operation="threads"),
                            f"{who}: events per second ({events:g} events / {total_time:g} s)")]
    return [measurement("elapsed_time", total_time, "s", dict(base, operation="mutex"), f"{who}: total time")]


def _fileio(params: dict, ops: dict, mib: dict, v04: dict, threads, warnings: list[str], who: str
            ) -> list[SiteMeasurement]:
    mode = params.get("mode")
    pattern, operation = MODES.get(mode, (None, None)) if mode else (None, None)
    if mode is None:
        warnings.append("no 'Doing ... test' line: access pattern unknown")
    elif pattern is None:
        warnings.append(f"unknown fileio mode {mode!r}: access pattern unknown")
    share = None
    if operation == "mixed" and "rw_ratio" in params:
        r = params["rw_ratio"]
        share = 100 * r / (1 + r)
    elif operation == "read":
        share = 100.0
    elif operation == "write":
        share = 0.0
    flags = params.get("file_extra_flags")
    direct = None if flags is None else ("yes" if "direct" in flags else "no" if flags in ("(none)", "0", "") else None)
    bs = params.get("block_size")
    block = size_kib(bs.replace("Kb", "KiB"), default_unit="B") if bs else None
    base = {"benchmark": "sysbench", "access_pattern": pattern, "read_share": share, "block_size": block,
            "threads": threads, "direct_io": direct}
    out = []
    if v04 and not (ops or mib):
        # 0.4: one rate for reads and writes together; the split follows the bytes moved
        op = operation or "mixed"
        f = dict(base, operation=op)
        if "mib_s" in v04:
            out.append(measurement("throughput", v04["mib_s"], "MiB/s", f, f"{who}: total transferred per second"))
        if "req_s" in v04:
            out.append(measurement("iops", v04["req_s"], "ops/s", f, f"{who}: requests per second"))
        return out
    for direction in ("read", "write"):
        if ops.get(direction, 0) == 0 and mib.get(direction, 0) == 0:
            continue
        f = dict(base, operation=direction)
        if direction in ops:
            out.append(measurement("iops", ops[direction], "ops/s", f, f"{who} {direction}s/s"))
        if direction in mib:
            out.append(measurement("throughput", mib[direction], "MiB/s", f, f"{who} {direction}"))
    if ops.get("fsync"):
        out.append(measurement("iops", ops["fsync"], "ops/s", dict(base, operation="fsync"), f"{who} fsyncs/s"))
    return out
