"""The worked examples and stated numbers of thesis chapter 11 (seed 004), reproduced exactly."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from advisor.realtime import (
    TaskSet,
    analyze,
    load_taskset,
    min_budget,
    no_overhead_period_bound,
    prediction_bounds,
    schedulable,
)
from advisor.realtime.response import response_time
from advisor.realtime.supply import blackout, supply, supply_inverse

EXAMPLE = Path(__file__).resolve().parents[3] / "resources" / "examples" / "rt_thesis_example.csv"


@pytest.fixture(scope="module")
def table_11_1() -> TaskSet:
    """Table 11.1: tau1 (16, 2), tau2 (24, 1), tau3 (36, 4), utilization 0.278."""
    return load_taskset(EXAMPLE)


def test_table_11_1_file_holds_the_three_tasks(table_11_1):
    # Section 11.5, Table 11.1
    assert [(t.name, t.period, t.wcet) for t in table_11_1.tasks] == [
        ("tau1", 16, 2), ("tau2", 24, 1), ("tau3", 36, 4)]
    assert round(table_11_1.utilization, 3) == 0.278


# ------------------------------------------------------------------------------- section 11.4

def test_section_11_4_inverse_supply_example():
    # Section 11.4: T1=8, C1=1, T2=15, C2=3, T_VM=6, C_VM=3 gives 7 = R1 = f^-1(1, 6, 3) and
    # 14 = R2 = f^-1(3 + ceil(14/8) * 1, 6, 3)
    assert supply_inverse(1, 6, 3) == 7
    assert supply_inverse(3 + math.ceil(14 / 8) * 1, 6, 3) == 14
    assert response_time(0, [8, 15], [1, 3], 6, 3) == 7
    assert response_time(1, [8, 15], [1, 3], 6, 3) == 14


def test_section_11_4_equation_4_and_6_agree_off_multiples_of_the_budget():
    # Equation (4) 2(T-C) + t + floor(t/C)(T-C) and Equation (6) with X = 0 coincide except at t = k C_VM,
    # where Equation (4) adds a period that the supply of Equation (2) does not need.
    for t in (0.5, 1, 2.9, 3.1, 5, 8.2, 13):
        eq4 = 2 * (6 - 3) + t + math.floor(t / 3) * (6 - 3)
        assert supply_inverse(t, 6, 3) == pytest.approx(eq4)
    assert supply_inverse(3, 6, 3) == 9            # = 2 T_VM - C_VM: the first budget ends there
    assert supply(9, 6, 3) == 3                    # and Equation (2) indeed supplies 3 by then


def test_section_11_4_supply_shape():
    # Section 11.4: straight segments from (2(T-C) + n T, n C) rising with slope 1 for C, then flat.
    t_vm, c_vm = 6.0, 2.0
    assert blackout(t_vm, c_vm) == 8
    assert supply(8, t_vm, c_vm) == 0
    assert supply(9, t_vm, c_vm) == 1
    assert supply(10, t_vm, c_vm) == 2
    assert supply(13, t_vm, c_vm) == 2
    assert supply(14, t_vm, c_vm) == 2
    assert supply(15.5, t_vm, c_vm) == 3.5


# ------------------------------------------------------------------------------- section 11.5

def test_section_11_5_share_0_4_largest_period_is_10_for_tau3(table_11_1):
    # Section 11.5: "for C_VM/T_VM = 0.4 we get T_VM = 10, and tau3 is the task that requires the
    # shortest period"
    res = analyze(table_11_1, share=0.4)
    assert res.feasible
    assert res.max_period == pytest.approx(10.0, rel=1e-12)
    assert res.budget == pytest.approx(4.0, rel=1e-12)
    assert res.critical_task == "tau3"
    assert res.response_times["tau3"] == pytest.approx(36.0)     # R3 = D3 exactly at T_VM = 10
    assert res.response_times == pytest.approx({"tau1": 14.0, "tau2": 15.0, "tau3": 36.0})


def test_section_11_5_per_task_limits_at_share_0_4(table_11_1):
    # Section 11.5: tau1 alone allows T_VM = 14/1.2 = 11.7 (1.2 T_VM + 2 = 16); with tau2, T_VM cannot
    # exceed 13/1.2 = 10.8; with tau3, 10.
    res = analyze(table_11_1, share=0.4)
    tau1, tau2, tau3 = res.tasks
    assert tau1.max_period == pytest.approx(14 / 1.2, rel=1e-12)
    assert tau1.cumulative_max_period == pytest.approx(14 / 1.2, rel=1e-12)
    assert tau2.first_limit == pytest.approx(13 / 1.2, rel=1e-12)
    assert tau2.cumulative_max_period == pytest.approx(13 / 1.2, rel=1e-12)
    assert tau3.cumulative_max_period == pytest.approx(10.0, rel=1e-12)
    # beyond the thesis: tau2 alone is schedulable again on [12.5, 19/1.2] (k = 1 piece of p = 24)
    assert tau2.intervals[-1] == pytest.approx((12.5, 19 / 1.2), rel=1e-12)


def test_section_11_5_walkthrough_tau2_misses_at_11_7(table_11_1):
    # Section 11.5: with T_VM = 14/1.2 the first execution starts at 2(T_VM - C_VM) = 14, tau2 cannot
    # complete in it, and the second execution starts at 2.2 T_VM = 25.7 > 24.
    t_vm = 14 / 1.2
    c_vm = 0.4 * t_vm
    assert blackout(t_vm, c_vm) == pytest.approx(14.0)
    assert supply(14.0, t_vm, c_vm) == pytest.approx(0.0, abs=1e-12)
    assert 3 * t_vm - 2 * c_vm == pytest.approx(2.2 * t_vm)
    assert response_time(1, [16, 24, 36], [2, 1, 4], t_vm, c_vm) == pytest.approx(26.0)
    assert not schedulable(table_11_1, t_vm, c_vm)


def test_section_11_5_walkthrough_tau3_misses_at_10_8(table_11_1):
    # Section 11.5: at T_VM = 13/1.2 (C_VM = 4.33) the third VM execution starts at 4 T_VM - 2 C_VM =
    # 34.5, then tau1 (released at 32) runs first, and tau3 misses 36.
    t_vm = 13 / 1.2
    c_vm = 0.4 * t_vm
    assert 4 * t_vm - 2 * c_vm == pytest.approx(34.67, abs=0.01)
    r3 = response_time(2, [16, 24, 36], [2, 1, 4], t_vm, c_vm)
    # third VM execution from 34.67: tau1's 2, then the 1.33 tau3 still needs: R3 = 38 > 36
    assert r3 == pytest.approx(38.0)


def test_section_11_5_ten_is_an_isolated_schedulable_period(table_11_1):
    # Exact analysis: T_VM = 10 works only because 12 / C_VM = 3 exactly there; just below it a fourth
    # VM period is needed and tau3 misses (e.g. T_VM = 9.9: R3 = 5 * 0.6 * 9.9 + 12 = 41.7).
    res = analyze(table_11_1, share=0.4)
    assert res.feasible_intervals[-1] == (10.0, 10.0)
    assert res.max_period_robust == pytest.approx(11 / 1.2, rel=1e-12)  # p = 32, k = 3: (32-10)/(4*0.6)
    assert not schedulable(table_11_1, 9.9, 0.4 * 9.9)
    assert response_time(2, [16, 24, 36], [2, 1, 4], 9.9, 0.4 * 9.9) == pytest.approx(41.7)
    assert [tuple(round(v, 9) for v in iv) for iv in res.feasible_intervals] == [
        (0.0, 7.333333333), (7.5, 8.0), (8.333333333, 9.166666667), (10.0, 10.0)]


def test_section_11_5_share_0_5_largest_period_is_14_for_tau1(table_11_1):
    # Section 11.5: "When C_VM/T_VM = 0.5 ... we get a maximal T_VM of 14 for task tau1, and the
    # calculations for tasks tau2 and tau3 will result in larger values"
    res = analyze(table_11_1, share=0.5)
    assert res.max_period == pytest.approx(14.0, rel=1e-12)
    assert res.budget == pytest.approx(7.0, rel=1e-12)
    assert res.critical_task == "tau1"
    assert res.feasible_intervals == [pytest.approx((0.0, 14.0))]
    tau1, tau2, tau3 = res.tasks
    assert tau1.max_period == pytest.approx(14.0)
    assert tau2.max_period == pytest.approx(19.0) and tau3.max_period == pytest.approx(24.0)


def test_section_11_5_budget_for_period_10_is_4(table_11_1):
    # the inverse query of section 11.5: at T_VM = 10 the least budget is 4 (share 0.4), tau3 critical
    res = analyze(table_11_1, period=10)
    assert res.min_budget == pytest.approx(4.0, rel=1e-12)
    assert res.critical_task == "tau3"
    assert min_budget(table_11_1, 14) == pytest.approx(7.0, rel=1e-12)


# ------------------------------------------------------------------------------- section 11.7

@pytest.mark.parametrize(("share", "bound"), [(0.7, 1 / 0.6), (0.3, 0.714), (0.4, 0.833)])
def test_section_11_7_upper_bound_of_t_vm_over_t1(share, bound):
    # Section 11.7 and Figure 11.2: 2(T_VM - C_VM) < T_1 gives T_VM/T_1 < 1/(2(1 - s)): 1.66 for 0.7,
    # 0.71 for 0.3 and 0.83 for 0.4
    assert no_overhead_period_bound(share) == pytest.approx(bound, abs=1e-3)


def test_section_11_7_max_period_stays_below_the_bound(table_11_1):
    assert not analyze(table_11_1, share=0.3).feasible   # below the fluid need 10/32 = 0.3125 of tau3
    for share in (0.32, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9):
        res = analyze(table_11_1, share=share)
        assert res.max_period / 16 < no_overhead_period_bound(share)


# ------------------------------------------------------------------------------- section 11.8

def test_section_11_8_1_first_job_waits_blackout_plus_overhead():
    # Section 11.8.1: with overhead X the first execution of tau1 starts after 2(T_VM - C_VM) + X
    assert blackout(10, 6, 1) == 9
    assert supply(9, 10, 6, 1) == 0
    assert supply_inverse(2, 10, 6, 1) == 11          # (T-C) + 2 + ceil(2/5) (T-C+X) = 4 + 2 + 5
    assert supply_inverse(7, 10, 6, 1) == 4 + 7 + 2 * 5  # Equation (6) with k = 2


def test_section_11_8_2_left_bound_numbers_of_figure_11_12a():
    # Section 11.8.2: U = 0.3, C_VM/T_VM = 0.54, X = 1: (0.54 T_VM - 1)/T_VM is -0.46, 0.04, 0.206, 0.29,
    # 0.34 for T_VM = 1..5, so 5 is the first integer period above U; with X = 2, 0.14 at 5 and 0.31 at 9.
    b = prediction_bounds(0.54, 1, 0.3, "tau1", 157, 2)
    got = [b.useful_share(t) for t in (1, 2, 3, 4, 5)]
    assert got == pytest.approx([-0.46, 0.04, 0.2067, 0.29, 0.34], abs=1e-3)
    assert b.left_bound == pytest.approx(1 / 0.24)
    b2 = prediction_bounds(0.54, 2, 0.3, "tau1", 157, 2)
    assert b2.useful_share(5) == pytest.approx(0.14) and b2.useful_share(9) == pytest.approx(0.3178, abs=1e-4)


def test_section_11_8_2_lower_bound_line_of_figure_11_12a():
    # Section 11.8.2: T1 = 157, C1 = 2, X = 1, share 0.54: slope 2(0.46)/157 ~ 0.006, offset 3/157 ~ 0.02
    b = prediction_bounds(0.54, 1, 0.3, "tau1", 157, 2)
    assert b.lower_bound_slope == pytest.approx(0.92 / 157) and round(b.lower_bound_slope, 3) == 0.006
    assert b.lower_bound_offset == pytest.approx(3 / 157) and round(b.lower_bound_offset, 2) == 0.02
    assert b.predicted_interval == pytest.approx((1 / 0.24, (157 - 3) / 0.92))


def test_section_11_8_2_figure_11_12b_has_no_valid_period():
    # Section 11.8.2: U = 0.1, share 0.2, X = 16: left bound 160; T = 161, C = 2 gives the lower bound
    # 0.009 T_VM + 0.11, which reaches 1 left of 160, so no T_VM can work.
    b = prediction_bounds(0.2, 16, 0.1, "tau1", 161, 2)
    assert b.left_bound == pytest.approx(160.0)
    assert b.lower_bound_slope == pytest.approx(1.6 / 161)       # the thesis prints 0.009 (truncated)
    assert b.lower_bound_offset == pytest.approx(18 / 161) and round(b.lower_bound_offset, 2) == 0.11
    assert b.upper_limit == pytest.approx(143 / 1.6)
    assert b.predicted_interval is None
    tasks = TaskSet.from_tuples([("tau1", 161, 2), ("tau2", 400, 20), ("tau3", 900, 33.8)])
    assert tasks.utilization == pytest.approx(0.1, abs=2e-3)
    res = analyze(tasks, share=0.2, overhead=16)
    assert not res.feasible
    assert "left bound" in res.reason and res.feasible_intervals == []
