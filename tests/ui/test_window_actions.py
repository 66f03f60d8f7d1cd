"""Issue #29 point 1: every action of the main window's menus, triggered as a user does (its
``triggered(bool)`` signal), reaches its slot without a stray ``checked`` flag and does what it
promises; File > Import inventory... opens the inventory dialog on the files chosen."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QFileDialog

from app.gui import settings_store
from ui.demo import demo_data

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "resources" / "examples"

#: menu text -> the window method it promises to run (views and themes are checked apart)
SLOTS = {
    "&New scenario": "new_scenario", "&Open…": "open_dialog", "&Save": "save", "Save &as…": "save_as",
    "&Import benchmark files…": "import_dialog", "Import in&ventory…": "import_inventory",
    "&Export report…": "export_report", "Export &configuration…": "export_configuration", "&Quit": "close",
    "Export &workbook…": "export_workbook", "Export s&lides…": "export_slides",
    "Cost &catalogue…": "show_cost_catalogue", "&Preferences…": "show_preferences",
    "&Workshop mode": "toggle_workshop", "&User guide": "show_user_guide",
    "&Keyboard shortcuts": "show_shortcuts", "&Welcome…": "show_welcome",
    "&About Capacity Advisor": "show_about",
}
SPIED = (*SLOTS.values(), "show_view", "set_theme", "open_scenario", "maybe_discard")


def _window(qtbot):
    from ui.main_window import MainWindow
    from ui.session import Session

    w = MainWindow(Session(settings_store()))
    qtbot.addWidget(w, before_close_func=lambda win: win.session.document.undo_stack.setClean())
    w.session.document.load_data(demo_data())
    w.resize(1280, 720)
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.mark.timeout(120)
def test_every_menu_action_reaches_its_slot_without_a_checked_flag(qtbot, monkeypatch):
    from ui.main_window import MainWindow
    from ui.session import Session
    from ui.window_actions import main_window_actions
    from ui.window_files import window_settings

    calls: list[tuple[str, tuple, dict]] = []
    unset = object()

    def spy(name, original):
        """A stand-in with the original's positional parameters (Qt passes ``checked`` to a
        slot that has room for it), recording what it receives."""

        def record(args, kwargs):
            calls.append((name, tuple(a for a in args if a is not unset), kwargs))
            return True

        def slot0(self, **kwargs):
            return record((), kwargs)

        def slot1(self, a=unset, **kwargs):
            return record((a,), kwargs)

        def slot2(self, a=unset, b=unset, **kwargs):
            return record((a, b), kwargs)

        code = getattr(original, "__code__", None)
        n = min(2, code.co_argcount - 1) if code is not None else 0
        return (slot0, slot1, slot2)[n]

    for name in SPIED:
        monkeypatch.setattr(MainWindow, name, spy(name, getattr(MainWindow, name)))
    monkeypatch.setattr(Session, "advise_now", spy("advise_now", Session.advise_now))
    recent = EXAMPLES / "small-lab.json"
    window_settings().setValue("recent_files", [str(recent)])
    w = _window(qtbot)
    actions = main_window_actions(w)
    texts = [a.text() for a in actions]
    assert "Import in&ventory…" in texts and str(recent) in texts
    for act in actions:
        if act in (w.act_undo, w.act_redo):  # Qt's own undo-stack actions
            continue
        calls.clear()
        act.trigger()
        assert calls, f"{act.text()!r} runs nothing"
        assert all(not isinstance(a, bool) for _n, args, kw in calls for a in (*args, *kw.values())), (
            f"{act.text()!r} passed its checked flag on: {calls}")
        text = act.text()
        if text in SLOTS:
            assert calls == [(SLOTS[text], (), {})], (text, calls)
        elif text == str(recent):
            assert calls == [("maybe_discard", (), {}), ("open_scenario", (recent,), {})]
        elif act in w.theme_actions.values():
            assert calls == [("set_theme", (text.lower(),), {})]
        elif text == "&Advise now":
            assert calls == [("advise_now", (), {})]
        else:
            name = next(n for n, a in w.view_actions.items() if a is act)
            assert calls == [("show_view", (name,), {})]


def test_every_view_has_a_ctrl_number_and_optimize_is_ctrl_0(qtbot):
    w = _window(qtbot)
    keys = [w.view_actions[n].shortcut().toString() for n in w.view_names()]
    assert keys == [f"Ctrl+{i}" for i in (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)]
    w.view_actions["optimize"].trigger()
    assert w.tabs.currentIndex() == w.view_names().index("optimize")


@pytest.mark.timeout(120)
def test_file_import_inventory_from_the_menu_opens_the_files_chosen(qtbot, monkeypatch):
    chosen = [str(EXAMPLES / "inventory-vms.csv")]
    asked = []

    def get_open_file_names(*args, **kwargs):
        asked.append(args)
        return chosen, ""

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(get_open_file_names))
    w = _window(qtbot)
    w.session.document.undo_stack.setClean()
    w.act_import_inventory.trigger()
    assert asked, "no file dialog was asked"
    from ui.dialogs.inventory import InventoryDialog

    dialogs = [d for d in w.findChildren(InventoryDialog) if d.isVisible()]
    assert dialogs, "File > Import inventory… opened nothing"
    qtbot.waitUntil(lambda: dialogs[0].inventory is not None or dialogs[0].message.isVisible(), timeout=60000)
    assert dialogs[0].inventory is not None, dialogs[0].message.text()
    dialogs[0].reject()
    QApplication.processEvents()


def test_the_shortcut_list_names_keys_a_keyboard_has(qtbot):
    """Issue #29 point 9: Undo reads "Ctrl+Z" (not "Ctrl+Z, F14"); Optimize is listed with Ctrl+0."""
    from ui.dialogs.help import shortcut_rows

    w = _window(qtbot)
    rows = dict((what, keys) for keys, what in shortcut_rows(w))
    undo = next(keys for what, keys in rows.items() if what.startswith("Undo"))
    assert undo == "Ctrl+Z" and not any("F14" in keys for keys in rows.values())
    assert rows["Optimize"] == "Ctrl+0"


