"""The collectors' numbers after the second #31 review (findings 3, 4, 14, 16, 17 and the labels of 1, 2, 6, 15):

- a powered-off VM's 0 % row (Live Optics ``VM Performance``) or a server at 0 % CPU and no memory in use
  (Azure Migrate / AWS Migration Hub, whose templates have no power state) is no measurement;
- utilisation columns written as 0-1 fractions are read x 100 with a warning naming file and column;
- the VMs two exports of one estate both list are counted once, with a warning;
- Live Optics performance rows join their VM by ``MOB ID`` where both sheets carry it.

Every expected number is read here from the fixtures (openpyxl / csv, the published column names spelled
out again), not by the readers under test."""

from __future__ import annotations

import csv
from pathlib import Path

import openpyxl
import pytest

from tests.knowledge.test_inventory_collector_usage import FIX, _json, _sheet

pytestmark = pytest.mark.timeout(120)

LO, AZ, AWS = FIX / "liveoptics.xlsx", FIX / "azure-migrate-import.csv", FIX / "aws-migrationhub-import.csv"


def _workload(doc: dict, vcpus: int, ram_gib: float) -> dict:
    return next(w for w in doc["scenario"]["workloads"] if w["vcpus"] == vcpus and w["ram_gib"] == ram_gib)


def _planned_busy(doc: dict) -> float:
    return sum(w["vms"] * w["vcpus"] * w.get("cpu_busy_share", 0.0) for w in doc["scenario"]["workloads"])


# --- finding 3: Live Optics powered-off VMs ----------------------------------------------------------
def test_live_optics_powered_off_vms_rows_are_no_measurement(capsys):
    vms = {r["VM Name"]: r for r in _sheet(LO, "VMs")}
    perf = {r["VM Name"]: r for r in _sheet(LO, "VM Performance")}
    off = [n for n, r in vms.items() if r["Power State"] == "poweredOff" and r["Template"] != "TRUE"]
    assert {"db-02", "test-01"} <= set(off) and all(perf[n]["Peak vCPU %"] == 0 for n in off)
    doc = _json(capsys, str(LO))  # powered-off VMs are planned by default
    db = _workload(doc, 8, 64.0)
    assert db["vms"] == 2 and db["cpu_busy_share"] == pytest.approx(perf["db-01"]["Peak vCPU %"] / 100)
    one = _workload(doc, 1, 2.0)  # only test-01, powered off: nothing measured, the estate's figure assumed
    assert "cpu_busy_share" not in one and "cpu_intensity" in one["assumed"]
    # each planned VM sized on the peak of a powered-on VM of its group (db-02 like db-01)
    on = {n: r for n, r in vms.items() if r["Power State"] == "poweredOn"}
    expected = sum(r["Virtual CPU"] * min(100.0, perf[n]["Peak vCPU %"]) / 100 for n, r in on.items())
    expected += vms["db-02"]["Virtual CPU"] * perf["db-01"]["Peak vCPU %"] / 100
    assert _planned_busy(doc) == pytest.approx(expected, rel=1e-3)
    text = " ".join(s for f in doc["sources"] for s in f.get("notes", []))
    assert "powered-off VM(s) not taken as measured" in text and "db-02" in text


