"""Exports follow the placement (#32): OpenStack server groups with anti-affinity/affinity
policies, Proxmox VE HA rules and groups, a libvirt folder per host, each validated by
``check_files`` like the other exports; the checkers reject what the platform rejects."""

from __future__ import annotations

import pytest

from advisor.engine import advise
from advisor.export import export_config
from advisor.export.check import bash_syntax, check_files
from advisor.export.check_groups import parse_pve_ha, parse_server_groups_yaml
from tests.advisor.test_engine import _kb_fixtures, make, workload
from tests.advisor.test_placement_constraints import CPU, DOMAINS, LOW, cassandra

kb_path, kb = _kb_fixtures.kb_path, _kb_fixtures.kb  # fixtures


@pytest.fixture
def advice(kb):
    wls = [cassandra(replication_factor=3),
           workload("web", vms=4, vcpus=2, ram_gib=4, cpu_intensity="low", io=LOW, anti_affinity="front"),
           workload("api", vms=2, vcpus=2, ram_gib=4, cpu_intensity="low", io=LOW, anti_affinity="front"),
           workload("cache", vms=2, vcpus=2, ram_gib=4, cpu_intensity="low", io=LOW, affinity=True)]
    sc = make(wls, count=6, reserve=0, ram_gib=512, cpu=CPU)
    sc["hosts"]["failure_domains"] = DOMAINS
    sc["preferences"] = {"vcpu_overallocation": "none", "survive": {"domains": 1}}
    return advise(sc, kb=kb)


def test_openstack_server_groups_carry_the_policies(advice):
    ex = export_config(advice, "openstack")
    groups = parse_server_groups_yaml(ex.files["openstack/server-groups.yaml"])
    assert groups == {"capadvisor.cassandra-replicas-1": "anti-affinity", "capadvisor.cache-together": "affinity",
                      "capadvisor.front-apart": "anti-affinity"}
    assert "members: web-01, web-02, web-03, web-04, api-01, api-02" in ex.files["openstack/server-groups.yaml"]
    assert "openstack server group create --policy anti-affinity capadvisor.front-apart" in \
        ex.files["openstack/server-groups.sh"]
    findings = [f for f in check_files(ex.files) if "server-groups" in f.file]
    assert len(findings) >= 2 and all(f.ok for f in findings), findings


def test_proxmox_ha_rules_and_groups(advice):
    ex = export_config(advice, "proxmox")
    rules = parse_pve_ha(ex.files["proxmox/ha/rules.cfg"])
    apart = rules["resource-affinity:capadvisor-cassandra-replicas-1"]
    assert apart["affinity"] == "negative" and len(apart["resources"].split(",")) == 3
    assert rules["resource-affinity:capadvisor-cache-together"]["affinity"] == "positive"
    placed = advice.find("host_count").details["placement_by_host"]
    pinned = [k for k in rules if k.startswith("node-affinity:")]
    assert len(pinned) == sum(1 for h in placed if h["vms"])
    groups = parse_pve_ha(ex.files["proxmox/ha/groups.cfg"])
    assert set(groups) == {"group:capadvisor-rack-a", "group:capadvisor-rack-b", "group:capadvisor-rack-c"}
    findings = [f for f in check_files(ex.files) if "/ha/" in f.file]
    assert len(findings) == 2 and all(f.ok for f in findings), findings


def test_libvirt_folder_per_host(advice):
    ex = export_config(advice, "libvirt")
    placed = advice.find("host_count").details["placement_by_host"]
    for h in placed:
        if not h["vms"]:
            continue
        text = ex.files[f"libvirt/hosts/{h['host']}/define.sh"]
        assert text.count("virsh define") == sum(h["vms"].values())
        assert bash_syntax(text)[0] is not False


def test_the_checkers_reject_what_the_platform_rejects():
    with pytest.raises(ValueError, match="affinity must be positive or negative"):
        parse_pve_ha("resource-affinity: a\n\taffinity apart\n\tresources vm:101\n")
    with pytest.raises(ValueError, match="not a HA resource id"):
        parse_pve_ha("resource-affinity: a\n\taffinity negative\n\tresources 101\n")
    with pytest.raises(ValueError, match="missing resources"):
        parse_pve_ha("node-affinity: a\n\tnodes pve1\n")
    with pytest.raises(ValueError, match="policies"):
        parse_server_groups_yaml("heat_template_version: 2018-08-31\nresources:\n  g:\n    type: OS::Nova::ServerGroup\n"
                                 "    properties: {name: g, policies: [apart]}\n")
    bad = check_files({"openstack/server-groups.sh": "#!/bin/sh\nopenstack server group create --policy apart g\n"})
    assert any(f.ok is False for f in bad)


def test_no_constraints_no_group_files(kb):
    ex = export_config(advise(make(), kb=kb), "openstack")
    assert "openstack/server-groups.yaml" not in ex.files
