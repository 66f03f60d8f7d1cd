"""Recommendations: one card per decision with the choice, expected figures and intervals,
confidence, extrapolation warning, rationale, clickable citations, and the alternatives."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from advisor.expected import ExpectedFigure
from advisor.figures.prose import figure_parts, prose
from advisor.figures.prose import figure_text as plain_figure_text
from advisor.hardware import basis_groups
from advisor.recommend import catalog
from advisor.recommend.base import Alternative, Recommendation
from advisor.recommend.targets import card_line, for_card
from advisor.text import figure_label
from ui.tablemodels import fmt_value

if TYPE_CHECKING:
    from advisor.engine import Advice

#: citation places shown on a card before "all N sources"
MAX_PLACES = 8


def _esc(text: str) -> str:
    return html.escape(str(text), quote=False)


def decision_title(name: str) -> str:
    """The decision's title from the catalogue."""
    return catalog.title(name)


def figure_text(name: str, fig: ExpectedFigure) -> str:
    """``"throughput per VM: <b>52.3</b> MB/s (45.1–60.2)"`` from an expected figure (escaped; the
    numbers as :func:`advisor.figures.prose.figure_parts` gives them to every front end)."""
    label, value, unit, interval = figure_parts(name, fig)
    text = f"{_esc(label)}: <b>{_esc(value)}</b> {_esc(unit)}"
    if interval:
        text += f" <span style='opacity:0.75'>({_esc(interval)})</span>"
    return text


#: hardware figures a card names per basis before "…", and figure names per basis
MAX_HARDWARE = 4
MAX_NAMES = 3


def basis_text(expected: Mapping[str, ExpectedFigure]) -> str:
    """``Basis: <b>scenario hardware (declared)</b> — on host NIC: 10 Gb/s (declared); …`` (escaped),
    one line per basis when the figures rest on several; empty without figures."""
    groups = basis_groups(expected)
    largest = max((len(g[1]) for g in groups), default=0)
    lines = []
    for basis, names, hardware, _beds in groups:
        which = ""
        if len(groups) > 1 and not (len(names) == largest and largest > MAX_NAMES):  # the rest go unnamed
            shown = ", ".join(figure_label(n) for n in names[:MAX_NAMES])
            which = f" ({shown}{f' and {len(names) - MAX_NAMES} more' if len(names) > MAX_NAMES else ''})"
        line = f"Basis: <b>{_esc(basis)}</b>{_esc(which)}"
        if hardware:
            more = "; …" if len(hardware) > MAX_HARDWARE else ""
            how = " — the testbed's, as here: " if basis == "documents" else " — on "
            line += how + _esc("; ".join(hardware[:MAX_HARDWARE]) + more)
        lines.append(line)
    return "<br>".join(lines)


def choice_text(rec: Recommendation) -> str:
    """The choice as the card shows it (with its value where the catalogue gives it a unit)."""
    return catalog.choice_text(rec.decision, rec.choice, rec.value)


