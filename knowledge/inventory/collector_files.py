"""Reading the collectors' exports besides RVTools (:mod:`knowledge.inventory.collectors`): the
Live Optics and Nutanix Collector workbooks, the Azure Migrate and AWS Migration Hub import CSVs.

Each gives VMs (vCPUs, RAM, disks, power state, template flag, utilisation where the export has
it) and, for the workbooks, hosts. Templates and powered-off VMs are kept and marked, as for
RVTools: the scenario builder counts them and leaves them out where the user asks.

The workbooks' performance sheets (:attr:`Collector.perf`: Nutanix Collector ``vCPU``, Live Optics
``VM Performance``) are joined to the VMs by name: each VM's average CPU % over the collection becomes
its CPU usage, its median / 95th percentile / peak its ``cpu_pcts``; Live Optics ``ESX Performance``
gives the hosts' average CPU and memory %.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from knowledge.infra.errors import InputError
from knowledge.inventory.collectors import PERF_STATS, Collector, Table
from knowledge.inventory.common import RowError, check_cancel, norm_header, report
from knowledge.inventory.model import OVER_COLLECTION, VM, WARNINGS_LISTED, Estate, Host, Source
from knowledge.inventory.table import Sheet, check_unique, host_of, vm_of


def read_workbook(path: Path, collector: Collector, estate: Estate, progress=None, cancel=None) -> Source:
    """Add a Live Optics or Nutanix Collector workbook's VMs and hosts to ``estate``."""
    from knowledge.inventory.xlsx import Workbook

    where = str(path)
    source = Source(where, collector.format)
    with Workbook(path) as wb:
        vm_sheet = wb.find_sheet(collector.vms.sheet)
        if vm_sheet is None:
            raise InputError(f"{where}: {collector.title}, but without its {collector.vms.sheet} sheet (its sheets "
                             f"are: {', '.join(wb.sheetnames)}); export it again with all sheets")
        report(progress, 0.1, f"reading {path.name}: {vm_sheet}")
        first_vm, first_host = len(estate.vms), len(estate.hosts)
        _read_vms(wb, vm_sheet, collector, estate, source, cancel)
        hosts = collector.hosts
        host_sheet = wb.find_sheet(hosts.sheet) if hosts else None
        if hosts and host_sheet:
            report(progress, 0.7, f"reading {path.name}: {host_sheet}")
            _read_hosts(wb, host_sheet, collector, hosts, estate, source, cancel)
        elif hosts:
            source.notes.append(f"no {hosts.sheet} sheet: the hosts are left for you to describe")
        for table in collector.perf:
            _read_vm_perf(wb, collector, table, estate.vms[first_vm:], source, cancel, estate.warnings)
        if collector.host_perf is not None:
            _read_host_perf(wb, collector, collector.host_perf, estate.hosts[first_host:], source, cancel,
                            estate.warnings)
    return source


def _perf_rows(wb, collector: Collector, table: Table, source: Source, cancel, warnings: list[str]):
    """``(sheet, row, cells, name)`` of a performance sheet's rows; none (and a note) without the sheet."""
    sheet = wb.find_sheet(table.sheet)
    if sheet is None:
        source.notes.append(f"no {table.sheet} sheet: the CPU usage it holds is not in the export")
        return
    s, rows = _sheet_rows(wb, sheet, table, collector, cancel, warnings)
    for row, cells in rows:
        name = s.text(cells, "name")
        if name:
            yield s, row, cells, name


