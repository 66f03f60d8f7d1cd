"""Recommendations read well (issue #17, point 9): the design at one glance on top (a bill of
materials with the targets), no rule ids or internal names in the prose, human choice labels,
scores that say what they are, tooltips wrapped at a readable width, no sideways scrolling."""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QPoint
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea, QToolTip

from tests.ui.conftest import wait_idle

RULE_ID = re.compile(r"\b(?:bs|cache|ct|dp|gov|hc|hv|it|lb|oa|rt|sb)\.[a-z][a-z0-9\-]+")  # any rule id


def test_the_design_at_a_glance_and_readable_cards(window, qtbot):
    s = window.session
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        s.document.set(("preferences", "targets"), {"max_host_cpu_pct": 50})
    panel = window.show_view("recommendations")
    wait_idle(qtbot, panel)
    design = panel.design.text()
    assert panel.design.isVisible() and "The design at a glance" in design
    hosts = s.advice.find("host_count").expected["hosts"]["value"]
    for needed in (f"{hosts:g} hosts", "Hypervisor", "VM images on", "Workload database", "cache directsync",
                   "real time T_VM=", "Calibration", "Targets", "of 1 met"):
        assert needed in design, needed
    for card in panel.cards:
        for label in card.findChildren(QLabel):
            text = label.text()
            assert not RULE_ID.search(text), (card.rec.decision, text[:200])
            assert "nfs_file" not in text and "local_disk" not in text, text[:200]
    storage = next(c for c in panel.cards if c.rec.decision == "storage_backend")
    assert storage.choice.text() in ("NFS, image files", "local disk", "iSCSI", "NFS root file system",
                                     "distributed storage")
    hc = next(c for c in panel.cards if c.rec.decision == "host_count")
    assert hc.choice.text() == f"{hosts:g} hosts"
    table = storage.alt_table
    header = table.horizontalHeaderItem(1)
    assert header.text().startswith("Points (chosen option:") and "points" in header.toolTip()
    assert "points against" in table.item(0, 1).toolTip()  # what 1 vs 5 means, on the cell
    assert all("_" not in table.item(i, 0).text() for i in range(table.rowCount()))


def test_long_tooltips_are_wrapped(window, qtbot):
    label = QLabel("x")
    label.setToolTip("A long explanation " * 12)
    window.statusBar().addWidget(label)
    label.show()
    QApplication.processEvents()
    ev = QHelpEvent(QEvent.Type.ToolTip, QPoint(2, 2), label.mapToGlobal(QPoint(2, 2)))
    QApplication.sendEvent(label, ev)
    shown = QToolTip.text()
    assert shown.startswith("<p") and "A long explanation" in shown  # rich text: Qt word-wraps it
    QToolTip.hideText()


def test_no_sideways_scrolling_on_a_small_screen(window, qtbot):
    window.resize(1024, 700)
    panel = window.show_view("recommendations")
    wait_idle(qtbot, panel)
    QApplication.processEvents()
    area = next(a for a in panel.findChildren(QScrollArea))
    assert not area.horizontalScrollBar().isVisible()
    assert panel._columns == 1 or area.widget().minimumSizeHint().width() <= area.viewport().width()

