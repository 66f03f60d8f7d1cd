"""`capadvisor bench-plan` through the real CLI entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from tests.app import test_cli_kb

kb_path = test_cli_kb.kb_path  # fixture: the compiled knowledge base

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture()
def run(capsys, kb_path):
    def _run(*args):
        code = main(["bench-plan", "--kb", str(kb_path), *args])
        out = capsys.readouterr()
        return code, out.out, out.err
    return _run


def test_text_summary_and_files(run, tmp_path):
    code, out, err = run(str(EXAMPLES / "scenario.yaml"), "-o", str(tmp_path), "--site", "dc1")
    assert code == 0, err
    assert out.startswith("benchmark plan for Mixed cluster")
    assert "site 'dc1' has no imports yet" in out
    plan = json.loads((tmp_path / "plan.json").read_text())
    assert plan["site"] == "dc1" and plan["device_class"] == "ssd"
    assert all((tmp_path / r["job_file"]).is_file() for r in plan["runs"] if r["job_file"])
    assert 'SITE=${SITE:-dc1}' in (tmp_path / "run-all.sh").read_text()
    readme = (tmp_path / "README.md").read_text()
    assert "Run it on a disk of the kind the hosts have (SSD)" in readme and "## What no site benchmark changes" in readme


def test_json_output(run):
    code, out, _ = run(str(EXAMPLES / "cassandra-containers.toml"), "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["device_class"] == "nvme" and data["calibrated"] and data["status"] is None


def test_bad_input(run, tmp_path):
    code, _, err = run(str(tmp_path / "none.yaml"))
    assert code == 2 and "none.yaml" in err
    code, _, err = run(str(EXAMPLES / "small-lab.json"), "--site", "x", "--site-db", str(tmp_path / "no.sqlite"))
    assert code == 2 and "no such file" in err
