"""What a screen reader hears from a what-if slider: the value it stands for, with its unit.

A QSlider moves over whole steps (0, 1, 2, ...); Qt's own accessible interface reports that step
number as the slider's value ("Hosts planned, slider, 4" while the label shows 6 hosts). A
:class:`ValueSlider` knows the value a step stands for; its accessible interface (made by the
factory installed on first use) reports that value: the text "6 hosts" and, through the value
interface, the number 6.0 with the real minimum, maximum and step."""

from __future__ import annotations

import math

from PySide6.QtGui import QAccessible, QAccessibleValueChangeEvent, QAccessibleValueInterface
from PySide6.QtWidgets import QAccessibleWidget, QSlider

_installed = False


class ValueSlider(QSlider):
    """A slider over ``lo + k * step``; ``unit`` and ``fmt`` say the value in words.

    :attr:`point` (the advised value, see :meth:`set_grid`) is a stop of its own where it falls
    between two steps: the slider shows 156.25 GB as it is, not the 156.5 of the step beside it,
    and every step still stands for its own value."""

    def __init__(self, orientation, lo: float, step: float, unit: str, fmt, parent=None):
        _install()
        super().__init__(orientation, parent)
        self.lo, self.step, self.unit, self.fmt = lo, step, unit, fmt
        self.point: float | None = None
        self._steps = 0  # the last step's number (lo + _steps * step)

    def set_grid(self, lo: float, hi: float, point: float | None = None) -> None:
        """Stops from ``lo`` by ``step`` up to about ``hi``, and ``point`` between them (when it is not one)."""
        self.lo, self.point = lo, point
        self._steps = int(round((hi - lo) / self.step))
        self.setRange(0, self._steps + (self._between() is not None))

    def _between(self) -> int | None:
        """The position of :attr:`point` when it falls between steps (None: unset, or a step itself)."""
        if self.point is None:
            return None
        k = (self.point - self.lo) / self.step
        if abs(k - round(k)) <= 1e-9 * max(1.0, abs(k)):
            return None
        return min(max(0, math.floor(k) + 1), self._steps + 1)

    def value_at(self, position: int) -> float:
        j, point = self._between(), self.point
        if j is None or point is None or position < j:
            return self.lo + position * self.step
        return point if position == j else self.lo + (position - 1) * self.step

    def position_of(self, value: float) -> int:
        """The position showing ``value``: :attr:`point` itself, else the nearest step."""
        j, point = self._between(), self.point
        if j is not None and point is not None and abs(value - point) <= 1e-9 * max(1.0, abs(value)):
            return j
        k = min(max(int(round((value - self.lo) / self.step)), 0), self._steps)
        return k + (j is not None and k >= j)

    def real_value(self) -> float:
        return self.value_at(self.value())

    def value_text(self) -> str:
        return f"{self.fmt(self.real_value())} {self.unit}".strip()

    def announce(self) -> None:
        """Tell assistive tools the value it stands for (Qt itself sends the step number)."""
        if QAccessible.isActive():
            QAccessible.updateAccessibility(QAccessibleValueChangeEvent(self, self.real_value()))


class _Value(QAccessibleValueInterface):
    def __init__(self, slider: ValueSlider):
        super().__init__()
        self.slider = slider

    def currentValue(self):
        return self.slider.real_value()

    def setCurrentValue(self, value) -> None:
        self.slider.setValue(self.slider.position_of(float(value)))

    def minimumValue(self):
        return self.slider.value_at(self.slider.minimum())

    def maximumValue(self):
        return self.slider.value_at(self.slider.maximum())

    def minimumStepSize(self):
        return self.slider.step


class _SliderAccessible(QAccessibleWidget):
    def __init__(self, slider: ValueSlider):
        super().__init__(slider, QAccessible.Role.Slider)
        self._value = _Value(slider)

    def text(self, t):
        if t == QAccessible.Text.Value:
            return self._value.slider.value_text()
        return super().text(t)

    def interface_cast(self, t):
        if t == QAccessible.InterfaceType.ValueInterface:
            return self._value
        return super().interface_cast(t)


def _factory(_key: str, obj):
    return _SliderAccessible(obj) if isinstance(obj, ValueSlider) else None


def _install() -> None:
    global _installed
    if not _installed:
        QAccessible.installFactory(_factory)
        _installed = True
