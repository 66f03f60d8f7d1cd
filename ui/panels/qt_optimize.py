"""The Optimize tab: the cheapest design that meets the targets, and the chart of cost against
headroom (or another figure) of every design searched (:func:`advisor.optimize.optimize`, run in
the panel's worker with progress and cancel). Clicking a point of the chart, or a row of the
front, loads that design into the scenario (one undo step)."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ui.plots.pareto import ParetoChart
from ui.workers import TaskSlot

OBJECTIVES = (("cost", "Cost (capex + years × opex)"), ("hosts", "Fewest hosts"), ("power", "Least energy"))
FIGURES = (("headroom", "Headroom (% more VMs)"), ("host_cpu", "Busiest host's CPU (%)"),
           ("boot_time", "Boot time (s)"), ("throughput", "Lowest throughput per VM (MB/s)"))


def run_search(scenario, catalogue, kb, objective: str, figure: str, host_counts: int, keep_fixed: bool,
               progress=None, cancel=None, horizon: bool = False):
    """Worker: the design-space search of ``scenario`` (its fixed choices dropped unless
    ``keep_fixed``: a design loaded from this chart fixes every choice); with ``horizon``, the design
    that lasts the scenario's growth at least cost over its horizon (:mod:`advisor.optimize.horizon`)."""
    import copy

    from advisor.optimize import SpaceOptions, optimize

    sc = scenario
    if not keep_fixed:
        sc = copy.deepcopy(scenario)
        sc.preferences.fixed = {}
        sc.preferences.hypervisor = None
    options = SpaceOptions(host_counts=host_counts)
    if horizon:  # the design that lasts at least cost over the horizon, as optimize --horizon
        from advisor.optimize.horizon import optimize_horizon

        return optimize_horizon(sc, catalogue, kb, objective=objective, figure=figure, options=options,
                                progress=progress, cancel=cancel)
    result = optimize(sc, catalogue, kb, objective=objective, figure=figure, options=options, progress=progress,
                      cancel=cancel, keep_table=True)
    if result.best is not None:  # a growing scenario: when today's best design runs out
        from advisor.optimize.lasts import growth_note

        note = growth_note(scenario, catalogue, result.best.design, kb, "“Last the growth horizon”")
        if note:
            result.notes.insert(0, note)
    return result


