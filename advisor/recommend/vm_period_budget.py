"""``vm_period_budget``: period T_VM and budget C_VM (in the task set's time unit) for each
workload with a hard real-time task set, from the real-time analysis (:mod:`advisor.realtime`,
thesis chapter 11).

The share C_VM/T_VM is the workload's ``realtime.share`` when given; otherwise the analysis
finds the smallest share for which some T_VM works and the recommendation keeps clear headroom
above it (doc 004 c11-C04): share = min(1, max(1.2 x smallest share, 1.5 x utilization), and
2 x utilization when a switching overhead is charged (c11-C07)), but at most halfway between the
smallest share and a whole core, so that a share below 1 that works is never rounded up to a
whole core. ``realtime.period`` fixes T_VM (a period the platform imposes): the budget is then
the share of it and the response times are those at that period (doc 004 Section 11.4's
example). Otherwise the period is the largest one that passes the response-time test (the robust one
when the analysis gives it). When only a whole core works (utilization near 1), the VM gets a
dedicated core: any period does, and T_VM = C_VM = the shortest task period is reported (never
an infinite period). WCETs are scaled by host GHz / design GHz when the design speed is given.
"""

from __future__ import annotations

import math
from functools import lru_cache

from advisor.recommend.base import Alternative, EngineContext, Recommendation, figure
from advisor.recommend.profile import per_workload
from advisor.rules import evaluate

DECISION = "vm_period_budget"


def _taskset(w, source: str | None = None):
    from advisor.realtime import Task, TaskSet

    rt = w.realtime
    unit = rt.time_unit if rt.time_unit in ("s", "ms", "us") else "ms"  # "units": numbers kept as they are
    return TaskSet(tuple(Task(t.name, t.period, t.wcet, t.deadline) for t in rt.tasks), unit,
                   f"workload {w.name}" if source is None else source)


def analysis_inputs(rec: Recommendation, w):
    """(task set, share, overhead, speed scale) the recommendation's analysis ran with, so a chart
    of it shows the same schedulable region and period (an infeasible set: at the share it asked
    for, else 1.5 x its utilization)."""
    a = rec.details.get("analysis") or {}
    ts = _taskset(w)
    share = a.get("share") or w.realtime.share or min(1.0, max(0.05, 1.5 * w.realtime.utilization))
    return ts, float(share), float(a.get("overhead", w.realtime.overhead) or 0.0), a.get("speed_scale")


def advised_for(advice, workload: str) -> dict | None:
    """What the advice's analysis of ``workload`` ran with and found, for views that redo it on an
    edited task set (the Real-time tab): ``share``, ``overhead``, ``speed_scale``, ``period`` and
    ``budget``; None when the advice has no real-time recommendation for it."""
    if advice is None:
        return None
    rec = advice.find("vm_period_budget", f"workload:{workload}")
    w = next((w for w in advice.scenario.workloads if w.name == workload), None)
    if rec is None or w is None or w.realtime is None or not w.realtime.tasks:
        return None
    _ts, share, overhead, speed = analysis_inputs(rec, w)
    budget = rec.expected["budget"].value if "budget" in rec.expected else None
    return {"share": share, "overhead": overhead, "speed_scale": speed, "period": rec.value, "budget": budget}


def _headroom_share(rt, min_share: float | None) -> float:
    """The share to recommend: clear headroom above the smallest schedulable share, below 1."""
    u = rt.utilization
    factor = 2.0 if rt.overhead > 0 else 1.5
    smallest = min_share or u
    target = max(1.2 * smallest, factor * u)
    if smallest < 1.0:
        target = min(target, (1.0 + smallest) / 2.0)  # a share below 1 works: keep it below 1
    return min(1.0, target)


@lru_cache(maxsize=256)
def _analyze(tasks: tuple, unit: str, share: float | None, overhead: float, speed: float | None):
    """:func:`advisor.realtime.analyze`, memoised: the analysis is a pure function of its inputs."""
    from advisor.realtime import Task, TaskSet, analyze

    ts = TaskSet(tuple(Task(*t) for t in tasks), unit, "real-time workload")
    return analyze(ts, share=share, overhead=overhead, speed_scale=speed)


