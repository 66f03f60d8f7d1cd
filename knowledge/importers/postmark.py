"""PostMark: the verbose report and the terse one (``set report terse``).

Units: transactions and file operations per second; data rates as PostMark scales them —
its "kilobytes", "megabytes" and "gigabytes" are 2^10, 2^20 and 2^30 bytes (KiB/s, MiB/s, GiB/s);
the terse report gives bytes per second (B/s).
"""

from __future__ import annotations

import re

from knowledge.importers.base import ImporterError, ParsedFile, is_number, measurement, number
from knowledge.userdb import SiteMeasurement

NAME = "postmark"
SCALE_UNITS = {"bytes": "B/s", "kilobytes": "KiB/s", "megabytes": "MiB/s", "gigabytes": "GiB/s"}
#: terse report fields, in order
TERSE = ("seconds_total", "seconds_transactions", "transactions_per_s", "created_per_s",
         "created_alone_per_s", "created_mixed_per_s", "read_per_s", "appended_per_s", "deleted_per_s",
         "deleted_alone_per_s", "deleted_mixed_per_s", "bytes_read_per_s", "bytes_written_per_s")
FILE_OPS = (("created", "file_create"), ("read", "file_read"), ("appended", "file_append"),
            ("deleted", "file_delete"))


def identify(text: str) -> float:
    """Confidence that ``text`` is a PostMark report."""
    head = text[:4096]
    if re.search(r"PostMark v\d", head):
        return 1.0
    if re.search(r"seconds of transactions \(\d+ per second\)", text[:16384]):
        return 0.8
    return 0.0


def parse(text: str, path: str = "") -> ParsedFile:
    """Parse every PostMark report of ``text`` (verbose or terse; a session may run several) into
    site measurements, each report with its own parameters."""
    warnings: list[str] = []
    config: dict = {}
    version = ""
    reports: list[dict] = []
    cur: dict | None = None

    heading: list[str] = ["", ""]  # a section heading after a ruler line, and one below it
    after_rule = False

    def new(line: int, terse: bool = False) -> dict:
        rep = {"line": line, "params": dict(config), "values": {}, "terse": terse,
               "section": " / ".join(h for h in heading if h)}
        reports.append(rep)
        return rep

    block = ""
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        while s.startswith("pm>"):
            s = s[3:].strip()
        if re.fullmatch(r"[=\-#*]{10,}", s):
            after_rule = True
            continue
        if s.endswith(":") and s not in ("Time:", "Files:", "Data:") and not line.startswith(("\t", "        ")) \
                and len(s) < 100 and not re.match(r"^(pm>|\d)", s):
            if after_rule:
                heading[:] = [s[:-1].strip(), ""]
            else:
                heading[1] = s[:-1].strip()
            after_rule = False
            continue
        if s:
            after_rule = False
        if m := re.search(r"PostMark v(\d+\.\d+\w*)", s):
            version = version or m.group(1)
        elif m := re.match(r"^Reading configuration from file '(.*)'", s):
            config["configuration_file"] = m.group(1)
        elif m := re.match(r"^The base number of files is (\d+)", s):
            config["files"] = int(m.group(1))
        elif m := re.match(r"^Transactions: (\d+)", s):
            config["transactions"] = int(m.group(1))
        elif m := re.match(r"^Files range between (.+) and (.+) in size", s):
            config["file_size_range"] = [m.group(1), m.group(2)]
        elif m := re.match(r"^Block sizes are: read=(.+), write=(.+)$", s):
            config["read_block"], config["write_block"] = m.group(1), m.group(2)
        elif s == "Time:":
            block = "Time"
            cur = new(n)
        elif s in ("Files:", "Data:"):
            block = s[:-1]
        elif cur is not None and (m := re.match(r"^(\d+) seconds total$", s)):
            cur["values"]["seconds_total"] = (number(m.group(1), path, line=n), "s")
        elif cur is not None and (m := re.match(r"^(\d+) seconds of transactions \((\d+(?:\.\d+)?) per second\)$", s)):
            cur["values"]["seconds_transactions"] = (number(m.group(1), path, line=n), "s")
            cur["values"]["transactions_per_s"] = (number(m.group(2), path, line=n), "tps")
        elif cur is not None and block == "Files" and (m := re.match(
                r"^(\d+) (created|read|appended|deleted) \((\d+(?:\.\d+)?) per second\)$", s)):
            cur["values"][f"{m.group(2)}_per_s"] = (number(m.group(3), path, line=n), "files/s")
        elif cur is not None and block == "Data" and (m := re.match(
                r"^([\d.]+) (\w+) (read|written) \(([\d.]+) (\w+) per second\)$", s)):
            unit = SCALE_UNITS.get(m.group(5))
            if unit is None:
                raise ImporterError(path, f"unknown data unit {m.group(5)!r}", line=n)
            key = "bytes_read_per_s" if m.group(3) == "read" else "bytes_written_per_s"
            cur["values"][key] = (number(m.group(4), path, line=n), unit)
        elif len(fields := s.split()) == len(TERSE) and all(is_number(f) for f in fields):
            rep = new(n, terse=True)
            units = ["s", "s", "tps"] + ["files/s"] * 8 + ["B/s", "B/s"]
            for key, f, unit in zip(TERSE, fields, units, strict=True):
                rep["values"][key] = (number(f, path, line=n, key=key), unit)
            cur, block = None, ""
    return _parsed(reports, version, warnings, path)