class RecommendationCard(QFrame):
    """A card for one recommendation; ``sig_citations(list, title)`` when a citation is clicked."""

    sig_citations = Signal(list, str)

    def __init__(self, rec: Recommendation, parent=None, today: dict | None = None, targets: list | None = None,
                 calibration: str = "", cost: list[str] | None = None):
        super().__init__(parent)
        self.rec = rec
        self.calibration_label = None
        self._alt_table: QTableWidget | None = None
        self.target_labels: list[QLabel] = []
        self.setObjectName("card")
        self.setProperty("extrapolated", bool(rec.extrapolated))
        lay = QVBoxLayout(self)
        lay.setContentsMargins(14, 12, 14, 12)
        lay.setSpacing(6)
        self._add_head(lay, rec)
        self._add_today(lay, today)
        self._add_cost(lay, cost)
        self._add_figures(lay, rec, targets)
        self._add_basis(lay, rec, calibration)
        self._add_warnings(lay, rec)
        self._add_citations(lay, rec)
        self.notes_label = _document_notes_label(rec)
        if self.notes_label is not None:
            lay.addWidget(self.notes_label)
        self._add_alternatives(lay, rec)
        self.placement_table = _placement_table(rec)
        if self.placement_table is not None:
            lay.addWidget(self.placement_table)
        for label_widget in self.findChildren(QLabel):  # every text above is escaped: never read as plain
            label_widget.setTextFormat(Qt.TextFormat.RichText)
        lay.addStretch(1)

    def _add_head(self, lay: QVBoxLayout, rec: Recommendation) -> None:
        """The decision and scope, the confidence, and the choice."""
        head = QHBoxLayout()
        title = QLabel(_esc(f"{decision_title(rec.decision).upper()}  ·  {rec.scope.replace('workload:', '')}"))
        title.setObjectName("cardDecision")
        title.setWordWrap(True)
        head.addWidget(title, 1)
        label = rec.confidence_label
        conf = QLabel(f"{label} confidence {rec.confidence:.0%}")
        conf.setObjectName("confidence")
        conf.setProperty("level", label)
        conf.setToolTip("How strongly the documents' measurements and rules support this choice")
        head.addWidget(conf)
        lay.addLayout(head)
        self.choice = QLabel(_esc(choice_text(rec)))
        self.choice.setObjectName("cardChoice")
        self.choice.setWordWrap(True)
        lay.addWidget(self.choice)

    def _add_today(self, lay: QVBoxLayout, today: dict | None) -> None:
        """An imported estate: what runs today next to the advice (``today_label``, else None)."""
        self.today_label = None
        if today:  # an imported estate: what runs today next to the advice (advisor.inventory)
            from advisor.inventory import MARKS

            same = MARKS.get(today.get("status", ""), "" if today["differs"] else " (unchanged)")
            because = f"<br>because {_esc(today['because'])}" if today.get("because") else ""
            warns = "".join(f"<br><span style='color:#b35900'>⚠ {_esc(w)}</span>" for w in today.get("warnings", []))
            self.today_label = QLabel(f"Today: <b>{_esc(today['today'])}</b> → advised: "
                                      f"<b>{_esc(today['advised'])}</b>{_esc(same)}{because}{warns}")
            self.today_label.setObjectName("today")
            self.today_label.setWordWrap(True)
            self.today_label.setToolTip("What the imported estate runs with today (estate.today in the scenario)")
            lay.addWidget(self.today_label)

    def _add_cost(self, lay: QVBoxLayout, cost: list[str] | None) -> None:
        """What the choice costs and what its alternatives would change (``cost_label``, else None)."""
        self.cost_label = None
        if cost:  # what the choice costs and what its alternatives would change (advisor.cost)
            self.cost_label = QLabel("<br>".join((f"<b>{_esc(t)}</b>" if i == 0 else f"• {_esc(t)}")
                                                 for i, t in enumerate(cost[:5])))
            self.cost_label.setObjectName("cost")
            self.cost_label.setWordWrap(True)
            self.cost_label.setToolTip("From your cost catalogue (Edit ▸ Cost catalogue…)")
            lay.addWidget(self.cost_label)

    def _add_figures(self, lay: QVBoxLayout, rec: Recommendation, targets: list | None) -> None:
        """The expected figures, and the scenario's targets they answer, met or not."""
        figs = [figure_text(k, v) for k, v in rec.expected.items()]
        if figs:
            f = QLabel("<br>".join(figs[:6]))
            f.setObjectName("figure")
            f.setWordWrap(True)
            lay.addWidget(f)
        for result in targets or []:  # the scenario's targets this card's figures answer, met or not
            state, line = card_line(result)
            mark = {"met": "✓", "missed": "✗", "unknown": "?"}[state]
            tl = QLabel(f"{mark} Target: {_esc(line)}")
            tl.setObjectName("target")
            tl.setProperty("state", state)
            tl.setWordWrap(True)
            tl.setToolTip("A target of the scenario (preferences.targets) against the plan's expected value")
            lay.addWidget(tl)
            self.target_labels.append(tl)

    def _add_basis(self, lay: QVBoxLayout, rec: Recommendation, calibration: str) -> None:
        """What the figures rest on, and what a site's calibration changed."""
        basis = basis_text(rec.expected)
        if basis:
            self.basis_label = QLabel(basis)
            self.basis_label.setObjectName("basis")
            self.basis_label.setWordWrap(True)
            beds = [bed for *_, beds in basis_groups(rec.expected) for bed in beds]
            self.basis_label.setToolTip("What the figures rest on: the scenario's declared hardware, per-kind "
                                        "defaults, the probe, a site's benchmarks, or the documents' testbeds"
                                        + ("<br>" + "<br>".join(_esc(b) for b in dict.fromkeys(beds)) if beds else ""))
            lay.addWidget(self.basis_label)
        if calibration:  # what the site changed: the documents' value -> the site's, and from which file
            self.calibration_label = QLabel(calibration)
            self.calibration_label.setObjectName("calibration")
            self.calibration_label.setWordWrap(True)
            self.calibration_label.setToolTip("The same figure on the documents' ratios alone, and with the site's "
                                              "measured figures (Sites & imports)")
            lay.addWidget(self.calibration_label)

    def _add_warnings(self, lay: QVBoxLayout, rec: Recommendation) -> None:
        """Extrapolation, the recommendation's warnings and its rationale."""
        if rec.extrapolated:
            wl = QLabel("⚠ Extrapolated: this scenario lies outside what the documents measured.")
            wl.setObjectName("warning")
            wl.setWordWrap(True)
            lay.addWidget(wl)
        notes = [prose(w) for w in rec.warnings]
        if notes:
            nl = QLabel("<br>".join(f"• {_esc(n)}" for n in notes[:3]))
            nl.setObjectName("note")
            nl.setWordWrap(True)
            lay.addWidget(nl)
        if rec.rationale:
            r = QLabel(_esc(prose(rec.rationale)))
            r.setWordWrap(True)
            r.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            lay.addWidget(r)

    def _add_citations(self, lay: QVBoxLayout, rec: Recommendation) -> None:
        """The evidence: a link per place in the documents (``citation_label``)."""
        cites = rec.citations
        if cites:
            places = _unique_places(cites)
            links = " · ".join(
                f"<a href='{i}'>{_esc(str(c.get('document', ''))[:3])} "
                f"{_esc(str(c.get('locator', '')))}</a>" for i, c in enumerate(places[:MAX_PLACES]))
            if len(places) > MAX_PLACES:
                links += f" · <a href='all'>all {len(places)} sources…</a>"
            cl = QLabel(f"Evidence: {links}")
            cl.setWordWrap(True)
            cl.setToolTip("Click to see the knowledge-base rows behind this recommendation")
            cl.linkActivated.connect(self._on_link)
            self.citation_label = cl
            lay.addWidget(cl)

    def _add_alternatives(self, lay: QVBoxLayout, rec: Recommendation) -> None:
        """The button that opens the alternatives (their table is made when first asked for)."""
        alts = rec.alternatives
        if alts:
            self.alt_button = QPushButton(f"Alternatives ({len(alts)}) and why they lost")
            self.alt_button.setCheckable(True)
            self.alt_button.setToolTip("Show the other options with their scores and expected figures")
            self.alt_button.toggled.connect(lambda on: self.alt_table.setVisible(on))
            lay.addWidget(self.alt_button, 0, Qt.AlignmentFlag.AlignLeft)
            self._alt_index = lay.count()  # the table goes here when first asked for (an estate has hundreds)

    @property
    def alt_table(self) -> QTableWidget:
        """The alternatives table, made when first shown or asked for (hidden until the button opens it)."""
        if self._alt_table is None:
            self._alt_table = _alternatives_table(self.rec.alternatives, self.rec)
            self._alt_table.setVisible(False)
            self.layout().insertWidget(self._alt_index, self._alt_table)
        return self._alt_table

    def _on_link(self, href: str) -> None:
        if href == "all":
            self.sig_citations.emit(list(self.rec.citations), decision_title(self.rec.decision))
            return
        places = _unique_places(self.rec.citations)
        place = places[int(href)]
        cites = [c for c in self.rec.citations
                 if (c.get("document"), c.get("locator")) == (place.get("document"), place.get("locator"))]
        self.sig_citations.emit(cites, decision_title(self.rec.decision))


