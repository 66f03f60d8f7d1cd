"""What else the growth timeline checks each year (#31 review 3): the shared store's capacity
(finding 12), a single VM outgrowing every host (13), the binding resource among those that place
VMs with a note for disk IOPS past 100 % (18), and the timeline's notes in the JSON (9). Real
engine, real knowledge base; the numbers are computed by hand below."""

from __future__ import annotations

import pytest

from advisor.engine import advise
from knowledge.costs import parse_catalogue

pytestmark = pytest.mark.timeout(300)


def test_the_shared_store_fills_up_in_the_year_the_virtual_disks_pass_it(session_kb):
    # 40 VMs x 200 GB on an NFS store of 50 TB (90 % usable: 45,000 GB), storage +60 %/yr:
    # 8,000 x 1.6^y = 8,000, 12,800, 20,480, 32,768, 52,428.8, 83,886.1 GB -> full in year 4.
    sc = {"name": "nd", "hosts": {"count": 4, "reserve": 1, "cpu": {"sockets": 2, "cores_per_socket": 16},
                                  "ram_gib": 512,
                                  "shared_storage": [{"kind": "nfs", "network_gbps": 10, "capacity_tb": 50}]},
          "workloads": [{"name": "app", "vms": 40, "vcpus": 2, "ram_gib": 8, "cpu_intensity": "low",
                         "io": {"disk_gb": 200}}],
          "growth": {"horizon_years": 5, "storage_pct_per_year": 60}}
    d = advise(sc, kb=session_kb).to_dict()
    need = [y["demand"]["shared_storage_capacity"] for y in d["timeline"]]
    assert need == pytest.approx([8000 * 1.6**y for y in range(6)], abs=0.01)
    assert d["timeline"][4]["utilization"]["shared_storage_capacity"] == pytest.approx(100 * 52428.8 / 45000, abs=0.01)
    assert [y["planned_hosts_fit"] for y in d["timeline"]] == [True] * 4 + [False] * 2
    assert d["runs_out"] == {"year": 4, "resource": "shared_storage_capacity", "planned_hosts": 4,
                             "field": "hosts.shared_storage[0].capacity_tb"}
    assert d["timeline_units"]["demand"]["shared_storage_capacity"].startswith("GB")


def test_one_vm_outgrowing_every_host_runs_out_and_is_said(session_kb):
    # db: one VM of 400 GiB on 512 GiB hosts (usable 512 - (0.5 + 15.36) = 496.14 GiB), RAM +20 %/yr:
    # 400 x 1.02 x 1.2^y = 408, 489.6, 587.52, 705.0 GiB: as one VM it fits no host from year 2.
    sc = {"name": "one", "hosts": {"count": 3, "reserve": 1, "cpu": {"sockets": 2, "cores_per_socket": 16},
                                   "ram_gib": 512},
          "workloads": [{"name": "db", "vms": 1, "vcpus": 16, "ram_gib": 400, "cpu_intensity": "medium"}],
          "growth": {"horizon_years": 3, "ram_pct_per_year": 20}}
    d = advise(sc, kb=session_kb).to_dict()
    assert [y["planned_hosts_fit"] for y in d["timeline"]] == [True, True, False, False]
    assert d["runs_out"] == {"year": 2, "resource": "ram", "planned_hosts": 3, "workload": "db"}
    assert any(n.startswith("db is one VM today") and "587.5 GiB" in n and "496.1 GiB usable in year 2" in n for n in d["timeline_notes"])


def test_binding_is_a_resource_that_places_vms_and_iops_past_100_is_said(session_kb):
    # 400 vCPUs / 1,600 GiB / 20 TB as 100 VMs of 4 vCPU / 16 GiB, high I/O on 8 HDD a host: disk
    # IOPS are far past the planned hosts' (the card says 2,083 % at 4 active hosts; of the 5 planned
    # active hosts 2,083.33 x 4 / 5 = 1,666.67 %), but IOPS place no VMs: RAM (16.32 x 100 = 1,632 GiB
    # of 5 x 496.14) is the most used resource that does.
    sc = {"name": "k", "hosts": {"count": 6, "reserve": 1, "ram_gib": 512, "nic_gbps": 10,
                                 "cpu": {"sockets": 2, "cores_per_socket": 16, "threads_per_core": 2, "ghz": 2.4},
                                 "disks": [{"kind": "hdd", "count": 8, "size_gb": 4000}]},
          "workloads": [{"name": "app", "total_vcpus": 400, "total_ram_gib": 1600, "total_storage_tb": 20,
                         "cpu_intensity": "low", "io": {"intensity": "high"}}],
          "growth": {"horizon_years": 2, "ram_pct_per_year": 10}}
    d = advise(sc, kb=session_kb).to_dict()
    assert d["timeline"][0]["utilization"]["disk_iops"] == pytest.approx(1666.67, abs=0.01)
    assert [y["binding"] for y in d["timeline"]] == ["ram"] * 3
    assert d["timeline"][0]["utilization"]["ram"] == pytest.approx(100 * 1632 / (5 * 496.14), abs=0.01)
    assert any(n.startswith("local disk IOPS reaches 1,667 %") and "year 0" in n for n in d["timeline_notes"])


def test_the_timeline_notes_are_in_the_json_beside_the_timeline(session_kb):
    # 3-year horizon, a 5-year catalogue: the note on the cumulative cost is in the JSON too.
    cat = parse_catalogue({"currency": "EUR", "years": 5, "hosts": [
        {"name": "h16", "cpu": {"sockets": 2, "cores_per_socket": 8}, "ram_gib": 128, "price": 10000,
         "support_per_year": 1000, "power_w": 300}]})
    sc = {"name": "notes", "hosts": {"count": 4, "cpu": {"sockets": 2, "cores_per_socket": 8, "ghz": 2.0},
                                     "ram_gib": 128},
          "workloads": [{"name": "web", "vms": 20, "vcpus": 2, "ram_gib": 8, "cpu_intensity": "low"}],
          "growth": {"horizon_years": 3, "cpu_pct_per_year": 10}}
    a = advise(sc, kb=session_kb, catalogue=cat)
    d = a.to_dict()
    assert d["timeline_notes"] == a.timeline.notes
    assert "the cumulative cost counts the 3 years of the horizon's opex; the bill's total the cost catalogue's " \
           "5 years" in d["timeline_notes"]
    assert {"timeline", "runs_out", "timeline_units"} <= set(d)
