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


def write_pdf(path: Path, title: str, advice: Advice | None, images: dict[str, QImage],
              documents: dict[str, str] | None = None) -> Path:
    """An A4 PDF of the report (QPdfWriter), written to a temporary file and renamed."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    writer = QPdfWriter(str(tmp))
    writer.setTitle(title)
    writer.setCreator("Capacity Advisor")
    writer.setResolution(150)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter))
    html_text = report_html(title, advice, {k: f"chart:{k}" for k in images}, documents)
    rect = writer.pageLayout().paintRectPixels(writer.resolution())
    # charts across the whole text width, so that their labels and legends stay legible on paper
    html_text = re.sub(r'(<img\b[^>]*?\bwidth=")\d+(")', rf"\g<1>{int(rect.width())}\2", html_text)
    doc = build_document(html_text, images)
    doc.setPageSize(QSizeF(rect.width(), rect.height()))
    doc.print_(writer)
    del writer  # finishes the file
    data = tmp.read_bytes()
    tmp.unlink()
    write_bytes_atomic(path, data)
    return path
