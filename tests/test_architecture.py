"""The guard rails, run with the suite (so ``./run tests`` and CI run them): import-linter's
contracts (layers app > ui > advisor > knowledge, no Qt in the core, knowledge.infra on its own,
no import cycles between siblings), ruff, and mypy on advisor/ and knowledge/.

Each contract is also run on a small tree that breaks it, to prove it bites; the infra rule is
checked a second way with the import graph, so a new knowledge module cannot slip past the
contract's explicit list.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    path = BIN / name
    return str(path) if path.exists() else (shutil.which(name) or name)


def _lint(cwd: Path, extra_path: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in (extra_path or cwd, ROOT) if p)
    return subprocess.run([_tool("lint-imports"), "--no-cache"], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.timeout(300)
def test_import_contracts_hold():
    result = _lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 7 kept, 0 broken" in result.stdout


@pytest.mark.timeout(300)
def test_the_contracts_catch_a_wrong_import_and_a_cycle(tmp_path):
    files = {
        "advisor/bad.py": "import ui\n",
        "knowledge/worse.py": "from PySide6 import QtCore\n",
        "ui/view.py": "import app.settings\n",  # ui must not import app
        "app/settings.py": "",
        "app/cli.py": "from app.commands import advise\n",
        "app/commands/__init__.py": "",
        "app/commands/advise.py": "from app import cli\n",  # a command must not import the CLI
        **{f"advisor/{m}.py": "" for m in CORE},
        **_ignored_edges(),  # the edges the features' contract ignores, still there
        "advisor/engine.py": "import advisor.replay\n",  # the core must not import a feature
        "advisor/optimize/__init__.py": "import advisor.replay\n",  # nor a feature another one
        "ui/main_window.py": "from ui.dialogs import about\n",
        "ui/dialogs/__init__.py": "",
        "ui/dialogs/about.py": "from ui import main_window\n",  # the old about <-> main_window cycle
        **{f"knowledge/{m}.py": "" for m in ("store", "userdb", "sites", "curated", "build")},
        "knowledge/importers/__init__.py": "",
        "knowledge/inventory/__init__.py": "",
        "knowledge/infra/__init__.py": "",
        "knowledge/infra/paths.py": "import knowledge.store\n",  # infra imports nothing else
    }
    for pkg in ("advisor", "knowledge", "ui", "app"):
        (tmp_path / pkg).mkdir()
        (tmp_path / pkg / "__init__.py").write_text("")
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    config = (ROOT / "pyproject.toml").read_text()
    start = config.index("[tool.importlinter]")
    end = config.find("\n[tool.", start + 1)
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent(config[start:end if end > 0 else None]))
    result = _lint(tmp_path)
    assert result.returncode != 0
    out = result.stdout
    assert "advisor.bad -> ui" in out
    assert "knowledge.worse -> PySide6" in out
    assert "ui.view -> app.settings" in out
    assert "knowledge.infra.paths -> knowledge.store" in out
    assert "No cycles are allowed in ui" in out
    assert "app.commands.advise -> app.cli" in out
    assert "advisor.engine -> advisor.replay" in out and "advisor.optimize -> advisor.replay" in out
    assert "Contracts: 0 kept, 7 broken" in out


def test_knowledge_infra_imports_nothing_else_of_the_project():
    """The same rule as the contract, from the import graph itself (new modules included)."""
    import grimp

    graph = grimp.build_graph("knowledge", "advisor", "ui", "app", cache_dir=None)
    infra = {m for m in graph.modules if m == "knowledge.infra" or m.startswith("knowledge.infra.")}
    outside = {(m, i) for m in infra for i in graph.find_modules_directly_imported_by(m)
               if i.split(".")[0] in ("knowledge", "advisor", "ui", "app") and i not in infra}
    assert not outside, sorted(outside)


def _contract(name_start: str) -> dict:
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["name"].startswith(name_start))


#: advisor's two storeys, as the contracts list them: the engine core and the features
CORE = [m.removeprefix("advisor.") for m in _contract("advisor's engine core")["source_modules"]]
FEATURES = [m.removeprefix("advisor.") for m in _contract("advisor's features")["modules"]]


def _ignored_edges() -> dict[str, str]:
    """Feature packages for a small tree, holding the imports the features' contract ignores
    (``a -> b.*`` as ``a -> b.base``), so that an ignored import the tree lacks is no error."""
    files = {f"advisor/{m}/__init__.py": "" for m in FEATURES}
    for edge in _contract("advisor's features").get("ignore_imports", []):
        src, dst = (m.strip().replace(".*", ".base") for m in edge.split("->"))
        for mod in (src, dst):
            parts = mod.split(".")
            files.setdefault("/".join(parts) + ".py" if len(parts) > 2 else f"{mod.replace('.', '/')}/__init__.py", "")
        key = "/".join(src.split(".")) + ".py" if len(src.split(".")) > 2 else f"{src.replace('.', '/')}/__init__.py"
        files[key] += f"import {dst}\n"
    return files


def test_every_module_of_advisor_is_on_one_storey():
    """Each module or package directly under advisor/ is the engine core's or a feature's (a new one
    must be placed, so the contracts see it); the features are packages."""
    top = {p.stem for p in (ROOT / "advisor").glob("*.py") if p.stem != "__init__"} | \
          {p.name for p in (ROOT / "advisor").iterdir() if (p / "__init__.py").is_file()}
    unplaced = sorted(top ^ set(CORE + FEATURES))
    assert not unplaced, f"put these in the core's or the features' list of the contracts in pyproject.toml: {unplaced}"
    assert not set(CORE) & set(FEATURES)
    assert all((ROOT / "advisor" / f / "__init__.py").is_file() for f in FEATURES)


def test_the_import_graph_sees_every_command():
    """Commands are imported by name in app.cli (not by string), so the contracts check them: every
    module of app/commands is an import of app.cli in the graph import-linter reads."""
    import grimp

    graph = grimp.build_graph("app", cache_dir=None)
    commands = {f"app.commands.{p.stem}" for p in (ROOT / "app" / "commands").glob("*.py") if p.stem != "__init__"}
    assert commands and commands <= graph.find_modules_directly_imported_by("app.cli")


@pytest.mark.timeout(300)
def test_ruff_passes():
    result = subprocess.run([_tool("ruff"), "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


#: a regression family whose predict takes no calibration: it does not satisfy ModelFamily
BAD_FAMILY = textwrap.dedent("""
    from collections.abc import Mapping, Sequence

    from advisor.models.base import ModelFamily, Prediction, TrainingPoint
    from advisor.models.family import Family


    class NoCalibration(Family):
        name = "no_calibration"

        def predict(self, queries: Sequence[Mapping[str, float | str]]) -> Prediction:  # type: ignore[override]
            return super().predict(queries)


    FAMILIES: list[type[ModelFamily]] = [NoCalibration]
