"""Placement constraints (#32): replicas over hosts and failure domains, vSphere HA admission
(slot vs percentage), surviving the loss of each failure domain. Real engine, real knowledge base;
the expected counts are computed here by hand from the documented formulas (usable host RAM =
RAM less 0.5 GiB + 3 %, a VM's RAM + 2 % overhead, vCPUs over cores at the fixed ratio 1)."""

from __future__ import annotations

import math

import pytest

from advisor.engine import advise
from advisor.recommend.packing import pack
from tests.advisor.test_engine import _kb_fixtures, make, workload

kb_path, kb = _kb_fixtures.kb_path, _kb_fixtures.kb  # fixtures

CPU = {"sockets": 2, "cores_per_socket": 16, "threads_per_core": 1, "ghz": 2.4, "virtualization": "vmx"}
LOW = {"intensity": "low"}
DOMAINS = [{"name": "rack-a", "hosts": 2}, {"name": "rack-b", "hosts": 2}, {"name": "rack-c", "hosts": 2}]


def usable_ram(gib: float) -> float:
    return gib - (0.5 + 0.03 * gib)


def scenario(workloads, cores_per_socket=16, ram_gib=512, domains=None, **prefs) -> dict:
    sc = make(workloads, count=6, reserve=0, ram_gib=ram_gib, cpu={**CPU, "cores_per_socket": cores_per_socket})
    if domains is not None:
        sc["hosts"]["failure_domains"] = domains
    sc["preferences"] = {"vcpu_overallocation": "none", **prefs}
    return sc


def host_count(sc, kb):
    advice = advise(sc, kb=kb)
    rec = advice.find("host_count")
    assert rec is not None and rec.choice != "infeasible", rec.warnings
    return advice, rec


def cassandra(**extra) -> dict:
    return workload("cassandra", **{"vms": 3, "vcpus": 4, "ram_gib": 16, "cpu_intensity": "low", "io": LOW, **extra})


# --- (1) Cassandra RF 3 -------------------------------------------------------------------------
def test_cassandra_rf3_gets_three_hosts_one_replica_each_though_one_host_fits_it_twice(kb):
    # one 32-core 512 GiB host fits 6 such VMs (4 cores, 16.32 GiB each): twice over
    cap = {"cpu_allocation": 32.0, "ram": usable_ram(512)}
    assert pack(cap, [("c", {"cpu_allocation": 4.0, "ram": 16 * 1.02}, 6)]).hosts == 1
    _, before = host_count(scenario([cassandra()]), kb)
    assert before.expected["active_hosts"]["value"] == 1  # before the constraint: one host
    advice, after = host_count(scenario([cassandra(replication_factor=3)]), kb)
    assert after.expected["active_hosts"]["value"] >= 3  # after: >= 3 hosts
    per_host = [h["vms"].get("cassandra", 0) for h in after.details["placement_by_host"]]
    assert sorted(per_host, reverse=True)[:3] == [1, 1, 1] and max(per_host) == 1
    assert after.details["constraints"]["hosts_unconstrained"] == 1
    assert after.details["constraints"]["binding"] == "replication_factor"
    assert "from 1 to 3" in after.rationale
    data = advice.to_dict()
    assert data["placement"] == after.details["placement_by_host"]
    assert set(data["placement"][0]) == {"host", "domain", "vms"}


def test_cassandra_rf3_with_domains_spreads_over_three_domains(kb):
    domains = [{"name": "rack-a", "hosts": 1}, {"name": "rack-b", "hosts": 1}, {"name": "rack-c", "hosts": 1},
               {"name": "rack-d", "hosts": 1}]
    _, rec = host_count(scenario([cassandra(replication_factor=3, vms=6)], domains=domains), kb)
    where = {}
    for h in rec.details["placement_by_host"]:
        if h["vms"].get("cassandra"):
            where[h["domain"]] = where.get(h["domain"], 0) + h["vms"]["cassandra"]
            assert h["vms"]["cassandra"] <= 2  # ceil(6 / 3) per host
    assert len(where) >= 3 and max(where.values()) <= 2 and sum(where.values()) == 6


def test_rf3_with_two_domains_is_named(kb):
    sc = scenario([cassandra(replication_factor=3)], domains=DOMAINS[:2])
    rec = advise(sc, kb=kb).find("host_count")
    assert any("3 failure domains, 2 declared" in w for w in rec.warnings)


