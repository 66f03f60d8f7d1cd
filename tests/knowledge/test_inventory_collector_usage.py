"""What the collectors measured, read and labelled honestly (#31 review, findings 5-7):

- Nutanix Collector: each VM's CPU comes from the workbook's ``vCPU`` sheet (``Average %`` today,
  ``Median %`` / ``95th Percentile % (recommended)`` / ``Peak %`` as the percentiles sized on), never
  from the hosts' CPU usage % spread over a part of the VMs and clamped at 100 %; a spread the listed
  VMs cannot explain is refused with a warning and the CPU stays assumed;
- Live Optics: ``VM Performance`` (``Average vCPU %``, ``Peak vCPU %``) gives each VM's CPU and
  ``ESX Performance`` (``Average CPU %``, ``Average Memory %``) the hosts' usage, without any series file;
- RVTools joined with a collector: VMs without a measurement of their own (and on no host that
  reported its usage) stay assumed; the memory in use names the columns it was read from.

Every expected number is read here from the fixtures with openpyxl (the published column names
spelled out again), not by the readers under test."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from advisor.inventory import Inventory
from app.cli import main
from knowledge.inventory import read_inventory
from tests.knowledge import rvtools_workbooks as RV

pytestmark = pytest.mark.timeout(120)

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "inventory" / "collectors"
LO, NX = FIX / "liveoptics.xlsx", FIX / "nutanix-collector.xlsx"


def _sheet(path: Path, name: str) -> list[dict]:
    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    rows = list(wb[name].iter_rows(values_only=True))
    wb.close()
    return [dict(zip(rows[0], r, strict=False)) for r in rows[1:] if r and r[0] not in (None, "")]


def _json(capsys, *args: str) -> dict:
    assert main(["inventory", *args, "--format", "json", "--no-advise"]) == 0
    return json.loads(capsys.readouterr().out)


def _planned_busy(doc: dict) -> float:
    """Busy cores the scenario sizes on: each group's VMs x vCPUs x its busy share."""
    return sum(w["vms"] * w["vcpus"] * w["cpu_busy_share"] for w in doc["scenario"]["workloads"])


# --- Nutanix Collector (finding 5) ------------------------------------------------------------------
def _nutanix_on() -> dict[str, dict]:
    """The powered-on, non-template VMs of vmList with their vCPU sheet row."""
    cpu = {r["VM Name"]: r for r in _sheet(NX, "vCPU")}
    return {r["VM Name"]: {"vcpus": r["vCPUs"], **cpu[r["VM Name"]]} for r in _sheet(NX, "vmList")
            if r["Power State"] == "poweredOn" and r["Template"] != "Yes"}


def _weighted(vms: dict[str, dict], column: str) -> float:
    """vCPU-weighted busy cores of ``column`` (a % of each VM's vCPUs), a peak above 100 taken as 100."""
    return sum(v["vcpus"] * min(100.0, v[column]) / 100.0 for v in vms.values())


@pytest.mark.parametrize(("percentile", "column"), [("50", "Median %"), ("95", "95th Percentile % (recommended)"),
                                                   ("100", "Peak %")])
def test_nutanix_groups_are_sized_on_the_vcpu_sheet_percentile_asked(capsys, percentile, column):
    doc = _json(capsys, str(NX), "--exclude-powered-off", "--percentile", percentile)
    vms = _nutanix_on()
    assert _planned_busy(doc) == pytest.approx(_weighted(vms, column), rel=1e-3)
    assert doc["scenario"]["preferences"]["sizing_percentile"] == float(percentile)
    for w in doc["scenario"]["workloads"]:
        assert {"cpu_busy_share", "cpu_busy_percentiles"} <= set(w["measured"]) and "cpu_intensity" not in w["assumed"]
    # today: each VM's average over the collection, never the hosts' usage clamped at 100 %
    avg = _weighted(vms, "Average %") / sum(v["vcpus"] for v in vms.values())
    assert doc["today"]["vcpu_busy_pct"] == pytest.approx(100 * avg, abs=0.05)
    assert "vCPU 'Average %'" in doc["today"]["vcpu_busy_from"]
    assert "the VMs' CPU: average over the collection" in doc["today"]["measured_at"]
    assert all("100.0 % busy" not in g["today_text"] and g["cpu_busy_pct"] < 100 for g in doc["groups"])
    assert not doc["warnings"]