def _document_notes_label(rec: Recommendation) -> QLabel | None:
    """The document notes on the rows this card's figures rest on (where a document disagrees with
    itself, and which reading the advice uses): each note in full, or None without notes."""
    notes = getattr(rec, "notes", None) or []
    if not notes:
        return None
    lines = [f"<b>{_esc(n['document'][:3])} {_esc(n['locator'])}</b>: {_esc(n['text'])} "
             f"<i>Reading used:</i> {_esc(n['reading'])}" for n in notes]
    label = QLabel("Document notes on these figures:<br>" + "<br>".join(f"• {line}" for line in lines))
    label.setObjectName("note")
    label.setWordWrap(True)
    label.setAccessibleName(f"{len(notes)} document note(s) on these figures")
    return label


def _unique_places(cites: list[dict]) -> list[dict]:
    seen, out = set(), []
    for c in cites:
        key = (c.get("document"), c.get("locator"))
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _points_tip(points: float, chosen: float) -> str:
    """What an option's points mean beside the chosen option's."""
    return (f"{fmt_value(points)} points against {fmt_value(chosen)} for the chosen option: each finding of the "
            "documents that applies adds or takes points, and the option with the most is chosen "
            "(points compare the options of this decision only).")


def _placement_table(rec: Recommendation) -> QTableWidget | None:
    """The host count's placement under constraints (#32): host, failure domain, VMs per workload."""
    from advisor.render.placement import COLUMNS, placement_of

    data = placement_of(rec.details or {}) if rec.decision == "host_count" else None
    if data is None:
        return None
    t = QTableWidget(len(data["rows"]), len(COLUMNS))
    t.setHorizontalHeaderLabels([c.capitalize() if c != "VMs" else c for c in COLUMNS])
    t.setAccessibleName("Placement")
    t.setAccessibleDescription(data["headline"] + (f". {data['ha']}" if data["ha"] else ""))
    t.setToolTip(t.accessibleDescription())
    t.verticalHeader().hide()
    t.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    for i, row in enumerate(data["rows"]):
        for j, key in enumerate(("host", "domain", "vms")):
            t.setItem(i, j, QTableWidgetItem(row[key]))
    t.horizontalHeader().setStretchLastSection(True)
    t.resizeColumnsToContents()
    t.setMaximumHeight(40 + 30 * min(len(data["rows"]), 8))
    return t


