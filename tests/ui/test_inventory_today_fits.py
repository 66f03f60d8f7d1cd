"""Issue #29 point 9: File > Import inventory's Today panel is read whole in the dialog as it opens
at 1280x720 (1000x640), without scrolling; the groups table scrolls instead."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.mark.timeout(120)
def test_the_today_panel_needs_no_scrolling(window, qtbot):
    dialog = window.import_inventory([EXAMPLES / "inventory-vms.csv", EXAMPLES / "inventory-hosts.csv"])
    qtbot.waitUntil(lambda: dialog.inventory is not None or dialog.message.isVisible(), timeout=60000)
    assert dialog.inventory is not None, dialog.message.text()
    assert (dialog.width(), dialog.height()) == (1000, 640)
    qtbot.wait(100)
    QApplication.processEvents()
    assert "Today" in dialog.today.text()
    from PySide6.QtWidgets import QScrollArea

    assert dialog.findChild(QScrollArea, "inventoryInfo").verticalScrollBar().maximum() == 0
    dialog.reject()
