"""Fixtures of the GUI tests: the real knowledge base (compiled once per session), a main window
on the demo scenario with the real engine and models, and helpers to wait for workers."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(autouse=True)
def collect_garbage_on_the_gui_thread(qapp):
    """Python's cyclic collector must not free Qt objects from a worker thread: during each test
    it is off; afterwards the workers are waited for and garbage is collected here."""
    from PySide6.QtCore import QCoreApplication, QEvent, QThreadPool

    gc.disable()
    yield
    QThreadPool.globalInstance().waitForDone(60000)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QCoreApplication.processEvents()
    gc.unfreeze()  # a window not closed leaves what it froze (MainThreadGarbageCollector.keep_survivors)
    gc.collect()
    gc.enable()


@pytest.fixture(scope="session")
def kb_file(compiled_kb) -> Path:
    """The knowledge base compiled from the curated data (once per test session)."""
    return compiled_kb


@pytest.fixture()
def session(qtbot, kb_file):
    """A ready Session (knowledge base open, models trained) on the demo scenario, advice computed."""
    from app.gui import settings_store
    from ui.demo import demo_data
    from ui.session import Session

    s = Session(settings_store(), kb_path=kb_file)
    s.document.load_data(demo_data())
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        s.start()
    yield s
    s.close()
    s.deleteLater()


@pytest.fixture()
def window(qtbot, kb_file):
    """A shown MainWindow on the demo scenario, with knowledge base, models and advice ready."""
    from app.gui import settings_store
    from ui.demo import demo_data
    from ui.main_window import MainWindow
    from ui.session import Session

    s = Session(settings_store(), kb_path=kb_file)
    w = MainWindow(s)
    w.resize(1280, 800)
    w.show()
    s.document.load_data(demo_data())
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        s.start()
    yield w
    s.document.undo_stack.setClean()  # no unsaved-changes question when closing
    w.close()
    w.deleteLater()


def wait_idle(qtbot, panel, timeout: int = 30000) -> None:
    """Wait until a panel's workers are done."""
    qtbot.waitUntil(lambda: not panel.busy(), timeout=timeout)


def fio_fixture() -> Path:
    """A real fio 3 JSON output (two jobs; the command is in the .cmd file beside it)."""
    return DATA / "fio3_randrw_2jobs.json"


def damaged_fixture() -> Path:
    """A truncated copy of a fio JSON output."""
    return DATA / "fio3_truncated.json"
