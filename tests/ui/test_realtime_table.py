"""The real-time task table (issue #17, point 2): a cell the core cannot read is an error in the
table, never a task silently left out of the analysis or of the scenario; the table shows the
task set of the scenario that is open (none for a workload without one)."""

from __future__ import annotations

import copy

import pytest
from PySide6.QtCore import Qt

from app.gui import settings_store
from tests.ui.conftest import wait_idle
from ui.demo import demo_data


def _panel(qtbot, data=None):
    from ui.panels.qt_realtime import QtRealtimePanel
    from ui.session import Session

    session = Session(settings_store())
    session.document.load_data(data or demo_data())
    panel = QtRealtimePanel(session)
    qtbot.addWidget(panel)
    panel.show()
    wait_idle(qtbot, panel)
    return panel


def test_a_bad_cell_is_shown_and_no_task_is_dropped(qtbot):
    panel = _panel(qtbot)
    doc = panel.session.document
    assert panel.workload.currentText() == "control"
    assert [r[0] for r in panel.rows()] == ["sensor", "control", "logger"]
    assert panel.result is not None and len(panel.result.tasks) == 3
    saved = copy.deepcopy(doc.data)

    panel.table.item(1, 1).setText("abc")  # the user types a period that is not a time
    wait_idle(qtbot, panel)
    assert (1, 1) in panel.problems and "'abc' is not a time" in panel.problems[(1, 1)]
    item = panel.table.item(1, 1)
    assert item.background().style() != Qt.BrushStyle.NoBrush and "not a time" in item.toolTip()
    assert "1 cell(s) to fix" in panel.summary.text() and "Task 2, period" in panel.summary.text()
    assert panel.result is None  # no analysis of a task set with a task missing
    assert not panel.save_button.isEnabled()
    panel.save_to_scenario()
    assert doc.data == saved  # nothing written that would lose the task

    panel.table.item(1, 1).setText("50")
    wait_idle(qtbot, panel)
    assert panel.problems == {} and panel.result is not None and len(panel.result.tasks) == 3
    assert panel.table.item(1, 1).background().style() == Qt.BrushStyle.NoBrush
    assert panel.save_button.isEnabled()


def test_wcet_over_deadline_and_missing_period_are_errors_in_their_cells(qtbot):
    panel = _panel(qtbot)
    panel.paste("a\t10\t12\nb\t\t1\nc\t20\t2\t25\n")
    wait_idle(qtbot, panel)
    assert set(panel.problems) == {(0, 2), (1, 1), (2, 3)}
    assert "exceeds its deadline" in panel.problems[(0, 2)]
    assert "period is missing" == panel.problems[(1, 1)]
    assert "longer than the period" in panel.problems[(2, 3)]


def test_the_table_follows_the_open_scenario(qtbot, tmp_path):
    panel = _panel(qtbot)
    doc = panel.session.document
    # another file: its own task set replaces the shown one at once
    other = demo_data()
    rt = other["workloads"][3]["realtime"]
    rt["tasks"] = [{"name": "fast", "period": 5.0, "wcet": 1.0}]
    from advisor.scenario import parse_scenario, save_scenario

    path = tmp_path / "other.yaml"
    save_scenario(parse_scenario(other), path)
    doc.open(path)
    wait_idle(qtbot, panel)
    assert panel.cells()[0][:3] == ["fast", "5", "1"] and panel.table.rowCount() == 1

    # a scenario whose workloads have no task set: an empty table, no sample tasks
    plain = demo_data()
    del plain["workloads"][3]["realtime"]
    doc.load_data(plain)
    wait_idle(qtbot, panel)
    assert panel.table.rowCount() == 0 and panel.rows() == []
    assert "has no real-time tasks" in panel.summary.text()
    # choosing another workload shows its (empty) set; undo of a save shows the set before
    doc.load_data(demo_data())
    wait_idle(qtbot, panel)
    assert panel.table.rowCount() == 3
    panel.workload.setCurrentText("web")
    panel.workload.activated.emit(panel.workload.currentIndex())
    assert panel.table.rowCount() == 0
    panel.paste("x\t10\t1\n")
    wait_idle(qtbot, panel)
    panel.save_to_scenario()
    assert doc.get(("workloads", 0, "realtime", "tasks")) == [{"name": "x", "period": 10.0, "wcet": 1.0}]
    doc.undo_stack.undo()
    assert panel.table.rowCount() == 0


