"""What-if: sliders for the inputs that matter most. Scenario inputs (VMs, planned hosts, image
size, real-time share, a shift of the growth rates) re-advise the changed scenario: the summary shows
the new choices, host count and the year the planned hosts run out next to the old ones; Reset puts every slider back, Apply to scenario makes the changes one
undoable edit. Chart inputs (over-allocation, request load) move the charts' readings only.

The state lives in :mod:`ui.whatif_state` (one per session: the tab and workshop mode show the
same sliders). The fast path (model sweeps of one chart, about a millisecond each) runs on the GUI
thread; the real-time analysis and the advice run in workers, a new move cancelling the old.
"""

from __future__ import annotations

import html
import math
import time

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from advisor.figures import registry
from advisor.figures.whatif import INPUTS, Input, growth_note, inputs_of, readings, runs_out_phrase
from advisor.text import plural
from ui.scrolling import FitPage
from ui.slider_access import ValueSlider
from ui.tablemodels import fmt_value
from ui.whatif_state import state_for
from ui.workers import TaskSlot

#: the charts of the panel, in reading order (the large workshop layout shows its own)
CHART_KEYS = registry.keys(registry.WHATIF)
#: charts shown only while they have something to draw (the timeline: a scenario with growth); shown,
#: they come first and two columns wide (the chart the growth slider moves, in view without scrolling)
SHOWN_WHEN_DRAWN = frozenset({"timeline"})


def realtime_data(kb, scenario, advice, inputs, progress=None, cancel=None):
    """Worker: the real-time chart at the slider's share."""
    from advisor.figures.charts import realtime_scenario_chart

    return realtime_scenario_chart(kb, scenario, advice, inputs)


