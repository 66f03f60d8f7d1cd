"""RVTools exports: the .xlsx workbook (tabs vInfo, vHost, vDisk, vPartition) or the same tabs
as CSV files (``RVTools_tabvInfo.csv`` ...).

Column headers differ between RVTools versions (``Provisioned MB`` / ``Provisioned MiB``,
``# Cores``) and between exports (CSV exports may prefix every header with the tab name:
``vInfoVMName``, ``vInfoCPUs``); they are matched after normalisation (lower case, letters and
digits only, tab prefix removed). Sizes in RVTools are MiB whatever the header says (``MB`` in
older versions). vDisk and vPartition are read only when vInfo lacks the disk columns.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from knowledge.infra.errors import InputError
from knowledge.inventory.common import (
    MAX_CELL_CHARS,
    MAX_NAME_CHARS,
    MAX_ROWS,
    RowError,
    check_cancel,
    listing,
    norm_header,
    parse_bool,
    parse_number,
    read_text,
    report,
)
from knowledge.inventory.model import GB_PER_MIB, VM, Estate, Host, Source

#: the tabs read, with each field's accepted headers (normalised) and whether it is required
TABS: dict[str, dict[str, tuple[tuple[str, ...], bool]]] = {
    "vInfo": {
        "name": (("vm", "vmname", "name"), True),
        "power": (("powerstate", "state"), False),
        "template": (("template",), False),
        "cpus": (("cpus", "numcpu", "numcpus", "cpu"), True),
        "memory": (("memory", "memorymib", "memorymb", "memorysize"), True),
        "disk_total": (("totaldiskcapacitymib", "totaldiskcapacitymb"), False),
        "provisioned": (("provisionedmib", "provisionedmb", "provisioned"), False),
        "in_use": (("inusemib", "inusemb", "inuse"), False),
        "host": (("host", "hostname"), False),
        "cluster": (("cluster",), False),
        "datacenter": (("datacenter",), False),
        "os": (("osaccordingtotheconfigurationfile", "os", "guestos"), False),
        "os_tools": (("osaccordingtothevmwaretools", "ostools"), False),
        "uuid": (("vmuuid", "uuid", "smbiosuuid", "vmid"), False),
        "cpu_ready": (("overallcpureadiness", "cpureadiness", "cpureadypct", "cpuready"), False),
        "cpu_usage_pct": (("cpuusagepct", "cpuusage"), False),
        "mem_active": (("activememory",), False),
        "ips": (("primaryipaddress", "ipaddress", "ipaddresses"), False),  # series named by IP join on it
    },
    "vHost": {
        "host": (("host", "name", "hostname"), True),
        "cluster": (("cluster",), False),
        "cpu_model": (("cpumodel",), False),
        "speed": (("speed", "cpuspeed", "speedmhz", "cpumhz"), False),
        "sockets": (("cpu", "numcpu", "cpus", "sockets"), False),
        "cores_per_cpu": (("corespercpu", "corespersocket"), False),
        "cores": (("cores", "numcores", "numcpucores", "cpucores"), False),
        "ht_active": (("htactive",), False),
        "memory": (("memory", "memorysize", "memorymib", "memorymb"), False),
        "cpu_usage": (("cpuusage",), False),
        "mem_usage": (("memoryusage",), False),
        "esx_version": (("esxversion", "version"), False),
    },
    "vCPU": {
        "vm": (("vm", "vmname", "name"), True),
        "overall": (("overall", "overallmhz", "overallcpuusage"), True),
        "max": (("max", "maxmhz"), False),
        "ready": (("cpureadypct", "cpuready", "overallcpureadiness"), False),
    },
    "vMemory": {
        "vm": (("vm", "vmname", "name"), True),
        "consumed": (("consumed", "consumedmib", "consumedmb"), False),
        "active": (("active", "activemib", "activemb"), False),
    },
    "vDatastore": {
        "name": (("name", "datastore"), True),
        "type": (("type",), True),
        "capacity": (("capacitymib", "capacitymb", "capacity"), False),
        "hosts": (("hosts", "numhosts"), False),
    },
    "vDisk": {
        "vm": (("vm", "vmname", "name"), True),
        "capacity": (("capacitymib", "capacitymb", "capacity"), True),
    },
    "vPartition": {
        "vm": (("vm", "vmname", "name"), True),
        "capacity": (("capacitymib", "capacitymb", "capacity"), False),
        "consumed": (("consumedmib", "consumedmb", "consumed"), True),
    },
}

#: headers (as RVTools prints them) named in messages
SHOWN = {"name": "VM", "cpus": "CPUs", "memory": "Memory", "host": "Host", "vm": "VM", "capacity": "Capacity MiB",
         "consumed": "Consumed MiB", "overall": "Overall"}
#: the tabs of an export, in reading order (vCPU and vMemory carry the VMs' measured CPU and memory)
ORDER = ("vInfo", "vHost", "vCPU", "vMemory", "vDatastore", "vDisk", "vPartition")
#: optional tabs: without their columns the export is still read (a note says what is missing)
OPTIONAL = ("vCPU", "vMemory", "vDatastore")
#: datastore types as the scenario's shared storage kinds (VMFS on a LUN several hosts see: a SAN)
DATASTORE_KINDS = {"vmfs": "iscsi", "nfs": "nfs", "nfs41": "nfs", "vsan": "distributed", "vvol": "iscsi"}


@dataclass
class _Columns:
    tab: str
    index: dict[str, int]


def map_columns(header: list[str], tab: str, where: str) -> _Columns:
    """Which column holds each field of ``tab``; InputError naming the file and the missing
    column when a required one is absent."""
    normalised = [norm_header(h, tab) for h in header]
    index: dict[str, int] = {}
    for fld, (aliases, required) in TABS[tab].items():
        for alias in aliases:  # the first alias found wins (they are in order of preference)
            if alias in normalised:
                index[fld] = normalised.index(alias)
                break
        else:
            if required:
                raise InputError(f"{where}: tab {tab} has no column {SHOWN.get(fld, fld)!r} (accepted headers: "
                                 f"{', '.join(aliases)}, with or without the '{tab}' prefix); its columns are: "
                                 f"{listing(header, 20) or 'none'}")
    return _Columns(tab, index)


def tab_columns(header: list[str], tab: str, where: str, notes: list[str]) -> _Columns | None:
    """The columns of one tab (workbook or CSV export alike). A required tab without its columns
    raises; an optional tab without them is not read (its VMs are just not measured) and None is
    returned; a vHost tab without some host figures is read, and ``notes`` say which are left."""
    if tab in OPTIONAL:
        try:
            cols = map_columns(header, tab, where)
        except InputError as exc:
            notes.append(f"{str(exc).split(': ', 1)[-1].split('; its columns')[0]}: not read from that tab")
            return None
    else:
        cols = map_columns(header, tab, where)
    if tab == "vHost" and host_gaps(cols):
        notes.append(f"tab vHost has no column {' nor '.join(host_gaps(cols))}: those host figures are left for you")
    return cols


def host_gaps(cols: _Columns) -> list[str]:
    """What a vHost tab lacks for describing hosts (the hosts are still listed)."""
    gaps = []
    if "cores" not in cols.index and not {"sockets", "cores_per_cpu"} <= set(cols.index):
        gaps.append("'# Cores' (or '# CPU' with 'Cores per CPU')")
    if "memory" not in cols.index:
        gaps.append("'# Memory'")
    return gaps


class _Rows:
    """Converts one tab's cells, naming file, tab, row and column in every complaint."""

    def __init__(self, where: str, cols: _Columns, header: list[str]):
        self.where, self.cols, self.header = where, cols, header

    def get(self, cells, fld: str):
        i = self.cols.index.get(fld)
        if i is None:
            return None
        v = cells.get(i) if isinstance(cells, dict) else (cells[i] if i < len(cells) else None)
        return v.strip() if isinstance(v, str) else v

    def text(self, cells, fld: str) -> str:
        v = self.get(cells, fld)
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        return "" if v is None else str(v)

    def _convert(self, cells, fld: str, row: int, parse, what: str):
        v = self.get(cells, fld)
        try:
            return parse(v)
        except ValueError as exc:
            shown = f"{v[:40]!r}..." if isinstance(v, str) and len(v) > 40 else repr(v)
            why = str(exc) if "finite" in str(exc) or "beyond" in str(exc) else f"{shown} is not {what}"
            raise RowError(f"{self.where}: tab {self.cols.tab}, row {row}, column "
                           f"{self.header[self.cols.index[fld]]!r}: {why}") from None

    def number(self, cells, fld: str, row: int) -> float | None:
        return self._convert(cells, fld, row, parse_number, "a number")

    def flag(self, cells, fld: str, row: int) -> bool | None:
        return self._convert(cells, fld, row, parse_bool, "True or False")


