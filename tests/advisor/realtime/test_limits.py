"""Hostile task sets (issue 19, point 5): the analysis stays bounded in time and memory, answers
exactly where it answers, and refuses with a message (never GiB allocations or minutes of work)."""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest

from advisor.realtime import TaskSet, analyze, edf, ratio_curve, schedulable
from advisor.realtime.intervals import (
    MAX_CHECKPOINTS,
    Points,
    TooManyCheckpoints,
    count_points,
    fp_min_budget,
    fp_points,
)
from advisor.realtime.partition import partition
from advisor.realtime.response import min_budget_by_iteration
from advisor.realtime.supply import REL_TOL
from advisor.realtime.tasks import MAX_TASKS, Task
from knowledge.infra.errors import InputError
from tests.advisor.realtime.automotive import automotive_taskset, spread_taskset

#: periods from 1 to 1e9 time units (one job of the fastest task per unit up to the slowest deadline)
SPAN = TaskSet.from_tuples([("a", 1, 0.1), ("b", 1000, 10), ("c", 1e9, 1000)], source="span.csv")
#: five tasks, period ratio 1e7
RATIO = TaskSet.from_tuples([("a", 1, 0.05), ("b", 7, 0.3), ("c", 130, 3), ("d", 9999, 50),
                             ("e", 1e7, 20000)], source="ratio.csv")


def _peak_mib(fn):
    tracemalloc.start()
    try:
        out = fn()
        return out, tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def _pairwise_points(periods, wcets, deadlines) -> Points:
    """The checkpoint definition, one release sequence per (task, higher-priority task) pair."""
    n = len(periods)
    owner, ps = [], []
    for i in range(n):
        pts = {deadlines[i]}
        for j in range(i):
            k = 1
            while k * periods[j] < deadlines[i] * (1 - REL_TOL):
                pts.add(k * periods[j])
                k += 1
        merged = []
        for p in sorted(pts):
            if merged and p - merged[-1] <= REL_TOL * p:
                merged[-1] = p
            else:
                merged.append(p)
        owner += [i] * len(merged)
        ps += merged
    p = np.array(ps)
    owner_a = np.array(owner)
    w = wcets[owner_a] + np.array([sum(math.ceil(pp / periods[j] * (1 - REL_TOL)) * wcets[j] for j in range(o))
                                   for o, pp in zip(owner, ps, strict=True)])
    ok = w <= p * (1 + REL_TOL)
    return Points(owner_a[ok], p[ok], w[ok], n)


def _random_set(rng, n):
    periods = np.sort(rng.choice([1.0, 2.0, 2.5, 3.0, 5.0, 7.0, 10.0, 12.5], size=n) * rng.choice([1, 2, 10], size=n))
    wcets = periods * rng.uniform(0.01, 0.5, size=n) / n
    deadlines = periods * np.where(rng.random(n) < 0.3, rng.uniform(0.6, 1, n), 1.0)
    order = np.lexsort((periods, deadlines))
    return periods[order], np.minimum(wcets[order], 0.9 * deadlines[order]), deadlines[order]


def test_checkpoints_grouped_by_distinct_period_match_the_definition():
    rng = np.random.default_rng(3)
    for _ in range(60):
        periods, wcets, deadlines = _random_set(rng, int(rng.integers(1, 7)))
        got, want = fp_points(periods, wcets, deadlines), _pairwise_points(periods, wcets, deadlines)
        assert np.array_equal(got.owner, want.owner)
        np.testing.assert_allclose(got.p, want.p, rtol=1e-12)
        np.testing.assert_allclose(got.w, want.w, rtol=1e-12)


def test_too_many_checkpoints_is_refused_before_allocating():
    periods, deadlines = np.array([1.0, 1e9]), np.array([1.0, 1e9])
    assert count_points(periods, deadlines, MAX_CHECKPOINTS) > MAX_CHECKPOINTS
    with pytest.raises(TooManyCheckpoints):
        _peak_mib(lambda: fp_points(periods, np.array([0.1, 1.0]), deadlines))


