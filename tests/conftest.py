"""Test-wide fixtures: never touch the real user's files; Qt renders offscreen; nothing is written
into the checkout (hypothesis keeps its example database and caches in a temporary folder)."""

from __future__ import annotations

import os
import shutil
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pytest  # noqa: E402


def pytest_configure(config):
    """Hypothesis writes ``.hypothesis/`` (examples, Unicode tables) into the working directory by
    default: point it at a temporary folder of this run, removed at the end."""
    from hypothesis.configuration import set_hypothesis_home_dir

    home = tempfile.mkdtemp(prefix="capadvisor-hypothesis-")
    set_hypothesis_home_dir(home)
    config.add_cleanup(lambda: shutil.rmtree(home, ignore_errors=True))


@pytest.fixture(scope="session")
def compiled_kb(tmp_path_factory):
    """The knowledge base compiled from the curated data, once per test session (tests only read it;
    the knowledge, app and ui tests' ``kb_path``/``kb_file`` are this file)."""
    from knowledge import build

    path = tmp_path_factory.mktemp("kb") / "knowledge.sqlite"
    build.build(path)
    return path


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