def test_nutanix_without_its_vcpu_sheet_warns_and_keeps_the_cpu_assumed(tmp_path, capsys):
    """The hosts are busier than the listed VMs' vCPUs could make them: no busy share is derived
    from the hosts' usage (it was 100 % for every group, clamped), the CPU stays assumed, and a
    warning says why."""
    wb = openpyxl.load_workbook(NX)
    del wb["vCPU"]
    path = tmp_path / "nx-no-vcpu.xlsx"
    wb.save(path)
    hosts = _sheet(NX, "vHosts")
    busy_mhz = sum(h["CPU Usage"] / 100 * h["CPU Cores"] * h["CPU Speed"] for h in hosts)
    speed = {h["Host Name"]: h["CPU Speed"] for h in hosts}
    vcpu_mhz = sum(v["vcpus"] * speed[r["Host Name"]] for r in _sheet(NX, "vmList")
                   for v in [_nutanix_on().get(r["VM Name"])] if v)
    assert busy_mhz > vcpu_mhz  # the fixture's hosts carry more than its VMs: the case of the finding
    doc = _json(capsys, str(path))
    assert any("more than the" in w and "assumed CPU intensity" in w for w in doc["warnings"])
    for w in doc["scenario"]["workloads"]:
        assert "cpu_busy_share" not in w and "cpu_intensity" in w["assumed"] and not w.get("measured")
    assert all("measured" not in g["today_text"] for g in doc["groups"])
    assert "no vCPU sheet" in " ".join(n for s in doc["sources"] for n in s["notes"])


# --- Live Optics (finding 6) ------------------------------------------------------------------------
def _live_optics_on() -> dict[str, dict]:
    perf = {r["VM Name"]: r for r in _sheet(LO, "VM Performance")}
    return {r["VM Name"]: {"vcpus": r["Virtual CPU"], **perf[r["VM Name"]]} for r in _sheet(LO, "VMs")
            if r["Power State"] == "poweredOn" and r["Template"] != "TRUE"}


def test_live_optics_vm_and_esx_performance_are_read_with_the_inventory():
    """Without any series file (as the GUI's Import inventory reads it): each VM's average vCPU % is
    its measured CPU, its peak the percentile sized on; the hosts' usage is ESX Performance's average."""
    inv = Inventory(read_inventory([LO]), include_powered_off=False)
    vms = _live_optics_on()
    today = inv.today()
    avg = _weighted(vms, "Average vCPU %") / sum(v["vcpus"] for v in vms.values())
    assert today["vcpu_busy_pct"] == pytest.approx(100 * avg, abs=0.05)
    assert "VM Performance 'Average vCPU %'" in today["vcpu_busy_from"]
    data = inv.to_scenario()
    assert sum(w["vms"] * w["vcpus"] * w["cpu_busy_share"] for w in data["workloads"]) == \
        pytest.approx(_weighted(vms, "Peak vCPU %"), rel=1e-3)
    assert all(w["cpu_busy_percentiles"] == {"peak": w["cpu_busy_share"]} for w in data["workloads"])
    hosts = {r["Host Name"]: r for r in _sheet(LO, "ESX Hosts")}
    perf = _sheet(LO, "ESX Performance")
    weight = {h: hosts[h]["CPU Cores"] * hosts[h]["CPU Clock Speed (GHz)"] for h in hosts}
    want = sum(p["Average CPU %"] * weight[p["Host"]] for p in perf) / sum(weight[p["Host"]] for p in perf)
    assert today["host_cpu_usage_pct"] == pytest.approx(want, abs=0.05)
    ram = sum(hosts[p["Host"]]["Memory (KiB)"] for p in perf)
    used = sum(p["Average Memory %"] / 100 * hosts[p["Host"]]["Memory (KiB)"] for p in perf)
    assert today["host_mem_usage_pct"] == pytest.approx(100 * used / ram, abs=0.05)
    assert "average over the collection" in today["measured_at"] and "snapshot" not in today["measured_at"]


