"""Document-reading defects of issue 28, each on the document's own numbers, and the document notes
on the cards and reports whose figures rest on a noted row. Real engine, real knowledge base."""

from __future__ import annotations

import pytest

from advisor.engine import advise
from advisor.render import to_html, to_markdown
from tests.advisor.test_engine import _kb_fixtures

kb_path, kb = _kb_fixtures.kb_path, _kb_fixtures.kb  # fixtures

pytestmark = pytest.mark.timeout(300)

#: the chapter 8 hosts: two 6-core Xeons at 2.0 GHz with hyperthreading, 10 Gb/s (doc 004 Section 8.3.1)
THESIS_HOSTS = {"count": 2, "cpu": {"sockets": 2, "cores_per_socket": 6, "threads_per_core": 2, "ghz": 2.0,
                                    "virtualization": "vmx"},
                "ram_gib": 128, "nic_gbps": 10, "shared_storage": [{"kind": "distributed", "network_gbps": 10}]}


def telecom_cluster(hypervisor: str, rps: float = 1000.0, target_ms: float | None = None) -> dict:
    """Ten 5-vCPU telecom VMs that live-migrate (the chapter 8 setup), on ``hypervisor``."""
    prefs: dict = {"hypervisor": hypervisor}
    if target_ms is not None:
        prefs["targets"] = {"max_migration_downtime_ms": target_ms}
    return {"name": f"telecom on {hypervisor}", "hosts": THESIS_HOSTS, "preferences": prefs,
            "workloads": [{"name": "telecom", "application": "telecom", "vms": 10, "vcpus": 5, "ram_gib": 14,
                           "cpu_intensity": "medium", "request_load_rps": rps, "live_migration": True,
                           "data_loss_tolerance": "seconds"}]}


def _target(advice, name: str):
    return next(t for t in advice.targets if t.name == name)


def test_migration_downtime_follows_the_hypervisor_for_a_loaded_vm(kb):
    """Doc 004 Section 5.6: downtime VMware 3 s, KVM 0.7 s, XenServer 0.3 s. A heavily loaded KVM
    VM got vMotion's chapter 8 figure (about 3.95 s at the little level), so a 1 s target made the
    plan infeasible while the hypervisor card said KVM stays under a second."""
    esxi = advise(telecom_cluster("VMware ESXi"), kb=kb).find("vcpu_overallocation", "cluster")
    for hv, ratio in (("KVM", 0.7 / 3.0), ("XenServer", 0.3 / 3.0)):
        rec = advise(telecom_cluster(hv), kb=kb).find("vcpu_overallocation", "cluster")
        assert rec.details["migration_tests"] == "heavy"
        for level in ("little", "moderate"):
            mine = next(a.expected for a in [rec, *rec.alternatives] if a.choice == level)["migration_downtime"]
            theirs = next(a.expected for a in [esxi, *esxi.alternatives] if a.choice == level)["migration_downtime"]
            assert mine["value"] == pytest.approx(theirs["value"] * ratio, rel=0.02)
            assert mine["low"] <= mine["value"] <= mine["high"] and mine["high"] >= theirs["high"] * 0.999
            assert mine["extrapolated"] and f"004:c5-S5.6-0{8 if hv == 'KVM' else 9}" in mine["rows"]
    advice = advise(telecom_cluster("KVM", target_ms=1000), kb=kb)
    result = _target(advice, "max_migration_downtime_ms")
    assert result.met is True and result.expected < 1000.0


