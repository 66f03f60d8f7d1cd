"""VMs on one core (hypervisor level) and tasks partitioned onto vCPUs (sections 11.3 and 11.9)."""

from __future__ import annotations

import pytest

from advisor.realtime import TaskSet, analyze, schedulable
from advisor.realtime.hypervisor import VmInterface, check_hypervisor
from advisor.realtime.partition import partition
from knowledge.infra.errors import InputError


def test_rm_hypervisor_uses_exact_response_times():
    vms = [VmInterface("a", 4, 1), VmInterface("b", 6, 2), VmInterface("c", 12, 3)]
    res = check_hypervisor(vms, "rm")
    assert res.schedulable
    assert res.response_times == {"a": 1, "b": 3, "c": 10}   # 3 + 3*1 + 2*2 = 10 <= 12
    assert res.utilization == pytest.approx(0.8333333)


def test_rm_hypervisor_rejects_what_edf_accepts():
    # the two interfaces of section 11.5 (share 0.4 at T_VM 10, share 0.5 at T_VM 14): U = 0.9
    vms = [VmInterface("vm1", 10, 4), VmInterface("vm2", 14, 7)]
    rm = check_hypervisor(vms, "rm")
    assert not rm.schedulable and "vm2" in rm.reason
    assert check_hypervisor(vms, "edf").schedulable


def test_preemption_cost_is_charged_per_higher_priority_job():
    vms = [VmInterface("a", 4, 1), VmInterface("b", 6, 2), VmInterface("c", 12, 3)]
    # R_c = 3 + ceil(R/4) (1 + 0.25) + ceil(R/6) (2 + 0.25): 6.5, 10, 11.25
    assert check_hypervisor(vms, "rm", preemption_cost=0.25).response_times["c"] == 11.25
    # with 0.5: 7, 11, 12.5 > 12
    assert not check_hypervisor(vms, "rm", preemption_cost=0.5).schedulable


def test_edf_hypervisor_is_the_utilization_test():
    assert not check_hypervisor([VmInterface("a", 2, 1), VmInterface("b", 3, 1.6)], "edf").schedulable
    with pytest.raises(InputError, match="budget"):
        check_hypervisor([VmInterface("a", 2, 3)])


def test_partition_spreads_tasks_and_gives_each_vcpu_an_interface():
    tasks = TaskSet.from_tuples([(f"t{i}", p, c) for i, (p, c) in enumerate(
        [(10, 3), (12, 3), (20, 4), (25, 5), (40, 6), (50, 5)])])
    assert tasks.utilization > 1                      # too much for one vCPU
    assert not analyze(tasks, share=1.0).feasible
    part = partition(tasks, 2, share=0.7)
    assert part.feasible
    assert sorted(n for c in part.vcpus for n in c.tasks) == sorted(tasks.names)
    for c in part.vcpus:
        sub = TaskSet.from_tuples([(t.name, t.period, t.wcet) for t in tasks.tasks if t.name in c.tasks])
        assert c.share == 0.7 and c.period > 0
        assert c.budget == pytest.approx(0.7 * c.period)
        assert schedulable(sub, c.period, c.budget)    # the interface really works for its tasks
    assert abs(part.vcpus[0].utilization - part.vcpus[1].utilization) < 0.25


def test_partition_with_a_period_gives_least_budgets():
    tasks = TaskSet.from_tuples([("a", 10, 3), ("b", 10, 3), ("c", 20, 4)])
    part = partition(tasks, 2, period=2.0, overhead=0.1)
    assert part.feasible
    for c in part.vcpus:
        if c.tasks:
            assert c.period == 2.0 and 0.1 < c.budget <= 2.0
    d = part.to_dict()
    assert d["vcpus"][0]["period"] == 2.0


def test_partition_reports_what_does_not_fit():
    tasks = TaskSet.from_tuples([("a", 10, 9), ("b", 10, 9)])
    part = partition(tasks, 1, share=1.0)
    assert not part.feasible and "fits on none" in part.reason
    with pytest.raises(InputError):
        partition(tasks, 0, share=0.5)
    with pytest.raises(InputError):
        partition(tasks, 2)
