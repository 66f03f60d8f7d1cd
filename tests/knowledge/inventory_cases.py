"""The inventory fixtures (tests/fixtures/inventory, sources in SOURCES.md) as test cases: how to
get each case's input files, and its VM/vCPU/RAM totals computed straight from the source with
other tools than the readers under test (openpyxl's own cell reader, the standard library's
ElementTree, json, regular expressions).

RVTools workbooks: the generated ones (tests/knowledge/rvtools_workbooks.py) always; the real
exports from fetched snapshots only where they are present in tests/fixtures/inventory/local/
with the sha256 SOURCES.md records (kept out of the repository by the workplace's rule); a test
asking for an absent one is skipped with SOURCES.md's reason."""

from __future__ import annotations

import ast
import csv
import hashlib
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from tests.knowledge import rvtools_workbooks as generated

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures" / "inventory"
LOCAL = FIX / "local"
LIBVIRT = FIX / "libvirt"
PROXMOX = FIX / "proxmox"
OPENSTACK = FIX / "openstack"
EXAMPLES = ROOT / "resources" / "examples"


#: RVTools workbooks: generated (in CI) and the real exports they stand in for (run when present)
GENERATED = ["rvtools-4x.xlsx", "rvtools-4x-sdk.xlsx", "rvtools-3x.xlsx", "rvtools-small.xlsx"]
REAL = ["RVTOOLEX.xlsx", "SizingWorkshop-RVTools.xlsx", "rvtools-small-complete.xlsx"]
WORKBOOKS = GENERATED + REAL
STANDS_IN_FOR = {"rvtools-4x.xlsx": "RVTOOLEX.xlsx", "rvtools-4x-sdk.xlsx": "RVTOOLEX.xlsx",
                 "rvtools-3x.xlsx": "SizingWorkshop-RVTools.xlsx", "rvtools-small.xlsx": "rvtools-small-complete.xlsx"}

#: what each workbook holds: for the generated ones counted from the estate written into them, for
#: the real ones read off them by hand when they were first added
FACTS = {**{n: generated.facts(n) for n in GENERATED},
         "RVTOOLEX.xlsx": {"vms": 133, "powered_off": 17, "templates": 0, "hosts": 9, "cores_per_socket": 18,
                           "clusters": ["USFQ-PRODUCCION", "USFQ-SANDBOX", "USFQ-TEST"]},
         "SizingWorkshop-RVTools.xlsx": {"vms": 795, "templates": 10},
         "rvtools-small-complete.xlsx": {}}


