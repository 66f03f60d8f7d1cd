"""The Sites tab runs the one site-import workflow: the same outcome and summary line as the CLI,
third-party importers from installed distributions, registry errors as user-facing messages."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

FIXTURES = Path(__file__).resolve().parents[1] / "knowledge" / "importers" / "fixtures"


@pytest.fixture()
def sites_panel(qtbot, session):
    from ui.panels.qt_sites import QtSitesPanel

    panel = QtSitesPanel(session)
    qtbot.addWidget(panel)
    return panel


def test_a_plugin_importer_from_an_installed_package_works_in_the_sites_tab(sites_panel, qtbot, tmp_path):
    from tests.plugin_package import installed

    f = tmp_path / "lab.csv"
    f.write_text("demo-csv,120\ndemo-csv,130\ndemo-csv,125\n")
    with installed(tmp_path / "site-packages"):
        with qtbot.waitSignal(sites_panel.task.sig_done, timeout=30000):
            sites_panel.import_files([f], site="plug-lab")
    batch = sites_panel.batch
    assert [r.tool for r in batch.files] == ["demo-csv"] and batch.files[0].status == "imported"
    assert "3 runs found, 3 imported, 0 skipped" in sites_panel.status.text()
    assert sites_panel.session.userdb.site("plug-lab").measurements == 3
    names = [sites_panel.site_list.item(i).data(0x0100) for i in range(sites_panel.site_list.count())]
    assert "plug-lab" in names
    assert sites_panel.log.item(0).text().startswith("✔ lab.csv: demo-csv 1.0, 3 runs found")
    assert [p.name for p in batch.plugin_failures] == ["broken-demo"]


def test_cli_and_gui_store_the_same_things(sites_panel, qtbot, run_cli):
    from knowledge.userdb import UserDatabase

    files = [FIXTURES / "fio3_randrw_2jobs.json", FIXTURES / "sysbench10_cpu.txt"]
    with qtbot.waitSignal(sites_panel.task.sig_done, timeout=30000):
        sites_panel.import_files(files, site="gui")
    assert run_cli("import", *map(str, files), "--site", "cli") == 0
    with UserDatabase() as db:
        gui, cli = db.imports("gui"), db.imports("cli")
        assert [(i.path, i.tool, i.tool_version, i.parameters, i.warnings) for i in gui] == \
               [(i.path, i.tool, i.tool_version, i.parameters, i.warnings) for i in cli]
        strip = [(m.metric, m.value, m.unit, m.subject, m.factors) for m in db.site_measurements("gui")]
        assert strip == [(m.metric, m.value, m.unit, m.subject, m.factors) for m in db.site_measurements("cli")]
    assert Path(gui[0].path).is_absolute() and gui[0].parameters["format"] == "fio-json"


def test_a_registry_error_is_a_user_facing_message(sites_panel, qtbot):
    from knowledge.importers.registry import ImporterRegistryError
    from knowledge.importers.workflow import import_files

    failures = []
    sites_panel.session.notifier.sig_failure.connect(failures.append)
    with qtbot.waitSignal(sites_panel.task.sig_failed, timeout=30000):
        sites_panel.task.start(import_files, [FIXTURES / "sysbench10_cpu.txt"], "x", tool="no-such-importer")
    assert failures and failures[0].user_facing and "no importer named 'no-such-importer'" in failures[0].message
    assert issubclass(ImporterRegistryError, __import__("knowledge.infra.errors").infra.errors.UserFacingError)


@pytest.fixture()
def run_cli():
    from app.cli import main

    return lambda *args: main(list(args))


PUBLISHED = Path(__file__).resolve().parents[1] / "fixtures" / "published"


def test_a_batch_of_published_files_with_one_bad_file_reports_it_and_imports_the_others(sites_panel, qtbot):
    """Real files through the Sites tab: the published file fio refused to run is reported on its
    own line with the importer's reason, a sysbench session with an aborted run (real sysbench 1.0.20
    output, tests/knowledge/importers/fixtures) says which run was skipped, and every other file
    is stored."""
    files = [PUBLISHED / "brucechin_fio2210_text_4groups.txt", PUBLISHED / "fioplot_fio333_error_before_json.json",
             FIXTURES / "sysbench10_session_headings_fatal.txt", PUBLISHED / "cunnie_bonnie196_7runs_comments.txt",
             PUBLISHED / "bluesky_postmark_6reports_sections.txt"]
    with qtbot.waitSignal(sites_panel.task.sig_done, timeout=60000):
        sites_panel.import_files(files, site="published")
    batch = sites_panel.batch
    assert [f.status for f in batch.files] == ["imported", "failed", "imported", "imported", "imported"]
    # runs as counted by hand in expected.json: 4 + 5 (1 aborted) + 7 + 6
    assert sites_panel.status.text() == "5 files: 4 imported, 1 failed; 22 runs found, 21 imported, 1 skipped"
    lines = [sites_panel.log.item(i).text() for i in range(sites_panel.log.count())]
    assert len(lines) == 5  # newest first
    bad = next(t for t in lines if t.startswith("✘"))
    assert bad.startswith("✘ fioplot_fio333_error_before_json.json: not imported - ")
    assert "no job did any I/O (fio reported error 22" in bad and str(PUBLISHED) not in bad
    aborted = next(t for t in lines if "sysbench10_session" in t)
    assert aborted.startswith("⚠ sysbench10_session_headings_fatal.txt: sysbench 1.0.20, "
                              "5 runs found, 4 imported, 1 skipped") and "FATAL: Size of file" in aborted
    assert sum(t.startswith("✔") for t in lines) == 3
    stored = sites_panel.session.userdb.site("published").measurements
    assert stored == sum(len(f.measurements) for f in batch.files if f.ok) > 0


def test_the_sites_tab_removes_one_imported_file(sites_panel, qtbot, monkeypatch):
    """Issue #29: one bad imported file can be removed from a site (was: only the whole site)."""
    from PySide6.QtWidgets import QInputDialog

    sites_panel.refresh()
    assert not sites_panel.remove_button.isEnabled()  # no site yet
    files = [FIXTURES / "fio3_randrw_2jobs.json", FIXTURES / "sysbench10_cpu.txt"]
    with qtbot.waitSignal(sites_panel.task.sig_done, timeout=30000):
        sites_panel.import_files(files, site="lab")
    db = sites_panel.session.userdb
    before = db.site("lab")
    asked = []

    def pick(parent, title, label, items, current, editable):
        asked.append((title, label, list(items)))
        return next(i for i in items if i.startswith("fio3_randrw_2jobs.json")), True

    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(pick))
    sites_panel.show()
    assert sites_panel.remove_button.isVisible() and sites_panel.remove_button.isEnabled()
    with qtbot.waitSignal(sites_panel.session.sig_sites_changed, timeout=5000):
        qtbot.mouseClick(sites_panel.remove_button, Qt.MouseButton.LeftButton)
    assert asked and "lab" in asked[0][1] and len(asked[0][2]) == 2
    assert [Path(i.path).name for i in db.imports("lab")] == ["sysbench10_cpu.txt"]
    after = db.site("lab")
    assert after.imports == 1 and 0 < after.measurements < before.measurements
    assert "Removed fio3_randrw_2jobs.json" in sites_panel.status.text()
    assert "1 file(s)" in sites_panel.site_list.currentItem().text()
    assert [sites_panel.log.item(i).text().split(":")[0] for i in range(sites_panel.log.count())] == \
           ["✔ sysbench10_cpu.txt"]