# --- (2) vSphere HA slot policy vs percentage -----------------------------------------------------
def test_slot_policy_reserves_what_vsphere_would_and_percentage_less(kb):
    # 16-core 256 GiB hosts; one 8-vCPU 64 GiB VM among forty 2-vCPU 4 GiB VMs, ratio 1
    wls = [workload("big", vms=1, vcpus=8, ram_gib=64, cpu_intensity="low", io=LOW),
           workload("small", vms=40, vcpus=2, ram_gib=4, cpu_intensity="low", io=LOW)]
    ram = usable_ram(256)  # 247.82 GiB
    slot_cpu, slot_ram = 8.0, 64 * 1.02  # the largest reservations: 8 cores, 65.28 GiB
    per_host = min(math.floor(16 / slot_cpu), math.floor(ram / slot_ram))  # min(2, 3) = 2 slots
    assert per_host == 2
    slot_hosts = math.ceil(41 / per_host) + 1  # 21 hosts for 41 slots, plus one host's slots = 22
    _, slot = host_count(scenario(wls, cores_per_socket=8, ram_gib=256,
                                  ha={"policy": "slot", "tolerate_hosts": 1}), kb)
    ha = slot.details["ha"]
    assert ha["slot_size"] == {"cpu_allocation": 8.0, "ram": pytest.approx(65.28)}
    assert ha["slots_per_host"] == 2 and ha["failover_slots"] == 2 and ha["hosts"] == slot_hosts == 22
    assert slot.value == 22 and slot.details["constraints"]["binding"] == "HA admission (slot)"
    # percentage: pooled need + 1: CPU (8 + 80) / 16 = 5.5 -> 6, RAM (65.28 + 163.2) / 247.82 < 1
    pct_hosts = max(math.ceil((8 + 80) / 16), math.ceil((65.28 + 40 * 4.08) / ram)) + 1
    _, pct = host_count(scenario(wls, cores_per_socket=8, ram_gib=256,
                                 ha={"policy": "percentage", "tolerate_hosts": 1}), kb)
    assert pct.details["ha"]["hosts"] == pct_hosts == 7 and pct.value == 7
    assert pct.details["ha"]["reserved_hosts"] < slot.details["ha"]["reserved_hosts"]
    assert pct.details["ha"]["reserved_percent"] == pytest.approx(100 / 7, abs=0.01)


# --- (3) losing any one declared domain ----------------------------------------------------------
def _replace_after_loss(placement, lost: str, demand: dict, cap: tuple[float, float], anti: set[str],
                        replicated: set[str]) -> dict[str, int]:
    """Hand re-placement: the lost domain's VMs (but replicated ones) first-fit onto the survivors'
    leftovers, at most one anti-affine VM per host; what does not fit."""
    hosts = []
    for h in placement:
        if h["domain"] == lost:
            continue
        used = [sum(demand[w][i] * n for w, n in h["vms"].items()) for i in range(2)]
        hosts.append([cap[0] - used[0], cap[1] - used[1], dict(h["vms"])])
    left: dict[str, int] = {}
    for h in placement:
        if h["domain"] != lost:
            continue
        for w, n in h["vms"].items():
            if w in replicated:
                continue
            for _ in range(n):
                for s in hosts:
                    if s[0] >= demand[w][0] - 1e-9 and s[1] >= demand[w][1] - 1e-9 and \
                            not (w in anti and s[2].get(w)):
                        s[0] -= demand[w][0]
                        s[1] -= demand[w][1]
                        s[2][w] = s[2].get(w, 0) + 1
                        break
                else:
                    left[w] = left.get(w, 0) + 1
    return left


