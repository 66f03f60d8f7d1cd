"""The one report renderer: an :class:`~advisor.engine.Advice` as Markdown or as HTML, used by
``capadvisor advise --format md|html`` and by the GUI's report preview and HTML/PDF export (which
only adds chart images).

Both formats come from Jinja2 templates with the same content: the scenario's key inputs, a
summary table, one section per recommendation (expected figures with intervals, confidence,
rationale, alternatives, warnings, sources), charts when given, models that were not available
and the citations by document. Escaping happens at one layer per format and never in the
templates' callers: HTML templates are autoescaped; every value of the Markdown template goes
through :func:`md_escape` (the environment's ``finalize``). Both first pass every text through
:func:`clean_text` (lone surrogates and control characters replaced), so any name a user gives,
``<script>``, quotes, ``|``, newlines or broken Unicode, comes out as inert text.

The HTML is one self-contained file: inline CSS, no scripts, fonts or links to external assets;
images only as the ``charts`` URLs the caller passes (the GUI: data URIs or ``chart:<key>``).
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping

import jinja2
from markupsafe import Markup

from advisor.expected import ExpectedFigure
from advisor.figures.calibration_text import site_figures
from advisor.figures.calibration_text import summary_text as calibration_summary
from advisor.figures.prose import figure_parts, fmt_value, prose
from advisor.figures.summary import design, scenario_inputs
from advisor.models import accuracy as replay_headline
from advisor.recommend import catalog
from advisor.recommend.targets import is_max
from advisor.render.placement import placement_data
from advisor.text import MarkdownText, clean_text, md_escape

CSS = """
body{font-family:'DejaVu Sans',system-ui,-apple-system,'Segoe UI',Arial,sans-serif;margin:2em auto;max-width:60em;
color:#1c2430;line-height:1.45;padding:0 1em}
h1{font-size:1.6em;margin-bottom:.2em;color:#1f6feb}h2{font-size:1.25em;margin-top:1.6em;color:#1f6feb;
border-bottom:1px solid #d5dae1}h3{font-size:1.05em;margin-bottom:.3em}
table{border-collapse:collapse;margin:.4em 0 .8em}
th,td{border:1px solid #d5dae1;padding:.25em .6em;text-align:left;vertical-align:top;font-size:.92em}
th{background:#f3f3f3}.choice{font-weight:600}.low{color:#a40}.medium{color:#750}.high{color:#262}
.warn{color:#b35900}.muted{color:#5b6675;font-size:.88em}section{margin-bottom:1.2em}
"""

def _html_finalize(value):
    if isinstance(value, Markup):
        return value
    return clean_text(value) if value is not None else ""


def _md_finalize(value):
    return md_escape(value if value is not None else "")


def _num(x) -> str:
    if x is None:
        return ""
    if isinstance(x, int | float) and not isinstance(x, bool):
        return fmt_value(x)
    return str(x)


def _notes(f: ExpectedFigure) -> str:
    """What a figure's note column says: extrapolated, the figure's own note (what it counts) and the
    document notes on the rows it rests on."""
    note = f.get("note")
    parts = ["extrapolated" if f.extrapolated else "", note if isinstance(note, str) else ""]
    keys = [_note_ref(k) for k in f.notes if isinstance(k, str)]
    if keys:
        parts.append("see document note " + ", ".join(keys))
    return "; ".join(p for p in parts if p)


def _note_ref(key: str) -> str:
    """``"002_c73d...:N-01"`` -> ``"002 N-01"``: how the report names a document note."""
    doc, _, nid = key.partition(":")
    return f"{doc[:3]} {nid}"


def _document_notes(r, noted: dict[str, dict]) -> list[str]:
    """A recommendation's document notes as references, remembering each note for the report's list."""
    out = []
    for n in getattr(r, "notes", None) or ():
        ref = _note_ref(n["key"])
        noted.setdefault(n["key"], {"ref": ref, "locator": n["locator"], "text": n["text"],
                                    "reading": n["reading"], "rows": ", ".join(n.get("rows") or ())})
        out.append(f"{ref} ({n['locator']})")
    return out


def _basis(f: ExpectedFigure) -> str:
    """A figure's basis and the hardware figures it rests on (or the testbed it was measured on)."""
    basis = str(f.basis or "")
    rests = "; ".join(str(h) for h in f.hardware or []) or str(f.testbed or "")
    return f"{basis} — {rests}" if basis and rests else basis


def _short(expected: Mapping[str, ExpectedFigure]) -> str:
    """An alternative's expected figures on one line: ``name value unit (low–high)``."""
    parts = []
    for name, f in expected.items():
        label, value, unit, interval = figure_parts(name, f)
        parts.append(f"{label} {value} {unit}".rstrip() + (f" ({interval})" if interval else "")
                     + (" extrapolated" if f.extrapolated else ""))
    return "; ".join(parts)


def _sources(citations: list[dict]) -> list[str]:
    """Citations grouped by place: ``"004 Table 9.2 (c9-079, c9-082)"``, in citation order."""
    places: dict[str, list[str]] = {}
    for c in citations:
        ids = places.setdefault(f"{str(c.get('document', ''))[:3]} {c.get('locator', '')}", [])
        for i in str(c.get("id") or "").split(", "):
            if i and i not in ids:
                ids.append(i)
    return [place + (f" ({', '.join(ids)})" if ids else "") for place, ids in places.items()]


def report_data(advice, title: str | None = None, documents: dict[str, str] | None = None,
                charts: dict[str, str] | None = None, date: str | None = None) -> dict:
    """What both templates show, as plain values (the templates escape them)."""
    sc = advice.scenario
    cal = advice.calibration.to_dict()
    recs = []
    cited: dict[str, set[str]] = {}
    noted: dict[str, dict] = {}
    # an estate: recommendations equal apart from the scope are shown once, naming their workloads
    refs = advice.same_as() if getattr(advice, "estate_scale", False) else [None] * len(advice.recommendations)
    alike: dict[int, list[str]] = {}
    for i, (r, ref) in enumerate(zip(advice.recommendations, refs, strict=True)):
        if ref is not None and ref != i:
            alike.setdefault(ref, []).append(r.scope)
    for i, (r, ref) in enumerate(zip(advice.recommendations, refs, strict=True)):
        if ref is not None and ref != i:
            continue
        scopes = [r.scope, *alike.get(i, [])]
        scope_text = r.scope.replace("workload:", "workload ") if len(scopes) == 1 else f"{len(scopes):,} workloads"
        figures = []
        for name, f in r.expected.items():
            label, value, unit, interval = figure_parts(name, f)
            figures.append({"label": label, "value": value, "unit": unit, "interval": interval,
                            "notes": _notes(f), "basis": _basis(f)})
        recs.append({
            "title": catalog.title(r.decision), "decision": r.decision, "scope": r.scope,
            "scope_text": scope_text,
            "workloads": [x.removeprefix("workload:") for x in scopes] if len(scopes) > 1 else [],
            "choice": catalog.choice_text(r.decision, r.choice, r.value),
            "confidence": f"{r.confidence:.2f}", "confidence_label": r.confidence_label,
            "confidence_text": f"{r.confidence_label} ({r.confidence:.0%})",
            "extrapolated": r.extrapolated, "rationale": prose(r.rationale), "figures": figures,
            "alternatives": [{"choice": catalog.choice_label(r.decision, a.choice), "score": f"{a.score:.2f}",
                              "expected": _short(a.expected), "why_not": prose(a.why_not)} for a in r.alternatives],
            "warnings": [prose(w) for w in r.warnings], "sources": _sources(r.citations),
            "document_notes": _document_notes(r, noted),
            "cost": [d.text for d in getattr(getattr(advice, "cost", None), "alternatives", [])
                     if d.decision == r.decision and d.scope == r.scope],
        })
        for c in r.citations:
            cited.setdefault(str(c.get("document", "")), set()).add(str(c.get("locator", "")))
    docs = documents or {}
    today, today_lines = [], []
    if getattr(sc, "estate", None):  # an imported estate: what runs today next to the advice
        from advisor.figures.today_vs_advised import format_today, today_vs_advised

        rows = today_vs_advised(sc, advice.recommendations)
        today_lines = format_today(rows)
        today = [{"title": catalog.title(t["decision"]), "scope": t["scope"].replace("workload:", "workload "),
                  "today": t["today"], "advised": t["advised"],
                  "differs": {"unchanged": "no", "within": "no (within the advice)", "unknown": "unknown"}.get(
                      t.get("status", ""), "yes" if t["differs"] else "no"),
                  "because": t["because"] + "".join(f" Warning: {w}" for w in t.get("warnings", []))} for t in rows]
    return {
        "today": today, "today_lines": today_lines,
        "title": title or f"Capacity advice: {sc.name}",
        "date": date or _dt.date.today().isoformat(),
        "scenario": sc.name, "knowledge_base": advice.kb_digest[:16],
        "basis": advice.basis, "basis_note": cal.get("note", ""),
        "site_figures": [f.text() for f in site_figures(advice) if f.used],
        "calibration": calibration_summary(advice),
        "design": [{"what": d.what, "design": d.design, "state": d.state} for d in design(advice)],
        "inputs": list(scenario_inputs(sc).items()),
        "workloads": [_workload_line(w) for w in sc.workloads],
        "recommendations": recs, "warnings_calibration": advice.warnings[:1] if advice.calibration.rejected else [],
        "charts": [{"key": k, "title": k.replace("_", " "), "url": url} for k, url in (charts or {}).items()],
        "model_problems": list(advice.model_problems.items()),
        "targets": [{"name": t.name, "scope": t.scope.replace("workload:", "workload "),
                     "target": f"{'≤' if is_max(t.name) else '≥'} {fmt_value(t.target)}",
                     "expected": "not judged" if t.expected is None else fmt_value(t.expected), "unit": t.unit,
                     "met": "—" if t.met is None else ("yes" if t.met else "NO"),
                     "kind": "hard" if t.hard else "soft", "note": t.note}
                    for t in getattr(advice, "targets", [])],
        "citations": [{"document": doc, "title": docs.get(doc, doc), "locators": ", ".join(sorted(locs))}
                      for doc, locs in sorted(cited.items())],
        "document_notes": [noted[k] for k in sorted(noted)],
        "cost": cost_data(getattr(advice, "cost", None), getattr(advice, "timeline", None)),
        "timeline": timeline_data(getattr(advice, "timeline", None)), "placement": placement_data(advice),
        "replay": replay_headline.text(),
    }


#: the timeline table's utilization columns: cell key, resource (empty where the hosts lack it)
TIMELINE_COLUMNS = (("cpu", "cpu_allocation"), ("load", "cpu_load"), ("ram", "ram"), ("disk", "disk_capacity"))


def timeline_data(tl) -> dict | None:
    """The growth timeline (:class:`advisor.growth.Timeline`) as plain values: the headline and
    one row per year (hosts needed and bought, VMs, utilization of the planned hosts, cost)."""
    if tl is None:
        return None
    horizon = tl.years[-1].year
    out = tl.runs_out
    headline = (f"The {tl.planned_hosts} planned hosts last the {horizon}-year horizon" if not out else
                f"The shared store runs out in year {out['year']} ({out['field']})" if "field" in out else
                f"The {tl.planned_hosts} planned hosts run out in year {out['year']} "
                f"({out['resource'].replace('_', ' ')}"
                + (f": {out['workload']}, one VM, outgrows a host)" if "workload" in out else
                   f"): {tl.years[out['year']].hosts} hosts needed"))
    rows = [{"year": y.year, "hosts": y.hosts, "buy": f"+{y.buy}" if y.buy else "", "vms": f"{y.vms:,}",
             **{col: fmt_value(y.utilization[k]) if k in y.utilization else "" for col, k in TIMELINE_COLUMNS},
             "binding": y.binding.replace("_", " "),
             "fits": "yes" if y.fits else "NO",
             "spend": fmt_value(y.cost["spend"]) if y.cost else ""} for y in tl.years]
    return {"headline": headline, "scale": tl.units()["utilization"], "rows": rows, "priced": any(y.cost for y in tl.years), "notes": list(tl.notes),
            "currency": tl.currency}


def _growth_cost_note(cost, timeline) -> list[str]:
    """What connects the bill's total (today's hosts, no growth) with the growth timeline's
    cumulative cost, when the advice has both (#31 review 3 finding 10)."""
    from advisor.cost import money

    years = getattr(timeline, "years", None) or []
    if not years or not years[-1].cost:
        return []
    last = years[-1]
    return [f"the total prices today's {cost.design.get('hosts', '?')} hosts at today's load for "
            f"{cost.years:g} years, without growth; with growth (the hosts bought as the timeline needs them) "
            f"years 0 to {last.year} cost {money(last.cost['cumulative'], cost.currency)} (the timeline's cumulative)"]


def cost_data(cost, timeline=None) -> dict | None:
    """The bill of an advice (:class:`advisor.cost.DesignCost`) as plain values for the templates
    and the GUI's cost table (with ``timeline``: a note connecting the two costs)."""
    if cost is None:
        return None
    from advisor.cost import money

    cur = cost.currency
    return {"headline": cost.headline(), "catalogue": cost.catalogue, "currency": cur, "years": fmt_value(cost.years),
            "capex": money(cost.capex), "opex": money(cost.opex_per_year), "total": money(cost.total, cur),
            "examples": cost.examples, "complete": cost.complete,
            "notes": list(cost.notes) + _growth_cost_note(cost, timeline),
            "lines": [{"category": line.category, "name": line.name + (" (example price)" if line.example else ""),
                       "quantity": f"{fmt_value(line.quantity)} {line.unit}",
                       "capex": money(line.capex) if line.capex else "",
                       "opex": money(line.opex_per_year) if line.opex_per_year else "", "note": line.note}
                      for line in cost.lines]}


def _workload_line(w) -> dict:
    rt = " · real-time task set" if w.realtime is not None and w.realtime.tasks else ""
    return {"name": w.name,
            "text": f"{w.vms} VMs x {w.vcpus_label} vCPUs, {fmt_value(w.ram_gib)} GiB; CPU {w.cpu_intensity}; "
                    f"I/O {w.io.pattern} {w.io.intensity}{rt}"}


HTML_TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{{ title }}</title>
<style>{{ css }}</style></head><body>
<h1>{{ title }}</h1>
<p class="muted">Capacity Advisor report, {{ date }}; knowledge base {{ knowledge_base }}. Every figure comes with
the knowledge-base rows it rests on (document and table, section or figure).</p>
<p>Basis: <b>{{ basis }}</b>. {{ calibration }}</p>
<p>{{ replay }}</p>
{% if site_figures %}<p class="muted">Site figures used: {{ site_figures | join(", ") }}</p>{% endif %}
{% for w in warnings_calibration %}<p class="warn">{{ w }}</p>{% endfor %}
<h2>The design at a glance</h2>
<table>{% for d in design %}<tr><th>{{ d.what }}</th><td{% if d.state == "missed" %} class="warn"{% endif %}>{{ d.design }}{% if d.state == "missed" %} ✗{% elif d.state == "ok" %} ✓{% endif %}</td></tr>{% endfor %}</table>
<h2>Scenario: {{ scenario }}</h2>
<table>{% for k, v in inputs %}<tr><th>{{ k }}</th><td>{{ v }}</td></tr>{% endfor %}</table>
<h3>Workload groups</h3>
<ul>{% for w in workloads %}<li><b>{{ w.name }}</b>: {{ w.text }}</li>{% endfor %}</ul>
<h2>Recommendations</h2>
{% if not recommendations %}<p>No recommendations yet.</p>{% else %}
<table><tr><th>decision</th><th>scope</th><th>choice</th><th>confidence</th><th>extrapolated</th></tr>
{% for r in recommendations %}<tr><td>{{ r.title }}</td><td>{{ r.scope_text }}</td><td class="choice">{{ r.choice }}</td>
<td class="{{ r.confidence_label }}">{{ r.confidence }} {{ r.confidence_label }}</td>
<td>{{ "yes" if r.extrapolated else "no" }}</td></tr>
{% endfor %}</table>{% endif %}
{% if targets %}<h2>Targets</h2>
<table><tr><th>target</th><th>scope</th><th>limit</th><th>expected</th><th>unit</th><th>met</th><th>kind</th><th>note</th></tr>
{% for t in targets %}<tr><td>{{ t.name }}</td><td>{{ t.scope }}</td><td>{{ t.target }}</td><td>{{ t.expected }}</td>
<td>{{ t.unit }}</td><td{% if t.met == "NO" %} class="warn"{% endif %}>{{ t.met }}</td><td>{{ t.kind }}</td><td>{{ t.note }}</td></tr>
{% endfor %}</table>{% endif %}
{% if cost %}<h2>Cost</h2>
<p><b>{{ cost.headline }}</b>. Prices from the cost catalogue <i>{{ cost.catalogue }}</i>.</p>
{% if cost.examples %}<p class="warn">Some prices are the example catalogue's placeholders, not quotes.</p>{% endif %}
<table><tr><th>item</th><th>what</th><th>quantity</th><th>capex ({{ cost.currency }})</th><th>opex per year ({{ cost.currency }})</th><th>how counted</th></tr>
{% for c in cost.lines %}<tr><td>{{ c.category }}</td><td>{{ c.name }}</td><td>{{ c.quantity }}</td><td>{{ c.capex }}</td><td>{{ c.opex }}</td><td>{{ c.note }}</td></tr>
{% endfor %}<tr><th colspan="3">total</th><th>{{ cost.capex }}</th><th>{{ cost.opex }}</th><th>{{ cost.total }} over {{ cost.years }} years</th></tr></table>
{% for n in cost.notes %}<p class="warn">{{ n }}</p>{% endfor %}{% endif %}
{% if placement %}<h2>Placement</h2>
<p><b>{{ placement.headline }}</b>.{% if placement.ha %} {{ placement.ha }}.{% endif %}</p>
<table><tr><th>host</th><th>domain</th><th>VMs</th></tr>{% for h in placement.rows %}<tr><td>{{ h.host }}</td><td>{{ h.domain }}</td><td>{{ h.vms }}</td></tr>{% endfor %}</table>{% endif %}
{% if timeline %}<h2>Growth over the years</h2>
<p><b>{{ timeline.headline }}</b>. Utilization: {{ timeline.scale }}.</p>
<table><tr><th>year</th><th>hosts needed</th><th>bought</th><th>VMs</th><th>CPU allocation %</th><th>CPU load %</th><th>RAM %</th><th>disk %</th><th>binding</th><th>planned hosts hold it</th>{% if timeline.priced %}<th>spend ({{ timeline.currency }})</th>{% endif %}</tr>
{% for y in timeline.rows %}<tr><td>{{ y.year }}</td><td>{{ y.hosts }}</td><td>{{ y.buy }}</td><td>{{ y.vms }}</td><td>{{ y.cpu }}</td><td>{{ y.load }}</td><td>{{ y.ram }}</td><td>{{ y.disk }}</td><td>{{ y.binding }}</td><td{% if y.fits == "NO" %} class="warn"{% endif %}>{{ y.fits }}</td>{% if timeline.priced %}<td>{{ y.spend }}</td>{% endif %}</tr>
{% endfor %}</table>
{% for n in timeline.notes %}<p class="warn">{{ n }}</p>{% endfor %}{% endif %}
{% if today %}<h2>Today vs advised</h2>
<table><tr><th>decision</th><th>scope</th><th>today</th><th>advised</th><th>changes</th><th>because</th></tr>
{% for t in today %}<tr><td>{{ t.title }}</td><td>{{ t.scope }}</td><td>{{ t.today }}</td><td class="choice">{{ t.advised }}</td>
<td>{{ t.differs }}</td><td>{{ t.because }}</td></tr>
{% endfor %}</table>{% endif %}
{% for r in recommendations %}<section>
<h3>{{ r.title }} — {{ r.scope_text }}: <span class="choice">{{ r.choice }}</span></h3>
{% if r.workloads %}<p class="muted">Workloads: {{ r.workloads | join(", ") }}</p>{% endif %}
{% if r.figures %}<table><tr><th>expected</th><th>value</th><th>interval</th><th>unit</th><th>note</th>
<th>basis (rests on)</th></tr>
{% for f in r.figures %}<tr><td>{{ f.label }}</td><td>{{ f.value }}</td><td>{{ f.interval }}</td><td>{{ f.unit }}</td>
<td>{{ f.notes }}</td><td>{{ f.basis }}</td></tr>
{% endfor %}</table>{% endif %}
<p class="muted">Confidence: {{ r.confidence_text }}</p>
{% if r.extrapolated %}<p class="warn">Extrapolated: the scenario lies outside what the documents measured.</p>{% endif %}
{% if r.rationale %}<p>{{ r.rationale }}</p>{% endif %}
{% if r.alternatives %}<table><tr><th>alternative</th><th>score</th><th>expected</th><th>why not</th></tr>
{% for a in r.alternatives %}<tr><td>{{ a.choice }}</td><td>{{ a.score }}</td><td>{{ a.expected }}</td><td>{{ a.why_not }}</td></tr>
{% endfor %}</table>{% endif %}
{% if r.cost %}<p class="muted">Cost of the alternatives:</p><ul>{% for c in r.cost %}<li>{{ c }}</li>{% endfor %}</ul>{% endif %}
{% if r.warnings %}<ul>{% for w in r.warnings %}<li class="warn">{{ w }}</li>{% endfor %}</ul>{% endif %}
{% if r.sources %}<p class="muted">Sources: {{ r.sources | join("; ") }}</p>{% endif %}
{% if r.document_notes %}<p class="muted">Document notes on these figures: {{ r.document_notes | join("; ") }} (see Document notes)</p>{% endif %}
</section>
{% endfor %}
{% if charts %}<h2>Charts</h2>
{% for c in charts %}<p><img src="{{ c.url }}" width="640" alt="{{ c.title }}"></p>
{% endfor %}{% endif %}
{% if model_problems %}<h2>Models not available</h2>
<ul>{% for k, v in model_problems %}<li>{{ k }}: {{ v }}</li>{% endfor %}</ul>{% endif %}
{% if citations %}<h2>Citations</h2>
<ul>{% for c in citations %}<li><b>{{ c.title }}</b> ({{ c.document }}): {{ c.locators }}</li>{% endfor %}</ul>{% endif %}
{% if document_notes %}<h2>Document notes</h2>
<p class="muted">Where a document disagrees with itself on a row these figures rest on, and which reading the advice uses.</p>
<ul>{% for n in document_notes %}<li><b>{{ n.ref }}</b>, {{ n.locator }}{% if n.rows %} (rows {{ n.rows }}){% endif %}: {{ n.text }} Reading used: {{ n.reading }}</li>{% endfor %}</ul>{% endif %}
</body></html>
"""

MD_TEMPLATE = """# {{ title }}

Capacity Advisor report, {{ date }}; knowledge base {{ knowledge_base }}.

Basis: **{{ basis }}**. {{ calibration }}

{{ replay }}
{% if site_figures %}

Site figures used: {{ site_figures | join(", ") }}
{% endif %}
{% for w in warnings_calibration %}

⚠ {{ w }}
{% endfor %}

## The design at a glance

| | design |
|---|---|
{% for d in design %}
| {{ d.what }} | {{ d.design }}{% if d.state == "missed" %} ✗{% elif d.state == "ok" %} ✓{% endif %} |
{% endfor %}

## Scenario: {{ scenario }}

| input | value |
|---|---|
{% for k, v in inputs %}
| {{ k }} | {{ v }} |
{% endfor %}

Workload groups:

{% for w in workloads %}
- **{{ w.name }}**: {{ w.text }}
{% endfor %}

## Recommendations

| decision | scope | choice | confidence | extrapolated |
|---|---|---|---|---|
{% for r in recommendations %}
| {{ r.title }} | {{ r.scope_text }} | **{{ r.choice }}** | {{ r.confidence }} {{ r.confidence_label }} | {{ "yes" if r.extrapolated else "no" }} |
{% endfor %}
{% if today_lines %}

## Today vs advised

{% for line in today_lines %}
- {{ line }}
{% endfor %}
{% endif %}
{% if targets %}

## Targets

| target | scope | limit | expected | unit | met | kind | note |
|---|---|---|---|---|---|---|---|
{% for t in targets %}
| {{ t.name }} | {{ t.scope }} | {{ t.target }} | {{ t.expected }} | {{ t.unit }} | {{ t.met }} | {{ t.kind }} | {{ t.note }} |
{% endfor %}
{% endif %}
{% if cost %}

## Cost

**{{ cost.headline }}**. Prices from the cost catalogue *{{ cost.catalogue }}*.
{% if cost.examples %}

⚠ Some prices are the example catalogue's placeholders, not quotes.
{% endif %}

| item | what | quantity | capex ({{ cost.currency }}) | opex per year ({{ cost.currency }}) | how counted |
|---|---|---|---|---|---|
{% for c in cost.lines %}
| {{ c.category }} | {{ c.name }} | {{ c.quantity }} | {{ c.capex }} | {{ c.opex }} | {{ c.note }} |
{% endfor %}
| **total** | | | {{ cost.capex }} | {{ cost.opex }} | {{ cost.total }} over {{ cost.years }} years |
{% for n in cost.notes %}

⚠ {{ n }}
{% endfor %}
{% endif %}
{% if placement %}

## Placement

**{{ placement.headline }}**.{% if placement.ha %} {{ placement.ha }}.{% endif %}


| host | domain | VMs |
|---|---|---|
{% for h in placement.rows %}
| {{ h.host }} | {{ h.domain }} | {{ h.vms }} |
{% endfor %}
{% endif %}
{% if timeline %}

## Growth over the years

**{{ timeline.headline }}**. Utilization: {{ timeline.scale }}.

| year | hosts needed | bought | VMs | CPU allocation % | CPU load % | RAM % | disk % | binding | planned hosts hold it |{% if timeline.priced %} spend ({{ timeline.currency }}) |{% endif %}

|---|---|---|---|---|---|---|---|---|---|{% if timeline.priced %}---|{% endif %}

{% for y in timeline.rows %}
| {{ y.year }} | {{ y.hosts }} | {{ y.buy }} | {{ y.vms }} | {{ y.cpu }} | {{ y.load }} | {{ y.ram }} | {{ y.disk }} | {{ y.binding }} | {{ y.fits }} |{% if timeline.priced %} {{ y.spend }} |{% endif %}

{% endfor %}
{% for n in timeline.notes %}

⚠ {{ n }}
{% endfor %}
{% endif %}
{% for r in recommendations %}

### {{ r.title }} — {{ r.scope_text }}: {{ r.choice }}
{% if r.workloads %}

Workloads: {{ r.workloads | join(", ") }}
{% endif %}
{% if r.figures %}

| expected | value | interval | unit | note | basis (rests on) |
|---|---|---|---|---|---|
{% for f in r.figures %}
| {{ f.label }} | {{ f.value }} | {{ f.interval }} | {{ f.unit }} | {{ f.notes }} | {{ f.basis }} |
{% endfor %}
{% endif %}

Confidence: {{ r.confidence_text }}{% if r.extrapolated %}. ⚠ Extrapolated: the scenario lies outside what the documents measured{% endif %}.
{% if r.rationale %}

{{ r.rationale }}
{% endif %}
{% if r.alternatives %}

| alternative | score | expected | why not |
|---|---|---|---|
{% for a in r.alternatives %}
| {{ a.choice }} | {{ a.score }} | {{ a.expected }} | {{ a.why_not }} |
{% endfor %}
{% endif %}
{% if r.cost %}

Cost of the alternatives:

{% for c in r.cost %}
- {{ c }}
{% endfor %}
{% endif %}
{% if r.warnings %}

{% for w in r.warnings %}
- ⚠ {{ w }}
{% endfor %}
{% endif %}
{% if r.sources %}

Sources: {{ r.sources | join("; ") }}
{% endif %}
{% if r.document_notes %}

Document notes on these figures: {{ r.document_notes | join("; ") }} (see Document notes)
{% endif %}
{% endfor %}
{% if charts %}

## Charts

{% for c in charts %}
![{{ c.title }}]({{ c.url }})
{% endfor %}
{% endif %}
{% if model_problems %}

## Models not available

{% for k, v in model_problems %}
- {{ k }}: {{ v }}
{% endfor %}
{% endif %}
{% if citations %}

## Citations

{% for c in citations %}
- **{{ c.title }}** ({{ c.document }}): {{ c.locators }}
{% endfor %}
{% endif %}
{% if document_notes %}

## Document notes

Where a document disagrees with itself on a row these figures rest on, and which reading the advice uses.

{% for n in document_notes %}
- **{{ n.ref }}**, {{ n.locator }}{% if n.rows %} (rows {{ n.rows }}){% endif %}: {{ n.text }} Reading used: {{ n.reading }}
{% endfor %}
{% endif %}
"""

_HTML = jinja2.Environment(autoescape=True, finalize=_html_finalize, undefined=jinja2.StrictUndefined,
                           trim_blocks=True, lstrip_blocks=True)
_MD = jinja2.Environment(autoescape=False, finalize=_md_finalize, undefined=jinja2.StrictUndefined,
                         trim_blocks=True, lstrip_blocks=True)


def _md_join(values, sep: str) -> MarkdownText:
    """``join`` for the Markdown template: each value escaped, the separator kept."""
    return MarkdownText(sep.join(md_escape(v) for v in values))


_MD.filters["join"] = _md_join
_HTML_REPORT = _HTML.from_string(HTML_TEMPLATE)
_MD_REPORT = _MD.from_string(MD_TEMPLATE)


def _md_url(url: str) -> MarkdownText:
    """An image URL the caller gave, made safe for ``![..](url)``: no spaces, parentheses or
    angle brackets, and only relative paths, ``chart:`` or ``data:image/`` URLs."""
    url = clean_text(url)
    if not re.match(r"^(data:image/(png|jpeg|svg\+xml);base64,[A-Za-z0-9+/=]+|chart:[\w.-]+|[\w./-]+)$", url):
        url = "#"
    return MarkdownText(url)


def to_markdown(advice, title: str | None = None, documents: dict[str, str] | None = None,
                charts: dict[str, str] | None = None, date: str | None = None) -> str:
    """The advice as a Markdown report (``charts``: chart key -> image path or URL)."""
    data = report_data(advice, title, documents, charts, date)
    for c in data["charts"]:
        c["url"] = _md_url(c["url"])
    return _MD_REPORT.render(data).rstrip() + "\n"


def to_html(advice, title: str | None = None, documents: dict[str, str] | None = None,
            charts: dict[str, str] | None = None, date: str | None = None) -> str:
    """The advice as one self-contained HTML page (``charts``: chart key -> image URL, e.g. a
    ``data:image/png;base64,...`` URI; the GUI's preview uses ``chart:<key>`` resources)."""
    data = report_data(advice, title, documents, charts, date)
    for c in data["charts"]:
        url = clean_text(c["url"])
        c["url"] = url if re.match(r"^(data:image/(png|jpeg);base64,|chart:)", url) else "#"
    return _HTML_REPORT.render(css=Markup(CSS), **data).rstrip() + "\n"
