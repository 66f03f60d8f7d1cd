"""``capadvisor gui``: screenshots of every view offscreen, and a clear message without a display."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app import gui
from tests import model_cache

ROOT = Path(__file__).resolve().parents[2]


def test_no_display_explains_how_to_run(monkeypatch):
    monkeypatch.setattr(sys, "platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    text = gui.display_problem()
    assert "xvfb-run" in text and "QT_QPA_PLATFORM=offscreen" in text
    assert gui.display_problem(offscreen_ok=True) is None
    assert os.environ["QT_QPA_PLATFORM"] == "offscreen"


def test_run_without_display_exits_non_zero_with_the_reason(monkeypatch, capsys):
    monkeypatch.setattr(sys, "platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    assert gui.run() == gui.EXIT_NO_GUI
    assert "no display" in capsys.readouterr().err


@pytest.mark.parametrize("text,ok", [("1280x800", (1280, 800)), ("1920X1080", (1920, 1080)), ("12x8", None),
                                     ("wide", None)])
def test_parse_size(text, ok):
    from knowledge.infra.errors import InputError

    if ok:
        assert gui.parse_size(text) == ok
    else:
        with pytest.raises(InputError):
            gui.parse_size(text)


@pytest.mark.slow
def test_screenshots_of_every_view(tmp_path, kb_file):
    from PySide6.QtGui import QImage

    from knowledge.infra.paths import user_config_dir
    from ui.main_window import VIEWS

    out = tmp_path / "shots"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    # the user's last session: its window state stays (was: the run saved tab=optimize, its last view,
    # and a 1024x700 geometry, and the next session opened there)
    state = user_config_dir() / "window.ini"
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_text("[General]\ntab=scenario\n")
    model_cache.warm(kb_file)  # the process loads the session's trained families instead of training them
    proc = subprocess.run([sys.executable, "-m", "app", "gui", "--screenshots", str(out), "--size", "1024x700",
                           "--kb", str(kb_file)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert state.read_text() == "[General]\ntab=scenario\n"
    for name in [v[0] for v in VIEWS] + ["workshop"]:
        img = QImage(str(out / f"{name}.png"))
        assert (img.width(), img.height()) == (1024, 700), name
        # not an empty panel: many distinct colours
        colours = {img.pixel(x, y) for x in range(0, 1024, 16) for y in range(0, 700, 16)}
        assert len(colours) > 20, name
    assert (out / "about.png").exists()


@pytest.mark.timeout(120)
def test_screenshots_of_a_cost_catalogue_given_as_the_scenario_refuse_it_clearly(tmp_path, kb_file):
    """Issue #29 point 9: the scenario's own refusal and exit code 2, no traceback from a view."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    costs = ROOT / "resources" / "examples" / "costs-example.yaml"
    proc = subprocess.run([sys.executable, "-m", "app", "gui", "--scenario", str(costs), "--screenshots",
                           str(tmp_path / "shots"), "--kb", str(kb_file)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=100)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert "costs-example.yaml" in proc.stderr and "problem(s) in the scenario" in proc.stderr
    assert not list((tmp_path / "shots").glob("*.png"))
