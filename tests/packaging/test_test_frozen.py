"""packaging/test_frozen.sh against a fake build: passes a good one, skips unregistered commands,
fails loudly on tracebacks and on writes inside the bundle."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import app
from tests.packaging.conftest import PACKAGING, ROOT


@pytest.fixture
def fake_dist(tmp_path) -> Path:
    """A dist/ folder whose one-folder 'build' runs only the kb and replay commands, through this
    checkout (the replay files copied into the fake bundle, as the spec bundles them)."""
    dist = tmp_path / "dist"
    build = dist / f"capadvisor-{app.__version__}-linux-x86_64"
    internal = build / "_internal"
    for rel in ("resources/data/knowledge.sqlite", "knowledge/data/README.md", "knowledge/schema/kb.sql",
                "PySide6/Qt/plugins/platforms/libqoffscreen.so", "PySide6/Qt/plugins/platforms/libqxcb.so"):
        (internal / rel).parent.mkdir(parents=True, exist_ok=True)
        (internal / rel).write_text("")
    (internal / "resources" / "replay").mkdir(parents=True)
    for path in (ROOT / "resources" / "replay").glob("*.yaml"):
        (internal / "resources" / "replay" / path.name).write_bytes(path.read_bytes())
    exe = build / "capadvisor"
    exe.write_text(f"""#!/usr/bin/env bash
case "$1" in
  --version) echo "capadvisor {app.__version__}" ;;
  --help) printf 'usage: capadvisor [-h] [--version] COMMAND ...\\n\\npositional arguments:\\n  COMMAND\\n'
          printf '    kb        query, export and check the knowledge base\\n'
          printf '    replay    replay the documents\\n' ;;
  kb|replay)
    if [ "${{FAKE_MODE:-}}" = broken ] && [ "$2" = validate ]; then
      echo 'Traceback (most recent call last):' >&2; echo 'ModuleNotFoundError: No module named x' >&2; exit 1
    fi
    if [ "${{FAKE_MODE:-}}" = broken ] && [ "$2" = stats ]; then touch "{internal}/written-by-the-app"; fi
    export CAPADVISOR_CACHE_DIR="{tmp_path}/kb-cache" PYTHONPATH="{ROOT}"
    exec "{sys.executable}" -m app "$@" ;;
  *) echo "capadvisor: error: invalid choice: '$1'" >&2; exit 2 ;;
esac
""")
    exe.chmod(0o755)
    return dist


def _run(dist: Path, mode: str = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "FAKE_MODE": mode}
    return subprocess.run(["bash", str(PACKAGING / "test_frozen.sh"), str(dist)], env=env,
                          capture_output=True, text=True, timeout=300)


def test_a_good_build_passes_and_unregistered_commands_are_skipped(fake_dist):
    result = _run(fake_dist)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "  ok    kb-export" in result.stdout and "  ok    kb-bundled" in result.stdout
    for check in ("bundled resources/replay", "replay-json", "replay-doc", "replay-bad"):
        assert f"  ok    {check}" in result.stdout, result.stdout
    for command in ("advise", "rt", "probe", "import", "sites", "gui"):
        assert f"skip  {command}: command '{command}' is not registered" in result.stdout
    assert ", 0 failed," in result.stdout


def test_a_traceback_and_a_write_into_the_bundle_fail_loudly(fake_dist):
    result = _run(fake_dist, "broken")
    assert result.returncode == 1
    assert "FAIL  kb-validate: a traceback or import error" in result.stdout
    assert "FAIL  bundle-written" in result.stdout
    assert "test_frozen: FAILED: " in result.stderr and "kb-validate" in result.stderr


def test_a_missing_build_is_an_error(tmp_path):
    result = _run(tmp_path)
    assert result.returncode != 0 and "no one-folder build" in result.stderr
