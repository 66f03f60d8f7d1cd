"""Test-wide fixtures: never touch the real user's files; Qt renders offscreen."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def isolated_user_dirs(tmp_path, monkeypatch):
    """Point every user directory (data, cache, config) at the test's tmp_path."""
    home = tmp_path / "home"
    for name in ("CAPADVISOR_DATA_DIR", "CAPADVISOR_CACHE_DIR", "CAPADVISOR_CONFIG_DIR"):
        path = home / name.rsplit("_", 2)[1].lower()
        path.mkdir(parents=True, exist_ok=True)
        monkeypatch.setenv(name, str(path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "xdg-config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "xdg-data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "xdg-cache"))
    yield home
