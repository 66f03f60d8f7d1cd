"""RVTools workbooks written for the tests (openpyxl), in the column sets RVTools documents for its
tabs, with estates whose every number is known here.

The real RVTools exports the estate import was first tested on came from fetched snapshots of
public repositories; the workplace's rule keeps those out of this repository (they are run when
present, see tests/fixtures/inventory/SOURCES.md). These workbooks stand in for them in CI and
carry the shapes those exports exercised:

- ``rvtools-4x.xlsx``: RVTools 4.x headers (``Provisioned MiB``, ``In Use MiB``, ``Total disk
  capacity MiB``, ``Template`` as a boolean cell), a full vHost tab (``CPU Model``, ``Speed``,
  ``# CPU``, ``Cores per CPU``, ``# Cores``, ``# Memory``, ``CPU usage %``, ``Memory usage %``),
  vDisk and vPartition; templates and powered-off VMs; three clusters.
- ``rvtools-4x-sdk.xlsx``: the same rows written the way RVTools itself writes a workbook (OpenXML
  SDK style: ``x:``-prefixed parts, shared strings, a ``<dimension>`` per tab).
- ``rvtools-3x.xlsx``: RVTools 3.x headers (``Provisioned MB``, ``In Use MB``, ``Template`` as the
  text ``True``/``False``), and VMs on a host that vHost does not list.
- ``rvtools-small.xlsx``: a vInfo without disk-use columns (so vDisk and vPartition are read) and a
  vHost with only ``Host``, ``Speed`` and ``# Cores`` (no memory column: the reader must say so).

Run ``python -m tests.knowledge.rvtools_workbooks OUTDIR`` to write them into a folder.
"""

from __future__ import annotations

import atexit
import shutil
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

# --- the documented column sets ------------------------------------------------------------------
VINFO_4X = ["VM", "Powerstate", "Template", "SRM Placeholder", "Config status", "DNS Name", "Connection state",
            "Guest state", "Heartbeat", "Consolidation Needed", "PowerOn", "Suspended To Memory", "CPUs", "Memory",
            "Active Memory", "NICs", "Disks", "Total disk capacity MiB", "Latency Sensitivity", "EnableUUID", "CBT",
            "Primary IP Address", "Provisioned MiB", "In Use MiB", "Unshared MiB", "HA Restart Priority",
            "Resource pool", "Folder", "Annotation", "Datacenter", "Cluster", "Host",
            "OS according to the configuration file", "OS according to the VMware Tools", "VM ID", "VM UUID",
            "VI SDK Server", "VI SDK UUID"]
VHOST_4X = ["Host", "Datacenter", "Cluster", "Config status", "in Maintenance Mode", "CPU Model", "Speed",
            "HT Available", "HT Active", "# CPU", "Cores per CPU", "# Cores", "CPU usage %", "# Memory",
            "Memory usage %", "Console", "# NICs", "# HBAs", "# VMs", "VMs per Core", "# vCPUs", "vCPUs per Core",
            "vRAM", "ESX Version", "Vendor", "Model", "Serial number", "VI SDK Server"]
VDISK_4X = ["VM", "Powerstate", "Template", "Disk", "Disk Key", "Capacity MiB", "Raw", "Disk Mode", "Thin",
            "Controller", "Unit #", "Path", "Datacenter", "Cluster", "Host", "VM UUID"]
VPARTITION_4X = ["VM", "Powerstate", "Template", "Disk Key", "Disk", "Capacity MiB", "Consumed MiB", "Free MiB",
                 "Free %", "Datacenter", "Cluster", "Host", "VM UUID"]

VINFO_3X = ["VM", "Powerstate", "Template", "CPUs", "Memory", "NICs", "Disks", "Provisioned MB", "In Use MB",
            "Datacenter", "Cluster", "Host", "OS according to the configuration file",
            "OS according to the VMware Tools"]
VHOST_3X = ["Host", "Datacenter", "Cluster", "Config status", "CPU Model", "Speed", "HT Available", "HT Active",
            "# CPU", "Cores per CPU", "# Cores", "CPU usage %", "# Memory", "Memory usage %", "Console", "# NICs",
            "# HBAs", "# VMs", "VMs per Core", "# vCPUs", "vCPUs per Core", "vRAM", "ESX Version", "Vendor", "Model"]
VPARTITION_3X = ["VM", "Powerstate", "Template", "Disk", "Capacity MB", "Consumed MB", "Free MB", "Free %",
                 "Datacenter", "Cluster", "Host"]

