"""The advice as a 16:9 slide deck (``capadvisor advise --format pptx``, GUI File > Export > Slides).

Built from the advice JSON (``Advice.to_dict(expand=True)``), the one source of every number on the
slides (formatted as the cards format them: :func:`advisor.text.fmt_value`, :func:`advisor.cost.money`),
with the charts as PNG images the caller renders (the GUI's own chart code; this module stays
Qt-free). Slides: title; the design at a glance; one per headline decision (its choice in the app's
words, the figure that decided it, its chart); the cost when the design is priced and, when the caller
ran the design search, its Pareto front; assumptions, warnings and document notes. Texts name decisions by their catalogue titles and workloads by their names, never by
the engine's identifiers.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from pathlib import Path

from pptx import Presentation
from pptx.util import Emu, Inches, Pt

from advisor.cost import money
from advisor.deliverables.workbook import document_notes, headline_recs, scope_text
from advisor.figures.prose import figure_text, fmt_value, prose
from advisor.figures.registry import of_decision
from advisor.recommend import catalog
from advisor.text import clean_text

WIDTH, HEIGHT = Emu(12192000), Emu(6858000)  # 13.333 x 7.5 inches: 16:9
MARGIN = Inches(0.5)
#: the chart images' size on a slide (the caller renders them at :data:`CHART_PIXELS`)
CHART_BOX = (Inches(7.4), Inches(4.26))
CHART_PIXELS = (1040, 598)
#: the key of the optional image of the design search's Pareto front (the caller runs the search)
PARETO = "pareto"
PARETO_BOX = (Inches(10.0), Inches(5.75))  # the aspect of CHART_PIXELS
#: the most rows a table or a list shows on one slide; the rest is counted ("… and 4 more")
MAX_ROWS = 11
TITLE_LAYOUT, BLANK_LAYOUT = 0, 5  # the default template's "Title Slide" and "Title Only"


def chart_keys(data: dict) -> dict[str, str]:
    """decision -> the chart its slide shows (the first chart that shows the decision's card), for
    the headline decisions ``data`` has."""
    out = {}
    for name in catalog.headline():
        keys = of_decision(name)
        if keys and any(r.get("decision") == name for r in data.get("recommendations", [])):
            out[name] = keys[0]
    return out


def slides_bytes(data: dict, images: Mapping[str, bytes] | None = None, whatif: dict | None = None) -> bytes:
    """The deck of the advice JSON ``data`` as .pptx bytes; ``images`` maps a chart key to its PNG;
    ``whatif`` (``{"moved": text, "advice": the what-if advice's JSON}``, from the workshop) adds a
    slide comparing the headline choices."""
    images = dict(images or {})
    prs = Presentation()
    prs.slide_width, prs.slide_height = WIDTH, HEIGHT
    _title_slide(prs, data)
    _glance_slide(prs, data)
    charts = chart_keys(data)
    for name in catalog.headline():
        recs = [r for r in data.get("recommendations", []) if r.get("decision") == name]
        if recs:
            _decision_slide(prs, name, recs, images.get(charts.get(name, "")))
    if (data.get("cost") or {}).get("lines"):
        _cost_slide(prs, data["cost"])
    if data.get("timeline"):
        _growth_slide(prs, data)
    if images.get(PARETO):
        _pareto_slide(prs, images[PARETO])
    if whatif and whatif.get("advice"):
        _whatif_slide(prs, data, whatif)
    _assumption_slides(prs, data)
    out = io.BytesIO()
    prs.save(out)
    return out.getvalue()


def write_slides(path: Path, data: dict, images: Mapping[str, bytes] | None = None,
                 whatif: dict | None = None) -> None:
    """Write the deck atomically (built in memory, then renamed into place)."""
    from knowledge.infra.atomic import write_bytes_atomic

    write_bytes_atomic(Path(path), slides_bytes(data, images, whatif))


def _slide(prs, title: str):
    slide = prs.slides.add_slide(prs.slide_layouts[BLANK_LAYOUT])
    shape = slide.shapes.title
    shape.left, shape.top, shape.width, shape.height = MARGIN, Inches(0.3), WIDTH - 2 * MARGIN, Inches(0.9)
    shape.text_frame.text = clean_text(title)
    shape.text_frame.paragraphs[0].font.size = Pt(30)
    return slide


def _text(slide, left, top, width, height, lines: Sequence[str], size: int = 16, bold_first: bool = False):
    """A text box of ``lines`` (one paragraph each), words wrapped."""
    box = slide.shapes.add_textbox(left, top, width, height)
    frame = box.text_frame
    frame.word_wrap = True
    for i, line in enumerate(lines):
        para = frame.paragraphs[0] if i == 0 else frame.add_paragraph()
        para.text = clean_text(line)
        para.font.size = Pt(size)
        para.font.bold = bold_first and i == 0
        para.space_after = Pt(6)
    return box


def _table(slide, top, header: Sequence[str], rows: Sequence[Sequence[str]], widths: Sequence[float],
           size: int = 13):
    """A table under ``top``: a header row and ``rows`` (texts), column widths in inches."""
    shape = slide.shapes.add_table(len(rows) + 1, len(header), MARGIN, top, Inches(sum(widths)),
                                   Inches(0.4 * (len(rows) + 1)))
    table = shape.table
    for col, w in enumerate(widths):
        table.columns[col].width = Inches(w)
    for r, values in enumerate([header, *rows]):
        for col, value in enumerate(values):
            cell = table.cell(r, col)
            cell.text = clean_text(value)
            for para in cell.text_frame.paragraphs:
                para.font.size = Pt(size)
    return table


def _capped(items: Sequence, what: str, most: int = MAX_ROWS) -> tuple[list, str]:
    """At most ``most`` of ``items`` and a line counting the rest ('' when none is left out)."""
    rest = len(items) - most
    return list(items[:most]), (f"… and {rest} more {what} (see the workbook)" if rest > 0 else "")


def _title_slide(prs, data: dict) -> None:
    slide = prs.slides.add_slide(prs.slide_layouts[TITLE_LAYOUT])
    title, sub = slide.shapes.title, slide.placeholders[1]
    title.left, title.top, title.width, title.height = MARGIN, Inches(2.0), WIDTH - 2 * MARGIN, Inches(1.6)
    sub.left, sub.top, sub.width, sub.height = MARGIN, Inches(3.8), WIDTH - 2 * MARGIN, Inches(1.6)
    title.text = clean_text(f"Cluster design: {data.get('scenario', '')}")
    sub.text = clean_text(f"Capacity Advisor · knowledge base {data.get('knowledge_base', '')}\n"
                          f"Figures from {data.get('basis', '')}")


def glance_rows(data: dict) -> list[tuple[str, str, str]]:
    """(decision, scope, choice as the cards show it) of every headline recommendation."""
    return [(catalog.title(r.get("decision", "")), scope_text(r.get("scope", "")), choice_text(r))
            for r in headline_recs(data)]


def choice_text(rec: dict) -> str:
    """The choice of recommendation ``rec`` as its card shows it."""
    return catalog.choice_text(rec.get("decision", ""), str(rec.get("choice", "")), rec.get("value"))


def cost_line(cost: dict) -> str:
    """``150,384 EUR over 5 years (capex 80,178, opex 14,041 per year)`` from the JSON's cost."""
    cur = cost.get("currency", "")
    return (f"{money(cost.get('total', 0.0), cur)} over {fmt_value(cost.get('years'))} years "
            f"(capex {money(cost.get('capex', 0.0))}, opex {money(cost.get('opex_per_year', 0.0))} per year)")


def _glance_slide(prs, data: dict) -> None:
    slide = _slide(prs, "The design at a glance")
    rows, more = _capped(glance_rows(data), "decisions")
    _table(slide, Inches(1.3), ("Decision", "For", "Choice"), rows, (4.2, 2.6, 5.5))
    foot = [more] if more else []
    if (data.get("cost") or {}).get("lines"):
        foot.append("Cost: " + cost_line(data["cost"]))
    if foot:
        _text(slide, MARGIN, HEIGHT - Inches(1.1), WIDTH - 2 * MARGIN, Inches(0.8), foot, size=14)


def deciding_figure(rec: dict) -> str:
    """The figure that decided ``rec`` as the card shows it (its first expected figure), or ''."""
    figures = rec.get("expected") or {}
    if not figures:
        return ""
    key, fig = next(iter(figures.items()))
    return figure_text(key, fig)


def decision_lines(name: str, recs: Sequence[dict]) -> list[str]:
    """The left column of a decision slide: the choice for each scope, the deciding figure, the
    basis and the confidence."""
    lines = []
    shown, more = _capped(recs, "scopes")
    for rec in shown:
        lines.append(f"{scope_text(rec.get('scope', ''))}: {choice_text(rec)}")
    if more:
        lines.append(more)
    first = recs[0]
    figure = deciding_figure(first)
    if figure:
        lines.append(f"Decided by ({scope_text(first.get('scope', ''))}): {figure}")
    lines.append(f"Basis: {first.get('basis', '')}")
    if isinstance(first.get("confidence"), int | float):
        lines.append(f"Confidence: {first.get('confidence_label', '')} ({fmt_value(first['confidence'])})")
    return lines


def _decision_slide(prs, name: str, recs: Sequence[dict], image: bytes | None) -> None:
    slide = _slide(prs, catalog.title(name))
    text_width = WIDTH - 2 * MARGIN if image is None else WIDTH - 3 * MARGIN - CHART_BOX[0]
    _text(slide, MARGIN, Inches(1.3), text_width, HEIGHT - Inches(1.8), decision_lines(name, recs), size=16)
    if image is not None:
        left = WIDTH - MARGIN - CHART_BOX[0]
        slide.shapes.add_picture(io.BytesIO(image), left, Inches(1.5), CHART_BOX[0], CHART_BOX[1])


def _cost_slide(prs, cost: dict) -> None:
    cur = cost.get("currency", "")
    slide = _slide(prs, f"Cost over {fmt_value(cost.get('years'))} years")
    lines, more = _capped(cost.get("lines", []), "lines")
    rows = [(ln.get("name", ""), f"{fmt_value(ln.get('quantity'))} {ln.get('unit', '')}",
             money(ln.get("capex", 0.0), cur), money(ln.get("opex_per_year", 0.0), cur)) for ln in lines]
    _table(slide, Inches(1.3), ("Item", "Quantity", "Up front", "Per year"), rows, (5.0, 2.8, 2.2, 2.3))
    foot = ([more] if more else []) + [f"Total: {cost_line(cost)}", f"Prices: {cost.get('catalogue', '')}"]
    if not cost.get("complete", True):
        foot.append("Incomplete: the catalogue does not price every part (see the workbook)")
    _text(slide, MARGIN, HEIGHT - Inches(1.5), WIDTH - 2 * MARGIN, Inches(1.2), foot, size=14)


def _growth_slide(prs, data: dict) -> None:
    """The growth timeline: hosts needed, bought and VMs each year, and when the planned hosts run
    out (#31 review 3 finding 14)."""
    from advisor.deliverables.workbook import runs_out_text

    slide = _slide(prs, "Growth over the years")
    years, more = _capped([e for e in data["timeline"] if isinstance(e, dict)], "years")
    rows = [(str(e.get("year", "")), f"{e.get('hosts', '')} ({e.get('active_hosts', '')} active)",
             f"+{e.get('buy', 0)}" if e.get("buy") else "", f"{e.get('vms', 0):,}",
             str(e.get("binding", "")).replace("_", " "), "yes" if e.get("planned_hosts_fit") else "no")
            for e in years]
    _table(slide, Inches(1.3), ("Year", "Hosts needed", "Buy", "VMs", "Binding", "Planned hosts hold it"), rows,
           (1.2, 2.6, 1.2, 1.6, 2.8, 2.9))
    foot = ([more] if more else []) + [runs_out_text(data)]
    _text(slide, MARGIN, HEIGHT - Inches(1.5), WIDTH - 2 * MARGIN, Inches(1.2), foot, size=14)


def _pareto_slide(prs, image: bytes) -> None:
    """The design search's chart: every design that meets the targets, cost against the figure."""
    slide = _slide(prs, "Cost against the other designs (Pareto front)")
    left = (WIDTH - PARETO_BOX[0]) // 2
    slide.shapes.add_picture(io.BytesIO(image), left, Inches(1.3), PARETO_BOX[0], PARETO_BOX[1])


def whatif_rows(data: dict, other: dict) -> list[tuple[str, str, str, str]]:
    """(decision, scope, advised choice, the what-if's choice) of each headline recommendation of
    either advice, matched by decision and scope."""
    ours = {(r.get("decision"), r.get("scope")): r for r in headline_recs(data)}
    theirs = {(r.get("decision"), r.get("scope")): r for r in headline_recs(other)}
    rows = []
    for key in dict.fromkeys([*ours, *theirs]):
        a, b = ours.get(key), theirs.get(key)
        rows.append((catalog.title(str(key[0])), scope_text(str(key[1])), choice_text(a) if a else "—",
                     choice_text(b) if b else "—"))
    return rows


def _whatif_slide(prs, data: dict, whatif: dict) -> None:
    slide = _slide(prs, "What-if in the workshop")
    _text(slide, MARGIN, Inches(1.2), WIDTH - 2 * MARGIN, Inches(0.6), [f"Moved: {whatif.get('moved', '')}"],
          size=15)
    rows, more = _capped(whatif_rows(data, whatif["advice"]), "decisions", MAX_ROWS - 1)
    _table(slide, Inches(1.9), ("Decision", "For", "Advised", "With the what-if"), rows, (3.6, 2.0, 3.3, 3.4))
    if more:
        _text(slide, MARGIN, HEIGHT - Inches(0.8), WIDTH - 2 * MARGIN, Inches(0.5), [more], size=13)


def _assumption_slides(prs, data: dict) -> None:
    hc: dict = next((r for r in data.get("recommendations", [])
               if r.get("decision") == "host_count" and r.get("scope") == "cluster"), {})
    groups = (("Assumptions", [prose(a) for a in (hc.get("details") or {}).get("assumptions", [])], "assumptions"),
              ("Warnings", [prose(w) for w in data.get("warnings", [])], "warnings"),
              ("Notes on the documents", [f"{n.get('document', '')} {n.get('locator', '')}: {n.get('text', '')}"
                                          for n in document_notes(data)], "notes"))
    for title, items, what in groups:
        if not items:
            continue
        shown, more = _capped(items, what, MAX_ROWS if what != "notes" else 6)
        slide = _slide(prs, title)
        _text(slide, MARGIN, Inches(1.3), WIDTH - 2 * MARGIN, HEIGHT - Inches(1.6),
              [f"• {t}" for t in shown] + ([more] if more else []), size=13)


def slide_texts(raw: bytes) -> list[list[str]]:
    """Every text of every slide of a deck (text frames and table cells), for tests and checks."""
    prs = Presentation(io.BytesIO(raw))
    out = []
    for slide in prs.slides:
        texts: list[str] = []
        for shape in slide.shapes:
            if shape.has_text_frame:
                texts.extend(p.text for p in shape.text_frame.paragraphs)
            if getattr(shape, "has_table", False) and shape.has_table:
                texts.extend(c.text for row in shape.table.rows for c in row.cells)
        out.append(texts)
    return out


