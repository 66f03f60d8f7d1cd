"""Issue #29: the keyboard-shortcut list (Ctrl+F1) opens at its heading with nothing selected, and
its text and scroll bars have names a screen reader reads (was: the heading selected, the guide's
text and scroll bars unnamed)."""

from __future__ import annotations

from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QScrollBar


def test_the_shortcut_list_opens_at_its_heading_unselected_and_named(window, qtbot):
    dlg = window.show_shortcuts()
    qtbot.addWidget(dlg)
    qtbot.waitExposed(dlg)
    assert dlg.section_at_top() == "Keyboard shortcuts"
    assert not dlg.browser.textCursor().hasSelection()
    assert dlg.browser.textCursor().block().text() == "Keyboard shortcuts"
    for w in (dlg.browser, *dlg.findChildren(QScrollBar)):
        assert QAccessible.queryAccessibleInterface(w).text(QAccessible.Text.Name).strip(), w
    dlg.close()