VINFO_SMALL = ["VM", "Powerstate", "CPUs", "Memory", "Host", "Cluster", "Datacenter", "Provisioned MiB",
               "CPU Usage %", "OS according to the VMware Tools"]
VDISK_SMALL = ["VM", "Disk", "Disk Key", "Capacity MiB", "Unit #"]
VPARTITION_SMALL = ["VM", "Disk Key", "Disk", "Capacity MiB", "Consumed MiB", "Free MiB", "Free %"]
VHOST_SMALL = ["Host", "Speed", "# Cores"]  # no '# Memory': the reader keeps going and says so


# --- the estates ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class HostSpec:
    name: str
    cluster: str
    cpu_model: str
    mhz: int
    sockets: int
    cores_per_socket: int
    ram_mib: int
    cpu_pct: int
    mem_pct: int


@dataclass(frozen=True)
class VMSpec:
    name: str
    vcpus: int
    ram_mib: int
    disk_mib: int  # total disk capacity
    used_mib: int  # in use
    host: str
    cluster: str
    os: str
    on: bool = True
    template: bool = False


RHEL, UBUNTU, WIN = ("Red Hat Enterprise Linux 9 (64-bit)", "Ubuntu Linux (64-bit)",
                     "Microsoft Windows Server 2022 (64-bit)")
XEON, EPYC, XEON_OLD = ("Intel(R) Xeon(R) Gold 6140 CPU @ 2.30GHz", "AMD EPYC 7302 16-Core Processor",
                        "Intel(R) Xeon(R) CPU E5-2620 v4 @ 2.10GHz")


def _estate_4x() -> tuple[list[HostSpec], list[VMSpec]]:
    hosts = [HostSpec("esx-a1.lab.example", "prod-a", XEON, 2300, 2, 18, 786432, 31, 64),
             HostSpec("esx-a2.lab.example", "prod-a", XEON, 2300, 2, 18, 786432, 28, 61),
             HostSpec("esx-a3.lab.example", "prod-a", XEON, 2300, 2, 18, 786432, 35, 70),
             HostSpec("esx-b1.lab.example", "prod-b", EPYC, 3000, 2, 16, 524288, 22, 48),
             HostSpec("esx-b2.lab.example", "prod-b", EPYC, 3000, 2, 16, 524288, 19, 44),
             HostSpec("esx-d1.lab.example", "dev", XEON_OLD, 2100, 2, 8, 262144, 12, 38)]
    kinds = [  # name, count, vCPUs, RAM MiB, disk MiB, used MiB, cluster, OS, powered-off members
        ("web", 10, 2, 4096, 40960, 18432, "prod-a", RHEL, {10}),
        ("app", 8, 4, 8192, 81920, 40960, "prod-a", RHEL, set()),
        ("db", 4, 8, 32768, 512000, 389120, "prod-b", RHEL, set()),
        ("cache", 3, 4, 16384, 61440, 20480, "prod-a", UBUNTU, set()),
        ("batch", 6, 2, 8192, 102400, 51200, "prod-b", UBUNTU, {5, 6}),
        ("ci", 5, 2, 4096, 61440, 30720, "dev", UBUNTU, {4, 5}),
        ("mq", 4, 4, 8192, 40960, 10240, "prod-a", WIN, {4}),
        ("erp", 1, 16, 65536, 1024000, 614400, "prod-b", WIN, set()),
    ]
    by_cluster = {c: [h.name for h in hosts if h.cluster == c] for c in ("prod-a", "prod-b", "dev")}
    vms = []
    for name, n, cpus, ram, disk, used, cluster, os_name, off in kinds:
        for i in range(1, n + 1):
            host = by_cluster[cluster][(i - 1) % len(by_cluster[cluster])]
            vms.append(VMSpec(f"{name}-{i:02d}", cpus, ram, disk, used, host, cluster, os_name, on=i not in off))
    vms.append(VMSpec("tpl-rhel9", 2, 4096, 40960, 6144, "esx-d1.lab.example", "dev", RHEL, on=False, template=True))
    vms.append(VMSpec("tpl-win2022", 4, 8192, 81920, 20480, "esx-d1.lab.example", "dev", WIN, on=False,
                      template=True))
    return hosts, vms


