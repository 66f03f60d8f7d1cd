"""Issue #29 point 7: a scenario with wrong values at start. Every view of the advice says what is
wrong and links to the Scenario tab (no "Waiting for the knowledge base..." for ever, no empty axes),
and the status bar never says "ready" or "Advice up to date" meanwhile (point 9)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from ui.demo import demo_data
from ui.main_window import ADVICE_VIEWS, OWN_DATA_VIEWS


@pytest.fixture()
def invalid_window(qtbot, kb_file):
    from app.gui import settings_store
    from ui.main_window import MainWindow
    from ui.session import Session

    data = demo_data()
    data["hosts"]["ram_gib"] = -8
    data["workloads"][0]["io"]["read_share"] = 2.0
    s = Session(settings_store(), kb_path=kb_file)
    w = MainWindow(s)
    w.resize(1280, 720)
    w.show()
    s.document.load_data(data)
    assert len(s.document.problems) == 6  # RAM, a read share, and four workloads larger than a host
    with qtbot.waitSignal(s.sig_ready, timeout=60000):
        s.start()
    QApplication.processEvents()
    yield w
    s.document.undo_stack.setClean()
    w.close()
    w.deleteLater()


def _banner(window, name):
    from ui.problem_banner import ProblemBanner

    window.show_view(name)
    found = window._placeholders[name].findChildren(ProblemBanner)
    return found[0] if found else None


@pytest.mark.timeout(180)
def test_every_view_of_the_advice_says_what_is_wrong_and_links_to_the_scenario(invalid_window, qtbot):
    w = invalid_window
    assert w.session.advice is None
    status = w.statusBar().currentMessage()
    assert "ready" not in status.lower() and "up to date" not in status.lower()
    assert "6 value(s) to fix" in status
    for name in w.view_names():
        banner = _banner(w, name)
        if name in OWN_DATA_VIEWS:
            assert banner is None
            continue
        assert banner is not None and banner.isVisible(), name
        text = banner.text()
        assert "6 value(s) to fix" in text and "Read share" in text and "and 3 more" in text and "href='scenario'" in text, text
        if name in ADVICE_VIEWS:  # nothing but the banner: no empty axes, no empty column
            assert not w.panels[name].isVisible(), name
    assert "Waiting" not in w.panels["recommendations"].summary.text()
    banner = _banner(w, "plots")
    banner.linkActivated.emit("scenario")
    assert w.tabs.currentIndex() == w.view_names().index("scenario")


@pytest.mark.timeout(180)
def test_fixing_the_scenario_brings_the_views_and_their_advice_back(invalid_window, qtbot):
    w = invalid_window
    banner = _banner(w, "recommendations")
    doc = w.session.document
    with qtbot.waitSignal(w.session.sig_advice, timeout=60000):
        doc.set(("hosts", "ram_gib"), 256)
        doc.set(("workloads", 0, "io", "read_share"), 0.7)
    QApplication.processEvents()
    assert not banner.isVisible() and w.panels["recommendations"].isVisible()
    assert w.panels["recommendations"].cards
