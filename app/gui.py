"""Start the desktop application: :func:`run` (``capadvisor gui``; the ``capadvisor-gui`` entry point is
:func:`app.entry.gui_main`).

If the GUI cannot start (no display, a Qt library missing) the reason is printed on stderr and,
where possible, shown in a native message box (a frozen app has no console), and the exit code
is :data:`EXIT_NO_GUI`.
"""

from __future__ import annotations

import gc
import os
import sys
import time
from pathlib import Path

EXIT_OK, EXIT_ERROR, EXIT_NO_GUI = 0, 1, 4

NO_DISPLAY_HELP = (
    "Capacity Advisor cannot open its window: this machine has no display "
    "(neither DISPLAY nor WAYLAND_DISPLAY is set).\n"
    "  - On a desktop session, start it from there.\n"
    "  - Over SSH, use X forwarding (ssh -X) or run it under a virtual display: "
    "xvfb-run capadvisor gui\n"
    "  - To render the views to image files without any display: "
    "QT_QPA_PLATFORM=offscreen capadvisor gui --screenshots DIR\n"
    "  - The command line works everywhere: capadvisor --help")


class AppSettingsStore:
    """The application's preferences as the GUI sees them (:class:`ui.session.SettingsStore`):
    the launcher injects it, so ui/ never imports app/."""

    def __init__(self):
        from app import __version__
        from app import settings as app_settings

        self._settings = app_settings
        self.themes = app_settings.THEMES
        self.limits = app_settings.LIMITS
        self.env_prefix = app_settings.ENV_PREFIX
        self.version = __version__

    def defaults(self):
        return self._settings.Settings()

    def load(self):
        return self._settings.load()

    def save(self, settings) -> Path:
        return self._settings.save(settings)


def settings_store() -> AppSettingsStore:
    """The settings store the GUI is given."""
    return AppSettingsStore()


def native_message(title: str, text: str) -> bool:
    """Show ``text`` in a message box of the platform without Qt; True if one was shown."""
    import shutil
    import subprocess  # here, not at the top: the start-up of the window does not need it

    try:
        if sys.platform.startswith("win"):
            import ctypes

            ctypes.windll.user32.MessageBoxW(None, text, title, 0x10)  # type: ignore[attr-defined]
            return True
        if sys.platform == "darwin":
            script = f'display alert {title!r} message {text!r} as critical'
            subprocess.run(["osascript", "-e", script], timeout=120, check=False)
            return True
        if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
            for tool, args in (("zenity", ["--error", f"--title={title}", f"--text={text}"]),
                               ("kdialog", ["--title", title, "--error", text]),
                               ("xmessage", ["-center", f"{title}\n\n{text}"])):
                if shutil.which(tool):
                    subprocess.run([tool, *args], timeout=300, check=False)
                    return True
    except (OSError, subprocess.SubprocessError, AttributeError):
        return False
    return False


def _fail(text: str) -> int:
    from app.startup import say_user_dir_problems

    say_user_dir_problems()  # the window would have said them once painted; it will not be
    print(f"capadvisor: {text}", file=sys.stderr)
    native_message("Capacity Advisor cannot start", text)
    return EXIT_NO_GUI


def display_problem(offscreen_ok: bool = False) -> str | None:
    """Why no window can be shown here, or None. ``QT_QPA_PLATFORM`` set by the user is trusted."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return None
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        if offscreen_ok:
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
            return None
        return NO_DISPLAY_HELP
    return None


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x800"`` -> ``(1280, 800)`` (pixels); raises InputError when malformed or tiny."""
    from knowledge.infra.errors import InputError

    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError as exc:
        raise InputError(f"--size {text!r}: expected WIDTHxHEIGHT in pixels, e.g. 1280x800") from exc
    if w < 640 or h < 400 or w > 7680 or h > 4320:
        raise InputError(f"--size {text!r}: between 640x400 and 7680x4320 pixels")
    return w, h


