"""The main window with the real engine: edits change the recommendations, citations show rows,
errors reach the user, files, recent files, unsaved-changes guard, drag and drop, workshop mode."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from PySide6.QtWidgets import QLabel, QMessageBox

from advisor.engine import Advice
from advisor.recommend import catalog
from advisor.recommend.base import Recommendation
from tests.ui.conftest import damaged_fixture, fio_fixture, wait_idle
from ui.main_window import VIEWS, window_settings


def _choice(advice: Advice, decision: str, scope: str = "cluster") -> str:
    return advice.find(decision, scope).choice


def test_the_session_hands_the_typed_advice_to_the_panels(window, qtbot):
    """The GUI receives the engine's Advice itself (not its JSON): the cards hold its
    Recommendations, titled from the decision catalogue; model problems are shown."""
    s = window.session
    cards = window.show_view("recommendations")
    assert isinstance(s.advice, Advice) and s.advice.facts is not None
    assert [c.rec for c in cards.cards] == s.advice.recommendations
    assert all(isinstance(c.rec, Recommendation) for c in cards.cards)
    card = next(c for c in cards.cards if c.rec.decision == "storage_backend")
    title = card.findChild(QLabel, "cardDecision").text()
    assert title.startswith(catalog.title("storage_backend").upper())
    assert s.advice.scenario.name in cards.summary.text()
    with qtbot.waitSignal(s.sig_advice, timeout=5000):
        s._on_advice(dataclasses.replace(s.advice, model_problems={"boot_time": "no rows for this family"}))
    assert "boot_time (no rows for this family)" in cards.summary.text()


def test_every_view_opens(window, qtbot):
    for name, *_ in VIEWS:
        panel = window.show_view(name)
        assert panel.isVisible()
        if hasattr(panel, "busy"):
            wait_idle(qtbot, panel, 60000)


def test_editing_the_scenario_changes_the_recommendations(window, qtbot):
    s = window.session
    cards = window.show_view("recommendations")
    before = _choice(s.advice, "storage_backend")
    n_cards = len(cards.cards)
    assert n_cards == len(s.advice.recommendations) > 5
    assert before == "nfs_file"
    with qtbot.waitSignal(s.sig_advice, timeout=30000):
        s.document.set(("hosts", "disks", 0, "kind"), "hdd")
        s.document.set(("hosts", "shared_storage", 0, "kind"), "iscsi")
        s.document.set(("hosts", "shared_storage", 0, "network_gbps"), 1.0)
    after = _choice(s.advice, "storage_backend")
    assert after != before
    from advisor.recommend import catalog

    shown = [c.choice.text() for c in cards.cards if c.rec.decision == "storage_backend"]
    assert shown and catalog.choice_label("storage_backend", after) in shown[0]  # the label, not the id


def test_an_invalid_edit_keeps_the_last_advice_and_says_why(window, qtbot):
    s = window.session
    cards = window.show_view("recommendations")
    old = s.advice
    s.document.set(("workloads", 0, "vms"), 0)
    qtbot.wait(400)
    assert s.advice is old and not s.advice_task.running
    assert "problem" in cards.summary.text()


def test_citations_open_the_knowledge_base_rows(window, qtbot):
    cards = window.show_view("recommendations")
    card = next(c for c in cards.cards if c.rec.decision == "cache_mode")
    card.citation_label.linkActivated.emit("0")
    dlg = cards.last_dialog
    qtbot.addWidget(dlg)
    assert dlg.model.rowCount() > 0
    first = card.rec.citations[0]
    docs = {dlg.model.row_at(i).document[:3] for i in range(dlg.model.rowCount())}
    assert first["document"][:3] in docs


def test_alternatives_are_one_click_away(window, qtbot):
    cards = window.show_view("recommendations")
    card = next(c for c in cards.cards if c.rec.alternatives)
    assert not card.alt_table.isVisible()
    card.alt_button.click()
    assert card.alt_table.isVisible()
    assert card.alt_table.rowCount() == len(card.rec.alternatives)
    assert card.alt_table.item(0, 3).text()  # why it lost


def test_worker_errors_reach_the_user(window, qtbot):
    from knowledge.infra.errors import InputError

    def broken(progress=None, cancel=None):
        raise InputError("site 'x': no such site")

    with qtbot.waitSignal(window.session.notifier.sig_failure, timeout=5000):
        window.session.advice_task.start(broken)
    assert window.error_bar.isVisible()
    assert "no such site" in window.error_bar.label.text()


def test_opening_a_bad_file_shows_an_error(window, qtbot, tmp_path):
    """A file with a wrong value opens, the value marked, to be fixed; a file that cannot be read
    as a scenario at all is an error naming the file (not the folder it is in)."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("hosts: {count: 0}\nworkloads: []\n")
    assert window.open_scenario(bad)
    assert "hosts.count" in window.session.document.problems
    assert "Hosts: must be >= 1" in window.panel("scenario").banner.text()
    broken = tmp_path / "broken.yaml"
    broken.write_text("hosts: [1, 2\n")
    assert not window.open_scenario(broken)
    text = window.error_bar.label.text()
    assert window.error_bar.isVisible() and "broken.yaml" in text and "invalid YAML" in text
    assert str(tmp_path) not in text


