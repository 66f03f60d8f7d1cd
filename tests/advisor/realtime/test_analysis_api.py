"""The engine/GUI entry points: result shape, JSON safety, progress and cancellation, edge cases."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from advisor.progress import Cancelled, CancelToken
from advisor.realtime import TaskSet, analyze, ratio_curve

THESIS = TaskSet.from_tuples([("tau1", 16, 2), ("tau2", 24, 1), ("tau3", 36, 4)])


def test_to_dict_is_strict_json():
    for kwargs in ({"share": 0.4}, {"period": 10.0}, {"share": 1.0}, {}, {"overhead": 0.2},
                   {"share": 0.2}, {"share": 0.6, "policy": "edf", "overhead": 0.1}):
        text = json.dumps(analyze(THESIS, curve_points=20, **kwargs).to_dict(), allow_nan=False)
        assert "response_times" in json.loads(text)


def test_fluid_min_share_without_overhead():
    # no overhead: the infimum share is max_i min_p w/p = 10/32 (tau3 at t = 32), reached only as T_VM -> 0
    res = analyze(THESIS)
    assert res.min_share == pytest.approx(10 / 32)
    assert res.feasible and res.max_period is None
    assert any("T_VM -> 0" in n for n in res.notes)
    # EDF is optimal: with implicit deadlines dbf(t) <= U t, so the utilization itself is the infimum
    assert analyze(THESIS, policy="edf").min_share == pytest.approx(THESIS.utilization)


def test_whole_core_without_overhead_is_unbounded():
    res = analyze(THESIS, share=1.0)
    assert res.feasible_intervals == [(0.0, math.inf)]
    assert res.to_dict()["max_period"] is None
    assert res.response_times == pytest.approx({"tau1": 2.0, "tau2": 3.0, "tau3": 7.0})  # plain RTA


def test_whole_core_with_overhead_needs_a_long_enough_period():
    # C_VM = T_VM, X = 1: f^-1(w) = w + ceil(w / (T - 1)) <= p needs ceil(w / (T - 1)) <= p - w; tau3's
    # best point is p = 32, w = 10: at most 22 VM periods, T_VM >= 1 + 10/22 (16: 1 + 7/9, 36: 1 + 12/24)
    res = analyze(THESIS, share=1.0, overhead=1.0)
    assert res.feasible_intervals[0][0] == pytest.approx(1 + 10 / 22)
    assert res.critical_task is None  # no task limits an unbounded period
    assert math.isinf(res.feasible_intervals[-1][1])


def test_constrained_deadlines_use_deadline_monotonic_order():
    ts = TaskSet.from_tuples([("a", 10, 1), ("b", 20, 2, 6)])
    res = analyze(ts, period=2.0)
    assert res.priority_order == "dm"
    assert [t.name for t in res.tasks] == ["b", "a"]
    assert res.tasks[0].deadline == 6
    assert all(t.meets_deadline for t in res.tasks)


def test_edf_reports_a_critical_task_and_needs_less_than_rm():
    ts = TaskSet.from_tuples([("a", 5, 2), ("b", 7, 2.9)])
    rm = analyze(ts, period=1.0)
    edf = analyze(ts, period=1.0, policy="edf")
    assert edf.min_budget < rm.min_budget
    assert edf.critical_task in ("a", "b")


def test_progress_reaches_one_and_cancel_stops():
    seen = []
    analyze(THESIS, overhead=0.2, progress=lambda f, m: seen.append(f))
    assert seen[-1] == 1.0 and all(0 <= f <= 1 for f in seen)
    token = CancelToken()
    token.cancel()
    with pytest.raises(Cancelled):
        ratio_curve(THESIS, np.linspace(1, 12, 50), 0.4, cancel=token)
    with pytest.raises(Cancelled):
        analyze(THESIS, overhead=0.2, cancel=token)


def test_curve_matches_the_thesis_walkthrough_points():
    # share 0.4: max R_i / D_i is 1 at T_VM = 10 (tau3), 26/24 at 14/1.2 (tau2), 41.7/36 at 9.9 (tau3)
    grid = np.array([10.0, 14 / 1.2, 9.9, 5.0])
    curve = ratio_curve(THESIS, grid, 0.4)
    assert curve[0] == pytest.approx(1.0)
    assert curve[1] == pytest.approx(max(26 / 24, 38 / 36, 16 / 16), rel=1e-9) or curve[1] > 1
    assert curve[2] == pytest.approx(41.7 / 36)
    assert curve[3] <= 1
