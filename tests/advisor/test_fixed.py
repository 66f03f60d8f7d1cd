"""``preferences.fixed``: a scenario can fix the over-allocation level, the storage backend, the
cache mode per workload and the host count (a design chosen by ``optimize`` or on the GUI's cost
chart); the advice takes them, says when a rule would have excluded one, and sizes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.engine import advise
from advisor.rules import CACHE, OVERALLOCATION
from advisor.scenario import FIXABLE, load_scenario, parse_scenario
from knowledge.infra.errors import InputError

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "scenario.yaml"


def _data(**fixed):
    d = load_scenario(EXAMPLE).to_dict()
    d["preferences"]["fixed"] = fixed
    return d


def test_fixable_choices_are_the_decisions_own():
    from advisor.recommend.storage_backend import BACKENDS

    assert FIXABLE["vcpu_overallocation"] == tuple(OVERALLOCATION)
    assert FIXABLE["storage_backend"] == BACKENDS
    assert set(FIXABLE["cache_mode"]) == set(CACHE)


def test_bad_fixed_choices_are_named_by_path():
    with pytest.raises(InputError) as err:
        parse_scenario(_data(vcpu_overallocation="lots", storage_backend="tape", host_count=1,
                             cache_mode={"web": "none", "nosuch": "none", "batch": "fast"}, colour="red"))
    msg = str(err.value)
    for part in ("preferences.fixed.vcpu_overallocation: must be one of none|little|moderate|medium|massive",
                 "preferences.fixed.storage_backend: must be one of", "preferences.fixed.host_count: must be larger "
                 "than hosts.reserve (1)", "preferences.fixed.cache_mode.nosuch: no workload named 'nosuch'",
                 "preferences.fixed.cache_mode.batch: must be one of", "preferences.fixed.colour: unknown key"):
        assert part in msg


def test_fixed_choices_round_trip_the_file_format():
    sc = parse_scenario(_data(vcpu_overallocation="little", cache_mode={"web": "none"}, host_count=7))
    again = parse_scenario(sc.to_dict())
    assert again.preferences.fixed == {"vcpu_overallocation": "little", "cache_mode": {"web": "none"}, "host_count": 7}
    assert again.preferences.pinned("cache_mode", "web") == "none"
    assert again.preferences.pinned("cache_mode", "batch") is None
    assert "fixed" not in load_scenario(EXAMPLE).to_dict()["preferences"]  # nothing written when nothing is fixed


def test_the_advice_takes_the_fixed_choices(session_kb):
    free = advise(EXAMPLE, kb=session_kb)
    a = advise(parse_scenario(_data(vcpu_overallocation="little", storage_backend="nfs_root", host_count=9,
                                    cache_mode="directsync")), kb=session_kb)
    assert a.find("vcpu_overallocation").choice == "little" != free.find("vcpu_overallocation").choice
    assert a.find("storage_backend").choice == "nfs_root" != free.find("storage_backend").choice
    assert a.find("host_count").value == 9 and a.facts.active_hosts == 8
    assert {r.choice for r in a.of("cache_mode")} == {"directsync"}
    lvl = a.find("vcpu_overallocation")
    assert lvl.details["fixed"] == {"choice": "little", "excluded_by": []}
    assert "Fixed by the scenario's preferences." in lvl.rationale
    assert all(alt.why_not.startswith("the scenario fixes little") for alt in lvl.alternatives if not alt.excluded)


def test_a_fixed_choice_a_rule_excludes_is_taken_and_said(session_kb):
    # the example has real-time VMs (massive excluded) and a migrating workload (writeback excluded)
    a = advise(parse_scenario(_data(vcpu_overallocation="massive", cache_mode={"web": "writeback"})), kb=session_kb)
    lvl = a.find("vcpu_overallocation")
    assert lvl.choice == "massive" and lvl.details["fixed"]["excluded_by"] == ["oa.realtime-no-massive"]
    assert any(w.startswith("the scenario fixes massive although the rules exclude it") for w in lvl.warnings)
    web = a.find("cache_mode", "workload:web")
    assert web.choice == "writeback" and "cache.migration-needs-none" in web.details["fixed"]["excluded_by"]
    assert web.confidence <= 0.2


def test_a_fixed_host_count_below_the_placement_is_infeasible(session_kb):
    a = advise(parse_scenario(_data(host_count=2)), kb=session_kb)
    hc = a.find("host_count")
    assert hc.choice == "infeasible"
    assert any("the scenario fixes 2 hosts (1 active) but placing whole VMs takes" in w for w in hc.warnings)


def test_a_fixed_cache_mode_is_the_one_the_throughput_target_reads(session_kb):
    d = _data(cache_mode={"batch": "writethrough"}, host_count=6)
    d["preferences"]["targets"] = {"workloads": {"batch": {"min_throughput_mb_s": 0.001}}}
    a = advise(parse_scenario(d), kb=session_kb)
    batch = a.find("cache_mode", "workload:batch")
    [t] = [t for t in a.targets if t.name == "min_throughput_mb_s"]
    assert t.expected == pytest.approx(batch.expected["throughput_per_vm"]["value"], rel=1e-5)
