"""File ▸ Import inventory… of a Nutanix Collector workbook (#31 review, finding 5): the groups' CPU
comes from the VMs' own percentiles over the collection (its vCPU sheet), so the dialog offers the
sizing percentile as it does for series, and the dialog's numbers are the CLI's. Real MainWindow,
the committed fixture, offscreen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
