"""Benchmark: 10,000 VMs x 30 days of 5-minute utilisation samples (86.4 million points) read and reduced
by `capadvisor inventory INVENTORY SERIES` (the inventory CSV template of 10,000 VMs, then the plain series
CSV ``vm,timestamp,cpu_pct,mem_pct``: joined by name, put on the grid, per-group p50/p95/p99/peak of the
summed series, the sized shares, the fitted trend, the scenario), against a bare ``numpy.loadtxt`` read
of the same CSV's numbers in the same run (chunks of 1,000,000 lines, ``usecols`` timestamp, cpu_pct,
mem_pct; each chunk dropped: the parse alone, no join and no reduction).

The files are generated once into ``$CAPADVISOR_BENCH_DIR`` (default: the system's temporary folder,
``capadvisor-bench-series-<vms>x<days>``; about 2.7 GB for the full size) and kept for the next run:
time-major rows as collectors write them (every VM at one step, then the next step), a daily wave with
per-VM phase, noise and bursts.

Each measurement runs in a fresh Python process; memory is the process's peak resident size (Linux
/proc VmHWM, everything the process held: interpreter, libraries, data). Targets: < 60 s and < 1 GB.
Run: timeout 1800 .venv/bin/python tests/benchmarks/bench_series.py [--vms N] [--days D]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.child import PRELUDE  # noqa: E402

TARGET_S, TARGET_MB = 60.0, 1024.0
STEP_S = 300
T0 = 1_767_225_600  # 2026-01-01 00:00 UTC


def write_files(folder: Path, vms: int, days: int, seed: int = 7) -> tuple[Path, Path]:
    """The inventory template and the series CSV (kept when already there)."""
    import numpy as np
    import pyarrow as pa
    from pyarrow import csv

    folder.mkdir(parents=True, exist_ok=True)
    inv, series = folder / "inventory.csv", folder / "series.csv"
    done = folder / "complete"
    if done.exists():
        return inv, series
    rng = np.random.default_rng(seed)
    names = np.array([f"{['web', 'app', 'db', 'batch'][i % 4]}-{i:05d}" for i in range(vms)])
    vcpus = rng.choice([1, 2, 2, 4, 4, 8, 16], size=vms)
    ram = rng.choice([2, 4, 8, 8, 16, 32], size=vms)
    inv.write_text("name,vcpus,ram_gib\n" + "".join(f"{n},{c},{r}\n" for n, c, r in zip(names, vcpus, ram, strict=True)))
    phase, level = rng.uniform(0, 2 * np.pi, vms), rng.uniform(5, 60, vms)
    dictionary = pa.array(names.tolist())
    per_day = 86400 // STEP_S
    with csv.CSVWriter(series, pa.schema([("vm", pa.string()), ("timestamp", pa.int64()), ("cpu_pct", pa.float64()),
                                          ("mem_pct", pa.float64())]),
                       write_options=csv.WriteOptions(quoting_style="none")) as w:
        for day in range(days):
            steps = np.arange(day * per_day, (day + 1) * per_day)
            wave = np.sin(2 * np.pi * steps[:, None] / per_day + phase[None, :])
            cpu = level[None, :] * (1 + 0.6 * wave) + rng.normal(0, 3, (len(steps), vms))
            cpu = np.where(rng.random((len(steps), vms)) < 0.01, 95.0, cpu)  # bursts
            mem = 40 + 20 * (level[None, :] / 60) + rng.normal(0, 1, (len(steps), vms))
            idx = np.tile(np.arange(vms, dtype=np.int32), len(steps))
            w.write_table(pa.table({
                "vm": pa.DictionaryArray.from_arrays(pa.array(idx), dictionary).cast(pa.string()),
                "timestamp": np.repeat(T0 + STEP_S * steps, vms),
                "cpu_pct": np.round(np.clip(cpu, 0, 100), 1).ravel(),
                "mem_pct": np.round(np.clip(mem, 0, 100), 1).ravel()}))
    done.write_text("ok\n")
    return inv, series


CHILD = PRELUDE + r"""t0, c0 = time.perf_counter(), time.process_time()
if {what!r} == "loadtxt":
    import numpy as np
    rows = 0
    with open({series!r}) as fh:
        fh.readline()
        while True:
            part = np.loadtxt(fh, delimiter=",", usecols=(1, 2, 3), max_rows=1_000_000, ndmin=2)
            rows += len(part)
            if len(part) < 1_000_000:
                break
    out = {{"points": rows}}
