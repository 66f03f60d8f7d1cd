"""The axis of the application's charts: tick labels as plain numbers (``70``, ``0.4``, ``20,000``,
never ``7·10¹``), never on top of each other (a level of ticks is labelled only where its labels fit
side by side), and a left axis as wide as its widest label (the axis title never covers a tick
label)."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtGui import QFontMetrics


def plain_number(value: float) -> str:
    """A tick value as people write it: ``70``, ``0.4``, ``2.5``, ``20,000``, ``1,500,000``
    (twelve significant digits at most, so ``0.30000000000000004`` reads ``0.3``)."""
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    if abs(value) >= 1e15 or abs(value) < 1e-6:
        return f"{value:.3g}"
    text = f"{value:,.12g}"
    return text if "e" not in text else f"{value:,.0f}"


class ReadableAxis(pg.AxisItem):
    """An axis whose labels are plain numbers and never overlap: on a log axis a minor tick is
    labelled only where a line of text fits between it and the labels next to it (decades are
    always labelled); on a linear axis a tick level is kept only when its labels fit between its
    ticks. The tick marks of a log axis stay."""

    def _metrics(self) -> QFontMetrics:
        return QFontMetrics(self.style.get("tickFont") or self.font())

    def _room(self, fm: QFontMetrics, texts: list[str]) -> float:
        """Pixels a label needs along the axis (its text and a gap)."""
        if self.orientation in ("left", "right"):
            return 1.4 * fm.height()
        return max((fm.horizontalAdvance(t) for t in texts), default=0) + fm.horizontalAdvance("0")

    def tickSpacing(self, minVal, maxVal, size):  # noqa: N802 - pyqtgraph override
        levels = super().tickSpacing(minVal, maxVal, size)
        if self.logMode or not levels or maxVal <= minVal or size <= 0 or self._tickSpacing is not None:
            return levels
        per_unit = size / (maxVal - minVal)
        fm = self._metrics()
        kept = []
        for spacing, offset in levels:
            ends = [plain_number(round(v / spacing) * spacing) for v in (minVal, maxVal)]
            if spacing * per_unit >= self._room(fm, ends):
                kept.append((spacing, offset))
        if kept:
            return kept
        spacing = levels[0][0]  # widen the major spacing (1, 2, 5 steps) until its labels fit
        for _ in range(12):
            ends = [plain_number(round(v / spacing) * spacing) for v in (minVal, maxVal)]
            if spacing * per_unit >= self._room(fm, ends):
                break
            digits = float(f"{spacing:.1e}".split("e")[0])
            spacing *= 2.5 if digits == 2.0 else 2.0
        return [(spacing, 0)]

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph override
        if self.logMode:
            return self.logTickStrings(values, scale, spacing)
        places = max(0, math.ceil(-math.log10(spacing * scale))) if spacing * scale > 0 else 0
        return [plain_number(round(float(v) * scale, places)) for v in values]

    def logTickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph override
        vals = [float(v) for v in values]
        strings = [plain_number(float(f"{10 ** v * scale:.3g}")) for v in vals]
        if not vals or all(abs(v - round(v)) < 1e-9 for v in vals):
            return strings  # the decades
        lo, hi = self.range
        length = self.size().height() if self.orientation in ("left", "right") else self.size().width()
        if hi <= lo or length <= 0:
            return ["" for _ in vals]
        per_unit = length / (hi - lo)
        need = self._room(self._metrics(), strings)
        taken = [float(d) for d in range(int(np.floor(lo)), int(np.ceil(hi)) + 1)]  # decade labels
        out = []
        for v, text in zip(vals, strings, strict=False):
            if abs(v - round(v)) < 1e-9:
                out.append(text)  # a decade (drawn in the same place when the major level has it too)
            elif all(abs(v - t) * per_unit >= need for t in taken):
                taken.append(v)
                out.append(text)
            else:
                out.append("")
        return out
