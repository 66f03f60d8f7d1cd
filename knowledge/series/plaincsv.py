"""The plain utilisation CSV: ``vm, timestamp, cpu_pct, mem_pct[, iops, mbps]``, one sample per line,
in any order (by VM or by time). ``timestamp``: seconds since the epoch (milliseconds are recognised)
or ISO 8601 (``2026-11-01T00:05:00``, with ``Z`` or an offset such as ``+02:00`` converted to UTC; without
one read as UTC); ``cpu_pct`` / ``mem_pct``: busy share of the VM's vCPUs / RAM in % (0-100). A column
whose every value is at most 1 holds 0-1 fractions unless the other percent column passes 1 (one file is
written in one unit: :func:`knowledge.inventory.common.fraction_fields`, the collectors' rule): it is
read again x 100 and the file gets a note naming the column (:func:`knowledge.inventory.common.fraction_note`). VMs the inventory lacks are skipped with a note
(none known: refused); both are the file's ``warnings``.

Read as a stream of blocks with pyarrow's multi-threaded CSV parser (imported here only), so that 86
million samples pass in well under a minute without being held: each block goes onto the grid of
:class:`~knowledge.series.store.SeriesStore` and is dropped."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from knowledge.infra.errors import InputError
from knowledge.inventory.common import fraction_fields, fraction_note
from knowledge.series.store import PERCENT, SeriesFile, SeriesStore, Where, shifted

#: the columns, in the order the interface names them; the first four are required
COLUMNS = ("vm", "timestamp", "cpu_pct", "mem_pct", "iops", "mbps")
REQUIRED = COLUMNS[:4]
#: bytes parsed per block (the stream holds about two of them)
BLOCK_BYTES = 8 * 1024 * 1024
#: an epoch timestamp above this is in milliseconds
MS_ABOVE = 1e11
#: an ISO 8601 timestamp that ends in a zone (``Z``, ``+02:00``, ``-0500``)
ZONE = r"[Tt ][0-9:.]+(Z|z|[+-]\d\d(:?\d\d)?)$"


def separator(first_line: str) -> str:
    """The header's field separator: ``,``, or ``;`` (a spreadsheet saved in a locale whose decimal
    point is a comma) when the line has no comma but semicolons."""
    return ";" if ";" in first_line and "," not in first_line else ","


def header_of(first_line: str) -> list[str]:
    """The header's column names, lower-case and stripped."""
    return [h.strip().strip('"').strip().lower() for h in first_line.split(separator(first_line))]


def looks_like(first_line: str) -> bool:
    """Whether the first line is this format's header (``vm``, ``timestamp`` and a metric column: the
    reader then names any required column it lacks)."""
    names = header_of(first_line)
    return "vm" in names and "timestamp" in names and any(c in names for c in COLUMNS[2:])


def _first_lines(path: Path) -> tuple[str, str]:
    with open(path, encoding="utf-8-sig", errors="replace", newline="") as fh:
        return fh.readline().rstrip("\r\n"), fh.readline().rstrip("\r\n")


def _types(path: Path, names: list[str], sample: str, sep: str = ","):
    """pyarrow column types: the VM name dictionary-encoded, numbers as float64 and the timestamp as
    a number or (ISO 8601, parsed per batch by :func:`_seconds`) a string, by the first data line."""
    import pyarrow as pa

    types = {"vm": pa.dictionary(pa.int32(), pa.string())}
    types.update({c: pa.float64() for c in COLUMNS[2:] if c in names})
    fields = sample.split(sep)
    stamp = fields[names.index("timestamp")].strip().strip('"') if len(fields) == len(names) else ""
    try:
        float(stamp)
        types["timestamp"] = pa.float64()
    except ValueError:
        types["timestamp"] = pa.string()
    return types


def _seconds(column, where: Where) -> tuple[np.ndarray, bool]:
    """A timestamp column as float64 seconds since the epoch (ISO 8601 text: UTC, an offset converted),
    and whether any of its timestamps is ISO 8601 without a zone (local time, maybe: read as UTC);
    InputError naming the line of the first timestamp that is neither."""
    import pyarrow as pa

    if not pa.types.is_string(column.type):
        ts = column.to_numpy(zero_copy_only=False).astype(np.float64)
        return (ts / 1000.0 if len(ts) and np.nanmax(ts) > MS_ABOVE else ts), False
    import pyarrow.compute as pc

    zoned = pc.match_substring_regex(column, ZONE).to_numpy(zero_copy_only=False)
    out = np.empty(len(column), dtype=np.float64)
    for mask, kind in ((zoned, pa.timestamp("ms", tz="UTC")), (~zoned, pa.timestamp("ms"))):
        if mask.any():
            part = column.filter(pa.array(mask)) if not mask.all() else column
            try:
                out[mask] = part.cast(kind).cast(pa.int64()).to_numpy(zero_copy_only=False) / 1000.0
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
                raise InputError(_bad_stamp(column, mask, kind, where)) from None
    return out, not zoned.all()


