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
    assert data["basis"] == "documents"
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
