"""What a screen reader hears from a what-if slider: the value it stands for, with its unit.

A QSlider moves over whole steps (0, 1, 2, ...); Qt's own accessible interface reports that step
number as the slider's value ("Hosts planned, slider, 4" while the label shows 6 hosts). A
:class:`ValueSlider` knows the value a step stands for; its accessible interface (made by the
factory installed on first use) reports that value: the text "6 hosts" and, through the value
interface, the number 6.0 with the real minimum, maximum and step."""

from __future__ import annotations

from PySide6.QtGui import QAccessible, QAccessibleValueChangeEvent, QAccessibleValueInterface
from PySide6.QtWidgets import QAccessibleWidget, QSlider

_installed = False


class ValueSlider(QSlider):
    """A slider over ``lo + k * step``; ``unit`` and ``fmt`` say the value in words."""

    def __init__(self, orientation, lo: float, step: float, unit: str, fmt, parent=None):
        _install()
        super().__init__(orientation, parent)
        self.lo, self.step, self.unit, self.fmt = lo, step, unit, fmt

    def real_value(self) -> float:
        return self.lo + self.value() * self.step

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
        s = self.slider
        s.setValue(int(round((float(value) - s.lo) / s.step)))

    def minimumValue(self):
        return self.slider.lo + self.slider.minimum() * self.slider.step

    def maximumValue(self):
        return self.slider.lo + self.slider.maximum() * self.slider.step

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
