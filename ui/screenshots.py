"""Render every main view of a window to PNG files (``capadvisor gui --screenshots DIR``).

Works offscreen: the window is laid out at the requested size, each tab is shown and allowed to
finish its worker tasks, then grabbed. Also renders the workshop mode and the About box.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEventLoop, QThread
from PySide6.QtWidgets import QApplication


def quiet_offscreen_warnings() -> None:
    """Drop the offscreen platform's harmless "does not support propagateSizeHints()" warnings."""
    from PySide6.QtCore import qInstallMessageHandler

    previous = None

    def handler(mode, context, message):
        if "propagateSizeHints" in message:
            return
        if previous is not None:
            previous(mode, context, message)
        else:
            print(message, file=sys.stderr)

    previous = qInstallMessageHandler(handler)


def wait_until(predicate, timeout_s: float = 60.0) -> bool:
    """Process events until ``predicate()`` is true or the timeout (seconds) passes."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
        if predicate():
            return True
        QThread.msleep(10)
    return predicate()


def settle(window, panel=None, timeout_s: float = 60.0) -> None:
    """Wait for start-up, advice and the panel's own tasks to finish, then let it repaint."""
    session = window.session
    wait_until(lambda: not session.startup_task.running, timeout_s)
    wait_until(lambda: not session.advice_task.running and not session._debounce.isActive(), timeout_s)
    if panel is not None and hasattr(panel, "busy"):
        wait_until(lambda: not panel.busy(), timeout_s)
    for _ in range(5):
        QCoreApplication.processEvents()
        QThread.msleep(15)


def render_all(window, scenario: Path | None, outdir: Path, size: tuple[int, int]) -> int:
    """Open ``scenario`` (or the demo), render each view to ``outdir/<view>.png``; the exit code is 1
    when any task reported a failure meanwhile (each is printed), else 0."""
    from ui.demo import demo_data

    outdir.mkdir(parents=True, exist_ok=True)
    failures = []  # every failure a task reports while the views render: said, and the exit code
    window.session.notifier.sig_failure.connect(failures.append)
    window.resize(*size)
    window.show()
    if scenario is not None:
        from advisor.scenario import load_scenario
        from knowledge.infra.errors import InputError

        # a file that cannot be read, parsed or validated (a cost catalogue given as the scenario) is bad
        # input: the scenario's own refusal, exit 2 (#34, #29), not screenshots of a half-open scenario
        load_scenario(scenario)
        if not window.open_scenario(scenario):
            failure = window.error_bar.failure
            raise InputError(failure.message if failure else f"cannot open {scenario}")
    else:
        window.session.document.load_data(demo_data())
    window.session.start()
    settle(window)
    written = []
    for name in window.view_names():
        panel = window.show_view(name)
        if hasattr(panel, "prepare_screenshot"):
            panel.prepare_screenshot()
        settle(window, panel)
        path = outdir / f"{name}.png"
        window.grab().save(str(path))
        written.append(path)
    window.toggle_workshop(True, full_screen=False)
    window.resize(*size)
    settle(window, window._workshop)
    window.grab().save(str(outdir / "workshop.png"))
    written.append(outdir / "workshop.png")
    window.toggle_workshop(False)
    from ui.dialogs.about import AboutDialog

    about = AboutDialog(window.session, window)
    about.show()
    settle(window)
    about.grab().save(str(outdir / "about.png"))
    about.close()
    written.append(outdir / "about.png")
    for p in written:
        print(p, file=sys.stdout)
    window.session.document.undo_stack.setClean()
    window.close()
    QApplication.processEvents()
    for f in failures:
        kind = "error" if f.user_facing else "unexpected error (a bug)"
        print(f"capadvisor: {kind} in {f.task}: {f.message}", file=sys.stderr)
    return 1 if failures else 0