else:
    from advisor.inventory import Inventory
    from knowledge.inventory import read_inventory
    inv = Inventory(read_inventory([{inv!r}]), "auto")
    sizing = inv.add_series([{series!r}], 95)
    data = inv.to_scenario()
    out = {{"points": sizing.store.files[0].samples, "vms": sizing.estate["vms"], "groups": len(inv.groups),
            "p95_cores": sizing.estate["busy_cores"]["p95"], "own_p95_cores": sizing.estate["sum_of_vm_percentiles_cores"],
            "steps": sizing.estate["steps"], "workloads": len(data["workloads"])}}
out["seconds"] = time.perf_counter() - t0
out["cpu_seconds"] = time.process_time() - c0
out["peak_mb"] = rss("VmHWM")
print(json.dumps(out))
"""


def measure(what: str, inv: Path, series: Path) -> dict:
    code = CHILD.format(root=str(ROOT), what=what, inv=str(inv), series=str(series))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--vms", type=int, default=10_000)
    ap.add_argument("--days", type=int, default=30)
    args = ap.parse_args(argv)
    folder = Path(os.environ.get("CAPADVISOR_BENCH_DIR", tempfile.gettempdir())) / \
        f"capadvisor-bench-series-{args.vms}x{args.days}"
    t0 = time.perf_counter()
    inv, series = write_files(folder, args.vms, args.days)
    print(f"series: {series} ({series.stat().st_size / 1e9:.2f} GB; ready in {time.perf_counter() - t0:.1f} s)")
    ours = measure("import", inv, series)
    base = measure("loadtxt", inv, series)
    print(f"numpy.loadtxt bare read (numbers only, 1M-line chunks):  {base['seconds']:.1f} s "
          f"({base['cpu_seconds']:.1f} s CPU), peak {base['peak_mb']:.0f} MB, {base['points']:,} points")
    print(f"capadvisor inventory + series read and reduced:  {ours['seconds']:.1f} s ({ours['cpu_seconds']:.1f} s CPU), "
          f"peak {ours['peak_mb']:.0f} MB, {ours['points']:,} points, {ours['vms']} VMs in {ours['groups']} groups, "
          f"{ours['steps']} steps; p95 of the summed series {ours['p95_cores']:g} busy cores vs the sum of the VMs' own "
          f"p95 {ours['own_p95_cores']:g}")
    load = os.getloadavg()[0]
    if load > (os.cpu_count() or 1):
        print(f"note: load average {load:.1f} on {os.cpu_count()} CPUs: wall times are inflated")
    print(f"ratio ours/loadtxt: time {ours['seconds'] / base['seconds']:.2f}x, "
          f"memory {ours['peak_mb'] / max(base['peak_mb'], 1):.2f}x")
    ok_t, ok_m = ours["seconds"] < TARGET_S, ours["peak_mb"] < TARGET_MB
    print(f"{'PASS' if ok_t else 'FAIL'} time {ours['seconds']:.1f} s (target < {TARGET_S:g} s)")
    print(f"{'PASS' if ok_m else 'FAIL'} memory {ours['peak_mb']:.0f} MB (target < {TARGET_MB:g} MB)")
    return 0 if ok_t and ok_m else 1


if __name__ == "__main__":
    raise SystemExit(main())
