"""Real-time calculator: a task-set table (paste from a spreadsheet), share / period / overhead
inputs, the analysis of thesis chapter 11 (advisor.realtime) and its plot with the feasible T_VM
intervals shaded. Shows the task set of the selected workload of the scenario (empty when it has
none; again after another file is opened) and writes it back. A cell the core cannot read turns
red with its message; such a task is never left out silently: the analysis waits for the fix."""

from __future__ import annotations

import copy
import html
import math

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ui.scrolling import FitPage
from ui.spreadsheet import SpreadsheetTable
from ui.tablemodels import fmt_value
from ui.workers import TaskSlot

COLUMNS = ("name", "period", "wcet", "deadline")


def parse_pasted(text: str) -> list[list[str]]:
    """Rows of cells from spreadsheet text (tab-, semicolon- or comma-separated); a header row
    whose second cell is not a number is skipped."""
    rows = []
    for line in text.splitlines():
        if not line.strip():
            continue
        sep = "\t" if "\t" in line else (";" if ";" in line else ",")
        cells = [c.strip() for c in line.split(sep)]
        rows.append(cells)
    if rows and len(rows[0]) > 1 and rows[0][1]:  # (a task with its period missing is no header)
        try:
            float(rows[0][1].replace(",", "."))
        except ValueError:
            rows = rows[1:]
    return rows


def analyze_tasks(rows: list[tuple], unit: str, mode: str, value: float, overhead: float, policy: str,
                  speed_scale: float | None = None, progress=None, cancel=None):
    """Worker: (RealtimeResult, ChartSpec) for the table's tasks at a share or a period;
    ``speed_scale`` (scenario core GHz / the task set's design GHz) as the advice analyses them."""
    from advisor.figures.charts import realtime_chart
    from advisor.realtime import TaskSet, analyze

    ts = TaskSet.from_tuples(rows, unit=unit, source="task table")
    if mode == "share":
        result = analyze(ts, share=value, overhead=overhead, policy=policy, speed_scale=speed_scale,
                         progress=progress, cancel=cancel)
        share = value
    else:
        result = analyze(ts, period=value, overhead=overhead, policy=policy, speed_scale=speed_scale,
                         progress=progress, cancel=cancel)
        share = (result.min_budget / value) if result.min_budget and math.isfinite(result.min_budget) else None
    spec = None
    if share and 0 < share <= 1:
        spec = realtime_chart(ts, share, overhead, policy, chosen_period=result.period or result.max_period,
                              result=result if mode == "share" else None, speed_scale=speed_scale)
    return result, spec


