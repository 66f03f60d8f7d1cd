"""IOzone: the standard-output table, the throughput-mode summary ("Children see throughput"),
and the ``-R`` Excel-style report ("Excel output is below:").

Units: IOzone's kBytes are 1024 bytes, so "kBytes/sec" (and the older "KB/sec") is KiB/s; with
``-O`` the results are operations per second (``iops``). Record length is ``block_size`` (KiB), the
file size ``file_size`` (KiB). When a ``-R`` report is present it is used and the table (same
numbers) skipped. A 0 in a ``-R`` report is what IOzone prints for a test it did not finish
(an interrupted run prints its report with zeros): never a result, it is skipped with a warning, and a
file that holds nothing else is refused saying so.

Throughput mode (``-t N`` or ``-l/-u``): every "Children see throughput for N <test>" line is one
run, the aggregate of its N processes or threads (``statistic`` total). Each is labelled with the
settings of its own invocation (a file may hold several IOzone runs one after another, each after
its banner): the record size and per-process file size from "Each process writes a F kByte file in
R kByte records" (or "Record Size" / "File size set to"), ``direct_io`` from "O_DIRECT feature
enabled", the unit from the line itself. "Parent sees", the per-process min/max/avg lines, the CPU
utilization lines and the ``-R`` "Throughput report" block repeat or break down these figures and
are not imported separately.
"""

from __future__ import annotations

import re

from knowledge.importers.base import ImporterError, ParsedFile, fmt_level, is_number, measurement, number
from knowledge.userdb import SiteMeasurement

NAME = "iozone"

#: the table's columns in order -> (operation, access_pattern)
COLUMNS = (("write", "sequential"), ("rewrite", "sequential"), ("read", "sequential"),
           ("reread", "sequential"), ("read", "random"), ("write", "random"), ("read_backward", None),
           ("record_rewrite", None), ("stride_read", None), ("fwrite", "sequential"),
           ("frewrite", "sequential"), ("fread", "sequential"), ("freread", "sequential"))
HEADER_TOKENS = ("write", "rewrite", "read", "reread", "read", "write", "read", "rewrite", "read",
                 "fwrite", "frewrite", "fread", "freread")
#: -R report titles (lower case, without " report") -> column index
REPORTS = {"writer": 0, "re-writer": 1, "reader": 2, "re-reader": 3, "random read": 4, "random write": 5,
           "backward read": 6, "record rewrite": 7, "stride read": 8, "fwrite": 9, "re-fwrite": 10,
           "fread": 11, "re-fread": 12}
#: throughput-mode phrases ("Children see throughput for 4 <phrase>") -> (operation, access_pattern)
PHRASES = {"initial writers": COLUMNS[0], "rewriters": COLUMNS[1], "readers": COLUMNS[2], "re-readers": COLUMNS[3],
           "random readers": COLUMNS[4], "random writers": COLUMNS[5], "reverse readers": COLUMNS[6],
           "stride readers": COLUMNS[8], "fwriters": COLUMNS[9], "freaders": COLUMNS[11],
           "mixed workload": ("random_mix", "random"),  # -i 8: each child reads or writes at random
           "pwrite writers": ("pwrite", "sequential"), "pread readers": ("pread", "sequential"),
           "re-pwrite writers": ("repwrite", "sequential"), "re-pread readers": ("repread", "sequential"),
           "pwritev writers": ("pwritev", "sequential"), "preadv readers": ("preadv", "sequential")}
CHILDREN_RE = re.compile(r"^Children see throughput for\s+(\d+)\s+(.+?)\s*=\s*(\S+)\s+(kB/sec|KB/sec|ops/sec)")
EACH_RE = re.compile(r"^Each (?:process|thread) writes a (\d+) [kK]byte file in (\d+) [kK]byte records")


def identify(text: str) -> float:
    """Confidence that ``text`` is IOzone output."""
    head = text[:8192]
    if "Iozone: Performance Test of File I/O" in head:
        return 1.0
    if "Excel output is below" in text[:65536] or re.search(r'^\s*"(Writer|Reader|Re-writer|Random read) report"',
                                                            head, re.M):
        return 0.9
    if re.search(r"^\s*kB\s+reclen\s+write\b", head, re.M | re.I):
        return 0.9  # a table saved without IOzone's banner
    return 0.0


