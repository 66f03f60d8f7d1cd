"""The client report in the GUI: :func:`advisor.render.to_html` (the one report renderer, also
behind ``capadvisor advise --format html``) plus the chart images. Written as a self-contained
HTML file (images inlined) or as a PDF through QTextDocument and QPdfWriter (no extra services)."""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QSizeF, QUrl
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPdfWriter, QTextDocument

from knowledge.infra.atomic import write_bytes_atomic, write_text_atomic

if TYPE_CHECKING:
    from advisor.engine import Advice

#: point size of the chart text in report images (900 px wide, a full text width of A4 in the PDF:
#: tick labels about 8 pt and legend text about 7 pt on paper)
REPORT_FONT_PT = 11.0


def chart_images(specs: dict, width: int = 900, height: int = 520, font_pt: float = REPORT_FONT_PT
                 ) -> dict[str, QImage]:
    """The charts of ``specs`` (key -> ChartSpec) drawn by the GUI's chart widget on white, as the
    report and the slide deck show them, at ``width`` x ``height`` pixels; an empty one is left out."""
    from ui import theme
    from ui.plots.charts import ChartWidget

    images = {}
    with theme.plot_palette("light"):
        for key, spec in specs.items():
            if spec.empty:
                continue
            w = ChartWidget()
            w.setStyleSheet("background: white; color: #1c2430;")
            font = w.font()
            font.setPointSizeF(font_pt)
            w.setFont(font)
            w.on_theme_changed()  # axes and legend take the font
            w.set_spec(spec)
            images[key] = w.to_image(width, height)
            w.deleteLater()
    return images


def image_png(image: QImage) -> bytes:
    """PNG bytes of a QImage."""
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, "PNG")
    buf.close()
    return bytes(data.data())


def report_html(title: str, advice: Advice | None, charts: dict[str, str],
                documents: dict[str, str] | None = None) -> str:
    """The report as HTML (:func:`advisor.render.to_html`); ``charts`` maps a chart key to an image
    URL (``chart:<key>`` or a data URI). Without advice yet, a page that says so."""
    if advice is None:
        return (f"<html><body><h1>{html.escape(title)}</h1><p>No recommendations yet (the scenario is invalid "
                "or the models are still loading).</p></body></html>")
    from advisor.render import to_html

    return to_html(advice, title=title, documents=documents, charts=charts)


def build_document(html_text: str, images: dict[str, QImage]) -> QTextDocument:
    """A QTextDocument of the report with the chart images as resources (``chart:<key>``)."""
    doc = QTextDocument()
    for key, image in images.items():
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(f"chart:{key}"), image)
    doc.setHtml(html_text)
    return doc


def write_html(path: Path, title: str, advice: Advice | None, images: dict[str, QImage],
               documents: dict[str, str] | None = None) -> Path:
    """A self-contained HTML report (images inlined as data URIs), written atomically."""
    urls = {k: "data:image/png;base64," + base64.b64encode(image_png(img)).decode("ascii")
            for k, img in images.items()}
    write_text_atomic(Path(path), report_html(title, advice, urls, documents))
    return Path(path)


#: the paper sizes of the PDF report (Report tab and preferences), by the name the settings store
PAPERS = {"a4": ("A4", QPageSize.PageSizeId.A4), "letter": ("US Letter", QPageSize.PageSizeId.Letter)}
#: page margins of the PDF, in millimetres
MARGIN_MM = 15.0


def default_paper() -> str:
    """The paper of the desktop's locale: US Letter where the locale measures in inches, else A4."""
    from PySide6.QtCore import QLocale

    imperial = QLocale.system().measurementSystem() == QLocale.MeasurementSystem.ImperialUSSystem
    return "letter" if imperial else "a4"


def fit_document(html_text: str, images: dict[str, QImage], width: float, height: float) -> QTextDocument:
    """The report laid out on pages ``width`` x ``height`` (device pixels) with every chart as wide
    as the text and never wider: a picture wider than the text area widens the layout and the
    printer cuts the page's right side (axes, legends and text lost). The width is found by laying
    the document out and narrowing the charts by what sticks out."""
    chart_width = int(width)
    for _ in range(4):
        sized = re.sub(r'(<img\b[^>]*?\bwidth=")\d+(")', rf"\g<1>{chart_width}\2", html_text)
        doc = build_document(sized, images)
        doc.setPageSize(QSizeF(width, height))
        excess = doc.documentLayout().documentSize().width() - width
        if excess <= 0 or not images:
            return doc
        chart_width -= int(excess) + 2
    return doc


def write_pdf(path: Path, title: str, advice: Advice | None, images: dict[str, QImage],
              documents: dict[str, str] | None = None, paper: str = "a4") -> Path:
    """A PDF of the report (QPdfWriter) on A4 or US Letter pages (``paper``, a key of
    :data:`PAPERS`), written to a temporary file and renamed."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    writer = QPdfWriter(str(tmp))
    writer.setTitle(title)
    writer.setCreator("Capacity Advisor")
    writer.setResolution(150)
    size = PAPERS.get(paper, PAPERS["a4"])[1]
    writer.setPageLayout(QPageLayout(QPageSize(size), QPageLayout.Orientation.Portrait,
                                     QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM),
                                     QPageLayout.Unit.Millimeter))
    html_text = report_html(title, advice, {k: f"chart:{k}" for k in images}, documents)
    rect = writer.pageLayout().paintRectPixels(writer.resolution())
    # charts across the whole text width, so that their labels and legends stay legible on paper
    doc = fit_document(html_text, images, rect.width(), rect.height())
    doc.print_(writer)
    del writer  # finishes the file
    data = tmp.read_bytes()
    tmp.unlink()
    write_bytes_atomic(path, data)
    return path
