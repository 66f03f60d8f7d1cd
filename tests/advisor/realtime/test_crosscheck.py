"""Property tests: the thesis-based analysis against Shin and Lee's periodic resource model, against
brute force, and against itself (monotonicity, exactness of interval ends)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from advisor.realtime import TaskSet, analyze, min_budget, ratio_curve, schedulable
from advisor.realtime.response import response_time, response_times
from advisor.realtime.supply import supply, supply_inverse
from tests.advisor.realtime import shin_lee
from tests.oracle import size

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def task_sets(draw, max_tasks=5, max_util=0.9, deadlines=True):
    """Small task sets with integer periods and wcets in halves (exact binary floats)."""
    n = draw(st.integers(1, max_tasks))
    rows = []
    for i in range(n):
        period = draw(st.integers(4, 40))
        wcet = draw(st.integers(1, max(1, int(period * 0.6)))) / 2
        deadline = None
        if deadlines and draw(st.booleans()):
            deadline = draw(st.integers(math.ceil(wcet), period))
        rows.append((f"t{i}", period, wcet) + ((deadline,) if deadline else ()))
    ts = TaskSet.from_tuples(rows)
    assume(ts.utilization <= max_util)
    return ts


@st.composite
def vm_interfaces(draw):
    """(T_VM, C_VM, X) with T_VM an integer and C_VM, X in halves, X < C_VM <= T_VM."""
    t_vm = draw(st.integers(1, 20))
    x = draw(st.sampled_from([v for v in (0.0, 0.5, 1.0) if v < t_vm]))
    c_vm = draw(st.integers(int(2 * x) + 1, 2 * t_vm)) / 2
    return float(t_vm), c_vm, x


def ordered(ts: TaskSet):
    return [(t.period, t.wcet, t.relative_deadline) for t in (ts.tasks[i] for i in ts.priority_order())]


def inside(intervals, x, rel=1e-9):
    return any(a * (1 - rel) <= x <= b * (1 + rel) for a, b in intervals)


# ---------------------------------------------------------------------------- supply functions

@SETTINGS
@given(st.floats(0.5, 50), st.floats(0.05, 1.0), st.floats(0.0, 0.5), st.floats(0, 300))
# t + X lands an ulp past the end of a supply slope: the oracle evaluated in floats dropped a whole
# Theta there (its k and its branch test rounded apart); it is exact now
@example(t_vm=1.0, share=1.0, x_frac=0.03187461446207352, t=1.0)
def test_supply_equals_shin_lee_sbf_shifted_by_the_overhead(t_vm, share, x_frac, t):
    c_vm = share * t_vm
    x = x_frac * c_vm
    exact = float(shin_lee.sbf_with_overhead(t, t_vm, c_vm, x))
    assert supply(t, t_vm, c_vm, x) == pytest.approx(exact, rel=1e-9, abs=1e-9)


@SETTINGS
@given(st.floats(0.5, 50), st.floats(0.05, 1.0), st.floats(0.0, 0.5), st.floats(1e-3, 300))
def test_supply_inverse_is_the_least_time_with_enough_supply(t_vm, share, x_frac, w):
    c_vm = share * t_vm
    x = x_frac * c_vm
    assume(c_vm - x > 1e-6)
    t = supply_inverse(w, t_vm, c_vm, x)
    assert supply(t, t_vm, c_vm, x) >= w * (1 - 1e-9)
    assert supply(t * (1 - 1e-7) - 1e-9, t_vm, c_vm, x) < w


def test_shin_lee_sbf_blackout_and_slope():
    # Gamma(6, 3): nothing for 2 (6 - 3) = 6, then 3 units with slope 1, flat for 3, ...
    assert [shin_lee.sbf(t, 6, 3) for t in range(0, 16)] == [0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 4, 5, 6]
    assert [supply(t, 6, 3) for t in range(0, 16)] == [0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 4, 5, 6]


# ---------------------------------------------------------------------- schedulability, two ways

@SETTINGS
@given(task_sets(), vm_interfaces())
def test_fixed_priority_agrees_with_shin_lee(ts, vm):
    t_vm, c_vm, x = vm
    assert schedulable(ts, t_vm, c_vm, x) == shin_lee.fp_schedulable(ordered(ts), t_vm, c_vm, x)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(task_sets(max_tasks=4, max_util=0.8), vm_interfaces())
# hyperperiods of 22.9 and 2.6 million time units: the oracle used to enumerate 3 of them (minutes,
# beyond the test's time limit); it stops at the crossing of the linear bounds now (shin_lee.edf_horizon)
@example(ts=TaskSet.from_tuples([("t0", 38, 5.5), ("t1", 33, 0.5), ("t2", 29, 0.5), ("t3", 37, 0.5)]),
         vm=(17.0, 14.5, 0.5))
@example(ts=TaskSet.from_tuples([("t0", 38, 5.5, 27), ("t1", 33, 0.5), ("t2", 29, 0.5, 26), ("t3", 5, 0.5)]),
         vm=(17.0, 14.5, 0.5))
def test_edf_agrees_with_shin_lee(ts, vm):
    t_vm, c_vm, x = vm
    tasks = [(t.period, t.wcet, t.relative_deadline) for t in ts.tasks]
    horizon = shin_lee.edf_horizon(tasks, t_vm, c_vm, x)
    # an exact tie of the supply rate and the utilization over a hyperperiod of millions: the plain
    # Python oracle would need minutes (none in 20,000 examples; kept out rather than timed out)
    assume(horizon is None or horizon * sum(Fraction(1) / Fraction(p) for p, _, _ in tasks) <= 200_000)
    assert schedulable(ts, t_vm, c_vm, x, policy="edf") == shin_lee.edf_schedulable(tasks, t_vm, c_vm, x)


@SETTINGS
@given(task_sets(), vm_interfaces())
def test_edf_dominates_fixed_priorities(ts, vm):
    t_vm, c_vm, x = vm
    if schedulable(ts, t_vm, c_vm, x):
        assert schedulable(ts, t_vm, c_vm, x, policy="edf")


@SETTINGS
@given(task_sets(), vm_interfaces())
def test_vectorised_response_times_equal_the_scalar_iteration(ts, vm):
    t_vm, c_vm, x = vm
    rows = ordered(ts)
    periods = np.array([r[0] for r in rows])
    wcets = np.array([r[1] for r in rows])
    limits = 20 * np.array([r[2] for r in rows])
    fast = response_times(periods, wcets, t_vm, c_vm, x, limits=limits)
    for i in range(len(rows)):
        slow = response_time(i, list(periods), list(wcets), t_vm, c_vm, x, limit=limits[i])
        assert fast[i] == pytest.approx(slow) or (math.isinf(fast[i]) and math.isinf(slow))


# -------------------------------------------------------------------------- budgets and periods

@SETTINGS
@given(task_sets(), st.floats(1.0, 25.0), st.sampled_from([0.0, 0.3, 1.0]), st.sampled_from(["rm", "edf"]))
def test_min_budget_is_the_exact_threshold_and_budget_is_monotone(ts, t_vm, x, policy):
    assume(x < t_vm)
    mb = min_budget(ts, t_vm, x, policy)
    if math.isinf(mb):
        assert not schedulable(ts, t_vm, t_vm, x, policy)
        return
    assert x < mb <= t_vm * (1 + 1e-9)
    for c in np.linspace(mb, t_vm, 7):
        assert schedulable(ts, t_vm, min(c, t_vm), x, policy)      # more budget never hurts
    below = x + (mb - x) * (1 - 1e-6)
    assert not schedulable(ts, t_vm, below, x, policy)


@pytest.mark.oracle
@settings(max_examples=size(40, 15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(task_sets(max_tasks=4, max_util=0.7, deadlines=True), st.floats(0.05, 1.0),
       st.sampled_from([0.0, 0.25, 1.0]))
def test_exact_intervals_match_a_fine_brute_force_scan(ts, share_above, x):
    share = ts.utilization + share_above * (1 - ts.utilization)
    res = analyze(ts, share=share, overhead=x)
    ivals = res.feasible_intervals
    grid = np.linspace(0.01, 45.0, 1500)
    for t_vm in grid:
        near_end = any(abs(t_vm - e) <= 1e-6 * t_vm for iv in ivals for e in iv)
        if near_end:
            continue
        assert schedulable(ts, t_vm, share * t_vm, x) == inside(ivals, t_vm), t_vm
    # every finite end is exact to 1e-6 relative: schedulable on it, not just outside it
    for k, (a, b) in enumerate(ivals):
        if math.isfinite(b):
            assert schedulable(ts, b, share * b, x)
            out = b * (1 + 1e-6)
            if not (k + 1 < len(ivals) and ivals[k + 1][0] <= out):
                assert not schedulable(ts, out, share * out, x)
        if a > 0:
            assert schedulable(ts, a, share * a, x)
            out = a * (1 - 1e-6)
            if not (k > 0 and ivals[k - 1][1] >= out) and out > x / share:
                assert not schedulable(ts, out, share * out, x)


#: a share just above the utilization (0.3076) with overhead 0.5: the exact range starts just above
#: t_left, so 200,000 deadlines are checked; their pieces were made over the whole range, the cap on
#: all pieces dropped the small periods of every deadline, and the schedulable periods near 6.5 and
#: 8.3 went missing (reported as infeasible)
NEAR_UTILIZATION = TaskSet.from_tuples([("a", 22, 2), ("b", 30, 6.5)])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(task_sets(max_tasks=4, max_util=0.7, deadlines=False), st.floats(0.05, 1.0),
       st.sampled_from([0.0, 0.5]))
@example(ts=NEAR_UTILIZATION, share_above=0.14, x=0.5)
def test_edf_intervals_match_a_brute_force_scan(ts, share_above, x):
    share = ts.utilization + share_above * (1 - ts.utilization)
    res = analyze(ts, share=share, overhead=x, policy="edf")
    lo, hi = res.exact_range or (0.0, math.inf)
    for t_vm in np.linspace(0.05, 45.0, 300):
        if not lo <= t_vm <= hi or any(abs(t_vm - e) <= 1e-6 * t_vm for iv in res.feasible_intervals for e in iv):
            continue
        assert schedulable(ts, t_vm, share * t_vm, x, policy="edf") == inside(res.feasible_intervals, t_vm)


@pytest.mark.parametrize("share", [0.402, 0.404, 0.406, 0.408])
def test_edf_intervals_keep_the_schedulable_periods_of_a_share_near_the_utilization(share):
    x = 0.5
    tasks = [(t.period, t.wcet, t.relative_deadline) for t in NEAR_UTILIZATION.tasks]
    res = analyze(NEAR_UTILIZATION, share=share, overhead=x, policy="edf")
    ivals = res.feasible_intervals
    assert res.exact and res.feasible
    lo, hi = res.exact_range
    assert lo < 6.4 and hi > 8.5  # the whole region in question is claimed exact
    # brute force: Shin and Lee's test (dbf against sbf at every deadline) on a fine grid
    found = [t_vm for t_vm in np.linspace(5.0, 9.0, 801)
             if shin_lee.edf_schedulable(tasks, t_vm, share * t_vm, x)]
    assert any(8.29 <= t_vm <= 8.36 for t_vm in found)  # schedulable at every share here
    if share >= 0.403:
        assert any(6.51 <= t_vm <= 6.53 for t_vm in found)
    for t_vm in found:
        assert inside(ivals, t_vm), t_vm
        assert schedulable(NEAR_UTILIZATION, t_vm, share * t_vm, x, policy="edf")
    # every reported interval is schedulable: at its ends (the exact test, with its rounding tolerance)
    # and inside (both tests; the oracle compares floats without tolerance, so not on the ends)
    for a, b in ivals:
        assert schedulable(NEAR_UTILIZATION, a, share * a, x, policy="edf")
        assert schedulable(NEAR_UTILIZATION, b, share * b, x, policy="edf")
        for t_vm in np.linspace(a, b, 11)[1:-1]:
            assert schedulable(NEAR_UTILIZATION, t_vm, share * t_vm, x, policy="edf"), t_vm
            assert shin_lee.edf_schedulable(tasks, t_vm, share * t_vm, x), t_vm


def test_edf_intervals_say_where_they_are_exact_when_pieces_are_capped():
    # EDF deadlines next to a share that barely exceeds the utilization, without overhead: one of them
    # has more isolated pieces than the cap; the exact range starts above the dropped ones
    ts = TaskSet.from_tuples([("a", 11, 1), ("b", 9, 2.5, 3)])
    share = ts.utilization + 0.01 * (1 - ts.utilization)
    res = analyze(ts, share=share, overhead=0.0, policy="edf")
    assert not res.exact
    lo, hi = res.exact_range
    assert 0 < lo < 1e-9 and math.isinf(hi)
    for t_vm in (lo * 2, 0.01, 0.1, 0.39):
        assert not schedulable(ts, t_vm, share * t_vm, 0.0, policy="edf")


def test_edf_share_a_hair_above_the_utilization_is_not_claimed_exact():
    # U = 0.4583 and a constrained deadline (K > 0): t_max >= K / (s - U), some 10^8 time units, so no
    # T_VM is settled by the 200,000 deadlines checked. The range search once returned (0, -0) as a
    # schedulable interval and analyze divided by its zero period (found by a raised example budget)
    ts = TaskSet.from_tuples([("t0", 4, 0.5), ("t1", 4, 0.5), ("t2", 4, 0.5), ("t3", 6, 0.5, 5)])
    share = ts.utilization + 1e-9 * (1 - ts.utilization)
    res = analyze(ts, share=share, overhead=0.0, policy="edf")
    assert res.feasible_intervals == [] and not res.feasible
    assert not res.exact and "by too little for an exact EDF check" in res.reason
    assert any("no T_VM could be checked exactly" in n for n in res.notes)


@SETTINGS
@given(task_sets(max_tasks=5, max_util=0.7), st.floats(0.05, 1.0), st.sampled_from([0.0, 0.5, 2.0]))
def test_intervals_lie_inside_the_prediction_bounds(ts, share_above, x):
    # Section 11.8.2: outside [left bound, lower bound's crossing of 1] some task misses its deadline
    share = ts.utilization + share_above * (1 - ts.utilization)
    res = analyze(ts, share=share, overhead=x)
    b = res.bounds
    for lo, hi in res.feasible_intervals:
        assert b.predicted_interval is not None
        assert lo >= b.left_bound * (1 - 1e-9)
        assert hi <= b.upper_limit * (1 + 1e-9)


@settings(max_examples=30, deadline=None)
@given(task_sets(max_tasks=5, max_util=0.7), st.floats(0.05, 1.0), st.sampled_from([0.0, 0.5]))
def test_curve_is_at_most_one_exactly_on_the_intervals(ts, share_above, x):
    share = ts.utilization + share_above * (1 - ts.utilization)
    res = analyze(ts, share=share, overhead=x)
    grid = np.linspace(0.05, 45.0, 400)
    curve = ratio_curve(ts, grid, share, x)
    for t_vm, value in zip(grid, curve, strict=True):
        if any(abs(t_vm - e) <= 1e-6 * t_vm for iv in res.feasible_intervals for e in iv):
            continue
        assert (value <= 1 + 1e-9) == inside(res.feasible_intervals, t_vm)


@settings(max_examples=25, deadline=None)
@given(task_sets(max_tasks=4, max_util=0.6), st.sampled_from([0.25, 1.0]))
def test_min_share_is_the_threshold(ts, x):
    res = analyze(ts, overhead=x)
    if not res.feasible:
        assert not analyze(ts, share=1.0, overhead=x).feasible
        return
    assert res.feasible_intervals
    assert not analyze(ts, share=res.min_share * (1 - 1e-5), overhead=x).feasible


def test_thesis_style_random_task_sets_respect_the_no_overhead_bound():
    # Section 11.6 set-up: periods U[1000, 10000], wcets U[1000, T_i] scaled to utilization u; the
    # largest T_VM over T_1 stays below 1/(2(1 - s)) (section 11.7, Figure 11.2).
    rng = np.random.default_rng(11)
    for n, u in ((10, 0.1), (20, 0.2), (30, 0.3)):
        periods = rng.uniform(1000, 10000, n)
        wcets = rng.uniform(1000, periods)
        wcets *= u / np.sum(wcets / periods)
        ts = TaskSet.from_tuples([(f"t{i}", p, c) for i, (p, c) in enumerate(zip(periods, wcets, strict=True))])
        t1 = periods.min()
        for share in (0.5, 0.7, 0.9):
            res = analyze(ts, share=share)
            assert res.feasible
            assert res.max_period / t1 < 1 / (2 * (1 - share))
            assert res.max_period / t1 > 0.8 / (2 * (1 - share))  # "very close to this bound"
