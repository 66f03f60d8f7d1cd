"""The held-out figures are the same whichever kernel the linear algebra runs on.

Was: doc 001's cache-mode fits stopped short of their optimum on flat ground (restarted from where it
stopped, a coefficient moved by 200 at the same cost), so the path, and the figures, followed the
rounding of the BLAS kernel: on an AVX-512 kernel two Postmark values of 001-T3 lay inside their
interval, on the others 2 % outside (92 against 91 of 99 held out; CI and a developer's machine
disagreed). OpenBLAS takes its kernel from ``OPENBLAS_CORETYPE``; the AVX-512 one needs the CPU's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(300)


def _avx512() -> bool:
    try:
        return "avx512f" in Path("/proc/cpuinfo").read_text()
    except OSError:
        return False


def _figures(tmp_path: Path, kernel: str) -> dict[str, dict]:
    out = tmp_path / f"{kernel}.json"
    env = dict(os.environ, OPENBLAS_CORETYPE=kernel, XDG_CACHE_HOME=str(tmp_path / f"cache-{kernel}"))
    subprocess.run([sys.executable, "-m", "app", "replay", "--held-out", "--document", "001", "--format", "json",
                    "-o", str(out)], cwd=ROOT, env=env, check=True, timeout=240, capture_output=True)
    data = json.loads(out.read_text())
    return {c["id"]: c["expected"] for e in data["experiments"] for c in e["cases"]}


@pytest.mark.skipif(not _avx512(), reason="the kernel whose rounding moved the fits needs AVX-512 (avx512f)")
def test_doc_001_held_out_figures_are_the_same_on_an_avx512_kernel_and_an_avx2_one(tmp_path):
    wide, narrow = _figures(tmp_path, "SkylakeX"), _figures(tmp_path, "Haswell")
    assert wide.keys() == narrow.keys() and len(wide) > 50
    for case, fig in wide.items():
        other = narrow[case]
        if fig is None or other is None:
            assert fig == other, case
            continue
        assert fig["value"] == pytest.approx(other["value"], rel=1e-4), (case, fig, other)
        for end in ("low", "high"):  # an interval's end is a quantile of many fits' residuals: within
            # 1 % (seen: the high ends of 001-T4 and T5 0.6-0.7 % apart; before, the low ends 2.5 %)
            assert fig[end] == pytest.approx(other[end], rel=1e-2), (case, end, fig, other)
