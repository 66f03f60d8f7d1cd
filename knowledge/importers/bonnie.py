"""bonnie++: the CSV line of 1.9x/2.x (``format_version,bonnie_version,...``) and of 1.03 (no
version prefix), and the human-readable table of both.

Units as bonnie++ writes them: K/sec is KiB/s (the 2.x table prints ``884k`` = KiB/s and ``415m`` =
MiB/s), seeks and file operations are per second, latencies (the maximum of each test) carry their
own unit (``9138us``, ``142ms``). ``+++++`` (too fast to measure) and empty fields (test not run)
yield no measurement; the first is reported as a warning.
"""

from __future__ import annotations

import re
from typing import Any

from knowledge.importers.base import ImporterError, ParsedFile, is_number, measurement, number, size_kib
from knowledge.userdb import SiteMeasurement

NAME = "bonnie++"

#: the six I/O tests in CSV/table order: (name, operation, access_pattern, metric)
IO_TESTS = (("putc", "write_per_char", "sequential", "throughput"),
            ("put_block", "write", "sequential", "throughput"),
            ("rewrite", "rewrite", "sequential", "throughput"),
            ("getc", "read_per_char", "sequential", "throughput"),
            ("get_block", "read", "sequential", "throughput"),
            ("seeks", "seek", "random", "iops"))
#: the six file-creation tests: (name, operation, access_pattern)
FILE_TESTS = (("seq_create", "file_create", "sequential"), ("seq_stat", "file_stat", "sequential"),
              ("seq_del", "file_delete", "sequential"), ("ran_create", "file_create", "random"),
              ("ran_stat", "file_stat", "random"), ("ran_del", "file_delete", "random"))
LAT_RE = re.compile(r"^(\d+(?:\.\d+)?)(ns|us|ms|s)$")
TOO_FAST = "+++++"


def identify(text: str) -> float:
    """Confidence that ``text`` is bonnie++ output (CSV line or table)."""
    head = text[:8192]
    if re.search(r"^Version\s+\S+\s+-+Sequential Output-+", head, re.M):
        return 1.0
    # the first result line, after at most a few lines of free text or comments (a preamble)
    candidates = [ln.strip() for ln in head.splitlines() if ln.strip() and not ln.startswith("name,")][:6]
    best = 0.0
    for k, line in enumerate(candidates):
        fields = line.split(",")
        if re.match(r"^1\.9\d\w*$", fields[0]) and len(fields) >= 20:
            return 0.95 if k == 0 else 0.9
        if len(fields) in (14, 27) or (14 <= len(fields) <= 27 and TOO_FAST in fields):
            if re.match(r"^\d+(\.\d+)?[KMGT]?$", fields[1]) and all(
                    f == "" or f.startswith("+++") or is_number(f) for f in fields[2:14]):
                best = max(best, 0.8 if k == 0 else 0.7)
    return best


def parse(text: str, path: str = "") -> ParsedFile:
    """Parse bonnie++ CSV lines and/or human-readable tables."""
    warnings: list[str] = []
    skipped: list[str] = []
    runs: list[dict] = []
    version = ""
    table_lines = []
    first_error: ImporterError | None = None
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("name,") or s.startswith("format_version,"):
            continue
        if s.startswith("#"):
            warnings.append(f"line {n}: comment ignored")
            continue
        if (s.count(",") >= 4 or re.match(r"^1\.9\d\w*,", s)) and not s.startswith("Version"):
            try:
                run = parse_csv_line(s, path, n)
            except ImporterError as exc:
                if _looks_like_result(s):
                    first_error = first_error or exc
                    skipped.append(f"line {n}: bonnie++ result line not readable ({exc.reason}): run skipped")
                else:
                    warnings.append(f"line {n}: not a bonnie++ result line (free text with commas): ignored")
                continue
            version = version or run["version"]
            runs.append(run)
        else:
            table_lines.append((n, line))
    if not runs and table_lines and not skipped:
        runs, version = parse_table(table_lines, path, warnings)
    elif runs and table_lines:
        warnings.append(f"both CSV lines and other text found (lines {table_lines[0][0]}...): the CSV lines "
                        "were used")
    if not runs:
        if first_error is not None:
            raise first_error
        raise ImporterError(path, "no bonnie++ CSV line or result table found", line=1)
    versions = sorted({r["format_version"] for r in runs if r.get("format_version")})
    if len(versions) > 1:
        warnings.append(f"CSV lines of several bonnie++ formats ({', '.join(versions)}): each read in its own")
    out: list[SiteMeasurement] = []
    too_fast = 0
    for i, run in enumerate(runs):
        subject = f"bonnie++ {run['name']}" + (f" run {i + 1}" if len(runs) > 1 else "")
        base = {"benchmark": "bonnie++", "threads": run.get("concurrency"), "file_size": run.get("size_kib"),
                "block_size": run.get("chunk_kib")}
        for (_test, op, pattern, metric), (value, unit) in zip(IO_TESTS, run["io"], strict=False):
            if value == TOO_FAST:
                too_fast += 1
            elif value is not None:
                out.append(measurement(metric, value, unit, {**base, "operation": op, "access_pattern": pattern},
                                       subject))
        for (_test, op, pattern), (value, unit) in zip(FILE_TESTS, run["files"], strict=False):
            if value == TOO_FAST:
                too_fast += 1
            elif value is not None:
                out.append(measurement("throughput", value, unit,
                                       {"benchmark": "bonnie++", "operation": op, "access_pattern": pattern,
                                        "threads": run.get("concurrency")}, subject))
        for test, lat in zip([t[0] for t in IO_TESTS] + [t[0] for t in FILE_TESTS], run["latency"],
                             strict=False):
            if lat is not None:
                op, pattern = _op_of(test)
                out.append(measurement("latency", lat[0], lat[1],
                                       {"benchmark": "bonnie++", "operation": op, "access_pattern": pattern,
                                        "statistic": "max", "threads": run.get("concurrency")}, subject))
    if too_fast:
        warnings.append(f"{too_fast} result(s) were '+++++' (too fast to measure: the test size was too "
                        "small); they were left out")
    params = {"runs": [{k: v for k, v in r.items() if k not in ("io", "files", "latency")} for r in runs]}
    return ParsedFile(NAME, version, params, out, warnings, path=path, format="bonnie",
                      runs_found=len(runs) + len(skipped), skipped=skipped)