def test_the_tab_opens_on_the_advices_share_and_core_speed(qtbot, kb_file):
    """The Real-time tab and the Recommendations card show the same T_VM and C_VM for the example
    scenario (issue #15: one source of truth): the advice's share, WCETs scaled by the scenario's
    core speed; saving the table keeps the workload's design speed and does not freeze the share."""
    from advisor.scenario import read_scenario_data
    from ui.panels.qt_realtime import QtRealtimePanel
    from ui.session import Session

    s = Session(settings_store(), kb_path=kb_file)
    s.document.load_data(read_scenario_data("resources/examples/scenario.yaml"))
    panel = QtRealtimePanel(s)
    qtbot.addWidget(panel)
    panel.show()
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        s.start()
    wait_idle(qtbot, panel)
    rec = s.advice.find("vm_period_budget", "workload:rtfunc")
    assert panel.workload.currentText() == "rtfunc"
    assert abs(panel.share.value() - rec.expected["share"]["value"]) < 1e-3
    assert panel.speed_scale() == 1.05  # 2.1 GHz cores, task set designed at 2.0 GHz
    assert abs(panel.result.max_period - rec.value) < 0.01 * rec.value
    assert f"{rec.value:.4g}"[:4] in panel.summary.text().replace(",", "")
    assert "scaled by 1.05" in panel.summary.text()

    panel.table.item(0, 0).setText("t1-renamed")  # edit, then save into the scenario
    wait_idle(qtbot, panel)
    panel.save_to_scenario()
    rt = s.document.data["workloads"][[w["name"] for w in s.document.data["workloads"]].index("rtfunc")]["realtime"]
    assert rt["design_speed_ghz"] == 2.0 and "share" not in rt and rt["tasks"][0]["name"] == "t1-renamed"

    panel.share.setValue(0.9)  # a share the user sets is theirs: kept over later advice, and saved
    wait_idle(qtbot, panel)
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        s.advise_now()
    assert panel.share.value() == 0.9
    s.close()


def test_edf_near_the_utilization_shades_the_schedulable_periods(qtbot):
    # the EDF interval search once lost these periods (pieces cap): the tab said "Not schedulable"
    # and shaded nothing though the curve it drew dips to 1 near 6.5 and 8.3 ms
    panel = _panel(qtbot)
    panel.paste("a\t22\t2\nb\t30\t6.5\n")
    panel.policy.setCurrentText("edf")
    panel.overhead.setValue(0.5)
    panel.share.setValue(0.404)
    wait_idle(qtbot, panel)
    assert panel.result is not None and panel.result.feasible, panel.summary.text()
    regions = [(r.start, r.end) for r in panel.chart.spec.regions]
    assert any(a <= 6.52 <= b for a, b in regions) and any(a <= 8.3 <= b for a, b in regions), regions
    import pyqtgraph as pg

    drawn = [i.getRegion() for i in panel.chart.plot.getPlotItem().items if isinstance(i, pg.LinearRegionItem)]
    assert len(drawn) == len(regions)  # shaded on the plot as analysed
    for (a, b), (c, d) in zip(sorted(drawn), sorted(regions), strict=True):
        assert a == pytest.approx(c, rel=1e-9) and b == pytest.approx(d, rel=1e-9)
    assert "Largest VM period T_VM = 8.389 ms" in panel.summary.text()


def test_the_chart_shows_the_whole_period_range_again_after_a_cell_was_fixed(qtbot):
    """Was: Add task, type t4 (its period still empty: an empty chart at 0-1), then the period:
    the chart kept the x-axis at 0-1 ms while T_VM = 13.29 ms lay far off it."""
    panel = _panel(qtbot)
    chart = panel.chart
    panel.add_row()
    row = panel.table.rowCount() - 1
    panel.table.item(row, 0).setText("t4a")
    qtbot.waitUntil(lambda: bool(panel.problems) and chart.spec.empty, timeout=10000)
    for col, text in ((1, "20"), (2, "2")):
        panel.table.item(row, col).setText(text)  # (the check made the row's empty cells)
        qtbot.wait(10)
    qtbot.waitUntil(lambda: not panel.problems and panel.result is not None, timeout=30000)
    qtbot.waitUntil(lambda: chart.spec is not None and not chart.spec.empty, timeout=30000)
    period = panel.result.max_period
    curve_end = float(max(chart.spec.curves[0].x))

    def covered():  # the view box applies its auto range on a later event loop turn (under load: later)
        (x_lo, x_hi), _ = chart.viewbox.viewRange()
        return x_lo <= period <= x_hi and x_hi >= 0.95 * curve_end

    qtbot.waitUntil(covered, timeout=10000)  # was: the x-axis stayed at 0-1 ms for good
    (x_lo, x_hi), _ = chart.viewbox.viewRange()
    assert x_lo <= period <= x_hi, (x_lo, x_hi, period)
    assert x_hi >= 0.95 * curve_end