def _vm(r: _Rows, cells, row: int, source: str) -> VM | None:
    name = r.text(cells, "name")
    if not name:
        return None
    try:
        return _vm_of(r, cells, row, source, name)
    except RowError as exc:
        shown = name if len(name) <= 60 else f"{name[:40]}..."
        raise RowError(f"{exc} (VM {shown!r})") from None


def _vm_of(r: _Rows, cells, row: int, source: str, name: str) -> VM:
    cpus = r.number(cells, "cpus", row)
    mem = r.number(cells, "memory", row)
    power = r.text(cells, "power").lower()
    disk = r.number(cells, "disk_total", row)
    if not disk:
        disk = r.number(cells, "provisioned", row)
    used = r.number(cells, "in_use", row)
    template = r.flag(cells, "template", row) or False
    if len(name) > MAX_NAME_CHARS:
        raise RowError(f"{r.where}: tab vInfo, row {row}, column {r.header[r.cols.index['name']]!r}: VM "
                       f"{name[:40]!r}... has a name of {len(name):,} characters (at most {MAX_NAME_CHARS})")
    if cpus is not None and (cpus < 0 or cpus != int(cpus)):
        raise RowError(f"{r.where}: tab vInfo, row {row}, column {r.header[r.cols.index['cpus']]!r}: "
                         f"{cpus:g} is not a vCPU count")
    if mem is not None and mem < 0:
        raise RowError(f"{r.where}: tab vInfo, row {row}, column {r.header[r.cols.index['memory']]!r}: "
                         f"negative memory {mem:g}")
    return VM(name=name, source=source, platform="vmware", uid=r.text(cells, "uuid"), where=f"tab vInfo, row {row}",
              vcpus=int(cpus) if cpus is not None else None, ram_mib=mem,  # a 0 given is checked, not "unknown"
              disk_gb=disk * GB_PER_MIB if disk else None, used_gb=used * GB_PER_MIB if used else None,
              powered_on=None if not power else power == "poweredon", template=template,
              host=r.text(cells, "host"), cluster=r.text(cells, "cluster") or r.text(cells, "datacenter"),
              os=r.text(cells, "os_tools") or r.text(cells, "os"),
              cpu_ready_pct=r.number(cells, "cpu_ready", row), cpu_usage_pct=r.number(cells, "cpu_usage_pct", row),
              mem_active_mib=r.number(cells, "mem_active", row), ips=r.text(cells, "ips"))