class _Slider(QWidget):
    sig_moved = Signal(str, float)

    def __init__(self, name: str, spec: Input, parent=None):
        super().__init__(parent)
        self.name = name
        label, self.unit, self.lo, self.hi, self.step = spec.label, spec.unit, spec.minimum, spec.maximum, spec.step
        self.slider = ValueSlider(Qt.Orientation.Horizontal, self.lo, self.step, self.unit, fmt_value)
        self.slider.set_grid(self.lo, self.hi)
        self.slider.setObjectName(f"slider_{name}")
        self.slider.setToolTip(f"{spec.tip}. {label} ({self.unit}); drag, or arrow keys step, Page Up/Down jump"
                               if spec.tip else f"{label} ({self.unit}); arrow keys step, Page Up/Down jump")
        self.slider.setPageStep(max(1, self.slider.maximum() // 10))
        self.title = QLabel(label)
        self.title.setWordWrap(True)
        self.title.setToolTip(spec.tip)
        self.title.setBuddy(self.slider)
        self.slider.setAccessibleName(f"{label} ({self.unit})" if self.unit else label)
        self._tip = spec.tip
        self.value_label = QLabel()
        self.value_label.setObjectName("figure")
        self.value_label.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Preferred)  # never cut
        self.value_label.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.note = QLabel()  # what the value sets, where that is not the value itself (the growth rates)
        self.note.setObjectName("hint")
        self.note.setWordWrap(True)
        self.note.hide()
        # the title on its own line, the value beside the slider: both stay whole in a narrow column
        row = QHBoxLayout()
        row.addWidget(self.slider, 1)
        row.addWidget(self.value_label)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 4, 0, 4)
        lay.setSpacing(2)
        lay.addWidget(self.title)
        lay.addLayout(row)
        lay.addWidget(self.note)
        self.slider.valueChanged.connect(self._changed)

    def set_note(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def value(self) -> float:
        return self.slider.real_value()

    def set_range(self, lo: float, hi: float, advised: float | None = None) -> None:
        """The values the slider offers: steps from ``lo`` to ``hi`` and the ``advised`` value itself
        (the scenario's, shown as it is when it falls between steps); keeps its value where it can."""
        if (lo, hi, advised) == (self.lo, self.hi, self.slider.point):
            return
        v = self.value()
        self.lo, self.hi = lo, hi
        self.slider.blockSignals(True)
        self.slider.set_grid(lo, hi, advised)
        self.slider.setPageStep(max(1, self.slider.maximum() // 10))
        self.slider.blockSignals(False)
        self.set_value(v)

    def set_value(self, v: float, emit: bool = False) -> None:
        if v > self.hi:  # the scenario is beyond the usual range: the slider reaches it
            self.hi = self.lo + math.ceil((v * 1.5 - self.lo) / self.step) * self.step
            self.slider.blockSignals(True)
            self.slider.set_grid(self.lo, self.hi, self.slider.point)
            self.slider.blockSignals(False)
        self.slider.blockSignals(not emit)
        self.slider.setValue(self.slider.position_of(v))
        self.slider.blockSignals(False)
        self._show()

    def _show(self) -> None:
        sign = "+" if self.lo < 0 < self.value() else ""  # a shift: +10, 0, -10
        self.value_label.setText(f"<b>{sign}{fmt_value(self.value())}</b> {self.unit}")
        self.slider.setAccessibleDescription(f"Now {fmt_value(self.value())} {self.unit}. {self._tip}".strip())
        self.slider.announce()

    def _changed(self, _v: int) -> None:
        self._show()
        self.sig_moved.emit(self.name, self.value())


class QtWhatIfPanel(QWidget):
    """Sliders, Reset and Apply on the left; the what-if advice's summary on top; charts in a grid."""

    def __init__(self, session, parent=None, large: bool = False):
        super().__init__(parent)
        self.session = session
        self.large = large
        self.look = "workshop" if large else None  # the workshop's look is its own (ui/window_workshop.py)
        self.state = state_for(session)
        self.latencies_ms: list[float] = []
        self.rt_task = TaskSlot("what-if real-time", session.notifier, parent=self)
        self.rt_task.sig_done.connect(lambda spec: self.charts["realtime"].set_spec(spec))
        self._rt_timer = QTimer(self, singleShot=True)
        self._rt_timer.timeout.connect(self.run_realtime)
        self.on_settings_changed()

        root = QHBoxLayout(self)
        self.slider_area = self._build_sliders()
        root.addWidget(self.slider_area)
        root.addLayout(self._build_charts(), 1)
        self.state.sig_inputs.connect(self.on_inputs)
        self.state.sig_advice.connect(self.show_decisions)
        session.sig_ready.connect(lambda: self.on_inputs(""))
        self.on_inputs("", draw=self.state.advice is None)  # with an advice, show_decisions draws each chart once
        self.show_decisions(self.state.advice)

    def _build_sliders(self) -> QScrollArea:
        """The sliders, Apply, Reset and the chart readings, in a scroll area (the left column)."""
        large = self.large
        self.sliders: dict[str, _Slider] = {}
        box = QGroupBox("What if…")
        bl = QVBoxLayout(box)
        for kind, heading in (("scenario", "Change the scenario (re-advised)"), ("chart", "Read the charts at")):
            label = QLabel(heading)
            label.setObjectName("subheading")
            label.setWordWrap(True)
            bl.addWidget(label)
            for name in inputs_of(kind):
                s = _Slider(name, INPUTS[name])
                s.sig_moved.connect(self.on_moved)
                self.sliders[name] = s
                bl.addWidget(s)
        self.reset_button = QPushButton("&Reset")
        self.reset_button.setObjectName("whatifReset")
        self.reset_button.setToolTip("Every slider back to the scenario and its advice")
        self.reset_button.clicked.connect(self.state.reset)
        self.apply_button = QPushButton("&Apply to scenario")
        self.apply_button.setObjectName("whatifApply")
        self.apply_button.setToolTip("Make the changed VMs, hosts, image size, real-time share and growth rates "
                                     "part of the scenario (one step, Ctrl+Z undoes it)")
        self.apply_button.clicked.connect(self.state.apply)
        bl.addWidget(self.apply_button)
        bl.addWidget(self.reset_button)
        self.readings = QLabel()
        self.readings.setWordWrap(True)
        self.readings.setTextFormat(Qt.TextFormat.RichText)
        bl.addWidget(_rule())
        bl.addWidget(self.readings)
        bl.addStretch(1)
        box.setMinimumWidth(240 if not large else 280)
        box.setMaximumWidth(360 if not large else 440)
        left = QScrollArea()
        left.setWidget(box)
        left.setWidgetResizable(True)
        left.setFrameShape(QScrollArea.Shape.NoFrame)
        left.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        left.setMaximumWidth(box.maximumWidth() + 20)
        left.setMinimumWidth(box.minimumWidth() + 12)
        return left

    def _build_charts(self) -> QVBoxLayout:
        """The what-if advice's summary over the charts' grid (the right column)."""
        from ui.plots.charts import ChartWidget

        large = self.large
        self.decisions = QLabel("Recommendations follow the sliders.")
        self.decisions.setObjectName("banner")
        self.decisions.setWordWrap(True)
        self.decisions.setTextFormat(Qt.TextFormat.RichText)
        self.charts: dict[str, ChartWidget] = {}
        grid_host = FitPage()  # scrolls only when the minimum does not fit
        self.grid = QGridLayout(grid_host)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(8)
        keys = registry.keys(registry.WORKSHOP) if large else CHART_KEYS
        for key in keys:
            self.charts[key] = ChartWidget(compact=True)
            self.charts[key].look = self.look
            self.charts[key].on_theme_changed()
        self._grid_columns = 0
        self._hidden = {k for k in self.charts if k in SHOWN_WHEN_DRAWN}  # shown once they have data
        for key in self._hidden:
            self.charts[key].setVisible(False)
        right = QVBoxLayout()
        right.addWidget(self.decisions)
        # the tab: as many columns as fit, more charts below; the workshop: four charts two by two,
        # in view unless their texts would no longer fit (a small screen, large fonts): then it scrolls
        self.chart_area = QScrollArea()
        self.chart_area.setWidget(grid_host)
        self.chart_area.setWidgetResizable(True)
        self.chart_area.setFrameShape(QScrollArea.Shape.NoFrame)
        self.chart_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        right.addWidget(self.chart_area, 1)
        self._arrange_charts(2 if large else 3)
        return right

    def _arrange_charts(self, columns: int) -> None:
        """Lay the charts out in ``columns`` columns (each at least about 26 characters wide)."""
        if columns == self._grid_columns:
            return
        self._grid_columns = columns
        for chart in self.charts.values():
            self.grid.removeWidget(chart)
        shown = [k for k in self.charts if k not in self._hidden]
        shown.sort(key=lambda k: k not in SHOWN_WHEN_DRAWN)  # the timeline first
        cell = 0
        for key in shown:
            chart = self.charts[key]
            span = 2 if key in SHOWN_WHEN_DRAWN and columns >= 2 and not self.large else 1
            if cell % columns + span > columns:
                cell += columns - cell % columns
            self.grid.addWidget(chart, cell // columns, cell % columns, 1, span)
            cell += span
            if not self.large:
                chart.min_floor = max(220, 14 * self.fontMetrics().height())
                chart.setMinimumHeight(chart.min_floor)
        for c in range(3):
            self.grid.setColumnStretch(c, 1 if c < columns else 0)
        rows = (cell + columns - 1) // columns
        for r in range(max(rows, self.grid.rowCount())):
            self.grid.setRowStretch(r, 1 if r < rows else 0)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if self.large:  # a small screen: the sliders a third of the width, the charts the rest
            area = self.slider_area
            area.setMaximumWidth(max(area.minimumWidth(), min(area.widget().maximumWidth() + 20, self.width() // 3)))
        if not self.large:
            width = self.chart_area.viewport().width() if self.chart_area.isVisible() else self.width() * 2 // 3
            per_chart = 30 * self.fontMetrics().averageCharWidth()
            self._arrange_charts(max(1, min(3, width // max(per_chart, 1))))

    def on_settings_changed(self) -> None:
        """Follow the preferences: the what-if delay."""
        delay = self.session.settings.whatif_debounce_ms
        self._rt_timer.setInterval(max(1, delay))
        self.state.on_settings_changed()

    def busy(self) -> bool:
        return self.rt_task.running or self._rt_timer.isActive() or self.state.busy()

    @property
    def inputs(self) -> dict[str, float]:
        return self.state.inputs

    @property
    def advice_task(self):
        """The worker that re-advises the what-if scenario (shared with the other views)."""
        return self.state.task

    # --- inputs --------------------------------------------------------------------------
    def on_moved(self, name: str, value: float) -> None:
        """A slider moved: the shared state moves (every view follows)."""
        self.state.set(name, value)

    def on_inputs(self, name: str, draw: bool = True) -> None:
        """The state moved (``""``: every input): sliders, charts (unless not ``draw``) and readings follow."""
        t0 = time.perf_counter()
        names = [name] if name else list(INPUTS)
        for n in names:
            if n in self.sliders:
                self.sliders[n].set_range(*self.state.model.bounds(n), self.state.model.defaults.get(n))
                self.sliders[n].set_value(self.state.inputs.get(n, self.sliders[n].value()))
        if "growth_shift" in names and "growth_shift" in self.sliders:
            self.sliders["growth_shift"].set_note(
                "→ " + growth_note(self.state.model.base, self.state.inputs.get("growth_shift", 0.0))
                if self.state.model.base else "")
        self._update_buttons()
        if self.session.kb is None or not draw:
            return
        keys = set()
        for n in names:
            keys.update(INPUTS[n].charts if n in INPUTS else ())
        for key in (self.charts if not name else keys):
            if key in self.charts:
                self.update_chart(key)
        self.update_readings()
        if name:
            self.latencies_ms.append((time.perf_counter() - t0) * 1000)

    def _update_buttons(self) -> None:
        moved = self.state.moved()
        self.apply_button.setEnabled(bool(moved))
        self.reset_button.setEnabled(bool(self.state.model.moved(None)))
        changed = self.state.model.moved(None)
        for n, s in self.sliders.items():
            if bool(s.title.property("moved")) != (n in changed):
                s.title.setProperty("moved", n in changed)
                s.title.style().unpolish(s.title)
                s.title.style().polish(s.title)

    def _scenario_and_advice(self):
        advice = self.state.advice or self.session.advice
        scenario = advice.scenario if advice is not None else self.session.document.scenario
        return scenario, advice

    def update_chart(self, key: str) -> None:
        if key == "realtime":
            self._rt_timer.start()
            return
        scenario, advice = self._scenario_and_advice()
        spec = self.state.chart(key, scenario, advice, self.state.inputs)
        self.charts[key].set_spec(spec)
        if key in SHOWN_WHEN_DRAWN and (key in self._hidden) != spec.empty:  # the timeline: only with growth
            self._hidden.symmetric_difference_update({key})
            columns, self._grid_columns = self._grid_columns, 0
            self._arrange_charts(columns)  # laid out (in the page) before it shows
            self.charts[key].setVisible(not spec.empty)

    def run_realtime(self) -> None:
        scenario, advice = self._scenario_and_advice()
        self.rt_task.start(realtime_data, self.session.kb, scenario, advice, dict(self.state.inputs))

    # --- readings ------------------------------------------------------------------------
    def update_readings(self) -> None:
        specs = {k: c.spec for k, c in self.charts.items()}
        lines = []
        for heading, values in readings(specs, self.state.inputs):
            parts = ", ".join(f"{'<b>' if hi else ''}{_esc(n)}: {fmt_value(v)} {_esc(u)}{'</b>' if hi else ''}"
                              for n, v, u, hi in values[:3])
            lines.append(f"<u>{_esc(heading)}</u><br>{parts}")
        self.readings.setText("<br>".join(lines))

    def show_decisions(self, advice) -> None:
        """The headline decisions of the what-if advice; what differs from the scenario's advice
        is highlighted with its value before."""
        from advisor.figures.summary import cost_summary, priced, summary

        self._update_buttons()
        moved = self.state.model.describe()
        if advice is None:
            self.decisions.setText(f"<i>Re-advising: {_esc(moved)}…</i>" if moved else
                                   "Recommendations follow the sliders.")
            return
        base = {(i.decision, i.scope): i for i in summary(self.session.advice)} if self.session.advice else {}
        parts = []
        for item in summary(advice):
            was = base.get((item.decision, item.scope))
            changed = was is not None and was.choice != item.choice
            txt = f"{_esc(item.title)}: <b>{_esc(item.choice)}</b>"
            if item.decision == "host_count":  # the planned count follows the slider, and says if too few
                txt = _hosts_text(item, advice, self.look)
            if changed:
                txt = f"<span style='color:{_accent(self.look)}'>{txt} (was {_esc(was.choice)})</span>"
            parts.append(txt)
        parts += _runs_out_part(advice, self.session.advice, self.look)
        from advisor.cost import money, signed

        # the bill of the hosts planned (the advice's own prices the needed ones), and how it moved
        cost, was_cost = self.state.cost_of(advice), self.state.cost_of(self.session.advice)
        if cost is not None and not priced(cost):
            parts.append(_esc(cost_summary(advice)))
        elif cost is not None:
            n = plural(cost.design.get("hosts") or 0, "hosts")
            txt = f"Cost of {n}: <b>{_esc(money(cost.total, cost.currency))}</b> over {cost.years:g} years"
            if was_cost is not None and advice is not self.session.advice and abs(cost.total - was_cost.total) >= 0.5:
                txt = (f"<span style='color:{_accent(self.look)}'>{txt} ({_esc(signed(cost.total - was_cost.total))})"
                       "</span>")
            parts.append(txt)
        head = (f"<b>What if</b> {_esc(moved)}:<br>" if moved and advice is not self.session.advice else "")
        self.decisions.setText(head + " &nbsp;·&nbsp; ".join(parts))
        self.last_whatif_advice = advice
        if self.session.kb is not None:
            for key in self.charts:  # the marks follow the what-if advice
                self.update_chart(key)
            self.update_readings()

    def on_theme_changed(self) -> None:
        for c in self.charts.values():
            c.on_theme_changed()


def hosts_planned_text(planned: int, needed: int) -> tuple[str, bool]:
    """``10 hosts planned: too few, the workloads need 12`` (and True: too few), or
    ``10 hosts planned (5 needed)``; one host is ``1 host``."""
    if planned < needed:
        return f"{plural(planned, 'hosts')} planned: too few, the workloads need {plural(needed, 'hosts')}", True
    if planned == needed:
        return f"{plural(planned, 'hosts')} planned (as needed)", False
    return f"{plural(planned, 'hosts')} planned ({needed} needed)", False


def _runs_out_part(advice, base, look) -> list[str]:
    """``Planned hosts run out: year 3 (ram) (was year 4 (ram))``: the growth timeline's verdict,
    highlighted when the what-if moved it; nothing without growth."""
    now = runs_out_phrase(getattr(advice, "timeline", None))
    if not now:
        return []
    was = runs_out_phrase(getattr(base, "timeline", None)) if base is not None and base is not advice else ""
    txt = f"Planned hosts run out: <b>{_esc(now)}</b>"
    if was and was != now:
        txt = f"<span style='color:{_accent(look)}'>{txt} (was {_esc(was)})</span>"
    return [txt]


def _hosts_text(item, advice, look) -> str:
    from ui import theme

    planned = getattr(getattr(getattr(advice, "scenario", None), "hosts", None), "count", None)
    if planned is None or item.value is None:
        return f"{_esc(item.title)}: <b>{_esc(item.choice)}</b>"
    text, too_few = hosts_planned_text(int(planned), int(round(item.value)))
    txt = f"{_esc(item.title)}: <b>{_esc(text)}</b>"
    return f"<span style='color:{theme.colors(look)['bad']}'>{txt}</span>" if too_few else txt


def _esc(text: str) -> str:
    return html.escape(str(text), quote=False)


def _accent(look: str | None = None) -> str:
    from ui import theme

    return theme.colors(look)["accent"]


def _rule() -> QFrame:
    f = QFrame()
    f.setFrameShape(QFrame.Shape.HLine)
    return f
