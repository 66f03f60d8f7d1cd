"""fio terse output (``--minimal`` / ``--output-format=terse``), terse versions 2 to 5.

One semicolon-separated line per job (per group with ``group_reporting``); a file may hold many
(a session log, ``numjobs`` without group reporting) and fio's own messages between them
(``fio: pid=..., err=...``), which are reported as warnings. Field layout as in fio's HOWTO
("Terse output"): ``version;[fio version (v3+);]jobname;groupid;error`` then one block per
direction (READ, WRITE, and TRIM in every version but 3) of 41 fields (47 in v5: bandwidth
samples and five IOPS fields added), then CPU, I/O depth and latency distribution fields and the
disk utilisation fields. Units as fio writes them: total I/O in KiB, bandwidth in KiB/s, IOPS in
operations per second, latencies in microseconds (clat percentiles as ``99.000000%=N``).

The terse line does not carry the job's parameters (rw=, bs=, iodepth=): access pattern, block
size and queue depth stay unknown and a warning says so.
"""

from __future__ import annotations

import re
from typing import Any

from knowledge.importers.base import ImporterError, ParsedFile, measurement, number
from knowledge.userdb import SiteMeasurement

NAME = "fio"
DIRECTIONS = ("read", "write", "trim")
#: fields of one direction block in terse v2-v4, and in v5
BLOCK, BLOCK_V5 = 41, 47
#: CPU (5), I/O depths (7), latency distribution in us (10) and ms (12)
TAIL = 34
LINE_RE = re.compile(r"^([2-5]);")
V3_RE = re.compile(r"^([3-5]);fio-\d")
V2_RE = re.compile(r"^2;[^;]*;\d+;-?\d+;\d+;")
PCT_RE = re.compile(r"^(\d+(?:\.\d+)?)%=(-?\d+)$")


def identify(text: str) -> float:
    """Confidence that ``text`` is fio terse output."""
    lines = [ln for ln in text[:65536].splitlines() if ln.strip()][:200]
    for ln in lines:
        if V3_RE.match(ln) and ln.count(";") >= 100:
            return 1.0
        if V2_RE.match(ln) and ln.count(";") >= 100:
            return 0.9
    return 0.0


def _layout(version: int, nfields: int) -> tuple[int, int, int] | None:
    """(header fields, directions, block size) for a line of ``nfields`` fields, or None."""
    head = 4 if version == 2 else 5
    if version == 5:
        return (head, 3, BLOCK_V5) if nfields >= head + 3 * BLOCK_V5 + TAIL else None
    if version == 3:
        return (head, 2, BLOCK) if nfields >= head + 2 * BLOCK + TAIL else None
    if nfields >= head + 3 * BLOCK + TAIL:
        return head, 3, BLOCK
    if version == 2 and nfields >= head + 2 * BLOCK + TAIL:
        return head, 2, BLOCK  # v2 of fio releases before trim statistics
    return None


