"""The advice as an Excel workbook (``capadvisor advise --format xlsx``, GUI File > Export > Workbook).

Built from the advice JSON (``Advice.to_dict(expand=True)``): every number in a cell is a number
of that JSON, never recomputed, so the workbook says what the cards and the report say. The only
formulas are where a client edits: each bill-of-materials line's total (capex + opex per year x
years, written with its value as the cached result) and their sum. Every text, a workload's name
included, is written as a string cell (the workbook options turn off XlsxWriter's conversion of
strings to formulas, URLs and numbers), so ``=cmd|' /C calc'!A0`` stays text.

Sheets: Design, Bill of materials, Placement, Decisions, Targets, Assumptions, and Timeline when the
advice has one.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

import xlsxwriter

from advisor.recommend import catalog
from advisor.text import at_least, clean_text, figure_parts

#: no string ever becomes a formula, a link or a number (issue #33: the same escaping rules as the report)
OPTIONS = {"strings_to_formulas": False, "strings_to_urls": False, "strings_to_numbers": False,
           "in_memory": True}
#: the widest column, in characters
MAX_WIDTH = 60
#: the bill of materials' columns (the total column holds the only formulas of the workbook)
BOM_COLUMNS = ("Category", "Item", "Quantity", "Unit", "Capex ({cur})", "Opex per year ({cur})", "Years",
               "Total ({cur})", "Note")
#: a line total and the sum of the totals, the two formulas the workbook writes (tests check every formula)
LINE_TOTAL = re.compile(r"^=E(\d+)\+F\1\*G\1$")
SUM_TOTAL = re.compile(r"^=SUM\(H2:H(\d+)\)$")
TOTAL_COLUMN = "H"


class Sheet:
    """One worksheet written row by row: typed cells, a bold frozen header row, a filter over the
    table and column widths that fit the longest cell (up to :data:`MAX_WIDTH`)."""

    def __init__(self, book, name: str, columns: Sequence[str]):
        self.ws = book.add_worksheet(name)
        self.book = book
        self.bold = book.add_format({"bold": True})
        self.columns = list(columns)
        self.widths = [len(c) + 2 for c in self.columns]
        for col, text in enumerate(self.columns):
            self.ws.write_string(0, col, clean_text(text), self.bold)
        self.row = 1

    def add(self, values: Sequence, bold: bool = False) -> int:
        """Write one row (None: empty cell, bool, number or text); returns its 1-based row number."""
        fmt = self.bold if bold else None
        for col, value in enumerate(values):
            self.cell(col, value, fmt)
        self.row += 1
        return self.row

    def cell(self, col: int, value, fmt=None) -> None:
        r = self.row
        if value is None:
            return
        if isinstance(value, bool):
            self.ws.write_boolean(r, col, value, fmt)
            text = "FALSE"
        elif isinstance(value, int | float) and math.isfinite(value):
            self.ws.write_number(r, col, value, fmt)
            text = f"{value:,.6g}"
        else:
            text = clean_text(value)
            self.ws.write_string(r, col, text, fmt)
        self._fit(col, text)

    def formula(self, col: int, formula: str, value: float, fmt=None) -> None:
        """A formula in the current row with ``value`` as its cached result (what a reader that
        does not calculate shows)."""
        self.ws.write_formula(self.row, col, formula, fmt, value)
        self._fit(col, f"{value:,.6g}")

    def _fit(self, col: int, text: str) -> None:
        longest = max((len(line) for line in text.splitlines()), default=0)
        self.widths[col] = min(MAX_WIDTH, max(self.widths[col], longest + 2))

    def finish(self) -> None:
        """Freeze the header row, filter the table, fit the columns."""
        self.ws.freeze_panes(1, 0)
        self.ws.autofilter(0, 0, max(self.row - 1, 1), len(self.columns) - 1)
        for col, width in enumerate(self.widths):
            self.ws.set_column(col, col, width)


def workbook_bytes(data: dict, scenario=None) -> bytes:
    """The workbook of the advice JSON ``data`` (``Advice.to_dict(expand=True)``) as .xlsx bytes;
    ``scenario`` (the typed scenario) only names the disks and shared storage of an unpriced bill."""
    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, OPTIONS)
    book.set_properties({"title": clean_text(f"Capacity Advisor: {data.get('scenario', '')}"),
                         "comments": "written by Capacity Advisor from the advice JSON"})
    for build in (_design, _bill, _placement, _decisions, _targets, _assumptions, _timeline):
        sheet = build(book, data, scenario)
        if sheet is not None:
            sheet.finish()
    book.close()
    return buffer.getvalue()


def write_workbook(path: Path, data: dict, scenario=None) -> None:
    """Write the workbook of ``data`` to ``path`` atomically (built in memory, then renamed into place)."""
    from knowledge.infra.atomic import write_bytes_atomic

    write_bytes_atomic(Path(path), workbook_bytes(data, scenario))


def scope_text(scope: str) -> str:
    """``workload:web`` -> ``web``; ``cluster`` stays."""
    return scope.removeprefix("workload:")


def headline_recs(data: dict) -> list[dict]:
    """The headline recommendations of ``data`` (the catalogue's ``headline``), in engine order:
    the design at a glance of the workbook and the deck."""
    recs = data.get("recommendations", [])
    return [r for name in catalog.headline() for r in recs if r.get("decision") == name]


def number(value) -> float | None:
    """``value`` when it is a number (not a bool), else None."""
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _design(book, data: dict, scenario) -> Sheet:
    sheet = Sheet(book, "Design", ("Item", "Scope", "Choice", "Value", "Unit"))
    sheet.add(("Scenario", None, data.get("scenario", "")))
    sheet.add(("Knowledge base", None, data.get("knowledge_base", "")))
    sheet.add(("Basis", None, data.get("basis", "")))
    for rec in headline_recs(data):
        name, value = rec.get("decision", ""), number(rec.get("value"))
        entry = catalog.get(name)
        sheet.add((catalog.title(name), scope_text(rec.get("scope", "")),
                   catalog.choice_label(name, str(rec.get("choice", ""))), value,
                   entry.value_unit if entry is not None and value is not None else ""))
    cost = data.get("cost") or {}
    if cost.get("lines"):
        cur = cost.get("currency", "")
        sheet.add((f"Cost over {cost.get('years', 0):g} years", "cluster", cost.get("catalogue", ""),
                   cost.get("total"), cur))
        sheet.add(("Capex", "cluster", None, cost.get("capex"), cur))
        sheet.add(("Opex per year", "cluster", None, cost.get("opex_per_year"), cur))
    return sheet


def _first(data: dict, decision: str, scope: str = "cluster") -> dict | None:
    return next((r for r in data.get("recommendations", [])
                 if r.get("decision") == decision and r.get("scope") == scope), None)


def _bill(book, data: dict, scenario) -> Sheet:
    cost = data.get("cost") or {}
    cur = cost.get("currency") or "no prices"
    sheet = Sheet(book, "Bill of materials", [c.format(cur=cur) for c in BOM_COLUMNS])
    lines = cost.get("lines") or []
    if not lines:
        return _unpriced_bill(sheet, data, scenario)
    years = cost.get("years", 0)
    for line in lines:
        sheet.cell(8, line.get("note", ""))
        capex, opex = line.get("capex", 0.0), line.get("opex_per_year", 0.0)
        n = sheet.row + 1
        sheet.formula(7, f"=E{n}+F{n}*G{n}", capex + opex * years)
        sheet.add((line.get("category", ""), line.get("name", ""), line.get("quantity"), line.get("unit", ""),
                   capex, opex, years))
    last = sheet.row
    sheet.formula(7, f"=SUM(H2:H{last})", cost.get("total", 0.0), sheet.bold)
    sheet.add(("Total", cost.get("catalogue", ""), None, None, cost.get("capex"), cost.get("opex_per_year"),
               years, None, None if cost.get("complete", True) else "incomplete: see the notes"), bold=True)
    for note in cost.get("notes", []):
        sheet.add(("note", None, None, None, None, None, None, None, note))
    return sheet


def _unpriced_bill(sheet: Sheet, data: dict, scenario) -> Sheet:
    """The quantities without prices: the hosts the advice counts, each host's disks and the shared
    storage the scenario declares, and a line saying that no prices are loaded."""
    hc = _first(data, "host_count")
    hosts = hc.get("value") if hc is not None else None
    sheet.add(("hosts", "hosts", hosts, "hosts", None, None, None, None, "the advised number of hosts"))
    if scenario is not None:
        for d in scenario.hosts.disks:
            sheet.add(("disks", f"{d.kind} disk, {d.size_gb:g} GB", d.count, "disks per host", None, None, None,
                       None, "in each host"))
        for s in scenario.hosts.shared_storage:
            sheet.add(("storage", f"{s.kind} shared storage, {s.network_gbps:g} Gb/s link", 1, "system", None,
                       None, None, None, "as the scenario declares it"))
    sheet.add(("note", "no prices are loaded", None, None, None, None, None, None,
               "load a cost catalogue (capadvisor costs import, or --catalogue FILE) to price the design"))
    return sheet


def _placement(book, data: dict, scenario) -> Sheet:
    sheet = Sheet(book, "Placement", ("Host group", "Hosts", "Workload", "VMs per host", "vCPUs per VM"))
    hc = _first(data, "host_count") or {}
    vcpus = {w.name: w.vcpus for w in getattr(scenario, "workloads", ())}
    for i, group in enumerate((hc.get("details") or {}).get("placement") or [], start=1):
        shapes = group.get("vm_shapes") or {}
        for workload, count in (group.get("vms") or {}).items():
            # a workload given as totals has VMs of two sizes: one row per size (erp: 16 of 4, 19 of 3)
            for n, size in shapes.get(workload) or [(count, vcpus.get(workload))]:
                sheet.add((f"group {i}", group.get("hosts"), workload, n, size))
    return sheet


def _notes_text(notes: Iterable[dict]) -> str:
    return "; ".join(f"{n.get('document', '')} {n.get('locator', '')}: {n.get('text', '')}" for n in notes)


def decision_rows(rec: dict) -> list[tuple]:
    """One row per expected figure of recommendation ``rec`` (one row without a figure when it has none)."""
    name = rec.get("decision", "")
    head = (catalog.title(name), scope_text(rec.get("scope", "")),
            catalog.choice_text(name, str(rec.get("choice", "")), rec.get("value")))
    tail = (rec.get("confidence"),
            "; ".join(dict.fromkeys(f"{c.get('document', '')} {c.get('locator', '')}"
                                    for c in rec.get("citations", []))),
            _notes_text(rec.get("notes", [])))
    figures = rec.get("expected") or {}
    if not figures:
        return [(*head, None, None, None, None, None, rec.get("basis"), rec.get("extrapolated"), *tail)]
    rows = []
    for key, fig in figures.items():
        fig = fig if isinstance(fig, dict) else {"value": fig}
        label = figure_parts(key, fig)[0] + (" (at least)" if at_least(fig) else "")  # Value stays a number
        rows.append((*head, label, fig.get("value"), fig.get("low"), fig.get("high"),
                     fig.get("unit", ""), fig.get("basis", rec.get("basis")), fig.get("extrapolated"), *tail))
    return rows


DECISION_COLUMNS = ("Decision", "Scope", "Choice", "Figure", "Value", "Low", "High", "Unit", "Basis",
                    "Extrapolated", "Confidence", "Citations (document locator)", "Document notes")


def _decisions(book, data: dict, scenario) -> Sheet:
    sheet = Sheet(book, "Decisions", DECISION_COLUMNS)
    for rec in data.get("recommendations", []):
        for row in decision_rows(rec):
            sheet.add(row)
    return sheet


def _targets(book, data: dict, scenario) -> Sheet:
    sheet = Sheet(book, "Targets", ("Name", "Scope", "Target", "Expected", "Unit", "Met", "Hard", "Note"))
    for t in data.get("targets", []):
        sheet.add((t.get("name", "").replace("_", " "), scope_text(t.get("scope", "")), t.get("target"),
                   t.get("expected"), t.get("unit", ""), t.get("met"), t.get("hard"), t.get("note", "")))
    return sheet


def document_notes(data: dict) -> list[dict]:
    """Every document note of the advice once (by key), in the order the recommendations name them."""
    seen: dict[str, dict] = {}
    for rec in data.get("recommendations", []):
        for note in rec.get("notes", []):
            seen.setdefault(note.get("key") or f"{note.get('document')}:{note.get('id')}", note)
    return list(seen.values())


def assumption_rows(data: dict) -> list[tuple[str, str, str, str]]:
    """(kind, source, text, reading): the host count's assumptions, the warnings, the models that
    were not available and every document note once."""
    hc = _first(data, "host_count") or {}
    rows = [("assumption", catalog.title("host_count"), a, "")
            for a in (hc.get("details") or {}).get("assumptions", [])]
    rows += [("warning", "advice", w, "") for w in data.get("warnings", [])]
    rows += [("model not available", name, str(why), "") for name, why in (data.get("model_problems") or {}).items()]
    rows += [("document note", f"{n.get('document', '')} {n.get('locator', '')}", n.get("text", ""),
              n.get("reading", "")) for n in document_notes(data)]
    return rows


def _assumptions(book, data: dict, scenario) -> Sheet:
    sheet = Sheet(book, "Assumptions", ("Kind", "Source", "Text", "How the advice reads it"))
    for row in assumption_rows(data):
        sheet.add(row)
    return sheet


def _timeline(book, data: dict, scenario) -> Sheet | None:
    """The timeline (growth) when the advice has one: one row per year, one column per figure
    with its unit (the nested utilization / demand / cost as columns of their own), and a last
    row saying when the planned hosts run out (#31 review 3 finding 14)."""
    entries = [e for e in data.get("timeline") or [] if isinstance(e, dict)]
    if not entries:
        return None
    units = data.get("timeline_units") or {}
    columns: list[tuple[str, str | None, str]] = []  # (key, sub-key, header)
    for k in dict.fromkeys(k for e in entries for k in e):
        subs = list(dict.fromkeys(s for e in entries if isinstance(e.get(k), dict) for s in e[k]))
        for sub in subs or [None]:
            columns.append((k, sub, _timeline_header(k, sub, units)))
    sheet = Sheet(book, "Timeline", [c[2] for c in columns])
    for e in entries:
        sheet.add([_timeline_cell(e, k, sub) for k, sub, _ in columns])
    sheet.add([runs_out_text(data)], bold=True)
    return sheet


def _timeline_header(key: str, sub: str | None, units: dict) -> str:
    unit = units.get(key)
    if key == "utilization":
        unit = "%"
    elif isinstance(unit, dict):
        unit = unit.get(sub or "")
    elif key == "cost" and isinstance(unit, str):
        unit = unit.split(";")[0]
    name = key.replace("_", " ").capitalize() + (f": {sub.replace('_', ' ')}" if sub else "")
    return name + (f" ({unit})" if unit and key not in ("year", "binding", "planned_hosts_fit") else "")


def _timeline_cell(e: dict, key: str, sub: str | None):
    value = e.get(key)
    if sub is not None:
        value = value.get(sub) if isinstance(value, dict) else None
    return value if isinstance(value, int | float | str | bool | type(None)) else str(value)


def runs_out_text(data: dict) -> str:
    out = data.get("runs_out")
    years = max((e.get("year", 0) for e in data.get("timeline") or [] if isinstance(e, dict)), default=0)
    if not out:
        return f"The planned hosts last the {years}-year horizon."
    return (f"The {out.get('planned_hosts')} planned hosts run out in year {out.get('year')} "
            f"({str(out.get('resource', '')).replace('_', ' ')}).")
