"""Journey (d): bad input everywhere. Wrong numbers and text in the host and workload fields, in
the disk and shared-storage tables and in the real-time task table; a save refused with the
reason in the user's words; broken files (truncated YAML, a benchmark result, a file with one
wrong value). Every message names the field or file; nothing typed or saved is lost."""

from __future__ import annotations

from pathlib import Path

import yaml
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QMessageBox

from tests.gui_journeys.steps import answer_file_dialog, cell, choose, fill
from tests.gui_journeys.xinput import wait_until

FIO = Path(__file__).resolve().parents[1] / "knowledge" / "importers" / "fixtures" / "fio3_randrw_2jobs.json"


def test_bad_input_in_every_table_and_field_and_bad_files(x, launch, tmp_path):
    w = launch()
    wait_until(lambda: getattr(w, "welcome", None) is not None and w.welcome.isVisible(), 10, "the welcome")
    x.click(w.welcome.buttons["new"])
    x.focus(w)
    panel = w.show_view("scenario")
    doc = w.session.document
    good = tmp_path / "good.yaml"
    answer_file_dialog(x, good, lambda: x.key("ctrl+s"), w)
    wait_until(lambda: good.exists(), 10, "the first save")
    saved = good.read_text()

    # fields: a count of 0, text for RAM, a read share of 1.5: kept as typed, each marked
    hosts, form = panel.hosts_form, panel.workload_form
    fill(x, hosts.editors[("count",)], "0")
    fill(x, hosts.editors[("ram_gib",)], "lots")
    fill(x, form.editors[("io", "read_share")], "1.5")
    assert doc.get(("hosts", "count")) == 0 and doc.get(("hosts", "ram_gib")) == "lots"
    assert doc.get(("workloads", 0, "io", "read_share")) == 1.5  # not clamped
    assert hosts.rows[("count",)].error.text() == "must be >= 1"
    assert "number" in hosts.rows[("ram_gib",)].error.text()
    assert form.rows[("io", "read_share")].error.text() == "must be <= 1"
    assert hosts.editors[("ram_gib",)].text() == "lots"
    banner = panel.banner.text()
    assert "Hosts: must be >= 1" in banner and 'Workload "workload1", Read share: must be <= 1' in banner
    assert "workloads[0]" not in banner and "hosts.ram_gib" not in banner
    x.screenshot("fields", w)

    # tables: a negative disk count, text for a network rate
    cell(x, panel.disks_table, 0, 1, "-2")
    x.click(panel.shared_table.add_button)
    cell(x, panel.shared_table, 0, 1, "fast")
    assert doc.get(("hosts", "disks", 0, "count")) == -2
    assert doc.get(("hosts", "shared_storage", 0, "network_gbps")) == "fast"
    assert "Disk group 1, count: must be >= 1" in panel.disks_table.problems.text()
    assert "Shared storage 1, network" in panel.shared_table.problems.text()
    x.screenshot("tables", w)

    # the real-time task table: a period that is no time is a red cell, the task is kept
    rt = w.show_view("realtime")
    choose(x, rt.workload, "workload1")
    QGuiApplication.clipboard().setText("a\t20\t2\nb\tsoon\t3\nc\t100\t15\n")
    x.click(rt.table.viewport())
    x.key("ctrl+v")
    wait_until(lambda: not rt.busy(), 10, "the task table")
    assert rt.table.rowCount() == 3 and (1, 1) in rt.problems
    assert "cell(s) to fix" in rt.summary.text() and not rt.save_button.isEnabled()
    x.screenshot("realtime", w)

    # save: refused, the reason in the editor's words; the file on disk untouched
    x.focus(w)
    x.key("ctrl+s")
    wait_until(lambda: w.error_bar.isVisible(), 10, "the refusal")
    message = w.error_bar.label.text()
    assert "value(s) to fix first" in message and "Hosts" in message and "hosts.count" not in message
    assert good.read_text() == saved
    x.screenshot("save-refused", w)

    # fix everything; the save goes through and the banner goes
    panel = w.show_view("scenario")
    fill(x, hosts.editors[("count",)], "4")
    fill(x, hosts.editors[("ram_gib",)], "256")
    fill(x, form.editors[("io", "read_share")], "0.7")
    cell(x, panel.disks_table, 0, 1, "2")
    cell(x, panel.shared_table, 0, 1, "10")
    assert doc.problems == {}
    x.focus(w)
    x.key("ctrl+s")
    wait_until(lambda: not w.error_bar.isVisible() and not doc.dirty, 10, "the save")
    assert yaml.safe_load(good.read_text())["hosts"]["ram_gib"] == 256

    # bad files: truncated YAML -> a message naming the file; nothing of the open scenario lost
    broken = tmp_path / "broken.yaml"
    broken.write_text("hosts:\n  count: [4, \n")
    answer_file_dialog(x, broken, lambda: x.key("ctrl+o"), w)
    wait_until(lambda: w.error_bar.isVisible(), 10, "the error")
    text = w.error_bar.label.text()
    assert "broken.yaml" in text and "YAML" in text and str(tmp_path) not in text
    assert doc.path == good and doc.get(("hosts", "ram_gib")) == 256
    x.screenshot("broken-file", w)

    # a benchmark result opened as a scenario: offered for import (declined here)
    asked = []

    def decline(dialog) -> None:
        assert isinstance(dialog, QMessageBox), type(dialog)
        asked.append(dialog.text())
        x.screenshot("offer-import", dialog)
        x.focus(dialog)
        x.key("Escape")

    def open_fio() -> None:
        x.key("ctrl+o")

    done = []

    def fill_dialog(dialog) -> None:
        x.focus(dialog)
        x.key("ctrl+a")
        x.type(str(FIO))
        x.on_modal(decline, kind=QMessageBox)
        x.key("Return")
        done.append(True)

    from PySide6.QtWidgets import QFileDialog

    x.on_modal(fill_dialog, kind=QFileDialog)
    open_fio()
    wait_until(lambda: bool(asked) and QApplication.activeModalWidget() is None, 30, "the offer to import")
    assert "not a scenario" in asked[0] and "fio" in asked[0]
    assert doc.path == good

    # a file with one wrong value opens, the value marked, and can be fixed
    one_bad = tmp_path / "one-bad.yaml"
    data = yaml.safe_load(good.read_text())
    data["workloads"][0]["vcpus"] = -1
    one_bad.write_text(yaml.safe_dump(data))
    x.focus(w)
    answer_file_dialog(x, one_bad, lambda: x.key("ctrl+o"), w)
    wait_until(lambda: doc.path == one_bad, 10, "the file with a wrong value")
    panel = w.show_view("scenario")
    wait_until(lambda: form.rows[("vcpus",)].error.text() == "must be >= 1", 30, "the field's error")
    assert 'Workload "workload1", vCPUs per VM: must be >= 1' in panel.banner.text()
    x.screenshot("one-bad-value", w)
    fill(x, form.editors[("vcpus",)], "2")
    assert doc.problems == {}
