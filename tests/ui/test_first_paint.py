"""Start-up (issue #30): what the first window does not show waits for its first paint, and then
follows at once: the knowledge base loading, the welcome, the tooltip filter."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

from ui.first_paint import after_first_paint

pytestmark = pytest.mark.timeout(60)


def test_the_callback_runs_once_after_the_first_paint_and_not_before(qtbot):
    window = QMainWindow()
    window.setCentralWidget(QLabel("x"))
    qtbot.addWidget(window)
    calls = []
    after_first_paint(window, lambda: calls.append("a"), fallback_ms=None)
    after_first_paint(window, lambda: calls.append("b"), fallback_ms=None)
    QApplication.processEvents()
    assert calls == []  # not shown: never painted
    window.show()
    assert calls == []  # shown, not yet painted (the event loop has not run)
    qtbot.waitUntil(lambda: calls == ["a", "b"], timeout=5000)
    window.update()
    QApplication.processEvents()
    after_first_paint(window, lambda: calls.append("c"))  # painted already: at the next turn
    qtbot.waitUntil(lambda: calls == ["a", "b", "c"], timeout=5000)


def test_a_window_never_painted_still_gets_its_work_done(qtbot):
    window = QMainWindow()
    qtbot.addWidget(window)
    calls = []
    after_first_paint(window, lambda: calls.append(1), fallback_ms=50)
    qtbot.waitUntil(lambda: calls == [1], timeout=5000)


def test_launch_loads_the_knowledge_base_and_welcomes_after_the_first_paint(qtbot, kb_file):
    from app.gui import launch

    w = launch(kb_path=kb_file)
    qtbot.addWidget(w, before_close_func=lambda win: win.session.document.undo_stack.setClean())
    assert w.isVisible()
    # nothing of it has started yet: the worker would compete with building and painting the window
    assert not w.session.startup_task.running and getattr(w, "welcome", None) is None
    qtbot.waitUntil(lambda: w.session.startup_task.running or w.session.ready, timeout=5000)
    qtbot.waitUntil(lambda: getattr(w, "welcome", None) is not None and w.welcome.isVisible(), timeout=5000)
    qtbot.waitUntil(lambda: w.session.ready, timeout=60000)
    w.welcome.close()