def run(scenario: Path | None = None, screenshots: Path | None = None, size: tuple[int, int] = (1280, 800),
        kb_path: Path | None = None, quit_after_show: bool = False, font_pt: float | None = None) -> int:
    """Start the GUI (or render screenshots and exit); returns the exit code."""
    started = time.perf_counter()
    problem = display_problem(offscreen_ok=screenshots is not None)
    if problem:
        return _fail(problem)
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    # start-up makes objects that live on (Qt's modules, ours, the window): no cyclic collection
    # while importing and building, ~6-9 ms; the window's collector takes over (ui.workers)
    gc.disable()
    _import_before_qt()
    try:
        from PySide6.QtWidgets import QApplication
    except ImportError as exc:
        gc.enable()
        return _fail(f"the Qt libraries could not be loaded ({exc}). Install PySide6 (pip install "
                     "PySide6-Essentials) and, on Debian/Ubuntu, the system libraries Qt needs "
                     "(./run app installs them).")
    spare_feature_scan()

    app = QApplication.instance() or QApplication(sys.argv[:1])
    if app is None:
        return _fail("Qt could not open the display; see the messages above. " + NO_DISPLAY_HELP)
    app.setApplicationName("Capacity Advisor")
    app.setOrganizationName("CapacityAdvisor")
    app.setDesktopFileName("capadvisor")
    if screenshots is not None:
        from app.startup import say_user_dir_problems
        from ui.screenshots import quiet_offscreen_warnings, render_all

        quiet_offscreen_warnings()
        say_user_dir_problems()
        window = create_window(kb_path, font_pt)
        window.saves_state = False  # the user's window state and settings stay as their last session left them
        window.resize(*size)
        return render_all(window, Path(scenario) if scenario else None, Path(screenshots), size)
    window = launch(scenario, kb_path, font_pt)
    if not quit_after_show:
        from ui.first_paint import after_first_paint

        after_first_paint(window, lambda: warn_unwritable_dirs(window))
        after_first_paint(window, lambda: warn_settings_kept(window, window.settings))
    if quit_after_show:  # used by the start-up benchmark: quit once the window has been painted
        _quit_after_first_paint(app, window, started)
    return app.exec()


def _import_before_qt() -> None:
    """The plain-Python modules the first window needs, imported before Qt: once loaded, PySide6
    reads the source of every module imported after it (looking for ``from __feature__``), a few
    milliseconds of the start-up (issue #30)."""
    import advisor.scenario  # noqa: F401 - the scenario form's field table and its validation
    from app import settings  # noqa: F401


OUR_PACKAGES = ("app", "ui", "advisor", "knowledge")


def spare_feature_scan() -> None:
    """PySide6's import hook reads the source of each module imported after Qt the first time it is
    imported, looking for ``from __feature__ import`` (snake_case, true_property): about 5 ms of the
    start-up, over 50 modules (issue #30). No module of this program selects a feature (a test checks),
    so its modules are registered as that reading concludes for a module using Qt without selecting
    one (0: calls from it see Qt's own names, whatever another module selected), and the standard
    library's already loaded as not using Qt (-1). Without sources (a frozen build) or with a PySide6
    whose hook works otherwise, nothing changes."""
    try:
        from PySide6.support import feature
    except ImportError:
        return
    known = getattr(feature, "pyside_feature_dict", None)
    if not isinstance(known, dict):
        return
    names = [name for name in sys.modules if name.partition(".")[0] in OUR_PACKAGES]
    root = Path(__file__).resolve().parent.parent
    for top in OUR_PACKAGES:
        for folder, _dirs, files in os.walk(root / top):
            package = ".".join(Path(folder).relative_to(root).parts)
            names += [package if f == "__init__.py" else f"{package}.{f[:-3]}" for f in files if f.endswith(".py")]
    for name in names:  # 0: PySide's verdict for a module that uses Qt and selects no feature
        known.setdefault(name, 0)
    for name in list(sys.modules):  # -1, its verdict for a module without Qt: the standard library's
        if name.partition(".")[0] in sys.stdlib_module_names:
            known.setdefault(name, -1)


