"""sysbench ``fileio`` and ``cpu`` reports, 1.0 and 1.1 formats.

Units as sysbench writes them: file operations per second (ops/s), throughput in MiB/s
(1.0: ``read, MiB/s:``; 1.1: ``read:  IOPS=2279.18 35.61 MiB/s (37.34 MB/s)``), latency in ms,
CPU speed in events per second (ops/s, ``operation=cpu``).
"""

from __future__ import annotations

import re

from knowledge.importers.base import ImporterError, ParsedFile, measurement, number, size_kib
from knowledge.userdb import SiteMeasurement

NAME = "sysbench"

#: "Doing <mode> test" -> (access_pattern, operation)
MODES = {"random r/w": ("random", "mixed"), "random read": ("random", "read"),
         "random write": ("random", "write"), "sequential write (creation)": ("sequential", "write"),
         "sequential rewrite": ("sequential", "write"), "sequential read": ("sequential", "read")}
VERSION_RE = re.compile(r"^sysbench (\d+\.\d+(?:\.\d+)?[\w.-]*)")
V10_RE = re.compile(r"^\s+(reads|writes|fsyncs)/s:\s*(\S*)\s*$")
V10_MIB_RE = re.compile(r"^\s+(read|written), MiB/s:\s*(\S*)\s*$")
V11_RE = re.compile(r"^\s+(read|write|fsync):\s+IOPS=(\S+?)(?:\s+(\S+) MiB/s)?(?:\s+\(.*\))?\s*$")
LAT_RE = re.compile(r"^\s+(min|avg|max|95th percentile|sum):\s+(\S+)\s*$")
EPS_RE = re.compile(r"^\s+events per second:\s*(\S*)\s*$")


def identify(text: str) -> float:
    """Confidence that ``text`` is a sysbench fileio or cpu report."""
    head = text[:8192]
    if not re.search(r"^sysbench \d", head, re.M):
        return 0.0
    if "File operations:" in head or "CPU speed:" in head or re.search(r"^\s+read:\s+IOPS=", head, re.M) \
            or "Prime numbers limit" in head or "Extra file open flags" in head:
        return 1.0
    return 0.3


def parse(text: str, path: str = "") -> ParsedFile:
    """Parse a sysbench fileio or cpu report into site measurements."""
    warnings: list[str] = []
    params: dict = {}
    version = ""
    ops: dict[str, float] = {}
    mib: dict[str, float] = {}
    latency: dict[str, float] = {}
    eps = None
    section = ""
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if m := VERSION_RE.match(line):
            version = version or m.group(1)
        elif m := re.match(r"^Number of threads: (\d+)", s):
            params["threads"] = int(m.group(1))
        elif m := re.match(r"^Prime numbers limit: (\d+)", s):
            params["cpu_max_prime"] = int(m.group(1))
        elif m := re.match(r"^Block size (\S+)", s):
            params["block_size"] = m.group(1)
        elif m := re.match(r"^Extra file open flags: (.*)$", s):
            params["file_extra_flags"] = m.group(1)
        elif m := re.match(r"^Read/Write ratio for combined random IO test: (\S+)", s):
            params["rw_ratio"] = number(m.group(1), path, line=n, key="Read/Write ratio")
            if params["rw_ratio"] < 0:
                raise ImporterError(path, "a negative read/write ratio", line=n, key="Read/Write ratio")
        elif m := re.match(r"^Doing (.+) test$", s):
            params["mode"] = m.group(1)
        elif m := re.match(r"^(\d+) files, (\S+) each", s):
            params["files"], params["file_size"] = int(m.group(1)), m.group(2)
        elif s.endswith(":") and not line.startswith(" "):
            section = s[:-1]
        elif m := V10_RE.match(line):
            ops[m.group(1).rstrip("s")] = number(m.group(2), path, line=n, key=f"{m.group(1)}/s")
        elif m := V10_MIB_RE.match(line):
            mib["read" if m.group(1) == "read" else "write"] = number(m.group(2), path, line=n,
                                                                     key=f"{m.group(1)}, MiB/s")
        elif (m := V11_RE.match(line)) and section == "Throughput":
            ops[m.group(1)] = number(m.group(2), path, line=n, key=f"{m.group(1)} IOPS")
            if m.group(3) is not None:
                mib[m.group(1)] = number(m.group(3), path, line=n, key=f"{m.group(1)} MiB/s")
        elif (m := LAT_RE.match(line)) and section.startswith("Latency"):
            latency[m.group(1)] = number(m.group(2), path, line=n, key=f"latency {m.group(1)}")
        elif m := EPS_RE.match(line):
            eps = number(m.group(1), path, line=n, key="events per second")
    if not version:
        raise ImporterError(path, "no 'sysbench X.Y' version line: not a sysbench report", line=1)
    threads = params.get("threads")
    if threads is None:
        warnings.append("the report has no 'Number of threads' line: threads unknown")
    out: list[SiteMeasurement] = []
    if eps is not None:
        f = {"benchmark": "sysbench", "operation": "cpu", "threads": threads}
        out.append(measurement("throughput", eps, "ops/s", f, "sysbench cpu: events per second"))
        test = "cpu"
    elif ops or mib:
        test = "fileio"
        out += _fileio(params, ops, mib, threads, warnings, path)
    else:
        raise ImporterError(path, "neither a cpu ('events per second') nor a fileio ('File operations' or "
                                  "'read: IOPS=') result found")
    op = "cpu" if test == "cpu" else MODES.get(params.get("mode", ""), (None, "mixed"))[1]
    for key, stat in (("avg", "mean"), ("95th percentile", "p95"), ("max", "max")):
        if key in latency:
            out.append(measurement("latency", latency[key], "ms",
                                   {"benchmark": "sysbench", "operation": op, "statistic": stat,
                                    "threads": threads}, f"sysbench {test}: per-event latency"))
    params["test"] = test
    return ParsedFile(NAME, version, params, out, warnings, path=path, format=f"sysbench-{test}")


def _fileio(params: dict, ops: dict, mib: dict, threads, warnings: list[str], path: str
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
    for direction in ("read", "write"):
        if ops.get(direction, 0) == 0 and mib.get(direction, 0) == 0:
            continue
        f = dict(base, operation=direction)
        if direction in ops:
            out.append(measurement("iops", ops[direction], "ops/s", f, f"sysbench fileio {direction}s/s"))
        if direction in mib:
            out.append(measurement("throughput", mib[direction], "MiB/s", f, f"sysbench fileio {direction}"))
    if ops.get("fsync"):
        out.append(measurement("iops", ops["fsync"], "ops/s", dict(base, operation="fsync"),
                               "sysbench fileio fsyncs/s"))
    return out
