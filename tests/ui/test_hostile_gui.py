"""The desktop app with hostile input (issue 19, point 11): a scenario with absurd numbers opens with
the field marked (never 'Unexpected error (a bug)'), an export name taken from the scenario stays in
the chosen folder, and the screenshot command exits non-zero when a task failed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.advisor.test_engine import BASE


def test_absurd_numbers_are_marked_at_their_field_not_reported_as_bugs(window, qtbot, tmp_path):
    failures = []
    window.session.notifier.sig_failure.connect(failures.append)
    data = json.loads(json.dumps(BASE))
    data["hosts"]["count"] = 1e300
    data["workloads"][0]["realtime"] = {"tasks": [{"name": "fast", "period": 1, "wcet": 0.1},
                                                  {"name": "slow", "period": 1e9, "wcet": 1}]}
    path = tmp_path / "absurd.json"
    path.write_text(json.dumps(data))
    assert window.open_scenario(path)
    problems = window.session.document.problems
    assert "must be <= 100000, not 1e+300" in problems["hosts.count"]
    assert "checkpoints" in problems["workloads[0].realtime.tasks"]
    qtbot.wait(300)
    assert [f for f in failures if not f.user_facing] == []
    window.show_view("scenario")
    qtbot.wait(100)
    assert [f for f in failures if not f.user_facing] == []
    window.session.document.undo_stack.setClean()


def test_the_report_export_name_stays_in_the_chosen_folder(window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    folder = tmp_path / "reports"
    folder.mkdir()
    window.settings.last_dir = str(folder)
    window.session.document.set(("name",), "../../escape/evil")
    asked = []
    monkeypatch.setattr(QFileDialog, "selectFile", lambda self, name: asked.append((self.directory().path(), name)))
    monkeypatch.setattr(QFileDialog, "exec", lambda self: QFileDialog.DialogCode.Rejected)
    report = window.show_view("report")
    report.export_dialog("html")
    directory, name = asked[0]
    assert Path(directory) == folder and name == "escape_evil.html"
    assert (folder / name).resolve().parent == folder.resolve()
    window.session.document.undo_stack.setClean()


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_screenshots_exit_non_zero_when_a_task_failed(qtbot, kb_file, tmp_path, capsys, monkeypatch):
    import ui.session
    from app.gui import settings_store
    from app.settings import Settings
    from knowledge.infra.errors import InputError
    from ui.main_window import MainWindow
    from ui.screenshots import render_all
    from ui.session import Session

    def refused(*_a, **_k):  # the advice task fails as an unknown --site made it fail (a scenario naming
        raise InputError("unknown site 'no-such-site'")  # a missing site is now advised and says so)

    monkeypatch.setattr(ui.session, "advise_scenario", refused)
    window = MainWindow(Session(settings_store(), settings=Settings(), kb_path=kb_file))
    code = render_all(window, None, tmp_path / "shots", (1024, 700))
    err = capsys.readouterr().err
    assert code == 1
    assert "capadvisor: error in advice" in err and "no-such-site" in err
    assert "a bug" not in err
    window.deleteLater()
