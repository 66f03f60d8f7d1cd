"""``capadvisor rt``: VM period and budget for a hard real-time task set (thesis chapter 11)."""

from __future__ import annotations

import argparse
import math
import sys

from knowledge.infra import jsonout
from knowledge.infra.errors import InputError

EXIT_INFEASIBLE = 1

DESCRIPTION = """\
Period T_VM and budget C_VM for a VM that hosts hard real-time tasks, so that every task meets its
deadline although the VM only runs C_VM in every T_VM, with a switching overhead X at the start of each
VM execution (thesis chapter 11). Fixed priorities inside the VM (rate-/deadline-monotonic) or EDF.

  --share S   largest T_VM (and its budget) at C_VM/T_VM = S, every schedulable interval of T_VM
  --period T  smallest budget C_VM at T_VM = T
  neither     the smallest share for which some T_VM works

TASKS is a CSV file (header name,period,wcet[,deadline]) or JSON ({"unit": "ms", "tasks": [...]}).
Times are numbers in the task file's unit (--units, default ms) or carry a suffix: 2ms, 500us, 0.1s.
JSON output keys: share, overhead, max_period, budget, critical_task, feasible_intervals,
response_times, min_budget (with --period), min_share (with neither), bounds, tasks, notes.
Exit status: 0 schedulable, 1 infeasible (the reason is printed), 2 invalid input."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rt", help="VM period and budget for hard real-time tasks (thesis chapter 11)",
                       description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("tasks", metavar="TASKS", help="task set file (.csv or .json)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--share", type=float, metavar="S", help="VM share C_VM/T_VM in (0, 1]")
    which.add_argument("--period", metavar="T", help="VM period T_VM (time)")
    p.add_argument("--overhead", default="0", metavar="X",
                   help="switching overhead at the start of each VM execution (time, default 0)")
    p.add_argument("--policy", choices=("rm", "edf"), default="rm",
                   help="scheduling inside the VM: rm = fixed priorities, rate- or deadline-monotonic "
                        "(default), edf = earliest deadline first")
    p.add_argument("--units", choices=("s", "ms", "us"), help="unit of bare numbers in TASKS "
                   "(default: the JSON file's unit, else ms)")
    p.add_argument("--speed-scale", type=float, metavar="F",
                   help="host core speed / speed of the core the wcets were measured on (wcet / F)")
    p.add_argument("--curve", type=int, default=0, metavar="N",
                   help="add max R_i/D_i at N periods (JSON key curve) for plotting")
    p.add_argument("--vcpus", type=int, metavar="N",
                   help="partition the tasks onto N vCPUs, one interface each (needs --share or --period)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_rt)


def _fmt(v, digits: int = 6) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "NO"
    if isinstance(v, float):
        return "inf" if math.isinf(v) else f"{v:.{digits}g}"
    return str(v)


def _table(headers: list[str], rows: list[list]) -> str:
    cells = [headers] + [[_fmt(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    return "\n".join("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                     for r in cells)


def _intervals(ivals, limit: int = 12) -> str:
    if not ivals:
        return "none"
    parts = []
    shown = ivals if len(ivals) <= limit else ivals[: limit // 2] + ivals[-(limit // 2):]
    for n, (a, b) in enumerate(shown):
        if len(ivals) > limit and n == limit // 2:
            parts.append(f"... ({len(ivals) - limit} more) ...")
        if a == b:
            parts.append(f"{{{_fmt(a)}}}")
        else:
            parts.append(f"{'(' if a == 0 else '['}{_fmt(a)}, {_fmt(b)}{')' if math.isinf(b) else ']'}")
    return " ".join(parts)


def render_text(res, source: str) -> str:
    """A readable report of a :class:`advisor.realtime.RealtimeResult`."""
    u = res.unit
    order = {"rm": "rate-monotonic", "dm": "deadline-monotonic", "edf": "EDF"}[res.priority_order]
    lines = [f"Task set {source}: {len(res.tasks)} tasks, utilization {res.utilization:.4f}, times in {u}",
             f"Inside the VM: {order}; overhead X = {_fmt(res.overhead)} {u}"
             + (f"; wcets scaled by 1/{_fmt(res.speed_scale)}" if res.speed_scale else "")]
    if not res.feasible:
        lines.append(f"INFEASIBLE: {res.reason}")
    if res.min_share is not None:
        lines.append(f"Smallest share C_VM/T_VM that works: {_fmt(res.min_share, 7)}")
    if res.min_budget is not None:
        lines.append(f"Smallest budget at T_VM = {_fmt(res.period)} {u}: C_VM = {_fmt(res.min_budget)} {u} "
                     f"(share {_fmt(res.share)}), critical task {res.critical_task}")
    elif res.share is not None:
        lines.append(f"Share C_VM/T_VM: {_fmt(res.share)}")
    if res.feasible and res.max_period is not None and res.min_budget is None:
        lines.append(f"Largest T_VM: {_fmt(res.max_period)} {u}, budget C_VM = {_fmt(res.budget)} {u}, "
                     f"critical task {res.critical_task}")
    elif res.feasible and res.min_budget is None and res.share is not None and res.max_period is None:
        lines.append("Largest T_VM: unbounded")
    if res.share is not None and res.intervals_computed:
        lines.append(f"Schedulable T_VM intervals ({u}): {_intervals(res.feasible_intervals)}")
    b = res.bounds
    if b is not None:
        pred = b.predicted_interval
        lines.append(f"Prediction bounds (section 11.8.2): left bound {_fmt(b.left_bound)}, lower bound "
                     f"{_fmt(b.lower_bound_slope)}*T_VM + {_fmt(b.lower_bound_offset)} reaches 1 at "
                     f"{_fmt(b.upper_limit)}; " + (f"periods can only lie in [{_fmt(pred[0])}, {_fmt(pred[1])}]"
                                                    if pred else "no period can work"))
    for note in res.notes:
        lines.append(f"note: {note}")
    if res.tasks and res.period is not None and res.chosen_budget is not None:
        lines.append("")
        lines.append(f"Per task at T_VM = {_fmt(res.period)} {u}, C_VM = {_fmt(res.chosen_budget)} {u}:")
        rows = [[t.priority, t.name, t.period, t.wcet, t.deadline, t.response_time, t.ratio,
                 t.meets_deadline, t.max_period, t.cumulative_max_period, t.min_budget] for t in res.tasks]
        lines.append(_table(["prio", "task", "T", "C", "D", "R", "R/D", "meets", "own max T_VM",
                             "max T_VM 1..i", "own min C_VM"], rows))
    return "\n".join(lines)


def render_partition(part) -> str:
    lines = [f"Partition onto {len(part.vcpus)} vCPUs" + ("" if part.feasible else f": INFEASIBLE: {part.reason}")]
    rows = [[c.index, ",".join(c.tasks) or "-", c.utilization, c.share, c.period, c.budget] for c in part.vcpus]
    lines.append(_table(["vcpu", "tasks", "U", "share", "T_VM", "C_VM"], rows))
    return "\n".join(lines)


def cmd_rt(args: argparse.Namespace) -> int:
    from advisor.realtime import analyze, load_taskset
    from advisor.realtime.partition import partition
    from advisor.realtime.tasks import parse_time

    ts = load_taskset(args.tasks, args.units)
    overhead = parse_time(args.overhead, ts.unit, "--overhead")
    period = None if args.period is None else parse_time(args.period, ts.unit, "--period")
    if args.curve < 0:
        raise InputError("--curve: the number of points must be >= 0")
    if args.speed_scale is not None and not (math.isfinite(args.speed_scale) and args.speed_scale > 0):
        raise InputError(f"--speed-scale {args.speed_scale!r}: must be a positive number")
    if args.vcpus is not None:
        if args.share is None and period is None:
            raise InputError("--vcpus needs --share or --period")
        part = partition(ts, args.vcpus, share=args.share, period=period, overhead=overhead,
                         policy=args.policy, speed_scale=args.speed_scale)
        if args.format == "json":
            print(jsonout.dumps(part.to_dict(), indent=2))
        else:
            print(render_partition(part))
        if not part.feasible:
            print(f"capadvisor: infeasible: {part.reason}", file=sys.stderr)
            return EXIT_INFEASIBLE
        return 0
    res = analyze(ts, share=args.share, period=period, overhead=overhead, policy=args.policy,
                  speed_scale=args.speed_scale, curve_points=args.curve)
    if args.format == "json":
        print(jsonout.dumps(res.to_dict(), indent=2))
    else:
        print(render_text(res, args.tasks))
    if not res.feasible:
        print(f"capadvisor: infeasible: {res.reason}", file=sys.stderr)
        return EXIT_INFEASIBLE
    return 0
