"""File ▸ Import inventory… with utilisation series: an edit (Group by, Merge, Split, powered-off VMs, the
percentile) has the worker sum the series again (a re-sum). Final review of round 3 session 4: a re-sum
that failed left the dialog saying "The files could not be imported" with every control off (the estate
imported was lost), and each re-sum made a groups model and a selection model that were never freed.
Real MainWindow, real files in the documented series CSV format, offscreen; the failure is injected (no
real input makes the sum fail: a MemoryError of a large estate would)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QItemSelectionModel

from knowledge.infra.errors import InputError
from tests.ui.test_inventory_dialog import open_import
from tests.ui.test_inventory_series_gui import write_estate
from ui.dialogs.inventory_groups import GroupsModel


def shown(dialog) -> list[tuple]:
    """The groups table as the user sees it (every column)."""
    m = dialog.model
    return [tuple(m.index(r, c).data() for c in range(m.columnCount())) for r in range(m.rowCount())]


def selection_models(dialog) -> int:
    """The selection models over a groups model (a combo box has its own, over its list)."""
    return sum(isinstance(s.model(), GroupsModel) for s in dialog.findChildren(QItemSelectionModel))


def fail_the_sum(monkeypatch, exc: BaseException) -> None:
    from advisor.inventory.series import SeriesSizing

    def failing(self, inv):
        self.groups, self.warnings = {}, []  # as far as the real sum gets before it fails
        raise exc

    monkeypatch.setattr(SeriesSizing, "compute", failing)


@pytest.mark.timeout(180)
@pytest.mark.parametrize("edit", ["group_by", "percentile", "merge", "powered_off"])
def test_a_re_sum_that_fails_keeps_the_groups_shown_and_usable(qtbot, window, tmp_path, monkeypatch, edit):
    dialog = open_import(qtbot, window, write_estate(tmp_path))
    assert dialog.inventory is not None and dialog.inventory.series is not None, dialog.message.text()
    with qtbot.waitSignal(dialog.task.sig_done, timeout=60000):
        dialog.group_by.setCurrentIndex(dialog.group_by.findData("name-prefix"))
    before, found, scenario = shown(dialog), dialog.found.text(), dialog.scenario_data()
    assert len(before) == 2  # spk-*, steady-*
    undo = monkeypatch.context()
    with undo as m:
        if edit == "percentile":
            fail_the_sum(m, MemoryError())
            with qtbot.waitSignal(dialog.task.sig_failed, timeout=60000):
                dialog.percentile.setValue(50)
        else:
            fail_the_sum(m, InputError("series.csv: line 7, field cpu_pct: the disk went away"))
            with qtbot.waitSignal(dialog.task.sig_failed, timeout=60000):
                if edit == "merge":
                    dialog.select_rows([0, 1])
                    dialog.merge_selected()
                elif edit == "powered_off":
                    dialog.powered_off.setChecked(False)
                else:
                    dialog.group_by.setCurrentIndex(dialog.group_by.findData("auto"))
    text = dialog.message.text()
    assert dialog.message.isVisible() and "could not be imported" not in dialog.found.text()
    assert "series.csv" in text and ("MemoryError" if edit == "percentile" else "the disk went away") in text, text
    assert "as they were" in text, text
    assert dialog.found.text() == found and shown(dialog) == before  # the estate imported, still shown
    assert dialog.scenario_data() == scenario  # ... and what Use as scenario loads
    assert dialog.group_by.currentData() == "name-prefix" and dialog.percentile.value() == 95
    assert dialog.powered_off.isChecked() and dialog.inventory.include_powered_off
    for w in (dialog.group_by, dialog.powered_off, dialog.percentile, dialog.use_button, dialog.table):
        assert w.isEnabled(), w
    assert not dialog.progress_row.isVisible()
    with qtbot.waitSignal(dialog.task.sig_done, timeout=60000):  # usable: the next edit sums as usual
        dialog.group_by.setCurrentIndex(dialog.group_by.findData("auto"))
    assert len(shown(dialog)) == 1 and not dialog.message.isVisible()
    dialog.reject()


@pytest.mark.timeout(180)
def test_re_sums_keep_one_groups_model(qtbot, window, tmp_path):
    dialog = open_import(qtbot, window, write_estate(tmp_path))
    assert dialog.inventory is not None and dialog.inventory.series is not None, dialog.message.text()
    first = selection_models(dialog)
    for key in ("name-prefix", "size", "name-prefix", "auto"):
        with qtbot.waitSignal(dialog.task.sig_done, timeout=60000):
            dialog.group_by.setCurrentIndex(dialog.group_by.findData(key))
    with qtbot.waitSignal(dialog.task.sig_done, timeout=60000):
        dialog.percentile.setValue(50)
    assert len(dialog.findChildren(GroupsModel)) == 1
    assert selection_models(dialog) == first  # (the table's and its headers')
    assert dialog.table.model() is dialog.model and dialog.table.selectionModel().model() is dialog.model
    dialog.select_rows([0])
    assert dialog.selected_rows() == [0] and dialog.rename_button.isEnabled()  # the selection still drives the buttons
    dialog.reject()
