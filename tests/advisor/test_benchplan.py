"""The benchmark plan: the engine decides which figures depend on the site; the runs cover
exactly the site figures needed, at the workloads' request sizes and directions, with direct I/O;
every fio job file passes ``fio --parse-only`` and run-all.sh ``bash -n``."""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess

import pytest

from advisor.benchplan import DATABASES, MEASURES, SITE_FIGURES, make_plan, probe_figures, small_files
from advisor.calibration import Calibration, device_class
from advisor.engine import advise
from advisor.export.check import bash_syntax
from tests.advisor.examples import EXAMPLES, SCENARIOS

FIO = shutil.which("fio")


def fio_parse(path) -> subprocess.CompletedProcess:
    env = {**os.environ, "TARGET_DIR": "/tmp", "SIZE": "16M", "RUNTIME": "2"}
    return subprocess.run([FIO, "--parse-only", str(path)], capture_output=True, text=True, env=env, timeout=60)


@pytest.fixture(scope="module")
def plans(advice_of, session_kb):
    return {p.name: make_plan(advice_of(p), kb=session_kb, site="lab") for p in SCENARIOS}


def test_probe_figures_are_of_the_kind_they_stand_for():
    for kind in ("hdd", "ssd", "nvme"):
        assert device_class(probe_figures(kind)) == kind == device_class(probe_figures(kind, reads_faster=False))


def test_databases_are_no_small_file_workloads():
    from advisor.scenario import IOProfile, Workload

    io = IOProfile(pattern="random", block_size_kib=8, intensity="high")
    assert small_files(Workload("mail", io=io))
    assert not small_files(Workload("orders", application="PostgreSQL", io=io))
    assert not small_files(Workload("orders-db", io=io))
    assert not small_files(Workload("mail", io=IOProfile(pattern="random", block_size_kib=8, intensity="low")))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.name)
def test_every_job_file_parses_and_run_all_is_valid_shell(plans, scenario, tmp_path):
    assert FIO, "fio is installed by ./run (TEST_PACKAGES)"
    plan = plans[scenario.name]
    plan.write(tmp_path)
    jobs = sorted((tmp_path / "jobs").glob("*.fio"))
    assert jobs and len(jobs) == sum(r.tool in ("fio", "fio-profile") for r in plan.runs)
    for job in jobs:
        proc = fio_parse(job)
        assert proc.returncode == 0, proc.stderr
        text = job.read_text()
        assert "direct=1" in text and "ioengine=libaio" in text and "time_based=1" in text
    assert bash_syntax((tmp_path / "run-all.sh").read_text()) == (True, "")
    assert os.access(tmp_path / "run-all.sh", os.X_OK)
    data = json.loads((tmp_path / "plan.json").read_text())
    assert data["site"] == "lab" and data["device_class"] == plan.deps.device