def _host(r: _Rows, cells, row: int, source: str) -> Host | None:
    name = r.text(cells, "host")
    if not name:
        return None
    sockets = r.number(cells, "sockets", row)
    per = r.number(cells, "cores_per_cpu", row)
    cores = r.number(cells, "cores", row)
    if cores and sockets and not per:
        per = cores / sockets
    if cores and not sockets:
        sockets, per = 1, cores
    ht = r.flag(cells, "ht_active", row)
    speed = r.number(cells, "speed", row)
    mem = r.number(cells, "memory", row)
    return Host(name=name, source=source, cluster=r.text(cells, "cluster"), cpu_model=r.text(cells, "cpu_model"),
                sockets=int(sockets) if sockets else None, cores_per_socket=int(round(per)) if per else None,
                threads_per_core=(2 if ht else 1) if ht is not None else None,
                ghz=speed / 1000.0 if speed else None, ram_mib=mem or None,
                cpu_usage_pct=r.number(cells, "cpu_usage", row), mem_usage_pct=r.number(cells, "mem_usage", row),
                hypervisor=r.text(cells, "esx_version") or "VMware ESXi")


class _Collector:
    """The tabs of one export, joined by VM name."""

    def __init__(self, estate: Estate):
        self.estate = estate
        self.disk: dict[str, float] = {}
        self.consumed: dict[str, float] = {}
        self.cpu: dict[str, tuple] = {}      # vCPU tab: name -> (overall MHz, max MHz, ready %)
        self.memory: dict[str, tuple] = {}   # vMemory tab: name -> (consumed MiB, active MiB)
        self.datastores: list[tuple[str, float]] = []  # vDatastore: shared ones (kind, capacity MiB)
        self.vms: list[VM] = []

    def add(self, tab: str, r: _Rows, rows, source: Source, cancel=None) -> None:
        for i, (row, cells) in enumerate(rows):
            if i % 2000 == 0:
                check_cancel(cancel)
            try:
                self._row(tab, r, row, cells, source)
            except RowError as exc:
                self.estate.leave_out(str(exc))

    def _row(self, tab: str, r: _Rows, row: int, cells, source: Source) -> None:
        if tab == "vInfo":
            vm = _vm(r, cells, row, source.path)
            if vm:
                self.vms.append(vm)
                source.vms += 1
        elif tab == "vHost":
            h = _host(r, cells, row, source.path)
            if h:
                self.estate.hosts.append(h)
                source.hosts += 1
        elif tab == "vCPU":
            name = r.text(cells, "vm")
            if name:
                self.cpu[name] = (r.number(cells, "overall", row), r.number(cells, "max", row),
                                  r.number(cells, "ready", row))
        elif tab == "vMemory":
            name = r.text(cells, "vm")
            if name:
                self.memory[name] = (r.number(cells, "consumed", row), r.number(cells, "active", row))
        elif tab == "vDatastore":
            kind = DATASTORE_KINDS.get(r.text(cells, "type").lower().replace(" ", "").replace(".", ""))
            shared = (r.number(cells, "hosts", row) or 0) > 1 or kind in ("nfs", "distributed")
            if r.text(cells, "name") and kind and shared:
                self.datastores.append((kind, r.number(cells, "capacity", row) or 0.0))
        elif tab == "vDisk":
            name = r.text(cells, "vm")
            cap = r.number(cells, "capacity", row)
            if name and cap:
                self.disk[name] = self.disk.get(name, 0.0) + cap
        elif tab == "vPartition":
            name = r.text(cells, "vm")
            used = r.number(cells, "consumed", row)
            if name and used:
                self.consumed[name] = self.consumed.get(name, 0.0) + used

    def finish(self) -> None:
        for vm in self.vms:
            if vm.disk_gb is None and vm.name in self.disk:
                vm.disk_gb = self.disk[vm.name] * GB_PER_MIB
            if vm.used_gb is None and vm.name in self.consumed:
                vm.used_gb = self.consumed[vm.name] * GB_PER_MIB
            if vm.name in self.cpu:
                overall, peak, ready = self.cpu[vm.name]
                vm.cpu_usage_mhz, vm.cpu_max_mhz = overall, peak or None
                if vm.cpu_ready_pct is None:
                    vm.cpu_ready_pct = ready
            if vm.name in self.memory:
                consumed, active = self.memory[vm.name]
                vm.mem_consumed_mib = consumed
                vm.mem_from = "RVTools vMemory 'Consumed'" if consumed is not None else ""
                if active is not None:
                    vm.mem_active_mib = active
        self.estate.vms += self.vms
        capacity = self.estate.extra.setdefault("shared_capacity_tb", {})
        for kind, mib in self.datastores:
            if kind not in self.estate.shared_storage:
                self.estate.shared_storage.append(kind)
            capacity[kind] = capacity.get(kind, 0.0) + mib * GB_PER_MIB / 1000.0


