"""Journey (b): a consultant runs a client workshop on a 1280x720 projector. Opens the example
from the welcome, enters workshop mode (F11), drags the VMs and hosts sliders and watches the
advice and the host count change, applies the what-if to the scenario, undoes it, opens the
guide (F1) and leaves (Esc). Real X input on Xvfb (see conftest.py)."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionSlider

from tests.gui_journeys.xinput import pump, wait_until


def _handle(slider) -> QPoint:
    opt = QStyleOptionSlider()
    slider.initStyleOption(opt)
    return slider.style().subControlRect(QStyle.ComplexControl.CC_Slider, opt,
                                         QStyle.SubControl.SC_SliderHandle, slider).center()


def _idle(window, panel) -> None:
    wait_until(lambda: not panel.busy() and not window.session.advice_task.running
               and not window.session._debounce.isActive(), 60, "the what-if advice")
    pump(300)


def test_consultant_workshop_at_1280x720(x, launch):
    screen = QApplication.primaryScreen().geometry()
    assert (screen.width(), screen.height()) == (1280, 720)
    w = launch()
    wait_until(lambda: getattr(w, "welcome", None) is not None and w.welcome.isVisible(), 10, "the welcome")
    x.screenshot("welcome", w)
    x.click(w.welcome.buttons["example"])
    wait_until(lambda: w.session.document.title != "new scenario", 10, "the example")
    wait_until(lambda: w.session.advice is not None and not w.session.advice_task.running
               and not w.session._debounce.isActive()
               and w.session.advice.scenario.total_vms == w.session.document.scenario.total_vms, 60, "the advice")
    base = w.session.advice
    hosts_before = base.find("host_count").expected["hosts"]["value"]
    vms_before = w.session.document.scenario.total_vms
    x.screenshot("example-opened", w)

    # F11: workshop mode, full screen on the projector, nothing cut
    x.focus(w)
    x.key("F11")
    wait_until(lambda: w.in_workshop, 10, "workshop mode")
    shop = w._workshop.whatif
    _idle(w, shop)
    assert w.isFullScreen() and w.width() <= 1280 and w.height() <= 720
    leave = w._workshop.leave_button
    assert leave.isVisible() and leave.mapToGlobal(leave.rect().bottomRight()).x() < 1280
    x.screenshot("workshop", w)

    # drag the VMs slider to the right: the advice's host count grows
    vms = shop.sliders["vms"].slider
    start = _handle(vms)
    x.drag(vms, start, QPoint(start.x() + (vms.width() - start.x()) // 2, start.y()))
    _idle(w, shop)
    moved_vms = shop.sliders["vms"].value()
    assert moved_vms > vms_before
    what = shop.state.advice
    assert what is not None and what.scenario.total_vms == moved_vms
    hosts_after = what.find("host_count").expected["hosts"]["value"]
    assert hosts_after > hosts_before
    assert f"(was {hosts_before:g} hosts)" in shop.decisions.text()
    assert w.panel("whatif").sliders["vms"].value() == moved_vms  # the tab follows the workshop
    x.screenshot("vms-dragged", w)

    # the hosts slider: fewer planned hosts than needed is said so by the advice
    hosts = shop.sliders["hosts"].slider
    h = _handle(hosts)
    x.drag(hosts, h, QPoint(max(4, h.x() - 40), h.y()))
    _idle(w, shop)
    assert shop.sliders["hosts"].value() < w.session.document.scenario.hosts.count
    x.screenshot("hosts-dragged", w)

    # Apply: one step in the scenario; Ctrl+Z takes it back
    shown = shop.state.advice.find("host_count").expected["hosts"]["value"]
    x.click(shop.apply_button)
    wait_until(lambda: w.session.document.scenario.total_vms == moved_vms, 10, "the applied scenario")
    _idle(w, shop)
    assert w.session.document.undo_stack.undoText().startswith("Apply what-if")
    assert w.session.advice.find("host_count").expected["hosts"]["value"] == shown  # what the workshop showed
    x.screenshot("applied", w)
    x.key("ctrl+z")
    wait_until(lambda: w.session.document.scenario.total_vms == vms_before, 10, "the undo")
    _idle(w, shop)
    assert shop.sliders["vms"].value() == vms_before
    x.screenshot("undone", w)

    # F1 in workshop mode opens the guide at its section
    x.key("F1")
    wait_until(lambda: getattr(w, "help_dialog", None) is not None and w.help_dialog.isVisible(), 10, "the guide")
    assert w.help_dialog.section_at_top() == "Workshop mode"
    x.screenshot("guide", w.help_dialog)
    x.focus(w.help_dialog)
    x.key("Escape")  # closes the guide
    wait_until(lambda: not w.help_dialog.isVisible(), 10, "the guide to close")

    # Esc leaves; the window is back within the screen
    x.focus(w)
    x.key("Escape")
    wait_until(lambda: not w.in_workshop, 10, "leaving workshop mode")
    wait_until(lambda: not w.isFullScreen() and w.frameGeometry().width() <= 1280
               and w.frameGeometry().height() <= 720, 30, "the window back within the screen")
    frame = w.frameGeometry()
    assert not w.isFullScreen()
    assert frame.width() <= 1280 and frame.height() <= 720
    x.screenshot("left-workshop", w)
