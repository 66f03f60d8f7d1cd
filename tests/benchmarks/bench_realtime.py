"""Benchmark of advisor.realtime (issue 4): a 100-task set, the curve over 1,000 VM periods and the exact
interval search, against a straightforward reference (the thesis' equations iterated per grid point in
pure Python), measured in the same run.

Run: ``.venv/bin/python tests/benchmarks/bench_realtime.py`` (a script, not collected by pytest).
Targets: full analysis of the 100-task set under 50 ms; curve at least 10x faster than the reference;
the EDF smallest share of one task with an overhead at least 5x faster than a full search per step.
Prints PASS/FAIL per target and always exits 0.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path
from unittest.mock import patch

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from advisor.realtime import TaskSet, analyze, edf, ratio_curve  # noqa: E402
from advisor.realtime.analysis import _prepare, min_share  # noqa: E402
from advisor.realtime.intervals import fp_intervals  # noqa: E402

N_TASKS = 100
N_PERIODS = 1000
UTILIZATION = 0.3
SHARE = 0.54
OVERHEAD = 1.0


def thesis_task_set(n: int, u: float, seed: int = 2024) -> TaskSet:
    """Section 11.8.3 set-up: T_i uniform in [100, 1000], C_i uniform in [100, T_i], scaled to U = u."""
    rng = np.random.default_rng(seed)
    periods = rng.uniform(100, 1000, n)
    wcets = rng.uniform(100, periods)
    wcets *= u / np.sum(wcets / periods)
    return TaskSet.from_tuples([(f"t{i}", p, c) for i, (p, c) in enumerate(zip(periods, wcets, strict=True))])


# ------------------------------------------------------------------------------ the reference

def reference_curve(periods, wcets, deadlines, vm_periods, share, overhead):
    """max R_i / D_i per T_VM: Equations (5) and (6) iterated per grid point, plain Python."""
    out = []
    for t_vm in vm_periods:
        c_vm = share * t_vm
        theta = c_vm - overhead
        worst = 0.0
        hp_util = 0.0
        for i in range(len(periods)):
            if theta <= 0 or theta / t_vm <= hp_util:
                worst = math.inf
                break

            def f_inv(w, t_vm=t_vm, c_vm=c_vm, theta=theta):
                return (t_vm - c_vm) + w + math.ceil(w / theta - 1e-9) * (t_vm - theta)

            r = f_inv(sum(wcets[: i + 1]))
            while True:
                w = wcets[i] + sum(math.ceil(r / periods[j] - 1e-9) * wcets[j] for j in range(i))
                nxt = f_inv(w)
                if nxt <= r:
                    break
                r = nxt
            worst = max(worst, r / deadlines[i])
            hp_util += wcets[i] / periods[i]
        out.append(worst)
    return out


def grid_intervals(vm_periods, values):
    """Intervals of the grid points where the curve is at most 1 (resolution: one grid step)."""
    out, start, prev = [], None, None
    for t, v in zip(vm_periods, values, strict=True):
        t = float(t)
        if v <= 1 + 1e-9 and start is None:
            start = t
        if v > 1 + 1e-9 and start is not None:
            out.append((start, prev))
            start = None
        prev = t
    if start is not None:
        out.append((start, prev))
    return out


def timed(fn, repeat: int = 1):
    best, value = math.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - t0)
    return best, value


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> int:
    ts = thesis_task_set(N_TASKS, UTILIZATION)
    prep = _prepare(ts, "rm", None)
    periods, wcets, deadlines = list(prep.periods), list(prep.wcets), list(prep.deadlines)
    grid = np.linspace(0.5, 500.0, N_PERIODS)  # the thesis scans T_VM in [0, 500] (section 11.8.3)
    print(f"task set: {N_TASKS} tasks, periods U[100, 1000], utilization {ts.utilization:.3f}; "
          f"share {SHARE}, overhead {OVERHEAD}; {N_PERIODS} VM periods in [0.5, 500]")

    analyze(ts, share=SHARE, overhead=OVERHEAD)  # warm-up (imports, caches)
    t_full, res = timed(lambda: analyze(ts, share=SHARE, overhead=OVERHEAD), repeat=7)
    t_period, res_p = timed(lambda: analyze(ts, period=res.max_period, overhead=OVERHEAD), repeat=7)
    points = prep.points()
    t_exact, exact = timed(lambda: fp_intervals(points, SHARE, OVERHEAD), repeat=7)
    t_curve, curve = timed(lambda: ratio_curve(ts, grid, SHARE, OVERHEAD, cap=None), repeat=3)

    t_ref, ref = timed(lambda: reference_curve(periods, wcets, deadlines, grid, SHARE, OVERHEAD))
    ref = np.array(ref)
    ref_ivals = grid_intervals(grid, ref)

    # agreement: curve values, and the grid scan against the exact intervals away from their ends
    finite = np.isfinite(ref) & np.isfinite(curve)
    same_inf = np.array_equal(np.isinf(ref), np.isinf(curve))
    max_diff = float(np.max(np.abs(ref[finite] - curve[finite]))) if finite.any() else 0.0
    step = grid[1] - grid[0]
    ends = [e for iv in exact.intervals for e in iv]
    disagree = 0
    for t, v in zip(grid, ref, strict=True):
        inside = any(a <= t <= b for a, b in exact.intervals)
        if (v <= 1 + 1e-9) != inside and not any(abs(t - e) <= step for e in ends):
            disagree += 1

    print()
    print(f"full analysis (share query): {t_full * 1e3:8.2f} ms  -> max T_VM {res.max_period:.6g}, "
          f"budget {res.budget:.6g}, critical {res.critical_task}, {len(res.feasible_intervals)} interval(s)")
    print(f"full analysis (period query): {t_period * 1e3:7.2f} ms  -> min C_VM {res_p.min_budget:.6g} "
          f"at T_VM {res_p.period:.6g}")
    print(f"exact interval search:       {t_exact * 1e3:8.2f} ms  -> {[(round(a, 4), round(b, 4)) for a, b in exact.intervals]}")
    print(f"reference grid scan:         {t_ref * 1e3:8.2f} ms  -> {[(round(a, 4), round(b, 4)) for a, b in ref_ivals]} "
          f"(resolution {step:.3g})")
    print(f"curve, vectorised:           {t_curve * 1e3:8.2f} ms")
    print(f"curve, reference:            {t_ref * 1e3:8.2f} ms")
    print(f"curve speed-up:              {t_ref / t_curve:8.1f} x")
    print(f"exact intervals vs reference scan: {t_ref / t_exact:8.1f} x faster")
    print(f"agreement: max |curve - reference| = {max_diff:.3g}, same infinite points: {same_inf}, "
          f"grid points classified differently away from interval ends: {disagree}")
    # EDF smallest share of one task near its utilization with an overhead: each bisection step asks
    # only whether some T_VM works (edf.any_schedulable); the baseline asks the full interval search
    one = _prepare(TaskSet.from_tuples([("t", 22, 2)]), "edf", None)
    t_edf, s_fast = timed(lambda: min_share(one, None, 0.5))
    with patch.object(edf, "any_schedulable",
                      lambda p, c, d, s, x=0.0: bool(edf.intervals(p, c, d, s, x).intervals)):
        t_edf_base, s_base = timed(lambda: min_share(one, None, 0.5))
    print(f"EDF smallest share, one task, overhead 0.5: {t_edf * 1e3:8.2f} ms (full search per step "
          f"{t_edf_base * 1e3:.0f} ms, {t_edf_base / t_edf:.1f}x) -> {s_fast:.9g} vs {s_base:.9g}")

    print()
    print(f"{verdict(t_edf_base / t_edf >= 5 and s_fast == s_base)}  EDF smallest share at least 5x faster "
          f"than a full interval search per bisection step, same share")
    print(f"{verdict(t_full < 0.050)}  full analysis of {N_TASKS} tasks under 50 ms ({t_full * 1e3:.2f} ms)")
    print(f"{verdict(t_ref / t_curve >= 10)}  curve at least 10x faster than the reference "
          f"({t_ref / t_curve:.1f}x)")
    print(f"{verdict(max_diff < 1e-9 and same_inf and disagree == 0)}  fast results agree with the reference")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
