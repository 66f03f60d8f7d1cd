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
    from knowledge.infra.errors import InputError

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

    from knowledge.infra.errors import InputError

    doc = ScenarioDocument(demo_data())
    doc.set(("workloads", 0, "vms"), 0)
    with pytest.raises(InputError):
        doc.save(tmp_path / "bad.yaml")
    assert not (tmp_path / "bad.yaml").exists()


def _type_into(qtbot, editor, text: str) -> None:
    editor.setFocus()
    editor.selectAll()
    qtbot.keyClicks(editor, text)


def _cell_text(table, row: int, col: int) -> str:
    return table.model.index(row, col).data()


def _type_in_cell(panel, table, row: int, col: int, text: str) -> None:
    """Click the cell as a user would, type, press Enter."""
    from PySide6.QtCore import Qt as _Qt
    from PySide6.QtWidgets import QApplication

    from tests.ui.userinput import click, key, type_text

    QApplication.processEvents()  # lay out first (a row may just have been added)
    table.table.scrollTo(table.model.index(row, col))
    click(panel.window(), table.table.viewport(), table.cell_rect(row, col).center())
    type_text(text)
    key(_Qt.Key.Key_Return)


def _panel(qtbot, doc):
    panel = QtScenarioPanel(doc)
    qtbot.addWidget(panel)
    panel.resize(1280, 1000)
    panel.show()
    panel.activateWindow()
    qtbot.waitExposed(panel)
    return panel


def test_local_disk_groups_are_a_table_of_their_own(qtbot, tmp_path):
    from advisor.scenario import load_scenario

    doc = ScenarioDocument(demo_data())
    panel = _panel(qtbot, doc)
    table = panel.disks_table
    assert table.model.rowCount() == 1 and _cell_text(table, 0, 2) == "1920"
    qtbot.mouseClick(table.add_button, Qt.MouseButton.LeftButton)
    assert doc.get(("hosts", "disks", 1)) == {"kind": "ssd", "count": 1, "size_gb": 1920.0}
    _type_in_cell(panel, table, 1, 0, "h")  # a choice: its first letter
    _type_in_cell(panel, table, 1, 1, "2")
    _type_in_cell(panel, table, 1, 2, "4000")
    _type_in_cell(panel, table, 1, 4, "180")
    assert doc.get(("hosts", "disks", 1)) == {"kind": "hdd", "count": 2, "size_gb": 4000.0, "mb_s": 180.0}
    assert doc.problems == {}

    # a wrong value: red cell, its message as the tooltip and under the table, by row
    _type_in_cell(panel, table, 1, 1, "0")
    assert doc.problems == {"hosts.disks[1].count": "must be >= 1"}
    index = table.model.index(1, 1)
    assert index.data(Qt.ItemDataRole.ToolTipRole) == "must be >= 1"
    assert index.data(Qt.ItemDataRole.BackgroundRole) is not None
    assert table.problems.isVisible() and "Disk group 2, count: must be >= 1" in table.problems.text()
    assert table.model.index(0, 1).data(Qt.ItemDataRole.BackgroundRole) is None
    doc.undo_stack.undo()
    assert doc.problems == {} and not table.problems.isVisible() and _cell_text(table, 1, 1) == "2"

    # the engine and the saved file see both groups
    saved = load_scenario(doc.save(tmp_path / "two-groups.yaml")).hosts.disks
    assert [(d.kind, d.count, d.size_gb, d.mb_s) for d in saved] == [("ssd", 4, 1920.0, None),
                                                                     ("hdd", 2, 4000.0, 180.0)]

    # Remove deletes the row the user works in (the current cell's), not simply the last one
    table.table.setCurrentIndex(table.model.index(0, 2))
    qtbot.mouseClick(table.remove_button, Qt.MouseButton.LeftButton)
    assert doc.get(("hosts", "disks")) == [{"kind": "hdd", "count": 2, "size_gb": 4000.0, "mb_s": 180.0}]
    assert table.model.rowCount() == 1 and _cell_text(table, 0, 0) == "hdd"
    table.remove()
    assert "disks" not in doc.data["hosts"] and doc.problems == {}
    assert table.empty.isVisible() and not table.table.isVisible() and not table.remove_button.isEnabled()
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert len(doc.get(("hosts", "disks"))) == 2 and table.model.rowCount() == 2


