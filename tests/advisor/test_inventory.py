"""Grouping an estate into workload groups and writing the scenario (advisor/inventory/)."""

from __future__ import annotations

import json

import pytest

from advisor.inventory import (
    ASSUMED_WORKLOAD,
    GROUP_BY,
    Inventory,
    name_prefix,
    scenario_yaml,
    today_vs_advised,
    write_scenario,
)
from advisor.scenario import load_scenario, parse_scenario
from knowledge.infra.errors import InputError
from knowledge.inventory import read_inventory
from tests.knowledge import inventory_cases as C


def totals(scenario):
    return (sum(w.vms for w in scenario.workloads), sum(w.vms * w.vcpus for w in scenario.workloads),
            sum(w.vms * w.ram_gib for w in scenario.workloads))


#: the generated RVTools 4.x workbook (always) and the real RVTools 4.7 export it stands in for (when present)
WORKBOOKS = ["rvtools-4x.xlsx", "RVTOOLEX.xlsx"]


@pytest.fixture(scope="module", params=WORKBOOKS)
def workbook(request):
    return request.param


@pytest.fixture(scope="module")
def rvtools(workbook):
    return read_inventory([C.rvtools(workbook)])


@pytest.fixture(scope="module")
def facts(workbook):
    return C.FACTS[workbook]


@pytest.mark.parametrize("mode", GROUP_BY)
def test_every_grouping_keeps_the_source_totals(rvtools, workbook, mode):
    inv = Inventory(rvtools, mode)
    sc = parse_scenario(inv.to_scenario())
    want = C.rvtools_xlsx_totals(C.rvtools(workbook))
    vms, vcpus, ram = totals(sc)
    assert (vms, vcpus) == (want.vms, want.vcpus)
    assert ram == pytest.approx(want.ram_mib / 1024, rel=1e-5)
    if mode == "auto":
        assert len(sc.workloads) <= 12
    assert all(len({inv.vms[i].vcpus for i in g.members}) == 1 for g in inv.groups)  # never mixed


def test_size_groups_hold_identical_profiles(rvtools):
    inv = Inventory(rvtools, "size")
    for g in inv.groups:
        p = inv.profile(g)
        assert p.vcpu_range[0] == p.vcpu_range[1] and p.ram_range_gib[0] == p.ram_range_gib[1]


def test_name_prefix_and_cluster_grouping():
    assert [name_prefix(n) for n in ("web-01.example.org", "D-CUSTOM-01", "wadfs1", "db_12a", "x")] == \
        ["web", "d-custom", "wadfs", "db", "x"]
    est = read_inventory([C.EXAMPLES / "inventory-vms.csv", C.EXAMPLES / "inventory-hosts.csv"])
    inv = Inventory(est, "cluster")
    assert {g.name for g in inv.groups} >= {"prod-2vcpu", "prod-8vcpu", "dev"}
    auto = Inventory(est)  # the template's own group column
    assert {g.name for g in auto.groups} == {"web", "api", "postgres", "cassandra", "batch", "ci", "telecom"}


def test_assumptions_are_listed_and_defaults_explicit(rvtools, facts):
    data = Inventory(rvtools).to_scenario()
    for w in data["workloads"]:
        assert set(ASSUMED_WORKLOAD) - {"cpu_intensity"} <= set(w["assumed"]) and "live_migration" in w["assumed"]
        assert "cpu_intensity" in w["measured"] and "cpu_intensity" not in w["assumed"]  # the vCPU tab measured it
        assert w["io"]["pattern"] == "mixed"
        assert "vcpus" not in w["assumed"] and "io.disk_gb" not in w["assumed"]  # known from vInfo
    assert {"hosts.disks", "hosts.nic_gbps"} <= set(data["estate"]["assumed"])
    assert "hosts.cpu" not in data["estate"]["assumed"]  # vHost describes the hosts
    assert data["hosts"]["count"] == facts["hosts"]
    assert data["hosts"]["cpu"]["cores_per_socket"] == facts["cores_per_socket"]


def test_no_hosts_in_the_source_means_assumed_hosts():
    est = read_inventory([C.LIBVIRT / "testdomfc5.xml"])
    data = Inventory(est).to_scenario()
    assert {"hosts.count", "hosts.cpu", "hosts.ram_gib"} <= set(data["estate"]["assumed"])
    parse_scenario(data)


def test_unsized_vms_become_an_assumed_group():
    est = read_inventory([C.LIBVIRT / "virsh-lifecycle.out"])
    inv = Inventory(est)
    unsized = next(g for g in inv.groups if g.name == "unsized")
    w = inv.workload(unsized)
    assert {"vcpus", "ram_gib"} <= set(w["assumed"]) and w["vms"] == 1
    parse_scenario(inv.to_scenario())


