"""Real X input for the journey tests: xdotool moves the pointer, clicks, turns the wheel and
types on the Xvfb display the application runs on, exactly as a user's mouse and keyboard would
(the X server routes every event; nothing is sent to a widget the test picks).

After each action the Qt event loop runs until the X events have been delivered."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEventLoop, QPoint, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QWidget


def pump(ms: int = 60) -> None:
    """Run the Qt event loop for ``ms`` milliseconds."""
    end = time.monotonic() + ms / 1000
    while time.monotonic() < end:
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 10)
        time.sleep(0.005)


def wait_until(predicate, timeout_s: float = 30.0, what: str = "") -> None:
    """Run the event loop until ``predicate()`` holds; fail with ``what`` after ``timeout_s``."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if predicate():
            return
        pump(20)
    assert predicate(), f"timed out waiting for {what or predicate}"


class X:
    """The keyboard and mouse of the Xvfb display ``DISPLAY``."""

    def __init__(self, shots: Path):
        self.env = dict(os.environ)
        self.shots = shots
        self.shots.mkdir(parents=True, exist_ok=True)
        self.count = 0

    def xdotool(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self.env, check=True, timeout=30,
                       stdout=subprocess.DEVNULL)

    # --- pointer ---------------------------------------------------------------------------
    def point(self, widget: QWidget, at: QPoint | None = None) -> QPoint:
        """Screen position of ``at`` in ``widget`` (its centre by default)."""
        pump(30)
        return widget.mapToGlobal(widget.rect().center() if at is None else at)

    def move(self, widget: QWidget, at: QPoint | None = None) -> None:
        p = self.point(widget, at)
        self.xdotool("mousemove", "--sync", str(p.x()), str(p.y()))
        pump(40)

    def click(self, widget: QWidget, at: QPoint | None = None, button: int = 1, double: bool = False) -> None:
        """Move the pointer over ``widget`` (at ``at``) and click; whatever is there gets it."""
        self.move(widget, at)
        self.xdotool("click", "--repeat", "2" if double else "1", str(button))
        pump(120)

    def wheel(self, widget: QWidget, steps: int, at: QPoint | None = None) -> None:
        """Turn the wheel over ``widget``: negative steps scroll down (towards the user)."""
        self.move(widget, at)
        button = "5" if steps < 0 else "4"
        self.xdotool("click", "--repeat", str(abs(steps)), "--delay", "30", button)
        pump(150)

    def drag(self, widget: QWidget, start: QPoint, end: QPoint, steps: int = 8) -> None:
        """Press the left button at ``start`` of ``widget``, move to ``end`` in steps, release."""
        a, b = self.point(widget, start), self.point(widget, end)
        self.xdotool("mousemove", "--sync", str(a.x()), str(a.y()))
        pump(40)
        self.xdotool("mousedown", "1")
        pump(60)
        for i in range(1, steps + 1):
            x = a.x() + (b.x() - a.x()) * i // steps
            y = a.y() + (b.y() - a.y()) * i // steps
            self.xdotool("mousemove", "--sync", str(x), str(y))
            pump(40)
        self.xdotool("mouseup", "1")
        pump(150)

    def focus(self, widget: QWidget) -> None:
        """Give the keyboard focus to ``widget``'s window, as a window manager does when the user
        clicks a window (Xvfb runs none)."""
        top = widget.window()
        self.xdotool("windowfocus", "--sync", str(int(top.winId())))
        pump(150)

    # --- keyboard --------------------------------------------------------------------------
    def type(self, text: str) -> None:
        """Type ``text`` into whatever has the keyboard focus."""
        self.xdotool("type", "--delay", "15", "--", text)
        pump(120)

    def key(self, *keys: str) -> None:
        """Press keys such as ``Tab``, ``Return``, ``ctrl+z``, ``F1`` in turn."""
        self.xdotool("key", "--delay", "30", *keys)
        pump(150)

    # --- modal dialogs -----------------------------------------------------------------------
    def on_modal(self, action, timeout_s: float = 20.0, kind: type | None = None) -> None:
        """Run ``action(dialog)`` as soon as a modal dialog (of ``kind``, when given) is up; it
        runs inside the dialog's own event loop, so a ``dialog.exec()`` in the application does
        not block the test."""
        end = time.monotonic() + timeout_s

        def poll() -> None:
            dialog = QApplication.activeModalWidget()
            if dialog is not None and dialog.isVisible() and (kind is None or isinstance(dialog, kind)):
                pump(150)
                action(dialog)
            elif time.monotonic() < end:
                QTimer.singleShot(50, poll)

        QTimer.singleShot(50, poll)

    # --- looking -----------------------------------------------------------------------------
    def screenshot(self, name: str, widget: QWidget | None = None) -> Path:
        """What the X screen shows (the window of ``widget`` only, when given), as a PNG."""
        pump(200)
        screen = QGuiApplication.primaryScreen()
        image = screen.grabWindow(0)
        if widget is not None:
            top = widget.window()
            frame = top.frameGeometry()
            image = image.copy(frame)
        self.count += 1
        path = self.shots / f"{self.count:02d}-{name}.png"
        image.save(str(path))
        return path
