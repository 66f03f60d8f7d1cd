"""The slide deck from the command line: a Qt application without a window (offscreen unless
``QT_QPA_PLATFORM`` says otherwise) so that the GUI's chart code draws the deck's charts."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def qt_app():
    """The running QApplication, or a new one on the offscreen platform (no window, no display needed)."""
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        app = QApplication(sys.argv[:1])
    return app


def write_slides(path: Path, advice, data: dict, kb_path: Path | None = None, catalogue=None) -> Path:
    """Write the deck of ``advice`` (``data``: its JSON) with its charts to ``path``; with a cost
    ``catalogue`` the deck shows the design search's Pareto front too."""
    from knowledge.store import KnowledgeBase

    qt_app()
    from ui.deliverables import deck_chart_specs, export_slides

    with KnowledgeBase.open(kb_path) as kb:
        specs = deck_chart_specs(kb, advice, data, catalogue)
    return export_slides(path, data, specs)