def cassandra(read_share: float, rf: int = 3, target_ms: float = 3.0) -> dict:
    return {"name": "cassandra", "preferences": {"hypervisor": "VMware ESXi",
                                                 "targets": {"max_response_time_ms": target_ms}},
            "hosts": {"count": 3, "cpu": {"sockets": 2, "cores_per_socket": 8, "threads_per_core": 2, "ghz": 2.4,
                                          "virtualization": "vmx"},
                      "ram_gib": 64, "nic_gbps": 10, "disks": [{"kind": "hdd", "count": 2, "size_gb": 400}]},
            "workloads": [{"name": "db", "application": "cassandra", "vms": 3, "vcpus": 16, "ram_gib": 32,
                           "cpu_intensity": "high", "containerizable": True, "replication_factor": rf,
                           "data_loss_tolerance": "none",
                           "io": {"pattern": "mixed", "read_share": read_share, "intensity": "high"}}]}


def test_a_75_25_cassandra_mix_reads_the_mix_row_of_table_9_2(kb):
    """Doc 004 Table 9.2, RF 3: Mix (80k tps) VMs 5.45 ms, Docker 2.2 ms; Read (60k tps) VMs 1.6 ms,
    Docker 1.9 ms. The mixed load is 75 % reads (Section 9.3.2.1): a 75/25 workload got the Read row
    and a 3 ms target was reported met."""
    advice = advise(cassandra(0.75), kb=kb)
    rec = advice.find("hypervisor", "workload:db")
    figs = {a.choice: a.expected["client_latency"] for a in [rec, *rec.alternatives]}
    vm, docker = figs["VMware ESXi VMs"], figs["Docker containers"]
    assert vm["low"] <= 5.45 <= vm["high"] and vm["value"] > 3.0
    assert docker["low"] <= 2.2 <= docker["high"]
    assert vm["rows"] == ["004:c9-141"] and docker["rows"] == ["004:c9-135"]
    result = _target(advice, "max_response_time_ms")
    chosen = figs[rec.choice]
    assert result.expected == pytest.approx(chosen["value"], rel=1e-5)  # the target reads the card's figure
    # the hard 3 ms target excludes the VMs (5.45 ms) when containers meet it (2.2 ms)
    assert rec.choice == "Docker containers" and result.met is True
    vm_alt = next(a for a in rec.alternatives if a.choice == "VMware ESXi VMs")
    assert vm_alt.excluded and "misses the target of 3 ms" in vm_alt.why_not
    soft = advise({**cassandra(0.75), "preferences": {"hypervisor": "VMware ESXi", "targets": {
        "max_response_time_ms": {"value": 1.0, "hard": False}}}}, kb=kb)
    assert _target(soft, "max_response_time_ms").met is False  # neither meets 1 ms: said so, not hidden
    assert any(n["locator"] == "Table 9.2" for n in rec.notes)  # the card shows the note on the two rows
    read = advise(cassandra(1.0), kb=kb).find("hypervisor", "workload:db")
    assert {a.choice: a.expected["client_latency"]["rows"] for a in [read, *read.alternatives]} == {
        "VMware ESXi VMs": ["004:c9-150"], "Docker containers": ["004:c9-144"]}


def gluster(system: str, store_gbps: float) -> dict:
    return {"name": "store", "preferences": {"fixed": {"storage_backend": "distributed"}},
            "hosts": {"count": 4, "cpu": {"sockets": 2, "cores_per_socket": 8, "threads_per_core": 2, "ghz": 2.4,
                                          "virtualization": "vmx"},
                      "ram_gib": 128, "nic_gbps": 10, "disks": [{"kind": "ssd", "count": 2, "size_gb": 400}],
                      "shared_storage": [{"kind": "distributed", "network_gbps": store_gbps, "system": system}]},
            "workloads": [{"name": "web", "vms": 20, "vcpus": 2, "ram_gib": 4, "cpu_intensity": "medium",
                           "io": {"pattern": "random", "read_share": 0.7, "intensity": "medium"}}]}


def _recovery(advice) -> dict:
    rec = advice.find("storage_backend", "cluster")
    return next(a.expected for a in [rec, *rec.alternatives] if a.choice == "distributed")["recovery_time"]


