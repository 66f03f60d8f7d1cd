"""An imported scenario opened in the app: the scenario editor marks each field the import assumed
(⚠ assumed + tooltip) or derived from the estate's measurements (● measured), on the workload, the
hosts and the storage tables (review 1, item 14). Screenshots at 1920x1080, 1280x720 and 1024x700
go to $CAPADVISOR_TEST_SCREENSHOTS (default: the test's tmp folder)."""

from __future__ import annotations

from advisor.inventory import Inventory, write_scenario
from knowledge.inventory import read_inventory
from tests.advisor.test_inventory_measured import MIXED, workbook
from tests.ui.test_inventory_dialog import SIZES, grab, settle, shots_dir


def test_opened_import_marks_assumed_and_measured_fields(qtbot, window, tmp_path):
    xlsx = workbook(tmp_path / "estate.xlsx", 4, MIXED, 40.6, 35.0)
    path = tmp_path / "estate.yaml"
    write_scenario(Inventory(read_inventory([xlsx]), "name-prefix").to_scenario(), path)
    assert window.open_scenario(path)
    panel = window.show_view("scenario")
    row = next(i for i, w in enumerate(panel.workloads()) if w["name"] == "db")
    panel.workload_list.setCurrentRow(row)
    form = panel.workload_form
    cpu, pattern, name = (form.labels[p] for p in (("cpu_intensity",), ("io", "pattern"), ("name",)))
    assert "● measured" in cpu.text() and form.editors[("cpu_intensity",)].currentText() == "medium"
    assert cpu.toolTip().startswith("Measured:")
    assert "⚠ assumed" in pattern.text() and pattern.toolTip().startswith("Assumed:")
    assert form.editors[("io", "pattern")].toolTip().startswith("Assumed:")
    assert "assumed" not in name.text() and "measured" not in name.text()
    hosts = panel.hosts_form
    assert "⚠ assumed" in hosts.labels[("nic_gbps",)].text() and "⚠ assumed" in hosts.labels[("reserve",)].text()
    assert "assumed" not in hosts.labels[("count",)].text()  # vHost lists the hosts
    disks_label = panel.storage_labels[("hosts", "disks")][0]
    assert "⚠ assumed" in disks_label.text()
    out = shots_dir(tmp_path)
    for w, h in SIZES:
        window.resize(w, h)
        settle(qtbot)
        grab(window, out / f"scenario-imported-marks-{w}x{h}.png")
    # the user sets the CPU intensity: the value is the user's now, its 'measured' mark goes (one undo step)
    form.editors[("cpu_intensity",)].setCurrentText("high")
    settle(qtbot)
    assert "measured" not in form.labels[("cpu_intensity",)].text()
    assert "cpu_intensity" not in (window.session.document.data["workloads"][row].get("measured") or [])
    window.session.document.undo_stack.undo()
    settle(qtbot)
    assert "● measured" in form.labels[("cpu_intensity",)].text()
    # another scenario without marks: the labels are plain again
    window.session.document.load_data({**window.session.document.data, "estate": None,
                                       "workloads": [{k: v for k, v in x.items() if k not in ("assumed", "measured")}
                                                     for x in window.session.document.data["workloads"]]})
    assert "assumed" not in panel.workload_form.labels[("io", "pattern")].text()
    assert "measured" not in panel.workload_form.labels[("cpu_intensity",)].text()
    window.session.document.undo_stack.setClean()