def _read_vm_perf(wb, collector: Collector, table: Table, vms: list[VM], source: Source, cancel,
                  warnings: list[str]) -> None:
    """A VM's average CPU % over the collection (its CPU usage) and its percentiles, joined to the VMs of
    this workbook by their managed object id where both sheets give it (two VMs of one name in two
    clusters), else by name; a row that matches none (or two) is skipped and counted in a note."""
    by_name: dict[str, list[VM]] = {}
    by_moid: dict[str, list[VM]] = {}
    for v in vms:
        by_name.setdefault(v.name.lower(), []).append(v)
        if v.moid:
            by_moid.setdefault(v.moid.lower(), []).append(v)
    measured, unmatched, off = 0, [], []
    for s, row, cells, name in _perf_rows(wb, collector, table, source, cancel, warnings):
        moid = s.text(cells, "moid").lower()
        match = by_moid[moid] if moid in by_moid else by_name.get(name.lower(), [])
        if len(match) != 1:
            unmatched.append(name)
            continue
        vm = match[0]
        if vm.powered_on is False:  # its 0 % over the collection is no measurement of what it will need
            off.append(name)
            continue
        mean = s.number(cells, "cpu_mean", row)
        if mean is not None and vm.cpu_usage_pct is None:
            vm.cpu_usage_pct = min(mean, 100.0)
            vm.cpu_from = f"{collector.name} {s.table.sheet} {s.named(cells, 'cpu_mean').removeprefix(s.name + ' ')} " \
                          f"({OVER_COLLECTION})"
        pcts = {key: min(x, 100.0) for f, key in PERF_STATS.items() if (x := s.number(cells, f, row)) is not None}
        if pcts:
            vm.cpu_pcts = pcts
        measured += mean is not None or bool(pcts)
    if measured:
        source.notes.append(f"{table.sheet}: CPU % over the collection of {measured} VMs (average"
                            + "".join(f", {k}" for k in sorted({k for v in vms for k in (v.cpu_pcts or {})})) + ")")
    if off:
        source.notes.append(f"{table.sheet}: {len(off)} powered-off VM(s) not taken as measured (their rows hold "
                            f"no usage of theirs): " + ", ".join(off[:5]))
    if unmatched:
        source.notes.append(f"{table.sheet}: {len(unmatched)} row(s) name no VM of the {collector.vms.sheet} sheet "
                            f"(or two), skipped: " + ", ".join(unmatched[:5]))


def _read_host_perf(wb, collector: Collector, table: Table, hosts: list[Host], source: Source, cancel,
                    warnings: list[str]) -> None:
    """The hosts' average CPU and memory % over the collection, joined by host name."""
    by_name = {h.name.lower(): h for h in hosts}
    for s, row, cells, name in _perf_rows(wb, collector, table, source, cancel, warnings):
        host = by_name.get(name.lower())
        if host is None:
            continue
        cpu, mem = s.number(cells, "cpu_mean", row), s.number(cells, "mem_mean", row)
        if cpu is not None and host.cpu_usage_pct is None:
            host.cpu_usage_pct = min(cpu, 100.0)
        if mem is not None and host.mem_usage_pct is None:
            host.mem_usage_pct = min(mem, 100.0)
        if cpu is not None or mem is not None:
            host.usage_from = f"{collector.name} {s.table.sheet} ({OVER_COLLECTION})"


def _sheet_rows(wb, sheet: str, table: Table, collector: Collector, cancel,
                warnings: list[str]) -> tuple[Sheet, Iterable]:
    """The sheet's columns and its data rows; an empty sheet is refused, naming it. A percentage column
    in 0-1 fractions is read x 100, with a warning added to ``warnings``."""
    where = str(wb.path)
    header = wb.header(sheet)
    if not any(header):
        raise InputError(f"{where}: {collector.title}: sheet {sheet} is empty (no header row)")
    s = Sheet(where, collector, Table(sheet, table.columns), header)
    wanted = {f.index for found in s.found.values() for f in found}
    rows = ((n, c) for n, c in wb.rows(sheet, wanted, cancel) if n > 1)
    if not s.pct_columns():
        return s, rows
    listed = list(rows)  # a utilisation column in 0-1 fractions is known only from all its values
    warnings.extend(s.scan_fractions(listed))
    return s, listed


