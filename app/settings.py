"""The user's preferences: one typed, versioned settings object with migrations.

Stored as JSON in ``knowledge.infra.paths.user_config_dir() / "settings.json"`` (written atomically).
Any field can be overridden for one run by an environment variable ``CAPADVISOR_<FIELD>`` in
upper case (e.g. ``CAPADVISOR_THEME=dark``); overrides are never written back. A file from an
older version is migrated forward by :data:`MIGRATIONS`; a damaged file or one from a newer
version is left untouched and the defaults are used. Window geometry and recent files live in
QSettings (see ui/main_window.py), not here: this module does not import Qt.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from knowledge.infra.atomic import write_text_atomic
from knowledge.infra.paths import user_config_dir

log = logging.getLogger(__name__)

THEMES = ("system", "light", "dark")
ENV_PREFIX = "CAPADVISOR_"
#: the allowed range (lowest, highest) of each numeric field; :meth:`Settings.validate` clamps to it
#: and the Preferences dialog (ui/preferences.py) offers exactly it
LIMITS: dict[str, tuple[float, float] | tuple[int, int]] = {
    "font_pt": (0.0, 40.0),
    "workshop_font_pt": (10.0, 48.0),
    "whatif_debounce_ms": (0, 1000),
    "max_recent": (1, 30),
}


@dataclass
class Settings:
    """Preferences of the desktop application (units in each field's comment)."""

    #: schema version of this object; bump it and add a migration when fields change meaning
    version: int = 3
    #: "system" follows the desktop's light/dark setting; "light" or "dark" force one
    theme: str = "system"
    #: base font size of the normal window, in points (0 = the desktop's default)
    font_pt: float = 0.0
    #: base font size in workshop mode, in points
    workshop_font_pt: float = 17.0
    #: delay between a what-if slider move and the recomputation, in milliseconds
    whatif_debounce_ms: int = 30
    #: re-run the advice automatically after each edit of the scenario
    auto_advise: bool = True
    #: the site whose imported measurements calibrate the advice ("" = none)
    site: str = ""
    #: folder last used in an open/save dialog
    last_dir: str = ""
    #: maximum length of the recent-files menu
    max_recent: int = 8
    #: extra fields written by a newer minor release are kept here, untouched
    extra: dict = field(default_factory=dict)

    def validate(self) -> Settings:
        """Clamp or reset out-of-range values in place; returns self."""
        if self.theme not in THEMES:
            self.theme = "system"
        for name, (lo, hi) in LIMITS.items():
            kind = type(lo)
            setattr(self, name, kind(min(max(kind(getattr(self, name)), lo), hi)))
        return self


def _m1_to_2(data: dict) -> dict:
    # version 1 stored the theme as "dark_mode": bool
    dark = data.pop("dark_mode", None)
    if dark is not None:
        data["theme"] = "dark" if dark else "light"
    return data


def _m2_to_3(data: dict) -> dict:
    # version 2 stored the what-if debounce in seconds as "whatif_delay"
    delay = data.pop("whatif_delay", None)
    if delay is not None:
        data["whatif_debounce_ms"] = int(round(float(delay) * 1000))
    return data


#: MIGRATIONS[v] upgrades a settings dict from version v to v + 1 (version 1 is the first)
MIGRATIONS: dict[int, Callable[[dict], dict]] = {1: _m1_to_2, 2: _m2_to_3}
CURRENT_VERSION = Settings.version


def settings_path() -> Path:
    """The settings file."""
    return user_config_dir() / "settings.json"


def migrate(data: dict) -> dict:
    """Upgrade a settings dict of any known older version to :data:`CURRENT_VERSION`."""
    version = int(data.get("version", 1))
    while version < CURRENT_VERSION:
        data = MIGRATIONS[version](dict(data))
        version += 1
        data["version"] = version
    return data


def from_dict(data: dict) -> Settings:
    """A :class:`Settings` from a (migrated) dict; unknown keys go to ``extra``, bad types to defaults."""
    names = {f.name: f for f in fields(Settings)}
    defaults = Settings()
    kwargs, extra = {}, dict(data.get("extra") or {})
    for key, value in data.items():
        if key == "extra":
            continue
        if key not in names:
            extra[key] = value
            continue
        want = type(getattr(defaults, key))
        try:
            kwargs[key] = _coerce(value, want)
        except (TypeError, ValueError):
            log.warning("settings: ignoring %s=%r (expected %s)", key, value, want.__name__)
    kwargs["version"] = CURRENT_VERSION
    return Settings(**kwargs, extra=extra).validate()


def _coerce(value, want: type):
    if want is bool:
        if isinstance(value, str):
            if value.lower() in ("1", "true", "yes", "on"):
                return True
            if value.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(value)
        return bool(value)
    if want in (int, float):
        return want(value)
    if want is str:
        if not isinstance(value, str):
            raise TypeError(value)
        return value
    return value


def env_overrides(environ: dict | None = None) -> dict:
    """Field values given as ``CAPADVISOR_<FIELD>`` environment variables (as strings)."""
    env = os.environ if environ is None else environ
    out = {}
    for f in fields(Settings):
        if f.name in ("version", "extra"):
            continue
        value = env.get(ENV_PREFIX + f.name.upper())
        if value is not None:
            out[f.name] = value
    return out


def load(path: Path | None = None, environ: dict | None = None) -> Settings:
    """The saved settings (migrated), with environment overrides applied; defaults if none saved."""
    path = settings_path() if path is None else Path(path)
    data: dict = {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("not an object")
        if int(data.get("version", 1)) > CURRENT_VERSION:
            log.warning("settings %s are from a newer version; using defaults", path)
            data = {}
        else:
            data = migrate(data)
    except FileNotFoundError:
        data = {}
    except (OSError, ValueError) as exc:
        log.warning("settings %s unreadable (%s); using defaults", path, exc)
        data = {}
    settings = from_dict(data)
    overrides = env_overrides(environ)
    if overrides:
        merged = from_dict({**asdict(settings), **overrides})
        merged._overridden = set(overrides)  # type: ignore[attr-defined]
        return merged
    return settings


def save(settings: Settings, path: Path | None = None) -> Path:
    """Write ``settings`` atomically (environment overrides are not persisted); returns the path."""
    path = settings_path() if path is None else Path(path)
    data = asdict(settings.validate())
    overridden = getattr(settings, "_overridden", set())
    if overridden:
        saved = load(path, environ={})
        for name in overridden:
            data[name] = getattr(saved, name)
    write_text_atomic(path, json.dumps(data, indent=2, sort_keys=True) + "\n", private=True)
    return path


def reset(path: Path | None = None) -> Settings:
    """Delete the saved settings and return the defaults."""
    path = settings_path() if path is None else Path(path)
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    return Settings()