def _bad_stamp(column, mask: np.ndarray, kind, where: Where) -> str:
    """Where the first timestamp of ``column[mask]`` that does not parse as ``kind`` sits (error path only)."""
    import pyarrow as pa

    for i in np.flatnonzero(mask):
        text = column[int(i)].as_py()
        try:
            pa.array([text]).cast(kind)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            what = "empty" if not text.strip() else f"{text[:40]!r} is not a timestamp"
            return (f"{where(int(i))}, field timestamp: {what} (ISO 8601 such as 2026-11-01T00:05:00Z, "
                    "or seconds since the epoch)")
    return f"{where(int(np.flatnonzero(mask)[0]))}, field timestamp: not a timestamp"


def _interval(batch, where: Where) -> float | None:
    """The step of a batch: the median gap between a VM's consecutive timestamps (None: no VM has two)."""
    codes = batch.column("vm").indices.to_numpy(zero_copy_only=False)
    ts, _local = _seconds(batch.column("timestamp"), where)
    order = np.lexsort((ts, codes))
    same = codes[order][1:] == codes[order][:-1]
    gaps = np.diff(ts[order])[same]
    gaps = gaps[gaps > 0]
    return float(np.median(gaps)) if len(gaps) else None


class _Reader:
    """One CSV file streamed onto the store; ``scale``: a factor per metric (100: the column holds
    0-1 fractions, found by a first pass)."""

    def __init__(self, path: Path, store: SeriesStore, scale: dict[str, float] | None = None):
        self.path, self.store = path, store
        self.scale = scale or {}
        self.rows_before = 0
        self.added = 0
        self.names: dict[str, int] = {}
        self.seen_rows: set[int] = set()
        self.top: dict[str, float] = {}
        self.file = SeriesFile(str(path), "series-csv")
        self.local = False  # some timestamps carry no zone (ISO 8601 read as UTC; local time skips and repeats hours)

    def where(self, base: int) -> Where:
        return lambda i: f"{self.path}: line {base + i + 2}"

    def read(self) -> SeriesFile:
        import pyarrow as pa

        names = self._header()
        pending: list = []
        try:
            for batch in self._stream(names):
                base = self.rows_before
                pending.append((batch, self._rows(batch)))
                self.rows_before += batch.num_rows
                if not self.file.interval_s:
                    step = _interval(batch, self.where(base))
                    if step is None:
                        continue
                    self.file.interval_s = step
                    self.store.set_interval(step, str(self.path))
                for b, (rows, base) in pending:
                    self._batch(b, rows, base)
                pending = []
        except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeDecodeError) as exc:
            raise InputError(_located(self.path, names, exc, self.sep, self.comma)) from exc
        if pending:
            raise InputError(f"{self.path}: no sampling interval: every sample has the same timestamp")
        if not self.rows_before:
            raise InputError(f"{self.path}: no samples after the header")
        self.file.vms = len(self.seen_rows)
        self.store.check_matched(self.file)
        note = self.store.repeat_note(str(self.path), local=self.local)
        if note:
            self.file.warnings.append(note)
        gap = self.store.gap_note(str(self.path), sorted(self.seen_rows), self.file.metrics[0], local=self.local)
        if gap:
            self.file.warnings.append(gap)
        if not _ends_a_line(self.path):
            self.file.warnings.append(f"line {self.rows_before + 1} (the last) has no line end: the file may be cut "
                                      "short (an export or copy that stopped); its series may end early")
        return self.file

    def _header(self) -> list[str]:
        first, self.sample = _first_lines(self.path)
        names = header_of(first)
        self.sep = separator(first)
        fields = self.sample.split(self.sep)
        self.comma = self.sep == ";" and any("," in f for f in fields[2:])  # decimal commas: 8,02
        if self.sep == ";":
            self.file.notes.append("fields separated by ';'" + (" with decimal commas" if self.comma else "")
                                   + " (a spreadsheet's CSV in a comma-decimal locale): read as such")
        missing = [c for c in REQUIRED if c not in names]
        if missing:
            raise InputError(f"{self.path}: line 1: the header lacks {', '.join(missing)} (a series CSV has "
                             f"{', '.join(REQUIRED)}[, iops, mbps])")
        self.file.metrics = [c for c in COLUMNS if c in names and c not in ("vm", "timestamp")]
        return names

    def _stream(self, names: list[str]):
        """The file's record batches (pyarrow's multi-threaded streaming parser)."""
        import pyarrow as pa
        from pyarrow import csv

        opts = csv.ReadOptions(block_size=BLOCK_BYTES, column_names=names, skip_rows=1, encoding="utf8")
        conv = csv.ConvertOptions(column_types=_types(self.path, names, self.sample, self.sep),
                                  include_columns=[c for c in COLUMNS if c in names],
                                  strings_can_be_null=False, quoted_strings_can_be_null=False,
                                  decimal_point="," if self.comma else ".")
        # the system allocator (not Arrow's caching one): each block's memory goes back when it is dropped
        with csv.open_csv(self.path, read_options=opts, convert_options=conv,
                          parse_options=csv.ParseOptions(delimiter=self.sep),
                          memory_pool=pa.system_memory_pool()) as stream:
            yield from stream

    def _rows(self, batch) -> tuple[np.ndarray, int]:
        """The store rows of a batch's VMs (-1: not in the inventory, skipped) and its first row."""
        vm = batch.column("vm")
        labels = vm.dictionary.to_pylist()
        index = vm.indices.to_numpy(zero_copy_only=False)
        todo = [s for s in labels if s not in self.names]
        if todo:
            where = self.where(self.rows_before)

            def first_line(name: str) -> str:
                return where(int(np.flatnonzero(index == labels.index(name))[0])).split(": ", 1)[1]

            for s, r in zip(todo, self.store.resolve(todo, str(self.path), first_line), strict=True):
                self.names[s] = int(r)
        lookup = np.array([self.names[s] for s in labels], dtype=np.int64)
        self.seen_rows.update(r for r in np.unique(lookup).tolist() if r >= 0)
        return lookup[index], self.rows_before

    def _batch(self, batch, rows: np.ndarray, base: int) -> None:
        where = self.where(base)
        ts, local = _seconds(batch.column("timestamp"), where)
        self.local |= local
        bad = np.flatnonzero(np.isnan(ts))
        if len(bad):
            raise InputError(f"{where(int(bad[0]))}, field timestamp: empty")
        known = np.flatnonzero(rows >= 0) if (rows < 0).any() else None
        if known is not None:
            rows, ts, where = rows[known], ts[known], shifted(where, known)
        for n, metric in enumerate(self.file.metrics):
            values = batch.column(metric).to_numpy(zero_copy_only=False)
            values = values[known] if known is not None else values
            if metric in PERCENT and len(values) and not np.isnan(values).all():
                self.top[metric] = max(self.top.get(metric, 0.0), float(np.nanmax(values)))
            values = values * self.scale[metric] if metric in self.scale else values
            self.added += self.store.add(metric, rows, ts, values, str(self.path), where, metric,
                                         repeats=n == 0 and not self.scale)
        self.file.samples += len(rows)


