"""One sheet of a collector's workbook, or one CSV file, read by the columns its collector
declares (:mod:`knowledge.inventory.collectors`): headers matched after normalisation, units
converted into the model's, and every problem naming the file, sheet, row and column.

A file that cannot be read as a whole (a required column missing, a column in another unit than
the collector writes, a VM's memory so small it can only be in another unit, a percentage over
100, the same VM listed twice) is an :class:`InputError`; a row with an unreadable cell is a
:class:`RowError`, left out with a warning by the caller.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from knowledge.infra.errors import InputError
from knowledge.inventory.collectors import PERF_STATS, Col, Collector, Table
from knowledge.inventory.common import (
    MAX_NAME_CHARS,
    RowError,
    fraction_fields,
    fraction_note,
    listing,
    norm_header,
    parse_bool,
    parse_number,
)
from knowledge.inventory.model import VM, Host

#: a VM's memory below this (MiB) is taken for a number in another unit (GB typed into an MB column)
MIN_VM_RAM_MIB = 32
#: power states as collectors print them (vSphere ``poweredOn``, Nutanix ``kOn``/``on``)
POWER = {"poweredon": True, "on": True, "kon": True, "running": True, "poweredoff": False, "off": False,
         "koff": False, "suspended": False, "stopped": False, "kpaused": False, "paused": False}

#: a unit in a header: ``(MiB)``, ``(In GB)``, `` MiB`` at the end, ``...SizeInMB``
_UNIT = re.compile(r"\(\s*(?:in\s+)?(bytes|[kmgtp]i?b|[kmg]hz|%)\s*\)|(?:\b|(?<=[a-z])in)([kmgtp]i?b)\s*$", re.I)


def stem(header: str) -> str:
    """A header without its unit, normalised (``*Memory (In GB)`` -> ``memory``)."""
    return norm_header(_UNIT.sub("", header))


def unit_of(header: str) -> str:
    m = _UNIT.search(header)
    return (m.group(1) or m.group(2)) if m else ""


@dataclass
class Found:
    col: Col
    index: int
    header: str  # as the file prints it


class Sheet:
    """The columns of one table found in its header row, and its cells converted."""

    def __init__(self, where: str, collector: Collector, table: Table, header: list[str]):
        self.where, self.title, self.name, self.table = where, collector.title, collector.name, table
        self.header = [str(h or "").strip() for h in header]
        self.found: dict[str, list[Found]] = {}
        self.pct_scale: dict[int, float] = {}  # column index -> x 100 for a percentage column of 0-1 fractions
        keys = [norm_header(h) for h in self.header]
        for col in table.columns:
            pattern = _numbered(col.header)
            for i, key in enumerate(keys):
                if (pattern.fullmatch(key) if pattern else key == norm_header(col.header)) and key:
                    self.found.setdefault(col.field, []).append(Found(col, i, self.header[i]))
        self._check_units()
        missing = [f for f in table.required if f not in self.found]
        if missing:
            raise InputError(f"{self.lead()} has no column {self._accepted(missing[0])}; its columns are: "
                             f"{listing(self.header, 20) or 'none'}")

    def lead(self) -> str:
        return f"{self.where}: {self.title}: " + (f"sheet {self.table.sheet}" if self.table.sheet else "the file")

    def at(self, row: int, found: Found | None = None) -> str:
        place = f"sheet {self.table.sheet}, row {row}" if self.table.sheet else f"line {row}"
        return f"{self.where}: {place}" + (f", column {found.header!r}" if found else "")

    def _accepted(self, field: str) -> str:
        return " nor ".join(repr(c.header) for c in self.table.cols(field))

    def _check_units(self) -> None:
        """A column the collector writes in one unit, found in another (``Memory (In GB)`` where the
        template has ``*Memory (In MB)``): refused, naming both, before any number is misread."""
        for col in self.table.columns:
            if col.scale is None or not col.unit or col.field in self.found:
                continue
            for h in self.header:
                if stem(h) == stem(col.header) and unit_of(h).lower() != col.unit.lower() and unit_of(h):
                    raise InputError(f"{self.lead()}, column {h!r}: gives {col.field.split('_')[0]} in "
                                     f"{unit_of(h)}, but {self.name} writes it in {col.unit} as "
                                     f"{col.header!r}; convert the column to {col.unit} and name it so")

    def pct_columns(self) -> list[Found]:
        return [f for found in self.found.values() for f in found if f.col.unit == "%"]

    def scan_fractions(self, rows: list) -> list[str]:
        """Find the percentage columns written as 0-1 fractions in ``rows`` (``(row, cells)``, the whole
        table): they are read x 100 from now on; one warning per column, naming file, sheet and column."""
        tops: dict[int, float] = {}
        pcts = self.pct_columns()
        for _row, cells in rows:
            for f in pcts:
                try:
                    x = parse_number(cells.get(f.index))
                except ValueError:
                    continue  # refused, naming its row, when the row is read
                if x is not None:
                    tops[f.index] = max(tops.get(f.index, 0.0), x)
        self.pct_scale = {i: 100.0 for i in fraction_fields(tops)}
        place = f"sheet {self.table.sheet}, " if self.table.sheet else ""
        return [fraction_note(f"{self.where}: {place}column {f.header!r}", tops[f.index])
                for f in pcts if f.index in self.pct_scale]

    # --- cells ------------------------------------------------------------------------------
    def _cells(self, cells, field: str):
        for f in self.found.get(field, ()):
            v = cells.get(f.index)
            if isinstance(v, str):
                v = v.strip()
            if v not in (None, ""):
                yield f, v

    def text(self, cells, field: str) -> str:
        for _f, v in self._cells(cells, field):
            return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)
        return ""

    def number(self, cells, field: str, row: int) -> float | None:
        """The field's number in the model's unit (numbered columns summed), checked against the
        column's range; None when the row leaves it blank."""
        total: float | None = None
        for f, v in self._cells(cells, field):
            try:
                x = parse_number(v)
            except ValueError as exc:
                why = str(exc) if any(w in str(exc) for w in ("finite", "beyond", "fits")) else f"{v!r} is not a number"
                raise RowError(f"{self.at(row, f)}: {why}") from None
            if x is None:
                continue
            if not f.col.low <= x <= f.col.high:
                unit = f" {f.col.unit}" if f.col.unit else ""
                err = InputError if f.col.unit == "%" else RowError
                raise err(f"{self.at(row, f)}: {x:g}{unit} is outside {f.col.low:g}-{f.col.high:g}{unit}")
            total = (total or 0.0) + x * (f.col.scale or 1.0) * self.pct_scale.get(f.index, 1.0)
            if "{n}" not in f.col.header:
                break
        return total

    def used(self, cells, field: str) -> Found | None:
        """The column a row's value of ``field`` came from."""
        return next((f for f, _v in self._cells(cells, field)), None)

    def named(self, cells, field: str) -> str:
        """The collector and column a row's value of ``field`` came from (``Azure Migrate 'CPU
        utilization percentage'``), for the summary to name its source."""
        f = self.used(cells, field)
        return f"{self.name} {f.header!r}" if f else ""

    def flag(self, cells, field: str, row: int) -> bool | None:
        for f, v in self._cells(cells, field):
            try:
                return parse_bool(v)
            except ValueError:
                raise RowError(f"{self.at(row, f)}: {v!r} is not true or false") from None
        return None


