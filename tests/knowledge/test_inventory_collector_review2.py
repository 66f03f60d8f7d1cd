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
import json
from pathlib import Path

import openpyxl
import pytest

from app.cli import main
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


@pytest.mark.parametrize(("path", "name", "cpu", "mem", "sized"), [
    (AZ, "*Server name", "CPU utilization percentage", "Memory utilization percentage", "CPU utilization percentage"),
    (AWS, "VMware.VMName", "CPU.UsagePct.Avg", "RAM.UsedSizeInMB.Avg", "CPU.UsagePct.Max"),
])
def test_collector_csv_servers_at_zero_cpu_and_memory_are_no_measurement(capsys, path, name, cpu, mem, sized):
    rows = {r[name]: r for r in _csv(path)}
    idle = sorted(n for n, r in rows.items() if float(r[cpu]) == 0 and float(r[mem]) == 0)
    assert idle == ["db-02", "test-01"]
    doc = _json(capsys, str(path))
    db = _workload(doc, 8, 64.0)  # db-01 measured, db-02 idle: the group is db-01's figure, not half of it
    assert db["vms"] == 2 and db["cpu_busy_share"] == pytest.approx(float(rows["db-01"][sized]) / 100)
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


# --- finding 4: two exports of one estate ----------------------------------------------------------------
def _vm_names(path: Path, sheet: str, name: str, template: str) -> set[str]:
    return {r[name] for r in _sheet(path, sheet) if r[template] not in (True, "TRUE", "Yes")}


def test_two_exports_of_one_estate_count_each_vm_and_host_once(capsys):
    """Nutanix Collector and Live Optics of one vCenter (the same hosts): each VM and host counted once, the
    copy of the file given first kept (both measured over a collection), a warning naming files and VMs."""
    nx = FIX / "nutanix-collector.xlsx"
    both = _vm_names(nx, "vmList", "VM Name", "Template") & _vm_names(LO, "VMs", "VM Name", "Template")
    alone = _json(capsys, str(nx))
    doc = _json(capsys, str(nx), str(LO))
    assert len(both) == alone["found"]["vms"] == doc["found"]["vms"] and doc["found"]["hosts"] == len(_sheet(nx, "vHosts"))
    warning = next(w for w in doc["warnings"] if "counted once" in w)
    assert str(nx) in warning and str(LO) in warning and all(n in warning for n in both)
    assert {w["name"]: w.get("cpu_busy_share") for w in doc["scenario"]["workloads"]} == _shares(alone)


def test_rvtools_and_live_optics_of_one_estate_keep_the_live_optics_copy(capsys, tmp_path):
    from tests.knowledge import rvtools_workbooks as RV

    rv = RV.write("rvtools-4x.xlsx", tmp_path)
    tabs = RV.tabs("rvtools-4x.xlsx")
    rv_vms = {r[0] for r in tabs["vInfo"][1:] if not r[2]}
    rv_host = tabs["vHost"][1][0]
    lo_vms = _vm_names(LO, "VMs", "VM Name", "Template")
    both = rv_vms & lo_vms
    assert both and lo_vms - rv_vms
    apart = _json(capsys, str(rv), str(LO))  # no host and no id in common: two estates, both counted, a warning
    assert apart["found"]["vms"] == len(rv_vms) + len(lo_vms)
    warning = next(w for w in apart["warnings"] if "taken as different VMs" in w)
    assert str(rv) in warning and str(LO) in warning and all(n in warning for n in both)
    # the same Live Optics workbook taken on RVTools' vCenter: its first host is RVTools' first host
    wb = openpyxl.load_workbook(LO)
    first = wb["ESX Hosts"]["A2"].value
    for sheet, col in (("ESX Hosts", "Host Name"), ("VMs", "Host"), ("ESX Performance", "Host")):
        ws = wb[sheet]
        i = [c.value for c in ws[1]].index(col)
        for row in ws.iter_rows(min_row=2):
            if row[i].value == first:
                row[i].value = rv_host
    one = tmp_path / "lo-same-vcenter.xlsx"
    wb.save(one)
    doc = _json(capsys, str(rv), str(one))
    assert doc["found"]["vms"] == len(rv_vms | lo_vms)
    once = [w for w in doc["warnings"] if "counted once" in w]
    assert all(any(n in w for w in once) for n in both)
    # the copy measured best is kept: Live Optics' (CPU over the collection) for its powered-on VMs
    lo_on = {r["VM Name"] for r in _sheet(LO, "VMs") if r["Power State"] == "poweredOn"} & both
    kept_lo = next(w for w in once if w.startswith(f"{len(lo_on)} VM(s) listed by both {one} and {rv}"))
    assert all(n in kept_lo for n in lo_on)
    assert doc["found"]["hosts"] == len(tabs["vHost"]) - 1 + len(_sheet(LO, "ESX Hosts")) - 1


