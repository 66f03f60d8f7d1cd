"""The layering contract: advisor/ and knowledge/ never import Qt, pyqtgraph, ui or app.

import-linter checks the real tree with the contracts in pyproject.toml; a second test
proves the contract bites by running it on a small tree that breaks it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _lint(cwd: Path, extra_path: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in (extra_path or cwd, ROOT) if p)
    lint = Path(sys.executable).with_name("lint-imports")
    return subprocess.run([str(lint), "--no-cache"], cwd=cwd, env=env, capture_output=True, text=True)


def test_import_contracts_hold():
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 2 kept, 0 broken" in result.stdout


def test_contract_catches_a_forbidden_import(tmp_path):
    for pkg in ("advisor", "knowledge", "ui", "app"):
        (tmp_path / pkg).mkdir()
        (tmp_path / pkg / "__init__.py").write_text("")
    (tmp_path / "advisor" / "bad.py").write_text("import ui\n")
    (tmp_path / "knowledge" / "worse.py").write_text("from PySide6 import QtCore\n")
    config = (ROOT / "pyproject.toml").read_text()
    start = config.index("[tool.importlinter]")
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent(config[start:]))
    result = _lint(tmp_path)
    assert result.returncode != 0
    assert "advisor.bad -> ui" in result.stdout
    assert "knowledge.worse -> PySide6" in result.stdout