@pytest.mark.parametrize("taskset", [SPAN, RATIO], ids=["span-1e9", "ratio-1e7"])
@pytest.mark.parametrize("kwargs", [{"share": 0.5}, {}, {"overhead": 0.01}])
def test_sets_beyond_the_cap_are_refused_with_a_message(taskset, kwargs):
    with pytest.raises(InputError) as err:
        _peak_mib(lambda: analyze(taskset, **kwargs))
    msg = str(err.value)
    assert msg.startswith(f"{taskset.source}: ") and "1,000,000 checkpoints" in msg
    assert "--period" in msg and "edf" in msg


@pytest.mark.parametrize("taskset", [SPAN, RATIO], ids=["span-1e9", "ratio-1e7"])
def test_a_period_is_still_answered_exactly_by_iteration(taskset):
    res, peak = _peak_mib(lambda: analyze(taskset, period=0.5, overhead=0.01))
    assert peak < 100
    assert res.feasible and not res.intervals_computed
    assert any("response-time iteration" in n for n in res.notes)
    # the least budget: schedulable at it, not schedulable 1e-6 below it
    assert schedulable(taskset, 0.5, res.min_budget, 0.01)
    assert not schedulable(taskset, 0.5, res.min_budget * (1 - 1e-6), 0.01)
    assert all(t.meets_deadline for t in res.tasks)
    assert res.critical_task in taskset.names


def test_budget_by_iteration_agrees_with_the_checkpoint_method():
    rng = np.random.default_rng(5)
    for _ in range(80):
        periods, wcets, deadlines = _random_set(rng, int(rng.integers(1, 7)))
        period, x = float(rng.uniform(0.2, 3.0)), float(rng.choice([0.0, 0.01, 0.1]))
        exact = fp_min_budget(fp_points(periods, wcets, deadlines), period, x)[0]
        exact = exact if exact <= period * (1 + REL_TOL) else math.inf
        got, _ = min_budget_by_iteration(periods, wcets, deadlines, period, x)
        if math.isinf(exact) or math.isinf(got):
            assert math.isinf(exact) and math.isinf(got)
        else:
            assert got == pytest.approx(exact, rel=2e-7) and got >= exact * (1 - 1e-8)


@pytest.mark.timeout(60)
def test_3000_automotive_tasks_are_analysed_exactly_in_bounded_memory():
    ts = automotive_taskset(3000)
    res, peak = _peak_mib(lambda: analyze(ts, share=0.8, overhead=0.01))
    assert peak < 500
    assert res.feasible and res.exact and res.max_period > 1.0
    assert schedulable(ts, res.max_period, res.budget, 0.01)
    assert not schedulable(ts, res.max_period * 1.001, res.budget * 1.001, 0.01)


@pytest.mark.timeout(60)
def test_3000_spread_periods_are_refused_1000_answered_at_a_period():
    ts = spread_taskset(3000)
    for kwargs in ({"share": 0.95}, {"period": 0.5}):
        with pytest.raises(InputError, match="checkpoints"):
            analyze(ts, **kwargs)
    with pytest.raises(InputError, match="curve"):
        ratio_curve(ts, np.linspace(0.1, 3, 200), 0.95)
    smaller = spread_taskset(1000)
    res, peak = _peak_mib(lambda: analyze(smaller, period=0.5))
    assert peak < 500 and res.feasible and not res.intervals_computed
    assert schedulable(smaller, 0.5, res.min_budget)
    assert not schedulable(smaller, 0.5, res.min_budget * (1 - 1e-6))


