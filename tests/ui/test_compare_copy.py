"""Issue #29 point 9: Compare's copy keeps the open scenario as it was while the open scenario is
varied (the first column follows it), and the comparison has cost and host-CPU rows."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QPushButton

from tests.ui.conftest import wait_idle


@pytest.mark.timeout(180)
def test_keep_a_copy_then_vary_the_open_scenario(window, qtbot):
    s = window.session
    panel = window.show_view("compare")
    wait_idle(qtbot, panel, 60000)
    button = next(b for b in panel.findChildren(QPushButton) if "copy" in b.text())
    assert button.text() == "&Keep a copy, then vary"
    button.click()
    wait_idle(qtbot, panel, 60000)
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        s.document.set(("hosts", "cpu", "cores_per_socket"), 2 * int(s.document.get(("hosts", "cpu", "cores_per_socket"))))
    wait_idle(qtbot, panel, 60000)
    labels, cells = panel.rows()
    assert [n for n, _d in panel.items()][1].endswith("(as it was)")
    cpu = cells[labels.index("Host CPU at the planned load")]
    assert all("%" in c for c in cpu), cpu
    cores = cells[labels.index("Cores per host")]
    assert int(cores[0]) == 2 * int(cores[1])  # the open scenario varied, the copy kept
    hosts = cells[labels.index("Number of hosts · cluster")]
    assert hosts[0] != hosts[1]
    assert "Cost" in labels


def test_a_long_design_name_is_elided_with_its_whole_name_in_the_tooltip(window, qtbot):
    """At 1024 px a column's name longer than its column was clipped at both ends ("egional private
    cloud (open"): it now ends in an ellipsis and its tooltip holds it whole."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QFont

    window.resize(1024, 700)
    panel = window.show_view("compare")
    wait_idle(qtbot, panel, 60000)
    header = panel.table.horizontalHeader()
    assert header.textElideMode() == Qt.TextElideMode.ElideRight
    # elided with the widths of the weight the style sheet draws (600): at the normal weight the name was
    # measured as fitting and still clipped (looked at: 1024x700 screenshot, "Regional private cloud (op…")
    assert header.font().weight() >= QFont.Weight.DemiBold
    names = [n for n, _d in panel.items()]
    assert names and all(panel.table.horizontalHeaderItem(j).toolTip() == n for j, n in enumerate(names))
