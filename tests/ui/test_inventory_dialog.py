"""The GUI journey of File ▸ Import inventory…: a real RVTools export read in the worker, the groups
adjusted in the dialog (group again, merge, split, rename), the scenario used and advised, today's
settings on the recommendation cards. Screenshots at 1920x1080, 1280x720 and 1024x700 go to
$CAPADVISOR_TEST_SCREENSHOTS (default: the test's tmp folder)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from tests.knowledge import inventory_cases as C

SIZES = ((1920, 1080), (1280, 720), (1024, 700))


def shots_dir(tmp_path: Path) -> Path:
    d = Path(os.environ.get("CAPADVISOR_TEST_SCREENSHOTS") or tmp_path / "screenshots")
    d.mkdir(parents=True, exist_ok=True)
    return d


def grab(widget, path: Path) -> None:
    from PySide6.QtWidgets import QApplication

    QApplication.processEvents()
    assert widget.grab().save(str(path)), path


def settle(qtbot) -> None:
    """Let resizes re-render and replaced widgets be deleted before a grab."""
    from PySide6.QtCore import QCoreApplication, QEvent

    for _ in range(3):
        qtbot.wait(150)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def open_import(qtbot, window, paths):
    dialog = window.import_inventory([Path(p) for p in paths])
    assert dialog is not None
    qtbot.waitUntil(lambda: dialog.inventory is not None or dialog.message.isVisible(), timeout=60000)
    return dialog


def test_import_adjust_and_advise(qtbot, window, tmp_path):
    out = shots_dir(tmp_path)
    dialog = open_import(qtbot, window, [C.RVTOOLS / "RVTOOLEX.xlsx"])
    assert dialog.inventory is not None, dialog.message.text()
    assert "Found <b>133</b> VMs, <b>17</b> powered off, <b>0</b> templates, <b>9</b> hosts" in dialog.found.text()
    assert "Assumed" in dialog.assumed.text() and "I/O pattern" in dialog.assumed.text()
    assert "vCPUs per physical core" in dialog.today.text() and "VMware ESXi" in dialog.today.text()
    model = dialog.model
    assert model.rowCount() == len(dialog.inventory.groups) <= 12
    assert "scenario: <b>12</b> groups, <b>133</b> VMs, <b>766</b> vCPUs" in dialog.totals.text()
    for w, h in SIZES:
        window.resize(w, h)
        dialog.resize(min(1100, w - 60), min(680, h - 40))
        grab(dialog, out / f"inventory-dialog-{w}x{h}.png")

    # group again by cluster, then back to similar sizes
    dialog.group_by.setCurrentIndex(dialog.group_by.findData("cluster"))
    assert any(g.name.startswith("usfq-produccion") for g in dialog.inventory.groups)
    dialog.group_by.setCurrentIndex(dialog.group_by.findData("auto"))
    # merge two groups of the same vCPU count (the buttons follow the selection)
    four = [i for i, g in enumerate(dialog.inventory.groups) if dialog.inventory.profile(g).vcpus == 4][:2]
    dialog.select_rows(four)
    assert dialog.merge_button.isEnabled() and not dialog.split_button.isEnabled()
    qtbot.mouseClick(dialog.merge_button, Qt.MouseButton.LeftButton)
    assert model.rowCount() == 11
    merged = dialog.selected_rows()[0]
    # split the merged group by power state, rename the powered-on half in the table's editor
    dialog.select_rows([merged])
    dialog.split_actions["power"].trigger()
    on_row = dialog.selected_rows()[0]
    assert dialog.inventory.groups[on_row].name.endswith("-on")
    dialog.select_rows([on_row])
    dialog.rename_selected()
    editors = dialog.table.findChildren(QLineEdit)
    assert editors, "no name editor opened"
    editors[-1].selectAll()
    qtbot.keyClicks(editors[-1], "app-servers")
    qtbot.keyClick(editors[-1], Qt.Key.Key_Return)
    qtbot.wait(20)  # the delegate commits the edit from the event loop
    assert dialog.inventory.groups[on_row].name == "app-servers"
    assert "<b>766</b> vCPUs" in dialog.totals.text().split("scenario:")[1]  # totals kept
    window.resize(1280, 720)
    dialog.resize(1100, 680)
    grab(dialog, out / "inventory-dialog-adjusted.png")

    with qtbot.waitSignal(window.session.sig_advice, timeout=120000):
        qtbot.mouseClick(dialog.use_button, Qt.MouseButton.LeftButton)
    names = [w["name"] for w in window.session.document.data["workloads"]]
    assert "app-servers" in names and window.session.document.data["estate"]["found"]["vms"] == 133
    assert window.tabs.currentWidget() is not None
    panel = window.show_view("recommendations")
    qtbot.waitUntil(lambda: bool(getattr(panel, "cards", None)), timeout=30000)
    today = [c for c in panel.cards if c.today_label is not None]
    assert today, "no card shows today's setting"
    over = next(c for c in today if c.rec.decision == "vcpu_overallocation")
    assert "vCPUs per core" in over.today_label.text() and "advised" in over.today_label.text()
    for w, h in SIZES:
        window.resize(w, h)
        settle(qtbot)
        grab(window, out / f"inventory-advice-{w}x{h}.png")


def test_bad_file_is_named_and_nothing_is_loaded(qtbot, window, tmp_path):
    bad = tmp_path / "RVTools_tabvInfo.csv"
    bad.write_text("VM,Powerstate,Memory\nweb,poweredOn,2048\n")
    before = window.session.document.data["name"]
    dialog = open_import(qtbot, window, [bad])
    assert dialog.inventory is None and dialog.message.isVisible()
    assert "RVTools_tabvInfo.csv: tab vInfo has no column 'CPUs'" in dialog.message.text()
    assert not dialog.use_button.isEnabled()
    grab(dialog, shots_dir(tmp_path) / "inventory-dialog-error.png")
    dialog.reject()
    assert window.session.document.data["name"] == before


def test_libvirt_cache_modes_in_the_dialog_and_on_cards(qtbot, window, tmp_path):
    dialog = open_import(qtbot, window, [C.LIBVIRT / "disk-cache.xml", C.LIBVIRT / "virsh-info-default.out"])
    model = dialog.model
    texts = [model.data(model.index(r, 5)) for r in range(model.rowCount())]
    assert any("cache writeback (1 disk), unsafe (1 disk)" in t for t in texts)
    assert any("without size (assumed)" in t for t in texts)  # 'test' from virsh list has no size
    with qtbot.waitSignal(window.session.sig_advice, timeout=120000):
        dialog.accept()
    panel = window.show_view("recommendations")
    qtbot.waitUntil(lambda: bool(getattr(panel, "cards", None)), timeout=30000)
    cache = [c for c in panel.cards if c.rec.decision == "cache_mode" and c.today_label is not None]
    assert cache and "Today: <b>writeback (1 disk), unsafe (1 disk)" in cache[0].today_label.text()


@pytest.mark.parametrize("group_by", ["size", "name-prefix", "cluster"])
def test_regroup_keeps_totals(qtbot, window, group_by):
    dialog = open_import(qtbot, window, [C.RVTOOLS / "SizingWorkshop-RVTools.xlsx"])
    dialog.group_by.setCurrentIndex(dialog.group_by.findData(group_by))
    assert dialog.model.rowCount() == len(dialog.inventory.groups)
    assert "<b>795</b> VMs, <b>2721</b> vCPUs" in dialog.totals.text().split("scenario:")[1]
    dialog.powered_off.setChecked(False)
    assert "powered-off VMs left out" in dialog.totals.text()
    dialog.reject()


def test_stop_reading(qtbot, window):
    dialog = window.import_inventory([C.RVTOOLS / "SizingWorkshop-RVTools.xlsx"])
    assert dialog.progress_row.isVisibleTo(dialog) and dialog.cancel_read.isEnabled()
    qtbot.mouseClick(dialog.cancel_read, Qt.MouseButton.LeftButton)  # before the worker's result arrives
    qtbot.wait(500)
    assert dialog.inventory is None and "Reading stopped." in dialog.message.text()
    assert not dialog.use_button.isEnabled()
    dialog.reject()
