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
    escaping (a problem message, an error), nor made Qt's file dialog and message box classes, nor the
    gradient class behind a QBrush, nor the spin box and text editor classes a focus check names (each
    class brings its enums): all come with their first use (issue #30)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    for kind in ("DATA", "CACHE", "CONFIG"):
        env[f"CAPADVISOR_{kind}_DIR"] = str(tmp_path / kind.lower())
    code = ("import json, sys, app.gui; from PySide6.QtWidgets import QApplication; q = QApplication([]); "
            "w = app.gui.create_window(); w.new_scenario(); w.show(); q.processEvents(); "
            "import PySide6.QtWidgets as qw, PySide6.QtGui as qg; "
            "print(json.dumps(sorted(sys.modules) + [c for c in ('QFileDialog', 'QMessageBox') if c in vars(qw)] "
            "+ [c for c in ('QGradient',) if c in vars(qg)] "
            "+ [c for c in ('QAbstractSpinBox', 'QTextEdit', 'QPlainTextEdit') if c in vars(qw)]))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=100, check=True).stdout
    loaded = set(json.loads(out.strip().splitlines()[-1]))
    assert "ui.panels.qt_scenario" in loaded
    assert not loaded & {"html", "ui.tooltips", "QFileDialog", "QMessageBox", "QGradient", "QAbstractSpinBox",
                         "QTextEdit", "QPlainTextEdit"}


FEATURE_PROBE = """
import inspect, sys
sys.path.insert(0, sys.argv[1])
read = []
_getsource = inspect.getsource
def getsource(obj):
    read.append(getattr(obj, "__name__", "?"))
    return _getsource(obj)
inspect.getsource = getsource
import app.gui
_run = app.gui.run
app.gui.run = lambda *args, **kwargs: _run(*args, **dict(kwargs, quit_after_show=True))
from app.entry import gui_main
gui_main([])  # the launcher, to the first paint
import outsider  # not ours: PySide6's hook still reads it
print(sorted(n for n in read if n.split(".")[0] in ("app", "ui", "advisor", "knowledge", "outsider")))
"""


def test_pyside_reads_no_source_of_ours_looking_for_features(tmp_path):
    """PySide6's import hook reads every module's source once, looking for ``from __feature__`` (issue
    #30: ~5 ms of the start-up); the GUI registers its modules as selecting none, so only modules that
    are not the program's are still read."""
    (tmp_path / "outsider.py").write_text("from PySide6 import QtCore\n", encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    for kind in ("DATA", "CACHE", "CONFIG"):
        env[f"CAPADVISOR_{kind}_DIR"] = str(tmp_path / kind.lower())
    out = subprocess.run([sys.executable, "-c", FEATURE_PROBE, str(tmp_path)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=100, check=True).stdout
    assert out.strip().splitlines()[-1] == "['outsider']"


SNAKE_PROBE = """
import sys
sys.path.insert(0, sys.argv[1])
from PySide6 import QtWidgets
import app.gui
app.gui.spare_feature_scan()
qapp = QtWidgets.QApplication([])
import snakey  # another module (a plug-in, say) that selects snake_case for itself
from ui.accessible import accessible_name
print(snakey.TEXT, accessible_name(QtWidgets.QLabel("hello")))
"""


def test_a_module_selecting_snake_case_leaves_ours_with_qt_names(tmp_path):
    """Review of the feature registration: our modules are registered as using Qt without a feature
    (0), as PySide6's own reading concludes; registered as "ignore" (-1) they ran with whatever feature
    another module had selected last, and camelCase Qt calls in ui/ failed after a snake_case plug-in."""
    (tmp_path / "snakey.py").write_text(
        "from __feature__ import snake_case  # noqa\nfrom PySide6.QtWidgets import QLabel\n"
        "label = QLabel()\nlabel.set_text('snake')\nTEXT = label.text()\n", encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", SNAKE_PROBE, str(tmp_path)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=100)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["snake", "hello"]


def test_no_module_of_the_program_selects_a_pyside_feature():
    """What makes :func:`app.gui.spare_feature_scan` safe: no module uses ``from __feature__ import``
    (snake_case or true_property would change how every Qt call is spelt in that module)."""
    import re

    selects = re.compile(r"^\s*(from\s+__feature__\s+import|import\s+__feature__)", re.MULTILINE)
    users = [str(p.relative_to(ROOT)) for pkg in ("app", "ui", "advisor", "knowledge")
             for p in (ROOT / pkg).rglob("*.py") if selects.search(p.read_text(encoding="utf-8"))]
    assert users == []
