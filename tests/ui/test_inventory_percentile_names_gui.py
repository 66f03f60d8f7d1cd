"""The import dialog's sizing percentile box takes what ``--percentile`` and ``preferences.sizing_percentile``
take (1-100, 100 the peak), and its 100 sizes on the same shares as the CLI's (close-session4: p100 and peak).
Real MainWindow, the committed Nutanix fixture, offscreen."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.scenario.fields import BY_PATH
from tests.ui.test_inventory_collector_percentile_gui import cli_shares, shares
from tests.ui.test_inventory_dialog import open_import

NX = Path(__file__).resolve().parents[1] / "fixtures" / "inventory" / "collectors" / "nutanix-collector.xlsx"


@pytest.mark.timeout(180)
def test_the_dialogs_percentile_box_agrees_with_the_cli_and_the_scenario_field(qtbot, window, capsys):
    field = BY_PATH["preferences.sizing_percentile"]
    dialog = open_import(qtbot, window, [NX])
    assert dialog.inventory is not None, dialog.message.text()
    box = dialog.percentile
    assert (box.minimum(), box.maximum()) == (field.minimum, field.maximum) == (1, 100)
    box.setValue(100)
    data = dialog.scenario_data()
    assert data["preferences"]["sizing_percentile"] == 100
    assert shares(data) == cli_shares(100, capsys) and shares(data)
    assert all(w["cpu_busy_share"] == w["cpu_busy_percentiles"]["peak"] for w in data["workloads"]
               if "cpu_busy_percentiles" in w)
    dialog.reject()
