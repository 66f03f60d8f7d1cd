"""Journey (f, issue #29): what a screen reader hears. The example opened at 1280x720 on a real X
display; every view reached by its keyboard shortcut (Ctrl+1 … Ctrl+0) and the workshop by F11;
in each, every interactive widget is read through Qt's accessibility interface (what a screen
reader is given): the journey fails on any control without a name, on a chart without its
description, and on a what-if slider whose value is not the value it stands for."""

from __future__ import annotations

import re

from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QApplication, QWidget

from tests.gui_journeys.xinput import pump, wait_until
from tests.ui.test_screen_reader import _announced, _interactive
from ui.window_actions import VIEW_KEYS

ROOT_EXAMPLE = "resources/examples/scenario.yaml"


def _idle(w, panel) -> None:
    wait_until(lambda: not getattr(panel, "busy", lambda: False)() and not w.session.advice_task.running
               and not w.session._debounce.isActive(), 60, "the view to settle")
    pump(200)


def _heard(root: QWidget, where: str, seen: dict) -> list[tuple]:
    unnamed = []
    for widget in [root, *root.findChildren(QWidget)]:
        if widget.isVisible() and _interactive(widget) and id(widget) not in seen:
            role, name, description = _announced(widget)
            seen[id(widget)] = (where, type(widget).__name__, role, name)
            if not name:
                unnamed.append((where, type(widget).__name__, widget.objectName(), role))
            if type(widget).__name__ == "PlotWidget" and not (name.startswith("Chart: ") and description):
                unnamed.append((where, "chart without its title or description", name))
    return unnamed


def _sliders_say_their_values(panel, where: str) -> list[str]:
    wrong = []
    for name, s in panel.sliders.items():
        value = QAccessible.queryAccessibleInterface(s.slider).text(QAccessible.Text.Value)
        shown = re.sub(r"<[^>]+>", "", s.value_label.text()).strip()
        if value != shown:
            wrong.append(f"{where} slider {name}: hears {value!r}, shows {shown!r}")
    return wrong


def test_a_screen_reader_hears_a_name_for_every_control_of_every_view(x, launch):
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    w = launch(root / ROOT_EXAMPLE)
    screen = QApplication.primaryScreen().geometry()
    assert (screen.width(), screen.height()) == (1280, 720)
    x.focus(w)
    seen: dict[int, tuple] = {}
    problems: list = []
    names = w.view_names()
    assert len(names) == len(VIEW_KEYS)
    for i, (name, key) in enumerate(zip(names, VIEW_KEYS, strict=True)):
        x.key(key.lower())
        wait_until(lambda i=i, n=name: w.tabs.currentIndex() == i and n in w.panels, 10, f"the {name} view by {key}")
        panel = w.panels[name]
        _idle(w, panel)
        problems += _heard(w, name, seen)
        if name == "whatif":
            problems += _sliders_say_their_values(panel, name)
        x.screenshot(f"view-{name}", w)
    x.key("F11")
    wait_until(lambda: w.in_workshop, 10, "workshop mode")
    shop = w._workshop.whatif
    _idle(w, shop)
    problems += _heard(w._workshop, "workshop", seen)
    problems += _sliders_say_their_values(shop, "workshop")
    x.screenshot("workshop", w)
    x.key("Escape")
    wait_until(lambda: not w.in_workshop, 10, "leaving workshop mode")
    # the keyboard-shortcut list by Ctrl+F1 reads with its heading, and Esc closes it (was: it kept
    # no focus, Esc went to the window)
    x.key("ctrl+F1")
    wait_until(lambda: getattr(w, "help_dialog", None) is not None and w.help_dialog.isVisible(), 10, "the list")
    wait_until(lambda: QApplication.activeWindow() is w.help_dialog, 10, "the list to have the focus")
    problems += _heard(w.help_dialog, "shortcuts", seen)
    x.screenshot("shortcuts", w.help_dialog)
    x.key("Escape")
    wait_until(lambda: not w.help_dialog.isVisible(), 10, "Esc to close the shortcut list")
    charts = [v for v in seen.values() if v[1] == "PlotWidget"]
    assert len(seen) > 150 and len(charts) >= 12, (len(seen), len(charts))  # the walk reached every view
    assert not problems, f"{len(problems)} of {len(seen)} widgets: {problems[:12]}"
