"""What a file the user opens or drops is (advisor/files.py): scenario, estate export (inventory),
benchmark output or unknown; every committed export and result file lands in its own import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.files import classify_file
from tests.knowledge import inventory_cases as C

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = sorted(p for p in (ROOT / "tests/knowledge/importers/fixtures").iterdir()
                    if p.is_file() and p.suffix not in (".cmd", ".source"))
PUBLISHED = sorted(p for p in (ROOT / "tests/fixtures/published").iterdir()
                   if p.is_file() and p.name not in ("SOURCES.md", "expected.json"))


@pytest.mark.parametrize("case,fmt", [
    ("rvtools-4x.xlsx", "rvtools-xlsx"), ("rvtools-4x-sdk.xlsx", "rvtools-xlsx"),
    ("libvirt/disk-cache.xml", "libvirt-xml"), ("libvirt/virsh-lifecycle.out", "virsh-text"),
    ("openstack/servers-details-resp.json", "openstack-json:servers"),
    ("openstack/flavors-detail-resp.json", "openstack-json:flavors"), ("examples/inventory-vms.csv", "template-csv"),
])
def test_estate_exports_are_inventories(case, fmt):
    path = C.EXAMPLES / case.split("/")[1] if case.startswith("examples/") else (
        C.FIX / case if "/" in case else C.rvtools(case))
    kind = classify_file(path)
    assert (kind.kind, kind.tool) == ("inventory", fmt) and kind.label


def test_rvtools_csv_tabs_and_proxmox_json_are_inventories(tmp_path):
    for f in C.rvtools_csv_tabs(tmp_path):
        assert classify_file(f).kind == "inventory", f.name
    p = tmp_path / "resources.json"
    p.write_text(json.dumps(C.proxmox_pvesh_items()))
    assert classify_file(p).tool == "proxmox-json"


@pytest.mark.parametrize("path", BENCHMARKS + PUBLISHED, ids=lambda p: p.name)
def test_benchmark_output_is_not_taken_for_an_estate_export(path):
    assert classify_file(path).kind in ("benchmark", "unknown")


def test_scenarios(tmp_path):
    y = tmp_path / "s.yaml"
    y.write_text("hosts: {count: 2}\n")
    j = tmp_path / "s.json"
    j.write_text(json.dumps({"hosts": {"count": 2}, "workloads": []}))
    assert classify_file(y).kind == classify_file(j).kind == "scenario"
    junk = tmp_path / "notes.txt"
    junk.write_text("nothing to see\n")
    assert classify_file(junk).kind == "unknown"
