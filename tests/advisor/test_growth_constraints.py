"""The growth timeline's hosts per year come from the host count's own constrained search (#31
review 3, findings 1, 2, 15): anti-affinity, failure domains to survive, HA admission and hard
throughput targets raise each year's count as they raise the card's, and the planned hosts run out
where they no longer do. Real engine, real knowledge base; the numbers are computed by hand below."""

from __future__ import annotations

import pytest

from advisor.engine import advise

pytestmark = pytest.mark.timeout(300)


def _hosts(count: int, reserve: int, cores: int, ghz: float, ram: int, **more) -> dict:
    return {"count": count, "reserve": reserve, "ram_gib": ram,
            "cpu": {"sockets": 2, "cores_per_socket": cores, "threads_per_core": 2, "ghz": ghz}, **more}


def _run(kb, sc: dict) -> tuple[list[int], list[int], dict | None, int]:
    d = advise(sc, kb=kb).to_dict()
    card = next(r for r in d["recommendations"] if r["decision"] == "host_count")
    return [y["hosts"] for y in d["timeline"]], [y["vms"] for y in d["timeline"]], d["runs_out"], int(card["value"])


def test_anti_affine_vms_need_a_host_each_every_year(session_kb):
    # 4 anti-affine VMs (4 vCPU / 32 GiB, low CPU) on 2 x 32-core 768 GiB hosts, +50 %/yr CPU and RAM.
    # VMs ceil(4 x 1.5^y) = 4, 6, 9, 14 (13.5), 21 (20.25), 31 (30.375); no two share a host, so the
    # active hosts are the VMs, + the reserve 1: 5, 7, 10, 15, 22, 32. 6 planned (5 active) hold 4
    # VMs, not 6: they run out in year 1, on the anti-affinity (resources would take 1 host).
    sc = {"name": "aa", "hosts": _hosts(6, 1, 32, 2.4, 768),
          "workloads": [{"name": "db", "vms": 4, "vcpus": 4, "ram_gib": 32, "cpu_intensity": "low",
                         "anti_affinity": True}],
          "growth": {"horizon_years": 5, "cpu_pct_per_year": 50, "ram_pct_per_year": 50}}
    hosts, vms, runs_out, card = _run(session_kb, sc)
    assert vms == [4, 6, 9, 14, 21, 31]
    assert hosts == [5, 7, 10, 15, 22, 32]
    assert hosts[0] == card  # year 0 is the advice's own count
    assert runs_out == {"year": 1, "resource": "anti_affinity", "planned_hosts": 6}


def test_a_falling_rate_never_drops_anti_affine_hosts_below_the_vms(session_kb):
    # The same with CPU -10 %/yr and RAM +10 %/yr: VMs (by RAM, the fastest) ceil(4 x 1.1^y) = 4, 5, 5,
    # 6 (5.32), 6 (5.86), 7 (6.44) -> hosts 5, 6, 6, 7, 7, 8; the 5 active planned run out in year 3.
    sc = {"name": "aa2", "hosts": _hosts(6, 1, 32, 2.4, 768),
          "workloads": [{"name": "db", "vms": 4, "vcpus": 4, "ram_gib": 32, "cpu_intensity": "low",
                         "anti_affinity": True}],
          "growth": {"horizon_years": 5, "cpu_pct_per_year": -10, "ram_pct_per_year": 10}}
    hosts, vms, runs_out, _ = _run(session_kb, sc)
    assert vms == [4, 5, 5, 6, 6, 7]
    assert hosts == [5, 6, 6, 7, 7, 8]
    assert runs_out is not None and runs_out["year"] == 3


# 40 VMs of 2 vCPU / 16 GiB, low CPU, RAM +20 %/yr on 2 x 16-core 512 GiB hosts: usable RAM 512 - (0.5
# + 3 % of 512 = 15.86) = 496.14 GiB, a VM 16 x 1.02 = 16.32 GiB -> 30 VMs a host (489.6). VMs
# ceil(40 x 1.2^y) = 40, 48, 58, 70, 83, 100 (each VM stays 16 GiB: RAM is the only rate).
APP = {"name": "app", "vms": 40, "vcpus": 2, "ram_gib": 16, "cpu_intensity": "low"}
GROW = {"horizon_years": 5, "ram_pct_per_year": 20}


