"""Tooltips that read well: a long plain-text tooltip (anywhere in the app, also an item view's)
is shown word-wrapped at a readable width instead of as one line across the screen."""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractItemView, QToolTip, QWidget

#: plain tooltips longer than this many characters are wrapped
WRAP_AT = 70


def wrapped(text: str) -> str:
    """``text`` as rich text, which Qt's tooltip word-wraps (line breaks kept)."""
    if not text or len(text) <= WRAP_AT or text.lstrip().startswith("<"):
        return text
    body = html.escape(text).replace("\n", "<br>")
    return f"<p style='white-space:pre-wrap'>{body}</p>"


class ToolTipWrapper(QObject):
    """An application event filter: install it once with ``app.installEventFilter``."""

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        if event.type() != QEvent.Type.ToolTip or not isinstance(obj, QWidget):
            return False
        parent = obj.parentWidget()
        if isinstance(parent, QAbstractItemView) and obj is parent.viewport():
            index = parent.indexAt(event.pos())
            text = str(index.data(Qt.ItemDataRole.ToolTipRole) or "") if index.isValid() else ""
        else:
            text = obj.toolTip()
        shown = wrapped(text)
        if shown == text:
            return False
        QToolTip.showText(event.globalPos(), shown, obj)
        return True