def test_save_open_and_recent_files(window, qtbot, tmp_path):
    path = tmp_path / "design.yaml"
    window.session.document.set(("hosts", "count"), 9)
    assert window._save_to(path)
    assert path.exists() and not window.session.document.dirty
    assert window.recent_files()[0] == str(path)
    assert Path(window_settings().fileName()).parent == Path(__import__("knowledge.infra.paths").infra.paths.user_config_dir())


def test_a_single_recent_file_read_back_as_text_stays_one_path(window, qtbot, tmp_path):
    """Review 3 of #31 (finding 7): QSettings reads a one-element list back from its ini file as a
    string; saving another file kept its characters as recent files ("/", "t", "m", ...)."""
    qs = window_settings()
    qs.setValue("recent_files", "/tmp/one.yaml")  # what the ini file gives back for ["/tmp/one.yaml"]
    path = tmp_path / "two.yaml"
    assert window._save_to(path)
    assert window.recent_files() == [str(path), "/tmp/one.yaml"]
    assert [a.text() for a in window.recent_menu.actions()] == [str(path), "/tmp/one.yaml"]


def test_unsaved_changes_guard(window, qtbot, monkeypatch):
    window.session.document.set(("hosts", "count"), 9)
    monkeypatch.setattr(QMessageBox, "exec", lambda self: QMessageBox.StandardButton.Cancel)
    assert window.maybe_discard() is False
    monkeypatch.setattr(QMessageBox, "exec", lambda self: QMessageBox.StandardButton.Discard)
    assert window.maybe_discard() is True


def test_dropping_files_imports_them_with_errors_per_file(window, qtbot):
    sites = window.show_view("sites")
    sites.new_site.setText("lab-1")
    with qtbot.waitSignal(sites.task.sig_done, timeout=30000):
        window.handle_dropped([fio_fixture(), damaged_fixture()])
    ok = [o for o in sites.outcomes if o.ok]
    bad = [o for o in sites.outcomes if not o.ok]
    assert len(ok) == 1 and ok[0].tool == "fio" and len(ok[0].measurements) > 0
    assert len(bad) == 1 and "fio3_truncated.json" in bad[0].error
    assert "2 files: 1 imported, 1 failed; 2 runs found, 2 imported, 0 skipped" in sites.status.text()
    names = [sites.site_list.item(i).data(0x0100) for i in range(sites.site_list.count())]
    assert "lab-1" in names
    assert sites.model.rowCount() == len(ok[0].measurements)
    assert window.session.userdb.site("lab-1").measurements == len(ok[0].measurements)
    # calibrate the advice to the new site
    cards = window.show_view("recommendations")
    with qtbot.waitSignal(window.session.sig_advice, timeout=30000):
        window.session.set_site("lab-1")
    assert window.session.advice.basis == "site:lab-1"
    assert "site lab-1" in cards.summary.text()


def test_workshop_mode_enters_and_leaves(window, qtbot):
    from ui import theme

    before = theme.current_name()
    window.toggle_workshop(True, full_screen=False)
    assert window.in_workshop and theme.current_name() == before  # the workshop's look is its own
    assert window._workshop.font().pointSizeF() > window.tabs.font().pointSizeF()
    wait_idle(qtbot, window._workshop, 30000)
    assert window._workshop.whatif.charts["cache_mode"].spec is not None
    window.toggle_workshop(False)
    assert not window.in_workshop and theme.current_name() == before


def test_about_box_lists_the_documents(window, qtbot):
    from ui.dialogs.about import AboutDialog

    dlg = AboutDialog(window.session, window)
    qtbot.addWidget(dlg)
    text = dlg.documents.toPlainText()
    for d in window.session.kb.documents():
        assert d.id in text


def test_window_state_persists(window, qtbot):
    window.show_view("knowledge_base")
    window.save_state()
    qs = window_settings()
    assert qs.value("tab") == "knowledge_base"
    assert qs.value("geometry") is not None


def test_unwritable_user_directory_is_said_in_a_window(window, qtbot, tmp_path, monkeypatch, capsys):
    from app.gui import warn_unwritable_dirs

    assert warn_unwritable_dirs(window) is None  # the test's own directories are writable
    assert capsys.readouterr().err == ""
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv("CAPADVISOR_CONFIG_DIR", str(blocker / "config"))
    box = warn_unwritable_dirs(window)
    assert box is not None and box.isVisible()
    assert "settings directory" in box.text() and "CAPADVISOR_CONFIG_DIR" in box.text()
    assert capsys.readouterr().err.strip() == box.text()  # also on stderr, as the commands say it
    box.close()


def test_the_example_scenario_shows_every_card_with_its_targets(window, qtbot):
    """resources/examples/scenario.yaml (a workload with io.iops: implicit targets) opens and every
    recommendation gets its card, the cache-mode card with the workload's requested I/O."""
    example = Path(__file__).resolve().parents[2] / "resources" / "examples" / "scenario.yaml"
    s = window.session
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        assert window.open_scenario(example)
    cards = window.show_view("recommendations")
    assert len(cards.cards) == len(s.advice.recommendations)
    web = next(c for c in cards.cards if c.rec.decision == "cache_mode" and c.rec.scope == "workload:web")
    assert any("IOPS per VM asked" in label.text() for label in web.target_labels)
