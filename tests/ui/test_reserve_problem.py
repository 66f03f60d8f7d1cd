"""Review r10: a Hosts value that cannot be read gave a second, false problem ("Reserve (N+x): must be
smaller than Hosts (1)", against a count nobody entered), and the Reserve field's own line said
"hosts.count" where the form says "Hosts"."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.ui.test_input_routing import _window
from tests.ui.userinput import click, key, type_text


def _type_count(w, panel, text: str) -> None:
    count = panel.hosts_form.editors[("count",)]
    click(w, count)
    count.selectAll()
    type_text(text)
    key(Qt.Key.Key_Tab)
    QApplication.processEvents()


def test_an_unreadable_host_count_is_the_only_problem(qtbot):
    w = _window(qtbot)
    panel = w.show_view("scenario")
    for text in ("abc", "2.5"):
        _type_count(w, panel, text)
        qtbot.waitUntil(lambda: "problem(s) to fix" in panel.banner.text(), timeout=10000)
        banner = panel.banner.text()
        assert banner.startswith("1 problem(s) to fix") and "Hosts: must be an integer" in banner, banner
        assert "Reserve" not in banner, banner
        assert not panel.hosts_form.rows[("reserve",)].error.isVisible()


def test_the_reserve_fields_problem_names_hosts_in_the_forms_words(qtbot):
    w = _window(qtbot)
    panel = w.show_view("scenario")
    _type_count(w, panel, "1")  # the demo keeps 1 host in reserve
    qtbot.waitUntil(lambda: "problem(s) to fix" in panel.banner.text(), timeout=10000)
    line = panel.hosts_form.rows[("reserve",)].error
    assert line.isVisible() and line.text() == "must be smaller than Hosts (1)", line.text()
    assert "Reserve (N+x): must be smaller than Hosts (1)" in panel.banner.text()
