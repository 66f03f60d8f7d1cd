"""Where the readers put the samples: one dense grid per metric, a row per VM of the inventory and a
column per sampling step, kept as blocks of :data:`BLOCK` steps (allocated as the samples arrive).

Percentages are kept as ``uint16`` hundredths of a percent (0.01 % resolution, :data:`MISSING` for a
step without a sample): 10,000 VMs x 30 days of 5-minute samples are 173 MB per metric. IOPS and MB/s,
when a source gives them, are ``float32``. Every sample is joined to a VM by name when it is added;
every check names the file, the line (or entry) and the field."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from knowledge.infra.errors import InputError

#: the metrics a series may carry: CPU and memory busy (% of the VM's vCPUs / RAM), IOPS, MB/s
METRICS = ("cpu_pct", "mem_pct", "iops", "mbps")
PERCENT = ("cpu_pct", "mem_pct")
#: sampling steps per block of the grid
BLOCK = 1024
#: a step without a sample (percent metrics, in hundredths)
MISSING = np.uint16(65535)
#: a percentage may overshoot 100 by this much (rounding in the collector) and is then read as 100
PCT_SLACK = 0.5
#: a timestamp may sit this share of a step off the grid (collector jitter) and still be on it
GRID_SLACK = 0.05
#: the VM names the inventory lacks that a message lists (the rest are counted)
UNKNOWN_LISTED = 5

Where = Callable[[int], str]


def join_keys(name: str) -> list[str]:
    """The keys a name joins on, most exact first: as written, lower-case, without a ``:port``
    (Prometheus ``instance``), the short host name (before the first dot)."""
    name = name.strip()
    low = name.lower()
    v6 = re.fullmatch(r"\[([0-9a-f:.]+)\](:\d+)?", low)  # an IPv6 instance: [fd00::11]:9100
    bare = v6.group(1) if v6 else re.sub(r":\d+$", "", low) if low.count(":") == 1 else low
    short = bare.split(".")[0] if not re.fullmatch(r"[\d.]+", bare) and ":" not in bare else bare
    return list(dict.fromkeys([name, low, bare, short]))


def ip_list(text: str | None) -> list[str]:
    """The IP addresses of an inventory cell (several separated by spaces, commas or semicolons), lower-case."""
    return [ip for ip in re.split(r"[\s,;]+", (text or "").strip().lower()) if ip]


@dataclass
class SeriesFile:
    """One series file: its format and what it gave."""

    path: str
    format: str
    vms: int = 0
    samples: int = 0
    metrics: list[str] = field(default_factory=list)
    interval_s: float = 0.0
    notes: list[str] = field(default_factory=list)
    #: what the reader changed or skipped (VMs the inventory lacks, fractions read as %): shown as warnings
    warnings: list[str] = field(default_factory=list)


class SeriesStore:
    """The samples of every series file, joined to the inventory's VMs (``names``) by name."""

    def __init__(self, names: Sequence[str], ips: Sequence[str] | None = None):
        self.names = list(names)
        self._index: dict[str, int] = {}
        taken: dict[str, int] = {}
        for i, n in enumerate(self.names):
            for k in join_keys(n):
                taken[k] = taken.get(k, 0) + 1
                self._index.setdefault(k, i)
        # a key two VMs share (web.a and web.b -> web) joins neither of them
        self._index = {k: i for k, i in self._index.items() if taken[k] == 1 or k == self.names[i]}
        # a VM's IP addresses (for a series naming VMs by IP), where no name is that key and one VM has it
        owners: dict[str, set[int]] = {}
        for i, text in enumerate(ips or ()):
            for ip in ip_list(text):
                if ip not in taken:
                    owners.setdefault(ip, set()).add(i)
        self._index.update({ip: next(iter(rows)) for ip, rows in owners.items() if len(rows) == 1})
        #: an IP address several VMs give (it joins none of them): the VMs' names, for the message
        self.shared_ips = {ip: sorted(self.names[i] for i in rows) for ip, rows in owners.items() if len(rows) > 1}
        self.interval: float | None = None
        self.interval_from = ""
        self.t0: float | None = None
        self.blocks: dict[str, dict[int, np.ndarray]] = {m: {} for m in METRICS}
        self.files: list[SeriesFile] = []
        self.samples = 0
        #: per file, the VM names the inventory lacks -> where each is first named (their series are skipped)
        self.unmatched: dict[str, dict[str, str]] = {}
        #: per file, samples that fell on a step its VM already had (the later one kept) and where the first sits
        self.repeated: dict[str, list] = {}
        #: per file, its first and last step (the span its gaps are looked for in)
        self.spans: dict[str, list[int]] = {}
        self.lo: int | None = None   # the first and last step holding a sample
        self.hi: int | None = None

    # --- joining ---------------------------------------------------------------------------------
    def lookup(self, name: str) -> int:
        """The row of the VM called ``name`` (-1: the inventory has no such VM)."""
        for k in join_keys(name):
            i = self._index.get(k)
            if i is not None:
                return i
        return -1

    def resolve(self, labels: Sequence[str], path: str, first_line: Callable[[str], str]) -> np.ndarray:
        """Rows of ``labels`` (distinct names of one file), -1 for a name the inventory lacks (kept,
        with the first line naming it, for :meth:`check_matched`)."""
        rows = np.array([self.lookup(str(n)) for n in labels], dtype=np.int64)
        unknown = self.unmatched.setdefault(path, {})
        for n, r in zip(labels, rows, strict=True):
            if r < 0 and str(n) not in unknown:
                unknown[str(n)] = first_line(str(n))
        return rows

    def check_matched(self, file: SeriesFile) -> None:
        """After reading ``file``: InputError when none of its VMs is in the inventory (naming the
        first names and lines); otherwise a note naming the VMs skipped (a Prometheus answer often
        covers more VMs than one cluster's inventory)."""
        unknown = self.unmatched.get(file.path, {})
        if not unknown:
            return
        shown = "; ".join(f"{n!r} ({where})" for n, where in list(unknown.items())[:UNKNOWN_LISTED])
        more = f" and {len(unknown) - UNKNOWN_LISTED} more" if len(unknown) > UNKNOWN_LISTED else ""
        if not file.vms:
            known = ", ".join(self.names[:3]) + (", ..." if len(self.names) > 3 else "")
            raise InputError(f"{file.path}: none of its VMs is in the inventory ({len(unknown)} VM name(s): "
                             f"{shown}{more}); the series join the inventory's VMs by name ({known}); "
                             "give the inventory that lists them" + self._shared_hint(unknown) + _ip_hint(unknown))
        file.warnings.append(f"{len(unknown)} VM name(s) not in the inventory, their series skipped: {shown}{more}"
                             + self._shared_hint(unknown) + _ip_hint(unknown))

    def _shared_hint(self, names) -> str:
        """What to say of unmatched ``names`` that are an IP address several VMs of the inventory give."""
        hits = {k: self.shared_ips[k] for n in names for k in join_keys(n) if k in self.shared_ips}
        if not hits:
            return ""
        shown = "; ".join(f"{ip} is given by {', '.join(vms)}" for ip, vms in list(hits.items())[:UNKNOWN_LISTED])
        return f"; an IP address of more than one VM joins none of them ({shown})"

    # --- the grid --------------------------------------------------------------------------------
    def set_interval(self, interval: float, path: str) -> None:
        """The sampling step of ``path`` (s): the first file's sets it, every other must have it."""
        if not interval or interval <= 0:
            raise InputError(f"{path}: no sampling interval: every VM has a single timestamp")
        if self.interval is None:
            self.interval, self.interval_from = float(interval), path
        elif abs(interval - self.interval) > GRID_SLACK * self.interval:
            raise InputError(f"{path}: mixed intervals: samples every {interval:g} s, but {self.interval_from} "
                             f"every {self.interval:g} s; export every series at one step (e.g. 300 s)")

    def add(self, metric: str, rows: np.ndarray, ts: np.ndarray, values: np.ndarray, path: str,
            where: Where, field_name: str, repeats: bool = False) -> int:
        """Put one batch of samples on the grid (``where(i)``: file and line of sample ``i``);
        returns the samples kept (missing values are skipped). ``repeats``: count the samples that fall
        on a step their VM already has (:attr:`repeated`, :meth:`repeat_note`)."""
        values = np.asarray(values, dtype=np.float64)
        ok = ~np.isnan(values)
        if not ok.all():
            rows, ts, values = rows[ok], ts[ok], values[ok]
            where = shifted(where, np.flatnonzero(ok))
        if not len(values):
            return 0
        stored = self._checked(metric, values, where, field_name)
        slots = self._slots(np.asarray(ts, dtype=np.float64), path, where)
        if repeats:
            self._count_repeats(metric, rows, slots, path, where)
        span = self.spans.setdefault(path, [int(slots.min()), int(slots.max())])
        span[0], span[1] = min(span[0], int(slots.min())), max(span[1], int(slots.max()))
        self._put(metric, rows, slots, stored)
        self.samples += len(values)
        return len(values)

    def _checked(self, metric: str, values: np.ndarray, where: Where, field_name: str) -> np.ndarray:
        """The values as stored; InputError naming the first value in the wrong unit."""
        if metric in PERCENT:
            bad = np.flatnonzero((values < 0) | (values > 100 + PCT_SLACK))
            if len(bad):
                x = values[bad[0]]
                raise InputError(f"{where(int(bad[0]))}, field {field_name}: {x:g} is not a percentage (0-100)"
                                 + ("; MHz or bytes? give the share of the VM's vCPUs or RAM in %" if x > 100 else ""))
            return np.rint(np.minimum(values, 100.0) * 100.0).astype(np.uint16)
        bad = np.flatnonzero(values < 0)
        if len(bad):
            raise InputError(f"{where(int(bad[0]))}, field {field_name}: {values[bad[0]]:g} is negative")
        return values.astype(np.float32)

    def _slots(self, ts: np.ndarray, path: str, where: Where) -> np.ndarray:
        assert self.interval is not None
        if self.t0 is None:
            self.t0 = float(ts[0])
        rel = (ts - self.t0) / self.interval
        slots = np.rint(rel)
        off = np.flatnonzero(np.abs(rel - slots) > GRID_SLACK)
        if len(off):
            i = int(off[0])
            raise InputError(f"{where(i)}, field timestamp: {stamp(ts[i])} is not on the {self.interval:g} s grid of "
                             f"the other samples (mixed intervals or unaligned clocks; {self.interval_from} "
                             f"sets the step)")
        return slots.astype(np.int64)

    def _count_repeats(self, metric: str, rows: np.ndarray, slots: np.ndarray, path: str, where: Where) -> None:
        """Count the samples of a batch whose VM already has their step (on the grid, or earlier in the batch)."""
        taken = np.zeros(len(rows), dtype=bool)
        for b, grid in self.blocks[metric].items():
            sel = np.flatnonzero(slots // BLOCK == b)
            if len(sel):
                cell = grid[rows[sel], slots[sel] - b * BLOCK]
                taken[sel] = cell != MISSING if metric in PERCENT else ~np.isnan(cell)
        key = rows * (1 << 32) + slots
        _u, first = np.unique(key, return_index=True)
        again = np.ones(len(rows), dtype=bool)
        again[first] = False
        taken |= again
        if taken.any():
            i = int(np.flatnonzero(taken)[0])
            seen = self.repeated.setdefault(path, [0, ""])
            seen[0] += int(taken.sum())
            if not seen[1]:
                seen[1] = f"{where(i)}, {self.names[int(rows[i])]} at {stamp(self._time(int(slots[i])))}"

    def _time(self, slot: int) -> float:
        return (self.t0 or 0.0) + slot * (self.interval or 0.0)

    def repeat_note(self, path: str, *, local: bool) -> str | None:
        """The warning of a file with samples on a step their VM already had (None: none); ``local``: some
        of its timestamps carry no zone (only they can repeat an hour at a daylight-saving change)."""
        if path not in self.repeated:
            return None
        n, first = self.repeated[path]
        return (f"{n:,} sample(s) repeat a step their VM already has (first: {first}); the later one is kept: "
                + ("local time over a daylight-saving change, or the same data twice? give UTC timestamps (or an "
                   "offset such as +01:00)" if local else "the same data twice?"))

    def gap_note(self, path: str, rows: Sequence[int], metric: str, *, local: bool) -> str | None:
        """The warning of a file whose VMs (``rows``) all lack ``metric`` on some steps of its span:
        how many steps, the first run, that each VM's median fills them, and, for an hour missing at
        once, that local time skips one at the spring daylight-saving change (None: no such step).
        ``local``: some of the file's timestamps carry no zone (a zone or epoch seconds skip no hour)."""
        span = self.spans.get(path)
        if span is None or not len(rows) or not self.interval:
            return None
        lo, hi = span
        present = np.zeros(hi - lo + 1, dtype=bool)
        picked = np.sort(np.asarray(list(rows), dtype=np.int64))
        for b, grid in self.blocks[metric].items():
            s0, s1 = max(lo, b * BLOCK), min(hi, b * BLOCK + BLOCK - 1)
            for i in range(0, len(picked) if s0 <= s1 else 0, 1000):  # a thousand VMs at a time: little memory
                part = grid[picked[i:i + 1000], s0 - b * BLOCK:s1 - b * BLOCK + 1]
                present[s0 - lo:s1 - lo + 1] |= ((part != MISSING) if metric in PERCENT else ~np.isnan(part)).any(axis=0)
        if present.all():
            return None
        edges = np.diff(np.concatenate([[0], (~present).astype(np.int8), [0]]))
        starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
        hour = local and any(abs((e - a) * self.interval - 3600.0) < 1e-6 and _spring_hour(self._time(lo + int(a)))
                   for a, e in zip(starts, ends, strict=True))
        first, last = self._time(lo + int(starts[0])), self._time(lo + int(ends[0]) - 1)
        return (f"{int((~present).sum()):,} step(s) have no {metric} sample of any of its VMs (first: {stamp(first)}"
                + (f" to {stamp(last)}" if last > first else "") + "); each VM's median fills them"
                + ("; an hour missing at once, on a full hour in a month of spring clock changes: it may be local "
                   "time skipping one at the spring daylight-saving change; give UTC or an offset" if hour else ""))

    def _put(self, metric: str, rows: np.ndarray, slots: np.ndarray, values: np.ndarray) -> None:
        blocks = self.blocks[metric]
        first, last = int(slots.min()), int(slots.max())
        self.lo = first if self.lo is None else min(self.lo, first)
        self.hi = last if self.hi is None else max(self.hi, last)
        block = slots // BLOCK
        col = slots - block * BLOCK
        lo, hi = int(block.min()), int(block.max())
        for b in range(lo, hi + 1):
            sel = slice(None) if lo == hi else (block == b)
            if lo != hi and not sel.any():  # type: ignore[union-attr]
                continue
            grid = blocks.get(b)
            if grid is None:
                grid = blocks[b] = (np.full((len(self.names), BLOCK), MISSING, dtype=np.uint16) if metric in PERCENT
                                    else np.full((len(self.names), BLOCK), np.nan, dtype=np.float32))
            grid[rows[sel], col[sel]] = values[sel]

    # --- reading back ----------------------------------------------------------------------------
    @property
    def metrics(self) -> list[str]:
        return [m for m in METRICS if self.blocks[m]]

    @property
    def steps(self) -> int:
        """Sampling steps from the first sample to the last."""
        return 0 if self.lo is None or self.hi is None else self.hi - self.lo + 1

    def matrix(self, metric: str, rows: np.ndarray) -> np.ndarray:
        """``float32`` [len(rows), :attr:`steps`] of ``metric`` (NaN: no sample); percentages in %."""
        if self.lo is None or self.hi is None:
            return np.zeros((len(rows), 0), dtype=np.float32)
        lo, hi = self.lo // BLOCK, self.hi // BLOCK + 1
        parts = []
        for b in range(lo, hi):
            grid = self.blocks[metric].get(b)
            if grid is None:
                parts.append(np.full((len(rows), BLOCK), np.nan, dtype=np.float32))
                continue
            part = grid[rows]
            if metric in PERCENT:
                f = part.astype(np.float32) / np.float32(100.0)
                f[part == MISSING] = np.nan
                part = f
            parts.append(part)
        start = self.lo - lo * BLOCK
        return np.concatenate(parts, axis=1)[:, start:start + self.steps]

    def rows_with(self, metric: str) -> np.ndarray:
        """Rows (VMs) with at least one sample of ``metric``."""
        seen = np.zeros(len(self.names), dtype=bool)
        for grid in self.blocks[metric].values():
            seen |= (grid != MISSING).any(axis=1) if metric in PERCENT else (~np.isnan(grid)).any(axis=1)
        return np.flatnonzero(seen)

    def first_time(self) -> float:
        """The timestamp of the first step (s since the epoch)."""
        return (self.t0 or 0.0) + (self.lo or 0) * (self.interval or 0.0)


def _ip_hint(names) -> str:
    """What to do when the names a file gives are IP addresses (a Prometheus ``instance`` of a static target)."""
    if not any(re.fullmatch(r"\[?[\d.:a-fA-F]+\]?(:\d+)?", n) and re.search(r"\d+\.\d+|:.*:", n) for n in names):
        return ""
    return ("; they are IP addresses (Prometheus 'instance' of a static target): save the query with a label "
            "naming the VM (e.g. join node_uname_info's 'nodename': '... * on(instance) group_left(nodename) "
            "node_uname_info'), or relabel 'instance' to the VM's name")


#: the months a spring daylight-saving change falls in: March/April in the north, September/October in the south
SPRING_MONTHS = (3, 4, 9, 10)


def _spring_hour(seconds: float) -> bool:
    """Whether an hour missing from ``seconds`` (naive local time read as UTC) can be a spring daylight-saving
    change: it starts on a full hour, in a month such a change falls in."""
    from datetime import UTC, datetime

    t = datetime.fromtimestamp(float(seconds), UTC)
    return t.month in SPRING_MONTHS and t.minute == 0 and t.second == 0


def stamp(seconds: float) -> str:
    """Seconds since the epoch as ISO 8601 UTC text (messages)."""
    from datetime import UTC, datetime

    try:
        return datetime.fromtimestamp(float(seconds), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (OverflowError, OSError, ValueError):
        return f"{seconds:.0f}"


def return_big_frees() -> None:
    """Have the C allocator hand every freed block of 256 KiB or more back to the system (glibc's
    threshold otherwise grows with the first large free, and the per-batch arrays of a long stream
    then fragment the heap: 10,000 VMs x 30 days held some 400 MB of freed memory). Linux only; a
    no-op elsewhere."""
    import ctypes
    import ctypes.util
    import sys

    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallopt(-3, 256 * 1024)  # M_MMAP_THRESHOLD
    except (OSError, AttributeError):
        pass


def shifted(where: Where, index: np.ndarray) -> Where:
    """``where`` for a batch filtered down to ``index``."""
    return lambda i: where(int(index[i]))
