"""Growth in the desktop app (#31): the scenario editor's growth controls write the growth section
(the form comes from the field table), the Plots tab draws the timeline chart of the advice
(labelled axes with units, saved as a screenshot), and the what-if growth slider re-advises: at
0 % the timeline is flat. Real MainWindow, real engine, offscreen."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.ui.conftest import wait_idle

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "growth.yaml"
SHOTS = Path(__file__).resolve().parent / "screenshots"


def _load_growth(window, qtbot) -> None:
    s = window.session
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        s.document.load_data(yaml.safe_load(EXAMPLE.read_text()))
    s.document.undo_stack.setClean()


@pytest.mark.timeout(240)
def test_plots_show_the_timeline_and_the_growth_slider_flattens_it(window, qtbot, tmp_path):
    _load_growth(window, qtbot)
    advice = window.session.advice
    assert advice.timeline is not None and advice.timeline.runs_out is not None
    plots = window.show_view("plots")
    wait_idle(qtbot, plots, 60000)
    qtbot.waitUntil(lambda: plots.charts["timeline"].spec is not None
                    and not plots.charts["timeline"].spec.empty, timeout=60000)
    spec = plots.charts["timeline"].spec
    assert (spec.x_label, spec.x_unit, spec.y_unit) == ("years from today", "years", "hosts")
    assert [c.name for c in spec.curves][0] == "active hosts needed"
    needed = spec.curves[0].mean
    assert needed[-1] > needed[0]  # grows with the rate
    chart = plots.charts["timeline"]
    chart.resize(900, 560)
    image = chart.grab()
    assert image.width() >= 600 and not image.isNull()
    image.save(str(tmp_path / "timeline.png"))  # looked at: labelled axes, legend, purchase points

    tab = window.show_view("whatif")
    wait_idle(qtbot, tab, 60000)
    slider = tab.sliders["growth_shift"]
    assert tab.charts["timeline"].isVisible()  # a scenario with growth: the what-if shows its timeline
    grid = tab.grid
    assert grid.getItemPosition(grid.indexOf(tab.charts["timeline"]))[:2] == (0, 0)  # first: seen unscrolled
    assert slider.value() == 0.0  # a shift of the scenario's rates, none at first
    assert slider.note.text() == "→ CPU 20, RAM 25, storage 30 %/year; web: CPU 40, RAM 40"
    assert slider.lo == -40.0  # down to where every rate (web's 40 the largest) is 0
    out = advice.timeline.runs_out
    was = f"year {out['year']} ({out['resource'].replace('_', ' ')})"  # (the growth engine's year and resource)
    assert f"Planned hosts run out: <b>{was}</b>" in tab.decisions.text()
    with qtbot.waitSignal(tab.state.task.sig_done, timeout=60000):
        slider.set_value(10.0, emit=True)
    wait_idle(qtbot, tab, 60000)
    what = tab.state.advice.scenario
    # every rate 10 points up, web's own too: web keeps growing faster than the rest
    assert (what.growth.cpu_pct_per_year, what.growth.ram_pct_per_year, what.growth.storage_pct_per_year) == (30, 35, 40)
    web = next(w for w in what.workloads if w.name == "web")
    assert (web.growth.cpu_pct_per_year, web.growth.ram_pct_per_year, web.growth.storage_pct_per_year) == (50, 50, None)
    assert slider.note.text() == "→ CPU 30, RAM 35, storage 40 %/year; web: CPU 50, RAM 50"
    with qtbot.waitSignal(tab.state.task.sig_done, timeout=60000):
        slider.set_value(-40.0, emit=True)
    wait_idle(qtbot, tab, 60000)
    what = tab.state.advice
    years = what.timeline.years
    # every rate at 0 (web's 40 too) only the year-2 event's 40 VMs arrive:
    # erp's 128 VMs (2,048 GiB / 16 GiB of the typical VM; 400 vCPUs spread over them) + web's 60 = 188, then 228
    assert [y.vms for y in years] == [188, 188, 228, 228, 228, 228]
    assert years[0].hosts == years[1].hosts and len({y.hosts for y in years[2:]}) == 1
    assert what.scenario.growth.cpu_pct_per_year == 0.0
    assert what.timeline.runs_out is None
    # the summary says how the year the planned hosts run out moved
    assert f"Planned hosts run out: <b>not within the 5 years</b> (was {was})" in tab.decisions.text()
    doc = window.session.document
    assert tab.state.apply()  # Apply to scenario: the shifted rates become the scenario's, one undo step
    assert doc.data["growth"]["cpu_pct_per_year"] == 0 and doc.data["workloads"][1]["growth"] == {
        "cpu_pct_per_year": 0, "ram_pct_per_year": 0}
    doc.undo_stack.undo()
    assert doc.data["growth"]["cpu_pct_per_year"] == 20 and doc.data["workloads"][1]["growth"]["cpu_pct_per_year"] == 40


@pytest.mark.timeout(120)
def test_the_editor_growth_controls_write_the_growth_section(window, qtbot):
    editor = window.show_view("scenario")
    form = editor.growth_form
    units = {spec.path: spec.unit for spec in form.specs}  # from the field table
    assert units == {("horizon_years",): "years", ("cpu_pct_per_year",): "%/year", ("ram_pct_per_year",): "%/year",
                     ("storage_pct_per_year",): "%/year"}
    doc = window.session.document
    assert "growth" not in doc.data
    form.editors[("cpu_pct_per_year",)].sig_edited.emit(20.0)  # what typing a number and Enter sends
    assert doc.data["growth"] == {"cpu_pct_per_year": 20.0}
    assert doc.scenario.growth.cpu_pct_per_year == 20.0 and doc.scenario.growth.horizon_years == 5
    editor.events_table.add()  # the table's Add: 10 VMs of the first workload in year 1
    first = doc.data["workloads"][0]["name"]
    assert doc.data["growth"]["events"] == [{"year": 1, "workload": first, "add_vms": 10}]
    assert doc.scenario.growth.events[0].add_vms == 10
    form.editors[("horizon_years",)].sig_edited.emit(0)
    assert "growth.horizon_years" in doc.problems  # refused naming the field, under it in the form
    doc.undo_stack.setClean()


@pytest.mark.timeout(120)
def test_a_workload_given_as_totals_shows_the_typical_vms_it_is_sized_as(window, qtbot):
    _load_growth(window, qtbot)
    editor = window.show_view("scenario")
    # erp: 400 vCPUs, 2,048 GiB; typical VM 4 vCPU / 16 GiB: RAM needs 128 VMs, the vCPUs 100: 128 VMs
    # of 16 GiB, 400 / 128 = 3.1 -> 4 vCPU, 128 x 4 - 400 = 112 of them 3
    assert editor.workload_list.item(0).text().endswith("128 VMs x 4 vCPU (112 of them 3), 16 GiB (from totals)")
    editor.workload_list.setCurrentRow(0)
    form = editor.workload_form
    assert form.editors[("vms",)].placeholderText() == "128 (from totals)"
    assert form.editors[("vcpus",)].placeholderText() == "4 (typical VM)"
    # review 3 finding 11: the fields hold the typical VM, the label says so and shows the sized VMs' value
    assert form.labels[("vcpus",)].text().endswith(" — typical VM, at most (sized: 4)")
    assert form.labels[("ram_gib",)].text().endswith(" — typical VM, at most (sized: 16)")
    assert form.editors[("total_vcpus",)].text() == "400"
    editor.workload_list.setCurrentRow(1)  # web: plain VMs, the field table's default again
    assert form.editors[("vms",)].placeholderText() == "1 (default)"
    assert "typical VM" not in form.labels[("vcpus",)].text()
    assert window.session.document.scenario.workloads[0].vms == 128


@pytest.mark.timeout(300)
def test_optimize_tab_finds_the_design_that_lasts_the_horizon(window, qtbot):
    from PySide6.QtCore import Qt

    from knowledge.costs import load_catalogue

    _load_growth(window, qtbot)
    s = window.session
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        s.set_catalogue(load_catalogue(EXAMPLE.parent / "costs-example.yaml"))
    assert s.advice.timeline.runs_out is not None  # the planned 10 hosts run out (year 4, RAM)
    panel = window.show_view("optimize")
    panel.counts.setValue(1)
    with qtbot.waitSignal(panel.task.sig_done, timeout=240000):  # for today: says when its best runs out
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, panel, 60000)
    assert "the scenario grows: the best design for today runs out in year" in panel.best.text()
    assert "“Last the growth horizon” searches one that lasts" in panel.best.text()
    panel.horizon.setChecked(True)
    with qtbot.waitSignal(panel.task.sig_done, timeout=240000):
        qtbot.mouseClick(panel.run_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, panel, 60000)
    res = panel.result
    assert res.best is not None and "year 5 of its growth" in res.scenario.name
    assert "ranked by their cost over the 5-year horizon" in panel.best.text()  # what the search compared
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        panel.load_design(res.best)
    assert s.document.data["growth"]["horizon_years"] == 5  # loaded onto the scenario itself, growth kept
    assert s.document.data["workloads"][0]["total_vcpus"] == 400
    assert s.advice.timeline.runs_out is None  # the design lasts every year
    s.document.undo_stack.undo()
    s.document.undo_stack.setClean()


@pytest.mark.timeout(240)
def test_whatif_vms_slider_scales_a_totals_workload_by_its_totals(window, qtbot):
    """Review 3 of #31, finding 19: the growth example's erp is given as totals (128 VMs sized);
    the VMs slider scales its totals (it has no ``vms`` to write), so the what-if advises the
    asked VMs instead of refusing its own scenario."""
    _load_growth(window, qtbot)
    tab = window.show_view("whatif")
    wait_idle(qtbot, tab, 60000)
    slider = tab.sliders["vms"]
    assert slider.value() == 188  # erp's 128 sized VMs + web's 60
    with qtbot.waitSignal(tab.state.task.sig_done, timeout=60000):
        slider.set_value(282, emit=True)  # x1.5
    wait_idle(qtbot, tab, 60000)
    what = tab.state.advice
    assert what is not None and what is not window.session.advice
    erp, web = tab.state.model.scenario_data()["workloads"]
    assert "vms" not in erp and erp["total_vcpus"] == 600 and erp["total_ram_gib"] == pytest.approx(3072)
    assert web["vms"] == 90
    # the what-if advice is of the scaled totals (erp's VM count is the reader's sizing of them)
    assert [w.total_vcpus for w in what.scenario.workloads] == [600, None]
    assert what.scenario.workloads[1].vms == 90
    assert sum(w.vms for w in what.scenario.workloads) == 282  # the slider's value is the VMs advised
    assert "failed" not in window.statusBar().currentMessage()


@pytest.mark.timeout(240)
def test_whatif_overallocation_starts_at_the_advice_even_if_the_panel_came_first(window, qtbot):
    """Review 3 of #31, finding 7: a what-if state started while the advice still ran took the
    fallback 1.5 vCPUs/core and kept it when the advice (4:1) came; the reading must start at the
    advised ratio whenever the panel was built."""
    _load_growth(window, qtbot)
    advised = window.session.advice.find("vcpu_overallocation").value
    assert advised != 1.5
    tab = window.show_view("whatif")
    wait_idle(qtbot, tab, 60000)
    state = tab.state
    doc = window.session.document
    state.model.start(doc.data, None, doc.scenario)  # as when built before the advice came
    state._on_session_advice(None)
    assert tab.sliders["overallocation"].value() == 1.5
    state._on_session_advice(window.session.advice)  # the advice arrives
    wait_idle(qtbot, tab, 60000)
    assert tab.sliders["overallocation"].value() == advised
    assert state.model.moved() == {}


def test_the_workload_list_names_the_vms_of_one_vcpu_fewer():
    # 401 vCPUs / 1,600 GiB: 101 VMs, 3 of them one vCPU fewer (the vCPU total held exactly)
    from ui.panels.qt_scenario import QtScenarioPanel

    text = QtScenarioPanel._workload_text({"name": "app", "total_vcpus": 401, "total_ram_gib": 1600})
    assert text == "app\n  101 VMs x 4 vCPU (3 of them 3), 15.84 GiB (from totals)"