def _estate_3x() -> tuple[list[HostSpec], list[VMSpec]]:
    hosts = [HostSpec(f"esx{i:02d}.corp.example", "cl-main" if i <= 3 else "cl-dmz", XEON_OLD, 2100, 2, 8, 262144,
                      40 + i, 70 + i) for i in range(1, 5)]
    vms = []
    profiles = [(1, 2048, 30720), (2, 4096, 51200), (2, 8192, 81920), (4, 8192, 102400), (4, 16384, 204800),
                (8, 32768, 409600)]
    for i in range(1, 57):
        cpus, ram, disk = profiles[i % len(profiles)]
        host_no = 1 + i % 5  # esx05 is in vInfo only: vHost does not list it
        cluster = "cl-main" if host_no <= 3 else "cl-dmz"
        vms.append(VMSpec(f"srv{i:03d}", cpus, ram, disk, disk * 3 // 5, f"esx{host_no:02d}.corp.example", cluster,
                          WIN if i % 3 == 0 else RHEL, on=i % 7 != 0))
    for i, (cpus, ram) in enumerate([(2, 4096), (2, 4096), (4, 8192), (1, 2048)], start=1):
        vms.append(VMSpec(f"template-{i}", cpus, ram, 40960, 8192, "esx01.corp.example", "cl-main", RHEL, on=False,
                          template=True))
    return hosts, vms