def _parsed(reports: list[dict], version: str, warnings: list[str], path: str) -> ParsedFile:
    """The parsed file of PostMark's ``reports``: the measurements of each report with a transaction
    rate (the others skipped, saying why)."""
    if not reports:
        raise ImporterError(path, "no PostMark results (neither the verbose 'Time:/Files:/Data:' blocks "
                                  "nor a terse line of 13 numbers)", line=1)
    if not version:
        warnings.append("no 'PostMark vX.Y' line: version unknown")
    out: list[SiteMeasurement] = []
    skipped: list[str] = []
    kept = []
    for k, rep in enumerate(reports):
        values, label = rep["values"], f"report {k + 1}" if len(reports) > 1 else "report"
        if "transactions_per_s" not in values:
            skipped.append(f"line {rep['line']}: PostMark {label} has no transaction rate ('seconds of "
                           "transactions (N per second)'): report skipped")
            continue
        if values.get("seconds_transactions", (10, ""))[0] < 10:
            warnings.append(f"line {rep['line']}: the transactions of {label} ran under 10 s: PostMark counts "
                            "whole seconds, so the rates are coarse; use more transactions")
        if not rep["terse"] and "bytes_written_per_s" not in values:
            warnings.append(f"line {rep['line']}: {label} ends before its 'Data:' block (truncated?): data "
                            "rates missing")
        where = f"{label}{', ' + rep['section'] if rep['section'] else ''}, line {rep['line']}"
        out += _measurements(values, rep["params"], "" if len(reports) == 1 and not rep["section"] else f" ({where})")
        kept.append({**rep["params"], "line": rep["line"], "report": "terse" if rep["terse"] else "verbose",
                     **({"section": rep["section"]} if rep["section"] else {})})
    if not out:
        raise ImporterError(path, "no transaction rate ('seconds of transactions (N per second)') in any "
                                  "PostMark report", key="transactions", line=reports[0]["line"])
    params = dict(kept[0]) if len(kept) == 1 else {"reports": kept, "report": kept[0]["report"]}
    fmt = f"postmark-{kept[0]['report']}" if len({r['report'] for r in kept}) == 1 else "postmark-mixed"
    return ParsedFile(NAME, version, params, out, warnings, path=path, format=fmt,
                      runs_found=len(reports), skipped=skipped)


def _measurements(values: dict[str, tuple[float, str]], params: dict, label: str = "") -> list[SiteMeasurement]:
    base: dict[str, object] = {"benchmark": "postmark"}
    if "files" in params:
        base["file_count"] = params["files"]
    out = [measurement("transaction_rate", *values["transactions_per_s"], dict(base, operation="transaction"),
                       f"PostMark transactions per second{label}")]
    for key, op in FILE_OPS:
        if f"{key}_per_s" in values:
            out.append(measurement("throughput", *values[f"{key}_per_s"], dict(base, operation=op),
                                   f"PostMark files {key} per second{label}"))
    for key, op in (("bytes_read_per_s", "read"), ("bytes_written_per_s", "write")):
        if key in values:
            out.append(measurement("throughput", *values[key], dict(base, operation=op),
                                   f"PostMark data {op} rate{label}"))
    if "seconds_total" in values:
        out.append(measurement("elapsed_time", *values["seconds_total"], dict(base, operation="total"),
                               f"PostMark run time{label}"))
    return out
