"""The Preferences dialog (ui/preferences.py) and how the main window saves and applies it: real
widgets offscreen, the settings file under the test's own config directory (tests/conftest.py)."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from app import settings as app_settings
from app.gui import settings_store
from app.settings import Settings
from ui import theme
from ui.dialogs.preferences import FIELDS, PreferencesDialog
from ui.main_window import window_settings

SPINS = ("font_pt", "workshop_font_pt", "whatif_debounce_ms", "max_recent")
B = QDialogButtonBox.StandardButton


@pytest.fixture(autouse=True)
def restore_look(qapp):
    """These tests change the application's theme and font: put them back afterwards."""
    saved = (qapp.font(), qapp.palette(), qapp.styleSheet(), theme._current, theme._current_name)
    yield
    font, palette, sheet, current, name = saved
    qapp.setStyleSheet(sheet)
    qapp.setPalette(palette)
    qapp.setFont(font)
    theme._current, theme._current_name = current, name


def _dialog(qtbot, settings: Settings | None = None) -> PreferencesDialog:
    dlg = PreferencesDialog(settings or Settings(), settings_store())
    qtbot.addWidget(dlg)
    dlg.show()
    return dlg


def _click(qtbot, dlg: PreferencesDialog, which) -> None:
    qtbot.mouseClick(dlg.buttons.button(which), Qt.MouseButton.LeftButton)


def _type(qtbot, spin, text: str) -> None:
    """Replace a spin box's text by typing, as a user does, and press Enter."""
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, text)
    qtbot.keyClick(spin, Qt.Key.Key_Return)


def _fill(dlg: PreferencesDialog, **values) -> None:
    for name, value in values.items():
        editor = dlg.editor(name)
        if name == "theme":
            editor.setCurrentIndex(editor.findData(value))
        elif name == "auto_advise":
            editor.setChecked(value)
        else:
            editor.setValue(value)


def _saved() -> dict:
    return json.loads(app_settings.settings_path().read_text(encoding="utf-8"))


# --- the dialog alone ------------------------------------------------------------------------
def test_the_dialog_shows_the_settings_and_returns_an_edited_copy(qtbot):
    original = Settings(theme="dark", font_pt=12.5, workshop_font_pt=22.0, whatif_debounce_ms=120,
                        auto_advise=False, max_recent=5, site="lab")
    dlg = _dialog(qtbot, original)
    assert dlg.theme.currentData() == "dark"
    assert (dlg.font_pt.value(), dlg.workshop_font_pt.value()) == (12.5, 22.0)
    assert (dlg.whatif_debounce_ms.value(), dlg.max_recent.value()) == (120, 5)
    assert not dlg.auto_advise.isChecked()
    assert dlg.font_pt.text() == "12.5 pt" and dlg.whatif_debounce_ms.text() == "120 ms"

    _type(qtbot, dlg.font_pt, "15")
    _type(qtbot, dlg.whatif_debounce_ms, "250")
    _fill(dlg, theme="light", auto_advise=True, max_recent=12, workshop_font_pt=30.0)
    result = dlg.result_settings()
    assert result is not original
    assert (result.theme, result.font_pt, result.workshop_font_pt) == ("light", 15.0, 30.0)
    assert (result.whatif_debounce_ms, result.auto_advise, result.max_recent) == (250, True, 12)
    assert result.site == "lab"  # fields the dialog does not edit are carried over
    assert asdict(original) == asdict(Settings(theme="dark", font_pt=12.5, workshop_font_pt=22.0,
                                               whatif_debounce_ms=120, auto_advise=False, max_recent=5,
                                               site="lab"))  # untouched


def test_every_editor_has_a_tooltip_a_label_and_a_unit(qtbot):
    dlg = _dialog(qtbot)
    for name in FIELDS:
        assert dlg.editor(name).toolTip(), name
    assert [dlg.editor(n).suffix() for n in SPINS] == [" pt", " pt", " ms", " files"]
    assert dlg.font_pt.text() == "Desktop default"  # 0 pt
    assert [dlg.theme.itemData(i) for i in range(dlg.theme.count())] == ["system", "light", "dark"]
    assert dlg.buttons.standardButtons() == B.Ok | B.Cancel | B.RestoreDefaults