def _read_vms(wb, sheet: str, collector: Collector, estate: Estate, source: Source, cancel) -> None:
    s, rows = _sheet_rows(wb, sheet, collector.vms, collector, cancel, estate.warnings)
    _add_vms(s, rows, collector, estate, source, cancel)


def _read_hosts(wb, sheet: str, collector: Collector, table: Table, estate: Estate, source: Source,
                cancel) -> None:
    s, rows = _sheet_rows(wb, sheet, table, collector, cancel, estate.warnings)
    seen: dict[str, tuple[int, str]] = {}
    for i, (row, cells) in enumerate(rows):
        if i % 2000 == 0:
            check_cancel(cancel)
        try:
            host = host_of(s, cells, row, source.path)
        except RowError as exc:
            estate.leave_out(str(exc))
            continue
        if host:
            check_unique(s, seen, host.name, "", row, "host")
            estate.hosts.append(host)
            source.hosts += 1


def _add_vms(s: Sheet, rows: Iterable, collector: Collector, estate: Estate, source: Source, cancel) -> None:
    """The VMs of a table's rows; a table without one VM row is refused (an empty export)."""
    seen: dict[str, tuple[int, str]] = {}
    listed = 0
    for i, (row, cells) in enumerate(rows):
        if i % 2000 == 0:
            check_cancel(cancel)
        try:
            vm = vm_of(s, cells, row, source.path, collector.platform)
        except RowError as exc:
            estate.leave_out(str(exc))
            listed += 1
            continue
        if vm is None:
            continue
        listed += 1
        check_unique(s, seen, vm.name, vm.uid, row, "VM")
        estate.vms.append(vm)
        source.vms += 1
    if not listed:
        raise InputError(f"{s.lead()} lists no VMs (a header row and nothing under it)")


def read_csv(path: Path, text: str, collector: Collector, estate: Estate, cancel=None) -> Source:
    """Add the servers of an Azure Migrate or AWS Migration Hub import CSV to ``estate``."""
    from knowledge.inventory.rvtools import csv_rows

    where = str(path)
    rows = csv_rows(text, where)
    header: list[str] = next(rows, [])
    s = Sheet(where, collector, collector.vms, header)
    numbered = [(i + 2, dict(enumerate(r))) for i, r in enumerate(rows) if any(c.strip() for c in r)]
    estate.warnings.extend(s.scan_fractions(numbered))
    source = Source(where, collector.format)
    first = len(estate.vms)
    _add_vms(s, numbered, collector, estate, source, cancel)
    if "power" not in s.found:
        source.notes.append("the file gives no power state: every server is taken as running")
        _idle_not_measured(estate.vms[first:], where, estate)
    for v in estate.vms[first:] if collector.averaged else ():
        v.cpu_from += f" ({OVER_COLLECTION})" if v.cpu_from else ""
    return source


def _idle_not_measured(vms: list[VM], where: str, estate: Estate) -> None:
    """Servers of a file without power states that show 0 % CPU and no memory in use: probably powered
    off, so their zeros are no measurement (they would halve their group's CPU); a warning names them."""
    idle = [v for v in vms if v.cpu_usage_pct == 0 and v.mem_consumed_mib == 0]
    for v in idle:
        v.cpu_usage_pct, v.cpu_from, v.mem_consumed_mib, v.mem_from, v.cpu_pcts = None, "", None, "", None
    if idle:
        names = ", ".join(f"{v.name!r} ({v.where})" for v in idle[:WARNINGS_LISTED])
        estate.warnings.append(
            f"{where}: {len(idle)} server(s) show 0 % CPU and no memory in use, probably powered off (the file "
            f"gives no power state): their zeros are not taken as measurements, they are sized like their "
            f"group's other servers (or on the assumed intensity): {names}; remove their rows if they are not to "
            f"be moved")


def csv_keys(header: list[str]) -> set[str]:
    """A CSV header's names, normalised as the collectors' marks are."""
    return {norm_header(h) for h in header if str(h).strip()}
