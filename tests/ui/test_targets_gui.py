"""Targets in the GUI: the scenario editor's target fields write ``preferences.targets`` (hard as a
number, soft as ``{value, hard: false}``), and the recommendation cards show each target with its
expected value, met or not — real widgets, the real engine."""

from __future__ import annotations

from PySide6.QtCore import Qt

from advisor.recommend.targets import TARGET_DECISION
from ui.demo import demo_data
from ui.document import ScenarioDocument
from ui.panels.targets_form import TargetsForm


def test_target_fields_write_hard_and_soft_targets_and_follow_undo(qtbot):
    doc = ScenarioDocument(demo_data())
    form = TargetsForm(doc)
    qtbot.addWidget(form)
    form.show()
    spin = form.values["max_boot_time_s"]
    assert spin.value() is None and not form.hard["max_boot_time_s"].isEnabled()
    qtbot.keyClicks(spin, "45")
    assert doc.get(("preferences", "targets", "max_boot_time_s")) == 45.0
    assert form.hard["max_boot_time_s"].isEnabled()
    qtbot.mouseClick(form.hard["max_boot_time_s"], Qt.MouseButton.LeftButton)
    assert doc.get(("preferences", "targets", "max_boot_time_s")) == {"value": 45.0, "hard": False}
    assert doc.problems == {} and not doc.scenario.preferences.targets[0].hard
    doc.undo_stack.undo()  # the edits of one field merge into one undo step
    assert doc.get(("preferences", "targets", "max_boot_time_s")) is None
    assert spin.value() is None and form.hard["max_boot_time_s"].isChecked()
    doc.undo_stack.redo()
    assert spin.value() == 45.0 and not form.hard["max_boot_time_s"].isChecked()
    spin.selectAll()
    qtbot.keyClick(spin, Qt.Key.Key_Backspace)  # emptied: the key goes
    assert doc.get(("preferences", "targets", "max_boot_time_s")) is None
    qtbot.keyClicks(spin, "abc")  # not a number: the core names the problem next to the field
    assert "must be a number" in form.errors["max_boot_time_s"].text()


def test_a_bad_target_is_shown_next_to_its_field(qtbot):
    doc = ScenarioDocument(demo_data())
    form = TargetsForm(doc)
    qtbot.addWidget(form)
    form.show()
    doc.set(("preferences", "targets", "max_host_cpu_pct"), {"value": 70, "hard": "yes"})
    assert "must be true or false" in form.errors["max_host_cpu_pct"].text()
    assert form.errors["max_host_cpu_pct"].isVisible()


def test_the_editor_has_the_target_fields(window, qtbot):
    panel = window.show_view("scenario")
    assert set(panel.targets_form.values) == set(TARGET_DECISION)


def test_cards_show_each_target_met_or_not(window, qtbot):
    s = window.session
    cards = window.show_view("recommendations")
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        s.document.set(("preferences", "targets"), {"max_host_cpu_pct": 95, "max_boot_time_s": {"value": 0.5,
                                                                                              "hard": False}})
    qtbot.waitUntil(lambda: any(c.target_labels for c in cards.cards), timeout=10000)
    results = {t.name: t for t in s.advice.targets}
    assert results["max_host_cpu_pct"].met is True and results["max_boot_time_s"].met is False
    host = next(c for c in cards.cards if c.rec.decision == "host_count")
    text = " ".join(lb.text() for lb in host.target_labels)
    assert "host CPU &lt;= 95 %" in text or "host CPU <= 95 %" in text
    assert "— met" in text and "not met" in text
    states = {lb.property("state") for lb in host.target_labels}
    assert states == {"met", "missed"}
    storage = next(c for c in cards.cards if c.rec.decision == "storage_backend")
    assert len(storage.target_labels) == 1 and "not met" in storage.target_labels[0].text()
    assert "expected" in storage.target_labels[0].text()
    assert all(not c.target_labels for c in cards.cards if c.rec.decision == "cache_mode")


def test_per_workload_targets_are_edited_in_the_workload_form(window, qtbot):
    """The Scenario tab edits a workload's own targets: they land under
    ``preferences.targets.workloads.<name>`` (hard or soft), show the general value as the hint,
    follow a rename, leave no empty entry, go with a removed workload, and the advice checks them."""
    panel = window.show_view("scenario")
    doc = window.session.document
    names = [w["name"] for w in doc.get(("workloads",))]
    panel.workload_list.setCurrentRow(1)
    form = panel.workload_targets
    assert form.isEnabled() and set(form.values) == {"max_boot_time_s", "min_throughput_mb_s",
                                                     "max_response_time_ms", "max_migration_downtime_ms"}
    doc.set(("preferences", "targets", "max_boot_time_s"), 60.0)
    assert form.values["max_boot_time_s"].placeholderText() == "all: 60"
    qtbot.keyClicks(form.values["max_boot_time_s"], "30")
    path = ("preferences", "targets", "workloads", names[1])
    assert doc.get(path) == {"max_boot_time_s": 30.0}
    panel.right_scroll.ensureWidgetVisible(form.hard["max_boot_time_s"])
    form.hard["max_boot_time_s"].click()  # (the workload column scrolls: a click on the button itself)
    assert doc.get(path) == {"max_boot_time_s": {"value": 30.0, "hard": False}}
    assert doc.problems == {}
    target = next(t for t in doc.scenario.preferences.targets if t.workload == names[1])
    assert (target.name, target.value, target.hard) == ("max_boot_time_s", 30.0, False)
    # the general targets' form is untouched
    assert panel.targets_form.values["max_boot_time_s"].value() == 60.0
    # another workload shows its own (none)
    panel.workload_list.setCurrentRow(0)
    assert form.values["max_boot_time_s"].value() is None
    panel.workload_list.setCurrentRow(1)
    assert form.values["max_boot_time_s"].value() == 30.0
    # a rename carries the targets along
    doc.set(("workloads", 1, "name"), "renamed")
    assert doc.get(("preferences", "targets", "workloads", "renamed")) == {"max_boot_time_s": {"value": 30.0,
                                                                                              "hard": False}}
    assert names[1] not in (doc.get(("preferences", "targets", "workloads")) or {}) and doc.problems == {}
    # emptied: no empty entry is left
    spin = form.values["max_boot_time_s"]
    spin.selectAll()
    qtbot.keyClick(spin, Qt.Key.Key_Backspace)
    assert doc.get(("preferences", "targets", "workloads")) is None
    # a removed workload takes its targets with it
    qtbot.keyClicks(form.values["max_response_time_ms"], "5")
    assert doc.get(("preferences", "targets", "workloads", "renamed")) == {"max_response_time_ms": 5.0}
    panel.remove_workload()
    assert doc.get(("preferences", "targets", "workloads")) is None and doc.problems == {}


def test_a_workload_target_is_checked_on_its_card(window, qtbot):
    s = window.session
    doc = s.document
    name = doc.get(("workloads",))[0]["name"]
    cards = window.show_view("recommendations")
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        doc.set(("preferences", "targets", "workloads"), {name: {"max_boot_time_s": {"value": 0.5, "hard": False}}})
    res = [t for t in s.advice.targets if t.name == "max_boot_time_s"]
    assert [(t.scope, t.met) for t in res] == [(f"workload:{name}", False)]
    qtbot.waitUntil(lambda: any(c.target_labels for c in cards.cards), timeout=10000)
    host = next(c for c in cards.cards if c.rec.decision == "host_count")
    assert any(name in lb.text() and "not met" in lb.text() for lb in host.target_labels)
