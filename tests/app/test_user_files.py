"""Files the program creates for the user are owner-only (issue 19, point 11), and a name taken from
a scenario never leads a file out of the folder it is written to."""

from __future__ import annotations

import os
import stat
import sys

import pytest

from app.cli import main
from knowledge.infra.paths import safe_filename, user_cache_dir, user_config_dir, user_data_dir

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")

EXAMPLE = "resources/examples/small-lab.json"


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_user_database_caches_and_settings_are_owner_only(tmp_path, monkeypatch, capsys):
    from pathlib import Path

    from advisor.models import clear_memory_cache

    clear_memory_cache()  # so that this run writes the model cache too
    root = Path(__file__).resolve().parents[2]
    for name, sub in (("CAPADVISOR_DATA_DIR", "data"), ("CAPADVISOR_CACHE_DIR", "cache"),
                      ("CAPADVISOR_CONFIG_DIR", "config")):
        monkeypatch.setenv(name, str(tmp_path / "fresh" / sub))  # not created yet
    previous = os.umask(0o022)  # a usual shell umask: world-readable unless the program says otherwise
    try:
        assert main(["sites", "list"]) == 0
        assert main(["advise", str(root / EXAMPLE), "-o", str(tmp_path / "advice.json")]) == 0
        assert os.umask(0o022) == 0o022  # restored after each command
    finally:
        os.umask(previous)
    capsys.readouterr()
    for folder in (user_data_dir(), user_cache_dir(), user_config_dir()):
        assert _mode(folder) == 0o700, folder
    created = [user_data_dir() / "user.sqlite", *user_cache_dir().glob("*.sqlite"),
               *user_cache_dir().glob("models-*/*.npz"), tmp_path / "advice.json"]
    assert len(created) >= 4
    for path in created:
        assert _mode(path) & 0o077 == 0, (path, oct(_mode(path)))


@pytest.mark.parametrize("name, expected", [
    ("../../etc/passwd", "etc_passwd"), ("..", "untitled"), ("a/b\\c", "a_b_c"), ("CON", "untitled"),
    ("x\ud800y\nz", "x_y_z"), (" .hidden", "hidden"), ("Lab cluster (2025)", "Lab cluster (2025)"),
    ("a..b", "a_b"), ("", "untitled"), ("nul.txt", "untitled"), ("C:\\x", "C__x"), ("-rf", "rf"),
])
def test_safe_filename(tmp_path, name, expected):
    out = safe_filename(name)
    assert out == expected
    target = (tmp_path / f"{out}.html").resolve()
    assert target.parent == tmp_path.resolve()
    assert len(safe_filename("x" * 500)) == 120