def test_gluster_recovery_is_not_shortened_by_a_faster_link(kb):
    """Doc 004 Table 4.2: Gluster 66420 and 66540 s on 1 Gb/s nodes; Sections 4.4.4, 4.5.3 and 4.7
    blame internal bottlenecks (proxies heal over rsync, processors never above 50 %). With 24 nodes
    on a 240 Gb/s store (10 Gb/s each) the card said a tenth of it."""
    fast = _recovery(advise(gluster("gluster", 240.0), kb=kb))
    assert fast["value"] == pytest.approx(66480.0, rel=0.01)
    assert "not shortened" in fast["note"] and "004:c4-T4.2-07" in fast["rows"] and fast["notes"]
    slow = _recovery(advise(gluster("gluster", 12.0), kb=kb))  # 0.5 Gb/s per node: the link can bind
    assert slow["value"] == pytest.approx(2 * 66480.0, rel=0.01)
    compuverde = _recovery(advise(gluster("compuverde_structured", 240.0), kb=kb))
    assert compuverde["value"] == pytest.approx(1320.0 / 10.0, rel=0.01)  # multicast, own protocol: moved


def test_thesis_host_cpu_is_not_stated_when_it_says_nothing(kb):
    """Small hosts (4 cores at 2.0 GHz) against the thesis' 12 at 2.0 GHz: the thesis' test load at
    every level moved onto them read 100 [100-100] %, no information; it is no longer stated and the
    card says why; on the thesis' own hosts it still is."""
    small = {"name": "small", "hosts": {"count": 2, "cpu": {"sockets": 1, "cores_per_socket": 4, "threads_per_core": 1,
                                                            "ghz": 2.0, "virtualization": "vmx"},
                                        "ram_gib": 64, "nic_gbps": 10, "disks": [{"kind": "ssd", "count": 1, "size_gb": 400}]},
             "workloads": [{"name": "web", "vms": 4, "vcpus": 2, "ram_gib": 4, "cpu_intensity": "medium",
                            "io": {"pattern": "random", "read_share": 0.7, "intensity": "low"}, "live_migration": True}]}
    rec = advise(small, kb=kb).find("vcpu_overallocation", "cluster")
    for option in [rec, *rec.alternatives]:
        assert "thesis_host_cpu" not in option.expected
        assert "host_cpu_utilization" in option.expected
    assert "100 %" in rec.details["thesis_host_cpu"]
    thesis = advise(telecom_cluster("VMware ESXi", rps=590.0), kb=kb).find("vcpu_overallocation", "cluster")
    values = {a.choice: a.expected["thesis_host_cpu"]["value"] for a in [thesis, *thesis.alternatives]}
    assert all(v < 100.0 for v in values.values()) and len(set(values.values())) > 1


def test_cards_and_reports_show_the_notes_of_the_rows_their_figures_rest_on(kb):
    """Doc 002: the NFS-root boot 9 s -> >240 s is called a factor of 30 (26.7): the boot figure that
    rests on row F6-08 carries the note, the card lists it and both reports print it."""
    from tests.advisor.test_engine import EXAMPLE

    advice = advise(EXAMPLE, kb=kb)
    rec = advice.find("storage_backend", "cluster")
    keys = [n["key"] for n in rec.notes]
    factor = next(n for n in rec.notes if "26.7" in n["text"])
    assert factor["document"].startswith("002") and "F6-08" in factor["rows"]
    boot = rec.expected["boot_time"]
    assert factor["key"] in boot["notes"] and set(boot["notes"]) <= set(keys)
    assert advice.to_dict()["recommendations"][advice.recommendations.index(rec)]["notes"] == rec.notes
    for page in (to_markdown(advice), to_html(advice)):
        assert "Document notes" in page and "26.7" in page and "see document note 002 N-01" in page
    cache = advice.find("cache_mode", "workload:web")
    assert any("5.41" in n["text"] for n in cache.notes)  # the writethrough/none random-read note