def test_surviving_a_failure_domain_every_year(session_kb):
    # Survive 1 of 2 domains: one domain holds every VM: 40/48/58 VMs -> 2 hosts a domain (60),
    # 70/83 -> 3 (90), 100 -> 4 (120). Hosts 4, 4, 4, 6, 6, 8; 6 planned (3 a domain) run out in year 5.
    sc = {"name": "fd", "hosts": _hosts(6, 0, 16, 2.0, 512, failure_domains=[{"name": "rackA", "hosts": 3},
                                                                              {"name": "rackB", "hosts": 3}]),
          "workloads": [dict(APP)], "preferences": {"survive": {"domains": 1}}, "growth": dict(GROW)}
    hosts, vms, runs_out, card = _run(session_kb, sc)
    assert vms == [40, 48, 58, 70, 83, 100]
    assert hosts == [4, 4, 4, 6, 6, 8]
    assert hosts[0] == card
    assert runs_out is not None and runs_out["year"] == 5 and runs_out["resource"].startswith("survive")


def test_ha_admission_every_year(session_kb):
    # HA percentage, tolerate 2: n - 2 hosts hold the VMs at 30 a host: n = 2 + ceil(VMs / 30) = 4, 4,
    # 4, 5, 5, 6. 5 planned hosts run out in year 5, on HA admission.
    sc = {"name": "ha", "hosts": _hosts(5, 0, 16, 2.0, 512), "workloads": [dict(APP)],
          "preferences": {"ha": {"policy": "percentage", "tolerate_hosts": 2}}, "growth": dict(GROW)}
    hosts, _, runs_out, card = _run(session_kb, sc)
    assert hosts == [4, 4, 4, 5, 5, 6]
    assert hosts[0] == card
    assert runs_out == {"year": 5, "resource": "HA admission (percentage)", "planned_hosts": 5}


def test_a_hard_throughput_target_raises_each_year_as_it_raises_the_card(session_kb):
    # 200 erp VMs (2 vCPU / 10.24 GiB, medium CPU and I/O, 100 GB) on 2 x 32-core 768 GiB hosts with 4
    # NVMe, every rate +20 %/yr (the VM shape stays): VMs 200, 240, 288, 346, 415. The card on
    # scenarios holding those VMs without growth meets the hard 40 MB/s at 4, 5, 6, 7, 9 active hosts
    # (the placement alone needs fewer): hosts 5, 6, 7, 8, 10 with the reserve. 9 planned: year 4.
    erp = {"name": "erp", "vms": 200, "vcpus": 2, "ram_gib": 10.24, "cpu_intensity": "medium",
           "io": {"disk_gb": 100, "intensity": "medium"}}
    sc = {"name": "tp", "hosts": _hosts(9, 1, 32, 2.4, 768, nic_gbps=25,
                                        disks=[{"kind": "nvme", "count": 4, "size_gb": 3840}]),
          "workloads": [erp],
          "preferences": {"targets": {"workloads": {"erp": {"min_throughput_mb_s": {"value": 40.0, "hard": True}}}}},
          "growth": {"horizon_years": 4, "cpu_pct_per_year": 20, "ram_pct_per_year": 20, "storage_pct_per_year": 20}}
    hosts, vms, runs_out, card = _run(session_kb, sc)
    assert vms == [200, 240, 288, 346, 415]
    assert hosts == [5, 6, 7, 8, 10]
    assert hosts[0] == card
    controls = []
    for n in vms[1:]:  # one number per quantity: the card on the same VMs without growth
        flat = {**sc, "workloads": [{**erp, "vms": n}]}
        flat.pop("growth")
        card_value = next(r for r in advise(flat, kb=session_kb).to_dict()["recommendations"]
                          if r["decision"] == "host_count")["value"]
        controls.append(int(card_value))
    assert controls == hosts[1:]
    assert runs_out == {"year": 4, "resource": "targets: min_throughput_mb_s", "planned_hosts": 9}
