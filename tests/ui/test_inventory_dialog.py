"""The GUI journey of File ▸ Import inventory…: an RVTools export read in the worker (the generated
RVTools 4.x workbook, and the real RVTools 4.7 export where it is present), the groups adjusted in
the dialog (group again, merge, split, rename), the scenario used and advised, today's settings on
the recommendation cards. Screenshots at 1920x1080, 1280x720 and 1024x700 go to
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


@pytest.mark.parametrize("workbook", ["rvtools-4x.xlsx", "RVTOOLEX.xlsx"])
def test_import_adjust_and_advise(qtbot, window, tmp_path, workbook):
    out = shots_dir(tmp_path)
    path = C.rvtools(workbook)
    facts, want = C.FACTS[workbook], C.rvtools_xlsx_totals(path)
    tag = "" if workbook == "RVTOOLEX.xlsx" else "-generated"
    dialog = open_import(qtbot, window, [path])
    assert dialog.inventory is not None, dialog.message.text()
    assert (f"Found <b>{facts['vms']}</b> VMs, <b>{facts['powered_off']}</b> powered off, "
            f"<b>{facts['templates']}</b> templates, <b>{facts['hosts']}</b> hosts") in dialog.found.text()
    assert "Assumed" in dialog.assumed.text() and "I/O pattern" in dialog.assumed.text()
    assert "vCPUs per physical core" in dialog.today.text() and "VMware ESXi" in dialog.today.text()
    model = dialog.model
    groups = len(dialog.inventory.groups)
    assert model.rowCount() == groups <= 12
    assert f"scenario: <b>{groups}</b> groups, <b>{want.vms}</b> VMs, <b>{want.vcpus}</b> vCPUs" in dialog.totals.text()
    for w, h in SIZES:
        window.resize(w, h)
        dialog.resize(min(1100, w - 60), min(680, h - 40))
        grab(dialog, out / f"inventory-dialog{tag}-{w}x{h}.png")

    # group again by cluster, then back to similar sizes
    dialog.group_by.setCurrentIndex(dialog.group_by.findData("cluster"))
    assert any(g.name.startswith(facts["clusters"][0].lower()) for g in dialog.inventory.groups)
    dialog.group_by.setCurrentIndex(dialog.group_by.findData("auto"))
    # merge two groups of the same vCPU count (the buttons follow the selection)
    four = [i for i, g in enumerate(dialog.inventory.groups) if dialog.inventory.profile(g).vcpus == 4][:2]
    dialog.select_rows(four)
    assert dialog.merge_button.isEnabled() and not dialog.split_button.isEnabled()
    qtbot.mouseClick(dialog.merge_button, Qt.MouseButton.LeftButton)
    assert model.rowCount() == groups - 1
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
    assert f"<b>{want.vcpus}</b> vCPUs" in dialog.totals.text().split("scenario:")[1]  # totals kept
    window.resize(1280, 720)
    dialog.resize(1100, 680)
    grab(dialog, out / f"inventory-dialog{tag}-adjusted.png")

    with qtbot.waitSignal(window.session.sig_advice, timeout=120000):
        qtbot.mouseClick(dialog.use_button, Qt.MouseButton.LeftButton)
    names = [w["name"] for w in window.session.document.data["workloads"]]
    assert "app-servers" in names and window.session.document.data["estate"]["found"]["vms"] == facts["vms"]
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
        grab(window, out / f"inventory-advice{tag}-{w}x{h}.png")


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


@pytest.mark.parametrize("workbook", ["rvtools-3x.xlsx", "SizingWorkshop-RVTools.xlsx"])
@pytest.mark.parametrize("group_by", ["size", "name-prefix", "cluster"])
def test_regroup_keeps_totals(qtbot, window, group_by, workbook):
    path = C.rvtools(workbook)
    want = C.rvtools_xlsx_totals(path)  # RVTools 3.x: 795 VMs, 2721 vCPUs in the real workshop workbook
    dialog = open_import(qtbot, window, [path])
    dialog.group_by.setCurrentIndex(dialog.group_by.findData(group_by))
    assert dialog.model.rowCount() == len(dialog.inventory.groups)
    assert f"<b>{want.vms}</b> VMs, <b>{want.vcpus}</b> vCPUs" in dialog.totals.text().split("scenario:")[1]
    dialog.powered_off.setChecked(False)
    assert "powered-off VMs left out" in dialog.totals.text()
    dialog.reject()


def test_stop_reading(qtbot, window):
    dialog = window.import_inventory([C.rvtools("rvtools-3x.xlsx")])
    assert dialog.progress_row.isVisibleTo(dialog) and dialog.cancel_read.isEnabled()
    qtbot.mouseClick(dialog.cancel_read, Qt.MouseButton.LeftButton)  # before the worker's result arrives
    qtbot.wait(500)
    assert dialog.inventory is None and "Reading stopped." in dialog.message.text()
    assert not dialog.use_button.isEnabled()
    dialog.reject()


def _drop(window, paths) -> None:
    """Drag ``paths`` onto the main window and drop them, as the desktop does (real Qt events)."""
    from PySide6.QtCore import QMimeData, QPointF, QUrl
    from PySide6.QtGui import QDragEnterEvent, QDropEvent
    from PySide6.QtWidgets import QApplication

    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    pos = window.rect().center()
    enter = QDragEnterEvent(pos, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(pos), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, drop)


@pytest.mark.parametrize("files", [["rvtools-4x.xlsx"], ["disk-cache.xml", "virsh-info-default.out"],
                                   ["servers-details-resp.json", "flavors-detail-resp.json"]])
def test_dropping_an_estate_export_opens_the_inventory_import_not_the_benchmark_import(qtbot, window, files):
    from ui.dialogs.inventory import InventoryDialog

    where = {"rvtools-4x.xlsx": None, "disk-cache.xml": C.LIBVIRT, "virsh-info-default.out": C.LIBVIRT,
             "servers-details-resp.json": C.OPENSTACK, "flavors-detail-resp.json": C.OPENSTACK}
    paths = [C.rvtools(n) if where[n] is None else where[n] / n for n in files]
    sites = window.panels.get("sites")
    batches_before = getattr(sites, "batch", None)
    _drop(window, paths)
    dialogs = [d for d in window.findChildren(InventoryDialog) if d.isVisible()]
    assert len(dialogs) == 1, "the drop did not open File > Import inventory"
    dialog = dialogs[0]
    qtbot.waitUntil(lambda: dialog.inventory is not None or dialog.message.isVisible(), timeout=60000)
    assert dialog.inventory is not None, dialog.message.text()
    assert dialog.inventory.source_totals()["vms"] > 0
    assert getattr(window.panels.get("sites"), "batch", None) is batches_before  # no benchmark import ran
    dialog.reject()


def test_a_dropped_benchmark_file_and_estate_export_each_go_to_their_import(qtbot, window):
    from tests.ui.conftest import fio_fixture
    from ui.dialogs.inventory import InventoryDialog

    sites = window.show_view("sites")
    sites.new_site.setText("lab-drop")
    with qtbot.waitSignal(sites.task.sig_done, timeout=30000):
        _drop(window, [fio_fixture(), C.LIBVIRT / "cputune.xml"])
    assert [o.tool for o in sites.outcomes] == ["fio"]  # only the benchmark file was imported
    dialog = next(d for d in window.findChildren(InventoryDialog) if d.isVisible())
    qtbot.waitUntil(lambda: dialog.inventory is not None, timeout=60000)
    assert [s.format for s in dialog.inventory.estate.sources] == ["libvirt-xml"]
    dialog.reject()


def test_opening_an_estate_export_as_a_scenario_offers_the_inventory_import(qtbot, window):
    from ui.dialogs.inventory import InventoryDialog

    before = window.session.document.data["name"]
    assert window.open_scenario(C.rvtools("rvtools-3x.xlsx")) is False
    dialog = next(d for d in window.findChildren(InventoryDialog) if d.isVisible())
    qtbot.waitUntil(lambda: dialog.inventory is not None, timeout=60000)
    assert dialog.inventory.source_totals()["vms"] == C.FACTS["rvtools-3x.xlsx"]["vms"]
    dialog.reject()
    assert window.session.document.data["name"] == before


@pytest.mark.parametrize("name", ["liveoptics.xlsx", "nutanix-collector.xlsx", "azure-migrate-import.csv",
                                  "aws-migrationhub-import.csv"])
def test_import_inventory_accepts_the_other_collectors(qtbot, window, name):
    """File > Import inventory reads the Live Optics, Nutanix Collector, Azure Migrate and AWS
    Migration Hub fixtures (tests/fixtures/inventory/collectors) and names their format."""
    from ui.dialogs.inventory import INVENTORY_FILTER

    path = C.FIX / "collectors" / name
    assert f"*{path.suffix}" in INVENTORY_FILTER.split(";;")[0]
    dialog = open_import(qtbot, window, [path])
    assert dialog.inventory is not None, dialog.message.text()
    assert "Found <b>9</b> VMs" in dialog.found.text()
    fmt = {"liveoptics.xlsx": "liveoptics-xlsx", "nutanix-collector.xlsx": "nutanix-xlsx",
           "azure-migrate-import.csv": "azure-migrate-csv", "aws-migrationhub-import.csv": "aws-mhub-csv"}[name]
    assert [s.format for s in dialog.inventory.estate.sources] == [fmt]
    dialog.reject()


def test_a_known_collector_workbook_it_cannot_read_is_named_in_the_dialog(qtbot, window, tmp_path):
    from tests.knowledge.rvtools_workbooks import write_openpyxl

    path = write_openpyxl(tmp_path / "lo-hosts.xlsx", {"ESX Hosts": [["Host Name"], ["esx-1"]],
                                                       "ESX Performance": [["Host"], ["esx-1"]]})
    dialog = open_import(qtbot, window, [path])
    assert dialog.inventory is None and "a Live Optics export, but without its VMs sheet" in dialog.message.text()
    assert "RVTools" not in dialog.message.text()
    dialog.reject()
