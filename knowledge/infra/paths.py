"""Where Capacity Advisor reads and writes files.

Read-only data ships inside the package (or the frozen bundle); everything the user
creates lives in per-user directories from platformdirs. Each directory can be
overridden by an environment variable (tests use this to stay in tmp_path):
``CAPADVISOR_DATA_DIR``, ``CAPADVISOR_CACHE_DIR``, ``CAPADVISOR_CONFIG_DIR``.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

APP_NAME = "capadvisor"
APP_AUTHOR = "CapacityAdvisor"

#: the source tree (the folder holding app/, advisor/, knowledge/, ui/, resources/)
SOURCE_ROOT = Path(__file__).resolve().parents[2]


def _user_dir(env: str, kind: str) -> Path:
    override = os.environ.get(env)
    if override:
        return Path(override)
    import platformdirs

    getter = {"data": platformdirs.user_data_dir, "cache": platformdirs.user_cache_dir,
              "config": platformdirs.user_config_dir}[kind]
    return Path(getter(APP_NAME, APP_AUTHOR))


def user_data_dir() -> Path:
    """Directory of the user database and saved projects (not created here)."""
    return _user_dir("CAPADVISOR_DATA_DIR", "data")


def user_cache_dir() -> Path:
    """Directory of rebuildable files: compiled knowledge base, model cache, benchmark scratch."""
    return _user_dir("CAPADVISOR_CACHE_DIR", "cache")


def user_config_dir() -> Path:
    """Directory of settings."""
    return _user_dir("CAPADVISOR_CONFIG_DIR", "config")


def bundle_root() -> Path:
    """Root of the installed program: the PyInstaller bundle when frozen, else the source tree."""
    if getattr(sys, "frozen", False):
        return Path(getattr(sys, "_MEIPASS", Path(sys.executable).parent))
    return SOURCE_ROOT


def bundled_kb_path() -> Path:
    """The pre-compiled knowledge base shipped with a build (may not exist in a checkout)."""
    return bundle_root() / "resources" / "data" / "knowledge.sqlite"


def user_db_path() -> Path:
    """The writable user database (sites, imports, projects)."""
    return user_data_dir() / "user.sqlite"


_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)), *(f"LPT{i}" for i in range(1, 10))}


def safe_filename(name: str, fallback: str = "untitled", max_chars: int = 120) -> str:
    """``name`` (a scenario or workload name) as one file name that stays inside the folder it is
    joined to: path separators, ``..``, control characters, lone surrogates and the characters
    Windows forbids become ``_``; no leading dot, dash or space; not a device name; at most
    ``max_chars`` characters; ``fallback`` when nothing usable is left."""
    text = "".join("_" if 0xD800 <= ord(c) <= 0xDFFF else c for c in str(name))
    text = re.sub(r'[\x00-\x1f\x7f<>:"/\\|?*]', "_", text)
    text = re.sub(r"\.{2,}", "_", text).strip().lstrip(".-_ ").rstrip(". ")
    text = text[:max_chars].rstrip(". ")
    if not text or text.split(".")[0].upper() in _RESERVED:
        return fallback
    return text