def parse(text: str, path: str = "") -> ParsedFile:
    """Parse every terse line of ``text`` into site measurements (one run per line)."""
    warnings = ["terse output carries no job parameters (rw=, bs=, iodepth=): access pattern, block size "
                "and queue depth are unknown; --output-format=json records them"]
    skipped: list[str] = []
    out: list[SiteMeasurement] = []
    runs: list[dict[str, Any]] = []
    version = ""
    other = 0
    messages: list[tuple[int, str]] = []
    lines = text.splitlines()
    for n, line in enumerate(lines, 1):
        s = line.strip()
        if not s:
            continue
        m = LINE_RE.match(s)
        if m is None or s.count(";") < 20:
            if s.startswith("fio:") or "err=" in s:
                messages.append((n, s))
            elif runs and int(runs[-1]["terse"]) == 2 and runs[-1]["line"] == n - 1:
                runs[-1]["description"] = s  # terse v2 prints the job description on its own line
            else:
                other += 1
            continue
        fields = s.split(";")
        terse = int(m.group(1))
        lay = _layout(terse, len(fields))
        if lay is None:
            skipped.append(f"line {n}: fio terse v{terse} line with {len(fields)} fields, fewer than its layout "
                           "needs (cut off?): run skipped")
            continue
        head, ndirs, block = lay
        run: dict[str, Any] = {"line": n, "terse": str(terse), "jobname": fields[head - 3],
                               "groupid": fields[head - 2]}
        if terse >= 3:
            run["fio_version"] = fields[1]
            version = version or (fields[1][4:] if fields[1].startswith("fio-") else fields[1])
        err = fields[head - 1].strip()
        if err not in ("0", ""):
            warnings.append(f"line {n}: fio reported error {err} for job {run['jobname']!r}")
        subject = f"fio terse job {run['jobname'] or '?'} (group {run['groupid']}), line {n}"
        got = []
        for k in range(ndirs):
            got += _direction(fields, head + k * block, DIRECTIONS[k], path, n, subject)
        runs.append(run)
        if not got:
            skipped.append(f"line {n}: job {run['jobname']!r} did no I/O (error {err or '?'}): run skipped")
            continue
        run["measurements"] = got
    if messages:
        n0, first = messages[0]
        warnings.append(f"line {n0}: fio message, not a result line: {first[:100]!r}" if len(messages) == 1 else
                        f"lines {n0}-{messages[-1][0]}: {len(messages)} fio messages, not result lines "
                        f"(first: {first[:100]!r})")
    _per_job(runs, warnings)
    for run in runs:
        out += run.pop("measurements", [])
    if not runs and not skipped:
        raise ImporterError(path, "no fio terse line (a line starting '3;fio-' with over 100 ';'-separated "
                                  "fields)", line=1)
    if other:
        warnings.append(f"{other} line(s) that are neither terse results nor fio messages were ignored")
    if not out:
        raise ImporterError(path, f"fio{' ' + version if version else ''} terse output without any I/O in any "
                                  f"job ({'; '.join(skipped)[:200]})", line=runs[0]["line"] if runs else 1)
    params = {"format": "terse", "terse_version": runs[0]["terse"] if runs else "", "jobs": runs}
    return ParsedFile(NAME, version, params, out, warnings, path=path, format="fio-terse",
                      runs_found=len(runs) + sum(1 for s in skipped if "fewer than its layout" in s),
                      skipped=skipped)


def _per_job(runs: list[dict], warnings: list[str]) -> None:
    """Consecutive lines of one job name and group are that group's jobs one by one (``numjobs``
    without ``group_reporting``): their figures are per job (fio prints no group total in terse)."""
    i = 0
    while i < len(runs):
        j = i
        while j + 1 < len(runs) and (runs[j + 1]["jobname"], runs[j + 1]["groupid"], runs[j + 1]["line"]) == \
                (runs[i]["jobname"], runs[i]["groupid"], runs[j]["line"] + 1):
            j += 1
        if j > i:
            for run in runs[i:j + 1]:
                for m in run.get("measurements", []):
                    if m.factors.get("statistic") == "total":
                        m.factors["statistic"] = "per_job"
            warnings.append(f"lines {runs[i]['line']}-{runs[j]['line']}: {j - i + 1} jobs of {runs[i]['jobname']!r} "
                            f"(group {runs[i]['groupid']}) reported one by one: per-job figures")
        i = j + 1


def _direction(fields: list[str], at: int, direction: str, path: str, line: int, subject: str
               ) -> list[SiteMeasurement]:
    """Throughput, IOPS, mean total latency and clat p99 of one direction block (empty without I/O)."""
    def num(i: int, what: str) -> float:
        return number(fields[at + i], path, line=line, key=f"{direction} {what} (field {at + i + 1})")

    if num(0, "total I/O KiB") == 0:
        return []
    f: dict[str, object] = {"benchmark": "fio", "operation": direction, "statistic": "total"}
    out = [measurement("throughput", num(1, "bandwidth KiB/s"), "KiB/s", f, subject),
           measurement("iops", num(2, "IOPS"), "ops/s", f, subject),
           measurement("latency", num(34, "total latency mean us"), "us", dict(f, statistic="mean"), subject)]
    for i in range(12, 32):
        m = PCT_RE.match(fields[at + i].strip())
        if m and float(m.group(1)) == 99.0:
            out.append(measurement("latency", number(m.group(2), path, line=line, key=f"{direction} clat p99"),
                                   "us", dict(f, statistic="p99"), subject))
            break
    return out