def test_today_settings_in_the_scenario():
    est = read_inventory([C.LIBVIRT / "disk-cache.xml"])
    data = Inventory(est).to_scenario()
    today = data["estate"]["today"]
    assert today["cache_modes"] == {"writeback": 1, "unsafe": 1, "none": 1, "writethrough": 1, "directsync": 1}
    assert today["hypervisor"] == "KVM (libvirt)"
    tuned = Inventory(read_inventory([C.LIBVIRT / "cputune.xml"])).to_scenario()
    assert tuned["workloads"][0]["today"] == {"cache": "writeback", "cache_disks": 1, "pinned_vms": 1}
    assert tuned["estate"]["today"]["pinned_vms"] == 1


def test_vcpus_per_core_today(rvtools, facts):
    today = Inventory(rvtools).today()
    on = [v for v in rvtools.vms if v.powered_on]
    cores = sum(h.cores for h in rvtools.hosts)
    assert today["vcpus_per_core"] == pytest.approx(sum(v.vcpus for v in on) / cores, abs=0.01)
    assert today["hosts"] == facts["hosts"] and today["hypervisor"].startswith("VMware ESXi")


def test_merge_split_rename(rvtools):
    inv = Inventory(rvtools, "size")
    before = inv.source_totals()
    n = len(inv.groups)
    same = [i for i, g in enumerate(inv.groups) if inv.profile(g).vcpus == 4][:2]
    k = inv.merge(same, "four-way")
    assert len(inv.groups) == n - 1 and inv.groups[k].name == "four-way" and not inv.groups[k].note
    mixed = [next(i for i, g in enumerate(inv.groups) if inv.profile(g).vcpus == c) for c in (2, 8)]
    k = inv.merge(mixed)
    p = inv.profile(inv.groups[k])
    assert p.mixed_vcpus and "mixes" in inv.groups[k].note and str(p.vcpu_total_today) in inv.groups[k].note
    parts = inv.split(k, "size")
    assert len(parts) >= 2 and all(not inv.profile(inv.groups[i]).mixed_vcpus for i in parts)
    assert inv.scenario_totals()["vcpus"] == before["vcpus"]
    big = max(range(len(inv.groups)), key=lambda i: inv.profile(inv.groups[i]).vms)
    halves = inv.split(big, "half")
    assert len(halves) == 2
    inv.rename(halves[0], "small-ones")
    with pytest.raises(InputError, match="already called"):
        inv.rename(halves[1], "small-ones")
    with pytest.raises(InputError, match="all alike"):
        single = next(i for i, g in enumerate(inv.groups) if inv.profile(g).vms == 1)
        inv.split(single, "size")
    with pytest.raises(InputError, match="at least two"):
        inv.merge([0])
    assert inv.scenario_totals()["vms"] == before["vms"]
    assert inv.scenario_totals()["ram_gib"] == pytest.approx(before["ram_gib"])
    parse_scenario(inv.to_scenario())


def test_split_by_power_state(rvtools):
    inv = Inventory(rvtools, "auto")
    k = next(i for i, g in enumerate(inv.groups) if 0 < inv.profile(g).powered_off < inv.profile(g).vms)
    a, b = inv.split(k, "power")
    assert inv.profile(inv.groups[b]).powered_off == inv.profile(inv.groups[b]).vms
    assert inv.groups[a].name.endswith("-on") and inv.groups[b].name.endswith("-off")


def test_excluding_powered_off(rvtools, facts):
    inv = Inventory(rvtools, include_powered_off=False)
    assert inv.source_totals()["vms"] == facts["vms"] - facts["powered_off"]
    assert inv.to_scenario()["estate"]["imported"]["powered_off_included"] is False


def test_yaml_marks_assumptions_and_round_trips(tmp_path, rvtools, facts):
    data = Inventory(rvtools).to_scenario()
    text = scenario_yaml(data)
    assert "  cpu_intensity: low  # measured" in text and "    pattern: mixed  # assumed" in text
    assert "  nic_gbps: 10.0  # assumed" in text and f"  count: {facts['hosts']}\n" in text  # known host count
    assert "vms: " in text and not any(ln.strip().startswith("vms:") and "# assumed" in ln for ln in text.splitlines())
    for suffix in ("yaml", "json", "toml"):
        path = tmp_path / f"estate.{suffix}"
        write_scenario(data, path)
        sc = load_scenario(path)
        assert sc.estate["found"]["vms"] == facts["vms"] and sc.workloads[0].assumed
        assert totals(sc)[:2] == totals(parse_scenario(data))[:2]


