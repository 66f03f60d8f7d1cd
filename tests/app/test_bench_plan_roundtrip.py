"""The bench-plan loop end to end on this machine's real disk: plan -> run-all.sh (fio, sysbench
fileio and cpu, PostMark; tiny sizes, bounded time) -> capadvisor import -> the advice's figures
that the plan said a site calibrates now have the site as their basis, the others stay on the
documents."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.calibration import device_class
from knowledge.sites import summarize_site
from knowledge.userdb import UserDatabase
from tests import model_cache
from tests.app import test_cli_kb

kb_path = test_cli_kb.kb_path  # fixture: the compiled knowledge base

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
BIN = Path(sys.executable).parent
SITE = "this-machine"


def scenario(tmp_path: Path, kind: str) -> Path:
    """small-lab with read-only workloads: the plan then needs fio, sysbench fileio (nobody writes
    randomly, the advice still reads the random-write figure), sysbench cpu and PostMark."""
    sc = json.loads((EXAMPLES / "small-lab.json").read_text())
    for w in sc["workloads"]:
        w["io"]["read_share"] = 1.0
    sc["hosts"]["disks"][0]["kind"] = kind
    path = tmp_path / f"scenario-{kind}.json"
    path.write_text(json.dumps(sc))
    return path


#: time limits, generous on purpose: alone the whole test takes about 40 s, but a shared machine
#: under load runs it ten times slower (each capadvisor process imports and trains its models, the
#: tools share the disk); a limit hit then is the machine's load, not a defect
COMMAND_LIMIT_S, RUN_ALL_LIMIT_S, TEST_LIMIT_S = 600, 900, 1800


def capadvisor(*args: str, kb: Path) -> dict | str:
    env = {**os.environ, "PATH": f"{BIN}:{os.environ.get('PATH', '')}"}
    proc = subprocess.run([str(BIN / "capadvisor"), *args, "--kb", str(kb)], capture_output=True, text=True,
                          env=env, timeout=COMMAND_LIMIT_S)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout) if "json" in args else proc.stdout


@pytest.mark.timeout(TEST_LIMIT_S)
def test_plan_run_import_and_the_basis_moves_to_the_site(tmp_path, kb_path):
    plan_dir, data = tmp_path / "plan", tmp_path / "data"
    model_cache.warm(kb_path)  # each capadvisor process loads the session's families instead of training
    first = capadvisor("bench-plan", str(scenario(tmp_path, "ssd")), "--site", SITE, "-o", str(plan_dir),
                       "--format", "json", kb=kb_path)
    tools = {r["tool"] for r in first["runs"] if not r["optional"]}
    assert tools == {"fio", "sysbench-fileio", "sysbench-cpu", "postmark"}
    assert first["status"] is None  # nothing imported yet

    env = {**os.environ, "PATH": f"{BIN}:{os.environ.get('PATH', '')}", "SIZE": "16M", "RUNTIME": "2",
           "LAYOUT": "60", "CPU_TIME": "1"}
    proc = subprocess.run([str(plan_dir / "run-all.sh"), str(data)], capture_output=True, text=True, env=env,
                          timeout=RUN_ALL_LIMIT_S)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for run in first["runs"]:
        assert (plan_dir / run["output"]).exists() != run["optional"], run["name"]  # profiles: PROFILES=1
        if not run["optional"]:
            assert (plan_dir / run["output"]).stat().st_size > 0, run["name"]
    assert list(data.iterdir()) == [], "run-all.sh removes its data files"
    assert f"imported into site '{SITE}'" in proc.stdout

    with UserDatabase() as db:
        summary = summarize_site(db, SITE)
        imported = {Path(rec.path).name for rec in db.imports(SITE)}
    assert imported == {Path(r["output"]).name for r in first["runs"] if not r["optional"]}
    measured = {k: v for k, v in summary.figures().items() if v}
    assert set(measured) >= {f for r in first["runs"] for f in r["measures"]}
    kind = device_class(measured)
    assert kind in ("hdd", "ssd", "nvme"), f"direct I/O measured more than one disk delivers: {measured}"

    # the hosts declared with this machine's kind of disk: the plan is the same, and now it calibrates
    second = capadvisor("bench-plan", str(scenario(tmp_path, kind)), "--site", SITE, "--format", "json", kb=kb_path)
    assert [r["name"] for r in second["runs"]] == [r["name"] for r in first["runs"]]
    promised = {(c["decision"], c["scope"], c["figure"]) for c in second["calibrated"]}
    status = second["status"]
    assert status["basis"] == f"site:{SITE}" and status["rejected"] is None
    on_site = {(s["decision"], s["scope"], s["figure"]) for s in status["site_calibrated"]}
    assert promised and promised == on_site
    assert all(s["basis"].startswith(f"site:{SITE}") for s in status["site_calibrated"])
    stays = {(d["decision"], d["scope"], d["figure"]) for d in second["documents_only"]}
    assert all(not s["basis"].startswith("site:") for s in status["not_site_calibrated"])
    assert stays <= {(s["decision"], s["scope"], s["figure"]) for s in status["not_site_calibrated"]}

    # and the advice itself says so, figure by figure
    advice = capadvisor("advise", str(scenario(tmp_path, kind)), "--site", SITE, "--format", "json", kb=kb_path)
    assert advice["basis"] == f"site:{SITE}"
    by_ref = {(r["decision"], r["scope"], k): f for r in advice["recommendations"] for k, f in r["expected"].items()}
    for ref in promised:
        assert by_ref[ref]["basis"].startswith(f"site:{SITE}"), ref