def test_edf_with_a_huge_deadline_span_stays_bounded():
    res, peak = _peak_mib(lambda: analyze(SPAN, share=0.5, policy="edf"))
    assert peak < 200
    assert res.to_dict()["exact"] in (True, False)
    t, d, covered = edf.checkpoints(np.array([1.0, 1e9]), np.array([0.1, 1.0]), np.array([1.0, 1e9]), 1e9)
    assert len(t) <= edf.MAX_CHECKPOINTS and covered < 1e9


def test_hyperperiod_of_many_unrelated_periods_is_unknown_not_an_overflow():
    values = [1 + i / 997 for i in range(3000)]
    assert edf.hyperperiod(values) is None
    assert edf.hyperperiod([16, 24, 36]) == 144


def test_partition_work_is_bounded():
    with pytest.raises(InputError, match="partitioning 3,000 tasks"):
        partition(automotive_taskset(3000), 2, share=0.5)


def test_task_count_limit():
    tasks = tuple(Task(f"t{i}", 10.0, 1e-4) for i in range(MAX_TASKS + 1))
    with pytest.raises(InputError, match="at most 10,000"):
        TaskSet(tasks, "ms", "many.csv")


@pytest.mark.parametrize(("task", "share", "period", "budget"), [
    # one deadline binds: supply 2 (or 6.5) within 22 (30) with Theta = C_VM - 0.5 per T_VM, i.e.
    # f^-1(w) = 3 T_VM - 1.5 <= 22 at C_VM = 1.5 (Equation (6)); the smallest share is C_VM / T_VM there
    (("t", 22, 2), 9 / 47, 47 / 6, 1.5),
    (("t", 30, 6.5), 16 / 49, 49 / 6, 8 / 3),
])
def test_edf_smallest_share_of_one_task_with_overhead(task, share, period, budget):
    # the bisection near the utilization used to check 200,000 deadlines per step (about 10 s)
    res = analyze(TaskSet.from_tuples([task]), overhead=0.5, policy="edf")
    assert res.feasible
    assert res.min_share == pytest.approx(share, rel=1e-6)
    assert res.max_period == pytest.approx(period, rel=1e-6)
    assert res.budget == pytest.approx(budget, rel=1e-6)
    assert edf.schedulable(np.array([float(task[1])]), np.array([task[2]]), np.array([float(task[1])]),
                           res.max_period * (1 - 1e-7), res.budget, 0.5)


def _arrays(ts: TaskSet):
    return (np.array([t.period for t in ts.tasks]), np.array([t.wcet for t in ts.tasks]),
            np.array([t.relative_deadline for t in ts.tasks]))


@pytest.mark.parametrize("ts", [
    TaskSet.from_tuples([("t", 22, 2)]),
    TaskSet.from_tuples([("a", 16, 2), ("b", 24, 1), ("c", 36, 4, 30)]),
])
def test_edf_any_schedulable_agrees_with_the_full_interval_search(ts):
    p, c, d = _arrays(ts)
    u = ts.utilization
    for s in (u * 1.01, 0.19, 0.1915, 0.3, 0.5, 0.9):
        full = bool(edf.intervals(p, c, d, s, 0.5).intervals)
        assert edf.any_schedulable(p, c, d, s, 0.5) is full, s


def test_edf_possible_range_holds_every_schedulable_period():
    ts = TaskSet.from_tuples([("a", 16, 2), ("b", 24, 1), ("c", 36, 4, 30)])
    p, c, d = _arrays(ts)
    t, dbf, _ = edf.checkpoints(p, c, d, 500.0)
    for s in (0.4, 0.55, 0.8):
        rng = edf.possible_range(t, dbf, s, 0.4)
        ok = [tv for tv in np.linspace(0.05, 40, 800) if edf.schedulable(p, c, d, tv, s * tv, 0.4)]
        assert ok, s
        assert rng is not None and rng[0] <= min(ok) and max(ok) <= rng[1], s
        # and it does rule periods out: far left and far right of the schedulable ones
        assert rng[0] > 0.05 and rng[1] < 1e3
