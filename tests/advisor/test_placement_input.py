"""#32 follow-ups found from outside: contradictory placement constraints are bad input (exit 2
naming the field, not exit 0 with "no host count places every VM"); a replication factor above the
VM count is named; the host-count card says "1 host" and calls the hosts the constraints leave
empty spare, not N+0. Real CLI on a real scenario file, real engine and knowledge base."""

from __future__ import annotations

import json

import pytest
import yaml

from advisor.engine import advise
from app.cli import main as capadvisor
from tests.advisor.test_engine import _kb_fixtures
from tests.advisor.test_placement_constraints import LOW, cassandra, host_count, scenario, workload

kb_path, kb = _kb_fixtures.kb_path, _kb_fixtures.kb  # fixtures

GENERAL = "no host count places every VM"


def run(tmp_path, sc: dict, capsys) -> tuple[int, str, str]:
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(sc, sort_keys=False), encoding="utf-8")
    out = tmp_path / "advice.json"
    code = capadvisor(["advise", str(path), "--format", "json", "-o", str(out)])
    got = capsys.readouterr()
    return code, got.err, out.read_text(encoding="utf-8") if out.exists() else ""


@pytest.mark.parametrize(("workloads", "field", "says"), [
    ([cassandra(affinity=True, anti_affinity=True)], "workloads[0].affinity",
     "workloads[0].anti_affinity: true puts each on a host of its own"),
    ([cassandra(affinity=True, replication_factor=3)], "workloads[0].affinity",
     "workloads[0].replication_factor 3 keeps its replicas on different hosts"),
    ([cassandra(affinity="pair", replication_factor=3), workload("web", vms=1, affinity="pair", io=LOW)],
     "workloads[0].affinity", "affinity group 'pair' keeps the 3 VMs of 'cassandra' on one host"),
    ([workload("a", vms=1, affinity="grp", anti_affinity="apart", io=LOW),
      workload("b", vms=1, affinity="grp", anti_affinity="apart", io=LOW)], "workloads[0].affinity",
     "keeps 2 VMs of anti-affinity group 'apart' on one host (workloads[0] (a), workloads[1] (b))"),
    ([workload("a", vms=20, vcpus=4, ram_gib=64, affinity="grp", io=LOW),
      workload("b", vms=20, vcpus=4, ram_gib=64, affinity="grp", io=LOW)], "workloads[0].affinity",
     "keeps 40 VMs with 2560 GiB of RAM together on one host, more than a host's 512 GiB (hosts.ram_gib)"),
])
def test_contradictory_constraints_exit_2_naming_the_field(tmp_path, capsys, workloads, field, says):
    code, err, out = run(tmp_path, scenario(workloads), capsys)
    assert code == 2 and out == ""
    assert f"{field}: " in err and says in err and GENERAL not in err


def test_an_affinity_group_over_a_hosts_usable_ram_is_named_by_field_and_resource(kb):
    # 2 x 250 GiB = 500 GiB is within the 512 GiB a host has, not the 496.14 GiB it can give VMs
    sc = scenario([workload("db", vms=2, vcpus=2, ram_gib=250, affinity=True, cpu_intensity="low", io=LOW)])
    rec = advise(sc, kb=kb).find("host_count")
    assert rec.choice == "infeasible"
    named = [w for w in rec.warnings if w.startswith("workloads[0].affinity: affinity: true keeps 2 VMs on one host")]
    assert named and "RAM (guest RAM + 2 % overhead) 510 GiB of a host's 496.1" in named[0]
    assert not any(GENERAL in w for w in rec.warnings)


def test_a_replication_factor_above_the_vm_count_is_named(kb):
    _, rec = host_count(scenario([cassandra(replication_factor=5, vms=2)]), kb)
    assert ("workloads[0].replication_factor: 5 copies, but 2 VMs hold at most 2 (a copy needs a VM of its own): "
            "give vms >= 5 or a smaller replication_factor") in rec.warnings
    _, fine = host_count(scenario([cassandra(replication_factor=3)]), kb)
    assert not any("replication_factor" in w for w in fine.warnings)


def test_hosts_ha_admission_leaves_empty_are_spare_not_n_plus_0(kb):
    wls = [workload("big", vms=1, vcpus=8, ram_gib=64, cpu_intensity="low", io=LOW),
           workload("small", vms=40, vcpus=2, ram_gib=4, cpu_intensity="low", io=LOW)]
    _, rec = host_count(scenario(wls, cores_per_socket=8, ram_gib=256, ha={"policy": "slot", "tolerate_hosts": 1}),
                        kb)
    empty = sum(1 for h in rec.details["placement_by_host"] if not h["vms"])
    assert rec.value == 22 and empty > 10
    assert rec.rationale.startswith(f"22 hosts: 22 active for the workloads ({empty} of them hold no VM: the spare "
                                    "that HA admission (slot) needs), none kept free beyond them.")
    assert "N+0" not in rec.rationale


def test_one_host_is_one_host(kb, tmp_path, capsys):
    sc = scenario([cassandra(vms=1)], domains=[{"name": "rack-a", "hosts": 0}, {"name": "rack-b", "hosts": 0}],
                  survive={"domains": 2})
    code, _, out = run(tmp_path, sc, capsys)
    assert code == 0
    rec = next(r for r in json.loads(out)["recommendations"] if r["decision"] == "host_count")
    assert "failure domain rack-a: the placement uses 1 host there, 0 declared" in " ".join(rec["warnings"])
    assert ("surviving the loss of 2 failure domains needs at least 3 declared, 2 declared "
            "(hosts.failure_domains)") in rec["warnings"]
    _, one = host_count(scenario([cassandra(vms=1)]), kb)
    assert one.rationale.startswith("1 host: 1 active for the workloads plus 0 kept free (N+0).")


def test_an_affinity_group_within_the_over_committed_ram_is_accepted(kb, tmp_path, capsys):
    pair = [workload("db", vms=2, vcpus=2, ram_gib=300, affinity=True, cpu_intensity="low", io=LOW)]
    code, err, _ = run(tmp_path, scenario(pair), capsys)
    assert code == 2 and "more than a host's 512 GiB (hosts.ram_gib)" in err
    _, rec = host_count(scenario(pair, ram_overcommit=1.5), kb)  # 612 GiB of 744 GiB over-committed
    assert [h["vms"] for h in rec.details["placement_by_host"] if h["vms"]] == [{"db": 2}]
    code, err, _ = run(tmp_path, scenario(pair, ram_overcommit=1.1), capsys)  # 600 GiB over 563.2 GiB
    assert code == 2 and ("workloads[0].affinity: affinity: true keeps 2 VMs with 600 GiB of RAM together on one "
                          "host, more than a host's 512 GiB (hosts.ram_gib) at RAM over-commit 1.1x "
                          "(preferences.ram_overcommit)") in err