def test_fio_parse_only_refuses_a_broken_job(tmp_path):
    bad = tmp_path / "bad.fio"
    bad.write_text("[global]\ndirectory=${TARGET_DIR}\n[j]\nrw=sideways\nbs=4k\n")
    assert fio_parse(bad).returncode != 0


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.name)
def test_the_engine_decides_what_the_site_calibrates(plans, advice_of, session_kb, scenario):
    plan = plans[scenario.name]
    deps = plan.deps
    assert deps.device == advice_of(scenario).scenario.hosts.disks[0].kind
    probed = advise(scenario, kb=session_kb, calibration=Calibration("probe", probe_figures(deps.device)))
    for ref, fields in deps.calibrated.items():
        fig = probed.find(ref.decision, ref.scope).expected[ref.figure]
        assert fig["basis"].startswith("site:")
        assert set(fields) <= set(SITE_FIGURES)
    assert deps.calibrated, "every example has figures a site calibrates"
    for ref in deps.documents:
        fig = probed.find(ref.decision, ref.scope).expected[ref.figure]
        assert not str(fig.get("basis", "")).startswith("site:")


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.name)
def test_the_runs_are_the_smallest_set_that_measures_what_is_needed(plans, advice_of, scenario):
    plan = plans[scenario.name]
    sc = advice_of(scenario).scenario
    disk_runs = [r for r in plan.runs if r.tool in ("fio", "sysbench-fileio")]
    measured = {f for r in disk_runs for f in r.measures}
    assert measured == plan.deps.needed()
    keys = [(r.pattern, r.direction, r.block_kib) for r in disk_runs]
    assert len(keys) == len(set(keys)), "two runs measure the same thing"
    for r in disk_runs:
        others = {f for o in disk_runs if o is not r for f in o.measures}
        profile = any(w.io.block_size_kib == r.block_kib and r.pattern in ("random", "sequential")
                      and (w.io.pattern == r.pattern or w.io.pattern == "mixed")
                      and (w.io.read_share > 0 if r.direction == "read" else w.io.read_share < 1) for w in sc.workloads)
        # each run is needed: it measures a figure no other run does, or it is a workload's own profile
        assert set(r.measures) - others or (r.tool == "fio" and profile)
        if r.tool == "fio":
            assert profile and set(r.measures) == set(MEASURES[(r.pattern, r.direction)]) & plan.deps.needed()
    assert sum(r.tool == "sysbench-cpu" for r in plan.runs) == 1
    # the workloads' own mixes (read share, pattern, request size): optional, calibrating nothing
    mixes = {(w.io.pattern, w.io.block_size_kib, round(w.io.read_share * 100)) for w in sc.workloads
             if 0 < w.io.read_share < 1}
    profiles = [r for r in plan.runs if r.tool == "fio-profile"]
    assert all(r.optional and not r.measures and not r.calibrates for r in profiles)
    assert {(r.pattern, r.block_kib, round(r.read_share * 100)) for r in profiles} == mixes
    for r in profiles:
        assert f"rwmixread={round(r.read_share * 100)}" in plan.files[r.job_file]
        assert 'if [ "${PROFILES:-0}" = "1" ]; then' in plan.files["run-all.sh"]
    assert not [r for r in plan.runs if r.optional and r.tool != "fio-profile"]
    small = [w.name for w in sc.workloads if w.io.pattern == "random" and w.io.block_size_kib <= 16
             and w.io.intensity != "low" and not DATABASES.search(f"{w.application} {w.name}")]
    assert sorted(w for r in plan.runs if r.tool == "postmark" for w in r.workloads) == sorted(small)


def test_uncovered_site_figures_get_a_sysbench_fileio_run(session_kb):
    sc = json.loads((EXAMPLES / "small-lab.json").read_text())
    for w in sc["workloads"]:
        w["io"]["read_share"] = 1.0  # nobody writes: the write figures come from sysbench fileio
    plan = make_plan(advise(sc, kb=session_kb), kb=session_kb)
    fileio = [r for r in plan.runs if r.tool == "sysbench-fileio"]
    assert fileio and all(r.direction == "write" for r in fileio)
    assert "--file-extra-flags=direct" in plan.files["run-all.sh"]


def test_no_local_disks_means_nothing_to_calibrate(session_kb):
    sc = json.loads((EXAMPLES / "small-lab.json").read_text())
    sc = copy.deepcopy(sc)
    sc["hosts"]["disks"] = []
    sc["hosts"]["shared_storage"] = [{"kind": "nfs", "network_gbps": 10}]
    plan = make_plan(advise(sc, kb=session_kb), kb=session_kb)
    assert plan.deps.reason and not plan.deps.calibrated
    assert not [r for r in plan.runs if r.tool in ("fio", "sysbench-fileio")]
    assert "no local disks" in plan.files["README.md"]


@pytest.mark.timeout(120)
def test_a_profile_job_runs_and_imports_with_its_read_share(plans, tmp_path):
    """The optional mix of a workload (small-lab's ci-runners: random 4 KiB, 40 % reads), run for
    real with fio on this machine's disk (8 MB, 1 s) and read by the fio importer."""
    from knowledge.importers import fio as fio_importer

    plan = plans["small-lab.json"]
    run = next(r for r in plan.runs if r.tool == "fio-profile" and r.read_share == 0.4)
    job = tmp_path / "job.fio"
    job.write_text(plan.files[run.job_file])
    env = {**os.environ, "TARGET_DIR": str(tmp_path), "SIZE": "8M", "RUNTIME": "1"}
    proc = subprocess.run([FIO, "--output-format=json", str(job)], capture_output=True, text=True, env=env,
                          timeout=100)
    assert proc.returncode == 0, proc.stderr
    parsed = fio_importer.parse(proc.stdout, "profile.json")
    shares = {float(m.factors["read_share"]) for m in parsed.measurements if "read_share" in m.factors}
    assert shares == {40.0}
    assert {m.factors.get("access_pattern") for m in parsed.measurements if m.metric == "iops"} == {"random"}
    assert {m.factors.get("operation") for m in parsed.measurements if m.metric == "iops"} == {"read", "write"}
