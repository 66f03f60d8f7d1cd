"""A workload group mixing VMs of two collectors (close-session4, "Still missing"): Live Optics gives each
VM's average and peak, Nutanix Collector its median, 95th percentile and peak. The percentile chosen applies
to every VM that has it; a VM whose collector gives only a peak is sized on its peak, and the group's text,
the warnings and the advice say which VMs and which figure. Before, the group's table kept only the keys all
its VMs give (the peak), so the group was sized on the peak at any percentile.

The expected numbers are read from the fixtures with openpyxl, not by the readers under test."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli import main

pytestmark = pytest.mark.timeout(120)

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "inventory" / "collectors"
LO, NX = FIX / "liveoptics.xlsx", FIX / "nutanix-collector.xlsx"
NX_COLUMN = {50: "Median %", 95: "95th Percentile % (recommended)", 100: "Peak %"}


def _rows(path: Path, sheet: str) -> list[dict]:
    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    rows = list(wb[sheet].iter_rows(values_only=True))
    wb.close()
    return [dict(zip(rows[0], r, strict=False)) for r in rows[1:] if r and r[0] not in (None, "")]


def _other_site(tmp_path: Path, prefix: str = "") -> Path:
    """The Nutanix fixture as another site's: its VMs renamed web-01 -> web-11 (the same name prefixes, so
    name-prefix groups mix the two collectors' VMs; no name both files list), or ``prefix``web-11."""
    wb = openpyxl.load_workbook(NX)
    for ws in wb:
        header = [c.value for c in next(ws.iter_rows(max_row=1))]
        if "VM Name" in header:
            col = header.index("VM Name")
            for row in ws.iter_rows(min_row=2):
                if row[col].value:
                    row[col].value = prefix + str(row[col].value).replace("-0", "-1")
    path = tmp_path / "nutanix-site-b.xlsx"
    wb.save(path)
    return path


def _expected(group: str, percentile: int) -> float:
    """The group's busy share: the Nutanix VMs at the percentile asked, the Live Optics VMs at their peak
    (the only figure their collector gives besides the average), vCPU-weighted, a peak over 100 as 100."""
    lo_vcpus = {r["VM Name"]: r["Virtual CPU"] for r in _rows(LO, "VMs") if r["Power State"] == "poweredOn"}
    nx_vcpus = {r["VM Name"]: r["vCPUs"] for r in _rows(NX, "vmList") if r["Power State"] == "poweredOn"}
    busy = vcpus = 0.0
    for r in _rows(LO, "VM Performance"):
        if r["VM Name"].startswith(group + "-") and r["VM Name"] in lo_vcpus:
            busy += lo_vcpus[r["VM Name"]] * min(100.0, r["Peak vCPU %"]) / 100
            vcpus += lo_vcpus[r["VM Name"]]
    for r in _rows(NX, "vCPU"):
        if r["VM Name"].startswith(group + "-") and r["VM Name"] in nx_vcpus:
            busy += nx_vcpus[r["VM Name"]] * min(100.0, r[NX_COLUMN[percentile]]) / 100
            vcpus += nx_vcpus[r["VM Name"]]
    return busy / vcpus


@pytest.mark.parametrize("percentile", [50, 95, 100])
def test_a_group_of_live_optics_and_nutanix_vms_is_sized_on_the_percentile_asked_and_says_which_are_peaks(
        tmp_path, capsys, percentile):
    from advisor.scenario import parse_scenario
    from advisor.scenario.percentiles import percentile_sizing

    nx = _other_site(tmp_path)
    assert main(["inventory", str(LO), str(nx), "--group-by", "name-prefix", "--exclude-powered-off",
                 "--percentile", str(percentile), "--format", "json", "--no-advise"]) == 0
    doc = json.loads(capsys.readouterr().out)
    workloads = {w["name"]: w for w in doc["scenario"]["workloads"]}
    groups = {g["name"]: g for g in doc["groups"]}
    for name in ("web", "app"):
        assert workloads[name]["cpu_busy_share"] == pytest.approx(_expected(name, percentile), abs=1e-4), name
    if percentile < 100:  # the peak-only VMs are named, with the figure they are sized on, per group
        assert _expected("web", percentile) < _expected("web", 100)  # the case of the defect: not all peaks
        text = groups["web"]["today_text"]
        assert f"2 VMs at their peak (their collector gives only peak, no p{percentile}: web-01, web-02)" in text, text
        said = [w for w in doc["warnings"] if w.startswith("group web:")]
        assert len(said) == 1 and "web-01, web-02" in said[0] and "web-11" not in said[0], doc["warnings"]
        advice = percentile_sizing(parse_scenario(doc["scenario"]))
        assert any(f"the p{percentile} of web is each VM's own" in w and "2 VMs at their peak" in w
                   for w in advice.warnings), advice.warnings
    else:  # at the peak every VM gives its figure: nothing to say
        assert "collector gives only" not in json.dumps(doc)


def test_one_collectors_groups_are_sized_and_worded_as_before(capsys):
    """Groups whose VMs all come from one collector keep their table and words (no ``given`` sets)."""
    assert main(["inventory", str(NX), "--exclude-powered-off", "--percentile", "95", "--format", "json",
                 "--no-advise"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert all("cpu_percentiles_given" not in (w.get("today") or {}) for w in doc["scenario"]["workloads"])
    assert not [w for w in doc["warnings"] if w.startswith("group ")]


def test_an_estate_of_one_collectors_groups_beside_anothers_names_each_groups_own_figures(tmp_path, capsys):
    """Groups of Nutanix VMs (p50/p95/peak) beside groups of Live Optics VMs (peak): the advice's warning on
    the groups whose p95 is not stored names their own collector's figures (it named the first group's)."""
    from advisor.scenario import parse_scenario
    from advisor.scenario.percentiles import percentile_sizing

    nx = _other_site(tmp_path, "nx")
    assert main(["inventory", str(nx), str(LO), "--group-by", "name-prefix", "--exclude-powered-off",
                 "--format", "json", "--no-advise"]) == 0
    data = json.loads(capsys.readouterr().out)["scenario"]
    for w in data["workloads"]:  # one group per name prefix, each of one collector
        assert "cpu_percentiles_given" not in (w.get("today") or {}), w["name"]
    data["workloads"].sort(key=lambda w: "p95" not in (w.get("cpu_busy_percentiles") or {}))  # a Nutanix one first
    tables = [set(w.get("cpu_busy_percentiles") or {}) for w in data["workloads"]]
    assert tables[0] == {"p50", "p95", "peak"} and {"peak"} in tables, tables
    (warning,) = [w for w in percentile_sizing(parse_scenario(data)).warnings if "not stored" in w]
    assert warning.endswith("the collector gives only peak per VM"), warning