class QtOptimizePanel(QWidget):
    """See the module doc."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.result = None
        self.origin = None  # the scenario of the last search, as the document held it
        self.task = TaskSlot("design search", session.notifier, parent=self)
        self.task.sig_done.connect(self._on_result)
        self.task.sig_progress.connect(self._on_progress)
        self.task.sig_finished.connect(self._on_finished)
        self._make_controls()
        top, counts_label = self._top_row()
        self._make_results()
        split = self._results_split()
        lay = QVBoxLayout(self)
        second = QHBoxLayout()  # the check box and the progress bar under the controls: fits 1024 px wide
        second.addWidget(counts_label)
        second.addWidget(self.counts)
        second.addWidget(self.bar, 3)
        second.addStretch(1)  # the bar hidden: the field and buttons keep their size (at 1920 px too)
        second.addWidget(self.run_button)  # on the second row: the first fits 1024 px at 16 pt
        second.addWidget(self.cancel_button)
        third = QHBoxLayout()  # what the search keeps: its own row, so each row fits 1024 px at 16 pt
        third.addWidget(self.keep_fixed)
        third.addWidget(self.horizon)
        third.addStretch(1)
        lay.addLayout(top)
        lay.addLayout(second)
        lay.addLayout(third)
        lay.addWidget(self.info)
        lay.addWidget(split, 1)
        session.sig_catalogue.connect(lambda _c: self._show_status())
        self._show_status()

    def _make_controls(self) -> None:
        """Objective, chart figure, host counts, fixed choices, Search, Cancel and the progress bar."""
        self.objective = QComboBox()
        for key, text in OBJECTIVES:
            self.objective.addItem(text, key)
        self.objective.setToolTip("What the best design minimises")
        self.figure = QComboBox()
        for key, text in FIGURES:
            self.figure.addItem(text, key)
        self.figure.setToolTip("The performance figure the chart sets against cost")
        self.counts = QSpinBox()
        self.counts.setRange(1, 40)
        self.counts.setValue(6)
        self.counts.setSuffix(" host counts")
        self.counts.setToolTip("Host counts tried per host model, from the fewest that places the VMs")
        self.horizon = QCheckBox("Last the &growth horizon")
        self.horizon.setToolTip("Search the design that lasts every year of the scenario's growth section (sized for "
                                "its most demanding year); a loaded design keeps the growth")
        self.keep_fixed = QCheckBox("Keep the scenario's fixed choices")
        self.keep_fixed.setToolTip("Search only the choices the scenario leaves open (preferences.hypervisor and "
                                   "preferences.fixed); a design loaded from this chart fixes all of them")
        self.run_button = QPushButton("&Search designs")
        self.run_button.setObjectName("primary")
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.task.cancel)
        self.cancel_button.setEnabled(False)
        self.bar = QProgressBar()
        self.bar.setRange(0, 100)
        self.bar.setVisible(False)

    def _top_row(self) -> tuple[QHBoxLayout, QLabel]:
        """The objective and chart row, and the label of the host counts (on the second row)."""
        top = QHBoxLayout()
        for label, w in (("&Objective:", self.objective), ("&Chart:", self.figure)):
            lab = QLabel(label)
            lab.setBuddy(w)
            top.addWidget(lab)
            top.addWidget(w)
        counts_label = QLabel("&Try:")  # "Try 6 host counts", not "Host counts: 6" (which reads as 6 hosts)
        counts_label.setBuddy(self.counts)
        top.addStretch(1)
        return top, counts_label

    def _make_results(self) -> None:
        """The status line, the Pareto chart, the best design and the front's table."""
        self.info = QLabel()
        self.info.setObjectName("subtitle")
        self.info.setWordWrap(True)
        self.info.setTextFormat(Qt.TextFormat.RichText)
        self.chart = ParetoChart()
        self.chart.sig_design.connect(self.load_design)
        self.best = QLabel()
        self.best.setWordWrap(True)
        self.best.setTextFormat(Qt.TextFormat.RichText)
        self.best.setObjectName("figure")
        self.load_best = QPushButton("&Load the best design")
        self.load_best.setEnabled(False)
        self.load_best.clicked.connect(lambda: self.result and self.result.best and self.load_design(self.result.best))
        self.front = QTableWidget(0, 6)
        self.front.setHorizontalHeaderLabels(["Total", "Figure", "Hosts", "Hypervisor", "Host model", "Storage"])
        self.front.verticalHeader().setVisible(False)
        self.front.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.front.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.front.horizontalHeader()
        for col in range(self.front.columnCount() - 1):  # every title whole ("Hosts", not "Hos…"), at any font
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.front.cellDoubleClicked.connect(lambda r, _c: self.load_design(self.result.pareto[r]))
        self.front.setToolTip("The Pareto front: double-click a row to load its design")

    def _results_split(self) -> QSplitter:
        """The chart beside the best design and the front."""
        side = QWidget()
        sl = QVBoxLayout(side)
        sl.setContentsMargins(0, 0, 0, 0)
        sl.addWidget(self.best)
        sl.addWidget(self.load_best, 0, Qt.AlignmentFlag.AlignLeft)
        sl.addWidget(QLabel("Pareto front (double-click a row to load it):"))
        sl.addWidget(self.front, 1)
        # before a search: a sentence saying what to do, not the chart's empty 0-1 axes
        self.placeholder = QLabel()
        self.placeholder.setObjectName("emptyState")
        self.placeholder.setWordWrap(True)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setMargin(24)
        self.placeholder.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)  # the splitter decides
        self.chart_stack = QStackedWidget()
        self.chart_stack.addWidget(self.placeholder)
        self.chart_stack.addWidget(self.chart)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.chart_stack)
        split.addWidget(side)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([600, 400])  # the front's first four columns in view at 1024 px
        return split

    def busy(self) -> bool:
        return self.task.running

    def _show_status(self) -> None:
        cat = self.session.catalogue
        if self.result is None:
            self.placeholder.setText(
                "No chart yet: the design search needs prices. Open Edit ▸ Cost catalogue… to import your "
                "prices (or the example's placeholder prices), then press Search designs." if cat is None else
                "No chart yet: press Search designs. The chart then sets each design's cost against the "
                "chosen figure; click a point to load its design.")
            self.chart_stack.setCurrentWidget(self.placeholder)
        if cat is None:
            self.info.setText("No cost catalogue yet: Edit ▸ Cost catalogue… (import your prices, or load the "
                              "example with placeholder prices), then search.")
        elif self.result is None:
            self.info.setText(f"Prices: {html.escape(cat.name)} ({len(cat.hosts)} host models, {len(cat.storage)} "
                              f"storage, {len(cat.licences)} licences). Search every design of the scenario: host model "
                              "× hypervisor × over-allocation × storage × cache mode per workload × host count.")
        self.run_button.setEnabled(cat is not None and not self.task.running)

    def run(self) -> None:
        s = self.session
        scenario = s.document.scenario
        if s.kb is None or scenario is None or s.catalogue is None or s.document.problems:
            self.info.setText("The scenario must be valid, the models ready and a cost catalogue stored.")
            return
        if self.horizon.isChecked() and scenario.growth is None:
            self.info.setText("The scenario has no growth section to last: give it one in the Scenario tab "
                              "(Growth over the years), or clear \u201cLast the growth horizon\u201d.")
            return
        self.origin = scenario  # a design is loaded onto the scenario searched from (its growth kept)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.bar.setValue(0)
        self.bar.setVisible(True)
        self.task.start(run_search, scenario, s.catalogue, s.kb, self.objective.currentData(),
                        self.figure.currentData(), self.counts.value(), self.keep_fixed.isChecked(),
                        horizon=self.horizon.isChecked())

    def _on_progress(self, fraction: float, message: str) -> None:
        self.bar.setValue(int(100 * fraction))
        self.bar.setFormat(f"%p % — {message}")

    def _on_finished(self) -> None:
        self.bar.setVisible(False)
        self.cancel_button.setEnabled(False)
        self._show_status()

    def _on_result(self, result) -> None:
        from advisor.cost import money
        from advisor.optimize.chart import design_text, pareto_figure
        from advisor.optimize.horizon import LASTS
        from advisor.optimize.lasts import GROWS

        self.result = result
        self.chart.set_figure(pareto_figure(result))
        self.chart_stack.setCurrentWidget(self.chart)
        self.chart_stack.setCurrentWidget(self.chart)
        per_s = f", {result.size / result.elapsed_s:,.0f} designs per second" if result.elapsed_s > 0 else ""
        lost = "; ".join(f"{n:,} ({why})" for why, n in result.discarded.items() if n)
        self.info.setText(f"<b>{result.size:,}</b> designs searched in {result.elapsed_s:.1f} s{per_s}"
                          + (f" ({result.workers} processes)" if result.workers > 1 else "")
                          + f"; <b>{result.feasible:,}</b> meet every target and hard limit"
                          + (f"; discarded: {html.escape(lost)}" if lost else "") + ".")
        b = result.best
        if b is None:
            self.best.setText("<b>No design meets every target.</b> " + html.escape(" ".join(result.notes)))
        else:
            modes = ", ".join(f"{w.name}: {m}" for w, m in zip(result.scenario.workloads, b.design.cache_modes,
                                                                strict=True))
            self.best.setText(f"<b>Best by {html.escape(result.objective)}:</b> {html.escape(design_text(b, result))}"
                              f"<br>capex {money(b.capex, result.currency)}, opex {money(b.opex_per_year)} per year, "
                              f"{b.kwh_per_year:,.0f} kWh per year; cache modes {html.escape(modes)}"
                              + "".join(f"<br>{html.escape(n)}" for n in result.notes
                                      if n.startswith((GROWS, LASTS))))
        self.load_best.setEnabled(b is not None)
        self.front.setRowCount(len(result.pareto))
        label = next(t for k, t in FIGURES if k == result.figure)
        self.front.setHorizontalHeaderItem(1, QTableWidgetItem(label.replace(" (", "\n(")))  # unit below: narrower
        for r, c in enumerate(result.pareto):
            f = c.figure(result.figure)
            cells = (money(c.total, result.currency), "—" if f is None else f"{f:.4g}", str(c.hosts),
                     c.design.hypervisor, c.design.host_model, c.design.storage.text())
            for col, text in enumerate(cells):
                self.front.setItem(r, col, QTableWidgetItem(text))
        self.front.resizeColumnsToContents()

    def load_design(self, candidate) -> None:
        """Load ``candidate``'s design into the scenario (one undo step)."""
        if candidate is None or self.result is None:
            return
        from advisor.optimize import design_scenario
        from advisor.optimize.chart import design_text

        sc = design_scenario(self.origin or self.result.scenario, self.session.catalogue, candidate.design)
        data = sc.to_dict()
        self.session.document.replace(data, f"load design {candidate.design.host_model} x {candidate.hosts}")
        self.session.notifier.message(f"Loaded: {design_text(candidate, self.result)} — Edit ▸ Undo takes it back",
                                      8000)
