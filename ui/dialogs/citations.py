"""The knowledge-base rows behind citations: every measurement at the cited document and locator,
the cited ones highlighted, and the text of any cited conclusion."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHeaderView, QLabel, QTableView, QVBoxLayout

from ui.tablemodels import FilterProxy, MeasurementTableModel


def rows_for(kb, citations: list[dict]):
    """(measurement rows, cited (document, id) pairs, cited conclusions) for ``citations``."""
    rows, seen, cited, conclusions = [], set(), set(), []
    concl = {(c.document, c.id): c for c in kb.conclusions()}
    for c in citations:
        doc, loc, key = c.get("document", ""), c.get("locator", ""), c.get("id", "")
        try:
            doc = kb.resolve_document(doc)
        except Exception:  # noqa: BLE001 - an unknown document shows nothing rather than failing
            continue
        cited.add((doc, key))
        if (doc, key) in concl and concl[(doc, key)] not in conclusions:
            conclusions.append(concl[(doc, key)])
        for r in kb.measurements(document=doc, locator=loc) if loc else []:
            if (r.document, r.key) not in seen:
                seen.add((r.document, r.key))
                rows.append(r)
    return rows, cited, conclusions


class CitationDialog(QDialog):
    """Shows the rows behind a recommendation's citations."""

    def __init__(self, kb, citations: list[dict], title: str = "Evidence", parent=None):
        super().__init__(parent)
        self.setWindowTitle(f"{title} — knowledge-base rows")
        self.resize(1000, 520)
        rows, cited, conclusions = rows_for(kb, citations)
        lay = QVBoxLayout(self)
        docs = {d.id: d for d in kb.documents()}
        head = QLabel("<br>".join(
            f"<b>{c.document[:3]} {c.locator}</b> ({c.id}): if {c.condition}, then {c.recommendation}"
            for c in conclusions) or f"{len(rows)} measurement(s) at the cited places; cited rows in bold.")
        head.setWordWrap(True)
        lay.addWidget(head)
        sources = sorted({r.document for r in rows} | {d for d, _ in cited if d in docs})
        src = QLabel("Sources: " + "; ".join(f"{d[:3]} — {docs[d].title or docs[d].short}"
                                             for d in sources if d in docs))
        src.setWordWrap(True)
        src.setObjectName("hint")
        lay.addWidget(src)
        self.model = MeasurementTableModel()
        self.model.set_rows(rows, cited)
        proxy = FilterProxy(self)
        proxy.setSourceModel(self.model)
        view = QTableView()
        view.setModel(proxy)
        view.setSortingEnabled(True)
        view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # documents' order until asked
        view.setAlternatingRowColors(True)
        view.verticalHeader().hide()
        view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        view.horizontalHeader().setStretchLastSection(True)
        lay.addWidget(view, 1)
        self.view = view
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
