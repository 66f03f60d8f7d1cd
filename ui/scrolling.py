"""A page for a QScrollArea that scrolls only when its content's *minimum* does not fit.

QScrollArea sizes a resizable widget whose layout has height-for-width (any word-wrapped label)
to its *preferred* height for the width: a chart asking for 520 px then pushes the charts below it,
and their legends, out of view although everything would fit at its minimum. This page reports its
minimum height for the width instead, so the area scrolls only when that does not fit."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QWidget


class FitPage(QWidget):
    """The widget of a resizable scroll area (give it a layout as usual)."""

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt override
        lay = self.layout()
        if lay is None or not lay.hasHeightForWidth():
            return super().heightForWidth(width)
        least = lay.totalMinimumSize().height()
        if isinstance(lay, QGridLayout):  # its minimum height-for-width is the preferred one: use the
            return least                  # rows' minimum heights (each widget's own minimum)
        return max(lay.minimumHeightForWidth(width), least)
