"""Prometheus ``query_range`` answers with samples missing inside a series (close-session4, "Still
missing"): they were summed as if complete, without a word. The reader now reports them as a warning of
the file, as the CSV reader reports its gaps: how many series and steps, the longest gap and where, the
series named; the sizing is unchanged (each VM's median fills its missing steps)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from knowledge.series import read_series

pytestmark = pytest.mark.timeout(60)

T0 = 1_700_000_000
STEPS = 48


def _answer(path: Path, missing: dict[str, set[int]], metric: str = "instance:node_cpu_utilisation:rate5m") -> Path:
    result = [{"metric": {"__name__": metric, "instance": f"{vm}:9100"},
               "values": [[T0 + 300 * t, str(0.1 + 0.01 * (t % 7))] for t in range(STEPS) if t not in gone]}
              for vm, gone in missing.items()]
    path.write_text(json.dumps({"status": "success", "data": {"resultType": "matrix", "result": result}}))
    return path


def test_gaps_inside_prometheus_series_are_counted_and_the_longest_named(tmp_path):
    path = _answer(tmp_path / "cpu.json", {"a": {5, 6, 7, 20}, "b": set(), "c": {10, 11}})
    store = read_series([path], ["a", "b", "c"])
    (w,) = store.files[0].warnings
    assert w.startswith("2 series miss samples inside their span (gaps longer than the 300 s step): 6 step(s) "
                        "missing in all; the longest, 3 step(s), in a cpu_pct after "), w
    assert "series with gaps: a cpu_pct, c cpu_pct;" in w and " b cpu_pct" not in w, w
    cpu = store.matrix("cpu_pct", np.array([0, 1, 2]))  # summed as before: the grid holds what the file holds
    assert int(np.isnan(cpu).sum()) == 6


def test_complete_series_and_a_series_starting_late_get_no_gap_warning(tmp_path):
    # a VM created during the window starts late: no sample is missing inside its own span
    path = _answer(tmp_path / "cpu.json", {"a": set(), "b": set(range(10))})
    assert read_series([path], ["a", "b"]).files[0].warnings == []


def test_the_inventory_warning_names_the_file(tmp_path, capsys):
    from app.cli import main

    vms = tmp_path / "vms.csv"
    vms.write_text("name,vcpus,ram_gib\na,2,4\nb,2,4\n")
    path = _answer(tmp_path / "cpu.json", {"a": set(range(3, 30)), "b": set()})
    assert main(["inventory", str(vms), str(path), "--format", "json", "--no-advise"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert any(w.startswith("cpu.json: 1 series misses samples") and "27 step(s)" in w for w in doc["warnings"]), \
        doc["warnings"]
