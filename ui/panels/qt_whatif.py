"""What-if: sliders for the inputs that matter most; charts and readings follow at once, and the
recommendations for the changed scenario are recomputed in a worker (debounced).

The fast path (model sweeps of one chart, about a millisecond each) runs on the GUI thread; the
real-time analysis and the advice run in workers, one task each, a new move cancelling the old.
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
    QSlider,
    QVBoxLayout,
    QWidget,
)

from advisor.figures.whatif import INPUTS, Input, apply_inputs, default_inputs, readings
from ui.tablemodels import fmt_value
from ui.workers import TaskSlot

#: the charts of the panel, in reading order (the large workshop layout shows the first four)
CHART_KEYS = ("cache_mode", "overallocation_overhead", "image_transfer", "realtime", "cpu_utilization",
              "migration_downtime")


def advise_data(data: dict, kb, site, userdb_path, progress=None, cancel=None):
    """Worker: the Advice for scenario data (what-if variant)."""
    from advisor.engine import advise
    from knowledge.userdb import UserDatabase

    with UserDatabase(userdb_path) as db:
        return advise(data, kb=kb, site=site or None, userdb=db, progress=progress, cancel=cancel)


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
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, int(round((self.hi - self.lo) / self.step)))
        self.slider.setToolTip(f"{label} ({self.unit}); arrow keys step, Page Up/Down jump")
        self.slider.setPageStep(max(1, self.slider.maximum() // 10))
        self.title = QLabel(label)
        self.value_label = QLabel()
        self.value_label.setObjectName("figure")
        self.value_label.setAlignment(Qt.AlignmentFlag.AlignRight)
        top = QHBoxLayout()
        top.addWidget(self.title)
        top.addWidget(self.value_label)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 4, 0, 4)
        lay.addLayout(top)
        lay.addWidget(self.slider)
        self.slider.valueChanged.connect(self._changed)

    def value(self) -> float:
        return self.lo + self.slider.value() * self.step

    def set_value(self, v: float, emit: bool = False) -> None:
        if v > self.hi:  # the scenario is beyond the usual range: the slider reaches it
            self.hi = self.lo + math.ceil((v * 1.5 - self.lo) / self.step) * self.step
            self.slider.blockSignals(True)
            self.slider.setRange(0, int(round((self.hi - self.lo) / self.step)))
            self.slider.blockSignals(False)
        self.slider.blockSignals(not emit)
        self.slider.setValue(int(round((min(max(v, self.lo), self.hi) - self.lo) / self.step)))
        self.slider.blockSignals(False)
        self._show()

    def _show(self) -> None:
        self.value_label.setText(f"<b>{fmt_value(self.value())}</b> {self.unit}")

    def _changed(self, _v: int) -> None:
        self._show()
        self.sig_moved.emit(self.name, self.value())


class QtWhatIfPanel(QWidget):
    """Sliders on the left, live readings and decisions on top, charts in a grid."""

    def __init__(self, session, parent=None, large: bool = False):
        super().__init__(parent)
        from ui.plots.charts import ChartWidget

        self.session = session
        self.large = large
        self.inputs: dict[str, float] = {}
        self.latencies_ms: list[float] = []
        self.rt_task = TaskSlot("what-if real-time", session.notifier, parent=self)
        self.rt_task.sig_done.connect(lambda spec: self.charts["realtime"].set_spec(spec))
        self.advice_task = TaskSlot("what-if advice", session.notifier, parent=self)
        self.advice_task.sig_done.connect(self.show_decisions)
        self._advice_timer = QTimer(self, singleShot=True)
        self._advice_timer.timeout.connect(self.run_advice)
        self._rt_timer = QTimer(self, singleShot=True)
        self._rt_timer.timeout.connect(self.run_realtime)
        self.on_settings_changed()

        self.sliders: dict[str, _Slider] = {}
        box = QGroupBox("Move the inputs")
        bl = QVBoxLayout(box)
        for name, spec in INPUTS.items():
            s = _Slider(name, spec)
            s.sig_moved.connect(self.on_moved)
            self.sliders[name] = s
            bl.addWidget(s)
        self.readings = QLabel()
        self.readings.setWordWrap(True)
        self.readings.setTextFormat(Qt.TextFormat.RichText)
        bl.addWidget(_rule())
        bl.addWidget(self.readings)
        bl.addStretch(1)
        box.setMinimumWidth(260 if not large else 300)
        box.setMaximumWidth(360 if not large else 460)

        self.decisions = QLabel("Recommendations follow the sliders.")
        self.decisions.setObjectName("banner")
        self.decisions.setWordWrap(True)
        self.decisions.setTextFormat(Qt.TextFormat.RichText)

        self.charts: dict[str, ChartWidget] = {}
        grid_host = QWidget()
        grid = QGridLayout(grid_host)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setSpacing(8)
        keys = CHART_KEYS[:4] if large else CHART_KEYS
        cols = 2 if large else 3
        for i, key in enumerate(keys):
            chart = ChartWidget(compact=True)
            self.charts[key] = chart
            grid.addWidget(chart, i // cols, i % cols)
        right = QVBoxLayout()
        right.addWidget(self.decisions)
        right.addWidget(grid_host, 1)
        root = QHBoxLayout(self)
        root.addWidget(box)
        root.addLayout(right, 1)
        session.sig_ready.connect(self.reset_from_scenario)
        session.sig_advice.connect(self._on_session_advice)
        self.reset_from_scenario()

    def on_settings_changed(self) -> None:
        """Follow the preferences: the what-if delay (the advice waits four times as long)."""
        delay = self.session.settings.whatif_debounce_ms
        self._rt_timer.setInterval(max(1, delay))
        self._advice_timer.setInterval(max(1, delay * 4))

    def busy(self) -> bool:
        return (self.rt_task.running or self.advice_task.running or self._advice_timer.isActive()
                or self._rt_timer.isActive())

    # --- inputs --------------------------------------------------------------------------
    def reset_from_scenario(self) -> None:
        """Put the sliders where the advice is (its own numbers: the charts then mark the cards'
        figures), and draw everything."""
        s = self.session.document.scenario
        if s is None:
            return
        for name, v in default_inputs(self.session.advice, s).items():
            self.sliders[name].set_value(v)
            self.inputs[name] = v  # exact, not the slider's step: the marks stay on the cards' figures
        if self.session.kb is not None:
            for key in self.charts:
                self.update_chart(key)
            self.update_readings()
            self._advice_timer.start()

    def on_moved(self, name: str, value: float) -> None:
        """A slider moved: redraw its charts now (fast path), debounce the slow parts."""
        t0 = time.perf_counter()
        self.inputs[name] = value
        if self.session.kb is None:
            return
        for key in INPUTS[name].charts:
            if key in self.charts:
                self.update_chart(key)
        self.update_readings()
        self._advice_timer.start()
        self.latencies_ms.append((time.perf_counter() - t0) * 1000)

    def update_chart(self, key: str) -> None:
        if key == "realtime":
            self._rt_timer.start()
            return
        from advisor.figures.charts import safe_chart

        spec = safe_chart(key, self.session.kb, self.session.document.scenario, self.session.advice, self.inputs)
        self.charts[key].set_spec(spec)

    def run_realtime(self) -> None:
        self.rt_task.start(realtime_data, self.session.kb, self.session.document.scenario, self.session.advice,
                           dict(self.inputs))

    def run_advice(self) -> None:
        from knowledge.infra.paths import user_db_path

        if self.session.kb is None or self.session.document.problems:
            return
        data = apply_inputs(self.session.document.data, self.inputs)
        self.advice_task.start(advise_data, data, self.session.kb, self.session.site, user_db_path())

    # --- readings ------------------------------------------------------------------------
    def update_readings(self) -> None:
        specs = {k: c.spec for k, c in self.charts.items()}
        lines = []
        for heading, values in readings(specs, self.inputs):
            parts = ", ".join(f"{'<b>' if hi else ''}{_esc(n)}: {fmt_value(v)} {_esc(u)}{'</b>' if hi else ''}"
                              for n, v, u, hi in values[:3])
            lines.append(f"<u>{_esc(heading)}</u><br>{parts}")
        self.readings.setText("<br>".join(lines))

    def _on_session_advice(self, _advice) -> None:
        if not self.inputs:
            self.reset_from_scenario()

    def show_decisions(self, advice) -> None:
        from advisor.recommend import catalog
        from ui.panels.qt_recommendations import choice_text, decision_title
        base = self.session.advice
        parts = []
        for d in catalog.headline():
            rec = advice.first(d)
            if rec is None:
                continue
            was = base.first(d, rec.scope) if base is not None else None
            changed = was is not None and choice_text(was) != choice_text(rec)
            if changed and rec.value is not None and was.value is not None:
                changed = abs(rec.value - was.value) > 0.01 * max(abs(was.value), 1e-9)
            txt = f"{_esc(decision_title(d))}: <b>{_esc(choice_text(rec))}</b>"
            if changed:
                txt = f"<span style='color:{_accent()}'>{txt} (was {_esc(choice_text(was))})</span>"
            parts.append(txt)
        self.decisions.setText(" &nbsp;·&nbsp; ".join(parts))
        self.last_whatif_advice = advice

    def on_theme_changed(self) -> None:
        for c in self.charts.values():
            c.on_theme_changed()


def _esc(text: str) -> str:
    return html.escape(str(text), quote=False)


def _accent() -> str:
    from ui import theme

    return theme.colors()["accent"]


def _rule() -> QFrame:
    f = QFrame()
    f.setFrameShape(QFrame.Shape.HLine)
    return f