# --- finding 14: Live Optics VMs of one name, told apart by MOB ID ------------------------------------------
#: the full VM Performance header as a public Live Optics parser reads it
_VM_PERF = ["VM Name", "MOB ID", "Host", "Datacenter", "Cluster", "Peak vCPU %", "Peak vCPU (GHz)", "Average vCPU %",
            "Average vCPU (GHz)", "Peak Memory %", "Peak Memory (MiB)", "Avg Memory (MiB)", "Peak IOPS",
            "Average IOPS", "VM IO Classification"]


def _two_sql01(tmp_path: Path) -> tuple[Path, dict[str, float]]:
    """Two clusters with a VM called sql01 each (MOB IDs vm-10 and vm-20), and two app VMs; -> path, peaks."""
    from tests.knowledge.rvtools_workbooks import write_openpyxl

    vm_head = ["VM Name", "MOB ID", "Power State", "Template", "VM OS", "Virtual CPU", "Provisioned Memory (MiB)",
               "Consumed Memory (MiB)", "Virtual Disk Size (MiB)", "Virtual Disk Used (MiB)", "Cluster", "Host"]
    vms = [("app-a1", "vm-1", 4, 16384, "A"), ("app-a2", "vm-2", 4, 16384, "A"), ("sql01", "vm-10", 8, 65536, "A"),
           ("sql01", "vm-20", 8, 65536, "B")]
    peaks = {"vm-1": 80.0, "vm-2": 40.0, "vm-10": 90.0, "vm-20": 10.0}
    hosts = [["Host Name", "Cluster", "CPU Sockets", "CPU Cores", "CPU Threads", "CPU Clock Speed (GHz)", "Memory (KiB)"]]
    hosts += [[f"esx-{c.lower()}", c, 2, 32, 64, 2.0, 512 * 1024 * 1024] for c in "AB"]
    perf = [_VM_PERF] + [[n, m, f"esx-{c.lower()}", "dc", c, peaks[m], 1.0, peaks[m] / 2, 0.5, 50, 1024, 900, 100, 50,
                          "Low"] for n, m, _cpu, _ram, c in reversed(vms)]  # another order than the VMs sheet
    path = write_openpyxl(tmp_path / "lo-two-sql01.xlsx", {
        "VMs": [vm_head] + [[n, m, "poweredOn", "FALSE", "Windows", cpu, ram, ram / 2, 102400, 51200, c,
                             f"esx-{c.lower()}"] for n, m, cpu, ram, c in vms],
        "ESX Hosts": hosts, "VM Performance": perf})
    return path, {m: cpu * peaks[m] / 100 for _n, m, cpu, _ram, _c in vms}


def test_live_optics_vms_of_one_name_join_their_performance_by_mob_id(capsys, tmp_path):
    path, busy = _two_sql01(tmp_path)
    doc = _json(capsys, str(path))
    assert _planned_busy(doc) == pytest.approx(sum(busy.values()), rel=1e-3)  # 3.2 + 1.6 + 7.2 + 0.8
    sql = _workload(doc, 8, 64.0)
    assert sql["cpu_busy_share"] == pytest.approx((busy["vm-10"] + busy["vm-20"]) / 16)
    assert doc["series"] is None  # the workbook's peaks are read once, by the workbook reader
    notes = " ".join(n for f in doc["sources"] for n in f.get("notes", []))
    assert "name no VM" not in notes and "CPU % over the collection of 4 VMs" in notes