def source_rows() -> dict[str, list[str]]:
    """SOURCES.md's table rows by file name (cells stripped)."""
    rows = {}
    for line in (FIX / "SOURCES.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("| ") else []
        if len(cells) >= 4 and re.fullmatch(r"[\w.-]+\.\w+", cells[0]):
            rows[cells[0]] = cells
    return rows


def kept_out(name: str) -> Path:
    """A fetched-snapshot file kept out of the repository: its path under local/ when it is there with
    the sha256 SOURCES.md records; the calling test is skipped with SOURCES.md's reason otherwise."""
    import pytest

    from tests import kept_out as where

    row = source_rows()[name]
    path = where.find(name, LOCAL)
    if path is None:
        pytest.skip(f"{name}: {row[4]}")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert digest == row[5], f"{path}: sha256 {digest}, SOURCES.md records {row[5]} (not the published file)"
    return path


def rvtools(name: str) -> Path:
    """The RVTools workbook ``name``: generated, or a real export (skips when absent)."""
    return generated.path(name) if name in GENERATED else kept_out(name)


@dataclass
class Totals:
    vms: int
    vcpus: int
    ram_mib: float
    unsized: int = 0  # VMs whose source gives no vCPU/RAM (left out of vcpus and ram_mib)


# --- independent source totals --------------------------------------------------------------
def rvtools_xlsx_totals(path: Path) -> Totals:
    import openpyxl

    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    rows = wb["vInfo"].iter_rows(values_only=True)
    header = [str(h) for h in next(rows)]
    vm, cpus, mem = header.index("VM"), header.index("CPUs"), header.index("Memory")
    tpl = header.index("Template") if "Template" in header else None
    n = c = 0
    ram = 0.0
    for r in rows:
        if r[vm] in (None, ""):
            continue
        if tpl is not None and str(r[tpl]).strip().lower() == "true":
            continue
        n += 1
        c += int(r[cpus])
        ram += float(r[mem])
    wb.close()
    return Totals(n, c, ram)


def rvtools_xlsx_hosts(path: Path) -> int:
    import openpyxl

    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    n = sum(1 for r in list(wb["vHost"].iter_rows(values_only=True))[1:] if r[0] not in (None, ""))
    wb.close()
    return n


_KIB = {None: 1, "b": 1 / 1024, "bytes": 1 / 1024, "k": 1, "kib": 1, "kb": 1000 / 1024, "m": 1024, "mib": 1024,
        "mb": 1e6 / 1024, "g": 1024**2, "gib": 1024**2, "gb": 1e9 / 1024}


def domain_totals(paths: list[Path]) -> Totals:
    seen: dict[str, tuple[int, float]] = {}
    for p in paths:
        root = ET.fromstring(p.read_text())
        v = root.find("vcpu")
        m = root.find("memory")
        kib = float(m.text) * _KIB[(m.get("unit") or "KiB").lower() if m.get("unit") else None]
        uuid = re.sub(r"[^0-9a-f]", "", root.findtext("uuid").lower())
        seen.setdefault(uuid, (int(v.get("current") or v.text), kib / 1024))
    return Totals(len(seen), sum(c for c, _ in seen.values()), sum(r for _, r in seen.values()))


def virsh_totals(path: Path) -> Totals:
    text = path.read_text()
    listed = re.findall(r"^\s*\d+\s+(\S+)\s+running\s*$", text, re.M)
    info: dict[str, tuple[int, float]] = {}
    for block in re.findall(r"^Name:\s+(\S+)\n(?:.*\n)*?CPU\(s\):\s+(\d+)\nMax memory:\s+(\d+) KiB", text, re.M):
        info.setdefault(block[0], (int(block[1]), int(block[2]) / 1024))
    names = set(listed) | set(info)
    return Totals(len(names), sum(c for c, _ in info.values()), sum(r for _, r in info.values()),
                  unsized=len(names - set(info)))


def proxmox_totals(items: list[dict]) -> Totals:
    guests = [x for x in items if x.get("type") in ("qemu", "lxc") and not x.get("template")]
    return Totals(len(guests), sum(int(x["maxcpu"]) for x in guests), sum(x["maxmem"] / 2**20 for x in guests))


def openstack_totals(servers: Path, flavors: Path | None) -> Totals:
    table = {}
    if flavors:
        table = {f["id"]: f for f in json.loads(flavors.read_text())["flavors"]}
    n = c = 0
    ram = 0.0
    for s in json.loads(servers.read_text())["servers"]:
        f = s["flavor"] if "vcpus" in s["flavor"] else table[s["flavor"]["id"]]
        n, c, ram = n + 1, c + f["vcpus"], ram + f["ram"]
    return Totals(n, c, ram)


def template_totals(path: Path) -> Totals:
    rows = [r for r in csv.DictReader(line for line in path.read_text().splitlines() if not line.startswith("#"))]
    rows = [r for r in rows if (r.get("template") or "").strip().lower() not in ("yes", "true", "1")]
    count = [int(r["count"] or 1) for r in rows]
    return Totals(sum(count), sum(int(r["vcpus"]) * k for r, k in zip(rows, count, strict=True)),
                  sum(float(r["ram_gib"]) * 1024 * k for r, k in zip(rows, count, strict=True)))


# --- inputs kept inside other projects' test files -------------------------------------------
def proxmox_pvesh_items() -> list[dict]:
    """The cluster resource list of dougiteixeira/proxmoxve tests/const.py (MOCK_GET_RESPONSE)."""
    tree = ast.parse((PROXMOX / "proxmoxve-tests-const.py.txt").read_text())
    return next(ast.literal_eval(n.value) for n in tree.body
                if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "MOCK_GET_RESPONSE")


def proxmox_api_body() -> str:
    """The GET api2/json/cluster/resources body of centreon-plugins' Proxmox mock."""
    mock = json.loads((PROXMOX / "proxmox.mockoon.json").read_text())
    return next(r["responses"][0]["body"] for r in mock["routes"] if r["endpoint"].endswith("cluster/resources"))


def rvtools_csv_tabs(tmp: Path, prefixed: bool = False, delimiter: str = ",", thousands: bool = False,
                     workbook: str = "rvtools-4x.xlsx") -> list[Path]:
    """vInfo and vHost of an RVTools 4.x workbook written as RVTools' CSV tab files; with
    ``prefixed`` the headers carry the tab name (vInfoVMName, vInfoCPUs ...) as some exports do;
    with ``thousands`` numbers are printed with thousands separators (16,384)."""
    import openpyxl

    wb = openpyxl.load_workbook(rvtools(workbook), read_only=True, data_only=True)
    out = []
    renames = {"vInfo": {"VM": "VMName", "In Use MiB": "InUse", "Provisioned MiB": "Provisioned",
                         "OS according to the configuration file": "OS"},
               "vHost": {"Host": "Name", "# CPU": "NumCpu", "Cores per CPU": "CoresPerCPU",
                         "# Cores": "NumCpuCores", "# Memory": "MemorySize"}}
    for tab in ("vInfo", "vHost"):
        rows = list(wb[tab].iter_rows(values_only=True))
        header = [str(h) for h in rows[0]]
        if prefixed:
            header = [tab + re.sub(r"[^0-9A-Za-z]", "", renames[tab].get(h, h)) for h in header]
        path = tmp / f"RVTools_tab{tab}.csv"
        with open(path, "w", newline="", encoding="utf-8-sig") as fh:
            w = csv.writer(fh, delimiter=delimiter)
            w.writerow(header)
            for r in rows[1:]:
                cells = []
                for v in r:
                    if thousands and isinstance(v, (int, float)) and not isinstance(v, bool) and float(v).is_integer():
                        v = f"{int(v):,}"
                    cells.append("" if v is None else v)
                w.writerow(cells)
        out.append(path)
    wb.close()
    return out