def test_shared_storage_entries_and_new_fields(qtbot):
    doc = ScenarioDocument(demo_data())
    panel = _panel(qtbot, doc)
    shared = panel.shared_table
    shared.add()
    assert doc.get(("hosts", "shared_storage", 1)) == {"kind": "iscsi", "network_gbps": 10.0}
    _type_in_cell(panel, shared, 1, 2, "12.5")
    assert doc.get(("hosts", "shared_storage", 1, "capacity_tb")) == 12.5
    assert doc.scenario.hosts.shared_storage[1].capacity_tb == 12.5

    # frequency scaling: yes, no, or not known (the key is dropped)
    freq = panel.hosts_form.editors[("cpu", "frequency_scaling")]
    freq.setCurrentText("no")
    assert doc.get(("hosts", "cpu", "frequency_scaling")) is False
    freq.setCurrentText("not known")
    assert "frequency_scaling" not in doc.get(("hosts", "cpu"))
    doc.set(("hosts", "cpu", "frequency_scaling"), True)
    assert freq.currentText() == "yes"

    # the workload's data footprint, checked against its virtual disk next to the field
    panel.workload_list.setCurrentRow(1)  # database: 500 GB disk, 300 GB footprint
    foot = panel.workload_form.editors[("io", "footprint_gb")]
    assert foot.value() == 300
    _type_into(qtbot, foot, "600")
    assert doc.problems == {"workloads[1].io.footprint_gb": "must be <= io.disk_gb (500)"}
    assert panel.workload_form.rows[("io", "footprint_gb")].error.isVisible()
    app = panel.workload_form.editors[("application",)]
    _type_into(qtbot, app, "cassandra")
    assert doc.get(("workloads", 1, "application")) == "cassandra"
    app.clear()
    app.textEdited.emit("")
    assert "application" not in doc.get(("workloads", 1))


def test_typing_a_decimal_number_keeps_its_fraction(qtbot):
    """Each keystroke updates the document, which refreshes the editors: that must not re-format
    a half-typed "2." into "2.00" (the next digit would then be lost)."""
    doc = ScenarioDocument(demo_data())
    panel = QtScenarioPanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    ram = panel.workload_form.editors[("ram_gib",)]
    _type_into(qtbot, ram, "2.5")
    assert doc.get(("workloads", 0, "ram_gib")) == 2.5
    _type_into(qtbot, panel.hosts_form.editors[("cpu", "ghz")], "2.45")
    assert doc.get(("hosts", "cpu", "ghz")) == 2.45


def test_editing_an_assumed_value_declares_it_in_one_undo_step(qtbot):
    """An imported estate's assumed NIC speed becomes the user's declaration once edited (the advice
    then calls figures resting on it declared); undo brings value and mark back together."""
    from advisor.hardware import Hardware

    data = demo_data()
    data["estate"] = {"source": "test", "assumed": ["hosts.nic_gbps", "hosts.disks"]}
    data["workloads"][0]["assumed"] = ["io.pattern"]
    doc = ScenarioDocument(data)
    assert doc.problems == {} and Hardware(doc.scenario).nic().source == "assumed"
    doc.set(("hosts", "nic_gbps"), 25)
    assert doc.get(("estate", "assumed")) == ["hosts.disks"] and Hardware(doc.scenario).nic().source == "declared"
    doc.set(("hosts", "nic_gbps"), 40)  # later edits of the field are plain edits
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.get(("hosts", "nic_gbps")) == data["hosts"]["nic_gbps"]
    assert doc.get(("estate", "assumed")) == ["hosts.nic_gbps", "hosts.disks"]
    doc.set(("workloads", 0, "io", "pattern"), "sequential")
    assert "assumed" not in doc.get(("workloads", 0)) and doc.problems == {}
