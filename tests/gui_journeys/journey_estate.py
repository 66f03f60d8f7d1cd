"""Journey (e, issue #29): an estate user, by keyboard only, at 1280x720. File > Import inventory...
from the menu (Alt+F, V): today's VMs and hosts (the inventory template's CSV files) become the
scenario; Edit > Cost catalogue... imports the example prices; Optimize (Ctrl+0) searches the
designs and loads the best; File > Export configuration... writes the platform files and Ctrl+E the
report. Real X input on Xvfb (see conftest.py)."""

from __future__ import annotations

from pathlib import Path

import shiboken6
from PySide6.QtWidgets import QApplication, QFileDialog

from tests.gui_journeys.steps import answer_file_dialog, pick_files
from tests.gui_journeys.xinput import pump, wait_until

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def _settled(w) -> bool:
    s = w.session
    return s.advice is not None and not s.advice_task.running and not s._debounce.isActive()


def _modal(kind):
    dialog = QApplication.activeModalWidget()
    return dialog if isinstance(dialog, kind) else None


def _import_inventory(x, w):
    """Alt+F, V: the file dialog, the two CSV files typed; the dialog shows today's estate."""
    from ui.dialogs.inventory import InventoryDialog

    pick_files(x, EXAMPLES, ("inventory-vms.csv", "inventory-hosts.csv"))
    x.key("alt+f")
    x.key("v")
    wait_until(lambda: _modal(InventoryDialog) is not None, 30, "the inventory dialog")
    dialog = _modal(InventoryDialog)
    wait_until(lambda: dialog.inventory is not None or dialog.message.isVisible(), 60, "reading the inventory")
    assert dialog.inventory is not None, dialog.message.text()
    x.screenshot("inventory-dialog", dialog)
    x.key("alt+u")  # Use as scenario
    wait_until(lambda: not dialog.isVisible(), 10, "the dialog to close")
    x.focus(w)
    wait_until(lambda: _settled(w), 90, "the advice of the estate")


def _cost_catalogue(x, w):
    """Edit > Cost catalogue... (Alt+E, C): Import... (Alt+I) the example, Save (Ctrl+S)."""
    from ui.dialogs.costs import CostCatalogueDialog

    x.key("alt+e")
    x.key("c")
    wait_until(lambda: _modal(CostCatalogueDialog) is not None, 10, "the cost catalogue")
    dialog = _modal(CostCatalogueDialog)
    done = []

    def fill(file_dialog) -> None:
        x.focus(file_dialog)
        x.key("ctrl+a")
        x.type(str(EXAMPLES / "costs-example.yaml"))
        x.key("Return")
        done.append(True)

    x.focus(dialog)
    pump(300)
    x.on_modal(fill, kind=QFileDialog)
    x.key("alt+i")  # Import...
    wait_until(lambda: bool(done) and _modal(CostCatalogueDialog) is dialog, 30, "the catalogue file")
    pump(300)
    x.focus(dialog)
    assert dialog.catalogue().hosts, dialog.status.text()
    x.screenshot("cost-catalogue", dialog)
    x.key("ctrl+s")  # Save
    # (the dialog may already be deleted when it is looked at: closed and gone is saved too)
    wait_until(lambda: not shiboken6.isValid(dialog) or not dialog.isVisible(), 10, "the catalogue to be saved")
    x.focus(w)
    wait_until(lambda: w.session.catalogue is not None and _settled(w), 60, "the priced advice")


def _optimize(x, w):
    """Ctrl+0: the Optimize view; Alt+S searches, Alt+L loads the best design."""
    x.key("ctrl+0")
    panel = w.panels["optimize"]
    wait_until(lambda: panel.run_button.isEnabled(), 10, "Search designs enabled")
    x.key("alt+s")
    wait_until(lambda: panel.result is not None and not panel.task.running, 200, "the design search")
    assert panel.result.best is not None, panel.best.text()
    x.screenshot("optimize", w)
    before = w.session.document.data
    x.key("alt+l")
    wait_until(lambda: w.session.document.data != before, 10, "the best design loaded")
    wait_until(lambda: _settled(w), 90, "the advice of the best design")
    assert w.session.document.undo_stack.undoText().startswith("load design")


def _export_configuration(x, w, folder: Path):
    """File > Export configuration... (Alt+F, C): the folder typed (Alt+F), Export (Alt+E)."""
    from ui.dialogs.export_config import ExportConfigDialog

    x.key("alt+f")
    x.key("c")
    wait_until(lambda: any(d.isVisible() for d in w.findChildren(ExportConfigDialog)), 10, "the export dialog")
    dialog = next(d for d in w.findChildren(ExportConfigDialog) if d.isVisible())
    x.focus(dialog)
    x.key("alt+f", "ctrl+a")
    x.type(str(folder))
    x.key("alt+e")
    wait_until(lambda: bool(dialog.outcomes), 120, "the configuration files")
    x.screenshot("export-configuration", dialog)
    assert any(folder.rglob("*")), "no file written"
    x.key("Escape")
    wait_until(lambda: not dialog.isVisible(), 10, "the export dialog to close")
    x.focus(w)


def test_estate_user_imports_prices_optimizes_and_exports(x, launch, tmp_path):
    w = launch()
    wait_until(lambda: getattr(w, "welcome", None) is not None and w.welcome.isVisible(), 10, "the welcome")
    x.key("Escape")
    wait_until(lambda: not w.welcome.isVisible(), 10, "the welcome to close")
    x.focus(w)
    _import_inventory(x, w)
    scenario = w.session.document.scenario
    assert scenario is not None and scenario.total_vms > 0 and not w.session.document.problems
    x.screenshot("estate-advice", w)
    _cost_catalogue(x, w)
    _optimize(x, w)
    x.screenshot("best-design", w)
    _export_configuration(x, w, tmp_path / "config")
    report = tmp_path / "estate-report.pdf"
    answer_file_dialog(x, report, lambda: x.key("ctrl+e"), w)
    wait_until(lambda: report.exists() and report.stat().st_size > 10000, 120, "the PDF report")
    x.screenshot("done", w)
