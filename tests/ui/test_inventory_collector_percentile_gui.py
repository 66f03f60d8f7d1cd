"""File ▸ Import inventory… of a Nutanix Collector workbook (#31 review, finding 5): the groups' CPU
comes from the VMs' own percentiles over the collection (its vCPU sheet), so the dialog offers the
sizing percentile as it does for series, and the dialog's numbers are the CLI's. Real MainWindow,
the committed fixture, offscreen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tests.ui.test_inventory_dialog import open_import

NX = Path(__file__).resolve().parents[1] / "fixtures" / "inventory" / "collectors" / "nutanix-collector.xlsx"


def cli_shares(percentile: int, capsys) -> dict[str, float]:
    """The measured groups' CPU busy share as ``capadvisor inventory NX --percentile N`` writes it."""
    from app.cli import main

    assert main(["inventory", str(NX), "--percentile", str(percentile), "--no-advise", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    return {w["name"]: w["cpu_busy_share"] for w in doc["scenario"]["workloads"] if "cpu_busy_share" in w}


def shares(data: dict) -> dict[str, float]:
    return {w["name"]: w["cpu_busy_share"] for w in data["workloads"] if "cpu_busy_share" in w}


@pytest.mark.timeout(180)
def test_the_vcpu_sheet_percentile_is_chosen_in_the_dialog(qtbot, window, capsys):
    dialog = open_import(qtbot, window, [NX])
    assert dialog.inventory is not None, dialog.message.text()
    assert dialog.inventory.series is None and dialog.percentile_row.isVisible()
    assert dialog.percentile.value() == 95
    at95 = shares(dialog.scenario_data())
    assert at95 == cli_shares(95, capsys) and at95
    assert all("100.0 % busy" not in dialog.model.index(r, 5).data() for r in range(dialog.model.rowCount()))
    dialog.percentile.setValue(50)
    data = dialog.scenario_data()
    at50 = shares(data)
    assert at50 == cli_shares(50, capsys)
    assert all(at50[k] < at95[k] for k in at95) and data["preferences"]["sizing_percentile"] == 50
    dialog.reject()


@pytest.mark.timeout(180)
def test_the_today_cells_say_the_share_the_percentile_box_sizes_on(qtbot, window):
    """#31 review 2, finding 28: the box changes the scenario, and the cells say so ("CPU sized ... % busy
    (the VMs' p50 ...)" = the scenario's share), with the whole cell as its tooltip (18: cut cells)."""
    dialog = open_import(qtbot, window, [NX])
    for q in (95, 50):
        dialog.percentile.setValue(q)
        sized = shares(dialog.scenario_data())
        cells = {dialog.model.index(r, 0).data(): dialog.model.index(r, 5) for r in range(dialog.model.rowCount())}
        for name, share in sized.items():
            text = cells[name].data()
            assert f"CPU sized {100 * share:.3g} % busy (the VMs' p{q}," in text, text
            assert cells[name].data(Qt.ItemDataRole.ToolTipRole) == text
    dialog.reject()
