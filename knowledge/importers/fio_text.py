"""fio's default human-readable output (fio 2.x and 3.x).

The text is rounded by fio (``IOPS=21.5k``, ``BW=84.1MiB/s``): values are taken as printed, in the
unit printed (fio 2.x ``KB/s`` means KiB/s), and a warning recommends ``--output-format=json``.
Direct I/O and the read/write mix are not in the text, so those factors stay unknown.
"""

from __future__ import annotations

import re

from knowledge.importers.base import ImporterError, ParsedFile, measurement, number, size_kib
from knowledge.importers.fio import RW_PATTERNS
from knowledge.userdb import SiteMeasurement

NAME = "fio"

HEADER_RE = re.compile(r"^(?P<name>.+?): \(g=(?P<g>\d+)\): rw=(?P<rw>[\w:]+), bs=(?P<bs>.+?), "
                       r"ioengine=(?P<engine>[\w.-]+), iodepth=(?P<depth>\d+)")
RESULT_RE = re.compile(r"^(?P<name>.+?): \(groupid=(?P<g>\d+), jobs=(?P<jobs>\d+)\): err=\s*(?P<err>-?\d+)")
DIR3_RE = re.compile(r"^\s+(?P<dir>read|write|trim)\s*: IOPS=(?P<iops>[\d.]+)(?P<ik>[kM]?), "
                     r"BW=(?P<bw>[\d.]+)(?P<bu>[KMGT]?i?B/s)")
DIR2_RE = re.compile(r"^\s+(?P<dir>read|write|trim)\s*: io=[^,]*, bw=(?P<bw>[\d.]+)(?P<bu>[KMGT]?B/s), "
                     r"iops=(?P<iops>[\d.]+)(?P<ik>[kM]?)")
LAT_RE = re.compile(r"^\s+lat \((?P<u>nsec|usec|msec)\)\s*:\s*min=.*?avg=\s*(?P<avg>[\d.]+)(?P<k>[kKM]?)")
PCT_RE = re.compile(r"^\s+clat percentiles \((?P<u>nsec|usec|msec)\)")
P99_RE = re.compile(r"99\.00th=\[\s*(?P<v>\d+)\]")
GROUP_RE = re.compile(r"^Run status group (?P<g>\d+)")
GROUP3_RE = re.compile(r"^\s+(?P<dir>READ|WRITE|TRIM): bw=(?P<bw>[\d.]+)(?P<bu>[KMGT]?i?B/s)")
GROUP2_RE = re.compile(r"^\s+(?P<dir>READ|WRITE|TRIM): io=[^,]*, aggrb=(?P<bw>[\d.]+)(?P<bu>[KMGT]?B/s)")
VERSION_RE = re.compile(r"^fio[- ](?P<v>\d+\.\d+[\w.-]*)\s*$")

#: printed bandwidth unit -> vocabulary unit (fio 2.x "KB/s" is 1024-based)
BW_UNITS = {"B/s": "B/s", "KiB/s": "KiB/s", "MiB/s": "MiB/s", "GiB/s": "GiB/s", "TiB/s": "GiB/s",
            "KB/s": "KiB/s", "MB/s": "MiB/s", "GB/s": "GiB/s"}
TIME_UNITS = {"nsec": "ns", "usec": "us", "msec": "ms"}
SUFFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6}


def identify(text: str) -> float:
    """Confidence that ``text`` is fio's human-readable output."""
    head = text[:8192]
    score = 0.0
    if re.search(r"^\S.*: \(g=\d+\): rw=", head, re.M):
        score += 0.5
    if re.search(r"\(groupid=\d+, jobs=\d+\)", text[:65536]):
        score += 0.4
    if re.search(r"^fio-\d", head, re.M):
        score += 0.1
    return min(score, 1.0)


def _bw(m: re.Match, path: str, line: int) -> tuple[float, str]:
    unit = m.group("bu")
    if unit not in BW_UNITS:
        raise ImporterError(path, f"unknown bandwidth unit {unit!r}", line=line)
    value = number(m.group("bw"), path, line=line)
    if unit == "TiB/s":
        value *= 1024
    return value, BW_UNITS[unit]


