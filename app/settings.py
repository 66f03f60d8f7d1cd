"""The user's preferences: one typed, versioned settings object with migrations.

Stored as JSON in ``knowledge.infra.paths.user_config_dir() / "settings.json"`` (written atomically).
Any field can be overridden for one run by an environment variable ``CAPADVISOR_<FIELD>`` in
upper case (e.g. ``CAPADVISOR_THEME=dark``); overrides are never written back. A file from an
older version is migrated forward by :data:`MIGRATIONS`; a damaged file or one from a newer
version is left untouched, the defaults are used (:func:`load_problem` says why) and :func:`save`
refuses to overwrite it (:class:`SettingsKept`); a single unusable value (null, NaN, Infinity, a
wrong type) takes its field's default. Window geometry and recent files live in
QSettings (see ui/main_window.py), not here: this module does not import Qt.
"""

from __future__ import annotations

import json
import logging
import math
import os
from collections.abc import Callable
from dataclasses import asdict, field, fields
from pathlib import Path

from knowledge.infra.atomic import write_text_atomic
from knowledge.infra.errors import UserFacingError
from knowledge.infra.lean import lean_dataclass
from knowledge.infra.paths import user_config_dir

log = logging.getLogger(__name__)

THEMES = ("system", "light", "dark")
#: paper sizes of the PDF report ("" = the desktop locale's: US Letter in the US, else A4)
PAPERS = ("", "a4", "letter")
ENV_PREFIX = "CAPADVISOR_"
#: the allowed range (lowest, highest) of each numeric field; :meth:`Settings.validate` clamps to it
#: and the Preferences dialog (ui/preferences.py) offers exactly it
LIMITS: dict[str, tuple[float, float] | tuple[int, int]] = {
    "font_pt": (0.0, 40.0),
    "workshop_font_pt": (10.0, 48.0),
    "whatif_debounce_ms": (0, 1000),
    "max_recent": (1, 30),
}


@lean_dataclass
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
    #: paper of the PDF report: "a4", "letter" or "" (the desktop locale's)
    paper: str = ""
    #: extra fields written by a newer minor release are kept here, untouched
    extra: dict = field(default_factory=dict)

    def validate(self) -> Settings:
        """Clamp or reset out-of-range values in place; returns self. A value of the wrong type,
        NaN or an infinity takes the field's default."""
        defaults = Settings()
        if self.theme not in THEMES:
            self.theme = "system"
        if self.paper not in PAPERS:
            self.paper = ""
        for name, (lo, hi) in LIMITS.items():
            kind = type(lo)
            try:
                value = _coerce(getattr(self, name), kind)
            except (TypeError, ValueError):
                value = getattr(defaults, name)
            setattr(self, name, kind(min(max(value, lo), hi)))
        for name in ("site", "last_dir"):
            if not isinstance(getattr(self, name), str) or _text_problem(getattr(self, name)):
                setattr(self, name, getattr(defaults, name))
        if not isinstance(self.auto_advise, bool):
            self.auto_advise = defaults.auto_advise
        if not isinstance(self.extra, dict):
            self.extra = {}
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
    try:
        seconds = _coerce(delay, float)
    except (TypeError, ValueError):
        return data  # no usable delay: the default applies
    data["whatif_debounce_ms"] = int(round(min(seconds, 1e6) * 1000))
    return data


#: MIGRATIONS[v] upgrades a settings dict from version v to v + 1 (version 1 is the first)
MIGRATIONS: dict[int, Callable[[dict], dict]] = {1: _m1_to_2, 2: _m2_to_3}
CURRENT_VERSION = Settings.version


def settings_path() -> Path:
    """The settings file."""
    return user_config_dir() / "settings.json"


def _version(data: dict) -> int:
    """The file's schema version: a missing or unusable one (null, text, a fraction) counts as 1."""
    value = data.get("version", 1)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or value != int(value) or value < 1:
        log.warning("settings: ignoring version=%r (treated as 1)", value)
        return 1
    return int(value)


def migrate(data: dict) -> dict:
    """Upgrade a settings dict of any known older version to :data:`CURRENT_VERSION`."""
    version = _version(data)
    while version < CURRENT_VERSION:
        data = MIGRATIONS[version](dict(data))
        version += 1
        data["version"] = version
    return data


def from_dict(data: dict) -> Settings:
    """A :class:`Settings` from a (migrated) dict; unknown keys go to ``extra``; a value of the wrong
    type, NaN, an infinity or an unusable text takes its field's default (each field on its own)."""
    names = {f.name: f for f in fields(Settings)}
    defaults = Settings()
    kwargs: dict = {}
    extra = data.get("extra")
    extra = dict(extra) if isinstance(extra, dict) else {}
    for key, value in data.items():
        if key in ("extra", "version"):
            continue
        if key not in names:
            extra[key] = value
            continue
        want = type(getattr(defaults, key))
        try:
            kwargs[key] = _coerce(value, want)
        except (TypeError, ValueError):
            log.warning("settings: ignoring %s=%.80r (expected %s)", key, value, want.__name__)
    kwargs["version"] = CURRENT_VERSION
    return Settings(**kwargs, extra=extra).validate()


