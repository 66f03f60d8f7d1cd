"""The findings of issue 16, each fixed at its cause (the replay cases 004-F5.4-cpu,
004-S8.4.1-cpu-after, 004-T8.3-downtime-heavy-kvm and 002-F6-slowdown failed before): the
hypervisor card's CPU cost, host CPU against the request load, the downtime of heavily loaded
VMs, the boot-time warning; and the setups the documents ran get a host count."""

from __future__ import annotations

import pytest

from advisor.engine import advise
from advisor.statements import derive
from tests.advisor.test_engine import _kb_fixtures, make, workload
from tests.advisor.test_targets import BLADE, IOZONE, LAMP

kb_path, kb = _kb_fixtures.kb_path, _kb_fixtures.kb  # fixtures


def _cost(rec, choice):
    figs = rec.expected if rec.choice == choice else next(a for a in rec.alternatives if a.choice == choice).expected
    return figs["cpu_cost_vs_native"]


def test_hypervisor_cpu_cost_rests_on_chapter_5_not_on_cassandra(kb):
    """Doc 004 Section 5.6: KVM and VMware use about the CPU of the non-virtualized target, only
    XenServer far more (70 % at peak, 20 points above the others: 1.4x). The card said KVM +64 %,
    VMware +56 %: Table 9.2's Cassandra-in-a-VM cost applied to every workload."""
    rec = advise(make([workload()]), kb=kb).find("hypervisor")
    kvm, vmw, xen = (_cost(rec, h) for h in ("KVM", "VMware ESXi", "XenServer"))
    assert kvm["value"] == vmw["value"] == 1.0
    assert kvm["low"] <= 1.0 <= kvm["high"] <= 1.3 + 1e-9
    assert xen["value"] == pytest.approx(70 / 50)
    assert xen["value"] == pytest.approx(1 + derive(kb, ["004:c5-F5.4-01", "004:c5-F5.4-02"],
                                                    "points_above_rest_pct") / 100)
    assert xen["low"] == pytest.approx(34 / 26, rel=1e-4) and xen["high"] == pytest.approx(34 / 20, rel=1e-4)
    cited = {(c["locator"], c["id"]) for c in rec.citations}
    assert ("Figure 5.4", "c5-F5.4-01") in cited and ("Figure 5.12", "c5-F5.12-12") in cited
    xen_alt = next(a for a in rec.alternatives if a.choice == "XenServer")
    assert "about 40 % more CPU than bare metal" in xen_alt.why_not
    assert "database_cpu_cost_vs_native" not in rec.expected  # no database workload here


def test_database_workloads_keep_the_cassandra_cost_apart(kb):
    sc = make([workload("db", vms=3, vcpus=8, ram_gib=32, application="cassandra", cpu_intensity="high")])
    rec = advise(sc, kb=kb).find("hypervisor")
    vmw = next(a for a in rec.alternatives if a.choice == "VMware ESXi").expected if rec.choice != "VMware ESXi" \
        else rec.expected
    assert vmw["cpu_cost_vs_native"]["value"] == 1.0
    assert 1.3 < vmw["database_cpu_cost_vs_native"]["value"] < 1.8  # Table 9.2, read load


def test_heavy_vm_downtime_on_kvm_follows_the_hypervisor(kb):
    """Chapter 8 measured 4.0-4.9 s of vMotion downtime for a heavily loaded VM; KVM's downtime is
    0.7 s against VMware's 3 s (Section 5.6). Issue 28: a heavy KVM VM kept vMotion's figure while
    the hypervisor card said KVM stays under a second; now the ratio scales it too, and since
    chapter 5 measured the ratio with a lightly loaded VM the interval reaches up to ESXi's figure
    (flagged extrapolated). A light VM is scaled by it as before."""
    heavy = make([workload("m", vms=2, vcpus=5, ram_gib=14, cpu_intensity="high", live_migration=True)],
                 count=2, reserve=0)
    heavy["preferences"] = {"hypervisor": "KVM"}
    rec = advise(heavy, kb=kb).find("vcpu_overallocation")
    kvm = dict(rec.expected["migration_downtime"])
    heavy["preferences"] = {"hypervisor": "VMware ESXi"}
    esxi = advise(heavy, kb=kb).find("vcpu_overallocation").expected["migration_downtime"]
    assert 3.5 < esxi["value"] < 5.0
    assert kvm["value"] == pytest.approx(esxi["value"] * 0.7 / 3, rel=0.02) and kvm["value"] < 1.2
    # extrapolated: the calibrated interval is widened (advisor/models/conformal.py), so it reaches at least
    # as low as ESXi's low end scaled by the ratio
    assert 0 < kvm["low"] <= esxi["low"] * 0.7 / 3 * 1.02 and kvm["extrapolated"]
    assert kvm["high"] == pytest.approx(esxi["high"], rel=1e-6)
    light = make([workload("m", vms=2, vcpus=5, ram_gib=14, cpu_intensity="low", io={"intensity": "low"},
                           live_migration=True)], count=2, reserve=0)
    light["preferences"] = {"hypervisor": "KVM"}
    lk = advise(light, kb=kb).find("vcpu_overallocation").expected["migration_downtime"]
    light["preferences"] = {"hypervisor": "VMware ESXi"}
    le = advise(light, kb=kb).find("vcpu_overallocation").expected["migration_downtime"]
    assert lk["value"] == pytest.approx(le["value"] * 0.7 / 3, rel=1e-3)