def parse(text: str, path: str = "") -> ParsedFile:
    """Parse fio's human-readable output into site measurements."""
    warnings = ["human-readable fio output is rounded to about 3 significant digits; "
                "--output-format=json gives exact figures"]
    version = ""
    # a file may hold several fio invocations (a session log): each starts with its parameter
    # lines; group ids restart at 0 in each, so results and group totals belong to their invocation
    segments: list[dict] = []
    seg: dict[str, list] = {"headers": [], "results": [], "totals": []}
    segments.append(seg)
    current: dict | None = None
    direction: dict | None = None
    in_pct: str | None = None
    group: str | None = None
    for n, line in enumerate(text.splitlines(), 1):
        if m := VERSION_RE.match(line):
            version = version or m.group("v")
            continue
        if m := HEADER_RE.match(line):
            if seg["results"]:
                seg = {"headers": [], "results": [], "totals": []}
                segments.append(seg)
                current, direction, in_pct, group = None, None, None, None
            seg["headers"].append({"name": m.group("name"), "rw": m.group("rw").split(":")[0], "bs": m.group("bs"),
                                   "iodepth": int(m.group("depth")), "ioengine": m.group("engine"),
                                   "group": m.group("g"), "line": n})
            continue
        if m := RESULT_RE.match(line):
            if group is not None and seg["totals"]:  # results after a group summary without new headers
                seg = {"headers": [], "results": [], "totals": []}
                segments.append(seg)
            current = {"name": m.group("name"), "group": m.group("g"), "jobs": int(m.group("jobs")),
                       "line": n, "dirs": []}
            seg["results"].append(current)
            direction, in_pct, group = None, None, None
            if m.group("err").strip() != "0":
                warnings.append(f"line {n}: fio reported err={m.group('err')} for job {m.group('name')!r}")
            continue
        if m := GROUP_RE.match(line):
            group, current, direction, in_pct = m.group("g"), None, None, None
            continue
        if group is not None and (m := GROUP3_RE.match(line) or GROUP2_RE.match(line)):
            bw, unit = _bw(m, path, n)
            seg["totals"].append({"group": group, "dir": m.group("dir").lower(), "bw": bw, "unit": unit, "line": n})
            continue
        if current is None:
            continue
        if m := DIR3_RE.match(line) or DIR2_RE.match(line):
            bw, unit = _bw(m, path, n)
            direction = {"dir": m.group("dir"), "bw": bw, "unit": unit, "line": n,
                         "iops": number(m.group("iops"), path, line=n) * SUFFIX[m.group("ik")]}
            current["dirs"].append(direction)
            in_pct = None
            continue
        if direction is None:
            continue
        if m := LAT_RE.match(line):
            direction["lat"] = (number(m.group("avg"), path, line=n) * SUFFIX[m.group("k")],
                                TIME_UNITS[m.group("u")])
        elif m := PCT_RE.match(line):
            in_pct = TIME_UNITS[m.group("u")]
        elif in_pct is not None and line.lstrip().startswith("|"):
            if p := P99_RE.search(line):
                direction["p99"] = (number(p.group("v"), path, line=n), in_pct)
        else:
            in_pct = None
    return _parsed(segments, version, warnings, path)


def _parsed(segments: list[dict], version: str, warnings: list[str], path: str) -> ParsedFile:
    """The parsed file of fio's invocations (``segments``): their measurements, one run per result."""
    segments = [sg for sg in segments if sg["results"]]
    if not segments:
        raise ImporterError(path, "no job results found (no line like 'name: (groupid=0, jobs=1): err= 0')",
                            line=1)
    if not version:
        warnings.append("no 'fio-X.Y' version line")
    out: list[SiteMeasurement] = []
    runs = 0
    for k, sg in enumerate(segments):
        label = f"run {k + 1}, " if len(segments) > 1 else ""
        out += _measurements(sg, warnings, path, label)
        runs += len(sg["results"])
    headers = [h for sg in segments for h in sg["headers"]]
    params = {"format": "text", "jobs": headers, "invocations": len(segments)}
    return ParsedFile(NAME, version, params, out, warnings, path=path, format="fio-text", runs_found=runs)