def parse(text: str, path: str = "") -> ParsedFile:
    """Parse IOzone output into site measurements."""
    warnings: list[str] = []
    reader = _Reader(path)
    for n, line in enumerate(text.splitlines(), 1):
        reader.read(n, line)
    params, skipped, excel, table = reader.params, reader.skipped, reader.excel, reader.table
    if reader.commands:
        params["command_line"] = reader.commands[0]
        if len(reader.commands) > 1:
            params["command_lines"] = reader.commands
    # a run: one (file size, record length) row of the table or of a -R report, one throughput-mode test
    runs = len({(k, size) for k, size, *_ in excel}) if excel else len(table)
    runs += len(reader.children) + len(skipped)
    excel = _drop_unfinished(excel, reader.titles, reader.interrupted, skipped, warnings)
    out = _measurements(table, excel, reader.children, reader.run["unit"], params, warnings)
    if not out and reader.interrupted is not None:
        raise ImporterError(path, "IOzone was interrupted here, before any test finished: its -R report holds "
                                  "only the zeros IOzone prints for unfinished tests, no result",
                            line=reader.interrupted)
    if not out:
        raise ImporterError(path, "no IOzone results (no 'kB reclen' table rows, 'Children see throughput' "
                                  "lines or -R report)", line=1)
    if not reader.version:
        warnings.append("no 'Version $Revision: ...' line: version unknown")
    return ParsedFile(NAME, reader.version, params, out, warnings, path=path, format="iozone",
                      runs_found=runs, skipped=skipped)


def _new_run() -> dict:
    """The settings of an invocation before its lines say otherwise."""
    return {"unit": ("KiB/s", "throughput"), "direct": None, "rec": None, "size": None}


class _Reader:
    """Reads IOzone output line by line: the settings of the invocation being read (reset by each
    banner), the table rows, the -R report values and the throughput-mode lines."""

    def __init__(self, path: str):
        self.path = path
        self.skipped: list[str] = []
        self.params: dict = {}
        self.commands: list[str] = []
        self.version = ""
        self.run: dict = _new_run()
        self.table: list[tuple[int, float, float, list[tuple[int, float]], dict]] = []
        self.excel: list[tuple[int, float, float, float, int]] = []
        self.titles: dict[int, str] = {}
        self.interrupted: int | None = None
        self.children: list[tuple[int, int, str, float, str, dict]] = []
        self.ends: list[int] | None = None
        self.report: int | None = None
        self.recs: list[float] = []
        self.in_excel = False

    def read(self, n: int, line: str) -> None:
        s = line.strip()
        if self._setting(n, s) or self._excel(n, s) or self._table(n, s, line):
            return
        if m := CHILDREN_RE.match(s):
            self.children.append((n, int(m.group(1)), m.group(2), number(m.group(3), self.path, line=n),
                                  m.group(4), dict(self.run)))
        elif s.startswith("iozone test complete"):
            self.ends = None

    def _setting(self, n: int, s: str) -> bool:
        """An interruption, a banner, the version, the command line or a setting of the run."""
        path, run = self.path, self.run
        if s.startswith("iozone: interrupted"):
            self.interrupted = n
        elif s.startswith("Iozone: Performance Test of File I/O"):
            self.run = _new_run()
        elif m := re.search(r"Version \$Revision: (\S+) \$", s):
            self.version = self.version or m.group(1)
        elif m := re.match(r"^Command line used: (.*)$", s):
            self.commands.append(m.group(1))
        elif s.startswith(("Output is in", "OPS Mode")):
            if "op" in s.split("Output is in", 1)[-1]:
                run["unit"] = ("ops/s", "iops")
        elif s.startswith("O_DIRECT feature enabled"):
            self.params["direct_io"] = True
            run["direct"] = "yes"
        elif m := re.match(r"^Throughput test with (\d+) (processes|process|threads|thread)\b", s):
            self.params["threads"] = int(m.group(1))
        elif m := EACH_RE.match(s):
            run["size"] = number(m.group(1), path, line=n, what="file size")
            run["rec"] = number(m.group(2), path, line=n, what="record size")
        elif m := re.match(r"^Record Size (\d+) [kK]B?\b", s):
            run["rec"] = number(m.group(1), path, line=n, what="record size")
        elif m := re.match(r"^File size set to (\d+) [kK]B?\b", s):
            run["size"] = number(m.group(1), path, line=n, what="file size")
        else:
            return False
        return True

    def _excel(self, n: int, s: str) -> bool:
        """A line of the -R report: its start, a report title, the record sizes or a row of values."""
        path = self.path
        if s.startswith("Excel output is below"):
            self.in_excel, self.ends = True, None
        elif m := re.match(r'^"(.+) report"$', s):
            if not self.in_excel:  # a -R report saved without its "Excel output is below" line
                self.in_excel, self.ends = True, None
            self.report = REPORTS.get(m.group(1).lower())
            if self.report is not None:
                self.titles[self.report] = m.group(1)
            if self.report is None:
                self.skipped.append(f"line {n}: unknown -R report {m.group(1)!r}: skipped")
            self.recs = []
        elif self.in_excel and self.report is not None and s.startswith('"') and not self.recs:
            self.recs = [number(t.strip('"'), path, line=n, what="record size") for t in s.split()]
        elif self.in_excel and self.report is not None and (m := re.match(r'^"(\d+)"\s*(.*)$', s)):
            size = number(m.group(1), path, line=n, what="file size")
            vals = m.group(2).split()
            if len(vals) > len(self.recs):
                raise ImporterError(path, f"{len(vals)} values for {len(self.recs)} record sizes", line=n)
            for rec, v in zip(self.recs, vals, strict=False):
                self.excel.append((self.report, size, rec, number(v, path, line=n), n))
        else:
            return False
        return True

    def _table(self, n: int, s: str, line: str) -> bool:
        """The table's header (its column ends) or one of its rows."""
        path = self.path
        if re.match(r"^kB\s+reclen\s", s, re.I):  # "KB  reclen" in IOzone 3.3xx
            tokens = s.split()[2:]
            if tuple(tokens) != HEADER_TOKENS[:len(tokens)]:
                raise ImporterError(path, f"unknown table columns {' '.join(tokens)[:60]!r}", line=n)
            self.ends = [m.end() for m in re.finditer(r"\S+", line)]
        elif self.ends is not None and s and all(is_number(t) for t in s.split()) and len(s.split()) >= 3:
            toks = [(m.group(), m.end()) for m in re.finditer(r"\S+", line)]
            size = number(toks[0][0], path, line=n, what="file size")
            rec = number(toks[1][0], path, line=n, what="record length")
            cols = self.ends[2:]
            row = []
            for tok, end in toks[2:]:
                k = min(range(len(cols)), key=lambda i: abs(cols[i] - end))
                row.append((k, number(tok, path, line=n)))
            self.table.append((n, size, rec, row, dict(self.run)))
        else:
            return False
        return True


