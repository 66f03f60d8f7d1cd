"""The client report: the scenario, the recommendations with expected figures and citations, and
the charts, as one HTML text; written as a self-contained HTML file (images inlined) or as a PDF
through QTextDocument and QPdfWriter (no extra services)."""

from __future__ import annotations

import base64
import datetime as _dt
import html
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QSizeF, QUrl
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPdfWriter, QTextDocument

from knowledge.infra.atomic import write_bytes_atomic, write_text_atomic
from ui.panels.qt_compare import summarize_inputs
from ui.panels.qt_recommendations import basis_text, choice_text, decision_title, figure_text

if TYPE_CHECKING:
    from advisor.engine import Advice

CSS = """
body { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 10pt; color: #1c2430; }
h1 { font-size: 20pt; color: #1f6feb; margin-bottom: 2px; }
h2 { font-size: 14pt; color: #1f6feb; border-bottom: 1px solid #d5dae1; margin-top: 18px; }
h3 { font-size: 11pt; margin-bottom: 2px; }
table.inputs td { padding: 2px 10px 2px 0; }
td.k { color: #5b6675; }
p.choice { font-size: 13pt; font-weight: bold; margin: 2px 0; }
p.warn { color: #b35900; font-weight: bold; }
p.meta, p.cite { color: #5b6675; font-size: 9pt; }
table.alts { border-collapse: collapse; font-size: 9pt; }
table.alts td, table.alts th { border: 1px solid #d5dae1; padding: 2px 6px; }
"""


def image_png(image: QImage) -> bytes:
    """PNG bytes of a QImage."""
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, "PNG")
    buf.close()
    return bytes(data.data())


def report_html(title: str, scenario_data: dict, advice: Advice | None, charts: dict[str, str],
                documents: dict[str, str] | None = None) -> str:
    """The report as HTML; ``charts`` maps a chart key to an image URL (``chart:<key>`` or data URI)."""
    e = html.escape
    parts = [f"<html><head><meta charset='utf-8'><title>{e(title)}</title><style>{CSS}</style></head><body>",
             f"<h1>{e(title)}</h1>",
             f"<p class='meta'>Capacity Advisor report, {_dt.date.today().isoformat()}. Every figure comes with the "
             "knowledge-base rows it rests on (document and table, section or figure).</p>",
             "<h2>Scenario</h2><table class='inputs'>"]
    for k, v in summarize_inputs(scenario_data).items():
        parts.append(f"<tr><td class='k'>{e(k)}</td><td>{e(v)}</td></tr>")
    parts.append("</table><h3>Workload groups</h3><ul>")
    for w in scenario_data.get("workloads", []):
        io = w.get("io", {})
        rt = " · real-time task set" if w.get("realtime") else ""
        parts.append(f"<li><b>{e(str(w.get('name')))}</b>: {w.get('vms', 1)} VMs x {w.get('vcpus', 1)} vCPUs, "
                     f"{w.get('ram_gib', 1)} GiB; CPU {e(str(w.get('cpu_intensity', 'medium')))}; I/O "
                     f"{e(str(io.get('pattern', 'mixed')))} {e(str(io.get('intensity', 'low')))}{rt}</li>")
    parts.append("</ul>")
    recs = advice.recommendations if advice is not None else []
    parts.append("<h2>Recommendations</h2>")
    if not recs:
        parts.append("<p>No recommendations yet (the scenario is invalid or the models are still loading).</p>")
    cited: list[dict] = []
    for r in recs:
        scope = r.scope.replace("workload:", "workload ")
        parts.append(f"<h3>{e(decision_title(r.decision))} — {e(scope)}</h3>"
                     f"<p class='choice'>{e(choice_text(r))}</p>")
        figs = [figure_text(k, v) for k, v in r.expected.items()]
        if figs:
            parts.append("<p>" + "<br>".join(figs) + "</p>")
            parts.append(f"<p class='meta'>{basis_text(r.expected)}</p>")  # escaped: what the figures rest on
        conf = f"Confidence: {r.confidence_label} ({r.confidence:.0%})"
        parts.append(f"<p class='meta'>{e(conf)}</p>")
        if r.extrapolated:
            parts.append("<p class='warn'>Extrapolated: the scenario lies outside what the documents measured.</p>")
        if r.rationale:
            parts.append(f"<p>{e(r.rationale)}</p>")
        alts = r.alternatives
        if alts:
            parts.append("<table class='alts'><tr><th>Alternative</th><th>Score</th><th>Why not</th></tr>")
            for a in alts[:5]:
                parts.append(f"<tr><td>{e(a.choice)}</td><td>{round(a.score, 3)}</td>"
                             f"<td>{e(a.why_not)}</td></tr>")
            parts.append("</table>")
        places = sorted({(c.get("document", "")[:3], c.get("locator", "")) for c in r.citations})
        if places:
            parts.append("<p class='cite'>Sources: " + e("; ".join(f"{d} {loc}" for d, loc in places)) + "</p>")
        cited += r.citations
    if charts:
        parts.append("<h2>Charts</h2>")
        for url in charts.values():
            parts.append(f"<p><img src='{url}' width='640'></p>")
    parts.append("<h2>Citations</h2><ul>")
    docs = documents or {}
    by_doc: dict[str, set[str]] = {}
    for c in cited:
        by_doc.setdefault(c.get("document", ""), set()).add(c.get("locator", ""))
    for doc, locs in sorted(by_doc.items()):
        parts.append(f"<li><b>{e(docs.get(doc, doc))}</b> ({e(doc)}): {e(', '.join(sorted(locs)))}</li>")
    parts.append("</ul></body></html>")
    return "".join(parts)


def build_document(html_text: str, images: dict[str, QImage]) -> QTextDocument:
    """A QTextDocument of the report with the chart images as resources (``chart:<key>``)."""
    doc = QTextDocument()
    for key, image in images.items():
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(f"chart:{key}"), image)
    doc.setHtml(html_text)
    return doc


def write_html(path: Path, title: str, scenario_data: dict, advice: Advice | None, images: dict[str, QImage],
               documents: dict[str, str] | None = None) -> Path:
    """A self-contained HTML report (images inlined as data URIs), written atomically."""
    urls = {k: "data:image/png;base64," + base64.b64encode(image_png(img)).decode("ascii")
            for k, img in images.items()}
    write_text_atomic(Path(path), report_html(title, scenario_data, advice, urls, documents))
    return Path(path)


def write_pdf(path: Path, title: str, scenario_data: dict, advice: Advice | None, images: dict[str, QImage],
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
    html_text = report_html(title, scenario_data, advice, {k: f"chart:{k}" for k in images}, documents)
    doc = build_document(html_text, images)
    rect = writer.pageLayout().paintRectPixels(writer.resolution())
    doc.setPageSize(QSizeF(rect.width(), rect.height()))
    doc.print_(writer)
    del writer  # finishes the file
    data = tmp.read_bytes()
    tmp.unlink()
    write_bytes_atomic(path, data)
    return path