def _alternatives_table(alts: list[Alternative], rec: Recommendation | None = None) -> QTableWidget:
    t = QTableWidget(len(alts), 4)
    chosen = f" (chosen option: {fmt_value(rec.score)})" if rec is not None else ""
    t.setHorizontalHeaderLabels(["Option", f"Points{chosen}", "Expected", "Why not"])
    t.setAccessibleName("Alternatives considered")
    t.setAccessibleDescription("Each option the documents' rules weighed, its points against the chosen "
                               "option's, its expected figures and why it was not chosen")
    header = t.horizontalHeaderItem(1)
    header.setToolTip("The weight of the documents' findings for each option: the rules that apply add or take "
                      "points (see the rationale); the option with the most points is chosen. Scores compare "
                      "the options of one decision only.")
    t.verticalHeader().hide()
    t.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)  # the engine's scores: read only
    t.setWordWrap(True)
    for i, a in enumerate(alts):
        exp = "; ".join(plain_figure_text(k, v) for k, v in a.expected.items())
        option = catalog.choice_label(rec.decision, a.choice) if rec is not None else a.choice
        for j, text in enumerate((option, fmt_value(a.score), exp, prose(a.why_not))):
            item = QTableWidgetItem(str(text))
            item.setToolTip(_points_tip(a.score, rec.score) if j == 1 and rec is not None else str(text))
            t.setItem(i, j, item)
    t.horizontalHeader().setStretchLastSection(True)
    t.resizeColumnsToContents()
    t.resizeRowsToContents()
    t.setMaximumHeight(40 + 34 * min(len(alts), 5))
    return t