def _drop_unfinished(excel, titles, interrupted, skipped, warnings):
    """The -R values without the zeros IOzone prints for tests it did not finish: a (report, file size)
    row of zeros only is a skipped run, single zeros in a row are dropped with a warning."""
    if not any(e[3] == 0 for e in excel):
        return excel
    why = (f"IOzone was interrupted (line {interrupted}) and" if interrupted is not None else "IOzone") + \
        " prints 0 for a test it did not finish"
    rows: dict[tuple[int, float], list] = {}
    for e in excel:
        rows.setdefault((e[0], e[1]), []).append(e)
    kept = []
    for (k, size), row in rows.items():
        zeros = [e for e in row if e[3] == 0]
        where = f"line {row[0][4]}: {titles.get(k, 'report')!r} report, file {fmt_level(size)} KiB"
        if len(zeros) == len(row):
            skipped.append(f"{where}: only 0 ({why}): skipped")
            continue
        if zeros:
            recs = ", ".join(fmt_level(e[2]) for e in zeros)
            warnings.append(f"{where}: 0 for record {recs} KiB ({why}): not imported")
        kept += [e for e in row if e[3] != 0]
    return kept


def _measurements(table, excel, children, unit_metric, params, warnings) -> list[SiteMeasurement]:
    out: list[SiteMeasurement] = []
    if excel:
        if table:
            warnings.append("the table and the -R report hold the same results: the -R report was used")
        unit, metric = unit_metric
        direct = "yes" if params.get("direct_io") else None
        for k, size, rec, value, _n in excel:
            op, pattern = COLUMNS[k]
            out.append(measurement(metric, value, unit, _f(op, pattern, rec, size, None, direct),
                                   f"IOzone {op} ({pattern or 'other'}), file {fmt_level(size)} KiB, record {fmt_level(rec)} KiB"))
    else:
        for _n, size, rec, row, run in table:
            unit, metric = run["unit"]
            for k, value in row:
                op, pattern = COLUMNS[k]
                out.append(measurement(metric, value, unit, _f(op, pattern, rec, size, None, run["direct"]),
                                       f"IOzone {op} ({pattern or 'other'}), file {fmt_level(size)} KiB, record {fmt_level(rec)} KiB"))
    for n, threads, phrase, value, u, run in children:
        known = PHRASES.get(" ".join(phrase.lower().split()))
        op, pattern = known or ("_".join(phrase.lower().split()), None)
        if known is None:
            warnings.append(f"line {n}: unknown throughput test {phrase!r}: kept as operation {op!r}")
        this_unit, this_metric = ("ops/s", "iops") if u == "ops/sec" else ("KiB/s", "throughput")
        f = _f(op, pattern, run["rec"], run["size"], threads, run["direct"])
        f["statistic"] = "total"
        where = "".join(f", {what} {fmt_level(v)} KiB" for what, v in (("record", run["rec"]), ("file per child", run["size"]))
                        if v is not None)
        out.append(measurement(this_metric, value, this_unit, f,
                               f"IOzone throughput mode: {threads} {phrase}, all children{where}"))
    return out


def _f(op, pattern, rec, size, threads, direct) -> dict:
    return {"benchmark": "iozone", "operation": op, "access_pattern": pattern, "block_size": rec,
            "file_size": size, "threads": threads, "direct_io": direct}
