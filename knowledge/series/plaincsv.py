"""The plain utilisation CSV: ``vm, timestamp, cpu_pct, mem_pct[, iops, mbps]``, one sample per line,
in any order (by VM or by time). ``timestamp``: seconds since the epoch (milliseconds are recognised)
or ISO 8601; ``cpu_pct`` / ``mem_pct``: busy share of the VM's vCPUs / RAM in % (0-100).

Read as a stream of blocks with pyarrow's multi-threaded CSV parser (imported here only), so that 86
million samples pass in well under a minute without being held: each block goes onto the grid of
:class:`~knowledge.series.store.SeriesStore` and is dropped."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from knowledge.infra.errors import InputError
from knowledge.series.store import SeriesFile, SeriesStore

#: the columns, in the order the interface names them; the first four are required
COLUMNS = ("vm", "timestamp", "cpu_pct", "mem_pct", "iops", "mbps")
REQUIRED = COLUMNS[:4]
#: bytes parsed per block (the stream holds about two of them)
BLOCK_BYTES = 32 * 1024 * 1024
#: an epoch timestamp above this is in milliseconds
MS_ABOVE = 1e11


def header_of(first_line: str) -> list[str]:
    """The header's column names, lower-case and stripped."""
    return [h.strip().strip('"').strip().lower() for h in first_line.split(",")]


def looks_like(first_line: str) -> bool:
    """Whether the first line is this format's header (``vm``, ``timestamp`` and a metric column: the
    reader then names any required column it lacks)."""
    names = header_of(first_line)
    return "vm" in names and "timestamp" in names and any(c in names for c in COLUMNS[2:])


def _first_lines(path: Path) -> tuple[str, str]:
    with open(path, encoding="utf-8-sig", errors="replace", newline="") as fh:
        return fh.readline().rstrip("\r\n"), fh.readline().rstrip("\r\n")


def _types(path: Path, names: list[str], sample: str):
    """pyarrow column types: the VM name dictionary-encoded, numbers as float64 and the timestamp as
    a number or (ISO 8601) a timestamp, by the first data line."""
    import pyarrow as pa

    types = {"vm": pa.dictionary(pa.int32(), pa.string())}
    types.update({c: pa.float64() for c in COLUMNS[2:] if c in names})
    fields = sample.split(",")
    stamp = fields[names.index("timestamp")].strip().strip('"') if len(fields) == len(names) else ""
    try:
        float(stamp)
        types["timestamp"] = pa.float64()
    except ValueError:
        types["timestamp"] = pa.timestamp("s")
    return types


def _seconds(column) -> np.ndarray:
    """A timestamp column as float64 seconds since the epoch."""
    import pyarrow as pa

    if pa.types.is_timestamp(column.type):
        return column.cast(pa.int64()).to_numpy(zero_copy_only=False).astype(np.float64)
    ts = column.to_numpy(zero_copy_only=False).astype(np.float64)
    return ts / 1000.0 if len(ts) and np.nanmax(ts) > MS_ABOVE else ts


def _interval(batch) -> float | None:
    """The step of a batch: the median gap between a VM's consecutive timestamps (None: no VM has two)."""
    codes = batch.column("vm").indices.to_numpy(zero_copy_only=False)
    ts = _seconds(batch.column("timestamp"))
    order = np.lexsort((ts, codes))
    same = codes[order][1:] == codes[order][:-1]
    gaps = np.diff(ts[order])[same]
    gaps = gaps[gaps > 0]
    return float(np.median(gaps)) if len(gaps) else None


class _Reader:
    """One CSV file streamed onto the store."""

    def __init__(self, path: Path, store: SeriesStore):
        self.path, self.store = path, store
        self.rows_before = 0
        self.names: dict[str, int] = {}
        self.seen_rows: set[int] = set()
        self.file = SeriesFile(str(path), "series-csv")

    def where(self, base: int):
        return lambda i: f"{self.path}: line {base + i + 2}"

    def read(self) -> SeriesFile:
        import pyarrow as pa
        from pyarrow import csv

        first, sample = _first_lines(self.path)
        names = header_of(first)
        missing = [c for c in REQUIRED if c not in names]
        if missing:
            raise InputError(f"{self.path}: line 1: the header lacks {', '.join(missing)} (a series CSV has "
                             f"{', '.join(REQUIRED)}[, iops, mbps])")
        used = [c for c in COLUMNS if c in names]
        self.file.metrics = [c for c in used if c not in ("vm", "timestamp")]
        opts = csv.ReadOptions(block_size=BLOCK_BYTES, column_names=names, skip_rows=1, encoding="utf8")
        conv = csv.ConvertOptions(column_types=_types(self.path, names, sample), include_columns=used,
                                  strings_can_be_null=False, quoted_strings_can_be_null=False)
        pending: list = []
        try:
            with csv.open_csv(self.path, read_options=opts, convert_options=conv) as stream:
                for batch in stream:
                    pending.append((batch, self._rows(batch)))
                    self.rows_before += batch.num_rows
                    if not self.file.interval_s:
                        step = _interval(batch)
                        if step is None:
                            continue
                        self.file.interval_s = step
                        self.store.set_interval(step, str(self.path))
                    for b, (rows, base) in pending:
                        self._batch(b, rows, base)
                    pending = []
        except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeDecodeError) as exc:
            raise InputError(_located(self.path, names, exc)) from exc
        if pending:
            raise InputError(f"{self.path}: no sampling interval: every sample has the same timestamp")
        if not self.file.samples:
            raise InputError(f"{self.path}: no samples after the header")
        self.file.vms = len(self.seen_rows)
        return self.file

    def _rows(self, batch) -> tuple[np.ndarray, int]:
        """The store rows of a batch's VMs (every name joined, or InputError) and its first row."""
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
        self.seen_rows.update(np.unique(lookup).tolist())
        return lookup[index], self.rows_before

    def _batch(self, batch, rows: np.ndarray, base: int) -> None:
        ts = _seconds(batch.column("timestamp"))
        bad = np.flatnonzero(np.isnan(ts))
        if len(bad):
            raise InputError(f"{self.where(base)(int(bad[0]))}, field timestamp: empty")
        for metric in self.file.metrics:
            values = batch.column(metric).to_numpy(zero_copy_only=False)
            self.store.add(metric, rows, ts, values, str(self.path), self.where(base), metric)
        self.file.samples += batch.num_rows


def _located(path: Path, names: list[str], exc: BaseException) -> str:
    """pyarrow's complaint with the file's line and field: the first line whose field count is wrong
    or whose number does not parse (looked up again, on this error path only)."""
    import csv
    import re

    m = re.search(r"column #(\d+)", str(exc))
    column = int(m.group(1)) if m else None
    with open(path, encoding="utf-8", errors="replace", newline="") as fh:
        for n, row in enumerate(csv.reader(fh), start=1):
            if n == 1:
                continue
            if len(row) != len(names):
                return f"{path}: line {n}: {len(row)} fields where the header has {len(names)} (a cut line?)"
            for i, name in enumerate(names):
                if name in ("vm", "timestamp") or (column is not None and i != column):
                    continue
                try:
                    float(row[i]) if row[i].strip() else None
                except ValueError:
                    return f"{path}: line {n}, field {name}: {row[i][:40]!r} is not a number"
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return f"{path}: {text}"


def read_csv(path: Path, store: SeriesStore) -> SeriesFile:
    """Stream one series CSV onto ``store``; InputError naming file, line and field."""
    return _Reader(Path(path), store).read()