def test_restore_defaults_resets_the_editors_and_keeps_the_dialog_open(qtbot):
    dlg = _dialog(qtbot, Settings(theme="dark", font_pt=14.0, workshop_font_pt=30.0, whatif_debounce_ms=500,
                                  auto_advise=False, max_recent=20))
    _click(qtbot, dlg, B.RestoreDefaults)
    assert dlg.isVisible() and dlg.result() == 0
    defaults = Settings()
    got = dlg.result_settings()
    for name in FIELDS:
        assert getattr(got, name) == getattr(defaults, name), name


def test_the_ranges_are_the_ones_settings_validate_clamps_to(qtbot):
    dlg = _dialog(qtbot)
    for name in SPINS:
        spin = dlg.editor(name)
        low = getattr(Settings(**{name: -1e9}).validate(), name)
        high = getattr(Settings(**{name: 1e9}).validate(), name)
        assert (spin.minimum(), spin.maximum()) == (low, high), name


def test_out_of_range_values_cannot_be_entered(qtbot):
    dlg = _dialog(qtbot)
    _type(qtbot, dlg.whatif_debounce_ms, "99999")
    _type(qtbot, dlg.workshop_font_pt, "99")
    _type(qtbot, dlg.font_pt, "-3")
    _type(qtbot, dlg.max_recent, "500")
    assert dlg.whatif_debounce_ms.value() <= 1000
    assert dlg.workshop_font_pt.value() <= 48.0
    assert dlg.font_pt.value() >= 0.0
    assert dlg.max_recent.value() <= 30
    _type(qtbot, dlg.max_recent, "0")
    assert dlg.max_recent.value() >= 1
    for name in SPINS:  # nor by program: the editors clamp
        spin = dlg.editor(name)
        spin.setValue(spin.maximum() * 10)
        assert spin.value() == spin.maximum()
    result = dlg.result_settings()
    assert asdict(result) == asdict(Settings(**{n: getattr(result, n) for n in FIELDS}).validate())


def test_a_field_set_by_the_environment_is_shown_but_not_editable(qtbot, tmp_path):
    s = app_settings.load(tmp_path / "none.json", environ={"CAPADVISOR_THEME": "dark"})
    dlg = _dialog(qtbot, s)
    assert dlg.theme.currentData() == "dark" and not dlg.theme.isEnabled()
    assert "CAPADVISOR_THEME" in dlg.theme.toolTip()
    assert dlg.font_pt.isEnabled()
    _click(qtbot, dlg, B.RestoreDefaults)
    assert dlg.theme.currentData() == "dark"


# --- in the main window ----------------------------------------------------------------------
def _open(window, qtbot) -> PreferencesDialog:
    window.act_preferences.trigger()
    dlg = window.preferences_dialog
    assert isinstance(dlg, PreferencesDialog)
    qtbot.waitUntil(dlg.isVisible)
    return dlg


def test_preferences_is_in_the_edit_menu_with_the_standard_shortcut(window):
    edit = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Edit")
    assert window.act_preferences in edit.actions()
    standard = QKeySequence.keyBindings(QKeySequence.StandardKey.Preferences) or [QKeySequence("Ctrl+,")]
    assert window.act_preferences.shortcuts() == standard
    assert window.act_preferences.text() == "&Preferences…"


def test_ok_saves_the_file_at_once_and_applies_everything(window, qtbot):
    whatif = window.show_view("whatif")
    qs = window_settings()
    qs.setValue("recent_files", [f"/tmp/s{i}.yaml" for i in range(6)])
    qs.sync()
    window._refresh_recent()
    assert len(window.recent_menu.actions()) == 6
    assert not app_settings.settings_path().exists()

    dlg = _open(window, qtbot)
    _fill(dlg, theme="dark", workshop_font_pt=21.0, auto_advise=False, max_recent=2)
    _type(qtbot, dlg.font_pt, "13.5")
    _type(qtbot, dlg.whatif_debounce_ms, "240")
    _click(qtbot, dlg, B.Ok)
    assert not dlg.isVisible()

    saved = _saved()  # written at once, not only on close
    assert (saved["theme"], saved["font_pt"], saved["workshop_font_pt"]) == ("dark", 13.5, 21.0)
    assert (saved["whatif_debounce_ms"], saved["auto_advise"], saved["max_recent"]) == (240, False, 2)
    assert window.settings is window.session.settings and window.settings.font_pt == 13.5
    assert QApplication.instance().font().pointSizeF() == 13.5
    assert theme.current_name() == "dark"
    assert window.theme_actions["dark"].isChecked() and not window.theme_actions["system"].isChecked()
    assert whatif._rt_timer.interval() == 240 and whatif.state._timer.interval() == 960
    assert window.recent_files() == ["/tmp/s0.yaml", "/tmp/s1.yaml"]
    assert [a.text() for a in window.recent_menu.actions()] == ["/tmp/s0.yaml", "/tmp/s1.yaml"]