""")


@pytest.fixture(scope="module")
def mypy_run(tmp_path_factory):
    """One mypy run (config in pyproject.toml) over advisor/, knowledge/ and a family that breaks the
    protocol, with its cache in a temporary folder: (the bad file, mypy's result)."""
    folder = tmp_path_factory.mktemp("mypy")
    bad = folder / "bad_family.py"
    bad.write_text(BAD_FAMILY)
    result = subprocess.run([_tool("mypy"), "--cache-dir", str(folder / "cache"), "advisor", "knowledge", str(bad)],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)
    return bad, result


@pytest.mark.timeout(600)
def test_mypy_passes_on_the_core(mypy_run):
    """mypy on advisor/ and knowledge/, which also checks that every regression family satisfies the
    ModelFamily protocol (calibration, batch prediction): the only errors are the bad family's."""
    bad, result = mypy_run
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    core = [line for line in errors if not line.startswith(str(bad))]
    assert result.returncode in (0, 1) and not result.stderr.strip(), result.stdout[-6000:] + result.stderr
    assert not core, "\n".join(core[:60])


@pytest.mark.timeout(600)
def test_mypy_catches_a_family_that_breaks_the_protocol(mypy_run):
    """A family whose predict takes no calibration does not satisfy ModelFamily."""
    bad, result = mypy_run
    assert result.returncode == 1
    errors = [line for line in result.stdout.splitlines() if line.startswith(str(bad)) and ": error:" in line]
    assert any("NoCalibration" in line and "ModelFamily" in line for line in errors), result.stdout[-6000:]
