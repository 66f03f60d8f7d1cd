"""Benchmark: what the start-up imports (issue #30: scikit-learn not on the start-up path).

In a fresh interpreter: the probe of tests/app/test_startup_imports.py (``import app.gui``, then its
first window built and shown, offscreen, in temporary user folders), timed from process start, and which
of that test's heavy modules (scikit-learn, SciPy, openpyxl, Jinja2, the design search, numpy,
pyqtgraph) were loaded by then; baseline, same run: importing scikit-learn's linear models alone in a
fresh interpreter (what every start would pay if the first window pulled them in); best of 3 each.
Target: none of them loaded.
Run: .venv/bin/python tests/benchmarks/bench_imports.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.app.test_startup_imports import HEAVY, PROBE, _loaded  # noqa: E402  (declared there)
from tests.benchmarks.child import PRELUDE  # noqa: E402

CHILD = PRELUDE + r"""t0 = time.perf_counter()
import {module}
print(json.dumps({{"seconds": time.perf_counter() - t0, "modules": sorted(sys.modules)}}))
"""


def measure(module: str, runs: int = 3) -> dict:
    """The fastest of ``runs`` fresh imports of ``module``: seconds and the modules then loaded."""
    best: dict | None = None
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT), module=module)], cwd=ROOT,
                             capture_output=True, text=True, timeout=300, check=True).stdout
        res = json.loads(out.strip().splitlines()[-1])
        if best is None or res["seconds"] < best["seconds"]:
            best = res
    assert best is not None
    return best


def first_window(runs: int = 3) -> tuple[float, list[str]]:
    """The fastest of ``runs`` starts of the probe (seconds from process start to its output) and the
    heavy modules loaded by the time the first window was shown."""
    best, heavy = float("inf"), []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="capadvisor-bench-") as home:
            env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
            for kind in ("DATA", "CACHE", "CONFIG"):
                env[f"CAPADVISOR_{kind}_DIR"] = str(Path(home) / kind.lower())
            t0 = time.perf_counter()
            out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                                 timeout=300, check=True).stdout
            took = time.perf_counter() - t0
        seen = json.loads(out.strip().splitlines()[-1])
        best, heavy = min(best, took), _loaded(seen["import"] + seen["window"])
    return best, heavy


def main() -> int:
    took, loaded = first_window()
    sklearn = measure("sklearn.linear_model")
    heavy = sorted({next(h for h in HEAVY if m == h or m.startswith(h + ".")) for m in loaded})
    ok = "OK" if not heavy else "MISSED"
    print(f"start-up imports: app.gui and its first window {took:.3f} s, heavy modules loaded: "
          f"{', '.join(heavy) or 'none'} (importing scikit-learn alone {sklearn['seconds']:.3f} s) "
          f"(target none of {', '.join(HEAVY)} on the start-up path: {ok})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
