"""Benchmark: importing a 50 MB fio json+ file against plain ``json.load`` of the same file.

The file is made by replicating the jobs of a real fio 3.33 json+ fixture (two jobs per group,
group ids renumbered). Prints both CPU times (best of 3) and the ratio; the target is within 1.5x (issue #30).
Run: .venv/bin/python tests/benchmarks/bench_import_fio.py
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from knowledge.importers.registry import parse_file  # noqa: E402

FIXTURE = ROOT / "tests/knowledge/importers/fixtures/fio3_seqread_2jobs.jsonplus"
TARGET_BYTES = 50 * 1000 * 1000


def make_file(path: Path) -> int:
    """Write a json+ file of about 50 MB; return the number of jobs."""
    doc = json.loads(FIXTURE.read_text())
    jobs = doc["jobs"]
    count = 100
    for _ in range(2):  # size the job count from a first try
        doc["jobs"] = [dict(jobs[i % len(jobs)], groupid=i // 2) for i in range(count)]
        text = json.dumps(doc, indent=2)
        count = max(2, round(count * TARGET_BYTES / len(text)))
    doc["jobs"] = [dict(jobs[i % len(jobs)], groupid=i // 2) for i in range(count)]
    path.write_text(json.dumps(doc, indent=2))
    return count


def best_of(n: int, fn) -> float:
    times = []
    for _ in range(n):
        t0 = time.process_time()  # CPU seconds: a busy machine's other processes do not count
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.jsonplus"
        jobs = make_file(path)
        size = path.stat().st_size

        def plain():
            with open(path, encoding="utf-8") as fh:
                json.load(fh)

        result = parse_file(path)
        t_json = best_of(3, plain)
        t_import = best_of(3, lambda: parse_file(path))
    ratio = t_import / t_json
    print(f"file: {size / 1e6:.1f} MB, {jobs} jobs, {len(result.measurements)} measurements")
    print(f"json.load:        {t_json:.3f} s")
    print(f"import (parse):   {t_import:.3f} s")
    print(f"ratio import/json.load: {ratio:.2f}x (target <= 1.5x: {'met' if ratio <= 1.5 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
