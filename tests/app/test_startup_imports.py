"""What the first window needs, and nothing more (issue #30): importing the GUI entry point and building
the main window must not import scikit-learn, SciPy, openpyxl, Jinja2 or the design search; they load
on first use (training, an estate import, a report, Optimize; numpy and pyqtgraph with the first chart or
analysis)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("sklearn", "scipy", "openpyxl", "jinja2", "advisor.optimize", "numpy", "pyqtgraph")

PROBE = """
import json, sys
import app.gui
after_import = sorted(m for m in sys.modules)
from PySide6.QtWidgets import QApplication
qapp = QApplication(sys.argv[:1])
window = app.gui.create_window()
window.resize(1280, 720)
window.show()
qapp.processEvents()
print(json.dumps({"import": after_import, "window": sorted(sys.modules)}))
window.session.document.undo_stack.setClean()
window.close()
"""


def _loaded(modules: list[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def test_the_gui_entry_and_first_window_import_nothing_heavy(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    for kind in ("DATA", "CACHE", "CONFIG"):
        env[f"CAPADVISOR_{kind}_DIR"] = str(tmp_path / kind.lower())
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=100, check=True).stdout
    seen = json.loads(out.strip().splitlines()[-1])
    assert _loaded(seen["import"]) == []
    assert _loaded(seen["window"]) == []


def test_no_cyclic_collection_while_the_gui_imports_qt_and_our_modules(monkeypatch):
    """Start-up objects live on: the collector is off from the first import of the GUI (~6-9 ms of
    collections during the imports, issue #30); the window's own collector takes over later."""
    import gc

    import app.gui

    class Stop(Exception):
        pass

    seen = []

    def probe():
        seen.append(gc.isenabled())
        raise Stop

    monkeypatch.setattr(app.gui, "display_problem", lambda **_kw: None)
    monkeypatch.setattr(app.gui, "_import_before_qt", probe)
    was = gc.isenabled()
    gc.enable()
    try:
        with pytest.raises(Stop):
            app.gui.run(quit_after_show=True)
    finally:
        gc.enable() if was else gc.disable()
    assert seen == [False]


def test_the_first_window_leaves_what_it_does_not_show_until_painted(tmp_path):
    """Built but not yet painted, the first window has not imported the tooltip wrapper or the HTML
    escaping (a problem message, an error), nor made Qt's file dialog and message box classes (each
    class brings its enums): all come with their first use (issue #30)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    for kind in ("DATA", "CACHE", "CONFIG"):
        env[f"CAPADVISOR_{kind}_DIR"] = str(tmp_path / kind.lower())
    code = ("import json, sys, app.gui; from PySide6.QtWidgets import QApplication; q = QApplication([]); "
            "w = app.gui.create_window(); w.new_scenario(); import PySide6.QtWidgets as qw; "
            "print(json.dumps(sorted(sys.modules) + [c for c in ('QFileDialog', 'QMessageBox') if c in vars(qw)]))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=100, check=True).stdout
    loaded = set(json.loads(out.strip().splitlines()[-1]))
    assert "ui.panels.qt_scenario" in loaded and not loaded & {"html", "ui.tooltips", "QFileDialog", "QMessageBox"}
