"""Reading the collectors' exports besides RVTools (:mod:`knowledge.inventory.collectors`): the
Live Optics and Nutanix Collector workbooks, the Azure Migrate and AWS Migration Hub import CSVs.

Each gives VMs (vCPUs, RAM, disks, power state, template flag, utilisation where the export has
it) and, for the workbooks, hosts. Templates and powered-off VMs are kept and marked, as for
RVTools: the scenario builder counts them and leaves them out where the user asks.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from knowledge.infra.errors import InputError
from knowledge.inventory.collectors import Collector, Table
from knowledge.inventory.common import RowError, check_cancel, norm_header, report
from knowledge.inventory.model import Estate, Source
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
        _read_vms(wb, vm_sheet, collector, estate, source, cancel)
        hosts = collector.hosts
        host_sheet = wb.find_sheet(hosts.sheet) if hosts else None
        if hosts and host_sheet:
            report(progress, 0.7, f"reading {path.name}: {host_sheet}")
            _read_hosts(wb, host_sheet, collector, hosts, estate, source, cancel)
        elif hosts:
            source.notes.append(f"no {hosts.sheet} sheet: the hosts are left for you to describe")
    return source


def _sheet_rows(wb, sheet: str, table: Table, collector: Collector, cancel) -> tuple[Sheet, Iterable]:
    """The sheet's columns and its data rows; an empty sheet is refused, naming it."""
    where = str(wb.path)
    header = wb.header(sheet)
    if not any(header):
        raise InputError(f"{where}: {collector.title}: sheet {sheet} is empty (no header row)")
    s = Sheet(where, collector, Table(sheet, table.columns), header)
    wanted = {f.index for found in s.found.values() for f in found}
    return s, ((n, c) for n, c in wb.rows(sheet, wanted, cancel) if n > 1)


def _read_vms(wb, sheet: str, collector: Collector, estate: Estate, source: Source, cancel) -> None:
    s, rows = _sheet_rows(wb, sheet, collector.vms, collector, cancel)
    _add_vms(s, rows, collector, estate, source, cancel)


def _read_hosts(wb, sheet: str, collector: Collector, table: Table, estate: Estate, source: Source,
                cancel) -> None:
    s, rows = _sheet_rows(wb, sheet, table, collector, cancel)
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
    numbered = ((i + 2, dict(enumerate(r))) for i, r in enumerate(rows) if any(c.strip() for c in r))
    source = Source(where, collector.format)
    _add_vms(s, numbered, collector, estate, source, cancel)
    if "power" not in s.found:
        source.notes.append("the file gives no power state: every server is taken as running")
    return source


def csv_keys(header: list[str]) -> set[str]:
    """A CSV header's names, normalised as the collectors' marks are."""
    return {norm_header(h) for h in header if str(h).strip()}
