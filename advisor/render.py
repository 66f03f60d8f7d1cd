"""Markdown and HTML renderings of an :class:`~advisor.engine.Advice` (reports to hand over).

The HTML is one self-contained file: inline CSS, no scripts, fonts, images or links to
external assets. Every value is escaped.
"""

from __future__ import annotations

import html

from advisor.figures.text import figure_parts, fmt_value
from advisor.recommend import catalog
from advisor.recommend.base import Recommendation

CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:60em;color:#222;
line-height:1.45;padding:0 1em}
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #ccc}
h3{font-size:1.05em;margin-bottom:.3em}table{border-collapse:collapse;margin:.4em 0 .8em}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top;font-size:.92em}
th{background:#f3f3f3}.choice{font-weight:600}.low{color:#a40}.medium{color:#750}.high{color:#262}
.warn{color:#a40}.muted{color:#666;font-size:.88em}section{margin-bottom:1.2em}
"""


def _num(x) -> str:
    if x is None:
        return ""
    if isinstance(x, int | float) and not isinstance(x, bool):
        return fmt_value(x)
    return str(x)


def _interval(f: dict) -> str:
    return figure_parts("", f)[3].replace("–", " – ")


def _flags(f: dict) -> str:
    out = []
    if f.get("extrapolated"):
        out.append("extrapolated")
    return ", ".join(out)


def _basis(f: dict) -> str:
    """A figure's basis and the hardware figures it rests on (or the testbed it was measured on)."""
    basis = str(f.get("basis") or "")
    rests = "; ".join(f.get("hardware") or []) or (f.get("testbed") or "")
    return f"{basis} — {rests}" if basis and rests else basis


def _short(expected: dict) -> str:
    """An alternative's expected figures on one line: ``name value unit (low – high)``."""
    parts = []
    for name, f in expected.items():
        if not isinstance(f, dict):
            continue
        iv = _interval(f)
        parts.append(f"{name} {_num(f.get('value'))} {f.get('unit', '')}".rstrip() + (f" ({iv})" if iv else "")
                     + (" extrapolated" if f.get("extrapolated") else ""))
    return "; ".join(parts)


def _cite(c: dict) -> str:
    return f"{c['document'][:3]} {c['locator']}" + (f" ({c['id']})" if c.get("id") else "")


def _title(r: Recommendation) -> str:
    return f"{catalog.title(r.decision)} — {r.scope}"


def to_markdown(advice) -> str:
    """The advice as a Markdown report."""
    d = advice.to_dict()
    cal = d["calibration"]
    lines = [f"# Capacity advice: {advice.scenario.name}", "",
             f"Basis: **{d['basis']}** — {cal.get('note', '')}", ""]
    if cal.get("figures_used"):
        lines += ["Site figures used: " + ", ".join(f"{k} = {_num(v)}" for k, v in cal["figures_used"].items()), ""]
    lines += ["| decision | scope | choice | confidence | extrapolated |", "|---|---|---|---|---|"]
    for r in advice.recommendations:
        choice = catalog.choice_text(r.decision, r.choice, r.value)
        lines.append(f"| {r.decision} | {_md(r.scope)} | **{_md(choice)}** | {r.confidence:.2f} {r.confidence_label} | "
                     f"{'yes' if r.extrapolated else 'no'} |")
    for r in advice.recommendations:
        lines += ["", f"## {_md(_title(r))}: {_md(r.choice)}", "", _md(r.rationale), ""]
        if r.expected:
            lines += ["| expected | value | interval | unit | note | basis (rests on) |", "|---|---|---|---|---|---|"]
            for name, f in r.expected.items():
                lines.append(f"| {name} | {_num(f.get('value'))} | {_interval(f)} | {f.get('unit', '')} | {_flags(f)} | "
                             f"{_md(_basis(f))} |")
            lines.append("")
        if r.alternatives:
            lines += ["| alternative | score | expected | why not |", "|---|---|---|---|"]
            for a in r.alternatives:
                lines.append(f"| {_md(a.choice)} | {a.score:.2f} | {_md(_short(a.expected))} | {_md(a.why_not)} |")
            lines.append("")
        if r.warnings:
            lines += [f"- ⚠ {_md(w)}" for w in r.warnings] + [""]
        if r.citations:
            lines.append("Sources: " + "; ".join(_md(_cite(c)) for c in r.citations))
    if advice.model_problems:
        lines += ["", "## Models not available", ""]
        lines += [f"- {k}: {_md(v)}" for k, v in advice.model_problems.items()]
    return "\n".join(lines).rstrip() + "\n"


def _md(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _e(x) -> str:
    return html.escape(str(x), quote=True)


def to_html(advice) -> str:
    """The advice as one self-contained HTML page."""
    d = advice.to_dict()
    cal = d["calibration"]
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>Capacity advice: {_e(advice.scenario.name)}</title>", f"<style>{CSS}</style></head><body>",
           f"<h1>Capacity advice: {_e(advice.scenario.name)}</h1>",
           f"<p>Basis: <b>{_e(d['basis'])}</b> — {_e(cal.get('note', ''))}</p>"]
    if cal.get("figures_used"):
        out.append("<p class=muted>Site figures used: " + _e(", ".join(f"{k} = {_num(v)}" for k, v in
                                                                      cal["figures_used"].items())) + "</p>")
    out.append("<table><tr><th>decision</th><th>scope</th><th>choice</th><th>confidence</th>"
               "<th>extrapolated</th></tr>")
    for r in advice.recommendations:
        out.append(f"<tr><td>{_e(r.decision)}</td><td>{_e(r.scope)}</td><td class=choice>{_e(r.choice)}</td>"
                   f"<td class={r.confidence_label}>{r.confidence:.2f} {r.confidence_label}</td>"
                   f"<td>{'yes' if r.extrapolated else 'no'}</td></tr>")
    out.append("</table>")
    for r in advice.recommendations:
        out += ["<section>", f"<h2>{_e(_title(r))}: <span class=choice>{_e(r.choice)}</span></h2>",
                f"<p>{_e(r.rationale)}</p>"]
        if r.expected:
            out.append("<table><tr><th>expected</th><th>value</th><th>interval</th><th>unit</th><th>note</th>"
                       "<th>basis (rests on)</th></tr>")
            for name, f in r.expected.items():
                out.append(f"<tr><td>{_e(name)}</td><td>{_e(_num(f.get('value')))}</td><td>{_e(_interval(f))}</td>"
                           f"<td>{_e(f.get('unit', ''))}</td><td>{_e(_flags(f))}</td><td>{_e(_basis(f))}</td></tr>")
            out.append("</table>")
        if r.alternatives:
            out.append("<table><tr><th>alternative</th><th>score</th><th>expected</th><th>why not</th></tr>")
            for a in r.alternatives:
                out.append(f"<tr><td>{_e(a.choice)}</td><td>{a.score:.2f}</td><td>{_e(_short(a.expected))}</td>"
                           f"<td>{_e(a.why_not)}</td></tr>")
            out.append("</table>")
        if r.warnings:
            out.append("<ul>" + "".join(f"<li class=warn>{_e(w)}</li>" for w in r.warnings) + "</ul>")
        if r.citations:
            out.append("<p class=muted>Sources: " + _e("; ".join(_cite(c) for c in r.citations)) + "</p>")
        out.append("</section>")
    if advice.model_problems:
        out.append("<h2>Models not available</h2><ul>" + "".join(
            f"<li>{_e(k)}: {_e(v)}</li>" for k, v in advice.model_problems.items()) + "</ul>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