# --- finding 16: Azure Migrate / AWS servers at 0 % CPU and 0 memory ----------------------------------
def _csv(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.mark.parametrize(("path", "name", "cpu", "mem"), [
    (AZ, "*Server name", "CPU utilization percentage", "Memory utilization percentage"),
    (AWS, "VMware.VMName", "CPU.UsagePct.Avg", "RAM.UsedSizeInMB.Avg"),
])
def test_collector_csv_servers_at_zero_cpu_and_memory_are_no_measurement(capsys, path, name, cpu, mem):
    rows = {r[name]: r for r in _csv(path)}
    idle = sorted(n for n, r in rows.items() if float(r[cpu]) == 0 and float(r[mem]) == 0)
    assert idle == ["db-02", "test-01"]
    doc = _json(capsys, str(path))
    db = _workload(doc, 8, 64.0)  # db-01 measured, db-02 idle: the group is db-01's figure, not half of it
    assert db["vms"] == 2 and db["cpu_busy_share"] == pytest.approx(float(rows["db-01"][cpu]) / 100)
    one = _workload(doc, 1, 2.0)
    assert "cpu_busy_share" not in one and "cpu_intensity" in one["assumed"]
    warning = next(w for w in doc["warnings"] if "0 % CPU and no memory in use" in w)
    assert path.name in warning and "'db-02'" in warning and "'test-01'" in warning


# --- finding 17: utilisation columns in 0-1 fractions --------------------------------------------------
def _shares(doc: dict) -> dict[str, float | None]:
    return {w["name"]: w.get("cpu_busy_share") for w in doc["scenario"]["workloads"]}


@pytest.mark.parametrize(("path", "columns"), [
    (AZ, ("CPU utilization percentage", "Memory utilization percentage")),
    (AWS, ("CPU.UsagePct.Avg", "CPU.UsagePct.Max")),
])
def test_collector_csv_fractions_are_read_as_percent_with_a_warning(capsys, tmp_path, path, columns):
    rows = _csv(path)
    for r in rows:
        for c in columns:
            r[c] = str(float(r[c]) / 100)
    frac = tmp_path / f"frac-{path.name}"
    with frac.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    plain, doc = _json(capsys, str(path)), _json(capsys, str(frac))
    assert _shares(doc) == _shares(plain) and doc["today"]["vcpu_busy_pct"] == plain["today"]["vcpu_busy_pct"]
    read = [c for c in columns if c in {"CPU utilization percentage", "Memory utilization percentage",
                                         "CPU.UsagePct.Avg"}]  # the columns the reader takes
    for c in read:
        assert any(str(frac) in w and f"column {c!r}" in w and "0-1 fractions" in w for w in doc["warnings"]), c
    assert not any("0-1 fractions" in w for w in plain["warnings"])


def test_live_optics_fractions_are_read_as_percent_and_a_real_idle_average_is_not(capsys, tmp_path):
    wb = openpyxl.load_workbook(LO)
    for sheet in ("VM Performance", "ESX Performance"):
        ws = wb[sheet]
        pct = [i for i, c in enumerate(ws[1]) if str(c.value).endswith("%")]
        for row in ws.iter_rows(min_row=2):
            for i in pct:
                row[i].value = row[i].value / 100
    frac = tmp_path / "lo-frac.xlsx"
    wb.save(frac)
    plain, doc = _json(capsys, str(LO)), _json(capsys, str(frac))
    assert _shares(doc) == _shares(plain)
    assert doc["today"]["host_cpu_usage_pct"] == plain["today"]["host_cpu_usage_pct"]
    warned = [w for w in doc["warnings"] if "0-1 fractions" in w]
    assert any("sheet VM Performance, column 'Peak vCPU %'" in w for w in warned) and len(warned) == 6
    # averages all under 1 % beside peaks in percent: one unit per sheet, nothing multiplied
    wb = openpyxl.load_workbook(LO)
    ws = wb["VM Performance"]
    for row in ws.iter_rows(min_row=2):
        row[3].value = 0.5 if row[3].value else 0
    idle = tmp_path / "lo-idle.xlsx"
    wb.save(idle)
    doc = _json(capsys, str(idle))
    assert not any("0-1 fractions" in w for w in doc["warnings"]) and doc["today"]["vcpu_busy_pct"] == 0.5


def test_a_fraction_written_with_three_decimals_is_no_thousands_grouping():
    from knowledge.inventory.common import parse_number

    assert [parse_number(x) for x in ("0.185", "0,185", "-0.125")] == [0.185, 0.185, -0.125]
    assert [parse_number(x) for x in ("16,384", "1.234.567", "2,5")] == [16384, 1234567, 2.5]