class QtRealtimePanel(QWidget):
    """Edit a task set and see its VM period and budget."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.task = TaskSlot("real-time analysis", session.notifier, parent=self)
        self.task.sig_done.connect(self.show_result)
        self.result = None
        self._debounce = QTimer(self, singleShot=True, interval=120)
        self._debounce.timeout.connect(self.recompute)
        self.problems: dict[tuple[int, int], str] = {}
        self._loaded_rt = None  # the workload's task set as last shown (to follow undo and open)
        # what the advice analysed the selected workload with (share, overhead, speed_scale, period),
        # so that the tab opens on the advice's numbers; the share follows the advice until edited
        self.advised: dict | None = None
        self._share_edited = False
        self._setting_share = False

        buttons = self._make_task_table()
        src = self._make_source()
        form = self._make_inputs()
        self._make_results()
        self._assemble(src, buttons, form)

        session.document.sig_changed.connect(lambda _p: self.refresh_workloads())
        session.document.sig_path.connect(lambda _p: self.refresh_workloads(reload=True))
        session.sig_ready.connect(self.recompute)
        session.sig_advice.connect(lambda _a: self._follow_advice())
        self.refresh_workloads(reload=True)

    def _make_task_table(self) -> QHBoxLayout:
        """The task table (paste with Ctrl+V) and the row of its buttons, returned."""
        self.table = SpreadsheetTable(0, 4)
        self.table.setAccessibleName("Real-time tasks")
        self.table.setHorizontalHeaderLabels(["Task", "Period\nT_i", "WCET\nC_i", "Deadline\nD_i"])  # whole at 1024 px
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().hide()
        self.table.setToolTip("Paste rows from a spreadsheet with Ctrl+V: name, period, WCET[, deadline]; the deadline is optional (default: the period)")
        self.table.itemChanged.connect(lambda _i: self._debounce.start())
        QShortcut(QKeySequence.StandardKey.Paste, self.table, activated=self.paste)
        add = self.add_button = QPushButton("&Add task")
        add.setToolTip("A new task row: type its name, then Tab to Period, WCET and Deadline")
        add.clicked.connect(self.add_row)
        rem = QPushButton("Remove")
        rem.clicked.connect(self.remove_rows)
        paste = QPushButton("Paste from spreadsheet")
        paste.setToolTip("Tab-separated rows: name, period, WCET[, deadline] (Ctrl+V in the table)")
        paste.clicked.connect(self.paste)
        buttons = QHBoxLayout()
        for b in (add, rem, paste):
            buttons.addWidget(b)
        buttons.addStretch(1)
        return buttons

    def _make_source(self) -> QHBoxLayout:
        """The workload whose task set is shown, and Save to scenario."""
        self.workload = QComboBox()
        self.workload.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.workload.setMinimumContentsLength(12)
        self.workload.setToolTip("Load the task set of a real-time workload of the scenario")
        self.workload.activated.connect(lambda _i: self.load_workload())
        self.save_button = QPushButton("Save to scenario")
        self.save_button.setToolTip("Write this task set, share and overhead into the selected workload")
        self.save_button.clicked.connect(self.save_to_scenario)
        src = QHBoxLayout()
        src.addWidget(QLabel("Workload:"))
        src.addWidget(self.workload, 1)
        src.addWidget(self.save_button)
        return src

    def _make_inputs(self) -> QFormLayout:
        """Time unit, share or period, overhead and policy; each change re-runs the analysis."""
        self.unit = QComboBox()
        self.unit.addItems(["ms", "us", "s"])
        self.unit.setToolTip("Unit of every time in the table and of the results")
        self.by_share = QRadioButton("Share C_VM/T_VM")
        self.by_period = QRadioButton("Period T_VM")
        self.by_share.setChecked(True)
        self.share = QDoubleSpinBox(decimals=3, minimum=0.001, maximum=1.0, singleStep=0.01, value=0.6)
        self.share.setToolTip("Fraction of a core the VM gets (budget / period)")
        self.period = QDoubleSpinBox(decimals=3, minimum=0.001, maximum=1e6, singleStep=1.0, value=10.0)
        self.period.setToolTip("VM period T_VM in the table's unit: the least budget is computed")
        self.overhead = QDoubleSpinBox(decimals=3, minimum=0.0, maximum=1e5, singleStep=0.05, value=0.1)
        self.overhead.setToolTip("Switching overhead X at the start of each VM execution (table unit)")
        self.policy = QComboBox()
        self.policy.addItems(["rm", "edf"])
        self.policy.setToolTip("Scheduling inside the VM: rate/deadline-monotonic (rm) or EDF")
        for w in (self.share, self.period, self.overhead):
            w.valueChanged.connect(lambda _v: self._debounce.start())
        self.share.valueChanged.connect(self._share_changed)
        for w in (self.unit, self.policy):
            w.currentIndexChanged.connect(lambda _i: self._debounce.start())
        self.by_share.toggled.connect(lambda _c: self._debounce.start())
        from ui.panels.editors import guard_wheel

        guard_wheel(self.share, self.period, self.overhead, self.unit, self.policy, self.workload)
        form = QFormLayout()
        form.addRow("Time unit", self.unit)
        form.addRow(self.by_share, self.share)
        form.addRow(self.by_period, self.period)
        form.addRow("Overhead X", self.overhead)
        form.addRow("Policy in the VM", self.policy)
        return form

    def _make_results(self) -> None:
        """The summary line and the (read-only) response-time table."""
        self.summary = QLabel("Enter tasks to analyse.")
        self.summary.setWordWrap(True)
        self.summary.setObjectName("banner")
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.responses = QTableWidget(0, 5)
        self.responses.setHorizontalHeaderLabels(["Task", "U_i", "R_i", "R_i / D_i", "Meets"])
        self.responses.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.responses.verticalHeader().hide()
        self.responses.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)  # results: read only
        self.responses.setAccessibleName("Response times of the tasks")
        self.responses.setAccessibleDescription("Per task: utilization, worst-case response time, its ratio "
                                                "to the deadline and whether the deadline is met")

    def _assemble(self, src: QHBoxLayout, buttons: QHBoxLayout, form: QFormLayout) -> None:
        """The task set on the left; summary, chart and response times on the right, scrolling."""
        from ui.plots.charts import ChartWidget

        inputs = QGroupBox("Task set")
        il = QVBoxLayout(inputs)
        il.addLayout(src)
        il.addWidget(self.table, 1)
        il.addLayout(buttons)
        il.addLayout(form)
        results = FitPage()  # scrolls only when the minimum does not fit
        rl = QVBoxLayout(results)
        rl.setContentsMargins(0, 0, 0, 0)
        self.chart = ChartWidget()
        rl.addWidget(self.summary)
        rl.addWidget(self.chart, 3)
        rl.addWidget(self.responses, 1)
        split = QSplitter()
        split.addWidget(inputs)
        # the results scroll (vertically only) when a small window or large fonts leave the chart
        # less than it needs: it never shrinks under its legend and caption
        self._fit_minimums()
        results_area = QScrollArea()
        results_area.setWidget(results)
        results_area.setWidgetResizable(True)
        results_area.setFrameShape(QScrollArea.Shape.NoFrame)
        results_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        split.addWidget(results_area)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        split.setSizes([420, 760])
        QVBoxLayout(self).addWidget(split)

    def busy(self) -> bool:
        return self.task.running or self._debounce.isActive()

    def _fit_minimums(self) -> None:
        """The chart keeps room for its plot, legend and caption at the current font size."""
        line = self.fontMetrics().height()
        self.chart.setMinimumHeight(max(260, 16 * line))
        self.responses.setMinimumHeight(5 * line)

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit_minimums()

    # --- table ---------------------------------------------------------------------------
    def set_rows(self, rows) -> None:
        self.table.blockSignals(True)
        self.table.setRowCount(0)
        for r in rows:
            i = self.table.rowCount()
            self.table.insertRow(i)
            for j in range(4):
                v = r[j] if j < len(r) and r[j] is not None else ""
                self.table.setItem(i, j, QTableWidgetItem(fmt_value(v) if isinstance(v, float | int) else str(v)))
        self.table.blockSignals(False)
        self._debounce.start()

    def cells(self) -> list[list[str]]:
        """The table's text, row by row."""
        return [[(self.table.item(i, j).text() if self.table.item(i, j) else "") for j in range(4)]
                for i in range(self.table.rowCount())]

    def rows(self) -> list[tuple]:
        """The good rows as ``(name, period, wcet[, deadline])`` tuples (see :attr:`problems` for
        the others, which :meth:`recompute` marks in the table)."""
        from advisor.realtime.table import read_task_rows

        rows, self.problems = read_task_rows(self.cells(), self.unit.currentText())
        return rows

    def _mark_problems(self) -> None:
        from ui import theme

        c = theme.colors()
        self.table.blockSignals(True)
        for i in range(self.table.rowCount()):
            for j in range(4):
                item = self.table.item(i, j)
                if item is None:
                    item = QTableWidgetItem("")
                    self.table.setItem(i, j, item)
                msg = self.problems.get((i, j), "")
                item.setToolTip(msg)
                item.setBackground(QBrush(QColor(c["bad_bg"])) if msg else QBrush())
                item.setForeground(QBrush(QColor(c["bad"])) if msg else QBrush())
        self.table.blockSignals(False)

    def add_row(self) -> None:
        i = self.table.rowCount()
        self.table.blockSignals(True)
        self.table.insertRow(i)
        self.table.setItem(i, 0, QTableWidgetItem(f"t{i + 1}"))
        self.table.blockSignals(False)
        self.table.setFocus()
        self.table.setCurrentCell(i, 0)  # the cell edited is the current one: Tab goes on to Period
        self.table.editItem(self.table.item(i, 0))

    def remove_rows(self) -> None:
        for r in sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True):
            self.table.removeRow(r)
        self._debounce.start()

    def paste(self, text: str | None = None) -> None:
        """Replace the table with rows pasted from a spreadsheet (the clipboard by default)."""
        text = QGuiApplication.clipboard().text() if not isinstance(text, str) else text
        rows = parse_pasted(text)
        if rows:
            self.set_rows(rows)

    # --- scenario ------------------------------------------------------------------------
    def refresh_workloads(self, reload: bool = False) -> None:
        """Follow the scenario's workloads; show the selected one's task set again when it
        changed in the document (undo, another file) or ``reload``."""
        wls = self.session.document.get(("workloads",), []) or []
        names = [str(w.get("name", "")) for w in wls]
        current = "" if reload else self.workload.currentText()
        has_rt = [str(w.get("name")) for w in wls if w.get("realtime")]
        self.workload.blockSignals(True)
        self.workload.clear()
        self.workload.addItems(names)
        self.workload.setCurrentText(current if current in names else (has_rt[0] if has_rt else
                                                                        (names[0] if names else "")))
        self.workload.blockSignals(False)
        rt = self._workload_rt()
        if reload or rt != self._loaded_rt:
            self.load_workload()

    def _workload_index(self) -> int:
        return self.workload.currentIndex()

    def _workload_rt(self):
        i = self._workload_index()
        return copy.deepcopy(self.session.document.get(("workloads", i, "realtime"))) if i >= 0 else None

    def _share_changed(self, _v) -> None:
        if not self._setting_share:
            self._share_edited = True

    def _set_share(self, value: float) -> None:
        self._setting_share = True
        try:
            self.share.setValue(float(value))
        finally:
            self._setting_share = False

    def _follow_advice(self) -> None:
        """Take the advice's share and core-speed scale for the selected workload (the share only
        while the workload names none and the user has not changed it here)."""
        from advisor.recommend.vm_period_budget import advised_for

        self.advised = advised_for(self.session.advice, self.workload.currentText())
        rt = self._workload_rt() or {}
        if self.advised and not rt.get("share") and not self._share_edited:
            self._set_share(self.advised["share"])
        self._debounce.start()

    def follows_advice(self) -> bool:
        """The share shown is the advice's (not one the workload names or the user set here)."""
        rt = self._workload_rt() or {}
        return bool(self.advised) and not self._share_edited and not rt.get("share")

    def share_value(self) -> float:
        """The share to analyse at: the advice's exact share while the box shows it (the box rounds
        to 3 decimals), else the box's."""
        if self.follows_advice() and abs(self.share.value() - self.advised["share"]) < 5e-4:
            return float(self.advised["share"])
        return self.share.value()

    def speed_scale(self) -> float | None:
        return (self.advised or {}).get("speed_scale")

    def load_workload(self) -> None:
        """Show the selected workload's task set (an empty table when it has none) at the share
        the scenario names, else the advice's share."""
        rt = self._workload_rt()
        self._loaded_rt = copy.deepcopy(rt)
        self._share_edited = False
        self._follow_advice()
        if not rt:
            self.set_rows([])
            return
        unit = rt.get("time_unit", "ms")
        self.unit.setCurrentText(unit if unit in ("ms", "us", "s") else "ms")
        self.overhead.setValue(float(rt.get("overhead", 0.0)))
        if rt.get("share"):
            self._set_share(float(rt["share"]))
            self.by_share.setChecked(True)
        self.set_rows([(t.get("name"), t.get("period"), t.get("wcet"), t.get("deadline"))
                       for t in rt.get("tasks", [])])

    def unsaved_edits(self) -> str | None:
        """What the table holds that the scenario does not (None when nothing): the main window
        counts it as unsaved changes."""
        rt = self._loaded_rt or {}
        saved = [[fmt_value(v) if isinstance(v, float | int) else ("" if v is None else str(v))
                  for v in (t.get("name"), t.get("period"), t.get("wcet"), t.get("deadline"))]
                 for t in rt.get("tasks", [])]
        if self.cells() == saved or self._workload_index() < 0:
            return None
        return f"the real-time task set of {self.workload.currentText()} (Real-time view)"

    def save_edits(self) -> bool:
        """Write the table into the scenario (False when a cell has a problem)."""
        self.save_to_scenario()
        return not self.problems

    def discard_edits(self) -> None:
        self.load_workload()

    def save_to_scenario(self) -> None:
        """Write the task set into the selected workload (one undo step); refused while a cell
        has a problem, so that no task is lost on the way."""
        i = self._workload_index()
        rows = self.rows()
        if i < 0 or self.problems:
            self._mark_problems()
            return
        data = copy.deepcopy(self.session.document.data)
        old = data["workloads"][i].get("realtime") or {}
        # keys this tab does not edit (design_speed_ghz, ...) stay as they are
        rt = {**old, "time_unit": self.unit.currentText(), "overhead": self.overhead.value(),
              "tasks": [dict(zip(COLUMNS, r, strict=False)) for r in rows]}
        if self.by_share.isChecked() and (self._share_edited or old.get("share")):
            rt["share"] = self.share.value()  # the advice's own share stays the advice's choice
        if rows:
            data["workloads"][i]["realtime"] = rt
        else:
            data["workloads"][i].pop("realtime", None)
        self._loaded_rt = copy.deepcopy(data["workloads"][i].get("realtime"))
        self.session.document.replace(data, "Edit real-time task set")

    # --- analysis ------------------------------------------------------------------------
    def recompute(self) -> None:
        rows = self.rows()
        self._mark_problems()
        self.save_button.setEnabled(self._workload_index() >= 0 and not self.problems)
        self.save_button.setToolTip("Fix the red cells first" if self.problems else
                                    "Write this task set, share and overhead into the selected workload")
        if self.problems:
            self.task.cancel()
            self.summary.setProperty("state", "error")
            listing = "<br>".join(f"Task {r + 1}, {('name', 'period', 'WCET', 'deadline')[c]}: {html.escape(m)}"
                                  for (r, c), m in sorted(self.problems.items()))
            self.summary.setText(f"<b>{len(self.problems)} cell(s) to fix</b> before the analysis "
                                 f"(no task is left out):<br>{listing}")
            self.summary.style().polish(self.summary)
            self.result = None
            self.responses.setRowCount(0)
            self._empty_chart("Fix the red cells of the task table")
            return
        if not rows:
            self.summary.setProperty("state", "")
            name = self.workload.currentText()
            self.summary.setText(
                (f"Workload <b>{html.escape(name)}</b> has no real-time tasks. " if name else "")
                + "Add tasks (name, period, WCET, optional deadline) or paste them from a spreadsheet; "
                  "Save to scenario makes them part of the advice.")
            self.summary.style().polish(self.summary)
            self.responses.setRowCount(0)
            self._empty_chart("No tasks to analyse")
            self.result = None
            return
        mode = "share" if self.by_share.isChecked() else "period"
        value = self.share_value() if mode == "share" else self.period.value()
        self.task.start(analyze_tasks, rows, self.unit.currentText(), mode, value, self.overhead.value(),
                        self.policy.currentText(), self.speed_scale())

    def _empty_chart(self, reason: str) -> None:
        from advisor.figures.spec import ChartSpec

        self.chart.set_spec(ChartSpec("realtime", "VM period and budget", "VM period T_VM", self.unit.currentText(),
                                      "Budget C_VM", self.unit.currentText(), empty_reason=reason))

    def show_result(self, out) -> None:
        if self.problems or not self.rows():  # edited meanwhile
            return
        result, spec = out
        self.result = result
        u = result.unit
        if not result.feasible:
            self.summary.setProperty("state", "error")
            text = f"<b>Not schedulable.</b> {result.reason or ''} (utilization {result.utilization:.3f})"
        else:
            self.summary.setProperty("state", "ok")
            ivals = ", ".join(f"[{fmt_value(a)}, {fmt_value(b)}]" for a, b in result.feasible_intervals[:4])
            more = f" and {len(result.feasible_intervals) - 4} more" if len(result.feasible_intervals) > 4 else ""
            if result.share is not None and result.max_period is not None:
                text = (f"<b>Largest VM period T_VM = {fmt_value(result.max_period)} {u}</b>, budget C_VM = "
                        f"{fmt_value(result.budget)} {u} at share {result.share:.3f}; critical task: "
                        f"<b>{result.critical_task}</b>.<br>Utilization {result.utilization:.3f}. "
                        f"Schedulable T_VM intervals ({u}): {ivals}{more}.")
            else:
                text = (f"<b>Least budget C_VM = {fmt_value(result.min_budget)} {u}</b> at T_VM = "
                        f"{fmt_value(result.period)} {u} (share {(result.min_budget or 0) / (result.period or 1):.3f});"
                        f" critical task: <b>{result.critical_task}</b>. Utilization {result.utilization:.3f}.")
        if self.speed_scale():
            text += (f"<br>WCETs scaled by {self.speed_scale():.3g} for the scenario's core speed "
                     "against the task set's design speed, as in the advice.")
        if self.by_share.isChecked() and self.follows_advice():
            text += " The share is the advice's (Recommendations tab)."
        self.summary.setText(text)
        self.summary.style().polish(self.summary)
        self.responses.setRowCount(len(result.tasks))
        for i, t in enumerate(result.tasks):
            vals = (t.name, f"{t.utilization:.3f}", fmt_value(t.response_time) + f" {u}" if t.response_time else "—",
                    f"{t.ratio:.3f}" if t.ratio is not None else "—",
                    "yes" if t.meets_deadline else ("no" if t.meets_deadline is not None else "—"))
            for j, v in enumerate(vals):
                self.responses.setItem(i, j, QTableWidgetItem(str(v)))
        if spec is not None:
            self.chart.set_spec(spec)

    def on_theme_changed(self) -> None:
        self.chart.on_theme_changed()
