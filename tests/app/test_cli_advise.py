"""`capadvisor advise ...` through the real CLI entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from tests.app import test_cli_kb

kb_path = test_cli_kb.kb_path  # fixture: the compiled knowledge base

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "scenario.yaml"


@pytest.fixture()
def run(capsys, kb_path):
    def _run(*args):
        code = main(["advise", "--kb", str(kb_path), *args])
        out = capsys.readouterr()
        return code, out.out, out.err
    return _run


def test_json_to_stdout(run):
    code, out, err = run(str(EXAMPLE))
    assert code == 0, err
    data = json.loads(out)
    assert data["basis"] == "scenario hardware (per-kind defaults)"  # the example's SSDs at their defaults
    # no site: the calibration names the same basis as the advice (not "documents" next to it)
    assert data["calibration"]["basis"] == data["basis"]
    decisions = [r["decision"] for r in data["recommendations"]]
    assert decisions[0] == "hypervisor" and "host_count" in decisions and "vm_period_budget" in decisions
    over = next(r for r in data["recommendations"] if r["decision"] == "vcpu_overallocation")
    assert isinstance(over["value"], float) and over["choice"]


@pytest.mark.parametrize("fmt,marker", [("md", "# Capacity advice:"), ("html", "<!DOCTYPE html>")])
def test_markdown_and_html_written_atomically(run, tmp_path, fmt, marker):
    target = tmp_path / f"report.{fmt}"
    code, out, err = run(str(EXAMPLE), "--format", fmt, "-o", str(target))
    assert code == 0 and out == "" and "wrote" in err
    text = target.read_text()
    assert text.startswith(marker)
    assert "cache_mode" in text.replace("cache mode", "cache_mode")
    assert not list(tmp_path.glob(".report*"))  # no temporary file left behind
    if fmt == "html":
        for external in ("<script", "<link", "http://", "https://", "src="):
            assert external not in text


def test_invalid_scenario_lists_every_problem_without_traceback(run, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("hosts: {cpu: {cores_per_socket: 4}, ram_gib: 16}\n"
                   "workloads:\n  - {name: a, vms: 0, vcpus: 1, ram_gib: 1}\n  - {name: b, vms: 1, vcpus: 0, ram_gib: 1}\n")
    code, out, err = run(str(bad))
    assert code == 2 and out == ""
    assert "workloads[0].vms: must be >= 1" in err and "workloads[1].vcpus: must be >= 1" in err
    assert "Traceback" not in err


def test_missing_file_and_unknown_site(run, tmp_path):
    code, _, err = run(str(tmp_path / "nope.yaml"))
    assert code == 2 and "cannot read scenario" in err
    db = tmp_path / "sites.sqlite"
    from knowledge.userdb import UserDatabase

    UserDatabase(db).close()
    code, _, err = run(str(EXAMPLE), "--site-db", str(db), "--site", "lab")
    assert code == 2 and "no site named 'lab'" in err
    code, _, err = run(str(EXAMPLE), "--site-db", str(tmp_path / "missing.sqlite"))
    assert code == 2 and "no such file" in err


def test_help_names_the_options(capsys):
    with pytest.raises(SystemExit):
        main(["advise", "--help"])
    text = capsys.readouterr().out
    for option in ("--site-db", "--site", "--format", "-o"):
        assert option in text


def _strict(text: str):
    """json.loads that refuses the non-standard Infinity, -Infinity and NaN tokens."""
    def refuse(token):
        raise ValueError(f"non-standard JSON token {token}")
    return json.loads(text, parse_constant=refuse)


def _rt_scenario(tmp_path, tasks: list[tuple[str, int, int]], overhead: int = 0) -> str:
    """A one-workload scenario file whose VM carries ``tasks`` (name, period, wcet in us)."""
    rows = "\n".join(f"        - {{name: {n}, period: {p}, wcet: {c}}}" for n, p, c in tasks)
    sc = tmp_path / "rt.yaml"
    sc.write_text("version: 1\nhosts: {cpu: {cores_per_socket: 8}, ram_gib: 64}\nworkloads:\n"
                  "  - name: rt\n    vms: 1\n    vcpus: 1\n    ram_gib: 2\n    realtime:\n"
                  f"      time_unit: us\n      overhead: {overhead}\n      tasks:\n{rows}\n")
    return str(sc)


def _period_budget(out: str) -> dict:
    return next(r for r in _strict(out)["recommendations"] if r["decision"] == "vm_period_budget")


def test_a_realtime_vm_needing_a_whole_core_gets_finite_standard_json(run, tmp_path):
    """Utilization exactly 1: only a whole core works. The JSON stays standard (no Infinity) and the
    choice says dedicated core with a finite nominal period (the shortest task period)."""
    code, out, err = run(_rt_scenario(tmp_path, [("a", 1000, 500), ("b", 2000, 1000)]))
    assert code == 0, err
    rec = _period_budget(out)
    assert rec["choice"] == "dedicated core (T_VM=C_VM=1000 us)" and rec["value"] == 1000.0
    assert rec["details"]["dedicated_core"] is True
    assert rec["expected"]["share"]["value"] == 1.0
    assert any("dedicated core" in w for w in rec["warnings"])


def test_headroom_stays_below_a_whole_core_when_a_smaller_share_works(run, tmp_path):
    """Utilization 0.6 with a 20 us switching overhead: twice the utilization (c11-C07) would be a whole
    core; the smallest share that works is about 0.70, so the advice keeps it halfway to 1 (about 0.85)
    with a finite period instead of T_VM = infinity."""
    code, out, err = run(_rt_scenario(tmp_path, [("a", 1000, 200), ("b", 2000, 400), ("c", 5000, 1000)], 20))
    assert code == 0, err
    rec = _period_budget(out)
    share = rec["expected"]["share"]["value"]
    assert 0.70 < share < 0.9 and rec["choice"].startswith("T_VM=")
    assert 0 < rec["value"] < 5000 and rec["details"]["dedicated_core"] is False


def test_non_finite_numbers_are_written_as_null():
    from knowledge.infra import jsonout

    text = jsonout.dumps({"a": float("inf"), "b": [1.0, float("nan"), (2, -float("inf"))], "c": "inf"})
    assert _strict(text) == {"a": None, "b": [1.0, None, [2, None]], "c": "inf"}


def test_output_under_a_file_names_the_file_in_the_way(run, tmp_path):
    blocker = tmp_path / "report"
    blocker.write_text("not a folder")
    code, out, err = run(str(EXAMPLE), "-o", str(blocker / "advice.json"))
    assert code != 0 and out == ""
    assert f"{blocker} is a file, not a folder" in err and "Traceback" not in err
    assert blocker.read_text() == "not a folder"
