"""Hostile settings files (issue 19, point 6): a damaged or newer-version settings.json is kept
(never overwritten on close), the user is told, the defaults apply; single unusable values (null
version, Infinity delays, NaN font sizes, wrong types) take their field's default, never a crash."""

from __future__ import annotations

import json
import math
import os

import pytest

from app import settings
from app.settings import Settings, SettingsKept


@pytest.fixture()
def path():
    return settings.settings_path()


def _write(path, text: str) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path.read_bytes()


@pytest.mark.parametrize("text, field_defaulted", [
    ('{"version": null, "theme": "dark"}', None),
    ('{"version": 3, "whatif_debounce_ms": Infinity, "theme": "dark"}', "whatif_debounce_ms"),
    ('{"version": 3, "whatif_debounce_ms": -Infinity, "theme": "dark"}', "whatif_debounce_ms"),
    ('{"version": 3, "font_pt": NaN, "theme": "dark"}', "font_pt"),
    ('{"version": 3, "workshop_font_pt": NaN, "theme": "dark"}', "workshop_font_pt"),
    ('{"version": 3, "font_pt": 1' + "0" * 400 + ', "theme": "dark"}', None),  # clamped to the range
    ('{"version": 3, "max_recent": true, "theme": "dark"}', "max_recent"),
    ('{"version": 3, "auto_advise": "maybe", "theme": "dark"}', "auto_advise"),
    ('{"version": 3, "site": ["lab"], "theme": "dark"}', "site"),
    ('{"version": 3, "last_dir": "a\\u0000b", "theme": "dark"}', "last_dir"),
    ('{"version": 3, "extra": [1, 2], "theme": "dark"}', None),
    ('{"version": "three", "theme": "dark"}', None),
    ('{"version": true, "theme": "dark"}', None),
    ('{"version": 2, "whatif_delay": Infinity, "theme": "dark"}', "whatif_debounce_ms"),
    ('{"version": 2, "whatif_delay": "soon", "theme": "dark"}', "whatif_debounce_ms"),
])
def test_unusable_values_take_their_default_field_by_field(path, text, field_defaulted):
    _write(path, text)
    s = settings.load(environ={})
    assert settings.load_problem(s) is None
    assert s.theme == "dark"  # the good field of the same file is kept
    defaults = Settings()
    if field_defaulted:
        assert getattr(s, field_defaulted) == getattr(defaults, field_defaulted)
    for name, (lo, hi) in settings.LIMITS.items():
        value = getattr(s, name)
        assert math.isfinite(value) and lo <= value <= hi
    assert isinstance(s.extra, dict) and s.version == settings.CURRENT_VERSION
    settings.save(s)  # a file that was read can be saved, and its result read back
    assert settings.load(environ={}).theme == "dark"


@pytest.mark.parametrize("text, why", [
    ("{not json", "damaged (not JSON"),
    ("[1, 2, 3]", "damaged (not a JSON object)"),
    ("[" * 100_000 + "]" * 100_000, "damaged"),
    ('{"version": 99, "theme": "dark"}', "written by a newer Capacity Advisor (settings version 99"),
    ('{"version": 1e300, "theme": "dark"}', "written by a newer Capacity Advisor"),
])
def test_damaged_or_newer_files_are_kept_and_said(path, text, why):
    before = _write(path, text)
    s = settings.load(environ={})
    assert s == Settings()
    problem = settings.load_problem(s)
    assert problem and why in problem and str(path) in problem
    s.theme = "light"
    with pytest.raises(SettingsKept, match="were not saved") as info:
        settings.save(s)
    assert "kept as it is" in str(info.value)
    assert path.read_bytes() == before
    assert not [p for p in path.parent.iterdir() if p.name != path.name]  # no temporary left behind


@pytest.mark.timeout(20)
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_or_folder_in_place_of_the_file_never_blocks(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    s = settings.load(environ={})
    assert "named pipe" in settings.load_problem(s)
    with pytest.raises(SettingsKept):
        settings.save(s)
    path.unlink()
    path.mkdir()
    assert "folder" in settings.load_problem(settings.load(environ={}))


def test_unusable_environment_overrides_are_ignored(path):
    s = settings.load(environ={"CAPADVISOR_FONT_PT": "nan", "CAPADVISOR_WHATIF_DEBOUNCE_MS": "inf",
                               "CAPADVISOR_THEME": "dark"})
    assert s.font_pt == 0.0 and s.whatif_debounce_ms == Settings().whatif_debounce_ms and s.theme == "dark"


def test_validate_repairs_values_set_in_code():
    s = Settings(font_pt=float("nan"), whatif_debounce_ms=float("inf"), max_recent="x", site=None)
    s.validate()
    assert s.font_pt == 0.0 and s.whatif_debounce_ms == 30 and s.max_recent == 8 and s.site == ""


# --- the desktop app ------------------------------------------------------------------------------

def test_closing_the_window_keeps_a_damaged_file_and_the_user_is_told(qtbot, kb_file, path):
    from app.gui import settings_store, warn_settings_kept
    from ui.demo import demo_data
    from ui.main_window import MainWindow
    from ui.session import Session

    before = _write(path, '{"version": 3, "theme": "dark", ')  # cut off
    prefs = settings.load()
    s = Session(settings_store(), settings=prefs, kb_path=kb_file)
    w = MainWindow(s)
    w.show()
    s.document.load_data(demo_data())
    box = warn_settings_kept(w, prefs)
    assert box is not None and box.isVisible()
    assert str(path) in box.text() and "default preferences" in box.text()
    box.close()
    w.apply_preferences(Settings(theme="light"))  # an explicit save is refused too, and said
    assert path.read_bytes() == before
    s.document.undo_stack.setClean()
    w.close()
    assert path.read_bytes() == before
    w.deleteLater()


def test_a_good_file_is_saved_on_close(qtbot, kb_file, path):
    from app.gui import settings_store, warn_settings_kept
    from ui.main_window import MainWindow
    from ui.session import Session

    _write(path, json.dumps({"version": 3, "theme": "dark", "max_recent": 5}))
    prefs = settings.load()
    w = MainWindow(Session(settings_store(), settings=prefs, kb_path=kb_file))
    assert warn_settings_kept(w, prefs) is None
    w.settings.max_recent = 6
    w.close()
    assert json.loads(path.read_text())["max_recent"] == 6
    w.deleteLater()
