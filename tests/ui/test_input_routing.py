"""Keys and the mouse wheel go where a user expects (issue #17, points 1 and 3): typing into a
table cell edits that cell, Tab leaves it; the wheel scrolls a form instead of changing the field
under the mouse; Ctrl+Z undoes even while a field has the focus; a chart does not zoom on a plain
wheel turn and has a visible way back after a move."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.gui import settings_store
from tests.ui.userinput import click, focus, key, type_text, wheel, widget_at
from ui.demo import demo_data


def _window(qtbot, size=(1280, 800)):
    """The real main window on the demo scenario (no knowledge base needed for editing)."""
    from ui.main_window import MainWindow
    from ui.session import Session

    w = MainWindow(Session(settings_store()))
    qtbot.addWidget(w, before_close_func=lambda win: win.session.document.undo_stack.setClean())
    w.session.document.load_data(demo_data())
    w.resize(*size)
    w.show()
    w.activateWindow()
    qtbot.waitExposed(w)
    return w


def _click_cell(w, table, row, col):
    from tests.ui.userinput import scroll_into_view

    scroll_into_view(table)
    index = table.table.model().index(row, col)
    table.table.scrollTo(index)
    return click(w, table.table.viewport(), table.table.visualRect(index).center())


def test_typing_into_a_storage_cell_edits_that_cell_and_tab_moves_on(qtbot):
    w = _window(qtbot)
    panel = w.show_view("scenario")
    doc = w.session.document
    shared = panel.shared_table  # kind, network, capacity, IOPS, system (distributed stores)
    _click_cell(w, shared, 0, 1)
    assert shared.table.currentIndex().column() == 1
    type_text("25")
    key(Qt.Key.Key_End)  # in a number cell End moves the cursor; it never changes the kind
    type_text("0")
    key(Qt.Key.Key_Tab)
    assert doc.get(("hosts", "shared_storage", 0)) == {"kind": "nfs", "network_gbps": 250.0, "capacity_tb": 40.0}
    assert shared.table.currentIndex().column() == 2  # Tab went on to the next cell
    type_text("55")
    key(Qt.Key.Key_Tab)
    assert doc.get(("hosts", "shared_storage", 0, "capacity_tb")) == 55.0
    key(Qt.Key.Key_Tab)  # IOPS
    key(Qt.Key.Key_Tab)  # the last cell (System): Tab leaves the table
    assert not shared.table.isAncestorOf(focus()) and focus() is not shared.table
    assert doc.get(("hosts", "shared_storage", 0, "kind")) == "nfs"

    # local disks: the Count cell takes the digits, the Kind stays
    disks = panel.disks_table
    _click_cell(w, disks, 0, 1)
    type_text("6")
    key(Qt.Key.Key_Return)
    assert doc.get(("hosts", "disks", 0)) == {"kind": "ssd", "count": 6, "size_gb": 1920.0}
    # a choice cell takes a typed first letter
    _click_cell(w, disks, 0, 0)
    type_text("n")
    key(Qt.Key.Key_Return)
    assert doc.get(("hosts", "disks", 0, "kind")) == "nvme"
    # each commit is one undo step
    doc.undo_stack.undo()
    assert doc.get(("hosts", "disks", 0, "kind")) == "ssd"


def test_wheel_over_a_field_scrolls_the_form_and_never_edits_it(qtbot):
    w = _window(qtbot, (1280, 600))
    panel = w.show_view("scenario")
    doc = w.session.document
    before = {p: doc.get(("hosts",) + p) for p in (("cpu", "ghz"), ("ram_gib",), ("count",))}
    ghz = panel.hosts_form.editors[("cpu", "ghz")]
    from PySide6.QtWidgets import QScrollArea

    area = next(a for a in panel.findChildren(QScrollArea) if a.isAncestorOf(ghz))
    # the form as a user finds it a moment after the window appeared: the parts below the fold made
    # (they follow the first paint) and laid out; a turn of the wheel within that moment met a form
    # half laid out (fields 0 px high) and went on to the tab bar
    assert panel.shared_table is not None
    content = area.widget()
    qtbot.waitUntil(lambda: ghz.height() > 0 and content.height() >= content.minimumSizeHint().height(), timeout=10000)
    bar = area.verticalScrollBar()
    assert bar.maximum() > 0, "the form must need scrolling at this size"
    start = bar.value()
    # top-most first: each turn scrolls the form up, and a field scrolled out of the view is no longer
    # under the mouse (the turn would land on whatever is there then, e.g. the tab bar)
    for editor in (panel.hosts_form.editors[("cpu", "virtualization")], ghz, panel.hosts_form.editors[("ram_gib",)]):
        under, _ = widget_at(w, editor, editor.rect().center())
        assert under is editor or editor.isAncestorOf(under), (editor.objectName(), under)
        wheel(w, editor, steps=-1)
    assert {p: doc.get(("hosts",) + p) for p in before} == before
    assert doc.get(("hosts", "cpu", "virtualization")) == "vmx"
    assert bar.value() > start  # the form scrolled instead
    # a field the user clicked into does step with the wheel (and that is one undo step)
    area.ensureWidgetVisible(ghz)
    click(w, ghz)
    assert focus() is ghz
    wheel(w, ghz, steps=1)
    assert doc.get(("hosts", "cpu", "ghz")) == 2.5


def test_ctrl_z_undoes_while_a_field_has_the_focus(qtbot):
    w = _window(qtbot)
    panel = w.show_view("scenario")
    doc = w.session.document
    ram = panel.hosts_form.editors[("ram_gib",)]
    click(w, ram)
    ram.selectAll()
    type_text("512")
    assert doc.get(("hosts", "ram_gib")) == 512
    assert focus() is ram
    key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.get(("hosts", "ram_gib")) == 256.0
    assert "256" in ram.text()
    key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert doc.get(("hosts", "ram_gib")) == 512
    # a value stepped (arrow key) rather than typed is undone the same way, focus or not
    key(Qt.Key.Key_Up)
    assert doc.get(("hosts", "ram_gib")) == 520
    assert focus() is ram
    key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.get(("hosts", "ram_gib")) == 256.0  # consecutive edits of one field are one step
    assert "256" in ram.text()


def test_chart_wheel_does_not_zoom_and_reset_view_is_visible(qtbot):
    from advisor.figures.spec import ChartSpec, Curve
    from ui.plots.charts import ChartWidget

    chart = ChartWidget()
    qtbot.addWidget(chart)
    chart.resize(600, 400)
    chart.show()
    qtbot.waitExposed(chart)
    spec = ChartSpec("cpu", "Host CPU", "VMs per host", "VMs", "CPU", "%",
                     curves=[Curve("kvm", np.array([1.0, 2, 3, 4]), np.array([10.0, 20, 30, 40]))])
    chart.set_spec(spec)
    QApplication.processEvents()
    vb = chart.plot.getPlotItem().getViewBox()
    before = vb.viewRange()
    wheel(chart, chart.plot.viewport(), steps=3)
    assert vb.viewRange() == before
    assert not chart.reset_button.isVisible()
    # the user zooms on purpose (Ctrl + wheel) or pans: the visible Reset view brings it back
    vb.scaleBy((0.5, 0.5))
    vb.sigRangeChangedManually.emit(vb.state["mouseEnabled"])
    assert chart.reset_button.isVisible()
    qtbot.mouseClick(chart.reset_button, Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    after = vb.viewRange()
    assert not chart.reset_button.isVisible()
    assert after[1][1] >= 39 and after[1][0] <= 11


def test_wheel_over_the_real_time_inputs_does_not_change_them(qtbot):
    from ui.panels.qt_realtime import QtRealtimePanel
    from ui.session import Session

    session = Session(settings_store())
    session.document.load_data(demo_data())
    panel = QtRealtimePanel(session)
    qtbot.addWidget(panel)
    panel.show()
    before = (panel.share.value(), panel.overhead.value(), panel.unit.currentText(), panel.policy.currentText())
    for w in (panel.share, panel.overhead, panel.unit, panel.policy):
        wheel(panel, w, steps=-2)
    assert (panel.share.value(), panel.overhead.value(), panel.unit.currentText(),
            panel.policy.currentText()) == before
