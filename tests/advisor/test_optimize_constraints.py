"""The optimizer keeps the scenario's placement constraints in every design (#31 review 3: ``optimize``
of a scenario that must survive the loss of 1 of its 2 failure domains proposed 1 host). Each
design is the scenario on a catalogue host model; its count must still place the VMs under the
failure domains, failures to survive, HA admission, anti-affinity and replicas, as ``advise`` of
the written design says. Real engine, knowledge base and example catalogue; the counts by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.engine import advise
from advisor.optimize import SpaceOptions, optimize
from advisor.optimize.space import design_scenario
from advisor.scenario import parse_scenario
from knowledge.costs import load_catalogue

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "resources" / "examples" / "costs-example.yaml"
BIG = "Example 2U 2x32c 768G"
#: one host model (2 x 32 cores, 768 GiB) and one choice of the other dimensions: the counts tell
SPACE = SpaceOptions(host_models=[BIG], levels=["none"], backends=["local_disk"], cache_modes=["writethrough"],
                     host_counts=2)

pytestmark = pytest.mark.timeout(600)

#: 40 VMs of 2 vCPU / 16 GiB (16.3 GiB with overhead), little CPU: one 768 GiB host holds them all
#: (about 45 after the hypervisor's share), so every host beyond the first is the constraint's
VMS = {"name": "app", "vms": 40, "vcpus": 2, "ram_gib": 16, "cpu_intensity": "low"}
RACKS = [{"name": "rackA", "hosts": 3}, {"name": "rackB", "hosts": 3}, {"name": "rackC", "hosts": 3}]
CASES = {
    # a domain lost: the other holds every VM, so one host in each of 2 domains
    "survive 1 of 2 domains": ({"failure_domains": RACKS[:2]}, {}, {"survive": {"domains": 1}}, 2),
    # 2 domains lost: the third holds every VM
    "survive 2 of 3 domains": ({"failure_domains": RACKS}, {}, {"survive": {"domains": 2}}, 3),
    # 2 hosts lost at once: a third holds every VM
    "survive 2 hosts": ({}, {}, {"survive": {"hosts": 2}}, 3),
    # HA percentage admission tolerating 2 hosts: n - 2 hosts hold the VMs
    "HA tolerating 2": ({}, {}, {"ha": {"policy": "percentage", "tolerate_hosts": 2}}, 3),
    # 4 anti-affine VMs: one a host
    "anti-affinity": ({}, {"vms": 4, "anti_affinity": True}, {}, 4),
    # 3 replicas never share a host
    "replicas": ({}, {"replication_factor": 3}, {}, 3),
}


@pytest.fixture(scope="module")
def cat():
    return load_catalogue(CATALOGUE)


def _scenario(hosts: dict, workload: dict, prefs: dict):
    return parse_scenario({
        "name": "constrained", "workloads": [{**VMS, **workload}], "preferences": prefs,
        "hosts": {"count": 6, "reserve": 0, "ram_gib": 512, **hosts,
                  "cpu": {"sockets": 2, "cores_per_socket": 16, "threads_per_core": 2, "ghz": 2.0}}})


def _constraints(d: dict) -> dict:
    """The placement constraints of a scenario's file form."""
    return {"failure_domains": d["hosts"].get("failure_domains"),
            "survive": d["preferences"].get("survive"), "ha": d["preferences"].get("ha"),
            "workloads": [{k: w.get(k) for k in ("anti_affinity", "affinity", "replication_factor")}
                          for w in d["workloads"]]}


@pytest.mark.parametrize("case", CASES)
def test_every_design_keeps_the_placement_constraints(session_kb, cat, case):
    hosts, workload, prefs, by_hand = CASES[case]
    sc = _scenario(hosts, workload, prefs)
    res = optimize(sc, cat, session_kb, options=SPACE, workers=1)
    assert res.best is not None
    assert res.best.hosts == by_hand
    assert min(c.hosts for c in res.pareto) == by_hand  # no design on the front holds fewer
    written = design_scenario(sc, cat, res.best.design)
    assert _constraints(written.to_dict()) == _constraints(sc.to_dict())
    loaded = parse_scenario(written.to_dict())  # as --write-scenario writes it
    assert advise(loaded, kb=session_kb, catalogue=cat).find("host_count").value == by_hand
    # one host fewer is not enough: advised without a count, the design's hardware needs by_hand
    loaded.preferences.fixed.pop("host_count")
    assert advise(loaded, kb=session_kb).find("host_count").value == by_hand
