"""Report: a live preview of the client report (scenario, recommendations, charts, citations) and
its export as PDF or self-contained HTML."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from advisor.figures import registry
from knowledge.infra.errors import UserFacingError
from ui.report import REPORT_FONT_PT  # noqa: F401 - read here by the tests of the report's charts
from ui.workers import TaskSlot

#: the report's charts (an empty one is left out)
REPORT_CHARTS = registry.keys(registry.REPORT)


def report_charts(kb, scenario, advice, userdb_path=None, site: str = "", progress=None, cancel=None):
    """Worker: the chart data of the report (the site chart with the calibration site's data)."""
    from advisor.figures.charts import build_charts

    return build_charts(kb, scenario, advice, {}, REPORT_CHARTS, userdb_path, site, progress, cancel)


class QtReportPanel(QWidget):
    """Preview and export."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.images: dict = {}
        self.task = TaskSlot("report charts", session.notifier, parent=self)
        self.task.sig_done.connect(self.on_charts)
        self.preview = QTextBrowser()
        self.preview.setOpenLinks(False)
        self.preview.setToolTip("This is what the exported report contains")
        pdf = QPushButton("Export PDF…")
        pdf.setObjectName("primary")
        pdf.clicked.connect(lambda: self.export_dialog("pdf"))
        htm = QPushButton("Export HTML…")
        htm.clicked.connect(lambda: self.export_dialog("html"))
        self.info = QLabel("A report to hand to a client: scenario, recommendations with their evidence, charts.")
        self.info.setObjectName("subtitle")
        self.info.setWordWrap(True)
        self.paper_box = self._paper_box()
        paper_label = QLabel("&Paper:")
        paper_label.setBuddy(self.paper_box)
        bar = QHBoxLayout()
        bar.addWidget(self.info, 1)
        bar.addWidget(paper_label)
        bar.addWidget(self.paper_box)
        bar.addWidget(pdf)
        bar.addWidget(htm)
        lay = QVBoxLayout(self)
        lay.addLayout(bar)
        lay.addWidget(self.preview, 1)
        session.sig_advice.connect(lambda _a: self.refresh())
        self.refresh()

    def _paper_box(self) -> QComboBox:
        from ui.report import PAPERS, default_paper

        box = QComboBox()
        for key, (label, _size) in PAPERS.items():
            box.addItem(label, key)
        box.setCurrentIndex(max(0, box.findData(getattr(self.session.settings, "paper", "") or default_paper())))
        box.setToolTip("Page size of the exported PDF (the pages are laid out for it; remembered)")
        box.setAccessibleName("Paper size of the PDF report")
        box.setAccessibleDescription("A4 or US Letter pages; the charts are fitted to the page width")
        box.currentIndexChanged.connect(lambda _i: setattr(self.session.settings, "paper", box.currentData()))
        return box

    @property
    def paper(self) -> str:
        """The paper of the PDF export (a key of :data:`ui.report.PAPERS`)."""
        return self.paper_box.currentData()

    @paper.setter
    def paper(self, key: str) -> None:
        self.paper_box.setCurrentIndex(max(0, self.paper_box.findData(key)))
        self.session.settings.paper = self.paper

    def busy(self) -> bool:
        return self.task.running

    def title(self) -> str:
        return f"Cluster design: {self.session.document.title}"

    def documents(self) -> dict[str, str]:
        kb = self.session.kb
        return {d.id: d.title or d.short for d in kb.documents()} if kb is not None else {}

    def refresh(self) -> None:
        s = self.session
        self.render_preview()
        if s.kb is not None and s.document.scenario is not None:
            from knowledge.infra.paths import user_db_path

            self.task.start(report_charts, s.kb, s.document.scenario, s.advice, user_db_path(), s.site)

    def on_charts(self, specs: dict) -> None:
        from ui.report import chart_images

        self.images = chart_images(specs)
        self.render_preview()

    def render_preview(self) -> None:
        from ui.report import build_document, report_html

        html_text = report_html(self.title(), self.session.advice, {k: f"chart:{k}" for k in self.images},
                                self.documents())
        doc = build_document(html_text, self.images)
        self.preview.setDocument(doc)
        self._doc = doc

    def export(self, path: Path) -> Path:
        """Write the report to ``path`` (PDF for .pdf, else HTML)."""
        from ui.report import write_html, write_pdf

        path = Path(path)
        if path.suffix.lower() == ".pdf":
            out = write_pdf(path, self.title(), self.session.advice, self.images, self.documents(), self.paper)
        else:
            out = write_html(path, self.title(), self.session.advice, self.images, self.documents())
        self.session.notifier.message(f"Report written to {out}")
        return out

    def export_dialog(self, kind: str = "pdf") -> None:
        """Ask where to export (PDF or HTML; the extension of the chosen format is added to a name
        typed without one), then export."""
        from ui.filedialogs import safe_file_name, start_dir, with_suffix

        filters = ["PDF document (*.pdf)", "HTML page (*.html *.htm)"]
        if kind != "pdf":
            filters.reverse()
        name = f"{safe_file_name(self.session.document.title)}.{kind}"
        dlg = QFileDialog(self, "Export report", start_dir(self.session.settings.last_dir))
        dlg.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dlg.setNameFilters(filters)
        dlg.setDefaultSuffix(kind)
        dlg.filterSelected.connect(lambda f: dlg.setDefaultSuffix("pdf" if "pdf" in f else "html"))
        dlg.selectFile(name)
        if dlg.exec() != QFileDialog.DialogCode.Accepted or not dlg.selectedFiles():
            return
        path = with_suffix(Path(dlg.selectedFiles()[0]), dlg.selectedNameFilter(), (".pdf", ".html", ".htm"), kind)
        try:
            self.export(path)
        except UserFacingError as exc:
            self.session.notifier.failure("exporting the report", exc)
            return
        self.session.settings.last_dir = str(path.parent)
        self.session.notifier.success("exporting the report")