def _numbered(header: str) -> re.Pattern | None:
    if "{n}" not in header:
        return None
    before, after = header.split("{n}", 1)
    return re.compile(re.escape(norm_header(before)) + r"\d{1,3}" + re.escape(norm_header(after)))


# --- VMs and hosts ---------------------------------------------------------------------------
def vm_of(s: Sheet, cells, row: int, source: str, platform: str) -> VM | None:
    """The VM of one row (None for a row without a name)."""
    name = s.text(cells, "name")
    if not name:
        return None
    if len(name) > MAX_NAME_CHARS:
        raise RowError(f"{s.at(row, s.used(cells, 'name'))}: a name of {len(name):,} characters "
                       f"(at most {MAX_NAME_CHARS})")
    vcpus = s.number(cells, "vcpus", row)
    if vcpus is not None and vcpus != int(vcpus):
        raise RowError(f"{s.at(row, s.used(cells, 'vcpus'))}: {vcpus:g} is not a vCPU count (VM {name!r})")
    ram = s.number(cells, "ram_mib", row)
    if ram is not None and 0 < ram < MIN_VM_RAM_MIB:
        f = s.used(cells, "ram_mib")
        assert f is not None
        raise InputError(f"{s.at(row, f)}: VM {name!r} would have {ram:g} MiB of memory, less than any VM runs "
                         f"with: the column is in {f.col.unit} (is the file in GB? {ram:g} GB is "
                         f"{ram * 1024:g} MB)")
    power = s.text(cells, "power")
    consumed, mem_from = _consumed(s, cells, row, ram)
    cpu = s.number(cells, "cpu_usage_pct", row)
    pcts = {k: min(x, 100.0) for f, k in PERF_STATS.items() if (x := s.number(cells, f, row)) is not None}
    place = f"sheet {s.table.sheet}, row {row}" if s.table.sheet else f"line {row}"
    return VM(name=name, source=source, platform=platform, uid=s.text(cells, "uid"), moid=s.text(cells, "moid"),
              ips=s.text(cells, "ips"),
              where=place,
              vcpus=int(vcpus) if vcpus is not None else None, ram_mib=ram,
              disk_gb=s.number(cells, "disk_gb", row) or None, used_gb=s.number(cells, "used_gb", row) or None,
              powered_on=POWER.get(norm_header(power)) if power else None,
              template=bool(s.flag(cells, "template", row)), host=s.text(cells, "host"),
              cluster=s.text(cells, "cluster"), os=s.text(cells, "os"),
              cpu_usage_pct=cpu, cpu_from=s.named(cells, "cpu_usage_pct") if cpu is not None else "",
              cpu_pcts=pcts or None,
              mem_active_mib=s.number(cells, "mem_active_mib", row), mem_consumed_mib=consumed, mem_from=mem_from)


