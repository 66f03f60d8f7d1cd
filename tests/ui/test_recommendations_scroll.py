"""Issue #29 point 9: after loading a design (or another scenario) the recommendations are read
from the top, not at the old scroll position; an edit of one field keeps the position."""

from __future__ import annotations

import copy

from PySide6.QtWidgets import QApplication


def test_a_loaded_design_is_shown_from_the_top(window, qtbot):
    s = window.session
    cards = window.show_view("recommendations")
    window.resize(640, 420)
    qtbot.waitUntil(lambda: cards.area.verticalScrollBar().maximum() > 0, timeout=5000)
    bar = cards.area.verticalScrollBar()
    assert bar.maximum() > 0
    bar.setValue(bar.maximum())
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        s.document.set(("hosts", "ram_gib"), 512)  # one field: the reader stays where they are
    QApplication.processEvents()
    assert bar.value() > 0
    data = copy.deepcopy(s.document.data)
    data["hosts"]["count"] = int(data["hosts"]["count"]) + 1
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        s.document.replace(data, "load design")
    QApplication.processEvents()
    assert bar.value() == 0
