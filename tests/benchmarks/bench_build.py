"""Benchmark of the PyInstaller build: sizes, and cold start of the frozen app vs ``python -m app``.

    .venv/bin/python tests/benchmarks/bench_build.py [DIST_DIR] [--build] [--runs N]

DIST_DIR (default dist/) holds the outputs of packaging/build.sh; ``--build`` runs it first.
Prints sizes in MB (10^6 bytes) of the one-folder build, the one-file build and the archive,
and the median wall-clock start-up time in ms of ``--version`` and ``kb stats`` for the
one-folder build, the one-file build and ``python -m app`` from this checkout, measured in
the same run (interleaved, after one warm-up run each). Targets: one-file under 150 MB;
one-folder start-up within 1.2x of ``python -m app``. Always exits 0 (a report, not a test).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))
import spec_support  # noqa: E402

ONEFILE_LIMIT_MB = 150.0
START_RATIO_LIMIT = 1.2
COMMANDS = (("--version",), ("kb", "stats"))


def size_mb(path: Path) -> float:
    """Total size of a file or of every file below a folder, in MB (10^6 bytes)."""
    if path.is_file():
        return path.stat().st_size / 1e6
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink()) / 1e6


def wall_ms(argv: list[str], env: dict[str, str]) -> float:
    """Wall-clock time of one run of ``argv`` in ms; a failing run aborts the benchmark."""
    start = time.perf_counter()
    result = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    elapsed = (time.perf_counter() - start) * 1000
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {result.stderr.decode(errors='replace')[-500:]}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dist", nargs="?", type=Path, default=ROOT / "dist")
    parser.add_argument("--build", action="store_true", help="run packaging/build.sh first")
    parser.add_argument("--runs", type=int, default=7, help="timed runs per variant (default 7)")
    args = parser.parse_args()

    if args.build:
        subprocess.run([str(ROOT / "packaging" / "build.sh")], check=True)
    name = spec_support.build_name()
    onedir, onefile = args.dist / name, args.dist / f"{name}-onefile"
    archive = args.dist / f"{name}.tar.gz"
    if not (onedir / "capadvisor").is_file():
        print(f"no build at {onedir}: run packaging/build.sh (or pass --build)")
        return 0

    print(f"build {name}")
    print(f"  one-folder  {size_mb(onedir):8.1f} MB")
    if onefile.is_file():
        mb = size_mb(onefile)
        verdict = "meets" if mb < ONEFILE_LIMIT_MB else "MISSES"
        print(f"  one-file    {mb:8.1f} MB   ({verdict} the target < {ONEFILE_LIMIT_MB:.0f} MB)")
    if archive.is_file():
        print(f"  .tar.gz     {size_mb(archive):8.1f} MB")

    variants = {"python -m app": [sys.executable, "-m", "app"], "one-folder": [str(onedir / "capadvisor")]}
    if onefile.is_file():
        variants["one-file"] = [str(onefile)]
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CAPADVISOR_", "XDG_"))}
        env.update(HOME=tmp, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen")
        for cmd in COMMANDS:
            times: dict[str, list[float]] = {v: [] for v in variants}
            for argv in variants.values():  # warm-up: page cache, compiled knowledge base, pyc files
                wall_ms([*argv, *cmd], env)
            for _ in range(args.runs):
                for variant, argv in variants.items():
                    times[variant].append(wall_ms([*argv, *cmd], env))
            base = statistics.median(times["python -m app"])
            print(f"\nstart-up of `capadvisor {' '.join(cmd)}` (median of {args.runs}, ms)")
            for variant, samples in times.items():
                med = statistics.median(samples)
                line = f"  {variant:14s} {med:8.1f}   x{med / base:5.2f}"
                if variant == "one-folder":
                    verdict = "meets" if med / base <= START_RATIO_LIMIT else "MISSES"
                    line += f"   ({verdict} the target <= {START_RATIO_LIMIT}x python -m app)"
                print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
