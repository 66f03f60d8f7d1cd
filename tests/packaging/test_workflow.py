"""The laptop builds (issue #33): the CI workflow passes the GitHub-workflow schema (check-jsonschema's
vendored copy, offline) and builds one folder and runs the frozen smoke test on Linux, Windows and
macOS; build.sh builds on Linux as before and names the command on Windows and macOS."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "build.yml"
PACKAGING = ROOT / "packaging"

pytestmark = pytest.mark.timeout(120)


def _check_jsonschema(path: Path) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("check-jsonschema")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "check_jsonschema"]
    return subprocess.run([*cmd, "--builtin-schema", "vendor.github-workflows", str(path)],
                          capture_output=True, text=True, timeout=100)


def test_the_workflow_passes_the_github_workflow_schema():
    res = _check_jsonschema(WORKFLOW)
    assert res.returncode == 0, res.stdout + res.stderr


def test_the_schema_check_catches_a_broken_workflow(tmp_path):
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    data["jobs"]["build"]["stepz"] = data["jobs"]["build"].pop("steps")
    broken = tmp_path / "build.yml"
    broken.write_text(yaml.safe_dump(data), encoding="utf-8")
    res = _check_jsonschema(broken)
    assert res.returncode != 0 and "stepz" in res.stdout


def test_the_matrix_builds_one_folder_and_smoke_tests_it_on_each_os():
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    job = data["jobs"]["build"]
    oses = job["strategy"]["matrix"]["os"]
    assert {o.split("-")[0] for o in oses} == {"ubuntu", "windows", "macos"}
    runs = [(s.get("if", ""), s.get("run", "")) for s in job["steps"]]
    assert any("runner.os == 'Linux'" in cond and "packaging/build.sh --onedir" in run for cond, run in runs)
    assert any("runner.os != 'Linux'" in cond and "packaging/build.py" in run for cond, run in runs)
    assert any("runner.os == 'Linux'" in cond and "packaging/test_frozen.sh dist" in run for cond, run in runs)
    assert any("runner.os != 'Linux'" in cond and "packaging/test_frozen.py dist" in run for cond, run in runs)
    assert '"CAPADVISOR_BUILD_ONEFILE": "0"' in (PACKAGING / "build.py").read_text(encoding="utf-8")


@pytest.mark.parametrize("system", ["Darwin", "MINGW64_NT-10.0-19045", "MSYS_NT-10.0", "CYGWIN_NT-10.0"])
def test_build_sh_names_the_command_on_windows_and_macos(tmp_path, system):
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "uname").write_text(f"#!/bin/sh\n[ \"$1\" = -m ] && echo x86_64 || echo '{system}'\n")
    (fake / "uname").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}", "PYTHON": str(tmp_path / "none")}
    res = subprocess.run(["bash", str(PACKAGING / "build.sh")], capture_output=True, text=True, env=env, timeout=60)
    assert res.returncode == 2
    assert "python packaging/build.py" in res.stderr and "python packaging/test_frozen.py dist" in res.stderr


def test_build_sh_on_linux_goes_on_to_build_as_before(tmp_path):
    if shutil.which("uname") is None or os.uname().sysname != "Linux" or os.uname().machine != "x86_64":
        pytest.skip("the Linux build runs on Linux x86-64 only")
    env = {**os.environ, "PYTHON": str(tmp_path / "no-python")}
    res = subprocess.run(["bash", str(PACKAGING / "build.sh")], capture_output=True, text=True, env=env, timeout=60)
    assert res.returncode == 1 and f"no Python at {tmp_path / 'no-python'}" in res.stderr  # past the OS check


def test_the_python_smoke_test_fails_a_failing_command_and_a_missing_build(tmp_path):
    script = str(PACKAGING / "test_frozen.py")
    res = subprocess.run([sys.executable, script, "--command", sys.executable, "-c", "raise SystemExit(3)"],
                         capture_output=True, text=True, timeout=100)
    assert res.returncode == 1 and "FAIL  version" in res.stdout
    res = subprocess.run([sys.executable, script, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and "no one-folder build" in res.stderr


def test_windows_gets_a_per_user_installer_and_macos_a_dmg():
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    build = next(s["run"] for s in data["jobs"]["build"]["steps"] if "packaging/build.py" in s.get("run", ""))
    assert "'--dmg'" in build and "'--installer'" in build
    iss = (PACKAGING / "windows" / "capadvisor.iss").read_text(encoding="utf-8")
    assert "PrivilegesRequired=lowest" in iss and "{localappdata}" in iss and "{userprograms}" in iss
    res = subprocess.run([sys.executable, str(PACKAGING / "build.py"), "--help"], capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 0 and "--installer" in res.stdout and "--dmg" in res.stdout
