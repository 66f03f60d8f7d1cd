"""The design-space search: its verdict on every design of a small space is the one a real
``advise`` of that design gives (brute force), its answer is the brute force's, a design that
misses a target is never returned, the Pareto front holds no dominated design, and the search
runs in local processes with progress and cancel."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from advisor.optimize import SpaceOptions, optimize
from advisor.optimize import reference as ref
from advisor.optimize.evaluate import EXCLUDED, OK, PLACEMENT, TARGET
from advisor.optimize.search import FIGURES, best_of, pareto_front, representatives, tie_keys
from advisor.optimize.space import design_scenario, dimensions
from advisor.progress import Cancelled, CancelToken
from advisor.scenario import load_scenario, parse_scenario
from knowledge.costs import load_catalogue
from knowledge.infra.errors import InputError
from tests import model_cache
from tests.oracle import size

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "scenario.yaml"
CATALOGUE = ROOT / "resources" / "examples" / "costs-example.yaml"

pytestmark = pytest.mark.timeout(900)

#: active host counts per host model of the example's searches (full in CI: tests/oracle.py)
COUNTS = {"targets": size(4, 2), "front": size(3, 2), "figures": size(2, 1), "processes": size(2, 1)}


@pytest.fixture(scope="module")
def cat():
    return load_catalogue(CATALOGUE)


def small_scenario(**targets):
    d = load_scenario(EXAMPLE).to_dict()
    d["workloads"] = [w for w in d["workloads"] if w["name"] in ("web", "cassandra")]
    d["preferences"]["targets"] = targets
    return parse_scenario(d)


SMALL = SpaceOptions(host_models=["Example 2U 2x20c 384G", "Example 2U 2x32c 768G"],
                     hypervisors=["KVM", "VMware ESXi"], levels=["little", "medium"],
                     backends=["local_disk", "nfs_file"], cache_modes=["none", "writethrough"], counts=[6, 7])


def design_reason(table, row: int, modes: tuple[str, ...]) -> int:
    """The verdict of one design, in the order advise meets the problems (hard limits, rules, targets)."""
    idx = [table.modes[w].index(m) for w, m in enumerate(modes)]
    if table.reason[row] in (PLACEMENT, EXCLUDED):
        return int(table.reason[row])
    if any(table.mode_excluded[w][row, j] for w, j in enumerate(idx)):
        return EXCLUDED
    if table.reason[row] == TARGET or not all(table.mode_ok[w][row, j] for w, j in enumerate(idx)):
        return TARGET
    return OK


@pytest.mark.oracle
def test_every_design_of_a_small_space_is_judged_as_advise_judges_it(session_kb, cat):
    # a busiest-host CPU target some counts miss, a throughput target some cache modes miss
    sc = small_scenario(max_host_cpu_pct=45, workloads={"cassandra": {"min_throughput_mb_s": 8.0}})
    res = optimize(sc, cat, session_kb, options=SMALL, workers=1, keep_table=True)
    table = res.table
    dims = dimensions(sc, cat, SMALL)
    per_row = table.designs_per_row
    assert res.size == 128
    seen: dict[int, int] = {}
    feasible = []
    for i, design in enumerate(ref.designs(dims, table.counts)):
        row = i // per_row
        code, cand = ref.judge(sc, cat, design, session_kb)
        mine = design_reason(table, row, design.cache_modes)
        assert mine == code, (design, code, mine, table.missed.get(row))
        seen[code] = seen.get(code, 0) + 1
        if cand is not None:
            feasible.append(cand)
            # the figures the search ranks by are advise's
            assert cand.total == pytest.approx(float(table.total[row]), abs=0.01)
            assert cand.hosts == int(table.active[row]) + sc.hosts.reserve
            assert cand.headroom_pct == pytest.approx(float(table.headroom[row]))
            for w, m in enumerate(design.cache_modes):
                j = table.modes[w].index(m)
                assert cand.throughput_mb_s[table.workloads[w]] == pytest.approx(float(table.throughput[w][row, j]))
    # the space holds designs of every verdict, so the comparison means something
    assert set(seen) == {OK, PLACEMENT, EXCLUDED, TARGET}, seen
    assert res.feasible == seen[OK] == len(feasible)
    # the search's answer is the brute force's, for every objective
    for objective in ("cost", "hosts", "power"):
        r = optimize(sc, cat, session_kb, options=SMALL, workers=1, objective=objective)
        brute = best_of(feasible, objective)
        assert r.best.design == brute.design
        assert r.best.total == brute.total
        assert r.cheapest.design == best_of(feasible, "cost").design  # whatever the objective
    # and so is the Pareto front of cost against headroom
    x = np.array([c.total for c in feasible])
    y = np.array([c.headroom_pct for c in feasible])
    thr = [np.array([c.throughput_mb_s[w] for c in feasible], dtype=float) for w in table.workloads]
    front = pareto_front(x, y, True, tie_keys(y, thr))
    assert [c.design for c in res.pareto] == [feasible[i].design for i in front]


@pytest.mark.oracle
def test_a_design_that_misses_a_target_is_never_returned(session_kb, cat):
    sc = load_scenario(EXAMPLE).to_dict()
    sc["preferences"]["targets"] = {"max_host_cpu_pct": 40, "max_migration_downtime_ms": 3000,
                                    "workloads": {"batch": {"min_throughput_mb_s": 7}}}
    sc = parse_scenario(sc)
    res = optimize(sc, cat, session_kb, options=SpaceOptions(host_counts=COUNTS["targets"]), workers=1,
                   keep_table=True)
    assert res.best is not None and res.discarded["a target is missed"] > 0
    for c in [res.best, *res.pareto[:6]]:
        advice_code, cand = ref.judge(sc, cat, c.design, session_kb)
        assert advice_code == OK, c.design
        assert cand.total == pytest.approx(c.total, abs=0.01)
        assert c.host_cpu_pct <= 40 + 1e-9
    # every feasible row of the table meets the CPU target
    feasible, _picks, _values = representatives(res.table)
    assert np.all(res.table.host_cpu[feasible] <= 40 + 1e-9)
    # a target no design meets: nothing is returned, and the notes say why
    impossible = load_scenario(EXAMPLE).to_dict()
    impossible["preferences"]["targets"] = {"max_host_cpu_pct": 1}  # one cassandra VM alone is 18 % of a host
    res = optimize(parse_scenario(impossible), cat, session_kb, options=SpaceOptions(host_counts=2), workers=1)
    assert res.best is None and res.cheapest is None and res.pareto == [] and res.feasible == 0
    assert "no design meets every target" in res.notes[0]


@pytest.mark.oracle
def test_front_is_not_dominated_and_objectives_pick_their_minimum(session_kb, cat):
    sc = load_scenario(EXAMPLE)
    space = SpaceOptions(host_counts=COUNTS["front"])
    res = optimize(sc, cat, session_kb, options=space, workers=1, keep_table=True)
    t = res.table
    feasible, _p, _v = representatives(t)
    for c in res.pareto:  # nothing feasible is cheaper and has at least as much headroom, strictly better in one
        dominated = feasible & (t.total <= c.total) & (t.headroom >= c.headroom_pct) & \
            ((t.total < c.total - 1e-9) | (t.headroom > c.headroom_pct + 1e-9))
        assert not dominated.any()
    assert [c.total for c in res.pareto] == sorted(c.total for c in res.pareto)
    assert res.best.total == pytest.approx(float(t.total[feasible].min()))
    hosts = optimize(sc, cat, session_kb, objective="hosts", options=space, workers=1)
    assert hosts.best.hosts == int((t.active[feasible] + t.reserve).min())
    power = optimize(sc, cat, session_kb, objective="power", options=space, workers=1)
    assert power.best.kwh_per_year == pytest.approx(float(t.kwh[feasible].min()))
    for figure in FIGURES:
        r = optimize(sc, cat, session_kb, figure=figure, options=SpaceOptions(host_counts=COUNTS["figures"]),
                     workers=1)
        values = [c.figure(figure) for c in r.pareto]
        assert r.pareto and all(v is not None for v in values) or figure == "boot_time"
    with pytest.raises(InputError, match="unknown objective"):
        optimize(sc, cat, session_kb, objective="beauty")


def test_the_scenarios_fixed_choices_are_kept(session_kb, cat):
    d = load_scenario(EXAMPLE).to_dict()
    d["preferences"]["hypervisor"] = "KVM"
    d["preferences"]["fixed"] = {"storage_backend": "nfs_file"}
    res = optimize(parse_scenario(d), cat, session_kb, options=SpaceOptions(host_counts=2), workers=1)
    assert res.space["hypervisors"] == ["KVM"]
    assert all(c.design.hypervisor == "KVM" and c.design.storage.backend == "nfs_file" for c in res.pareto)


def test_the_best_design_as_a_scenario_advises_to_the_same_cost(session_kb, cat):
    from advisor.engine import advise

    sc = load_scenario(EXAMPLE)
    res = optimize(sc, cat, session_kb, options=SpaceOptions(host_counts=2), workers=1)
    loaded = parse_scenario(design_scenario(sc, cat, res.best.design).to_dict())  # through the file format
    advice = advise(loaded, kb=session_kb, catalogue=cat)
    assert advice.cost.total == res.best.total
    assert advice.find("host_count").value == res.best.hosts
    assert advice.first("hypervisor").choice == res.best.design.hypervisor


def test_progress_and_cancel(session_kb, cat):
    sc = load_scenario(EXAMPLE)
    seen = []
    optimize(sc, cat, session_kb, options=SpaceOptions(host_counts=1), workers=1,
             progress=lambda f, m: seen.append(f))
    assert seen[-1] == 1.0 and seen == sorted(seen)
    token = CancelToken()

    def cancel_midway(fraction, _message):
        if fraction > 0.3:
            token.cancel()

    with pytest.raises(Cancelled):
        optimize(sc, cat, session_kb, options=SpaceOptions(host_counts=2), workers=1, progress=cancel_midway,
                 cancel=token)


@pytest.mark.oracle
def test_local_processes_give_the_same_answer(session_kb, cat, kb_path):
    sc = load_scenario(EXAMPLE)
    opts = SpaceOptions(host_counts=COUNTS["processes"])
    model_cache.warm(kb_path)  # the workers load the session's families instead of training them
    one = optimize(sc, cat, session_kb, options=opts, workers=1)
    two = optimize(sc, cat, session_kb, options=opts, workers=2)
    assert two.workers == 2
    assert two.best.design == one.best.design and two.feasible == one.feasible and two.size == one.size
    assert [c.design for c in two.pareto] == [c.design for c in one.pareto]
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        optimize(sc, cat, session_kb, options=opts, workers=2, cancel=token)
    assert not math.isnan(one.elapsed_s)