def _at_period(ts, rt, speed: float | None, res, period: float | None = None) -> dict:
    """Budget, response times and feasibility at ``period`` (default the fixed ``rt.period``): the
    budget is the share's (``rt.share``, else the analysis' share) of the period; response times by
    Equation (5) in the analysis' priority order (deadline-monotonic), WCETs scaled by ``speed``.
    The card's response times are always those at the period it recommends (one number per period)."""
    import numpy as np

    from advisor.realtime.response import response_times

    period = rt.period if period is None else period
    scale = speed or 1.0
    tasks = sorted(ts.tasks, key=lambda t: (t.deadline or t.period, t.period))
    share = rt.share if rt.share is not None else (res.share or 1.0)
    budget = period * share
    r = response_times(np.array([t.period for t in tasks], float), np.array([t.wcet / scale for t in tasks], float),
                       period, budget, rt.overhead)
    times = {t.name: float(x) for t, x in zip(tasks, r, strict=True) if math.isfinite(float(x))}
    ok = all(math.isfinite(float(x)) and float(x) <= (t.deadline or t.period) * (1 + 1e-9)
             for t, x in zip(tasks, r, strict=True))
    return {"budget": budget, "response_times": times, "feasible": ok}


def _figures(ts, rt, speed, res, period, budget, *, feasible: bool, dedicated: bool, fixed: dict | None) -> dict:
    """The card's expected figures: utilization; when feasible the period (with the interval of
    periods that work), budget, share and each task's response time at the recommended period."""
    unit = rt.time_unit
    expected = {"utilization": figure(res.utilization, "1")}
    if not feasible:
        return expected
    top = res.max_period if res.max_period and math.isfinite(res.max_period) else period
    low = res.feasible_intervals[0][0] if res.feasible_intervals and not dedicated else period
    expected.update({"period": figure(period, unit, min(low, period), max(top, period)),
                     "budget": figure(budget, unit), "share": figure(res.share, "1")})
    if fixed is not None:
        expected.update({"period": figure(period, unit), "budget": figure(budget, unit),
                         "share": figure(budget / period, "1")})
    elif not dedicated and res.period is not None and not math.isclose(period, res.period):
        # the analysis' response times are at its own period: the card's at the period it recommends
        fixed = {**_at_period(ts, rt, speed, res, period), "budget": budget}
    rts = fixed["response_times"] if fixed is not None else {k: v for k, v in res.response_times.items()
                                                              if v is not None}
    for name, r in rts.items():
        expected[f"response_time_{name}"] = figure(r, unit)
    return expected