def test_losing_any_one_domain_leaves_every_vm_placeable(kb):
    wls = [workload("web", vms=6, vcpus=4, ram_gib=32, cpu_intensity="low", io=LOW, anti_affinity=True),
           cassandra(replication_factor=3),
           workload("app", vms=12, vcpus=8, ram_gib=96, cpu_intensity="low", io=LOW)]
    demand = {"web": (4.0, 32 * 1.02), "cassandra": (4.0, 16 * 1.02), "app": (8.0, 96 * 1.02)}
    cap = (32.0, usable_ram(512))
    _, plain = host_count(scenario(wls, domains=DOMAINS), kb)
    _, rec = host_count(scenario(wls, domains=DOMAINS, survive={"domains": 1}), kb)
    c = rec.details["constraints"]
    assert c["hosts_by_survival"] > c["hosts_by_constraints"] and c["binding"] == "survive 1 domains"
    assert rec.expected["active_hosts"]["value"] > plain.expected["active_hosts"]["value"]
    placement = rec.details["placement_by_host"]
    assert sum(h["vms"].get(w, 0) for h in placement for w in demand) == 6 + 3 + 12
    names = {h["domain"] for h in placement}
    assert names == {"rack-a", "rack-b", "rack-c"}
    for lost in sorted(names):
        assert _replace_after_loss(placement, lost, demand, cap, {"web"}, {"cassandra"}) == {}, lost
        left = sum(h["vms"].get("cassandra", 0) for h in placement if h["domain"] != lost)
        assert left >= 2  # two of three replicas survive any one domain
    # without the survival constraint some domain's loss strands VMs
    stranded = [d for d in sorted(names) if _replace_after_loss(plain.details["placement_by_host"], d, demand,
                                                                 cap, {"web"}, {"cassandra"})]
    assert stranded


def test_bad_constraint_input_is_named(kb):
    from advisor.scenario import parse_scenario
    from knowledge.infra.errors import InputError

    sc = scenario([cassandra(anti_affinity=["x"])], domains=[{"name": "a"}, {"name": "a"}],
                  ha={"policy": "nope"})
    with pytest.raises(InputError) as e:
        parse_scenario(sc)
    text = str(e.value)
    assert "workloads[0].anti_affinity" in text and "hosts.failure_domains" in text
    assert "preferences.ha.policy" in text


@pytest.mark.parametrize("key", ["anti_affinity", "affinity"])
@pytest.mark.parametrize("number", [0, 1, 2.5])
def test_a_number_is_no_group_name(kb, key, number):
    """``anti_affinity: 0`` read as the group named "0" switched the constraint on (found from outside)."""
    from advisor.scenario import parse_scenario
    from knowledge.infra.errors import InputError

    with pytest.raises(InputError) as e:
        parse_scenario(scenario([cassandra(**{key: number})]))
    assert f"workloads[0].{key}: must be true, false or a group name" in str(e.value)


# --- doc 003's interference rule as a constraint ------------------------------------------------
def test_sequential_io_workloads_never_share_a_host(kb):
    seq = {"pattern": "sequential", "intensity": "medium"}
    wls = [workload("backup", vms=2, vcpus=2, ram_gib=8, cpu_intensity="low", io=seq),
           workload("etl", vms=2, vcpus=2, ram_gib=8, cpu_intensity="low", io=seq)]
    _, one = host_count(scenario(wls[:1]), kb)  # one sequential workload: no constraint, one host
    assert one.expected["active_hosts"]["value"] == 1 and "constraints" not in one.details
    _, rec = host_count(scenario(wls), kb)
    assert rec.expected["active_hosts"]["value"] == 2
    for h in rec.details["placement_by_host"]:
        assert len(h["vms"]) <= 1  # one sequential workload per host, its VMs together
    c = rec.details["constraints"]
    assert c["binding"] == "sequential_io" and c["sequential_io"]["workloads"] == ["backup", "etl"]
    assert c["sequential_io"]["run_time_longer_pct"] == 18.0 and c["sequential_io"]["bandwidth_less_pct"] == 24.0
    assert "about 18 % longer with 24 % less bandwidth [dp.no-sequential-pairs]" in rec.rationale


# --- the placement table in the report ---------------------------------------------------------
def test_report_shows_the_placement_table(kb):
    from advisor.render import to_html, to_markdown

    advice, rec = host_count(scenario([cassandra(replication_factor=3)], domains=DOMAINS), kb)
    md = to_markdown(advice)
    assert "## Placement" in md and "binding: replication factor" in md
    assert "| host | domain | VMs |\n|---|---|---|\n| host-1 | rack-a | cassandra 1 |" in md
    html = to_html(advice)
    assert "<h2>Placement</h2>" in html and "<td>host-3</td><td>rack-c</td><td>cassandra 1</td>" in html
    plain, _ = host_count(scenario([cassandra()]), kb)
    assert "## Placement" not in to_markdown(plain)


