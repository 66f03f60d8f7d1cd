"""The PyInstaller spec carries every module, data file and Qt plug-in the app needs (no build run)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import app
from tests.packaging.conftest import PACKAGING, ROOT


def test_hidden_imports_cover_every_module_loaded_by_the_app(spec_support):
    # independent discovery: what a real process imports when it builds the full CLI parser
    code = ("import json, sys, app.cli; app.cli.build_parser(); "
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('app', 'advisor', 'knowledge', 'ui', 'resources'))))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    loaded = set(json.loads(out.stdout))
    hidden = set(spec_support.hidden_imports())
    assert {"app.cli", "app.commands.kb", "knowledge.infra.errors"} <= loaded
    assert loaded - hidden == set()


def test_hidden_imports_cover_every_source_file(spec_support):
    hidden = set(spec_support.hidden_imports())
    for pkg in spec_support.PACKAGES:
        for dirpath, dirnames, filenames in os.walk(ROOT / pkg):
            dirnames[:] = [d for d in dirnames if not d.startswith((".", "__pycache__"))]
            rel = Path(dirpath).relative_to(ROOT)
            for name in filenames:
                if name.endswith(".py"):
                    parts = [*rel.parts] + ([] if name == "__init__.py" else [name[:-3]])
                    assert ".".join(parts) in hidden, f"{rel / name} is not a hidden import"
    assert {"app.commands", "knowledge.importers", "advisor.probes"} <= hidden
    assert {"PySide6.QtSvg", "PySide6.QtPrintSupport", "pyqtgraph"} <= hidden


def test_project_modules_finds_new_nested_modules_and_skips_caches(spec_support, tmp_path):
    (tmp_path / "app" / "commands").mkdir(parents=True)
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "commands" / "late_command.py").write_text("")  # namespace folder, no __init__
    (tmp_path / "app" / "__pycache__").mkdir()
    (tmp_path / "app" / "__pycache__" / "junk.py").write_text("")
    (tmp_path / "app" / "notes.txt").write_text("")
    assert spec_support.project_modules(tmp_path, ("app", "missing")) == [
        "app", "app.commands", "app.commands.late_command"]


def test_data_files_bundle_curated_data_schema_resources_and_the_compiled_kb(spec_support, tmp_path):
    kb = tmp_path / "knowledge.sqlite"
    kb.write_bytes(b"")
    datas = spec_support.data_files(kb_path=kb)
    dests = {(Path(src).name, dest) for src, dest in datas}
    curated = [p for p in (ROOT / "knowledge" / "data").rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    assert curated
    for path in curated:
        assert (path.name, str(path.relative_to(ROOT).parent)) in dests, path
    assert ("kb.sql", "knowledge/schema") in dests
    assert ("scenario.yaml", "resources/examples") in dests
    replay = sorted((ROOT / "resources" / "replay").glob("*.yaml"))  # `capadvisor replay` in the build
    assert len(replay) == 5 and all((p.name, "resources/replay") in dests for p in replay)
    assert ("knowledge.sqlite", "resources/data") in dests
    assert not any(src.endswith(".py") for src, _ in datas)


def test_a_stale_local_knowledge_base_does_not_shadow_the_built_one(spec_support, tmp_path):
    (tmp_path / "resources" / "data").mkdir(parents=True)
    (tmp_path / "resources" / "data" / "knowledge.sqlite").write_text("stale")
    (tmp_path / "resources" / "icons").mkdir()
    (tmp_path / "resources" / "icons" / "a.svg").write_text("<svg/>")
    fresh = tmp_path / "fresh.sqlite"
    datas = spec_support.data_files(tmp_path, fresh)
    assert (str(fresh), "resources/data") in datas
    assert str(tmp_path / "resources" / "data" / "knowledge.sqlite") not in [s for s, _ in datas]
    assert (str(tmp_path / "resources" / "icons" / "a.svg"), "resources/icons") in datas


def test_no_excluded_module_is_imported_by_the_project(spec_support):
    imported = spec_support.imported_top_modules()
    assert {"knowledge.store", "PySide6"} <= imported  # the scan sees real imports
    excluded = set(spec_support.EXCLUDES)
    assert imported & excluded == set()
    assert "PySide6" not in excluded and "PySide6.QtWidgets" not in excluded


def test_the_import_scan_would_catch_an_excluded_qt_module(spec_support, tmp_path):
    (tmp_path / "ui").mkdir()
    (tmp_path / "ui" / "net.py").write_text("def f():\n    from PySide6.QtNetwork import QTcpSocket\n")
    found = spec_support.imported_top_modules(tmp_path, ("ui",))
    assert "PySide6.QtNetwork" in found and "PySide6.QtNetwork" in spec_support.EXCLUDES


def test_qt_plugin_filter_keeps_offscreen_and_xcb_and_drops_gtk3(spec_support):
    base = "PySide6/Qt/plugins/"
    for name in spec_support.REQUIRED_QT_PLATFORMS:
        assert spec_support.keep_binary(base + "platforms/" + name)
    assert spec_support.keep_binary(base + "platforms/libqwayland.so")
    assert spec_support.keep_binary(base + "imageformats/libqsvg.so")
    assert not spec_support.keep_binary(base + "platformthemes/libqgtk3.so")
    assert not spec_support.keep_binary(base + "platforms/libqvnc.so")
    assert spec_support.keep_binary("libpython3.11.so.1.0")


def test_one_version_string_names_the_builds(spec_support):
    assert spec_support.version() == app.__version__
    assert spec_support.build_name() == f"capadvisor-{app.__version__}-linux-x86_64"
    for path in PACKAGING.rglob("*"):
        if path.is_file() and path.suffix in ("", ".sh", ".spec", ".py", ".desktop", ".xml"):
            assert app.__version__ not in path.read_text(encoding="utf-8"), f"{path} hard-codes the version"


def test_spec_uses_spec_support_for_everything_it_bundles():
    tree = ast.parse((PACKAGING / "capadvisor.spec").read_text(encoding="utf-8"))
    used = {f"{n.value.id}.{n.attr}" for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    assert {"spec_support.hidden_imports", "spec_support.data_files", "spec_support.EXCLUDES",
            "spec_support.keep_binary", "spec_support.build_name"} <= used
    calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert {"Analysis", "PYZ", "EXE", "COLLECT"} <= calls


def test_scripts_are_executable_and_valid_shell():
    for script in ("build.sh", "test_frozen.sh", "linux/install.sh", "linux/uninstall.sh",
                   "linux/capadvisor-launch"):
        path = PACKAGING / script
        assert os.access(path, os.X_OK), f"{script} is not executable"
        shell = "sh" if script.endswith("launch") else "bash"
        result = subprocess.run([shell, "-n", str(path)], capture_output=True, text=True)
        assert result.returncode == 0, result.stderr


def test_no_excluded_module_is_imported_by_the_libraries_the_app_uses(spec_support):
    # pyqtgraph, scikit-learn and scipy import more than our code does (pyqtgraph needs QtOpenGL)
    code = ("import json, sys, PySide6.QtWidgets, PySide6.QtSvg, PySide6.QtPrintSupport, pyqtgraph, "
            "sklearn.linear_model, sklearn.ensemble, scipy.optimize, scipy.stats, yaml, platformdirs, psutil, "
            "app.cli; app.cli.build_parser(); print(json.dumps(sorted(sys.modules)))")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYQTGRAPH_QT_LIB": "PySide6", "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env=env)
    loaded = set(json.loads(out.stdout))
    assert "PySide6.QtOpenGL" in loaded  # the check sees optional-looking imports too
    assert loaded & set(spec_support.EXCLUDES) == set()


def test_runtime_hooks_replace_pyinstallers_slow_ones(spec_support):
    for name in spec_support.RUNTIME_HOOKS:
        path = PACKAGING / "rthooks" / name
        ast.parse(path.read_text(encoding="utf-8"))
        assert "import PySide6" not in path.read_text(encoding="utf-8")
    assert set(spec_support.DROPPED_RUNTIME_HOOKS) == {"pyi_rth_pyside6", "pyi_rth_multiprocessing"}
    spec = (PACKAGING / "capadvisor.spec").read_text(encoding="utf-8")
    assert "spec_support.DROPPED_RUNTIME_HOOKS" in spec and "spec_support.RUNTIME_HOOKS" in spec


def test_qt_runtime_hook_sets_the_bundled_plugin_path(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    monkeypatch.delenv("QT_PLUGIN_PATH", raising=False)
    code = (PACKAGING / "rthooks" / "pyi_rth_capadvisor_qt.py").read_text(encoding="utf-8")
    before = set(sys.modules)
    try:
        exec(compile(code, "pyi_rth_capadvisor_qt.py", "exec"), {"__name__": "rthook"})
        assert os.environ["QT_PLUGIN_PATH"] == str(tmp_path / "PySide6" / "Qt" / "plugins")
    finally:
        os.environ.pop("QT_PLUGIN_PATH", None)
        os.environ.pop("QML2_IMPORT_PATH", None)
    assert not {m for m in set(sys.modules) - before if m.startswith("PySide6")}


def test_multiprocessing_runtime_hook_does_nothing_in_a_normal_start(monkeypatch):
    import multiprocessing

    original = multiprocessing.freeze_support
    monkeypatch.setattr(sys, "argv", ["capadvisor", "kb", "stats"])
    code = (PACKAGING / "rthooks" / "pyi_rth_capadvisor_mp.py").read_text(encoding="utf-8")
    exec(compile(code, "pyi_rth_capadvisor_mp.py", "exec"), {"__name__": "rthook"})
    assert multiprocessing.freeze_support is original


def test_multiprocessing_runtime_hook_patches_freeze_support_in_a_worker(monkeypatch):
    import multiprocessing
    import multiprocessing.spawn

    # recorded so that monkeypatch puts the originals back after the hook replaced them
    monkeypatch.setattr(multiprocessing, "freeze_support", multiprocessing.freeze_support)
    monkeypatch.setattr(multiprocessing.spawn, "freeze_support", multiprocessing.spawn.freeze_support)
    monkeypatch.setattr(multiprocessing.process, "ORIGINAL_DIR", multiprocessing.process.ORIGINAL_DIR)
    original = multiprocessing.freeze_support
    monkeypatch.setattr(sys, "argv", ["capadvisor", "--multiprocessing-fork", "tracker_fd=5", "pipe_handle=7"])
    code = (PACKAGING / "rthooks" / "pyi_rth_capadvisor_mp.py").read_text(encoding="utf-8")
    exec(compile(code, "pyi_rth_capadvisor_mp.py", "exec"), {"__name__": "rthook"})
    assert multiprocessing.freeze_support is not original
    assert multiprocessing.spawn.freeze_support is multiprocessing.freeze_support
    assert multiprocessing.process.ORIGINAL_DIR is None


def test_inventory_readers_libraries_are_bundled(spec_support):
    """openpyxl (RVTools workbooks) and defusedxml (libvirt domain XML) are hidden imports, imported by
    the readers, and never excluded (nor their own dependency et_xmlfile)."""
    hidden = set(spec_support.hidden_imports())
    imported = spec_support.imported_top_modules()
    for mod in ("openpyxl", "defusedxml", "defusedxml.ElementTree"):
        assert mod in hidden and mod in imported, mod
    assert {"knowledge.inventory", "knowledge.inventory.xlsx", "advisor.inventory", "ui.dialogs.inventory",
            "app.commands.inventory"} <= hidden
    excluded = set(spec_support.EXCLUDES)
    assert not {"openpyxl", "defusedxml", "et_xmlfile", "xml.parsers.expat", "csv"} & excluded


def test_deliverables_libraries_are_bundled(spec_support):
    """XlsxWriter (the workbook), python-pptx and Pillow (the slide deck: pptx reads picture sizes
    with it) are hidden imports and never excluded."""
    hidden = set(spec_support.hidden_imports())
    for mod in ("xlsxwriter", "pptx", "PIL.Image"):
        assert mod in hidden, mod
    assert {"advisor.deliverables.workbook", "advisor.deliverables.slides", "ui.deliverables",
            "app.deliverables"} <= hidden
    assert not {"xlsxwriter", "pptx", "PIL", "lxml"} & set(spec_support.EXCLUDES)


def test_platform_tags_name_the_builds_of_each_os(spec_support):
    tag = spec_support.platform_tag
    assert tag("Linux", "x86_64") == "linux-x86_64"
    assert tag("Windows", "AMD64") == "windows-x86_64"
    assert tag("Darwin", "arm64") == "macos-arm64" and tag("Darwin", "x86_64") == "macos-x86_64"