def test_live_optics_peaks_beside_rvtools_vms_keep_each_vms_own_figure(tmp_path):
    """A group of Live Optics VMs (peaks over the collection) and RVTools VMs (their hosts' usage spread
    over their vCPUs) is sized on the Live Optics VMs' peaks plus the RVTools VMs' own share, as constant
    busy cores (the rule of a group partly covered by series). The workbook reader alone gives it: the
    series path that read the workbook a second time is gone (it was the only one to size such a group
    on the peaks; the reader sized it on the averages, 0.3196 instead of 0.3564)."""
    rv = RV.write("rvtools-4x.xlsx", tmp_path)
    lo = _live_optics_on()
    inv = Inventory(read_inventory([rv, LO]))
    mixed = 0
    for g in inv.groups:
        on = [inv.vms[i] for i in g.members if inv.vms[i].powered_on and not inv.vms[i].template]
        lo_on = [v for v in on if v.source == str(LO) and v.name in lo]
        others = [v for v in on if v.source != str(LO)]
        if not lo_on or not others:
            continue
        mixed += 1
        rv_share = inv.measured_cpu(others).share  # the hosts' usage over their vCPUs (finding 7's test)
        busy = sum(lo[v.name]["vcpus"] * min(lo[v.name]["Peak vCPU %"], 100) / 100 for v in lo_on) + \
            sum(v.vcpus * v.count for v in others) * rv_share
        vcpus = sum(lo[v.name]["vcpus"] for v in lo_on) + sum(v.vcpus * v.count for v in others)
        p = inv.profile(g).cpu
        assert p.percentiles == {"peak": pytest.approx(busy / vcpus, abs=1e-4)}, g.name
        w = inv.workload(g)
        assert w["cpu_busy_share"] == pytest.approx(busy / vcpus, abs=1e-4) and "cpu_busy_percentiles" in w["measured"]
    assert mixed >= 2


def test_a_group_sized_on_peaks_says_which_vms_enter_at_their_own_share(tmp_path, capsys):
    """Review r4: a group of Live Optics VMs (peaks) and an RVTools VM (its own usage) was described as
    "the VMs' peaks, 3 of 3 measured", though one VM enters at its own share (as constant busy cores)."""
    rv = tmp_path / "vInfo.csv"
    rv.write_text("VM,Powerstate,CPUs,Memory,CPU usage %,Cluster\nweb-03,poweredOn,2,4096,50,prod\n"
                  "app-03,poweredOn,4,16384,,prod\n")
    assert main(["inventory", str(LO), str(rv), "--group-by", "name-prefix", "--format", "json", "--no-advise"]) == 0
    doc = json.loads(capsys.readouterr().out)
    shares = {w["name"]: w["cpu_busy_percentiles"] for w in doc["scenario"]["workloads"] if w["name"] in ("web", "app")}
    assert shares == {"web": {"peak": round((2 * .37 + 2 * .44 + 2 * .50) / 6, 4)},  # web-01, web-02 peaks; web-03
                      "app": {"peak": round((4 * .70 + 4 * .63) / 8, 4)}}  # app-03 unmeasured: the group's figure
    inv = Inventory(read_inventory([LO, rv]), group_by="name-prefix")
    said = {g.name: inv.collector_sized(g) for g in inv.groups}
    assert said["web"].endswith("(the VMs' peaks, 3 of 3 measured; 1 VM without the collector's figures, at their own "
                                "share)"), said
    assert said["app"].endswith("(the VMs' peaks, 2 of 3 measured)"), said


# --- RVTools joined with Live Optics (finding 7) ----------------------------------------------------
def _without_perf(tmp_path: Path) -> Path:
    wb = openpyxl.load_workbook(LO)
    del wb["VM Performance"], wb["ESX Performance"]
    path = tmp_path / "lo-no-perf.xlsx"
    wb.save(path)
    return path