def read_xlsx(path: Path, estate: Estate, progress=None, cancel=None) -> None:
    """Add an RVTools workbook's VMs and hosts to ``estate``."""
    from knowledge.inventory.xlsx import Workbook

    where = str(path)
    with Workbook(path) as wb:
        tabs = {t: wb.find_sheet(t) for t in TABS}
        if tabs["vInfo"] is None:
            raise InputError(f"{where}: no vInfo tab, so not an RVTools export (its tabs are: "
                             f"{listing(wb.sheetnames)}); export all tabs from RVTools (File > Export all to Excel)")
        source = Source(where, "rvtools-xlsx")
        col = _Collector(estate)
        need_disk = need_used = False
        order = list(ORDER)
        for k, tab in enumerate(order):
            sheet = tabs[tab]
            if sheet is None or (tab == "vDisk" and not need_disk) or (tab == "vPartition" and not need_used):
                continue
            report(progress, 0.05 + 0.9 * k / len(order), f"reading {path.name}: {tab}")
            header = wb.header(sheet)
            if not any(header):
                if tab == "vInfo":
                    raise InputError(f"{where}: tab vInfo is empty")
                continue
            cols = tab_columns(header, tab, where, source.notes)
            if cols is None:
                continue
            if tab == "vInfo":
                need_disk = "disk_total" not in cols.index and "provisioned" not in cols.index
                need_used = "in_use" not in cols.index
            rows = ((n, c) for n, c in wb.rows(sheet, set(cols.index.values()), cancel) if n > 1)
            col.add(tab, _Rows(where, cols, header), rows, source, cancel)
        col.finish()
        if tabs["vHost"] is None:
            source.notes.append("no vHost tab: the hosts are left for you to describe")
    estate.sources.append(source)


