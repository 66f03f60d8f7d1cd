"""File ▸ Export configuration… and Sites ▸ Benchmark plan… on the real widgets: the work runs in
the worker, the files land in the chosen folder, the outcome is listed."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton


def _menu_action(window, text: str):
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    return next(a for a in menu.actions() if a.text() == text)


def test_export_configuration_from_the_file_menu(window, qtbot, tmp_path):
    action = _menu_action(window, "Export &configuration…")
    assert action.isEnabled()
    dialog = window.export_configuration()
    qtbot.addWidget(dialog)
    assert dialog.export_button.isEnabled()
    dialog.target.setCurrentIndex(dialog.target.findData("all"))
    dialog.folder.setText(str(tmp_path))
    with qtbot.waitSignal(dialog.task.sig_done, timeout=60000):
        dialog.export_button.click()
    assert [o.target for o in dialog.outcomes] == ["libvirt", "xen", "proxmox", "openstack"]
    for o in dialog.outcomes:
        assert o.findings and not o.failed and not o.unchecked
        manifest = json.loads((tmp_path / o.target / "export-manifest.json").read_text())
        assert manifest["scenario"] == window.session.advice.scenario.name
    text = dialog.log.toPlainText()
    assert "libvirt:" in text and "checks passed" in text and "FAILED" not in text
    assert dialog.open_button.isEnabled()
    dialog.reject()


def test_export_without_advice_says_so(qtbot, kb_file):
    from app.gui import settings_store
    from ui.dialogs.export_config import ExportConfigDialog
    from ui.session import Session

    s = Session(settings_store(), kb_path=kb_file)
    dialog = ExportConfigDialog(s)
    qtbot.addWidget(dialog)
    assert not dialog.export_button.isEnabled()
    assert "no advice yet" in dialog.intro.text()
    s.close()


def test_benchmark_plan_from_the_sites_tab(window, qtbot, tmp_path):
    panel = window.show_view("sites")
    button = next(b for b in panel.findChildren(QPushButton) if b.text() == "Benchmark &plan…")
    assert button.isVisible()
    dialog = panel.bench_plan_dialog()
    qtbot.addWidget(dialog)
    dialog.site.setText("dc1")
    dialog.folder.setText(str(tmp_path))
    with qtbot.waitSignal(dialog.task.sig_done, timeout=120000):
        dialog.plan_button.click()
    plan = json.loads((tmp_path / "plan.json").read_text())
    assert plan["site"] == "dc1" and plan["runs"]
    assert (tmp_path / "run-all.sh").is_file()
    text = dialog.log.toPlainText()
    assert "run-all.sh" in text and plan["runs"][0]["name"] in text
    dialog.reject()


def test_the_plan_dialog_says_what_the_site_calibrates_now(window, qtbot):
    from tests.ui.conftest import fio_fixture

    panel = window.show_view("sites")
    with qtbot.waitSignal(panel.task.sig_done, timeout=30000):
        panel.import_files([fio_fixture()], site="lab")
    with qtbot.waitSignal(window.session.sig_advice, timeout=60000):
        window.session.set_site("lab")
    dialog = panel.bench_plan_dialog()
    qtbot.addWidget(dialog)
    assert dialog.site.text() == "lab"
    advice = window.session.advice
    text = dialog.log.toPlainText()
    if advice.calibration.rejected:  # the fixture's disk is not the demo hosts' kind: the dialog says why
        assert text == f"Site lab: its figures are not used: {advice.calibration.rejected}"
    else:
        assert text.startswith("Site lab now:") and "site  " in text
    dialog.reject()


def test_the_plan_dialog_starts_on_the_calibrated_site_and_follows_typing(window, qtbot):
    """With two sites, the list and the plan dialog start on the site the advice is calibrated to
    (not the first alphabetically); typing another site name updates what the dialog says."""
    from tests.ui.conftest import fio_fixture

    panel = window.show_view("sites")
    for name in ("zlab", "alab"):
        with qtbot.waitSignal(panel.task.sig_done, timeout=30000):
            panel.import_files([fio_fixture()], site=name)
    with qtbot.waitSignal(window.session.sig_advice, timeout=60000):
        window.session.set_site("zlab")
    panel.site_list.setCurrentRow(-1)  # as after a fresh start: no selection of the user's
    panel.refresh()
    assert panel.site_list.currentItem().data(Qt.ItemDataRole.UserRole) == "zlab"
    dialog = panel.bench_plan_dialog()
    qtbot.addWidget(dialog)
    assert dialog.site.text() == "zlab" and dialog.log.toPlainText().startswith("Site zlab")
    dialog.site.setText("alab")  # not the calibrated site: nothing to say about it yet
    assert dialog.log.toPlainText() == ""
    dialog.site.setText("zlab")
    assert dialog.log.toPlainText().startswith("Site zlab")
    dialog.reject()


def test_the_plan_lists_its_runs_before_writing_them(window, qtbot, tmp_path):
    """Issue #29 point 9: List the runs shows the plan's runs and writes nothing."""
    panel = window.show_view("sites")
    dialog = panel.bench_plan_dialog()
    qtbot.addWidget(dialog)
    folder = tmp_path / "plan"
    dialog.folder.setText(str(folder))
    assert dialog.list_button.text() == "&List the runs"
    with qtbot.waitSignal(dialog.task.sig_done, timeout=120000):
        dialog.list_button.click()
    text = dialog.log.toPlainText()
    assert dialog.preview is not None and dialog.preview.runs
    assert "nothing written yet" in text and dialog.preview.runs[0].name in text
    assert not folder.exists()
    dialog.reject()