class QtRecommendationsPanel(QWidget):
    """All recommendations of the session's latest advice, as cards in a grid."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.cards: list[RecommendationCard] = []
        top = QHBoxLayout()
        self.summary = QLabel("Waiting for the knowledge base and models…")
        self.summary.setObjectName("subtitle")
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)
        self.scope = QComboBox()
        self.scope.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.scope.setMinimumContentsLength(12)
        from ui.panels.editors import guard_wheel

        guard_wheel(self.scope)
        self.scope.setToolTip("Show the recommendations for the whole cluster or one workload group")
        self.scope.currentIndexChanged.connect(lambda _i: self.render())
        top.addWidget(self.summary, 1)
        top.addWidget(QLabel("Show:"))
        top.addWidget(self.scope)
        self.design = QLabel()
        self.design.setObjectName("design")
        self.design.setWordWrap(True)
        self.design.setTextFormat(Qt.TextFormat.RichText)
        self.design.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.design.setToolTip("The design at one glance: what to buy and how to run it (the cards below say why)")
        self.design.hide()
        self.grid_host = QWidget()
        outer = QVBoxLayout(self.grid_host)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.design)
        grid_box = QWidget()
        self.grid = QGridLayout(grid_box)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(12)
        outer.addWidget(grid_box, 1)
        self._columns = 0
        area = QScrollArea()
        self.area = area
        self._to_top = False  # a new scenario or design: its advice is read from the top
        session.document.sig_changed.connect(lambda path: path == () and setattr(self, "_to_top", True))
        area.setWidget(self.grid_host)
        area.setWidgetResizable(True)
        area.setFrameShape(QScrollArea.Shape.NoFrame)
        root = QVBoxLayout(self)
        root.addLayout(top)
        root.addWidget(area, 1)
        session.sig_advice.connect(self.set_advice)
        if hasattr(session, "sig_baseline"):
            session.sig_baseline.connect(lambda _b: self.render())
        session.sig_advice_busy.connect(self._on_busy)
        session.document.sig_validated.connect(self._on_validated)
        if session.advice:
            self.set_advice(session.advice)
        elif session.document.problems:  # invalid from the start: say so, not "waiting"
            self._on_validated(session.document.problems)

    def busy(self) -> bool:
        return self.session.advice_task.running

    def _column_count(self) -> int:
        """Cards side by side: three on a wide window, one where two would need scrolling sideways."""
        width = self.width()
        em = self.fontMetrics().averageCharWidth()
        return 3 if width > 1500 and width > 3 * 56 * em else 2 if width > 2 * 56 * em else 1

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if self.session.advice is not None and self._column_count() != self._columns:
            QTimer.singleShot(0, self, self._recheck_columns)

    def _recheck_columns(self) -> None:
        if self.session.advice is not None and self._column_count() != self._columns:
            self.render()

    def show_design(self, advice) -> None:
        """The design at one glance on top of the cards (a bill of materials)."""
        from advisor.figures.summary import design

        if advice is None:
            self.design.hide()
            return
        rows = []
        for line in design(advice):
            mark = {"missed": " ✗", "ok": " ✓"}.get(line.state, "")
            style = " style='color:#c62828'" if line.state == "missed" else ""
            rows.append(f"<tr><td style='padding:1px 12px 1px 0'><b>{_esc(line.what)}</b></td>"
                        f"<td{style}>{_esc(line.design)}{mark}</td></tr>")
        self.design.setText(f"<b>The design at a glance</b><table>{''.join(rows)}</table>")
        self.design.show()

    def _calibration_notes(self, advice) -> dict:
        """(decision, scope) -> the card's calibration note (html): documents' value -> site value,
        and the site figures (with their files) behind them."""
        from advisor.figures.calibration_text import calibrated, changes, choice_changes, site_figures

        if not calibrated(advice):
            return {}
        baseline = getattr(self.session, "baseline", None)
        used = "; ".join(f.text() for f in site_figures(advice) if f.used)
        site = advice.calibration.site
        out = {}
        moved = changes(advice, baseline)
        before = choice_changes(advice, baseline)
        for rec in advice.recommendations:
            key = (rec.decision, rec.scope)
            if not any(str(f.basis or "").startswith("site:") for f in rec.expected.values()):
                continue
            lines = [f"<b>Calibrated to site {_esc(site)}</b>"]
            lines += [f"{_esc(c.label)}: documents {_esc(fmt_value(c.documents))} → site "
                      f"<b>{_esc(fmt_value(c.site))}</b> {_esc(c.unit)}" for c in moved.get(key, [])[:4]]
            if key in before:
                lines.append(f"with the documents' ratios alone: {_esc(catalog.choice_text(rec.decision, before[key], None))}")
            if baseline is None:
                lines.append("<i>computing the documents' values…</i>")
            lines.append(f"from {_esc(used)}")
            out[key] = "<br>".join(lines)
        return out

    def _on_busy(self, busy: bool) -> None:
        if busy:
            self.summary.setText("Updating the recommendations…")

    def _on_validated(self, problems: dict) -> None:
        if problems:
            after = ("The cards below are for the last valid scenario." if self.session.advice is not None
                     else "No recommendations until they are fixed.")
            self.summary.setText(f"The scenario has {len(problems)} problem(s); fix them in the Scenario tab. "
                                 + after)

    def set_advice(self, advice: Advice) -> None:
        scopes = ["all", *advice.scopes()]
        current = self.scope.currentText()
        self.scope.blockSignals(True)
        self.scope.clear()
        self.scope.addItems(scopes)
        self.scope.setCurrentText(current if current in scopes else "all")
        self.scope.blockSignals(False)
        self.render()
        if self._to_top:
            self._to_top = False
            self.area.verticalScrollBar().setValue(0)

    def render(self) -> None:
        advice = self.session.advice
        recs = advice.recommendations if advice is not None else []
        scope = self.scope.currentText()
        shown = [r for r in recs if scope in ("", "all") or r.scope == scope]
        while self.grid.count():
            item = self.grid.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        self.cards = []
        columns = self._column_count()
        self._columns = columns
        self.show_design(advice)
        notes = self._calibration_notes(advice)
        today = {}
        if advice is not None and getattr(advice.scenario, "estate", None):
            from advisor.inventory import today_vs_advised

            today = {(r["decision"], r["scope"]): r for r in today_vs_advised(advice.scenario, recs)}
        from advisor.figures.summary import card_cost_lines, cost_summary

        for i, rec in enumerate(shown):
            card = RecommendationCard(rec, today=today.get((rec.decision, rec.scope)),
                                      targets=for_card(advice.targets, rec.decision, rec.scope) if advice else [],
                                      calibration=notes.get((rec.decision, rec.scope), ""),
                                      cost=card_cost_lines(advice, rec.decision, rec.scope) if advice else None)
            card.sig_citations.connect(self.show_citations)
            self.grid.addWidget(card, i // columns, i % columns)
            self.cards.append(card)
        for c in range(columns):
            self.grid.setColumnStretch(c, 1)
        self.grid.setRowStretch(len(shown) // columns + 1, 1)
        if advice is None:
            return
        n_extra = sum(1 for r in recs if r.extrapolated)
        basis = advice.basis
        summary = (f"calibrated to site {basis.split(':', 1)[1]}'s measured hardware" if basis.startswith("site:")
                   else "the documents' measurements on their own testbeds" if basis == "documents"
                   else "the documents' ratios on this machine's measured disk (probe)" if basis == "probe"
                   else f"the documents' ratios on the {basis}")
        text = (f"{len(recs)} recommendation(s) for {_esc(advice.scenario.name)}, {_esc(summary)}; "
                f"{n_extra} extrapolated beyond the measurements. Click a citation to see its rows.")
        priced = cost_summary(advice)
        if priced:
            text += f"<br><b>{_esc(priced)}</b>"
        if advice.model_problems:
            problems = "; ".join(f"{k} ({v})" for k, v in advice.model_problems.items())
            text += (f"<br><span style='color:#b35900'>⚠ Decided from the rules alone where these models were not "
                     f"available: {_esc(problems)}</span>")
        self.summary.setText(text)
        if self.session.document.problems:  # a re-render (a resize, the baseline) keeps saying why it is old
            self._on_validated(self.session.document.problems)

    def show_citations(self, cites: list, title: str) -> None:
        if self.session.kb is None:
            return
        from ui.dialogs.citations import CitationDialog

        dlg = CitationDialog(self.session.kb, cites, title, self)
        dlg.open()
        self.last_dialog = dlg