# --- CSV ------------------------------------------------------------------------------------
#: headers (normalised, tab prefix removed) that mark each tab's CSV export; a file is taken for
#: the tab whose markers it shares most (at least two), so that a tab lacking a required column
#: is still recognised and the missing column named
MARKERS: dict[str, frozenset[str]] = {
    "vInfo": frozenset({"vm", "vmname", "powerstate", "template", "cpus", "memory", "provisionedmib", "provisionedmb",
                        "inusemib", "inusemb", "osaccordingtotheconfigurationfile", "osaccordingtothevmwaretools",
                        "dnsname", "vmuuid", "overallcpureadiness", "activememory", "nics", "disks",
                        "totaldiskcapacitymib", "hwversion", "annotation", "connectionstate", "guestate"}),
    "vHost": frozenset({"host", "cpumodel", "speed", "htactive", "cpu", "corespercpu", "cores", "cpuusage",
                        "memoryusage", "esxversion", "vmspercore", "vcpuspercore", "vcpus", "vms",
                        "currentevc", "maxevc", "bootime", "serialnumber"}),
    "vCPU": frozenset({"vm", "overall", "max", "cpus", "sockets", "coresps", "level", "shares", "reservation",
                       "entitlement", "drsentitlement", "limit", "hotadd", "hotremove", "cpureadypct"}),
    "vMemory": frozenset({"vm", "sizemib", "sizemb", "consumed", "consumedoverhead", "private", "shared", "swapped",
                          "ballooned", "active", "overhead", "memoryreservationlockedtomax", "hotadd"}),
    "vDisk": frozenset({"vm", "disk", "capacitymib", "capacitymb", "raw", "diskmode", "thin", "controller",
                        "unitnumber", "diskpath", "eagerlyscrub", "split", "writethrough"}),
    "vPartition": frozenset({"vm", "disk", "capacitymib", "capacitymb", "consumedmib", "consumedmb", "freemib",
                             "freemb", "free"}),
    "vDatastore": frozenset({"name", "type", "capacitymib", "provisionedmib", "inusemib", "freemib", "freepct",
                             "hosts", "siocenabled", "clustername", "url", "accessible", "configstatus"}),
}