def test_joined_vms_without_a_measurement_stay_assumed(tmp_path):
    """RVTools' hosts report their CPU usage; the Live Optics VMs run on other hosts and (without its
    performance sheets) were never measured: their groups keep an assumed CPU, never RVTools' figure
    labelled as measured."""
    rv = RV.write("rvtools-4x.xlsx", tmp_path)
    inv = Inventory(read_inventory([rv, _without_perf(tmp_path)]))
    lo_only = 0
    for g in inv.groups:
        members = [inv.vms[i] for i in g.members]
        p, w = inv.profile(g), inv.workload(g)
        if all(v.source.endswith("lo-no-perf.xlsx") for v in members):
            lo_only += 1
            assert p.cpu is not None and p.cpu.assumed and "none of these VMs was measured" in p.cpu.source
            assert "cpu_busy_share" not in w and "cpu_intensity" in w["assumed"] and not w.get("measured")
            assert "(measured)" not in p.today_text() and "assumed" in p.today_text()
        elif any(v.source == str(rv) and v.powered_on for v in members):
            assert p.cpu is not None and not p.cpu.assumed and "cpu_busy_share" in w["measured"]
    assert lo_only >= 2


def test_one_exports_hosts_never_stand_for_anothers_vms(tmp_path):
    """RVTools' VMs get RVTools' hosts' usage over their own vCPUs (computed here from the tabs), however
    busy the Live Optics hosts are; the Live Optics VMs their own VM Performance average."""
    rv = RV.write("rvtools-4x.xlsx", tmp_path)
    tabs = RV.tabs("rvtools-4x.xlsx")
    head, *rows = tabs["vHost"]
    hosts = [dict(zip(head, r, strict=True)) for r in rows]
    speed = {h["Host"]: h["Speed"] for h in hosts}
    head, *rows = tabs["vInfo"]
    on = [r for r in (dict(zip(head, x, strict=True)) for x in rows)
          if r["Powerstate"] == "poweredOn" and str(r["Template"]).lower() != "true" and r["Host"] in speed]
    want = (sum(h["CPU usage %"] / 100 * h["# Cores"] * h["Speed"] for h in hosts)
            / sum(r["CPUs"] * speed[r["Host"]] for r in on))
    lo = _live_optics_on()
    inv = Inventory(read_inventory([rv, LO]))
    kinds = set()
    for g in inv.groups:
        members = [inv.vms[i] for i in g.members if inv.vms[i].powered_on]
        p = inv.profile(g)
        if members and all(v.source == str(rv) for v in members):
            kinds.add("rvtools")
            assert p.cpu.share == pytest.approx(want, rel=1e-6) and "vHost" in p.cpu.source
        elif members and all(v.source == str(LO) for v in members):
            kinds.add("live optics")
            avg = sum(lo[v.name]["vcpus"] * lo[v.name]["Average vCPU %"] for v in members) / 100 / \
                sum(lo[v.name]["vcpus"] for v in members)
            assert p.cpu.share == pytest.approx(avg, rel=1e-6) and "VM Performance" in p.cpu.source
    assert kinds == {"rvtools", "live optics"} and not inv.cpu_warnings()


def test_joined_memory_in_use_names_each_source(tmp_path):
    """RVTools' vMemory 'Consumed' and Live Optics' 'Consumed Memory (MiB)' are each named with the VMs
    they count; the total is theirs added up."""
    rv = RV.write_openpyxl(tmp_path / "rv-mem.xlsx", {
        "vInfo": [["VM", "Powerstate", "Template", "CPUs", "Memory", "Host"],
                  ["rv-a", "poweredOn", "False", 2, 4096, "h1"], ["rv-b", "poweredOn", "False", 4, 8192, "h1"],
                  ["rv-c", "poweredOff", "False", 4, 8192, "h1"]],
        "vMemory": [["VM", "Powerstate", "Size MiB", "Consumed", "Active"],
                    ["rv-a", "poweredOn", 4096, 3000, 1000], ["rv-b", "poweredOn", 8192, 5000, 2000],
                    ["rv-c", "poweredOff", 8192, 0, 0]],
    })
    today = Inventory(read_inventory([rv, LO])).today()
    lo = [r for r in _sheet(LO, "VMs") if r["Power State"] == "poweredOn" and r["Template"] != "TRUE"
          and r["Consumed Memory (MiB)"]]
    assert today["ram_consumed_vms"] == 2 + len(lo)
    assert today["ram_consumed_gib"] == pytest.approx((8000 + sum(r["Consumed Memory (MiB)"] for r in lo)) / 1024,
                                                      abs=0.05)
    assert today["ram_consumed_from"] == (f"RVTools vMemory 'Consumed' (2 VMs), Live Optics 'Consumed Memory "
                                          f"(MiB)' ({len(lo)} VMs)")


