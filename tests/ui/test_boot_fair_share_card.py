"""The storage card on a slow storage link (issue #23 follow-up): its boot time is the fair-share
bound and the card says so; storage the scenario does not declare is listed as not declared,
with no boot figure."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from tests.ui.conftest import wait_idle


def test_storage_card_says_the_boot_is_the_fair_share_bound(window, qtbot, tmp_path):
    s = window.session
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        s.document.set(("hosts", "shared_storage"), [{"kind": "nfs", "network_gbps": 1, "capacity_tb": 50}])
    panel = window.show_view("recommendations")
    wait_idle(qtbot, panel)
    card = next(c for c in panel.cards if c.rec.decision == "storage_backend")
    boot = card.rec.expected["boot_time"]
    assert boot["fair_share_bound"] and boot["value"] < 1000
    text = " ".join(label.text() for label in card.findChildren(QLabel))
    assert "fair-share bound" in text and "F6-08" in text
    table = card.alt_table
    rows = {table.item(i, 0).text(): [table.item(i, j).text() if table.item(i, j) else ""
                                      for j in range(table.columnCount())] for i in range(table.rowCount())}
    iscsi = next(v for k, v in rows.items() if k.startswith("iSCSI"))
    assert any("no iscsi shared storage is declared" in cell for cell in iscsi)
    assert not any("boot time" in cell for cell in iscsi)
    window.resize(1280, 720)
    wait_idle(qtbot, panel)
    assert card.grab().save(str(tmp_path / "storage_card_1280.png"))
