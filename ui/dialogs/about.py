"""The About box: version, what the tool is, and the documents behind the knowledge base."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QTextBrowser, QVBoxLayout


def documents_html(kb) -> str:
    """An HTML list of the knowledge base's documents with their measurement counts."""
    if kb is None:
        from knowledge.store import KnowledgeBase

        with KnowledgeBase.open() as own:
            return documents_html(own)
    stats = kb.stats()
    items = []
    for d in kb.documents():
        n = stats["per_document"].get(d.id, 0)
        items.append(f"<li><b>{html.escape(d.title or d.short)}</b><br>"
                     f"<span>{html.escape(d.authors or '')}</span> · <code>{d.id}</code> · "
                     f"{html.escape(d.kind or '')} · {n} measurements</li>")
    return (f"<p>{stats['measurements']} measurements, {stats['testbeds']} testbeds and "
            f"{stats['conclusions']} conclusions from {len(items)} documents:</p><ul>{''.join(items)}</ul>")


class AboutDialog(QDialog):
    """About Capacity Advisor."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.setWindowTitle("About Capacity Advisor")
        self.resize(720, 560)
        from ui.theme import ICON

        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        icon = QLabel()
        if ICON.exists():
            icon.setPixmap(QPixmap(str(ICON)).scaled(72, 72, Qt.AspectRatioMode.KeepAspectRatio,
                                                     Qt.TransformationMode.SmoothTransformation))
        top.addWidget(icon)
        title = QLabel(f"<div style='font-size:18pt;font-weight:700'>Capacity Advisor {html.escape(session.store.version)}</div>"
                       "<div>How to build a virtualized cluster — hypervisor, KVM cache mode, vCPU "
                       "over-allocation, storage backend, real-time VM period and budget, host count — "
                       "with the measurements behind every recommendation. Works offline.</div>")
        title.setWordWrap(True)
        top.addWidget(title, 1)
        lay.addLayout(top)
        self.documents = QTextBrowser()
        self.documents.setOpenExternalLinks(False)
        self.documents.setHtml("<h3>The documents behind the knowledge base</h3>" + documents_html(session.kb))
        lay.addWidget(self.documents, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
