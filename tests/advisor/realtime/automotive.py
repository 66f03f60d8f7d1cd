"""Large task sets shaped like real automotive software, for the limits tests and bench_scale.

Periods and their shares of the periodic runnables are those published by Kramer, Ziegenbein and
Hamann, "Real World Automotive Benchmarks For Free" (WATERS 2015): 1, 2, 5, 10, 20, 50, 100, 200 and
1000 ms with 3, 2, 2, 25, 25, 3, 20, 1 and 4 % (the angle-synchronous share left out). Execution
times are drawn so that the set's utilization is about ``utilization``.
"""

from __future__ import annotations

import random

from advisor.realtime import Task, TaskSet

PERIODS_MS = (1, 2, 5, 10, 20, 50, 100, 200, 1000)
SHARES_PCT = (3, 2, 2, 25, 25, 3, 20, 1, 4)


def automotive_taskset(n: int = 3000, utilization: float = 0.6, seed: int = 7) -> TaskSet:
    """``n`` tasks with the published period mix, times in ms, deterministic for a seed."""
    rng = random.Random(seed)
    periods = rng.choices(PERIODS_MS, weights=SHARES_PCT, k=n)
    tasks = tuple(Task(f"r{i}", float(p), p * utilization / n * rng.uniform(0.5, 1.5))
                  for i, p in enumerate(periods))
    return TaskSet(tasks, "ms", f"automotive-{n}")


def spread_taskset(n: int = 3000, seed: int = 1) -> TaskSet:
    """``n`` tasks whose periods are all different (10 to 3000 ms): the worst case for checkpoints."""
    rng = random.Random(seed)
    tasks = []
    for i in range(n):
        p = rng.choice([10, 20, 50, 100, 200, 500, 1000]) * rng.uniform(1, 3)
        tasks.append(Task(f"t{i}", round(p, 3), round(p * 0.9 / n, 6)))
    return TaskSet(tuple(tasks), "ms", f"spread-{n}")