def test_a_performance_sheet_in_another_unit_is_refused_and_unknown_vms_are_noted(tmp_path, capsys):
    """A vCPU sheet whose 'Average %' holds MHz is refused naming file, sheet, row and column (exit 2);
    a VM Performance row naming no VM of the VMs sheet is skipped and said in a note."""
    wb = openpyxl.load_workbook(NX)
    ws = wb["vCPU"]
    col = next(c.column for c in ws[1] if c.value == "Average %")
    ws.cell(row=3, column=col, value=2600)
    bad = tmp_path / "nx-mhz.xlsx"
    wb.save(bad)
    assert main(["inventory", str(bad), "--no-advise"]) == 2
    err = capsys.readouterr().err
    assert "nx-mhz.xlsx" in err and "sheet vCPU, row 3, column 'Average %': 2600 %" in err
    wb = openpyxl.load_workbook(LO)
    wb["VM Performance"].append(["ghost-01", "vm-999", 50, 20, 1, 1])
    extra = tmp_path / "lo-ghost.xlsx"
    wb.save(extra)
    (source,) = read_inventory([extra]).sources
    assert any("1 row(s) name no VM" in n and "ghost-01" in n for n in source.notes)


def test_a_vm_name_in_both_exports_never_takes_the_other_exports_performance(tmp_path):
    """RVTools and Live Optics both list web-01, app-01, db-01 ...: the Live Optics workbook's VM
    Performance rows are joined to its own VMs (by the workbook reader, the one that reads them),
    never to RVTools' VMs of the same name."""
    from advisor.inventory import import_inventory

    rv = RV.write("rvtools-4x.xlsx", tmp_path)
    rv_names = {r[0] for r in RV.tabs("rvtools-4x.xlsx")["vInfo"][1:]}
    lo_vms = {r["VM Name"]: r for r in _sheet(LO, "VMs") if r["Template"] != "TRUE"}
    unique = set(lo_vms) - rv_names
    assert rv_names & set(lo_vms) and unique  # the case: some names in both files, some in one
    inv = import_inventory([rv, LO])
    assert inv.series is None  # no series file: the workbook's statistics are not read a second time
    lo_perf = {r["VM Name"]: r for r in _sheet(LO, "VM Performance")}
    for v in inv.vms:
        if v.source == str(LO) and v.powered_on:
            assert v.cpu_usage_pct == lo_perf[v.name]["Average vCPU %"]
            assert v.cpu_pcts == {"peak": min(lo_perf[v.name]["Peak vCPU %"], 100.0)}
        elif v.source == str(rv):
            assert v.cpu_usage_pct is None and not v.cpu_pcts


def test_a_mixed_groups_yaml_comment_and_estate_line_say_which_vms_enter_at_their_own_share(tmp_path, capsys):
    """review-inv: the YAML comment and the estate-wide "sized on" line still said "the VMs' peaks" for a group
    of Live Optics VMs and an RVTools VM; they say what the group's summary cell says, in the same words."""
    import yaml

    from advisor.inventory.writing import own_share_note

    rv = tmp_path / "vInfo.csv"
    rv.write_text("VM,Powerstate,CPUs,Memory,CPU usage %,Cluster\nweb-03,poweredOn,2,4096,50,prod\n"
                  "app-03,poweredOn,4,16384,,prod\n")
    out = tmp_path / "s.yaml"
    assert main(["inventory", str(LO), str(rv), "--group-by", "name-prefix", "-o", str(out), "--no-advise"]) == 0
    text, yaml_text = capsys.readouterr().out, out.read_text()
    web = next(w for w in yaml.safe_load(yaml_text)["workloads"] if w["name"] == "web")
    assert web["today"]["cpu_own_share_vms"] == 1
    share = [line for line in yaml_text.splitlines() if line.strip().startswith("cpu_busy_share:")]
    assert sum(own_share_note(1) in line for line in share) == 1, share  # web only; app-03 takes the group's figure
    assert f"; {own_share_note(1)}" in text.split("Measured (derived")[1].splitlines()[0]
