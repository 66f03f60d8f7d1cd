"""The welcome shown on a first start (and from Help > Welcome): start a new scenario, open the
example, open a file or import benchmark results. Nothing is opened without the user choosing."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCommandLinkButton, QDialog, QDialogButtonBox, QLabel, QVBoxLayout


class WelcomeDialog(QDialog):
    """Four ways to begin; each closes the dialog and calls the window's action."""

    def __init__(self, window):
        super().__init__(window)
        self.setWindowTitle("Welcome to Capacity Advisor")
        self.setObjectName("welcome")
        lay = QVBoxLayout(self)
        lay.setSpacing(8)
        title = QLabel("Welcome to Capacity Advisor")
        title.setObjectName("title")
        intro = QLabel("Describe the cluster you plan (hosts, storage, workload groups); the advice for "
                       "hypervisor, cache mode, over-allocation, storage, real-time budgets and host count "
                       "follows every edit, with the measurements behind it. How would you like to begin?")
        intro.setWordWrap(True)
        lay.addWidget(title)
        lay.addWidget(intro)
        self.buttons = {}
        for key, text, note, slot in (
                ("new", "&New scenario", "An empty cluster to fill in: hosts, disks, workload groups",
                 window.new_scenario),
                ("example", "Open the &example", "A regional private cloud with a real-time control VM, "
                 "to look around first (saved only where you choose)", window.open_example),
                ("open", "&Open a scenario file…", "YAML, TOML or JSON, e.g. one written by capadvisor",
                 window.open_dialog),
                ("import", "&Import benchmark results…", "fio, bonnie++, sysbench, PostMark or IOzone output "
                 "from your own hardware, to calibrate the advice", window.import_dialog)):
            b = QCommandLinkButton(text.replace("&", ""), note)
            b.setText(text)
            b.setObjectName(f"welcome_{key}")
            b.clicked.connect(lambda _c=False, f=slot: self._choose(f))
            lay.addWidget(b)
            self.buttons[key] = b
        hint = QLabel("F1 opens the user guide at any time; Help lists every keyboard shortcut.")
        hint.setObjectName("hint")
        hint.setWordWrap(True)
        lay.addWidget(hint)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        lay.addWidget(close)
        self.buttons["new"].setFocus(Qt.FocusReason.OtherFocusReason)
        self.setMinimumWidth(min(560, max(420, window.width() // 2)))

    def _choose(self, action) -> None:
        self.accept()
        action()
