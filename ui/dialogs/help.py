"""Help: the bundled user guide (Markdown) opened at the section of the current view, and the list
of keyboard shortcuts built from the window's own actions (so it cannot go stale)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QKeySequence, QTextCursor, QTextDocument
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout

GUIDE = Path(__file__).resolve().parents[2] / "resources" / "guide" / "user-guide.md"

#: keys that are not actions of the window: (keys, what they do)
FIXED_KEYS = (
    ("Tab / Shift+Tab", "Next / previous field; in a table the next cell, out of it after the last"),
    ("Enter, Esc", "Commit / cancel the edit of a table cell"),
    ("F2", "Edit the current table cell (the list of a Kind cell)"),
    ("Up / Down, Page Up / Page Down", "Step a number field by one step / ten steps"),
    ("Ctrl+V", "Paste spreadsheet rows into the real-time task table"),
    ("Ctrl + mouse wheel", "Zoom a chart (Reset view or a double-click shows all of it again)"),
    ("Esc", "Leave workshop mode"),
)


def shortcut_rows(window) -> list[tuple[str, str]]:
    """(keys, what) for every action of ``window`` that has a shortcut, then the fixed keys."""
    from ui.labels import strip_mnemonic

    rows = []
    seen = set()
    for act in window.actions():
        # the primary key only: the platform's extra bindings (Undo's F14, a keyboard's Undo key) are no help
        keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in act.shortcuts()[:1] if not k.isEmpty()]
        name = strip_mnemonic(act.text()).rstrip("…").strip()
        if keys and name and (name, tuple(keys)) not in seen:
            seen.add((name, tuple(keys)))
            rows.append((", ".join(keys), name))
    return rows + list(FIXED_KEYS)


def shortcuts_markdown(window) -> str:
    lines = ["## Keyboard shortcuts", "", "| Keys | What they do |", "|---|---|"]
    lines += [f"| {k} | {w.replace('|', '/')} |" for k, w in shortcut_rows(window)]
    return "\n".join(lines) + "\n"


class HelpDialog(QDialog):
    """The user guide with the shortcut list at its end; :meth:`show_section` scrolls to a heading."""

    def __init__(self, window):
        super().__init__(window)
        self.setWindowTitle("Capacity Advisor — user guide")
        self.setObjectName("helpDialog")
        screen = window.screen().availableGeometry() if window.screen() else None
        w, h = (760, 640) if screen is None else (min(760, screen.width() - 40), min(640, screen.height() - 60))
        self.resize(w, h)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(False)
        text = GUIDE.read_text(encoding="utf-8") if GUIDE.exists() else "# User guide\n\n(missing from this build)\n"
        self.browser.setMarkdown(text + "\n" + shortcuts_markdown(window))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.browser, 1)
        lay.addWidget(buttons)
        self.browser.setAccessibleName("User guide and keyboard shortcuts")
        from ui.accessible import name_all

        name_all(self)  # its scroll bars too: a screen reader hears a name for each control

    def show_section(self, heading: str) -> bool:
        """Scroll so that the section ``heading`` starts at the top; False if there is none."""
        doc = self.browser.document()
        cursor = QTextCursor(doc)
        while True:
            cursor = doc.find(heading, cursor, QTextDocument.FindFlag.FindCaseSensitively)
            if cursor.isNull():
                return False
            if cursor.block().blockFormat().headingLevel() > 0 and cursor.block().text().strip() == heading:
                break
        layout = doc.documentLayout()
        layout.blockBoundingRect(doc.lastBlock())  # lays the whole guide out (it is laid out lazily, and
        # the scroll range follows only later): the range then reaches the end however long the guide is
        bar = self.browser.verticalScrollBar()
        bar.setMaximum(max(bar.maximum(), int(doc.size().height()) - self.browser.viewport().height()))
        bar.setValue(bar.maximum())
        block_top = int(layout.blockBoundingRect(cursor.block()).top())
        bar.setValue(block_top)
        cursor.setPosition(cursor.block().position())  # the caret at the heading, nothing selected
        self.browser.setTextCursor(cursor)
        return True

    def section_at_top(self) -> str:
        """The heading of the section shown at the top (for tests and the status bar)."""
        cursor = self.browser.cursorForPosition(self.browser.viewport().rect().topLeft())
        block = cursor.block()
        while block.isValid() and block.blockFormat().headingLevel() == 0:
            block = block.previous()
        return block.text() if block.isValid() else ""