def _looks_like_result(s: str) -> bool:
    """Whether a comma line that failed to parse is a (damaged) result line rather than free text:
    it starts with a 1.9x/2.x format version, or its second field is a size such as 8096M or 1G:32k."""
    f = s.split(",")
    return bool(re.match(r"^1\.9\d\w*$", f[0]) or (len(f) > 1 and re.match(r"^\d+[KMGT]?(:\d+\w*)?$", f[1])))


def _op_of(test: str) -> tuple[str, str]:
    for name, op, pattern, _ in IO_TESTS:
        if name == test:
            return op, pattern
    for name, op, pattern in FILE_TESTS:
        if name == test:
            return op, pattern
    raise KeyError(test)


def _rate(field: str, path: str, line: int, key: str, unit: str) -> tuple[object, str]:
    """A CSV rate field: (value, unit), (TOO_FAST, unit) or (None, unit) when empty."""
    field = field.strip()
    if not field:
        return None, unit
    if field.startswith("+++"):
        return TOO_FAST, unit
    return number(field, path, line=line, key=key), unit


def _latency(field: str, path: str, line: int, key: str) -> tuple[float, str] | None:
    field = field.strip()
    if not field or field.startswith("+++"):
        return None
    m = LAT_RE.match(field)
    if not m:
        raise ImporterError(path, f"expected a latency such as 9138us, found {field[:20]!r}", line=line, key=key)
    return number(m.group(1), path, line=line, key=key), m.group(2)


def parse_csv_line(s: str, path: str, n: int) -> dict:
    """One CSV result line of any bonnie++ version, as a run dict."""
    f = s.split(",")
    if re.match(r"^1\.9\d\w*$", f[0]):
        fmt = f[0]
        with_seeks = fmt >= "1.98"
        io_at = 9 if with_seeks else 7
        need = io_at + 12
        if len(f) < need:
            raise ImporterError(path, f"bonnie++ {fmt} CSV line has {len(f)} fields, expected at least {need}",
                                line=n)
        run: dict[str, Any] = {"format_version": fmt, "version": f[1], "name": f[2], "seed": f[4], "size": f[5],
               "chunk": f[6]}
        conc = f[3].strip()
        run["concurrency"] = int(number(conc, path, line=n, key="concurrency")) if conc else None
        file_at, create_at, lat_at = io_at + 12, io_at + 17, io_at + 29
    elif re.match(r"^\d+\.\d+\w*$", f[0]) and len(f) > 1 and re.match(r"^\d+\.\d+\w*$", f[1]):
        raise ImporterError(path, f"CSV line with format version {f[0]}: only the 1.9x/2.x layouts carry a "
                                  "version prefix (1.03 lines start with the machine name); a converted line "
                                  "is not read", line=n)
    else:
        if len(f) < 14:
            raise ImporterError(path, f"CSV line has {len(f)} fields; a bonnie++ 1.03 line has 14 or 27, "
                                      "a 1.9x/2.x line starts with its format version", line=n)
        run = {"format_version": "1.03", "version": "1.03", "name": f[0], "size": f[1], "chunk": ""}
        io_at, file_at, create_at, lat_at = 2, 14, 15, None
    size, _, chunk = run["size"].partition(":")
    run["size_kib"] = size_kib(size, default_unit="M") if size else None
    chunk = chunk or run["chunk"]
    run["chunk_kib"] = size_kib(chunk, default_unit="B") if chunk else None
    names = [t[0] for t in IO_TESTS]
    run["io"] = [_rate(f[io_at + 2 * k], path, n, names[k], "ops/s" if k == 5 else "KiB/s") for k in range(6)]
    run["file_test"] = ":".join(x for x in f[file_at:create_at] if x.strip()) if len(f) > file_at else ""
    fnames = [t[0] for t in FILE_TESTS]
    run["files"] = [_rate(f[create_at + 2 * k], path, n, fnames[k], "files/s") if len(f) > create_at + 2 * k
                    else (None, "files/s") for k in range(6)]
    run["latency"] = []
    if lat_at is not None:
        run["latency"] = [_latency(f[lat_at + k], path, n, f"{(names + fnames)[k]}_latency")
                          if len(f) > lat_at + k else None for k in range(12)]
    return run


