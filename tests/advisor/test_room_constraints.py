"""The host count card's headroom ("room for N more") under placement constraints (closing note of
#31 round 3: it counted the resources' leftovers only). N is what the constrained search still
places on the active hosts: N more VMs need no more hosts, N + 1 do. Real engine and knowledge
base; the numbers are computed by hand below."""

from __future__ import annotations

import pytest

from advisor.engine import advise

pytestmark = pytest.mark.timeout(300)


def _hosts(count: int, reserve: int, cores: int, ghz: float, ram: int, **more) -> dict:
    return {"count": count, "reserve": reserve, "ram_gib": ram,
            "cpu": {"sockets": 2, "cores_per_socket": cores, "threads_per_core": 2, "ghz": ghz}, **more}


def _card(kb, sc: dict) -> dict:
    return next(r for r in advise(sc, kb=kb).to_dict()["recommendations"] if r["decision"] == "host_count")


def _room(card: dict) -> dict[str, int]:
    return {k.removeprefix("headroom_"): int(v["value"]) for k, v in card["expected"].items()
            if k.startswith("headroom_")}


def _more(sc: dict, name: str, n: int) -> dict:
    return {**sc, "workloads": [{**w, "vms": w["vms"] + n} if w["name"] == name else w for w in sc["workloads"]]}


def test_no_room_for_an_anti_affine_vm_when_each_host_holds_one(session_kb):
    # 4 anti-affine VMs (4 vCPU / 32 GiB) need 4 active hosts; the resources would hold 84 more on
    # them, the anti-affinity none (a fifth VM needs a fifth host).
    sc = {"name": "aa", "hosts": _hosts(6, 1, 32, 2.4, 768),
          "workloads": [{"name": "db", "vms": 4, "vcpus": 4, "ram_gib": 32, "cpu_intensity": "low",
                         "anti_affinity": True}]}
    card = _card(session_kb, sc)
    assert int(card["expected"]["active_hosts"]["value"]) == 4
    assert _room(card) == {"db": 0}
    assert "room on the 4 active hosts for 0 more db VMs" in card["rationale"]
    assert int(_card(session_kb, _more(sc, "db", 1))["expected"]["active_hosts"]["value"]) == 5


def test_a_named_group_leaves_room_for_one_vm_a_host(session_kb):
    # 2 + 1 VMs of one anti-affinity group "g" and 6 VMs without: the card's 3 active hosts (the group
    # needs 3) hold no more VM of the group, plenty of the free workload.
    vm = {"vcpus": 2, "ram_gib": 8, "cpu_intensity": "low"}
    sc = {"name": "grp", "hosts": _hosts(4, 1, 16, 2.0, 512),
          "workloads": [{"name": "a", "vms": 2, "anti_affinity": "g", **vm},
                        {"name": "b", "vms": 1, "anti_affinity": "g", **vm},
                        {"name": "c", "vms": 6, **vm}]}
    card = _card(session_kb, sc)
    assert int(card["expected"]["active_hosts"]["value"]) == 3
    room = _room(card)
    assert room["a"] == room["b"] == 0 and room["c"] > 100


@pytest.mark.parametrize("prefs, hosts", [
    ({"survive": {"domains": 1}}, {"failure_domains": [{"name": "rackA", "hosts": 3}, {"name": "rackB", "hosts": 3}]}),
    ({"ha": {"policy": "percentage", "tolerate_hosts": 2}}, {})])
def test_room_that_still_survives_the_failure(session_kb, prefs, hosts):
    # 40 VMs of 2 vCPU / 16 GiB (16.32 GiB with the overhead) on 512 GiB hosts: 30 VMs a host
    # (496.14 GiB usable). Survive 1 of 2 domains (2 active hosts a domain) or HA tolerating 2 of 4:
    # 2 hosts must hold every VM, 60: room for 20 more (the resources alone: 4 x 30 - 40 = 80).
    sc = {"name": "fail", "hosts": _hosts(6 if hosts else 5, 0, 16, 2.0, 512, **hosts),
          "workloads": [{"name": "app", "vms": 40, "vcpus": 2, "ram_gib": 16, "cpu_intensity": "low"}],
          "preferences": prefs}
    card = _card(session_kb, sc)
    assert int(card["expected"]["active_hosts"]["value"]) == 4
    assert _room(card) == {"app": 20}
    assert int(_card(session_kb, _more(sc, "app", 20))["expected"]["active_hosts"]["value"]) == 4
    assert int(_card(session_kb, _more(sc, "app", 21))["expected"]["active_hosts"]["value"]) > 4