def _text_problem(value: str) -> str | None:
    if len(value) > 4096:
        return "too long"
    if any(c == "\x00" or 0xD800 <= ord(c) <= 0xDFFF for c in value):
        return "not text"
    return None


def _coerce(value, want: type):
    """``value`` as a ``want`` (bool, int, float or str); TypeError/ValueError when it is not one:
    NaN and infinities are not numbers here, nor are booleans, and text must be text."""
    if want is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str):
            if value.lower() in ("1", "true", "yes", "on"):
                return True
            if value.lower() in ("0", "false", "no", "off"):
                return False
        raise ValueError(value)
    if want in (int, float):
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise TypeError(value)
        try:
            number = float(value)  # ValueError for text that is no number
        except OverflowError:  # an integer beyond any float
            raise ValueError("too large") from None
        if not math.isfinite(number):
            raise ValueError(value)
        return want(round(number)) if want is int else number
    if want is str:
        if not isinstance(value, str) or _text_problem(value):
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


#: the largest settings file read (a real one is well under 1 KiB)
MAX_SETTINGS_BYTES = 1024 * 1024


class SettingsKept(UserFacingError):
    """The settings file on disk was not read (damaged, or from a newer version), so it is not
    overwritten: the preferences of this session are not saved."""


def _read(path: Path) -> tuple[dict | None, str | None]:
    """``(data, problem)``: the file's dict (migrated) and None; ``(None, None)`` when there is no
    file; ``(None, why)`` when it cannot be used (damaged, not a file, or from a newer version)."""
    from knowledge.infra.files import read_regular_text

    if not path.exists() and not path.is_symlink():
        return None, None
    try:
        data = json.loads(read_regular_text(path, "settings file", MAX_SETTINGS_BYTES))
    except UserFacingError as exc:
        return None, str(exc)
    except RecursionError:
        return None, f"{path}: damaged (nested too deeply)"
    except ValueError as exc:  # JSONDecodeError, or an integer of more than 4300 digits
        return None, f"{path}: damaged (not JSON: {exc})"
    if not isinstance(data, dict):
        return None, f"{path}: damaged (not a JSON object)"
    if _version(data) > CURRENT_VERSION:
        return None, (f"{path}: written by a newer Capacity Advisor (settings version {_version(data)}, "
                      f"this one reads {CURRENT_VERSION})")
    try:
        return migrate(data), None
    except (TypeError, ValueError, KeyError) as exc:
        return None, f"{path}: damaged (cannot migrate: {exc})"


def load_problem(settings: Settings) -> str | None:
    """Why :func:`load` used the defaults instead of the saved file (None: the file was read, or
    there was none); the file is then kept as it is and :func:`save` refuses to overwrite it."""
    return getattr(settings, "_load_problem", None)


def load(path: Path | None = None, environ: dict | None = None) -> Settings:
    """The saved settings (migrated), with environment overrides applied; defaults if none saved.

    A damaged file (not JSON, not an object, not a regular file, too large) or one from a newer
    version is left untouched and the defaults are used (:func:`load_problem` says why); a field
    with an unusable value (null, NaN, Infinity, a wrong type) takes its default on its own."""
    path = settings_path() if path is None else Path(path)
    data, problem = _read(path)
    if problem:
        log.warning("settings %s; using the defaults and keeping the file", problem)
    settings = from_dict(data or {})
    overrides = env_overrides(environ)
    if overrides:
        settings = from_dict({**asdict(settings), **overrides})
        settings._overridden = set(overrides)  # type: ignore[attr-defined]
    settings._load_problem = problem  # type: ignore[attr-defined]
    return settings


def save(settings: Settings, path: Path | None = None) -> Path:
    """Write ``settings`` atomically (environment overrides are not persisted); returns the path.

    A file on disk that cannot be read now (damaged, or from a newer version) is never overwritten:
    :class:`SettingsKept` says so, and nothing is written."""
    path = settings_path() if path is None else Path(path)
    saved, problem = _read(path)
    if problem:
        raise SettingsKept(f"the preferences were not saved: {problem}. The file was kept as it is; "
                           "move it away (or repair it) to save preferences again")
    data = asdict(settings.validate())
    overridden = getattr(settings, "_overridden", set())
    if overridden:
        on_disk = from_dict(saved or {})
        for name in overridden:
            data[name] = getattr(on_disk, name)
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