def _estate_small() -> tuple[list[HostSpec], list[VMSpec]]:
    hosts = [HostSpec("host-1", "cluster-1", "", 2600, 1, 12, 0, 0, 0),
             HostSpec("host-2", "cluster-1", "", 2600, 1, 12, 0, 0, 0)]
    vms = [VMSpec(f"vm{i}", cpus, ram, disk, disk // 2, f"host-{1 + i % 2}", "cluster-1", UBUNTU, on=i != 4)
           for i, (cpus, ram, disk) in enumerate([(1, 1024, 10240), (2, 2048, 20480), (2, 4096, 40960),
                                                  (4, 8192, 81920), (1, 2048, 20480), (2, 4096, 20480),
                                                  (4, 4096, 40960), (8, 16384, 102400)], start=1)]
    return hosts, vms


ESTATES = {"rvtools-4x.xlsx": _estate_4x, "rvtools-4x-sdk.xlsx": _estate_4x, "rvtools-3x.xlsx": _estate_3x,
           "rvtools-small.xlsx": _estate_small}


def estate(name: str) -> tuple[list[HostSpec], list[VMSpec]]:
    return ESTATES[name]()


def facts(name: str) -> dict:
    """What the workbook holds, counted from the estate written into it (not read back)."""
    hosts, vms = estate(name)
    live = [v for v in vms if not v.template]
    listed = [h for h in hosts if name != "rvtools-3x.xlsx" or h.name != "esx05.corp.example"]
    return {"vms": len(live), "powered_off": sum(not v.on for v in live), "templates": len(vms) - len(live),
            "hosts": len(listed), "vcpus": sum(v.vcpus for v in live), "ram_mib": sum(v.ram_mib for v in live),
            "clusters": sorted({v.cluster for v in live}),
            "cores_per_socket": hosts[0].cores_per_socket, "host_cores": {h.name: h.sockets * h.cores_per_socket
                                                                          for h in hosts},
            "vms_on_unlisted_hosts": sum(1 for v in vms if v.host not in {h.name for h in hosts})}


# --- rows ----------------------------------------------------------------------------------------
def _uuid(i: int) -> str:
    return f"5001{i:04x}-7a3c-4d2e-9f10-{i:012x}"


def _rows_4x(hosts: list[HostSpec], vms: list[VMSpec]) -> dict[str, list[list]]:
    server = "vcenter.lab.example"
    vinfo = [VINFO_4X]
    vdisk, vpart = [VDISK_4X], [VPARTITION_4X]
    for i, v in enumerate(vms, start=1):
        state = "poweredOn" if v.on else "poweredOff"
        disks = 2 if v.disk_mib > 65536 else 1
        row = {"VM": v.name, "Powerstate": state, "Template": v.template, "SRM Placeholder": False,
               "Config status": "green", "DNS Name": f"{v.name}.lab.example" if v.on else None,
               "Connection state": "connected", "Guest state": "running" if v.on else "notRunning",
               "Heartbeat": "green" if v.on else "gray", "Consolidation Needed": False,
               "PowerOn": f"2024/03/0{1 + i % 9} 08:00:00" if v.on else None, "Suspended To Memory": False,
               "CPUs": v.vcpus, "Memory": v.ram_mib, "Active Memory": v.ram_mib // 5 if v.on else 0, "NICs": 1,
               "Disks": disks, "Total disk capacity MiB": v.disk_mib, "Latency Sensitivity": "normal",
               "EnableUUID": False, "CBT": v.name.startswith("db"),
               "Primary IP Address": f"10.20.{i // 200}.{i % 200 + 10}" if v.on else None,
               "Provisioned MiB": v.disk_mib + v.ram_mib, "In Use MiB": v.used_mib, "Unshared MiB": v.used_mib,
               "HA Restart Priority": "medium", "Resource pool": "Resources", "Folder": v.cluster,
               "Annotation": None, "Datacenter": "DC-North", "Cluster": v.cluster, "Host": v.host,
               "OS according to the configuration file": v.os,
               "OS according to the VMware Tools": v.os if v.on else None, "VM ID": f"vm-{1000 + i}",
               "VM UUID": _uuid(i), "VI SDK Server": server, "VI SDK UUID": "a1b2c3d4-0000-4000-8000-000000000001"}
        vinfo.append([row[h] for h in VINFO_4X])
        for d in range(disks):
            cap = v.disk_mib // disks
            common = {"VM": v.name, "Powerstate": state, "Template": v.template, "Disk": f"Hard disk {d + 1}",
                      "Disk Key": 2000 + d, "Capacity MiB": cap, "Datacenter": "DC-North", "Cluster": v.cluster,
                      "Host": v.host, "VM UUID": _uuid(i)}
            vdisk.append([{**common, "Raw": False, "Disk Mode": "persistent", "Thin": True,
                           "Controller": "SCSI controller 0", "Unit #": d,
                           "Path": f"[ds-{v.cluster}] {v.name}/{v.name}_{d}.vmdk"}.get(h) for h in VDISK_4X])
            used = v.used_mib // disks
            vpart.append([{**common, "Disk": "/" if d == 0 else "/data", "Consumed MiB": used,
                           "Free MiB": cap - used, "Free %": round(100 * (cap - used) / cap)}.get(h)
                          for h in VPARTITION_4X])
    vhost = [VHOST_4X]
    for h in hosts:
        on = [v for v in vms if v.host == h.name and v.on]
        cores = h.sockets * h.cores_per_socket
        row = {"Host": h.name, "Datacenter": "DC-North", "Cluster": h.cluster, "Config status": "green",
               "in Maintenance Mode": False, "CPU Model": h.cpu_model, "Speed": h.mhz, "HT Available": True,
               "HT Active": True, "# CPU": h.sockets, "Cores per CPU": h.cores_per_socket, "# Cores": cores,
               "CPU usage %": h.cpu_pct, "# Memory": h.ram_mib, "Memory usage %": h.mem_pct,
               "Console": 0, "# NICs": 4, "# HBAs": 2, "# VMs": len(on),
               "VMs per Core": round(len(on) / cores, 2), "# vCPUs": sum(v.vcpus for v in on),
               "vCPUs per Core": round(sum(v.vcpus for v in on) / cores, 2), "vRAM": sum(v.ram_mib for v in on),
               "ESX Version": "VMware ESXi 7.0.3 build-21930508", "Vendor": "Dell Inc.",
               "Model": "PowerEdge R740", "Serial number": "SN" + "".join(c for c in h.name if c.isalnum())[-7:].upper(),
               "VI SDK Server": server}
        vhost.append([row[k] for k in VHOST_4X])
    return {"vInfo": vinfo, "vDisk": vdisk, "vPartition": vpart, "vHost": vhost,
            "vMetaData": [["RVTools major version", "RVTools version", "xlsx creation datetime", "Server"],
                          [4, "4.6.1.2", "2024/03/11 09:15:02", server]]}


def _rows_3x(hosts: list[HostSpec], vms: list[VMSpec]) -> dict[str, list[list]]:
    vinfo, vpart = [VINFO_3X], [VPARTITION_3X]
    for v in vms:
        state = "poweredOn" if v.on else "poweredOff"
        tpl = "True" if v.template else "False"  # RVTools 3.x writes the word
        row = {"VM": v.name, "Powerstate": state, "Template": tpl, "CPUs": v.vcpus, "Memory": v.ram_mib, "NICs": 1,
               "Disks": 1, "Provisioned MB": v.disk_mib, "In Use MB": v.used_mib, "Datacenter": "DC01",
               "Cluster": v.cluster, "Host": v.host, "OS according to the configuration file": v.os,
               "OS according to the VMware Tools": v.os if v.on else ""}
        vinfo.append([row[h] for h in VINFO_3X])
        vpart.append([{"VM": v.name, "Powerstate": state, "Template": tpl, "Disk": "C:\\" if v.os == WIN else "/",
                       "Capacity MB": v.disk_mib, "Consumed MB": v.used_mib, "Free MB": v.disk_mib - v.used_mib,
                       "Free %": round(100 * (v.disk_mib - v.used_mib) / v.disk_mib), "Datacenter": "DC01",
                       "Cluster": v.cluster, "Host": v.host}[h] for h in VPARTITION_3X])
    vhost = [VHOST_3X]
    for h in hosts:  # esx05 carries VMs in vInfo but is not listed here
        on = [v for v in vms if v.host == h.name and v.on]
        cores = h.sockets * h.cores_per_socket
        row = {"Host": h.name, "Datacenter": "DC01", "Cluster": h.cluster, "Config status": "green",
               "CPU Model": h.cpu_model, "Speed": h.mhz, "HT Available": "True", "HT Active": "True",
               "# CPU": h.sockets, "Cores per CPU": h.cores_per_socket, "# Cores": cores, "CPU usage %": h.cpu_pct,
               "# Memory": h.ram_mib, "Memory usage %": h.mem_pct, "Console": 0, "# NICs": 4, "# HBAs": 2,
               "# VMs": len(on), "VMs per Core": round(len(on) / cores, 1), "# vCPUs": sum(v.vcpus for v in on),
               "vCPUs per Core": round(sum(v.vcpus for v in on) / cores, 1), "vRAM": sum(v.ram_mib for v in on),
               "ESX Version": "VMware ESXi 6.0.0 build-3620759", "Vendor": "HP", "Model": "ProLiant DL380 Gen9"}
        vhost.append([row[k] for k in VHOST_3X])
    return {"vInfo": vinfo, "vPartition": vpart, "vHost": vhost}


def _rows_small(hosts: list[HostSpec], vms: list[VMSpec]) -> dict[str, list[list]]:
    vinfo, vdisk, vpart = [VINFO_SMALL], [VDISK_SMALL], [VPARTITION_SMALL]
    for v in vms:
        vinfo.append([v.name, "poweredOn" if v.on else "poweredOff", v.vcpus, v.ram_mib, v.host, v.cluster,
                      "Datacenter", v.disk_mib + v.ram_mib, 3 if v.on else 0, v.os if v.on else None])
        vdisk.append([v.name, "Hard disk 1", 2000, v.disk_mib, 0])
        vpart.append([v.name, 2000, "/", v.disk_mib, v.used_mib, v.disk_mib - v.used_mib,
                      round(100 * (v.disk_mib - v.used_mib) / v.disk_mib)])
    vhost = [VHOST_SMALL] + [[h.name, h.mhz, h.sockets * h.cores_per_socket] for h in hosts]
    return {"vInfo": vinfo, "vDisk": vdisk, "vPartition": vpart, "vCPU": [["VM", "CPUs"]],
            "vMemory": [["VM", "Size MiB"]], "vHost": vhost, "vCluster": [["Name", "NumHosts"], ["cluster-1", 2]],
            "vNetwork": [["VM", "Network"]], "vHealth": [["Name", "Message"]]}


ROWS = {"rvtools-4x.xlsx": _rows_4x, "rvtools-4x-sdk.xlsx": _rows_4x, "rvtools-3x.xlsx": _rows_3x,
        "rvtools-small.xlsx": _rows_small}


def tabs(name: str) -> dict[str, list[list]]:
    """Every tab of the workbook ``name``: header row first."""
    return ROWS[name](*estate(name))


# --- writers -------------------------------------------------------------------------------------
def write_openpyxl(path: Path, sheets: dict[str, list[list]]) -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for tab, rows in sheets.items():
        ws = wb.create_sheet(tab)
        for r in rows:
            ws.append(r)
    wb.save(path)
    return path


def _col(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def write_sdk_style(path: Path, sheets: dict[str, list[list]]) -> Path:
    """A workbook written as RVTools (.NET OpenXML SDK) writes one: ``x:``-prefixed parts, every
    text in the shared-string table, booleans as ``t="b"``, a ``<dimension>`` per tab. ``sheets``
    may hold generators of rows (the 10,000-VM benchmark workbook streams through here)."""
    ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    strings: dict[str, int] = {}

    def sref(text: str) -> int:
        n = strings.get(text)
        if n is None:
            n = strings[text] = len(strings)
        return n

    def cell(ref: str, v) -> str:
        if v is None:
            return ""
        if isinstance(v, bool):
            return f'<x:c r="{ref}" t="b"><x:v>{int(v)}</x:v></x:c>'
        if isinstance(v, (int, float)):
            return f'<x:c r="{ref}"><x:v>{v}</x:v></x:c>'
        return f'<x:c r="{ref}" t="s"><x:v>{sref(str(v))}</x:v></x:c>'

    def sheet(rows) -> bytes:
        rows = list(rows)
        width = max(len(r) for r in rows)
        cols = [_col(i) for i in range(width)]
        parts = [f'<?xml version="1.0" encoding="utf-8"?><x:worksheet xmlns:r="{rel}" xmlns:x="{ns}">'
                 f'<x:dimension ref="A1:{cols[-1]}{len(rows)}" /><x:sheetData>']
        for n, r in enumerate(rows, start=1):
            parts.append(f'<x:row r="{n}">' + "".join(cell(f"{cols[i]}{n}", v) for i, v in enumerate(r)) + "</x:row>")
        parts.append("</x:sheetData></x:worksheet>")
        return "".join(parts).encode()

    names = list(sheets)
    parts = {t: sheet(sheets[t]) for t in names}
    shared = "".join(f"<x:si><x:t>{escape(s)}</x:t></x:si>" for s in strings)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml",
                   '<?xml version="1.0" encoding="utf-8"?><Types xmlns="http://schemas.openxmlformats.org/package/'
                   '2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-'
                   'package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
                   '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
                   'officedocument.spreadsheetml.sheet.main+xml"/>'
                   '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-'
                   'officedocument.spreadsheetml.sharedStrings+xml"/>'
                   + "".join(f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="application/'
                             'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
                             for i in range(1, len(names) + 1)) + "</Types>")
        z.writestr("_rels/.rels", '<?xml version="1.0" encoding="utf-8"?><Relationships xmlns="http://schemas.'
                   'openxmlformats.org/package/2006/relationships"><Relationship Type="http://schemas.'
                   'openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
                   'Target="/xl/workbook.xml" Id="R1"/></Relationships>')
        z.writestr("xl/workbook.xml", f'<?xml version="1.0" encoding="utf-8"?><x:workbook xmlns:r="{rel}" '
                   f'xmlns:x="{ns}"><x:sheets>' + "".join(
                       f'<x:sheet name="{t}" sheetId="{i}" r:id="R{i}"/>' for i, t in enumerate(names, start=1))
                   + "</x:sheets></x:workbook>")
        z.writestr("xl/_rels/workbook.xml.rels", '<?xml version="1.0" encoding="utf-8"?><Relationships '
                   'xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' + "".join(
                       f'<Relationship Type="{rel}/worksheet" Target="/xl/worksheets/sheet{i}.xml" Id="R{i}"/>'
                       for i in range(1, len(names) + 1))
                   + f'<Relationship Type="{rel}/sharedStrings" Target="/xl/sharedStrings.xml" Id="R999"/>'
                   "</Relationships>")
        z.writestr("xl/sharedStrings.xml", f'<?xml version="1.0" encoding="utf-8"?><x:sst xmlns:x="{ns}" '
                   f'count="{len(strings)}" uniqueCount="{len(strings)}">{shared}</x:sst>')
        for i, t in enumerate(names, start=1):
            z.writestr(f"xl/worksheets/sheet{i}.xml", parts[t])
    return path


def write(name: str, folder: Path) -> Path:
    """Write the workbook ``name`` into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    writer = write_sdk_style if name.endswith("-sdk.xlsx") else write_openpyxl
    return writer(folder / name, tabs(name))


_DIR: Path | None = None


def path(name: str) -> Path:
    """The workbook ``name``, written once per process into a temporary folder."""
    global _DIR
    if name not in ROWS:
        raise KeyError(name)
    if _DIR is None:
        _DIR = Path(tempfile.mkdtemp(prefix="capadvisor-rvtools-"))
        atexit.register(shutil.rmtree, _DIR, True)
    p = _DIR / name
    if not p.exists():
        write(name, _DIR)
    return p


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    for n in ROWS:
        print(write(n, out))
