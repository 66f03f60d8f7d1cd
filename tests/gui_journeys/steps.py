"""Steps of the journeys built from real input: fill a field, type into a table cell, choose in a
combo box, scroll a form with the wheel until a widget is in view, answer a file dialog."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QFileDialog, QScrollArea, QWidget

from tests.gui_journeys.xinput import X, pump, wait_until


def scroll_area_of(widget: QWidget) -> QScrollArea | None:
    p = widget.parentWidget()
    while p is not None:
        if isinstance(p, QScrollArea) and p.widget() is not None and p.widget().isAncestorOf(widget):
            return p
        p = p.parentWidget()
    return None


def scroll_to(x: X, widget: QWidget) -> None:
    """Turn the mouse wheel over the form until ``widget`` is wholly in view (the wheel scrolls
    the form; it never changes the field under the pointer)."""
    area = scroll_area_of(widget)
    if area is None:
        return
    for _ in range(40):
        pump(30)
        top = widget.mapTo(area.viewport(), widget.rect().topLeft()).y()
        bottom = widget.mapTo(area.viewport(), widget.rect().bottomLeft()).y()
        if top >= 0 and bottom <= area.viewport().height():
            return
        x.wheel(area.viewport(), -2 if bottom > area.viewport().height() else 2)
    raise AssertionError(f"could not scroll {widget.objectName()} into view")


def fill(x: X, editor: QWidget, text: str) -> None:
    """Click into a field, select what it holds and type ``text``."""
    scroll_to(x, editor)
    x.click(editor)
    x.key("ctrl+a")
    x.type(text)


def cell(x: X, table, row: int, col: int, text: str, end: str = "Return") -> None:
    """Click cell (row, col) of a scenario table, type ``text``, press ``end``."""
    view = table.table
    scroll_to(x, view)
    index = view.model().index(row, col)
    x.click(view.viewport(), view.visualRect(index).center())
    x.type(text)
    if end:
        x.key(end)


def choose(x: X, combo, text: str) -> None:
    """Open a combo box with the mouse and pick the entry ``text`` from its list."""
    scroll_to(x, combo)
    x.click(combo)
    wait_until(lambda: combo.view().isVisible(), 5, "the combo box list")
    index = combo.findText(text)
    assert index >= 0, f"{text!r} not in the combo box"
    view = combo.view()
    rect = view.visualRect(view.model().index(index, 0))
    x.click(view.viewport(), rect.center())
    wait_until(lambda: combo.currentText() == text, 5, f"{text!r} chosen")


def answer_file_dialog(x: X, path: Path, trigger, window: QWidget | None = None) -> None:
    """Run ``trigger`` (a key or a click that opens a file dialog) and type ``path`` into the
    dialog's file name field, then Enter. The keyboard focus then returns to ``window`` (what a
    window manager does when a dialog closes)."""
    done = []

    def fill_dialog(dialog) -> None:
        assert isinstance(dialog, QFileDialog), type(dialog)
        x.focus(dialog)
        x.key("ctrl+a")
        x.type(str(path))
        x.key("Return")
        done.append(True)

    x.on_modal(fill_dialog, kind=QFileDialog)
    trigger()
    wait_until(lambda: bool(done) and QApplication.activeModalWidget() is None, 30, "the file dialog")
    pump(200)
    if window is not None:
        x.focus(window)


def pick_files(x: X, folder: Path, names) -> None:
    """Answer the next file dialog (opened after this call) with several files of ``folder``: the
    folder typed, Enter, then the names quoted, Enter."""
    quoted = " ".join(f'"{n}"' for n in names)

    def answer(dialog) -> None:
        x.focus(dialog)
        x.key("ctrl+a")
        x.type(str(folder))
        x.key("Return")  # into the folder
        pump(400)
        x.type(quoted)
        x.key("Return")

    x.on_modal(answer, kind=QFileDialog)
