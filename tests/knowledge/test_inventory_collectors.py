"""The collectors besides RVTools (Live Optics, Nutanix Collector, Azure Migrate and AWS Migration
Hub imports) on the fixtures of tests/fixtures/inventory/collectors (written by make_fixtures.py
there from the published column names; SOURCES.md says where each was published): their totals
against the same files read here with openpyxl/csv directly (not the readers under test), and
hostile files (a required column missing, another unit, an empty sheet, a VM listed twice, a
known collector's workbook this program does not read) refused naming file, sheet, row and
column, with exit code 2 from `capadvisor inventory`."""

from __future__ import annotations

import csv
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path

import openpyxl
import pytest

from app.cli import main
from knowledge.infra.errors import InputError
from knowledge.inventory import detect, read_inventory

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "inventory" / "collectors"
LO, NX = FIX / "liveoptics.xlsx", FIX / "nutanix-collector.xlsx"
AZ, AWS = FIX / "azure-migrate-import.csv", FIX / "aws-migrationhub-import.csv"
GB_PER_MIB = 2**20 / 1e9


@dataclass
class Totals:
    vms: int
    vcpus: int
    ram_mib: float
    disk_gb: float
    powered_off: int = 0
    templates: int = 0
    hosts: int = 0


# --- independent readers (the published column names, spelled out here) --------------------------
def _sheet(path: Path, name: str) -> list[dict]:
    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    rows = list(wb[name].iter_rows(values_only=True))
    wb.close()
    return [dict(zip(rows[0], r, strict=False)) for r in rows[1:] if r and r[0] not in (None, "")]


def _workbook_totals(path: Path, vms: str, hosts: str, cols: dict[str, str], on: str, tpl: str) -> Totals:
    rows = _sheet(path, vms)
    kept = [r for r in rows if str(r[cols["template"]]).lower() not in ("true", "yes")]
    return Totals(len(kept), sum(int(r[cols["vcpus"]]) for r in kept), sum(float(r[cols["ram"]]) for r in kept),
                  sum(float(r[cols["disk"]]) for r in kept) * GB_PER_MIB,
                  sum(1 for r in kept if r[cols["power"]] != on), len(rows) - len(kept), len(_sheet(path, hosts)))


def live_optics_totals() -> Totals:
    return _workbook_totals(LO, "VMs", "ESX Hosts", {"template": "Template", "vcpus": "Virtual CPU",
                            "ram": "Provisioned Memory (MiB)", "disk": "Virtual Disk Size (MiB)",
                            "power": "Power State"}, "poweredOn", "TRUE")


def nutanix_totals() -> Totals:
    return _workbook_totals(NX, "vmList", "vHosts", {"template": "Template", "vcpus": "vCPUs", "ram": "Memory (MiB)",
                            "disk": "Capacity (MiB)", "power": "Power State"}, "poweredOn", "Yes")


