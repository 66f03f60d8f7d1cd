"""Scenario document and editor: edits, validation next to the field, undo/redo, files."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ui.demo import demo_data
from ui.document import ScenarioDocument, path_text, problems_by_path
from ui.panels.qt_scenario import QtScenarioPanel


def test_path_text_matches_the_core_messages():
    assert path_text(("workloads", 2, "io", "read_share")) == "workloads[2].io.read_share"


def test_undo_redo_and_dirty_flag(qtbot):
    doc = ScenarioDocument(demo_data())
    assert not doc.dirty
    doc.set(("hosts", "count"), 9)
    doc.set(("hosts", "count"), 10)  # merges with the previous edit of the same field
    assert doc.get(("hosts", "count")) == 10 and doc.dirty
    doc.undo_stack.undo()
    assert doc.get(("hosts", "count")) == 6 and not doc.dirty
    doc.undo_stack.redo()
    assert doc.get(("hosts", "count")) == 10


def test_validation_by_path(qtbot):
    doc = ScenarioDocument(demo_data())
    assert doc.problems == {} and doc.scenario is not None
    doc.set(("workloads", 1, "vcpus"), 0)
    doc.set(("hosts", "reserve"), 7)
    assert "workloads[1].vcpus" in doc.problems
    assert "hosts.reserve" in doc.problems


def test_problems_by_path_keeps_unplaced_text():
    from knowledge.errors import InputError

    out = problems_by_path(InputError("s: 2 problem(s) in the scenario:\n  hosts.count: must be >= 1\n  odd line"))
    assert out == {"hosts.count": "must be >= 1", "": "odd line"}


def test_editor_shows_the_error_next_to_the_field_as_you_type(qtbot):
    doc = ScenarioDocument(demo_data())
    panel = QtScenarioPanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    panel.workload_list.setCurrentRow(1)
    vms = panel.workload_form.editors[("vms",)]
    vms.selectAll()
    qtbot.keyClicks(vms, "0")
    row = panel.workload_form.rows[("vms",)]
    assert doc.get(("workloads", 1, "vms")) == 0
    assert row.error.isVisible() and ">= 1" in row.error.text()
    assert "problem" in panel.banner.text()
    doc.undo_stack.undo()
    assert doc.get(("workloads", 1, "vms")) == 6
    assert not row.error.isVisible()
    assert vms.value() == 6  # the editor follows undo


def test_add_duplicate_remove_workloads(qtbot):
    doc = ScenarioDocument(demo_data())
    panel = QtScenarioPanel(doc)
    qtbot.addWidget(panel)
    n = len(doc.data["workloads"])
    panel.add_workload()
    assert len(doc.data["workloads"]) == n + 1 and doc.problems == {}
    panel.duplicate_workload()
    names = [w["name"] for w in doc.data["workloads"]]
    assert len(set(names)) == len(names) == n + 2
    panel.remove_workload()
    assert len(doc.data["workloads"]) == n + 1
    doc.undo_stack.undo()
    assert len(doc.data["workloads"]) == n + 2
    item = panel.workload_list.item(0)
    assert item.data(Qt.ItemDataRole.UserRole) == "web"


def test_save_and_open_in_the_cli_format(qtbot, tmp_path):
    from advisor.scenario import load_scenario

    doc = ScenarioDocument(demo_data())
    doc.set(("hosts", "count"), 8)
    for suffix in (".yaml", ".toml", ".json"):
        path = doc.save(tmp_path / f"s{suffix}")
        assert not doc.dirty
        assert load_scenario(path).hosts.count == 8
        other = ScenarioDocument()
        other.open(path)
        assert other.get(("hosts", "count")) == 8 and other.path == path


def test_invalid_scenario_is_not_saved(qtbot, tmp_path):
    import pytest

    from knowledge.errors import InputError

    doc = ScenarioDocument(demo_data())
    doc.set(("workloads", 0, "vms"), 0)
    with pytest.raises(InputError):
        doc.save(tmp_path / "bad.yaml")
    assert not (tmp_path / "bad.yaml").exists()
