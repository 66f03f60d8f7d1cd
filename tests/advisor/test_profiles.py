"""Per-workload decisions computed once per distinct profile (issue 19, the 10,000-workload
target; advisor/recommend/profile.py): the advice is exactly what computing every workload on
its own gives, identical workloads get equal recommendations apart from the scope, and the
recording view refuses what it cannot trace."""

from __future__ import annotations

import json
import random

import pytest

from advisor.engine import advise
from advisor.recommend import cache_mode, disk_placement, profile
from advisor.recommend.base import decide
from advisor.recommend.profile import ProfileMemo, whole
from advisor.rules import Effect, Facts, Outcome, Rule, RuleContext, evaluate
from advisor.scenario import parse_scenario

PER_WORKLOAD = ("cache_mode", "disk_placement", "io_block_size", "hypervisor", "vm_period_budget")


def _varied(n: int, seed: int) -> dict:
    """``n`` workload groups that vary every field a per-workload rule or figure reads, with
    per-workload targets and fixed choices, so that many profiles repeat and some differ in one
    field only."""
    rng = random.Random(seed)
    workloads = []
    for i in range(n):
        io = {"pattern": rng.choice(["random", "sequential", "mixed"]), "intensity": rng.choice(["low", "high"]),
              "read_share": rng.choice([0.2, 0.5, 0.8, 1.0]), "block_size_kib": rng.choice([4, 128])}
        if rng.random() < 0.3:
            io["footprint_gb"] = rng.choice([10, 40])
            io["disk_gb"] = rng.choice([50, 200])
        if rng.random() < 0.1:
            io["iops"] = rng.choice([50, 5000])
        w = {"name": f"w{i}", "vms": rng.choice([1, 2]), "vcpus": rng.choice([2, 12]), "ram_gib": rng.choice([2, 4.0]),
             "cpu_intensity": rng.choice(["low", "high"]), "io": io, "live_migration": rng.random() < 0.3,
             "data_loss_tolerance": rng.choice(["none", "seconds", "any"]), "containerizable": rng.random() < 0.3,
             "application": rng.choice(["web", "cassandra", "telecom", ""])}
        if rng.random() < 0.2:
            w["request_load_rps"] = 500
        if rng.random() < 0.15:  # real-time task sets, some too slow on these hosts' clock to schedule
            p = rng.choice([10, 20])
            rt = rng.choice([{"tasks": [{"name": "ctl", "period": p, "wcet": p * 0.1},
                                        {"name": "log", "period": p * 5, "wcet": p * 0.3}]},
                             {"design_speed_ghz": 4.0, "tasks": [{"name": "a", "period": 4, "wcet": 2},
                                                                 {"name": "b", "period": 8, "wcet": 3.9}]}])
            w.update(vms=1, containerizable=False, realtime={"time_unit": "ms", **rt})
        workloads.append(w)
    prefs = {"targets": {"workloads": {f"w{i}": {"min_throughput_mb_s": v} for i, v in ((3, 2), (4, 8), (5, 30), (6, 90))}},
             "fixed": {"cache_mode": {"w7": "writethrough", "w8": "writethrough"}}} if n > 8 else {}
    return {"name": "varied", "hosts": {
        "count": max(2, n // 3), "reserve": 1, "ram_gib": 256, "nic_gbps": 10,
        "cpu": {"sockets": 2, "cores_per_socket": 16, "threads_per_core": 2, "ghz": 2.4, "virtualization": "vmx"},
        "disks": [{"kind": "hdd", "count": 4, "size_gb": 4000}]},
        "preferences": prefs, "workloads": workloads}


def _every_workload_on_its_own(monkeypatch) -> None:
    monkeypatch.setattr(ProfileMemo, "lookup", lambda self, root, w: None)


@pytest.mark.parametrize("seed", [1, 2])
def test_shared_profiles_give_exactly_the_advice_of_every_workload_computed_alone(session_kb, monkeypatch, seed):
    data = _varied(90, seed)
    shared = advise(parse_scenario(data), kb=session_kb)
    counts = {d: len(shared.of(d)) for d in PER_WORKLOAD}
    _every_workload_on_its_own(monkeypatch)
    alone = advise(parse_scenario(data), kb=session_kb)
    assert json.dumps(shared.to_dict()) == json.dumps(alone.to_dict())
    assert counts["cache_mode"] == 90 and counts["hypervisor"] > 1 and counts["vm_period_budget"] > 1
    infeasible = [r for r in shared.of("vm_period_budget") if r.choice == "infeasible"]
    assert infeasible and all(r.scope.removeprefix("workload:") in " ".join(r.warnings) for r in infeasible)


def test_recommendations_built_once_per_outcome_are_those_built_per_profile(session_kb, monkeypatch):
    """disk_placement and cache_mode build one recommendation per outcome of their rules
    (Outcome.key) and what else they read (oversized disk, footprint, figures, containers): the
    advice is the same as with one built per profile."""
    data = _varied(90, 1)
    decided = []
    for module in (disk_placement, cache_mode):
        monkeypatch.setattr(module, "decide", lambda *a, **k: decided.append(1) or decide(*a, **k))
    shared = advise(parse_scenario(data), kb=session_kb)
    built = len(decided)
    monkeypatch.setattr(Outcome, "key", lambda self: object())  # every outcome its own
    alone = advise(parse_scenario(data), kb=session_kb)
    assert json.dumps(shared.to_dict()) == json.dumps(alone.to_dict())
    assert 0 < built < len(decided) - built


def test_identical_workloads_get_equal_recommendations_apart_from_the_scope(session_kb):
    data = _varied(12, 3)
    twin = {**data["workloads"][0], "name": "twin"}
    data["workloads"].append(twin)
    advice = advise(parse_scenario(data), kb=session_kb)
    for decision in ("cache_mode", "disk_placement", "io_block_size"):
        first, second = advice.find(decision, "workload:w0"), advice.find(decision, "workload:twin")
        assert first is not None and second is not None
        a, b = first.to_dict(), second.to_dict()
        assert (a.pop("scope"), b.pop("scope")) == ("workload:w0", "workload:twin")
        assert a == b
        assert "w0" not in json.dumps(a) and "twin" not in json.dumps(b)  # texts name the workload by scope only
        # shared by reference (memory), each with its own lists that later steps may extend
        assert first.expected is second.expected and first.alternatives is second.alternatives
        assert first.warnings is not second.warnings and first.details is not second.details


def test_a_workload_differing_in_one_read_field_is_computed_on_its_own(session_kb):
    data = _varied(4, 4)
    base = {**data["workloads"][0], "live_migration": False, "data_loss_tolerance": "seconds"}
    data["workloads"] = [base, {**base, "name": "moving", "live_migration": True}]
    advice = advise(parse_scenario(data), kb=session_kb)
    still, moving = advice.find("cache_mode", "workload:w0"), advice.find("cache_mode", "workload:moving")
    assert still is not None and moving is not None
    assert moving.choice in ("none", "directsync") and "cache.migration-needs-none" in moving.rules
    assert "cache.migration-needs-none" not in still.rules


def test_the_cache_mode_figures_read_of_a_workload_only_what_their_key_holds(session_kb):
    """cache_mode shares one set of figures among workloads of equal figures_key: per_vm_throughput
    must read nothing else of a workload (recorded through the profile's reading view)."""
    advice = advise(parse_scenario(_varied(40, 8)), kb=session_kb)
    ctx = advice.context(session_kb)
    allowed = {("io",)} | {("io", name) for name in cache_mode.FIGURE_FIELDS}
    read = set()
    for w in advice.scenario.workloads:
        trace = profile._Trace()
        assert cache_mode.per_vm_throughput(ctx, [profile._Recorder(w, (), trace)]) is not None
        read |= {path for path, _ in trace}
    assert ("io", "footprint_gb") in read and read <= allowed, read - allowed


def test_an_outcome_key_tells_apart_what_decide_reads():
    sc = parse_scenario(_varied(4, 7))
    one, two = {"vms": 1}, {"vms": 2}  # (what the rules below read of a workload)
    up = Rule("t.up", "t", "workload", "measured", "Up.", lambda c: True, lambda c: Effect({"a": c.w["vms"]}))
    down = Rule("t.down", "t", "workload", "measured", "Down.", lambda c: True, lambda c: Effect({"a": -c.w["vms"]}))
    ban = Rule("t.ban", "t", "workload", "safety", "Ban.", lambda c: c.w["vms"] > 1, Effect(exclude={"b": "no"}))

    def key(w, rules):
        return evaluate("t", RuleContext(sc, Facts(), w), ("a", "b"), rules).key()

    assert key(one, [up, down]) == key(dict(one), [up, down])  # the same reads: the same key
    # equal scores (0 for a) from other effects: decide names the deciding rule and conflicts by them
    assert key(one, [up, down]) != key(two, [up, down])
    assert key(one, [ban]) != key(two, [ban])  # an exclusion


def test_the_profile_is_the_fields_read_in_order():
    data = _varied(6, 5)
    sc = parse_scenario(data)
    memo, runs = ProfileMemo(), []

    def compute(w):
        runs.append(1)
        return (w.io.pattern, w.vms >= 2 if w.io.pattern == "random" else None)

    got = [memo.get("root", w, compute) for w in sc.workloads]
    assert got == [(w.io.pattern, w.vms >= 2 if w.io.pattern == "random" else None) for w in sc.workloads]
    distinct = {(w.io.pattern, w.vms if w.io.pattern == "random" else None) for w in sc.workloads}
    assert len(runs) == memo.computed == len(distinct)


def test_the_recording_view_refuses_whole_workload_comparisons_and_writes():
    sc = parse_scenario(_varied(2, 6))
    w = sc.workloads[0]
    trace = profile._Trace()
    view = profile._Recorder(w, (), trace)
    with pytest.raises(TypeError):
        _ = view == w
    with pytest.raises(TypeError):
        hash(view)
    with pytest.raises(TypeError):
        view.vms = 3
    assert whole(view.io) is w.io  # read as a whole: noted with every field
    assert trace[-1][0] == ("<whole>", "io")
    _ = (view.vms, view.vms, view.io.pattern, view.io.pattern)
    assert [path for path, _ in trace] == [("io",), ("<whole>", "io"), ("vms",), ("io", "pattern")]  # each once


def test_advice_lookups_answer_like_a_scan_of_the_recommendations(session_kb):
    """Advice.find/of are indexed (a report of 10,000 workload groups asked find thousands of times,
    each a scan of every recommendation); they still see a recommendation added afterwards."""
    advice = advise(parse_scenario(_varied(30, 7)), kb=session_kb)
    recs = advice.recommendations
    for r in recs:
        assert advice.find(r.decision, r.scope) is next(x for x in recs if (x.decision, x.scope) == (r.decision,
                                                                                                       r.scope))
        assert advice.of(r.decision) == [x for x in recs if x.decision == r.decision]
    assert advice.find("cache_mode", "workload:nosuch") is None and advice.of("nosuch") == []
    extra = profile.rescoped(advice.of("cache_mode")[0], "workload:late")
    recs.append(extra)
    assert advice.find("cache_mode", "workload:late") is extra and advice.of("cache_mode")[-1] is extra
