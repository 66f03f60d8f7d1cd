"""A VM whose export gives 0 for its memory or vCPUs is named and left out with a warning (issue #34
point 8), never read as "size unknown" and planned as an assumed 1 vCPU / 1 GiB VM with its real vCPUs
dropped (the review found db-01's 4 vCPUs gone without a word)."""

from __future__ import annotations

import json

import pytest

from knowledge.inventory import read_inventory

pytestmark = pytest.mark.timeout(60)

HEAD = "VM,Powerstate,Template,CPUs,Memory,Provisioned MiB\n"


def test_rvtools_zero_memory_and_zero_cpus_are_named_and_left_out(tmp_path):
    f = tmp_path / "zero_RVTools_tabvInfo.csv"
    f.write_text(HEAD + "web-01,poweredOn,False,2,4096,40960\ndb-01,poweredOn,False,4,0,40960\n"
                 "db-02,poweredOn,False,0,2048,40960\n")
    estate = read_inventory([f])
    assert [vm.name for vm in estate.vms] == ["web-01"]
    assert estate.left_out == 2
    assert any("row 3" in w and "'db-01'" in w and "0 MiB of memory" in w for w in estate.warnings)
    assert any("row 4" in w and "'db-02'" in w and "0 vCPUs" in w for w in estate.warnings)


def test_rvtools_blank_memory_is_still_unknown_not_left_out(tmp_path):
    f = tmp_path / "blank_RVTools_tabvInfo.csv"
    f.write_text(HEAD + "web-01,poweredOn,False,2,,40960\n")
    estate = read_inventory([f])
    assert [(vm.name, vm.ram_mib) for vm in estate.vms] == [("web-01", None)]
    assert estate.left_out == 0


def test_proxmox_zero_memory_is_named_and_left_out(tmp_path):
    vm = {"type": "qemu", "vmid": 100, "name": "good", "maxcpu": 2, "maxmem": 4 << 30, "maxdisk": 20 << 30,
          "status": "running", "node": "pve1"}
    f = tmp_path / "resources.json"
    f.write_text(json.dumps([vm, {**vm, "vmid": 101, "name": "nomem", "maxmem": 0}]))
    estate = read_inventory([f])
    assert [v.name for v in estate.vms] == ["good"]
    assert any("'nomem'" in w and "0 MiB of memory" in w for w in estate.warnings)
