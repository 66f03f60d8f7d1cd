"""app.settings: typed, versioned, migrated, overridable by environment, resettable."""

from __future__ import annotations

import json

from app import settings


def test_defaults_when_nothing_saved(tmp_path):
    s = settings.load(tmp_path / "none.json", environ={})
    assert s == settings.Settings()
    assert s.version == settings.CURRENT_VERSION


def test_round_trip_under_the_user_config_dir():
    s = settings.Settings(theme="dark", workshop_font_pt=20.0, site="lab")
    path = settings.save(s)
    assert path.parent == settings.settings_path().parent
    back = settings.load(environ={})
    assert (back.theme, back.workshop_font_pt, back.site) == ("dark", 20.0, "lab")


def test_migrates_version_1_files(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"version": 1, "dark_mode": True, "whatif_delay": 0.05, "site": "x"}))
    s = settings.load(path, environ={})
    assert s.theme == "dark"
    assert s.whatif_debounce_ms == 50
    assert s.site == "x" and s.version == settings.CURRENT_VERSION


def test_environment_overrides_are_not_persisted(tmp_path):
    path = tmp_path / "settings.json"
    settings.save(settings.Settings(theme="light"), path)
    s = settings.load(path, environ={"CAPADVISOR_THEME": "dark", "CAPADVISOR_AUTO_ADVISE": "no"})
    assert s.theme == "dark" and s.auto_advise is False
    s.site = "lab"
    settings.save(s, path)
    saved = json.loads(path.read_text())
    assert saved["theme"] == "light" and saved["auto_advise"] is True and saved["site"] == "lab"


def test_damaged_newer_or_wrong_values_fall_back_to_defaults(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("{not json")
    assert settings.load(path, environ={}) == settings.Settings()
    path.write_text(json.dumps({"version": 99, "theme": "dark"}))
    assert settings.load(path, environ={}).theme == "system"
    path.write_text(json.dumps({"version": 3, "theme": "purple", "font_pt": "big", "future": 1}))
    s = settings.load(path, environ={})
    assert s.theme == "system" and s.font_pt == 0.0 and s.extra == {"future": 1}


def test_reset_removes_the_file(tmp_path):
    path = tmp_path / "settings.json"
    settings.save(settings.Settings(theme="dark"), path)
    assert settings.reset(path) == settings.Settings()
    assert not path.exists()
