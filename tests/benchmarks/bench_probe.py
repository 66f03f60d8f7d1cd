"""Benchmark of the hardware probe (run: .venv/bin/python tests/benchmarks/bench_probe.py).

1. The probe without micro-benchmarks must take under 1 s: timed against a baseline measured
   in the same run, reading /proc/cpuinfo and /proc/meminfo.
2. ``--bench`` with a budget of N = 3 s must respect it within 10%: timed through the real
   command (``capadvisor probe --bench --bench-seconds 3``) and through run_benchmarks().

Prints times and ratios, and OK/SLOW per target; always exits 0.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

BUDGET_S = 3.0


def timed(fn, repeat: int) -> float:
    """Median wall time of ``fn()`` in seconds over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def baseline() -> None:
    for path in ("/proc/cpuinfo", "/proc/meminfo"):
        with open(path) as fh:
            fh.read()


def verdict(ok: bool) -> str:
    return "OK" if ok else "SLOW"


def main() -> int:
    from advisor.probes import builtin_registry
    from advisor.probes.bench import run_benchmarks

    base = timed(baseline, 50)
    registry = builtin_registry()
    first = timed(lambda: registry.run(), 1)
    probe = timed(lambda: registry.run(), 10)
    print(f"baseline (read /proc/cpuinfo + /proc/meminfo): {base * 1e3:8.2f} ms")
    print(f"probe, first run:                             {first * 1e3:8.2f} ms  ({first / base:6.0f}x baseline)"
          f"  {verdict(first < 1.0)} (< 1 s)")
    print(f"probe, median of 10:                          {probe * 1e3:8.2f} ms  ({probe / base:6.0f}x baseline)"
          f"  {verdict(probe < 1.0)} (< 1 s)")

    with tempfile.TemporaryDirectory(prefix="capadvisor-benchprobe-") as tmp:
        env = dict(os.environ, CAPADVISOR_DATA_DIR=f"{tmp}/data", CAPADVISOR_CACHE_DIR=f"{tmp}/cache",
                   CAPADVISOR_CONFIG_DIR=f"{tmp}/config")
        cmd = [sys.executable, "-m", "app", "probe", "--format", "json"]
        cli = timed(lambda: subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True), 3)
        print(f"`capadvisor probe` (new process, imports):    {cli * 1e3:8.2f} ms  ({cli / base:6.0f}x baseline)"
              f"  {verdict(cli < 1.0)} (< 1 s)")

        t = time.perf_counter()
        done = subprocess.run([*cmd, "--bench", "--bench-seconds", str(BUDGET_S), "--bench-dir", f"{tmp}/b"],
                              cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - t
        bench = json.loads(done.stdout)["benchmarks"]
        elapsed = bench["elapsed_s"]
        print(f"\n--bench --bench-seconds {BUDGET_S:g}: benchmarks {elapsed:.3f} s "
              f"({elapsed / BUDGET_S:.3f} of budget)  {verdict(abs(elapsed / BUDGET_S - 1) <= 0.10)} (within 10%)")
        print(f"  whole command incl. start-up and probe (outside the budget, for information): "
              f"{wall:.3f} s ({wall / BUDGET_S:.3f} of budget)")
        for m in bench["measurements"]:
            print(f"  {m['metric']:10s} {m['value']:12.1f} {m['unit']:6s} {m['factors']['operation']}")
        print(f"  direct I/O: {bench['direct_io']}, file {bench['file_bytes'] / 2**20:.0f} MiB, "
              f"folder left behind: {any(Path(tmp, 'b').iterdir())}")

        t = time.perf_counter()
        res = run_benchmarks(Path(tmp, "c"), BUDGET_S)
        call = time.perf_counter() - t
        print(f"run_benchmarks({BUDGET_S:g}) called directly: {call:.3f} s ({call / BUDGET_S:.3f} of budget)  "
              f"{verdict(abs(call / BUDGET_S - 1) <= 0.10)} (within 10%); reported {res.elapsed_s:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