def _consumed(s: Sheet, cells, row: int, ram: float | None) -> tuple[float | None, str]:
    """A VM's memory in use (MiB) and the column(s) it was read from: a consumed/used column, else
    its memory usage % of its RAM."""
    consumed = s.number(cells, "mem_consumed_mib", row)
    if consumed is not None:
        return consumed, s.named(cells, "mem_consumed_mib")
    mem_pct = s.number(cells, "mem_usage_pct", row)
    if mem_pct is not None and ram:
        return mem_pct / 100.0 * ram, f"{s.named(cells, 'mem_usage_pct')} of {s.named(cells, 'ram_mib')}"
    return None, ""


def host_of(s: Sheet, cells, row: int, source: str) -> Host | None:
    """The host of one row (None for a row without a name); cores and threads may be given as
    totals, per socket or per core."""
    name = s.text(cells, "name")
    if not name:
        return None
    sockets, cores = s.number(cells, "sockets", row), s.number(cells, "cores", row)
    per, threads = s.number(cells, "cores_per_socket", row), s.number(cells, "threads", row)
    if cores and sockets and not per:
        per = cores / sockets
    if cores and not sockets:
        sockets, per = 1, cores
    total = cores or ((sockets or 0) * (per or 0))
    return Host(name=name, source=source, cluster=s.text(cells, "cluster"), cpu_model=s.text(cells, "cpu_model"),
                sockets=int(sockets) if sockets else None, cores_per_socket=int(round(per)) if per else None,
                threads_per_core=max(1, int(round(threads / total))) if threads and total else None,
                ghz=s.number(cells, "ghz", row) or None, ram_mib=s.number(cells, "ram_mib", row) or None,
                cpu_usage_pct=s.number(cells, "cpu_usage_pct", row),
                mem_usage_pct=s.number(cells, "mem_usage_pct", row), hypervisor=s.text(cells, "hypervisor"))


def check_unique(s: Sheet, seen: dict[str, tuple[int, str]], name: str, uid: str, row: int, what: str) -> None:
    """The same VM or host listed twice in one table (same name, and no id that tells them apart)
    would be counted twice: refused, naming both rows."""
    key = name.lower()
    if key in seen:
        first, first_uid = seen[key]
        if not (uid and first_uid and uid != first_uid):
            raise InputError(f"{s.lead()}: {what} {name!r} is listed twice, in rows {first} and {row} (column "
                             f"{s.found['name'][0].header!r}); remove the duplicate row or give each its own id")
    seen[key] = (row, uid)
