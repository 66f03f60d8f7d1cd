"""Issue #29: "CPU" is written in capitals in every text a user reads (was: "The bottleneck is cpu
load", "utilization of cpu load would be 66 %" on the host-count card and in the report)."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QAbstractItemView, QLabel, QTextBrowser, QWidget

from tests.ui.conftest import wait_idle

LOWER_CPU = re.compile(r"(?<![\w./`'\"-])cpu(?![\w./`'\"-])")
#: sysbench's own test names, quoted as the tool spells them
ALLOWED = ("(cpu, fileio",)


def _texts(root: QWidget):
    for w in root.findChildren(QWidget):
        if isinstance(w, QLabel | QAbstractButton):
            yield w.text()
        if isinstance(w, QTextBrowser):
            yield w.toPlainText()
        if isinstance(w, QAbstractItemView) and w.model() is not None:
            m = w.model()
            try:
                columns = m.columnCount()
            except TypeError:
                columns = 1  # a list model
            for r in range(min(m.rowCount(), 200)):
                for c in range(columns):
                    yield str(m.index(r, c).data() or "")
            for c in range(columns):
                yield str(m.headerData(c, Qt.Orientation.Horizontal) or "")


def _offending(text: str) -> list[str]:
    return [text[max(0, m.start() - 30):m.end() + 20] for m in LOWER_CPU.finditer(text)
            if not any(a in text[max(0, m.start() - 2):m.end() + 10] for a in ALLOWED)]


@pytest.mark.timeout(240)
def test_no_view_writes_cpu_in_lower_case(window, qtbot):
    bad = []
    for name in window.view_names():
        if name == "knowledge_base":
            continue  # the stored rows as they are (conditions like neighbour_load=cpu are data keys)
        panel = window.show_view(name)
        if hasattr(panel, "busy"):
            wait_idle(qtbot, panel, 60000)
        qtbot.wait(20)
        for text in _texts(panel):
            bad += [(name, t) for t in _offending(text)]
    card = " ".join(_texts(window.panel("recommendations")))
    assert "The bottleneck is" in card  # the host-count card's explanation was read
    assert not bad, bad[:10]


def test_the_report_writes_cpu_in_capitals(window):
    from advisor.render import to_markdown

    text = to_markdown(window.session.advice)
    assert "The bottleneck is CPU load" in text
    assert not _offending(text)