def test_three_io_heavy_vms_on_one_disk_warn_with_doc_002s_15x_and_the_way_out(kb):
    sc = make([LAMP, IOZONE])
    sc["hosts"] = dict(BLADE)
    rec = advise(sc, kb=kb).find("storage_backend")
    assert rec.choice == "local_disk"  # the only option
    slow = rec.expected["boot_slowdown"]
    assert slow["low"] <= 15 <= slow["high"] * 1.05
    warning = next(w for w in rec.warnings if "boot" in w)
    assert "about 15x slower" in warning and "shared storage" in warning and "faster array" in warning
    assert any(c["id"] == "F6-03" for c in rec.citations)
    with_nfs = make([LAMP, IOZONE])
    with_nfs["hosts"] = {**BLADE, "shared_storage": [{"kind": "nfs", "network_gbps": 1}]}
    rec = advise(with_nfs, kb=kb).find("storage_backend")
    assert rec.choice != "local_disk"  # shared storage boots near its idle time
    idle = make([LAMP])
    idle["hosts"] = dict(BLADE)
    assert not [w for w in advise(idle, kb=kb).find("storage_backend").warnings if "boot" in w]


def test_the_documents_setups_get_a_host_count(kb):
    """Doc 001's 4 GB host with three 1 GB guests; doc 002's blade with three I/O-heavy VMs; the
    thesis' 16-vCPU telecom VM on its 8-core chapter 5 server (memory over-committed, as there)."""
    doc001 = make([workload("guest", vms=3, vcpus=1, ram_gib=1, cpu_intensity="low",
                            io={"pattern": "random", "intensity": "high"})])
    doc001["hosts"] = {"count": 1, "reserve": 0, "cpu": {"cores_per_socket": 2, "ghz": 3.0, "virtualization": "vmx"},
                       "ram_gib": 4, "disks": [{"kind": "hdd", "count": 1, "size_gb": 1000}], "shared_storage": []}
    rec = advise(doc001, kb=kb).find("host_count")
    assert rec.choice == "1" and rec.details["hypervisor_reserve_gib"] == pytest.approx(0.62)
    assert "page cache" in " ".join(rec.warnings)  # the soft budget: less cache than planned, said
    doc002 = make([LAMP, IOZONE])
    doc002["hosts"] = dict(BLADE)
    rec = advise(doc002, kb=kb).find("host_count")
    assert rec.choice == "1" and "disk_iops" in rec.details["soft_limits"]
    assert any("IOPS" in w and "boot there takes about" in w for w in rec.warnings)
    thesis = make([workload("active", vms=1, vcpus=16, ram_gib=24, cpu_intensity="high", application="telecom"),
                   workload("passive", vms=1, vcpus=16, ram_gib=24, cpu_intensity="low", application="telecom")])
    thesis["hosts"] = {"count": 2, "reserve": 0, "cpu": {"sockets": 2, "cores_per_socket": 4, "threads_per_core": 2,
                                                         "ghz": 2.0, "virtualization": "vmx"},
                       "ram_gib": 24, "disks": [{"kind": "hdd", "count": 4, "size_gb": 146}], "nic_gbps": 1,
                       "shared_storage": [{"kind": "iscsi", "network_gbps": 1}]}
    thesis["preferences"] = {"ram_overcommit": 1.1}
    rec = advise(thesis, kb=kb).find("host_count")
    assert rec.choice == "2"
    assert "cpu_load" in rec.details["soft_limits"]  # 14.4 busy cores on 8: slow, said, not refused
    assert any("host CPU is expected at about" in w and "82 %" in w for w in rec.warnings)


def test_ram_label_does_not_count_page_cache_as_guest_ram(kb):
    sc = make([workload(vms=20, ram_gib=12, io={"intensity": "high"})], ram_gib=64)
    rec = advise(sc, kb=kb).find("host_count")
    assert rec.details["demand"]["ram"] == pytest.approx(20 * 12 * 1.02, rel=1e-4)
