"""The window's own shortcuts win over a text field's editing keys.

On X11 Qt gives a text field Emacs-style keys: Ctrl+E is "end of line" in every line edit and
spin box, so File > Export report (Ctrl+E) did nothing while a field had the focus, which on the
Scenario and Real-time tabs is most of the time. :class:`WindowKeysFirst` watches the focus; a
text field that gets it is told to leave the window's shortcuts to the window (its ShortcutOverride
is answered "no"), except the editing keys a user expects of a field (undo, copy, paste, ...), which
stay the field's. The field keeps End, Home and the rest of its keys."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QWidget

_K = QKeySequence.StandardKey
#: a field's own editing keys: they stay the field's even where a window action has the same key
_FIELD_KEYS = (_K.Undo, _K.Redo, _K.Copy, _K.Cut, _K.Paste, _K.SelectAll, _K.Delete)


class WindowKeysFirst(QObject):
    """Install once per window: ``WindowKeysFirst(window)``."""

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.window = window
        QApplication.instance().focusChanged.connect(self._focus_changed)

    def _window_keys(self) -> set[int]:
        field_keys = {k.toCombined() for std in _FIELD_KEYS for seq in QKeySequence.keyBindings(std)
                      for k in (seq[0],) if seq.count() == 1}
        keys = {seq[0].toCombined() for act in self.window.actions() for seq in act.shortcuts()
                if seq.count() == 1 and act.isEnabled()}
        return keys - field_keys

    def _focus_changed(self, _old, new) -> None:
        if (_is_text_field(new) and not new.property("_window_keys_first")
                and new.window() is self.window):
            new.setProperty("_window_keys_first", True)
            new.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and event.keyCombination().toCombined() in self._window_keys():
            event.ignore()
            return True  # the field does not claim it: the window's shortcut runs
        return False


def _is_text_field(widget) -> bool:
    """A line edit, spin box or text editor: the fields with editing keys of their own. Asked of Qt's
    meta-object by class name: importing the other classes into Python would build them and their
    enums before the first paint (issue #30: the first focus of the window is its tab bar)."""
    return widget is not None and any(widget.inherits(name) for name in _FIELD_CLASSES)


_FIELD_CLASSES = ("QLineEdit", "QAbstractSpinBox", "QTextEdit", "QPlainTextEdit")
