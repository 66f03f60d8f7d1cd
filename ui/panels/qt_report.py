"""Report: a live preview of the client report (scenario, recommendations, charts, citations) and
its export as PDF or self-contained HTML."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from knowledge.infra.errors import UserFacingError
from ui.workers import TaskSlot

REPORT_CHARTS = ("cache_mode", "boot_time", "cpu_utilization", "image_transfer", "realtime")


def report_charts(kb, scenario, advice, progress=None, cancel=None):
    """Worker: the chart data of the report."""
    from advisor.figures.charts import build_charts

    return build_charts(kb, scenario, advice, {}, REPORT_CHARTS, None, "", progress, cancel)


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
        bar = QHBoxLayout()
        bar.addWidget(self.info, 1)
        bar.addWidget(pdf)
        bar.addWidget(htm)
        lay = QVBoxLayout(self)
        lay.addLayout(bar)
        lay.addWidget(self.preview, 1)
        session.sig_advice.connect(lambda _a: self.refresh())
        self.refresh()

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
            self.task.start(report_charts, s.kb, s.document.scenario, s.advice)

    def on_charts(self, specs: dict) -> None:
        from ui import theme
        from ui.plots.charts import ChartWidget

        images = {}
        with theme.plot_palette("light"):
            for key, spec in specs.items():
                if spec.empty:
                    continue
                w = ChartWidget()
                w.setStyleSheet("background: white; color: #1c2430;")
                w.set_spec(spec)
                images[key] = w.to_image(900, 520)
                w.deleteLater()
        self.images = images
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
        writer = write_pdf if path.suffix.lower() == ".pdf" else write_html
        out = writer(path, self.title(), self.session.advice, self.images, self.documents())
        self.session.notifier.message(f"Report written to {out}")
        return out

    def export_dialog(self, kind: str = "pdf") -> None:
        from knowledge.infra.paths import safe_filename

        name = safe_filename(self.session.document.title, "report")  # a name like ../x stays in the folder
        start = Path(self.session.settings.last_dir or ".") / f"{name}.{kind}"
        flt = "PDF (*.pdf)" if kind == "pdf" else "HTML (*.html)"
        path, _ = QFileDialog.getSaveFileName(self, "Export report", str(start), flt)
        if path:
            try:
                self.export(Path(path))
            except UserFacingError as exc:
                self.session.notifier.failure("exporting the report", exc)