def _one(ctx: EngineContext, w, scope: str) -> Recommendation:
    """The period and budget of one real-time workload (texts name it through ``scope`` only:
    computed once per distinct task set and settings, :mod:`advisor.recommend.profile`)."""
    rt = w.realtime
    unit = rt.time_unit
    speed = ctx.scenario.hosts.cpu.ghz / rt.design_speed_ghz if rt.design_speed_ghz else None
    ts = _taskset(w, "the workload's task set")
    key = (tuple((t.name, t.period, t.wcet, t.deadline) for t in ts.tasks), ts.unit)
    outcome = evaluate(DECISION, ctx.rule_ctx(w), ["chosen"])
    notes = []
    if rt.share is not None:
        res = _analyze(*key, rt.share, rt.overhead, speed)
        minimal = None
    else:
        minimal = _analyze(*key, None, rt.overhead, speed)
        share = _headroom_share(rt, minimal.min_share or minimal.share)
        res = _analyze(*key, share, rt.overhead, speed)
        if not res.feasible and minimal.feasible:
            res, notes = minimal, ["no headroom above the smallest share was schedulable"]
    dedicated = bool(res.feasible and res.share is not None and res.share >= 1.0 - 1e-12)
    if not res.feasible and rt.share is None and res.utilization <= 1.0 + 1e-12:
        # no share below a whole core works with the switching overhead: an own core has no VM switch
        dedicated = _analyze(*key, 1.0, 0.0, speed).feasible
        if dedicated:
            notes = ["no VM period works with the switching overhead; a dedicated core has no VM switches"]
    if dedicated:  # a whole core: no VM switching, any period works; report a finite one
        res = _analyze(*key, 1.0, 0.0, speed)  # the plain response times on an own core
        notes.append("the task set needs a whole core: pin the VM's vCPU to a dedicated core (no VM period "
                     "or budget limits it)")
    period = min(t.period for t in ts.tasks) if dedicated else (res.max_period_robust or res.max_period)
    budget = period * res.share if (period and res.share) else res.budget
    feasible = bool(res.feasible and period and math.isfinite(period))
    fixed = None
    if rt.period is not None and not dedicated:  # a period the platform imposes: the budget and times there
        fixed = _at_period(ts, rt, speed, res)
        period, budget, feasible = rt.period, fixed["budget"], fixed["feasible"]
        notes.append(f"T_VM fixed at {rt.period:g} {unit} (realtime.period): the budget and response times are "
                     "those at that period")
    if dedicated:
        choice = f"dedicated core (T_VM=C_VM={period:.4g} {unit})"
    elif feasible:
        choice = f"T_VM={period:.4g} {unit}, C_VM={budget:.4g} {unit}"
    else:
        choice = "infeasible"
    expected = _figures(ts, rt, speed, res, period, budget, feasible=feasible, dedicated=dedicated, fixed=fixed)
    alternatives = []
    if minimal is not None and minimal.feasible and minimal is not res and minimal.max_period:
        mp = minimal.max_period
        alternatives.append(Alternative(
            f"T_VM={mp:.4g} {unit}, C_VM={mp * minimal.share:.4g} {unit}", -1.0,
            {"share": figure(minimal.share, "1"), "period": figure(mp, unit)},
            "the smallest schedulable share leaves no headroom: the usable period varies widely with the "
            "task set just above it [rt.share-headroom]"))
    rationale = (f"Give the VM a budget C_VM every period T_VM (share {res.share:.3g} of a core, task "
                 f"utilization {res.utilization:.3g}). " if feasible else
                 f"No VM period works: {res.reason}. ")
    if res.critical_task:
        rationale += f"The task that limits T_VM is {res.critical_task}. "
    rationale += " ".join(r.text for r in outcome.fired)
    rec = Recommendation(
        decision=DECISION, scope=scope, choice=choice, value=period if feasible else None,
        alternatives=alternatives, expected=expected, confidence=0.9 if res.exact and feasible else 0.6 if feasible
        else 0.2, rationale=rationale.strip(), citations=ctx.cites.for_rules(outcome.fired),
        rules=[r.id for r in outcome.fired], warnings=list(dict.fromkeys(outcome.warnings)) + notes
        + ([] if dedicated else list(res.notes))
        + ([] if feasible else [f"{_NONE_WORKS}{_UNNAMED}: {res.reason}"]))
    rec.details = {"analysis": res.to_dict(), "speed_scale": speed, "dedicated_core": dedicated}
    return rec


def recommend(ctx: EngineContext) -> list[Recommendation]:
    """One recommendation per workload with a task set (none when no workload has tasks)."""
    wls = [w for w in ctx.scenario.workloads if w.realtime is not None and w.realtime.tasks]
    out = per_workload(ctx, DECISION, wls, lambda w, scope, _fact: _one(ctx, w, scope))
    for w, rec in zip(wls, out, strict=True):  # the advice's warnings name the workload
        rec.warnings = [x.replace(_UNNAMED, f"the tasks of {w.name}", 1) if x.startswith(_NONE_WORKS) else x
                        for x in rec.warnings]
    return out


_NONE_WORKS = "no VM period and budget schedule "
_UNNAMED = "the workload's tasks"