def test_automatic_advice_follows_the_preference(window, qtbot):
    s = window.session
    dlg = _open(window, qtbot)
    dlg.auto_advise.setChecked(False)
    _click(qtbot, dlg, B.Ok)
    advice = s.advice
    s.document.set(("workloads", 0, "vms"), 30)
    qtbot.wait(400)  # longer than the session's debounce
    assert s.advice is advice and not s.advice_task.running

    dlg = _open(window, qtbot)
    assert not dlg.auto_advise.isChecked()
    dlg.auto_advise.setChecked(True)
    with qtbot.waitSignal(s.sig_advice, timeout=30000):  # catches up with the edit made meanwhile
        _click(qtbot, dlg, B.Ok)
    assert s.advice is not advice
    assert _saved()["auto_advise"] is True


def test_cancel_changes_nothing(window, qtbot):
    whatif = window.show_view("whatif")
    app_settings.save(window.settings)
    before_file = app_settings.settings_path().read_bytes()
    before = asdict(window.settings)
    font, look = QApplication.instance().font().pointSizeF(), theme.current_name()
    interval = whatif._rt_timer.interval()

    dlg = _open(window, qtbot)
    _fill(dlg, theme="dark" if look != "dark" else "light", font_pt=19.0, whatif_debounce_ms=700,
          auto_advise=False, max_recent=3)
    _click(qtbot, dlg, B.Cancel)
    assert not dlg.isVisible()
    assert app_settings.settings_path().read_bytes() == before_file
    assert asdict(window.settings) == before
    assert QApplication.instance().font().pointSizeF() == font and theme.current_name() == look
    assert whatif._rt_timer.interval() == interval

    dlg = _open(window, qtbot)  # Escape is Cancel too
    dlg.font_pt.setValue(25.0)
    qtbot.keyClick(dlg, Qt.Key.Key_Escape)
    assert app_settings.settings_path().read_bytes() == before_file
    assert asdict(window.settings) == before


def test_desktop_default_font_gives_the_desktop_size_back(window, qtbot):
    app = QApplication.instance()
    dlg = _open(window, qtbot)
    dlg.font_pt.setValue(18.0)
    _click(qtbot, dlg, B.Ok)
    assert app.font().pointSizeF() == 18.0
    dlg = _open(window, qtbot)
    _type(qtbot, dlg.font_pt, "0")
    assert dlg.font_pt.text() == "Desktop default"
    _click(qtbot, dlg, B.Ok)
    assert _saved()["font_pt"] == 0.0
    assert app.font().pointSizeF() == theme.desktop_font_pt() != 18.0


def test_in_workshop_mode_both_looks_apply_at_once(window, qtbot):
    app = QApplication.instance()
    window.toggle_workshop(True, full_screen=False)
    workshop_pt = window._workshop.font().pointSizeF()
    dlg = _open(window, qtbot)
    _fill(dlg, theme="dark", font_pt=12.0, workshop_font_pt=11.0, whatif_debounce_ms=90)
    _click(qtbot, dlg, B.Ok)
    assert window._workshop.font().pointSizeF() == 11.0 != workshop_pt  # the workshop size applies at once
    assert theme.current_name() == "dark" and app.font().pointSizeF() == 12.0  # and the window's
    assert window._workshop.whatif._rt_timer.interval() == 90
    window.toggle_workshop(False)
    assert theme.current_name() == "dark" and app.font().pointSizeF() == 12.0