def _shape(header: dict | None, warnings: list[str], name: str) -> dict:
    if header is None:
        warnings.append(f"job {name!r}: no parameter line (rw=, bs=, iodepth=): pattern and block size unknown")
        return {"pattern": None, "share": None, "bs": [None, None, None], "depth": None}
    pattern, share = RW_PATTERNS.get(header["rw"], (None, None))
    if pattern is not None and share is None:
        warnings.append(f"job {name!r}: rw={header['rw']}: the read/write mix is not in the text output")
    sizes: list[float | None] = []
    bs = header["bs"]
    parts = re.findall(r"\([RWT]\) ([^,]+)", bs) or bs.split("/")
    for part in parts[:3]:
        lo, _, hi = part.strip().partition("-")
        a, b = size_kib(lo, default_unit="B"), size_kib(hi or lo, default_unit="B")
        sizes.append(a if a is not None and a == b else None)
    sizes += [None] * (3 - len(sizes))
    return {"pattern": pattern, "share": share, "bs": sizes, "depth": header["iodepth"]}


def _factors(shape: dict, direction: str, threads: int, statistic: str) -> dict:
    return {"benchmark": "fio", "operation": direction, "access_pattern": shape["pattern"],
            "read_share": shape["share"], "block_size": shape["bs"][("read", "write", "trim").index(direction)],
            "queue_depth": shape["depth"], "threads": threads, "statistic": statistic}


def _header_for(sg: dict, result: dict, seen: dict[str, int]) -> dict | None:
    """The parameter line of ``result``: the k-th header of its job name for its k-th result
    (fio prints one header per job, in the order of the results)."""
    same = [h for h in sg["headers"] if h["name"] == result["name"]]
    k = seen.get(result["name"], 0)
    seen[result["name"]] = k + 1
    if not same:
        return None
    return same[min(k, len(same) - 1)]


def _measurements(sg: dict, warnings: list[str], path: str, label: str) -> list[SiteMeasurement]:
    out: list[SiteMeasurement] = []
    per_group: dict[str, list[tuple[dict, dict | None]]] = {}
    seen: dict[str, int] = {}
    for r in sg["results"]:
        per_group.setdefault(r["group"], []).append((r, _header_for(sg, r, seen)))
    for gid, rs in per_group.items():
        per_job = len(rs) > 1
        shapes = []
        for i, (r, header) in enumerate(rs):
            shape = _shape(header, warnings, r["name"])
            shapes.append(shape)
            subject = f"fio {label}job {r['name']} (group {gid})" + (f" #{i}" if per_job else "")
            stat = "per_job" if per_job else "total"
            for d in r["dirs"]:
                f = _factors(shape, d["dir"], r["jobs"], stat)
                out.append(measurement("throughput", d["bw"], d["unit"], f, subject))
                out.append(measurement("iops", d["iops"], "ops/s", f, subject))
                if "lat" in d:
                    out.append(measurement("latency", d["lat"][0], d["lat"][1], dict(f, statistic="mean"), subject))
                if "p99" in d:
                    out.append(measurement("latency", d["p99"][0], d["p99"][1], dict(f, statistic="p99"), subject))
        if per_job:
            threads = sum(r["jobs"] for r, _ in rs)
            same = all(sh == shapes[0] for sh in shapes)
            for t in sg["totals"]:
                if t["group"] != gid:
                    continue
                if not same:
                    warnings.append(f"line {t['line']}: group {gid} total of jobs with different parameters: "
                                    "kept without block size, pattern or queue depth")
                shape = shapes[0] if same else {"pattern": None, "share": None, "bs": [None, None, None],
                                                "depth": None}
                f = _factors(shape, t["dir"], threads, "total")
                out.append(measurement("throughput", t["bw"], t["unit"], f,
                                       f"fio {label}group {gid}: all {threads} jobs"))
    return out
