"""Workshop mode: full screen, large fonts, high contrast; the what-if sliders and four charts
front and centre, the key decisions across the top. Esc leaves."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ui.panels.qt_whatif import QtWhatIfPanel


class QtWorkshopPanel(QWidget):
    """The workshop view of a session."""

    sig_exit = Signal()

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        title = QLabel(f"Capacity Advisor — {session.document.title}")
        title.setObjectName("title")
        self.title = title
        leave = QPushButton("Leave workshop mode (Esc)")
        leave.setToolTip("Back to the normal window (Esc or F11)")
        leave.clicked.connect(self.sig_exit.emit)
        head = QHBoxLayout()
        head.addWidget(title, 1)
        head.addWidget(leave)
        self.whatif = QtWhatIfPanel(session, large=True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(18, 12, 18, 12)
        lay.addLayout(head)
        lay.addWidget(self.whatif, 1)
        session.document.sig_changed.connect(lambda _p: title.setText(
            f"Capacity Advisor — {session.document.title}"))

    def busy(self) -> bool:
        return self.whatif.busy()

    def on_theme_changed(self) -> None:
        self.whatif.on_theme_changed()

    def on_settings_changed(self) -> None:
        self.whatif.on_settings_changed()
