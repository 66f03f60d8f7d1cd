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

__all__ = [
    "PredictionBounds", "RealtimeResult", "Task", "TaskResult", "TaskSet", "analyze", "load_taskset",
    "min_budget", "no_overhead_period_bound", "parse_csv", "parse_json", "prediction_bounds",
    "ratio_curve", "schedulable",
]