# --- findings 1, 2, 6, 24: what the summary, the YAML and the advice say a collector's figures are -------------
def _advise_text(capsys, tmp_path: Path, *args: str) -> tuple[str, str, str]:
    """(summary text, scenario YAML, host count rationale) of one import."""
    out = tmp_path / "s.yaml"
    assert main(["inventory", *args, "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert main(["advise", str(out), "--format", "json"]) == 0
    doc = capsys.readouterr().out
    rec = next(r for r in json.loads(doc)["recommendations"] if r["decision"] == "host_count")
    return text, out.read_text(), rec["rationale"]


def test_nutanix_labels_say_the_p95_it_is_sized_on_and_which_group_is_assumed(capsys, tmp_path):
    text, yaml_text, why = _advise_text(capsys, tmp_path, str(FIX / "nutanix-collector.xlsx"))
    assert "no CPU usage in the export" not in text
    assert "on assumed cpu_intensity of 1 of 6 groups (1 VM, none of them measured)" in text
    share = next(line for line in yaml_text.splitlines() if line.strip().startswith("cpu_busy_share:"))
    assert "the VMs' p95 over the collection" in share and "not a peak" not in share and "average" not in share
    assert "sized on the VMs' p95 over the collection" in text
    assert "CPU is sized on the p95" in why


def test_a_percentile_the_collector_does_not_give_is_said_interpolated_at_import(capsys, tmp_path):
    text, yaml_text, why = _advise_text(capsys, tmp_path, str(FIX / "nutanix-collector.xlsx"), "--percentile", "80")
    assert "warning: --percentile 80: the collector gives only p50, p95, peak per VM" in text
    assert "interpolated linearly between p50 and p95" in text
    assert "import the series again" not in why and "the collector gives only p50, p95, peak per VM" in why


def test_live_optics_says_it_is_sized_on_the_peaks(capsys, tmp_path):
    text, yaml_text, why = _advise_text(capsys, tmp_path, str(LO))
    share = next(line for line in yaml_text.splitlines() if line.strip().startswith("cpu_busy_share:"))
    assert "the VMs' peaks over the collection" in share and "not a peak" not in share
    assert "CPU is sized on the peak of each workload's VMs" in why and "sized on the p95" not in why


def test_the_summary_and_the_yaml_say_one_sizing_basis(capsys, tmp_path):
    """The summary's "sized on ..." is the YAML comment's basis, given whole by one function
    (measured_basis), not cut out of the comment's sentence by slicing."""
    import yaml

    from advisor.inventory.writing import measured_basis, measured_comment

    for path, pct in ((FIX / "nutanix-collector.xlsx", "80"), (LO, "95")):
        text, yaml_text, _why = _advise_text(capsys, tmp_path, str(path), "--percentile", pct)
        data = yaml.safe_load(yaml_text)
        w = next(w for w in data["workloads"] if w.get("cpu_busy_percentiles"))
        basis = measured_basis(data, w)
        assert measured_comment(data, w) == f"measured ({basis})"
        assert f"; sized on {basis})" in text
        assert f"# {measured_comment(data, w)}" in yaml_text


# --- finding 15: AWS Migration Hub .Avg / .Max over the discovery period -------------------------------------
def test_aws_is_sized_on_its_max_over_the_discovery_period(capsys):
    rows = [r for r in _csv(AWS) if float(r["CPU.UsagePct.Avg"]) or float(r["RAM.UsedSizeInMB.Avg"])]
    doc = _json(capsys, str(AWS), "--percentile", "95")
    maxes = {r["VMware.VMName"]: float(r["CPU.UsagePct.Max"]) for r in rows}
    vcpus = {r["VMware.VMName"]: int(r["CPU.NumberOfLogicalCores"]) for r in rows}
    expected = sum(vcpus[n] * m / 100 for n, m in maxes.items()) + 8 * maxes["db-01"] / 100  # db-02 like db-01
    assert _planned_busy(doc) == pytest.approx(expected, rel=1e-3)
    assert all(set(w["cpu_busy_percentiles"]) == {"peak"} for w in doc["scenario"]["workloads"] if "cpu_busy_share" in w)
    assert doc["scenario"]["preferences"]["sizing_percentile"] == 95
    assert any("--percentile 95: the collector gives only peak per VM" in w for w in doc["warnings"])
    assert "average over the collection" in doc["today"]["measured_at"]
    err = capsys.readouterr().err
    assert "nothing is sized on a percentile" not in err


# --- finding 22: one VM name on two lines of the CSV template ------------------------------------------------
def test_the_template_warns_of_a_vm_name_on_two_lines(capsys, tmp_path):
    inv = tmp_path / "vms.csv"
    inv.write_text("name,vcpus,ram_gib,disk_gb,host,cluster\nweb-01,4,8,100,kvm1,c1\nweb-02,4,8,100,kvm2,c1\n"
                   "web-01,4,8,100,kvm2,c2\n")
    doc = _json(capsys, str(inv))
    assert doc["found"]["vms"] == 3
    (warning,) = [w for w in doc["warnings"] if "web-01" in w]
    assert str(inv) in warning and "line 2, line 4" in warning and "joins at most the first (line 2)" in warning


def test_two_exports_of_one_kind_whose_ids_differ_list_two_vms(capsys, tmp_path):
    """Two Live Optics workbooks of two sites whose hosts happen to share names: their VMs' InstanceUUIDs
    differ, so every VM of both is counted (with a warning), none taken for a copy."""
    wb = openpyxl.load_workbook(LO)
    ws = wb["VMs"]
    i = [c.value for c in ws[1]].index("InstanceUUID")
    for row in ws.iter_rows(min_row=2):
        row[i].value = "9" + str(row[i].value)[1:]
    other = tmp_path / "lo-other-site.xlsx"
    wb.save(other)
    alone, doc = _json(capsys, str(LO)), _json(capsys, str(LO), str(other))
    assert doc["found"]["vms"] == 2 * alone["found"]["vms"]
    assert any("taken as different VMs" in w for w in doc["warnings"])