def _quit_after_first_paint(app, window, started: float) -> None:
    """Print ``painted SECONDS cpu SECONDS`` (since ``started``; the process's CPU time) when the main
    window has painted for the first time, then quit."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    class FirstPaint(QObject):
        def eventFilter(self, obj, event):  # noqa: N802 - Qt override
            if event.type() == QEvent.Type.Paint and not getattr(self, "seen", False):
                self.seen = True
                QTimer.singleShot(0, lambda: (print(f"painted {time.perf_counter() - started:.4f} "
                                                    f"cpu {time.process_time():.4f}", flush=True),
                                              app.quit()))
            return False

    window._first_paint = FirstPaint(window)
    window.installEventFilter(window._first_paint)


def create_window(kb_path: Path | None = None, font_pt: float | None = None):
    """The session and main window as the application makes them: the preferences loaded and
    applied (theme, font size; ``font_pt`` overrides the size for this run), the window geometry
    of the last run kept on the screen."""
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from app import settings as app_settings
    from ui import theme
    from ui.main_window import ICON, MainWindow
    from ui.session import Session

    app = QApplication.instance()
    if ICON.exists():
        app.setWindowIcon(QIcon(str(ICON)))
    prefs = app_settings.load()
    font_pt = prefs.font_pt if font_pt is None else font_pt  # the override is not saved
    theme.apply(app, prefs.theme, font_pt, style_sheet=False)
    session = Session(settings_store(), settings=prefs, kb_path=kb_path)
    window = MainWindow(session)
    theme.apply_style_sheet(app, font_pt)  # once the window is built: each widget polished once
    return window


def launch(scenario: Path | None = None, kb_path: Path | None = None, font_pt: float | None = None):
    """Start the application's window: :func:`create_window`, then ``scenario`` or the last file
    opened (on a first start, or when it is gone, a new scenario and the welcome), shown, and the
    knowledge base loading once it has been painted. Returns the window (the caller runs the event loop)."""
    from ui.first_paint import after_first_paint

    window = create_window(kb_path, font_pt)
    after_first_paint(window, window.session.start)  # the worker would slow the first paint down
    if scenario is not None:
        window.open_scenario(Path(scenario))
    else:
        _open_last_or_welcome(window)
    window.show()
    return window


def warn_unwritable_dirs(window):
    """Tell the user, on stderr and in a window, when the data, cache or settings directory cannot be
    written (:func:`app.startup.say_user_dir_problems`; the GUI checks once its window is painted, issue #30);
    returns the (non-modal) message box, or None when all is well."""
    from PySide6.QtWidgets import QMessageBox

    from app.startup import say_user_dir_problems

    message = say_user_dir_problems()
    if message is None:
        return None
    box = QMessageBox(QMessageBox.Icon.Warning, "Capacity Advisor cannot save its files",
                      message, QMessageBox.StandardButton.Ok, window)
    box.setModal(False)
    box.show()
    return box


def warn_settings_kept(window, prefs):
    """Tell the user, in a window, when the settings file could not be used (damaged, or from a
    newer version): it is kept as it is, the defaults apply and nothing is saved over it. Returns
    the (non-modal) message box, or None when the file was read."""
    from PySide6.QtWidgets import QMessageBox

    from app import settings as app_settings

    problem = app_settings.load_problem(prefs)
    if not problem:
        return None
    box = QMessageBox(QMessageBox.Icon.Warning, "Preferences not read",
                      f"The saved preferences could not be used:\n{problem}.\n\nThe file was kept as it is "
                      "and Capacity Advisor runs with the default preferences; they will not be saved over "
                      "it. Move the file away (or repair it) to save preferences again.",
                      QMessageBox.StandardButton.Ok, window)
    box.setModal(False)
    box.show()
    return box


def _open_last_or_welcome(window) -> None:
    from ui.first_paint import after_first_paint

    for p in window.recent_files()[:1]:
        if Path(p).exists() and window.open_scenario(Path(p)):
            return
    window.new_scenario()
    after_first_paint(window, window.show_welcome)


def example_scenario() -> Path | None:
    """The bundled example scenario, if present."""
    from knowledge.infra.paths import bundle_root

    folder = bundle_root() / "resources" / "examples"
    for name in ("scenario.yaml", "example.yaml", "scenario.toml", "scenario.json"):
        if (folder / name).exists():
            return folder / name
    found = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    return found[0] if found else None

