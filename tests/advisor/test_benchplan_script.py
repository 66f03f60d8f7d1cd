"""run-all.sh as a site team runs it: RESULTS set in the environment, a target folder with ':'
in its name (fio splits directory= there), and what it says about the disk; the plan's README
tables with any workload name; a second plan into the same folder (real fio and sysbench, tiny
sizes)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from advisor.benchplan import BenchPlan, _files, make_plan
from tests.advisor.examples import EXAMPLES

pytestmark = pytest.mark.skipif(not (shutil.which("fio") and shutil.which("sysbench")),
                                reason="fio and sysbench (Debian packages) run the plan")


@pytest.fixture(scope="module")
def small_plan(session_kb):
    from advisor.engine import advise

    advice = advise(EXAMPLES / "small-lab.json", kb=session_kb)
    return make_plan(advice, kb=session_kb, site="lab")


def _subset(plan: BenchPlan, tools: tuple[str, ...]) -> BenchPlan:
    """The plan with one run of each of ``tools`` (the script the plan writes for them)."""
    runs, seen = [], set()
    for r in plan.runs:
        if r.tool in tools and r.tool not in seen:
            runs.append(r)
            seen.add(r.tool)
    sub = BenchPlan(plan.scenario, plan.site, plan.deps, runs)
    sub.files = _files(sub, None)
    return sub


@pytest.mark.timeout(240)
def test_results_from_the_environment_and_a_colon_in_the_target(tmp_path, small_plan):
    plan = _subset(small_plan, ("fio", "sysbench-cpu"))
    plan_dir, results, data = tmp_path / "plan", tmp_path / "my results", tmp_path / "disk:a b"
    plan.write(plan_dir)
    env = {**os.environ, "RESULTS": str(results), "SIZE": "4M", "RUNTIME": "1", "LAYOUT": "60", "CPU_TIME": "1",
           "IMPORT": "0"}
    proc = subprocess.run([str(plan_dir / "run-all.sh"), str(data)], capture_output=True, text=True, env=env,
                          timeout=220)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "failed" not in proc.stderr
    for r in plan.runs:
        out = results / Path(r.output).name
        assert out.is_file() and out.stat().st_size > 0, r.name
    fio = next(r for r in plan.runs if r.tool == "fio")
    report = json.loads((results / Path(fio.output).name).read_text())
    assert report["jobs"][0]["jobname"] == fio.name and not report["jobs"][0]["error"]
    assert not (plan_dir / "results").exists() or not list((plan_dir / "results").iterdir())
    assert list(data.iterdir()) == [], "the data files are removed"
    assert f"results in {results}" in proc.stdout


def test_the_script_does_not_guess_the_disk_kind(small_plan):
    """The kernel's rotational flag said 'rotating' on a VM whose disk the import classifies as
    NVMe: the script leaves the classification to the import, and says so."""
    script = small_plan.files["run-all.sh"]
    assert "rotating" not in script and "lsblk" not in script
    assert "capadvisor import classifies the disk" in script


def test_readme_tables_escape_what_markdown_reads(session_kb, tmp_path):
    from advisor.engine import advise

    sc = json.loads((EXAMPLES / "small-lab.json").read_text())
    sc["workloads"][0]["name"] = "web | x `y` *z* <b>"
    plan = make_plan(advise(sc, kb=session_kb), kb=session_kb, site="my site")
    rows = [line for line in plan.files["README.md"].splitlines() if line.startswith("| `")]
    assert rows
    for row in rows:  # 4 cells: 5 unescaped pipes, never more
        assert row.replace("\\|", "").count("|") == 5, row
    text = plan.files["README.md"]
    assert "web \\| x \\`y\\` \\*z\\* &lt;b&gt;" in text and "<b>" not in text
    assert "capadvisor import --site 'my site' results/*.json" in text


def test_a_second_plan_removes_only_the_job_files_of_the_first(session_kb, tmp_path):
    from advisor.engine import advise

    out = tmp_path / "plan"
    first = make_plan(advise(EXAMPLES / "scenario.yaml", kb=session_kb), kb=session_kb, site="s")
    first.write(out)
    mine = out / "jobs" / "my-own.fio"
    mine.write_text("; the site team's own job\n")
    (out / "results").mkdir()
    (out / "results" / "fio-old.json").write_text("{}")
    second = make_plan(advise(EXAMPLES / "small-lab.json", kb=session_kb), kb=session_kb, site="s")
    second.write(out)
    on_disk = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()}
    gone = set(first.files) - set(second.files)
    assert gone, "the two plans differ"
    assert not gone & on_disk
    assert set(second.files) <= on_disk
    assert {"jobs/my-own.fio", "results/fio-old.json", "plan.json"} <= on_disk
    assert json.loads((out / "plan.json").read_text())["files"] == sorted(second.files)
