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
    reader = _Reader(path)
    for n, line in enumerate(text.splitlines(), 1):
        reader.read(n, line)
    reports, version = reader.reports, reader.version
    if not reports:
        raise ImporterError(path, "no PostMark results (neither the verbose 'Time:/Files:/Data:' blocks "
                                  "nor a terse line of 13 numbers)", line=1)
    if not version:
        warnings.append("no 'PostMark vX.Y' line: version unknown")
    out, skipped, kept = _collect(reports, warnings)
    if not out:
        raise ImporterError(path, "no transaction rate ('seconds of transactions (N per second)') in any "
                                  "PostMark report", key="transactions", line=reports[0]["line"])
    params = dict(kept[0]) if len(kept) == 1 else {"reports": kept, "report": kept[0]["report"]}
    fmt = f"postmark-{kept[0]['report']}" if len({r['report'] for r in kept}) == 1 else "postmark-mixed"
    return ParsedFile(NAME, version, params, out, warnings, path=path, format=fmt,
                      runs_found=len(reports), skipped=skipped)


class _Reader:
    """Reads a PostMark session line by line: the configuration so far, the section headings, and
    every report (``{"line", "params", "values", "terse", "section"}``) with the values read."""

    def __init__(self, path: str):
        self.path = path
        self.config: dict = {}
        self.version = ""
        self.reports: list[dict] = []
        self.cur: dict | None = None
        self.heading: list[str] = ["", ""]  # a section heading after a ruler line, and one below it
        self.after_rule = False
        self.block = ""

    def new(self, line: int, terse: bool = False) -> dict:
        rep = {"line": line, "params": dict(self.config), "values": {}, "terse": terse,
               "section": " / ".join(h for h in self.heading if h)}
        self.reports.append(rep)
        return rep

    def read(self, n: int, line: str) -> None:
        s = line.strip()
        while s.startswith("pm>"):
            s = s[3:].strip()
        if re.fullmatch(r"[=\-#*]{10,}", s):
            self.after_rule = True
            return
        if s.endswith(":") and s not in ("Time:", "Files:", "Data:") and not line.startswith(("\t", "        ")) \
                and len(s) < 100 and not re.match(r"^(pm>|\d)", s):
            if self.after_rule:
                self.heading[:] = [s[:-1].strip(), ""]
            else:
                self.heading[1] = s[:-1].strip()
            self.after_rule = False
            return
        if s:
            self.after_rule = False
        if not self._setting(s):
            self._result(n, s)

    def _setting(self, s: str) -> bool:
        """The version or a configuration line; False if ``s`` is neither."""
        config = self.config
        if m := re.search(r"PostMark v(\d+\.\d+\w*)", s):
            self.version = self.version or m.group(1)
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
        else:
            return False
        return True

    def _result(self, n: int, s: str) -> None:
        """A block heading (Time:, Files:, Data:), a result line of the current report, or a terse line."""
        path, cur, block = self.path, self.cur, self.block
        if s == "Time:":
            self.block = "Time"
            self.cur = self.new(n)
        elif s in ("Files:", "Data:"):
            self.block = s[:-1]
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
            rep = self.new(n, terse=True)
            units = ["s", "s", "tps"] + ["files/s"] * 8 + ["B/s", "B/s"]
            for key, f, unit in zip(TERSE, fields, units, strict=True):
                rep["values"][key] = (number(f, path, line=n, key=key), unit)
            self.cur, self.block = None, ""


def _collect(reports: list[dict], warnings: list[str]) -> tuple[list[SiteMeasurement], list[str], list[dict]]:
    """The measurements of every report with a transaction rate, the skipped reports, and the
    parameters of those kept."""
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
    return out, skipped, kept


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
