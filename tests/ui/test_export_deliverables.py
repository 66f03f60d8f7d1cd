"""File ▸ Export workbook… and Export slides… on the real window: the menu action asks for a file,
the work runs in the worker (the deck's charts are drawn on the GUI thread) and the file holds the
session's advice."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog


def _menu_action(window, text: str):
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    return next(a for a in menu.actions() if a.text() == text)


@pytest.mark.timeout(180)
@pytest.mark.parametrize("text, kind", [("Export &workbook…", "xlsx"), ("Export s&lides…", "pptx")])
def test_export_from_the_file_menu_writes_the_file(window, qtbot, tmp_path, monkeypatch, text, kind):
    target = tmp_path / "design"  # typed without an extension: the format's is added
    asked = []

    def get_save_file_name(*args, **kwargs):
        asked.append(args)
        return str(target), args[3] if len(args) > 3 else ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(get_save_file_name))
    done, failed = [], []
    exporter = window.deliverables()
    exporter.sig_written.connect(done.append)
    exporter.task.sig_failed.connect(failed.append)
    _menu_action(window, text).trigger()
    qtbot.waitUntil(lambda: bool(done or failed), timeout=120000)
    assert asked, "no file dialog was asked"
    assert not failed, failed[0]
    written = done[0]
    assert written == tmp_path / f"design.{kind}" and written.exists()
    advice = window.session.advice
    if kind == "xlsx":
        import openpyxl

        book = openpyxl.load_workbook(written)
        rows = list(book["Decisions"].iter_rows(min_row=2, values_only=True))
        assert len(rows) == sum(max(1, len(r.expected)) for r in advice.recommendations)
    else:
        from pptx import Presentation

        deck = Presentation(str(written))
        assert deck.slides[0].shapes.title.text == f"Cluster design: {advice.scenario.name}"
        pictures = [s for slide in deck.slides for s in slide.shapes if s.shape_type == 13]
        assert pictures, "the deck has no chart"


@pytest.mark.timeout(180)
def test_the_slides_carry_the_workshops_what_if(window, qtbot, tmp_path, monkeypatch):
    from pptx import Presentation

    from ui.whatif_state import state_for

    state = state_for(window.session)
    state.reset()
    with qtbot.waitSignal(state.sig_advice, timeout=120000, check_params_cb=lambda a: a is not None
                          and a is not window.session.advice):
        state.set("vms", state.inputs["vms"] * 3)
    target = tmp_path / "workshop.pptx"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), "")))
    done, failed = [], []
    exporter = window.deliverables()
    exporter.sig_written.connect(done.append)
    exporter.task.sig_failed.connect(failed.append)
    window.export_slides()
    qtbot.waitUntil(lambda: bool(done or failed), timeout=120000)
    assert not failed, failed[0]
    titles = [s.shapes.title.text for s in Presentation(str(target)).slides if s.shapes.title is not None]
    assert "What-if in the workshop" in titles