# --- optimize respects the constraints -----------------------------------------------------------
@pytest.mark.timeout(900)
def test_optimize_counts_hosts_under_the_constraints(session_kb):
    from advisor.optimize import SpaceOptions, optimize
    from advisor.optimize.space import design_scenario
    from advisor.scenario import load_scenario, parse_scenario
    from knowledge.costs import load_catalogue
    from tests.advisor.test_engine import EXAMPLE

    cat = load_catalogue(EXAMPLE.parent / "costs-example.yaml")
    d = load_scenario(EXAMPLE).to_dict()
    d["workloads"] = [w for w in d["workloads"] if w["name"] in ("web", "cassandra")]
    web = next(w for w in d["workloads"] if w["name"] == "web")
    web["anti_affinity"] = True
    sc = parse_scenario(d)
    res = optimize(sc, cat, session_kb, options=SpaceOptions(host_counts=2), workers=1)
    assert res.best is not None
    assert res.best.hosts - sc.hosts.reserve >= web["vms"]  # one web VM per host
    advice = advise(parse_scenario(design_scenario(sc, cat, res.best.design).to_dict()), kb=session_kb, catalogue=cat)
    assert advice.find("host_count").value == res.best.hosts


def test_a_domain_short_of_its_declared_hosts_is_named(kb):
    domains = [{"name": "rack-a", "hosts": 1}, {"name": "rack-b", "hosts": 1}, {"name": "rack-c", "hosts": 1}]
    wls = [workload("web", vms=6, vcpus=2, ram_gib=4, cpu_intensity="low", io=LOW, anti_affinity=True)]
    _, rec = host_count(scenario(wls, domains=domains), kb)
    assert rec.expected["active_hosts"]["value"] == 6
    assert "failure domain rack-a: the placement uses 2 hosts there, 1 declared (hosts.failure_domains)" in \
        rec.warnings


def test_surviving_two_hosts_checks_every_pair(kb):
    from advisor.recommend.first_fit import survives
    from advisor.recommend.placement import lose, place, rules_of
    from advisor.scenario.model import Survive

    cap = {"cpu_allocation": 32.0, "ram": usable_ram(512)}
    profiles = [("app", {"cpu_allocation": 8.0, "ram": 96 * 1.02}, 12)]
    wls = [workload("app", vms=12, vcpus=8, ram_gib=96, cpu_intensity="low", io=LOW)]
    _, one = host_count(scenario(wls, survive={"hosts": 1}), kb)
    _, two = host_count(scenario(wls, survive={"hosts": 2}), kb)
    n1, n2 = one.expected["active_hosts"]["value"], two.expected["active_hosts"]["value"]
    # 4 VMs per host (CPU: 32 / 8 cores): 3 hosts full; a lost host's 4 VMs need a 4th, empty; two lost
    # hosts' 8 VMs need two empty ones: 5
    assert (n1, n2) == (4, 5)
    p = place(cap, profiles, {}, [], int(n2))
    assert survives(p, profiles, {}, Survive(hosts=2)) is None
    for i in range(int(n2)):
        for j in range(i + 1, int(n2)):
            assert lose(p, [i, j], profiles, rules_of([], 0)) == {}
    short = place(cap, profiles, {}, [], int(n2) - 1)
    assert survives(short, profiles, {}, Survive(hosts=2)) is not None


def test_the_constraints_round_trip_through_the_file_format():
    from advisor.scenario import parse_scenario

    sc = parse_scenario(scenario([cassandra(replication_factor=3), workload("cache", vms=1, affinity="pair"),
                                  workload("web", anti_affinity="front")], domains=DOMAINS,
                                 survive={"domains": 1}, ha={"policy": "percentage", "tolerate_hosts": 2}))
    again = parse_scenario(sc.to_dict())
    assert again == sc
    assert again.preferences.ha.policy == "percentage" and again.preferences.survive.domains == 1
    assert [d.name for d in again.hosts.failure_domains] == ["rack-a", "rack-b", "rack-c"]
    assert (again.workloads[0].replication_factor, again.workloads[1].affinity, again.workloads[2].anti_affinity) \
        == (3, "pair", "front")
