"""Run every benchmark of tests/benchmarks/ in turn and print a summary of PASS/FAIL lines.

Usage: ``.venv/bin/python tests/benchmarks/run_all.py [NAME ...]`` (names like ``realtime`` or
``bench_models``; default: all except ``build``, which needs a PyInstaller build: add it by name).
Each benchmark is a plain script that measures its target against a baseline in the same run
and prints ratios; this runner only collects their output. Benchmarks are not tests: they never
fail the test suite, and they are meant for a quiet machine.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_SKIP = {"bench_build"}


def main(argv: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if argv:
        wanted = {a if a.startswith("bench_") else f"bench_{a}" for a in argv}
        scripts = [s for s in scripts if s.stem in wanted]
    else:
        scripts = [s for s in scripts if s.stem not in DEFAULT_SKIP]
    summary: list[str] = []
    for script in scripts:
        print(f"\n===== {script.stem} =====", flush=True)
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, str(script)], cwd=HERE.parents[1], text=True,
                              capture_output=True)
        sys.stdout.write(proc.stdout)
        if proc.returncode:
            sys.stdout.write(proc.stderr)
        took = time.perf_counter() - start
        verdicts = [ln.strip() for ln in proc.stdout.splitlines()
                    if any(word in ln for word in ("PASS", "FAIL", "target"))]
        summary.append(f"{script.stem}: exit {proc.returncode}, {took:.1f} s")
        summary += [f"    {v}" for v in verdicts]
    print("\n===== summary =====")
    print("\n".join(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