def test_the_first_window_fits_the_screen_with_its_title_bar(qtbot):
    """Issue #29 point 9: the first start (no saved geometry) on a small screen: the window and the
    title bar the window manager adds fit the available height (it was 1280x800 on a 720-px screen)."""
    from ui.main_window import FRAME_GUESS, MainWindow
    from ui.session import Session

    w = MainWindow(Session(settings_store()))
    qtbot.addWidget(w)
    avail = QApplication.primaryScreen().availableGeometry()
    assert w.height() + FRAME_GUESS[1] <= avail.height() and w.width() + FRAME_GUESS[0] <= avail.width()


def test_a_restart_reopens_the_file_saved_last_even_inside_the_application_folder(qtbot, monkeypatch, tmp_path):
    """Issue #29 point 9: a file saved in the application's folder (a checkout) was never a recent
    file, so a restart reopened an older one; only the bundled examples are left out."""
    import knowledge.infra.paths as paths
    from ui.main_window import MainWindow
    from ui.session import Session

    monkeypatch.setattr(paths, "bundle_root", lambda: tmp_path)
    w = _window(qtbot)
    older, newer = tmp_path / "old.yaml", tmp_path / "work" / "lab.yaml"
    newer.parent.mkdir()
    assert w._save_to(older) and w._save_to(newer)
    assert w.recent_files()[0] == str(newer)
    example = tmp_path / "resources" / "examples" / "scenario.yaml"
    example.parent.mkdir(parents=True)
    w._add_recent(example)
    assert w.recent_files()[0] == str(newer)
    again = MainWindow(Session(settings_store()))
    qtbot.addWidget(again)
    from app.gui import _open_last_or_welcome

    _open_last_or_welcome(again)
    assert again.session.document.path == newer
