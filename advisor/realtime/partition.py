"""VMs with several vCPUs: tasks partitioned onto vCPUs, one ``(T_VM, C_VM)`` interface per vCPU.

Section 11.9: the single-core analysis extends to several (virtual) cores as long as every task is bound
to one core; then the analysis is repeated per core. Which task goes where is a bin-packing choice; this
module uses *worst-fit decreasing* (largest utilization first, onto the least loaded vCPU that stays
schedulable, else the next least loaded), which spreads load so each vCPU needs a small share. Global
scheduling (tasks migrating between vCPUs) is out of scope, as in the thesis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from advisor.progress import CancelToken, ProgressCallback, check, report
from advisor.realtime.analysis import RealtimeResult, analyze, min_budget
from advisor.realtime.tasks import TaskSet
from knowledge.infra.errors import InputError


@dataclass(frozen=True)
class VcpuInterface:
    """One vCPU: its tasks, their utilization and its interface (times in task-set units)."""

    index: int
    tasks: list[str]
    utilization: float
    share: float | None = None
    period: float | None = None
    budget: float | None = None
    feasible_intervals: list[tuple[float, float]] = field(default_factory=list)


@dataclass(frozen=True)
class PartitionResult:
    """A partition of the task set onto vCPUs; ``feasible`` is False with a ``reason`` if none found."""

    feasible: bool
    reason: str | None
    vcpus: list[VcpuInterface]
    unit: str

    def to_dict(self) -> dict:
        def clean(v):
            return None if isinstance(v, float) and not math.isfinite(v) else v
        return {"feasible": self.feasible, "reason": self.reason, "unit": self.unit, "vcpus": [
            {"index": c.index, "tasks": c.tasks, "utilization": c.utilization, "share": clean(c.share),
             "period": clean(c.period), "budget": clean(c.budget),
             "feasible_intervals": [[clean(a), clean(b)] for a, b in c.feasible_intervals]}
            for c in self.vcpus]}


def _fits(sub: TaskSet, share, period, overhead, policy) -> bool:
    if period is not None:
        return math.isfinite(min_budget(sub, period, overhead, policy))
    return analyze(sub, share=share, overhead=overhead, policy=policy).feasible


def _interface(index: int, sub: TaskSet | None, share, period, overhead, policy) -> VcpuInterface:
    if sub is None:
        return VcpuInterface(index, [], 0.0)
    res: RealtimeResult = analyze(sub, share=share, period=period, overhead=overhead, policy=policy)
    return VcpuInterface(index, sub.names, sub.utilization, res.share,
                         period if period is not None else res.max_period, res.budget,
                         res.feasible_intervals)


#: partitioning analyses up to (tasks x vCPUs) subsets; it is refused when that many analyses of the
#: whole set's checkpoints (an upper bound for any subset's) would exceed this
MAX_PARTITION_WORK = 20_000_000


def _check_work(ts: TaskSet, vcpus: int, policy: str) -> None:
    from advisor.realtime import edf
    from advisor.realtime.intervals import count_points

    if policy == "edf":
        per_call = edf.MAX_CHECKPOINTS
    else:
        order = ts.priority_order()
        per_call = count_points(np.array([ts.tasks[i].period for i in order]),
                                np.array([ts.tasks[i].relative_deadline for i in order]), MAX_PARTITION_WORK)
    attempts = len(ts.tasks) * vcpus
    if attempts * per_call > MAX_PARTITION_WORK:
        where = f"{ts.source}: " if ts.source else ""
        raise InputError(f"{where}partitioning {len(ts.tasks):,} tasks onto {vcpus} vCPUs analyses up to "
                         f"{attempts:,} subsets of up to {per_call:,} checkpoints each (limit "
                         f"{MAX_PARTITION_WORK:,} in all): partition fewer tasks, or analyse each vCPU's "
                         f"tasks as a set of its own")


def partition(taskset: TaskSet, vcpus: int, share: float | None = None, period: float | None = None,
              overhead: float = 0.0, policy: str = "rm", speed_scale: float | None = None,
              progress: ProgressCallback | None = None, cancel: CancelToken | None = None) -> PartitionResult:
    """Bind every task to one of ``vcpus`` vCPUs and give each vCPU an interface.

    With ``share`` each vCPU gets that share and its own largest period; with ``period`` each vCPU gets
    that period and its own least budget. ``overhead`` (time units) and ``policy`` as in
    :func:`advisor.realtime.analysis.analyze`.
    """
    if vcpus < 1:
        raise InputError(f"vcpus {vcpus!r}: need at least one vCPU")
    if (share is None) == (period is None):
        raise InputError("partition needs exactly one of share or period")
    ts = taskset.scaled(speed_scale)
    _check_work(ts, vcpus, policy)
    bins: list[list] = [[] for _ in range(vcpus)]
    loads = [0.0] * vcpus
    order = sorted(ts.tasks, key=lambda t: (-t.utilization, t.period, t.name))
    for n, task in enumerate(order):
        check(cancel)
        report(progress, n / len(order), f"placing {task.name}")
        for b in sorted(range(vcpus), key=lambda k: (loads[k], k)):
            sub = TaskSet(tuple(bins[b]) + (task,), ts.unit, ts.source)
            if _fits(sub, share, period, overhead, policy):
                bins[b].append(task)
                loads[b] += task.utilization
                break
        else:
            return PartitionResult(False, f"task {task.name!r} (utilization {task.utilization:.4g}) fits on "
                                          f"none of the {vcpus} vCPUs with the others placed", [], ts.unit)
    report(progress, 0.95, "interfaces")
    out = [_interface(k, TaskSet(tuple(b), ts.unit, ts.source) if b else None, share, period, overhead,
                      policy) for k, b in enumerate(bins)]
    report(progress, 1.0, "done")
    return PartitionResult(True, None, out, ts.unit)