def _table_value(tok: str, path: str, n: int, throughput: bool) -> tuple[object, str]:
    tok = tok.strip()
    if not tok:
        return None, "KiB/s" if throughput else "ops/s"
    if tok.startswith("+++"):
        return TOO_FAST, "KiB/s" if throughput else "ops/s"
    m = re.match(r"^(\d+(?:\.\d+)?)([kmg]?)$", tok)
    if not m:
        raise ImporterError(path, f"unexpected value {tok[:20]!r} in the result table", line=n)
    unit = {"": "KiB/s", "k": "KiB/s", "m": "MiB/s", "g": "GiB/s"}[m.group(2)] if throughput else "ops/s"
    return number(m.group(1), path, line=n), unit


def _columns(header: str) -> list[int]:
    """End positions of the 12 value columns of a table header line."""
    ends = [m.end() for m in re.finditer(r"\S+", header)]
    return ends[-12:]


def _split_row(line: str, ends: list[int], lead: int) -> tuple[list[str], list[str]]:
    """(leading tokens, 12 values) of a table row; blanks where a value is missing."""
    toks = [(m.group(), m.end()) for m in re.finditer(r"\S+", line)]
    if len(toks) == lead + 12:
        return [t for t, _ in toks[:lead]], [t for t, _ in toks[lead:]]
    values = [""] * 12
    head: list[str] = []
    first_start = ends[0] - 5 if ends else 0
    for tok, end in toks:
        if end <= first_start and len(head) < lead:
            head.append(tok)
            continue
        k = min(range(12), key=lambda i: abs(ends[i] - end)) if len(ends) == 12 else -1
        if 0 <= k < 12 and not values[k]:
            values[k] = tok
    return head, values


def parse_table(lines: list[tuple[int, str]], path: str, warnings: list[str]) -> tuple[list[dict], str]:
    """The runs of bonnie++'s human-readable table(s)."""
    runs: list[dict] = []
    version = ""
    mode = None
    ends: list[int] = []
    for n, line in lines:
        s = line.strip()
        if m := re.match(r"^Version\s+(\S+)", s):
            version = version or m.group(1)
            continue
        if s.startswith(("Machine", "Name:Size")):
            mode, ends = "io", _columns(line)
            continue
        if s.startswith("files"):
            mode, ends = "files", _columns(line)
            continue
        if s.startswith("-") or "Sequential" in s or re.search(r"-(Create|Per Chr)-", s):
            continue
        if s.startswith("Latency"):
            toks = s.split()[1:]
            if runs and len(toks) == 6:
                lat = [_latency(t, path, n, "latency") for t in toks]
                if mode == "files":
                    runs[-1]["latency"][6:12] = lat
                else:
                    runs[-1]["latency"][0:6] = lat
            elif toks:
                warnings.append(f"line {n}: latency row with missing values left out")
            continue
        if mode is None:  # progress lines before the table ("Writing intelligently...done")
            continue
        if mode == "io" and len(ends) == 12:
            head, vals = _split_row(line, ends, 2)
            name = head[0] if head else (runs[-1]["name"] if runs else "?")
            size_text = head[1] if len(head) > 1 else (runs[-1]["size"] if runs else "")
            size, _, chunk = size_text.partition(":")
            run = {"version": version, "name": name, "size": size_text, "concurrency": None,
                   "size_kib": size_kib(size, default_unit="M") if size else None,
                   "chunk_kib": size_kib(chunk, default_unit="B") if chunk else None,
                   "io": [_table_value(vals[2 * k], path, n, k < 5) for k in range(6)],
                   "files": [(None, "files/s")] * 6, "latency": [None] * 12}
            runs.append(run)
        elif mode == "files" and len(ends) == 12:
            head, vals = _split_row(line, ends, 1)
            files = [_table_value(vals[2 * k], path, n, False) for k in range(6)]
            files = [(v, "files/s") for v, _ in files]
            if runs and all(v is None for v, _ in runs[-1]["files"]):
                runs[-1]["files"] = files
                runs[-1]["file_test"] = head[0] if head else ""
            else:
                runs.append({"version": version, "name": "?", "size": "", "concurrency": None,
                             "io": [(None, "KiB/s")] * 6, "files": files, "latency": [None] * 12,
                             "file_test": head[0] if head else ""})
        else:
            raise ImporterError(path, f"unexpected line in a bonnie++ table: {s[:60]!r}", line=n)
    if runs and version >= "1.9":
        warnings.append("bonnie++ 1.9x/2.x tables round the rates (k/m suffixes) and can show other "
                        "file-creation figures than the CSV line; the CSV line is exact")
    return runs, version
