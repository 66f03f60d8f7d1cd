"""What a screen reader hears from a drop-down list (a combo box that is not editable): its own name
("CPU intensity", from :mod:`ui.accessible`) and its choice as the value. Qt's own interface names
it by its current text on Linux, whatever its accessible name ("medium, combo box"). Kept apart
from :mod:`ui.accessible` so that the form's first fields need no more of Qt than they show."""

from __future__ import annotations

from PySide6.QtGui import QAccessible, QAccessibleActionInterface
from PySide6.QtWidgets import QAccessibleWidget, QComboBox


class _NamedChoice(QAccessibleWidget):
    """A drop-down list as a screen reader hears it: its name, and its choice as the value."""

    def __init__(self, box: QComboBox):
        super().__init__(box, QAccessible.Role.ComboBox)
        self.box = box

    def text(self, t):
        if t == QAccessible.Text.Name:
            return self.box.accessibleName() or self.box.currentText()
        if t == QAccessible.Text.Value:
            return self.box.currentText()
        return super().text(t)

    def actionNames(self):  # noqa: N802 - Qt override
        return [QAccessibleActionInterface.showMenuAction(), *super().actionNames()]

    def doAction(self, name: str) -> None:  # noqa: N802 - Qt override
        if name == QAccessibleActionInterface.showMenuAction():
            self.box.showPopup()
        else:
            super().doAction(name)


def _choice_factory(_key: str, obj):
    return _NamedChoice(obj) if isinstance(obj, QComboBox) and not obj.isEditable() else None


_choices_named = False


def name_choices() -> None:
    """Install :class:`_NamedChoice` for the drop-down lists asked about from now on (once)."""
    global _choices_named
    if not _choices_named:
        QAccessible.installFactory(_choice_factory)
        _choices_named = True