def _ends_a_line(path: Path) -> bool:
    """Whether the file's last byte ends a line (a file cut in the middle of a line does not)."""
    with open(path, "rb") as fh:
        fh.seek(0, 2)
        if fh.tell() == 0:
            return True
        fh.seek(-1, 2)
        return fh.read(1) in (b"\n", b"\r")


def _located(path: Path, names: list[str], exc: BaseException, sep: str = ",", comma: bool = False) -> str:
    """pyarrow's complaint as the file's line and field: the first line whose field count is wrong
    or whose number does not parse (looked up again, on this error path only); never pyarrow's text."""
    import csv
    import re

    m = re.search(r"column #(\d+)", str(exc))
    column = int(m.group(1)) if m else None
    with open(path, encoding="utf-8", errors="replace", newline="") as fh:
        for n, row in enumerate(csv.reader(fh, delimiter=sep), start=1):
            if n == 1:
                continue
            if len(row) != len(names):
                return f"{path}: line {n}: {len(row)} fields where the header has {len(names)} (a cut line?)"
            for i, name in enumerate(names):
                # the timestamp is a number only where pyarrow's complaint is about it (else it may be text)
                if name == "vm" or (column is not None and i != column) or (name == "timestamp" and column != i):
                    continue
                try:
                    float(row[i].replace(",", ".") if comma else row[i]) if row[i].strip() else None
                except ValueError:
                    return f"{path}: line {n}, field {name}: {row[i][:40]!r} is not a number" + (
                        " (the first line's timestamp is seconds since the epoch: give every timestamp in one form)"
                        if name == "timestamp" else "")
    where = f", field {names[column]}" if column is not None and column < len(names) else ""
    return f"{path}{where}: not readable as a series CSV ({', '.join(REQUIRED)}[, iops, mbps]: numbers in %)"


def read_csv(path: Path, store: SeriesStore) -> SeriesFile:
    """Stream one series CSV onto ``store``; InputError naming file, line and field. A percent column
    whose every value is at most 1 holds fractions: the file is read again with it x 100 (the same
    grid cells, overwritten) and noted."""
    first = _Reader(Path(path), store)
    file = first.read()
    fractions = {m: 100.0 for m in fraction_fields(first.top)}  # one table, one unit (as the collectors)
    if not fractions:
        return file
    store.samples -= first.added
    again = _Reader(Path(path), store, fractions)
    again.read()
    again.file.warnings += [fraction_note(f"field {m}", first.top[m]) for m in fractions]
    return again.file
