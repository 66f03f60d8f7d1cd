"""Issue #29 point 6: edits of the real-time task table not yet saved to the scenario are unsaved
changes (opening another file asks first; Save writes them into the scenario and the file); an
emptied chart keeps no legend of the task set before. Point 9: the question's buttons have
accelerator keys."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox, QTableWidgetItem

from advisor.scenario import load_scenario
from tests.ui.conftest import wait_idle
from ui.demo import demo_data

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def _answer(monkeypatch, button, seen: list):
    def exec_(box):
        seen.append(box)
        return button

    monkeypatch.setattr(QMessageBox, "exec", exec_)


def _edit_tasks(qtbot, rt):
    i = rt.table.rowCount()
    rt.table.insertRow(i)
    for j, text in enumerate(("t9", "40", "3", "")):
        rt.table.setItem(i, j, QTableWidgetItem(text))
    wait_idle(qtbot, rt, 30000)


@pytest.mark.timeout(180)
def test_unsaved_task_edits_are_asked_about_and_saved_with_the_scenario(window, qtbot, monkeypatch, tmp_path):
    doc = window.session.document
    path = tmp_path / "lab.yaml"
    assert window._save_to(path) and not doc.dirty
    rt = window.show_view("realtime")
    wait_idle(qtbot, rt, 30000)
    assert rt.unsaved_edits() is None and window.maybe_discard()
    _edit_tasks(qtbot, rt)
    assert not doc.dirty and rt.unsaved_edits()
    seen: list = []
    _answer(monkeypatch, QMessageBox.StandardButton.Cancel, seen)
    asked = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (asked.append(a), (str(EXAMPLES / "small-lab.json"), ""))[1]))
    window.act_open.trigger()  # File > Open...
    assert not asked
    assert seen and "real-time task set" in seen[0].text()
    texts = {seen[0].button(b).text() for b in (QMessageBox.StandardButton.Save, QMessageBox.StandardButton.Discard)}
    assert texts == {"&Save", "&Don't save"}
    assert doc.path == path  # nothing opened, nothing lost
    _answer(monkeypatch, QMessageBox.StandardButton.Save, seen)
    assert window.maybe_discard()
    names = [t.name for w in load_scenario(path).workloads if w.realtime for t in w.realtime.tasks]
    assert "t9" in names


@pytest.mark.timeout(180)
def test_discarded_task_edits_go_and_the_empty_chart_has_no_legend(window, qtbot, monkeypatch):
    rt = window.show_view("realtime")
    wait_idle(qtbot, rt, 30000)
    assert rt.result is not None and rt.chart.legend_label.isVisible()
    _edit_tasks(qtbot, rt)
    _answer(monkeypatch, QMessageBox.StandardButton.Discard, [])
    assert window.maybe_discard()
    assert rt.unsaved_edits() is None
    data = demo_data()
    for w in data["workloads"]:
        w.pop("realtime", None)
    window.session.document.load_data(data)  # another scenario, no real-time tasks
    wait_idle(qtbot, rt, 30000)
    assert rt.table.rowCount() == 0 and rt.chart.spec.empty
    assert not rt.chart.legend_label.isVisible() and "T_VM" not in rt.chart.legend_label.text()