def csv_family(path: Path, header: list[str]) -> tuple[str | None, int]:
    """``(tab, score)``: the RVTools tab a CSV file holds and how sure that is: its file name
    (``RVTools_tabvInfo.csv``: score 100), its headers' tab prefix (``vInfoVMName``), or the
    headers that mark each tab (the score is the number shared). ``(None, 0)`` for none."""
    stem = path.stem.lower()
    for tab in ORDER:
        if f"tab{tab.lower()}" in stem or stem.endswith(tab.lower()):
            return tab, 100
    raw = [re.sub(r"[^0-9a-z]", "", str(h).lower()) for h in header if str(h).strip()]
    if raw:
        for tab in ORDER:
            p = tab.lower()
            if sum(1 for k in raw if k.startswith(p) and len(k) > len(p)) * 2 >= len(raw) and len(raw) >= 2:
                return tab, 50
    best: tuple[str | None, int] = (None, 0)
    for tab in ORDER:
        keys = {norm_header(h, tab) for h in header}
        score = len(keys & MARKERS[tab])
        if score > best[1]:
            best = (tab, score)
    return best if best[1] >= 2 else (None, 0)


def csv_tab(path: Path, header: list[str]) -> str | None:
    """Which RVTools tab a CSV file holds (see :func:`csv_family`)."""
    return csv_family(path, header)[0]


def sniff_rows(text: str) -> list[list[str]]:
    """Rows of a CSV text with ',' ';' or tab as separator (RVTools follows the Windows locale);
    at most :data:`MAX_ROWS`, see :func:`csv_rows`."""
    return list(csv_rows(text, "CSV"))


def csv_rows(text: str, where: str):
    """The rows of a CSV text, one at a time (a text of 128 MiB is never held as a list of lists):
    a broken row (a field longer than :data:`MAX_CELL_CHARS`, a NUL) or more than
    :data:`MAX_ROWS` rows is an InputError naming the file and line."""
    first = text.split("\n", 1)[0] if len(text) < 65536 else text[:65536].split("\n", 1)[0]
    delim = max((",", ";", "\t"), key=first.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delim)
    old = csv.field_size_limit(MAX_CELL_CHARS)
    try:
        while True:
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                raise InputError(f"{where}: line {reader.line_num}: not a readable CSV row ({exc}; a field may "
                                 f"have at most {MAX_CELL_CHARS:,} characters)") from None
            if reader.line_num > MAX_ROWS + 1 and len(row) > 0:
                raise InputError(f"{where}: more than {MAX_ROWS:,} rows: larger than an estate tab may be")
            yield row
    finally:
        csv.field_size_limit(old)


def read_csv_tabs(paths: list[Path], estate: Estate, progress=None, cancel=None) -> None:
    """Add the VMs and hosts of RVTools CSV tab files (any of vInfo, vHost, vDisk, vPartition)."""
    col = _Collector(estate)
    sources: dict[str, Source] = {}
    parsed = []
    for path in paths:
        text = read_text(path)
        header = [h.strip() for h in next(iter(csv_rows(text, str(path))), [])]
        tab = csv_tab(path, header)
        if tab is None:
            raise InputError(f"{path}: not an RVTools tab export (no vInfo, vHost, vDisk or vPartition columns "
                             f"found; columns: {listing(header, 20) or 'none'})")
        parsed.append((tab, path, header))
        del text  # read again when its turn comes: one file's text in memory at a time
    order = {t: i for i, t in enumerate(ORDER)}
    parsed.sort(key=lambda t: order[t[0]])
    if parsed and parsed[0][0] != "vInfo":
        raise InputError(f"{parsed[0][1]}: an RVTools {parsed[0][0]} tab without the vInfo tab; add the vInfo "
                         "CSV file (RVTools_tabvInfo.csv), which lists the VMs")
    for k, (tab, path, header) in enumerate(parsed):
        report(progress, 0.05 + 0.9 * k / max(1, len(parsed)), f"reading {path.name}")
        where = str(path)
        src = sources.setdefault(where, Source(where, f"rvtools-csv ({tab})"))
        cols = tab_columns(header, tab, where, src.notes)
        if cols is None:
            continue
        rows = csv_rows(read_text(path), where)
        next(rows, None)  # the header
        numbered = ((i + 2, r) for i, r in enumerate(rows) if any(c.strip() for c in r))
        col.add(tab, _Rows(where, cols, header), numbered, src, cancel)
    col.finish()
    estate.sources += list(sources.values())