def test_an_estate_gets_the_resources_room_bounded_by_anti_affinity_and_says_so(session_kb):
    # Each constrained search places every workload and each workload takes several searches: 100
    # workloads took ~5 s and 300 ~50 s of CPU, so beyond SEARCHED_WORKLOADS the room is the
    # resources' (here, as in test_room_that_still_survives_the_failure: 4 x 30 - 40 = 80 for app,
    # now spread over 25 workloads) bounded by the anti-affinity groups, and the card says it is an
    # upper bound.
    from advisor.recommend.room import SEARCHED_WORKLOADS

    n = SEARCHED_WORKLOADS + 1
    sc = {"name": "estate", "hosts": _hosts(5, 0, 16, 2.0, 512),
          "workloads": [{"name": f"app{i}", "vms": 2, "vcpus": 2, "ram_gib": 16, "cpu_intensity": "low"}
                        for i in range(n - 1)]
          + [{"name": "db", "vms": 2, "vcpus": 2, "ram_gib": 16, "cpu_intensity": "low", "anti_affinity": True}],
          "preferences": {"ha": {"policy": "percentage", "tolerate_hosts": 2}}}
    card = _card(session_kb, sc)
    active = int(card["expected"]["active_hosts"]["value"])
    room = _room(card)
    assert room["db"] == active - 2  # one VM of the group a host
    assert room["app0"] == active * 30 - 2 * n  # every VM one profile: the resources' leftovers
    assert any(f"up to {SEARCHED_WORKLOADS} workloads (this one has {n})" in w for w in card["warnings"])
    small = {**sc, "workloads": sc["workloads"][-SEARCHED_WORKLOADS:]}
    assert not any("upper bound" in w for w in _card(session_kb, small)["warnings"])


def test_a_room_searched_to_its_limit_is_at_least_and_every_step_places(session_kb, monkeypatch):
    # The room is searched one VM at a time (each step a constrained search): beyond the least share
    # only as far as room.STEPS VMs more. The free workload c reaches it: the card gives that many,
    # says "at least", and each step up to it places on the card's hosts (the engine's own count search).
    from advisor.engine import advise as advise_sc
    from advisor.recommend import room as room_mod
    from advisor.scenario import parse_scenario

    vm = {"vcpus": 2, "ram_gib": 8, "cpu_intensity": "low"}
    sc = {"name": "grp", "hosts": _hosts(4, 1, 16, 2.0, 512),
          "workloads": [{"name": "a", "vms": 2, "anti_affinity": "g", **vm},
                        {"name": "b", "vms": 1, "anti_affinity": "g", **vm},
                        {"name": "c", "vms": 6, **vm}]}
    monkeypatch.setattr(room_mod, "STEPS", 40)
    advice = advise_sc(parse_scenario(sc), kb=session_kb)
    card = next(r for r in advice.to_dict()["recommendations"] if r["decision"] == "host_count")
    assert _room(card) == {"a": 0, "b": 0, "c": 40}
    assert any("c has room for at least the VMs given" in w for w in card["warnings"])
    for more in range(1, 41):
        assert int(_card(session_kb, _more(sc, "c", more))["expected"]["active_hosts"]["value"]) <= 3
    monkeypatch.setattr(room_mod, "STEPS", 1000)  # searched to its end: more, and exact
    card = _card(session_kb, sc)
    assert _room(card)["c"] > 128 and not any("at least" in w for w in card["warnings"])
