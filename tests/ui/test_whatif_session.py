"""What-if re-advises (issue #17, point 5): the VMs and hosts sliders change the advice's host
count and choices in the summary; the tab and workshop mode share one state; Reset; Apply to
scenario is one undoable step."""

from __future__ import annotations

import re

import pytest

from tests.ui.conftest import wait_idle


def test_whatif_readvises_shares_its_state_resets_and_applies(window, qtbot):
    doc = window.session.document
    base = window.session.advice
    hosts_before = base.find("host_count").expected["hosts"]["value"]
    tab = window.show_view("whatif")
    wait_idle(qtbot, tab, 60000)
    state = tab.state
    total = doc.scenario.total_vms
    assert tab.sliders["vms"].value() == total and tab.sliders["hosts"].value() == doc.scenario.hosts.count
    assert not tab.apply_button.isEnabled()

    window.toggle_workshop(True, full_screen=False)
    shop = window._workshop.whatif
    assert shop.state is state  # one state for both views
    with qtbot.waitSignal(state.task.sig_done, timeout=60000):
        shop.sliders["vms"].set_value(3 * total, emit=True)  # the client triples
    wait_idle(qtbot, shop, 60000)
    assert tab.sliders["vms"].value() == 3 * total  # the tab's slider followed
    what = state.advice
    assert what is not None and what is not base
    assert what.scenario.total_vms == 3 * total
    hosts_after = what.find("host_count").expected["hosts"]["value"]
    assert hosts_after > hosts_before
    text = shop.decisions.text()
    assert f"VMs (all groups) {total:g} -&gt; {3 * total:g}" in text or f"-> {3 * total:g}" in text
    assert f"{hosts_after:g} hosts" in text and f"(was {hosts_before:g} hosts)" in text
    colourless = lambda t: re.sub(r"color:#[0-9a-f]{6}", "", t)  # noqa: E731 - each view in its own look
    assert colourless(tab.decisions.text()) == colourless(text)
    assert shop.apply_button.isEnabled() and tab.apply_button.isEnabled()
    # the cache-mode chart's mark follows the what-if hosts
    mark = shop.charts["cache_mode"].spec.marks[0]
    assert mark.x == pytest.approx(what.facts.vms_per_host)

    # apply: one undo step; the sliders are then at the (new) scenario, nothing left to apply
    with qtbot.waitSignal(window.session.sig_advice, timeout=60000):
        shop.apply_button.click()
    assert doc.scenario.total_vms == 3 * total
    assert doc.undo_stack.undoText().startswith("Apply what-if (VMs (all groups)")
    wait_idle(qtbot, shop, 60000)
    assert not shop.apply_button.isEnabled()
    assert window.session.advice.find("host_count").expected["hosts"]["value"] == hosts_after
    with qtbot.waitSignal(window.session.sig_advice, timeout=60000):
        doc.undo_stack.undo()
    assert doc.scenario.total_vms == total
    wait_idle(qtbot, shop, 60000)
    assert shop.sliders["vms"].value() == total

    # reset puts every slider back
    shop.sliders["hosts"].set_value(2, emit=True)
    shop.sliders["overallocation"].set_value(5.0, emit=True)
    assert shop.reset_button.isEnabled()
    shop.reset_button.click()
    assert shop.sliders["hosts"].value() == doc.scenario.hosts.count
    assert state.model.moved(None) == {} and not shop.apply_button.isEnabled()
    window.toggle_workshop(False)


def test_a_move_stops_a_running_what_if_advice_until_the_inputs_rest(window, qtbot):
    """Any slider moved while the what-if advice works stops it, and it starts again once the inputs
    rest (#30: beside a working advice each slider step of the GUI thread waited for the interpreter
    lock, 10 to 40 times slower)."""
    tab = window.show_view("whatif")
    wait_idle(qtbot, tab, 60000)
    state, total = tab.state, window.session.document.scenario.total_vms
    with qtbot.waitSignal(state.task.sig_started, timeout=60000):
        tab.sliders["vms"].set_value(2 * total, emit=True)
    assert state.task.running
    with qtbot.waitSignal(state.task.sig_cancelled, timeout=5000):
        tab.sliders["overallocation"].set_value(5.0, emit=True)  # a chart input: no new scenario
    assert not state.task.running and state.busy()  # waiting for the inputs to rest
    with qtbot.waitSignal(state.task.sig_done, timeout=60000):
        pass
    assert state.advice.scenario.total_vms == 2 * total
    assert tab.sliders["overallocation"].value() == 5.0


def test_whatif_core_scales_vms_and_describes_the_change():
    from advisor.figures.whatif import WhatIf, apply_inputs, scale_vms
    from ui.demo import demo_data

    data = demo_data()
    scale_vms(data, 120)
    assert [w["vms"] for w in data["workloads"]] == [80, 12, 24, 4]
    w = WhatIf()
    w.start(demo_data(), None, None)
    assert w.defaults == {"load_total": 40000.0}  # no scenario parsed: only the chart input
    from advisor.scenario import parse_scenario

    w.start(demo_data(), None, parse_scenario(demo_data()))
    w.set("vms", 30)
    w.set("hosts", 4)
    assert w.describe() == "VMs (all groups) 60 -> 30, Hosts planned 6 -> 4"
    out = w.scenario_data()
    assert sum(x["vms"] for x in out["workloads"]) == 30 and out["hosts"]["count"] == 4
    assert apply_inputs(demo_data(), {}) == demo_data()
    w.reset()
    assert w.moved() == {}