def test_scenario_format_checks_the_new_keys():
    base = Inventory(read_inventory([C.LIBVIRT / "testdomfc4.xml"])).to_scenario()
    bad = json.loads(json.dumps(base))
    bad["workloads"][0]["assumed"] = ["io.colour"]
    bad["workloads"][0]["today"] = "writeback"
    bad["estate"] = [1]
    with pytest.raises(InputError) as err:
        parse_scenario(bad)
    msg = str(err.value)
    assert "workloads[0].assumed: 'io.colour' is not a field" in msg
    assert "workloads[0].today: must be a mapping" in msg and "estate: must be a mapping" in msg


def test_today_vs_advised_rows():
    est = read_inventory([C.EXAMPLES / "inventory-vms.csv", C.EXAMPLES / "inventory-hosts.csv"])
    sc = parse_scenario(Inventory(est).to_scenario())
    recs = [{"decision": "cache_mode", "scope": "workload:web", "choice": "none",
             "rationale": "web: cache=none (12 VMs per host). Something about writethrough.",
             "alternatives": [{"choice": "writeback", "why_not": "VMs that live-migrate bypass the host cache "
                                                                 "[cache.migration]; scored -1.00 against 2.00"}]},
            {"decision": "cache_mode", "scope": "workload:postgres", "choice": "none", "rationale": "x. y."},
            {"decision": "vcpu_overallocation", "scope": "cluster", "choice": "moderate", "value": 4.0,
             "rationale": "Allocate up to 4 vCPUs per core."},
            {"decision": "host_count", "scope": "cluster", "choice": "4", "value": 4.0, "rationale": "4 hosts."}]
    rows = {(r["decision"], r["scope"]): r for r in today_vs_advised(sc, recs)}
    web = rows[("cache_mode", "workload:web")]
    assert (web["today"], web["advised"], web["differs"]) == ("writeback", "none", True)
    assert web["because"].startswith("VMs that live-migrate bypass the host cache [cache.migration]")
    assert rows[("cache_mode", "workload:postgres")]["differs"] is False
    over = rows[("vcpu_overallocation", "cluster")]
    assert "vCPUs per core" in over["today"] and "2 VM(s) with pinned vCPUs" in over["today"]
    assert over["advised"] == "moderate (up to 4 vCPUs per core)" and over["status"] == "within"
    assert rows[("host_count", "cluster")]["differs"] is False


def test_an_edit_declares_the_value_and_drops_its_assumed_mark():
    from advisor.inventory import marks_after_edit

    data = {"estate": {"assumed": ["hosts.nic_gbps", "hosts.disks", "hosts.cpu", "hosts.shared_storage.network_gbps"]},
            "workloads": [{"name": "a", "assumed": ["io.pattern", "live_migration"]}]}
    assert marks_after_edit(data, ("hosts", "nic_gbps")) == {
        ("estate", "assumed"): ["hosts.disks", "hosts.cpu", "hosts.shared_storage.network_gbps"]}
    # a coarse mark stays when only part of it is edited ...
    assert marks_after_edit(data, ("hosts", "disks", 0, "size_gb")) == {}
    assert marks_after_edit(data, ("hosts", "shared_storage", 0, "capacity_tb")) == {}
    assert marks_after_edit(data, ("hosts", "shared_storage", 0, "network_gbps")) == {
        ("estate", "assumed"): ["hosts.nic_gbps", "hosts.disks", "hosts.cpu"]}
    # ... except hosts.cpu, which splits into the fields not edited
    assert marks_after_edit(data, ("hosts", "cpu", "ghz")) == {("estate", "assumed"): [
        "hosts.nic_gbps", "hosts.disks", "hosts.cpu.sockets", "hosts.cpu.cores_per_socket",
        "hosts.cpu.threads_per_core", "hosts.shared_storage.network_gbps"]}
    assert marks_after_edit(data, ("workloads", 0, "io", "pattern")) == {("workloads", 0, "assumed"): ["live_migration"]}
    assert marks_after_edit(data, ("workloads", 0, "vcpus")) == {}
    assert marks_after_edit(data, ("hosts", "count")) == {} and marks_after_edit({}, ("hosts", "nic_gbps")) == {}
    # a measured value the user sets is the user's: its 'measured' mark goes, the measurement stays
    measured = {"workloads": [{"name": "a", "assumed": ["io.pattern"], "measured": ["cpu_busy_share", "cpu_intensity"]}]}
    assert marks_after_edit(measured, ("workloads", 0, "cpu_intensity")) == {("workloads", 0, "measured"): ["cpu_busy_share"]}
    assert marks_after_edit(measured, ("workloads", 0, "vcpus")) == {}
