"""Workshop mode: full screen, large fonts, high contrast; the what-if sliders and four charts
front and centre, the key decisions across the top. Esc leaves."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from ui.panels.qt_whatif import QtWhatIfPanel


class ElidedLabel(QLabel):
    """A one-line label that shortens its text with "…" to the width it gets (it never makes its
    parent wider); the whole text is its tooltip."""

    def __init__(self, text: str = "", parent=None):
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(40)
        self.full_text = ""
        self.set_full_text(text)

    def set_full_text(self, text: str) -> None:
        self.full_text = text
        self.setToolTip(text)
        self._elide()

    def _elide(self) -> None:
        self.setText(self.fontMetrics().elidedText(self.full_text, Qt.TextElideMode.ElideRight, max(10, self.width())))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._elide()

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        self._elide()


class QtWorkshopPanel(QWidget):
    """The workshop view of a session."""

    sig_exit = Signal()

    def __init__(self, session, parent=None, font_pt: float | None = None):
        super().__init__(parent)
        self.session = session
        self.setObjectName("workshop")
        if font_pt:  # the look first: the charts are drawn once, in it (not drawn, then drawn again)
            from ui import theme

            theme.apply_to(self, "workshop", font_pt)
        title = ElidedLabel(f"Capacity Advisor — {session.document.title}")
        title.setObjectName("title")
        self.title = title
        leave = QPushButton("Leave (Esc)")
        leave.setObjectName("leaveWorkshop")
        self.leave_button = leave
        leave.setToolTip("Back to the normal window (Esc or F11)")
        leave.clicked.connect(self.sig_exit.emit)
        head = QHBoxLayout()
        head.addWidget(title, 1)
        head.addWidget(leave)
        self.whatif = QtWhatIfPanel(session, parent=self, large=True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(18, 12, 18, 12)
        lay.addLayout(head)
        lay.addWidget(self.whatif, 1)
        session.document.sig_changed.connect(lambda _p: title.set_full_text(
            f"Capacity Advisor — {session.document.title}"))

    def busy(self) -> bool:
        return self.whatif.busy()

    def on_theme_changed(self) -> None:
        self.whatif.on_theme_changed()

    def on_settings_changed(self) -> None:
        self.whatif.on_settings_changed()
