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
    """Parse a PostMark report (verbose or terse) into site measurements."""
    warnings: list[str] = []
    params: dict = {}
    version = ""
    values: dict[str, tuple[float, str]] = {}
    block = ""
    terse_line = None
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if m := re.search(r"PostMark v(\d+\.\d+\w*)", s):
            version = version or m.group(1)
        elif m := re.match(r"^Reading configuration from file '(.*)'", s):
            params["configuration_file"] = m.group(1)
        elif m := re.match(r"^The base number of files is (\d+)", s):
            params["files"] = int(m.group(1))
        elif m := re.match(r"^Transactions: (\d+)", s):
            params["transactions"] = int(m.group(1))
        elif m := re.match(r"^Files range between (.+) and (.+) in size", s):
            params["file_size_range"] = [m.group(1), m.group(2)]
        elif m := re.match(r"^Block sizes are: read=(.+), write=(.+)$", s):
            params["read_block"], params["write_block"] = m.group(1), m.group(2)
        elif s in ("Time:", "Files:", "Data:"):
            block = s[:-1]
        elif m := re.match(r"^(\d+) seconds total$", s):
            values["seconds_total"] = (number(m.group(1), path, line=n), "s")
        elif m := re.match(r"^(\d+) seconds of transactions \((\d+(?:\.\d+)?) per second\)$", s):
            values["seconds_transactions"] = (number(m.group(1), path, line=n), "s")
            values["transactions_per_s"] = (number(m.group(2), path, line=n), "tps")
        elif block == "Files" and (m := re.match(r"^(\d+) (created|read|appended|deleted) "
                                               r"\((\d+(?:\.\d+)?) per second\)$", s)):
            values[f"{m.group(2)}_per_s"] = (number(m.group(3), path, line=n), "files/s")
        elif block == "Data" and (m := re.match(r"^([\d.]+) (\w+) (read|written) \(([\d.]+) (\w+) per second\)$",
                                              s)):
            unit = SCALE_UNITS.get(m.group(5))
            if unit is None:
                raise ImporterError(path, f"unknown data unit {m.group(5)!r}", line=n)
            key = "bytes_read_per_s" if m.group(3) == "read" else "bytes_written_per_s"
            values[key] = (number(m.group(4), path, line=n), unit)
        elif len(fields := s.split()) == len(TERSE) and all(is_number(f) for f in fields):
            terse_line = n
            units = ["s", "s", "tps"] + ["files/s"] * 8 + ["B/s", "B/s"]
            for key, f, unit in zip(TERSE, fields, units, strict=True):
                values[key] = (number(f, path, line=n, key=key), unit)
    if not values:
        raise ImporterError(path, "no PostMark results (neither the verbose 'Time:/Files:/Data:' blocks "
                                  "nor a terse line of 13 numbers)", line=1)
    if "transactions_per_s" not in values:
        raise ImporterError(path, "no transaction rate ('seconds of transactions (N per second)')",
                            key="transactions")
    if not version:
        warnings.append("no 'PostMark vX.Y' line: version unknown")
    if values.get("seconds_transactions", (1, ""))[0] < 10:
        warnings.append("the transactions ran under 10 s: PostMark counts whole seconds, so the rates "
                        "are coarse; use more transactions")
    params["report"] = "terse" if terse_line else "verbose"
    if not terse_line and "bytes_written_per_s" not in values:
        warnings.append("the verbose report ends before its 'Data:' block (truncated?): data rates missing")
    return ParsedFile(NAME, version, params, _measurements(values), warnings, path=path,
                      format=f"postmark-{params['report']}")


def _measurements(values: dict[str, tuple[float, str]]) -> list[SiteMeasurement]:
    base = {"benchmark": "postmark"}
    out = [measurement("transaction_rate", *values["transactions_per_s"], dict(base, operation="transaction"),
                       "PostMark transactions per second")]
    for key, op in FILE_OPS:
        if f"{key}_per_s" in values:
            out.append(measurement("throughput", *values[f"{key}_per_s"], dict(base, operation=op),
                                   f"PostMark files {key} per second"))
    for key, op in (("bytes_read_per_s", "read"), ("bytes_written_per_s", "write")):
        if key in values:
            out.append(measurement("throughput", *values[key], dict(base, operation=op),
                                   f"PostMark data {op} rate"))
    if "seconds_total" in values:
        out.append(measurement("elapsed_time", *values["seconds_total"], dict(base, operation="total"),
                               "PostMark run time"))
    return out
