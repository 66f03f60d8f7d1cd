"""Live Optics (Optical Prime) performance sheets: ``VM Performance`` (per VM) and ``ESX Performance``
(per host). Optical Prime writes each VM's and host's **average and peak** over the collection, not its
samples (Dell's "VMware Guest VM Performance" article: the archive metrics become figures such as "Peak
IOPS" posted to the VM details), so these give no series to take a percentile of: they are kept as
per-VM statistics (:attr:`SeriesStore.summary`), joined to the inventory's VMs by ``VM Name``, and
the hosts' by ``Host``. The columns are declared with the collector's other vocabulary
(:data:`knowledge.inventory.collectors.LIVE_OPTICS_VM_PERF`, ``LIVE_OPTICS_ESX_PERF``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from knowledge.infra.errors import InputError
from knowledge.inventory.collectors import LIVE_OPTICS_ESX_PERF, LIVE_OPTICS_VM_PERF, Table
from knowledge.inventory.common import RowError, checked, fraction_fields, norm_header
from knowledge.series.store import SeriesFile, SeriesStore


def has_perf(path: Path) -> bool:
    """Whether ``path`` is a workbook with a Live Optics ``VM Performance`` sheet."""
    from knowledge.inventory.xlsx import Workbook

    try:
        with Workbook(path) as wb:
            return wb.find_sheet(LIVE_OPTICS_VM_PERF.sheet) is not None
    except InputError:
        return False


def _columns(header: list[str], table: Table, path: Path, sheet: str) -> dict[str, int]:
    """field -> column index of the first published column found; InputError naming a missing one."""
    keys = [norm_header(h) for h in header]
    out: dict[str, int] = {}
    for col in table.columns:
        k = norm_header(col.header)
        if col.field not in out and k in keys:
            out[col.field] = keys.index(k)
    missing = [c.header for c in table.columns if c.required and c.field not in out]
    if missing:
        raise InputError(f"{path}: tab {sheet}: row 1: no column {', '.join(missing)}")
    return out


def _rows(wb, path: Path, table: Table):
    """``(where, {field: value})`` of every row of ``table``'s sheet (none when the sheet is absent)."""
    sheet = wb.find_sheet(table.sheet)
    if sheet is None:
        return
    cols = _columns(wb.header(sheet), table, path, sheet)
    by_field = {c.field: c for c in table.columns}
    for n, cells in wb.rows(sheet, set(cols.values())):
        if n == 1:
            continue
        name = str(cells.get(cols["name"]) or "").strip()
        if not name:
            continue
        where = f"{path}: tab {sheet}, row {n}"
        values = {}
        for field, i in cols.items():
            if field in ("name", "moid"):
                continue
            c = by_field[field]
            try:
                x = checked(cells.get(i), where, c.header, c.low, c.high * 1.005 if c.unit == "%" else c.high)
            except RowError as exc:
                raise InputError(str(exc) + (" (a percentage: 0-100, read as 100 up to 150 where turbo boost is counted)"
                                                if c.unit == "%" else "")) from None
            if x is not None:
                values[field] = min(x, 100.0) if c.unit == "%" else x
        # the VM's managed object id (MOB ID) joins two VMs of one name (read_perf)
        yield where, name, str(cells.get(cols["moid"]) or "").strip().lower() if "moid" in cols else "", values


def _percent(rows: list, table: Table) -> list:
    """``rows`` of :func:`_rows` with the percentage columns written as 0-1 fractions read x 100 (the rule
    of :func:`knowledge.inventory.common.fraction_fields`; the workbook reader warns, naming each column)."""
    pct = {c.field for c in table.columns if c.unit == "%"}
    tops: dict[str, float] = {}
    for _where, _name, _moid, values in rows:
        for k in pct & values.keys():
            tops[k] = max(tops.get(k, 0.0), values[k])
    scale = fraction_fields(tops)
    if not scale:
        return rows
    return [(w, n, m, {k: x * 100.0 if k in scale else x for k, x in v.items()}) for w, n, m, v in rows]


def _names_given_twice(store: SeriesStore) -> set[str]:
    """The VM names (lower case) the inventory lists more than once."""
    from collections import Counter

    return {n for n, c in Counter(x.strip().lower() for x in store.names).items() if c > 1}


def _own_moids(path: Path, sources: Sequence[str] | None, moids: Sequence[str] | None) -> dict[str, list[int]]:
    """Managed object id -> the store's rows of the VMs read from this workbook with that id."""
    out: dict[str, list[int]] = {}
    if sources is None or moids is None:
        return out
    here, resolved = path.resolve(), {s: Path(s).resolve() for s in set(sources)}
    for r, (m, s) in enumerate(zip(moids, sources, strict=True)):
        if m and resolved[s] == here:
            out.setdefault(m.lower(), []).append(r)
    return out


def read_perf(path: Path, store: SeriesStore, sources: Sequence[str] | None = None,
              moids: Sequence[str] | None = None) -> SeriesFile:
    """The VM and host statistics of a Live Optics workbook onto ``store`` (with ``sources``, the file
    each row's VM was read from, only onto the VMs read from this workbook; with ``moids``, joined by
    ``MOB ID`` where the sheet gives it, so that two VMs of one name keep their own rows)."""
    from knowledge.inventory.xlsx import Workbook

    path = Path(path)
    out = SeriesFile(str(path), "liveoptics-perf")
    with Workbook(path) as wb:
        rows = _percent(list(_rows(wb, path, LIVE_OPTICS_VM_PERF)), LIVE_OPTICS_VM_PERF)
        # the sheet lists the same VMs as the workbook's VMs sheet: one the inventory left out (a row
        # it could not read) is skipped and counted, not refused; a name several inventory files give
        # is joined only to this workbook's VM (the same VM, counted once, is another file's: skipped)
        skipped, twice, by_moid = [], _names_given_twice(store), _own_moids(path, sources, moids)
        for _where, name, moid, values in rows:
            own = by_moid.get(moid, []) if moid else []
            row = own[0] if len(own) == 1 else -1 if name.strip().lower() in twice else store.lookup(name)
            if row >= 0 and sources is not None and Path(sources[row]).resolve() != path.resolve():
                row = -1  # another file's VM of this name (the same VM, counted once as that file gives it)
            if row < 0:
                skipped.append(name)
                continue
            for stat, x in values.items():
                store.add_summary(row, stat, x)
            out.vms += 1
        out.metrics = sorted({k for _w, _n, _m, v in rows for k in v})
        if skipped:
            out.notes.append(f"{len(skipped)} VM(s) of {LIVE_OPTICS_VM_PERF.sheet} not in the inventory or named in "
                             "several of its files, skipped: " + ", ".join(skipped[:5]))
        for _where, name, _moid, values in _percent(list(_rows(wb, path, LIVE_OPTICS_ESX_PERF)), LIVE_OPTICS_ESX_PERF):
            store.host_summary[name] = values
    out.notes.append("average and peak per VM over the collection (Live Optics writes no samples)")
    return out
