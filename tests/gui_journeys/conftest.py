"""The journey tests drive the real application under Xvfb with real X input (xdotool).

Two levels:
- the default test run collects ``test_journeys.py``: each test starts its own Xvfb (the screen
  size of the journey), then runs one journey module (``journey_*.py``) in a child pytest whose
  QApplication uses Qt's xcb platform on that display (the rest of the suite is offscreen);
- the child runs the journey: the app is started as ``capadvisor gui`` starts it
  (:func:`app.gui.launch`), xdotool clicks, types and drags, screenshots are written to
  ``tests/gui_journeys/screenshots/<journey>/`` (looked at by people, not compared).

Without Xvfb or xdotool the journeys are skipped, saying which is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SHOTS = HERE / "screenshots"
IN_JOURNEY = os.environ.get("CAPADVISOR_JOURNEY") == "1"


# --- the outer level: Xvfb and one child run per journey -----------------------------------
class Xvfb:
    """An Xvfb server on a free display, stopped by :meth:`stop`."""

    def __init__(self, size: str):
        self.proc = None
        r, w = os.pipe()
        self.proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", f"{size}x24", "-nolisten", "tcp",
                                      "-ac", "-noreset"], pass_fds=(w,), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        os.close(w)
        number = b""
        end = time.monotonic() + 20
        while not number.endswith(b"\n") and time.monotonic() < end:
            chunk = os.read(r, 16)
            if not chunk:
                break
            number += chunk
        os.close(r)
        if not number.strip():
            self.stop()
            raise RuntimeError("Xvfb did not report its display number")
        self.display = f":{number.decode().strip()}"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def _missing_tools() -> list[str]:
    return [t for t in ("Xvfb", "xdotool") if shutil.which(t) is None]


@pytest.fixture()
def journey(kb_file, tmp_path_factory):
    """``journey(name, size)`` runs ``journey_<name>.py`` on a fresh Xvfb of ``size`` pixels."""
    missing = _missing_tools()
    if missing:
        pytest.skip(f"{' and '.join(missing)} not installed (./run tests installs xvfb and xdotool)")
    cache = tmp_path_factory.getbasetemp() / "journey-model-cache"
    cache.mkdir(exist_ok=True)

    def run(name: str, size: str = "1920x1080") -> None:
        server = Xvfb(size)
        try:
            out = SHOTS / name
            shutil.rmtree(out, ignore_errors=True)
            env = dict(os.environ, DISPLAY=server.display, QT_QPA_PLATFORM="xcb", CAPADVISOR_JOURNEY="1",
                       CAPADVISOR_JOURNEY_KB=str(kb_file), CAPADVISOR_JOURNEY_CACHE=str(cache),
                       CAPADVISOR_JOURNEY_SHOTS=str(out), QT_SCALE_FACTOR="1", QT_ENABLE_HIGHDPI_SCALING="0")
            env.pop("WAYLAND_DISPLAY", None)
            cmd = [sys.executable, "-m", "pytest", str(HERE / f"journey_{name}.py"), "-q", "-p", "no:cacheprovider",
                   "-o", "timeout=260", "-x", "--no-header", "-rfE"]
            proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=290)
            report = (proc.stdout + proc.stderr)[-8000:]
            assert proc.returncode == 0, f"journey {name} failed (screenshots in {out}):\n{report}"
            assert " passed" in proc.stdout, report
            assert list(out.glob("*.png")), f"journey {name} saved no screenshots"
        finally:
            server.stop()

    return run


@pytest.fixture(scope="session")
def kb_file(tmp_path_factory) -> Path:
    """The knowledge base compiled from the curated data (the child reuses the outer one)."""
    given = os.environ.get("CAPADVISOR_JOURNEY_KB")
    if given:
        return Path(given)
    from knowledge import build

    path = tmp_path_factory.mktemp("kb") / "knowledge.sqlite"
    build.build(path)
    return path


# --- the inner level: the application on the Xvfb display ----------------------------------
@pytest.fixture(autouse=True)
def shared_model_cache(isolated_user_dirs, monkeypatch):
    """Journeys share the trained models (the cache), not the user's data or settings."""
    cache = os.environ.get("CAPADVISOR_JOURNEY_CACHE")
    if IN_JOURNEY and cache:
        monkeypatch.setenv("CAPADVISOR_CACHE_DIR", cache)
    yield


@pytest.fixture()
def x(qapp):
    """Real input on the Xvfb display, and where the screenshots go."""
    if not IN_JOURNEY:
        pytest.skip("a journey runs under Xvfb from test_journeys.py")
    from tests.gui_journeys.xinput import X

    assert qapp.platformName() == "xcb", qapp.platformName()
    return X(Path(os.environ["CAPADVISOR_JOURNEY_SHOTS"]))


@pytest.fixture()
def launch(qapp, kb_file):
    """``launch(scenario=None)`` starts the application as ``capadvisor gui`` does (preferences,
    theme, last file or the welcome) and returns its main window, shown and ready; windows still
    open at the end are closed without questions."""
    from app.gui import launch as app_launch
    from tests.gui_journeys.xinput import wait_until

    windows = []

    def start(scenario: Path | None = None, wait_ready: bool = True):
        window = app_launch(scenario=scenario, kb_path=kb_file)
        windows.append(window)
        window.activateWindow()
        if wait_ready:
            wait_until(lambda: window.session.ready, 90, "the knowledge base and models")
            wait_until(lambda: not window.session.advice_task.running and not window.session._debounce.isActive(),
                       60, "the advice")
        return window

    yield start
    for w in windows:
        if w.isVisible():
            w.session.document.undo_stack.setClean()
            w.close()
