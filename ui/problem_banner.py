"""What every view says while the scenario has values to fix (issue #29 point 7): a red banner
naming the first problems, with a link to the Scenario tab; the view under it is hidden while
there is no advice of a valid scenario to show (no empty axes, no "waiting" for ever)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QSizePolicy, QSpacerItem

SHOWN = 3  # problems named in the banner; the Scenario tab lists them all


def problems_text(problems: dict[str, str], data: dict | None, has_advice: bool) -> str:
    """The banner's rich text for ``problems`` (field path -> message)."""
    from html import escape  # here: the first window imports it only when it has a problem to show

    from ui.panels.qt_scenario import describe_problem

    items = [describe_problem(k, v, data) for k, v in list(problems.items())[:SHOWN]]
    more = f"; and {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""
    after = ("What this view shows is for the last valid scenario." if has_advice
             else "There is no advice until they are fixed.")
    return (f"<b>The scenario has {len(problems)} value(s) to fix</b>: {escape('; '.join(items))}{more}. "
            f"{after} <a href='scenario'>Fix them in the Scenario tab</a> (Ctrl+1).")


class ProblemBanner(QLabel):
    """Shown above a view while the session's scenario has problems; ``sig_open_scenario`` when
    its link is followed."""

    sig_open_scenario = Signal()

    def __init__(self, session, view_widget=None, parent=None):
        super().__init__(parent)
        self.session = session
        self.view_widget = view_widget
        self.filler: QSpacerItem | None = None  # below the view: takes the room of a hidden view
        self.setObjectName("banner")
        self.setProperty("state", "error")
        self.setWordWrap(True)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)  # at the top, its height
        self.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.linkActivated.connect(lambda _l: self.sig_open_scenario.emit())
        self.setAccessibleName("Scenario problems")
        session.document.sig_validated.connect(lambda _p: self.refresh())
        session.sig_advice.connect(lambda _a: self.refresh())
        if parent is not None and parent.layout() is not None:
            self.filler = QSpacerItem(0, 0, QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)
            parent.layout().addItem(self.filler)
        self.refresh()

    def refresh(self) -> None:
        doc = self.session.document
        problems = doc.problems
        has_advice = self.session.advice is not None
        if problems:
            self.setText(problems_text(problems, doc.data, has_advice))
        self.setVisible(bool(problems))
        if self.view_widget is not None:
            hide = bool(problems) and not has_advice
            self.view_widget.setVisible(not hide)
            if self.filler is not None:  # the banner at the top of an otherwise empty view
                self.filler.changeSize(0, 0, QSizePolicy.Policy.Minimum,
                                       QSizePolicy.Policy.Expanding if hide else QSizePolicy.Policy.Fixed)
                if self.parentWidget() is not None and self.parentWidget().layout() is not None:
                    self.parentWidget().layout().invalidate()
