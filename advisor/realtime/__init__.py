"""Period ``T_VM`` and budget ``C_VM`` for VMs that host hard real-time tasks (thesis chapter 11).

Entry points for the engine and the GUI (all pure, all times in the task set's unit):

* :func:`load_taskset` / :class:`TaskSet` / :class:`Task`: the input (CSV or JSON, units s/ms/us);
* :func:`analyze` -> :class:`RealtimeResult`: largest period and budget for a share, least budget for a
  period, every schedulable period interval, the critical task, response times, prediction bounds;
* :func:`ratio_curve`: ``max R_i / D_i`` against ``T_VM`` for plotting (numpy, vectorised);
* :func:`min_budget`, :func:`schedulable`: single questions;
* :func:`hypervisor.check_hypervisor`: do several VMs ``(T_VM, C_VM)`` fit on one core (RM or EDF);
* :func:`partition.partition`: tasks onto several vCPUs, one interface per vCPU.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

#: largest task set analysed (the exact analysis also bounds its checkpoints: see
#: :data:`advisor.realtime.intervals.MAX_CHECKPOINTS`); here, so that the scenario's field table
#: reads it without the task-set module (start-up, issue #30)
MAX_TASKS = 10_000

# where each public name lives; loaded on first use, so reading a task set's limits (the scenario's
# field table does at start-up) does not import numpy and the analysis
_HOME = {
    "RealtimeResult": "analysis", "TaskResult": "analysis", "analyze": "analysis", "min_budget": "analysis",
    "ratio_curve": "analysis", "schedulable": "analysis",
    "PredictionBounds": "bounds", "no_overhead_period_bound": "bounds", "prediction_bounds": "bounds",
    "Task": "tasks", "TaskSet": "tasks", "load_taskset": "tasks", "parse_csv": "tasks", "parse_json": "tasks",
}

__all__ = [
    "PredictionBounds", "RealtimeResult", "Task", "TaskResult", "TaskSet", "analyze", "load_taskset",
    "min_budget", "no_overhead_period_bound", "parse_csv", "parse_json", "prediction_bounds",
    "ratio_curve", "schedulable",
]
assert sorted(__all__) == sorted(_HOME)

if TYPE_CHECKING:
    from advisor.realtime.analysis import (
        RealtimeResult,
        TaskResult,
        analyze,
        min_budget,
        ratio_curve,
        schedulable,
    )
    from advisor.realtime.bounds import PredictionBounds, no_overhead_period_bound, prediction_bounds
    from advisor.realtime.tasks import Task, TaskSet, load_taskset, parse_csv, parse_json


def __getattr__(name: str):
    if name in _HOME:
        value = getattr(import_module(f"advisor.realtime.{_HOME[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'advisor.realtime' has no attribute {name!r}")