def _csv(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def azure_totals() -> Totals:
    rows = _csv(AZ)
    disks = sum(float(v) for r in rows for k, v in r.items() if re.fullmatch(r"Disk \d+ size \(In GB\)", k) and v)
    return Totals(len(rows), sum(int(r["*Cores"]) for r in rows),
                  sum(float(r["*Memory (In MB)"].replace(",", "")) for r in rows), disks)


def aws_totals() -> Totals:
    rows = _csv(AWS)
    return Totals(len(rows), sum(int(r["CPU.NumberOfLogicalCores"]) for r in rows),
                  sum(float(r["RAM.TotalSizeInMB"]) for r in rows), 0.0)


CASES = {"liveoptics-xlsx": (LO, live_optics_totals), "nutanix-xlsx": (NX, nutanix_totals),
         "azure-migrate-csv": (AZ, azure_totals), "aws-mhub-csv": (AWS, aws_totals)}


def read_totals(estate) -> Totals:
    vms = [v for v in estate.vms if not v.template]
    c = estate.counts()
    return Totals(len(vms), sum(v.vcpus for v in vms), sum(v.ram_mib for v in vms),
                  sum(v.disk_gb or 0.0 for v in vms), c["powered_off"], c["templates"], c["hosts"])


@pytest.mark.parametrize("fmt", list(CASES))
def test_each_collector_imports_its_published_columns_with_the_independent_totals(fmt):
    path, totals = CASES[fmt]
    assert detect(path)[0] == fmt
    got, want = read_totals(read_inventory([path])), totals()
    assert (got.vms, got.vcpus, got.powered_off, got.templates, got.hosts) == \
        (want.vms, want.vcpus, want.powered_off, want.templates, want.hosts)
    assert got.ram_mib == pytest.approx(want.ram_mib) and got.disk_gb == pytest.approx(want.disk_gb)
    assert want.vms >= 9 and want.vcpus > want.vms  # the fixture is not empty


def test_the_workbooks_say_powered_off_vms_templates_hosts_and_utilisation():
    lo = read_inventory([LO])
    assert lo.counts() == {"vms": 9, "containers": 0, "powered_off": 2, "templates": 1, "hosts": 4}
    db = next(v for v in lo.vms if v.name == "db-02")
    assert db.powered_on is False and db.disk_gb == pytest.approx(1080 * 1024 * GB_PER_MIB)
    esx3 = next(h for h in lo.hosts if h.name == "esx-03")
    assert (esx3.sockets, esx3.cores_per_socket, esx3.threads_per_core, esx3.ghz, esx3.ram_mib) == \
        (2, 24, 2, 2.4, 1024 * 1024)
    nx = read_inventory([NX])
    assert next(h for h in nx.hosts if h.name == "esx-04").cpu_usage_pct == 35.0
    az = read_inventory([AZ])
    app = next(v for v in az.vms if v.name == "app-01")
    assert (app.cpu_usage_pct, app.mem_consumed_mib, app.used_gb) == (35.0, pytest.approx(16384 * 0.62), 140)
    aws = read_inventory([AWS])
    assert next(v for v in aws.vms if v.name == "db-01").mem_consumed_mib == round(65536 * 0.81)


def test_a_nutanix_collector_workbook_is_not_taken_for_rvtools_for_its_vinfo_sheet():
    assert "vInfo" in openpyxl.load_workbook(NX, read_only=True).sheetnames
    assert detect(NX)[0] == "nutanix-xlsx"


def test_the_generator_still_writes_the_committed_fixtures(tmp_path):
    spec = importlib.util.spec_from_file_location("make_fixtures", FIX / "make_fixtures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for new in mod.main(tmp_path):
        old = FIX / new.name
        if new.suffix == ".csv":
            assert new.read_bytes() == old.read_bytes(), new.name
            continue
        a, b = openpyxl.load_workbook(new, read_only=True), openpyxl.load_workbook(old, read_only=True)
        assert a.sheetnames == b.sheetnames
        for s in a.sheetnames:
            assert list(a[s].iter_rows(values_only=True)) == list(b[s].iter_rows(values_only=True)), (new.name, s)


def test_sources_name_where_every_fixture_column_was_published():
    text = (FIX / "SOURCES.md").read_text()
    for name in ("liveoptics.xlsx", "nutanix-collector.xlsx", "azure-migrate-import.csv",
                 "aws-migrationhub-import.csv"):
        assert name in text
    for url in ("learn.microsoft.com", "docs.aws.amazon.com", "liveoptics", "nutanix"):
        assert url in text.lower()


# --- hostile files ----------------------------------------------------------------------------------
def _copy_xlsx(tmp: Path, src: Path, name: str, edit) -> Path:
    wb = openpyxl.load_workbook(src)
    edit(wb)
    out = tmp / name
    wb.save(out)
    return out


def _copy_csv(tmp: Path, src: Path, name: str, edit) -> Path:
    with src.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    out = tmp / name
    with out.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(edit(rows))
    return out


def _drop_col(ws, header: str) -> None:
    col = next(c.column for c in ws[1] if c.value == header)
    ws.delete_cols(col)


def _cells(rows, header, fn):
    i = rows[0].index(header)
    return [rows[0]] + [r[:i] + [fn(r[i])] + r[i + 1:] for r in rows[1:]]


def _hostile(tmp: Path) -> dict[str, tuple[Path, str]]:
    """id -> (file, what the message must say: file, sheet/line, column)."""
    def dup(ws):
        ws.append([c.value for c in ws[3]])

    def empty(wb):
        del wb["VMs"]
        wb.create_sheet("VMs")

    def header_only(wb):
        ws = wb["vmList"]
        ws.delete_rows(2, ws.max_row)

    def rename(ws, old, new):
        next(c for c in ws[1] if c.value == old).value = new

    return {
        "missing-column": (_copy_xlsx(tmp, LO, "lo-nocpu.xlsx", lambda wb: _drop_col(wb["VMs"], "Virtual CPU")),
                           r"lo-nocpu.xlsx: a Live Optics export: sheet VMs has no column 'Virtual CPU'"),
        "missing-csv-column": (_copy_csv(tmp, AZ, "az-nomem.csv", lambda rows: [r[:3] + r[4:] for r in rows]),
                               r"az-nomem.csv: an Azure Migrate import file: the file has no column "
                               r"'\*Memory \(In MB\)'"),
        "wrong-unit-header": (_copy_csv(tmp, AZ, "az-gb.csv",
                                        lambda rows: [[*r[:3], "*Memory (In GB)", *r[4:]] if i == 0 else r
                                                      for i, r in enumerate(rows)]),
                              r"az-gb.csv: an Azure Migrate import file: the file, column '\*Memory \(In GB\)': "
                              r"gives ram in GB, but Azure Migrate writes it in MB as '\*Memory \(In MB\)'"),
        "wrong-unit-sheet": (_copy_xlsx(tmp, LO, "lo-gib.xlsx", lambda wb: rename(wb["VMs"], "Provisioned Memory "
                                        "(MiB)", "Provisioned Memory (GiB)")),
                             r"lo-gib.xlsx: a Live Optics export: sheet VMs, column 'Provisioned Memory \(GiB\)': "
                             r"gives ram in GiB"),
        "wrong-unit-dotted": (_copy_csv(tmp, AWS, "aws-gbhdr.csv",
                                        lambda rows: [[h.replace("RAM.TotalSizeInMB", "RAM.TotalSizeInGB") for h in r]
                                                      if i == 0 else r for i, r in enumerate(rows)]),
                              r"aws-gbhdr.csv: an AWS Migration Hub import file: the file, column "
                              r"'RAM.TotalSizeInGB': gives ram in GB, but AWS Migration Hub writes it in MB"),
        "wrong-unit-values": (_copy_csv(tmp, AWS, "aws-gb.csv", lambda rows: _cells(
                                  rows, "RAM.TotalSizeInMB", lambda v: str(int(v) // 1024))),
                              r"aws-gb.csv: line 2, column 'RAM.TotalSizeInMB': VM 'web-01' would have 4 MiB .*"
                              r"the column is in MB"),
        "percent": (_copy_csv(tmp, AZ, "az-pct.csv", lambda rows: _cells(rows, "CPU utilization percentage",
                                                                        lambda v: str(float(v) * 10))),
                    r"az-pct.csv: line 2, column 'CPU utilization percentage': 185 % is outside 0-100 %"),
        "empty-sheet": (_copy_xlsx(tmp, LO, "lo-empty.xlsx", empty),
                        r"lo-empty.xlsx: a Live Optics export: sheet VMs is empty"),
        "no-rows": (_copy_xlsx(tmp, NX, "nx-norows.xlsx", header_only),
                    r"nx-norows.xlsx: a Nutanix Collector export: sheet vmList lists no VMs"),
        "duplicate": (_copy_xlsx(tmp, NX, "nx-dup.xlsx", lambda wb: dup(wb["vmList"])),
                      r"nx-dup.xlsx: a Nutanix Collector export: sheet vmList: VM 'web-02' is listed twice, in rows "
                      r"3 and 12 \(column 'VM Name'\)"),
        "duplicate-csv": (_copy_csv(tmp, AZ, "az-dup.csv", lambda rows: rows + [rows[1]]),
                          r"az-dup.csv: an Azure Migrate import file: the file: VM 'web-01' is listed twice, in rows 2 "
                          r"and 11"),
        "no-vm-sheet": (_copy_xlsx(tmp, LO, "lo-novms.xlsx", lambda wb: wb.remove(wb["VMs"])),
                        r"lo-novms.xlsx: a Live Optics export, but without its VMs sheet"),
    }


HOSTILE = ["missing-column", "missing-csv-column", "wrong-unit-header", "wrong-unit-sheet", "wrong-unit-dotted",
           "wrong-unit-values",
           "percent", "empty-sheet", "no-rows", "duplicate", "duplicate-csv", "no-vm-sheet"]


@pytest.mark.parametrize("case", HOSTILE)
def test_hostile_files_are_refused_naming_file_sheet_row_and_column(tmp_path, case, capsys):
    path, message = _hostile(tmp_path)[case]
    with pytest.raises(InputError, match=message):
        read_inventory([path])
    assert main(["inventory", str(path), "--no-advise"]) == 2
    err = capsys.readouterr().err
    assert re.search(message, err) and "RVTools" not in err.split("supported:")[0]


def test_known_workbooks_this_program_does_not_read_are_named_never_sent_to_rvtools(tmp_path):
    from tests.knowledge.rvtools_workbooks import write_openpyxl

    az = write_openpyxl(tmp_path / "assessment.xlsx", {"Assessment_Summary": [["a"]], "All_Assessed_Machines":
                                                       [["Machine", "Cores"]], "All_Assessed_Disks": [["Disk"]]})
    with pytest.raises(InputError, match=r"assessment.xlsx: an Azure Migrate assessment export: .*import CSV") as e:
        read_inventory([az])
    assert "RVTools" not in str(e.value)
    lo_hosts = write_openpyxl(tmp_path / "lo-hosts.xlsx", {"ESX Hosts": [["Host Name"], ["esx-1"]],
                                                          "ESX Performance": [["Host"], ["esx-1"]]})
    with pytest.raises(InputError, match=r"lo-hosts.xlsx: a Live Optics export, but without its VMs sheet") as e:
        read_inventory([lo_hosts])
    assert "RVTools" not in str(e.value)


@pytest.mark.parametrize("fmt", ["liveoptics-xlsx", "nutanix-xlsx"])
def test_powered_off_vms_and_templates_are_treated_as_for_rvtools(fmt, capsys):
    """Templates never reach the scenario; powered-off VMs do, unless --exclude-powered-off."""
    import json

    path, totals = CASES[fmt]
    want = totals()
    assert main(["inventory", str(path), "--no-advise", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["found"]["templates"] == want.templates and doc["found"]["powered_off"] == want.powered_off
    planned = doc["totals"]["scenario"]
    assert (planned["vms"], planned["vcpus"]) == (want.vms, want.vcpus)
    assert main(["inventory", str(path), "--no-advise", "--format", "json", "--exclude-powered-off"]) == 0
    off = [v for v in read_inventory([path]).vms if v.powered_on is False and not v.template]
    planned = json.loads(capsys.readouterr().out)["totals"]["scenario"]
    assert (planned["vms"], planned["vcpus"]) == (want.vms - len(off), want.vcpus - sum(v.vcpus for v in off))


def test_the_azure_migrate_template_with_storage_in_mb(tmp_path):
    """A later form of the import template gives the storage as totals in MB (``Storage in use (In
    MB)``, ``*Storage allocated (In MB)``) instead of numbered disks in GB."""
    p = tmp_path / "az-mb.csv"
    p.write_text("*Server name,IP addresses,*Cores,*Memory (In MB),*OS name,OS version,OS architecture,Server type,"
                 "Hypervisor,CPU utilization percentage,Memory utilization percentage,Storage in use (In MB),"
                 "*Storage allocated (In MB)\ndc01,10.0.0.1,2,2048,Windows Server 2022,,x64,Virtual,Hyper-V,10,20,"
                 "40960,81920\n")
    (vm,) = read_inventory([p]).vms
    assert (vm.vcpus, vm.ram_mib, vm.disk_gb, vm.used_gb) == (2, 2048, pytest.approx(81920 * GB_PER_MIB),
                                                              pytest.approx(40960 * GB_PER_MIB))
