"""Plots: the measurements and model curves behind the advice, one chart per question, the
recommended option highlighted. Data is gathered in a worker; charts redraw when the advice changes."""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QGridLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from advisor.expected import INTERVAL_LEVEL
from advisor.figures import registry
from ui.workers import TaskSlot

#: chart keys of this tab, in reading order
KEYS = registry.keys(registry.PLOTS)


def chart_data(kb, scenario, advice, userdb_path, site, progress=None, cancel=None):
    """Worker: every chart of the tab (see :func:`advisor.figures.charts.build_charts`)."""
    from advisor.figures.charts import build_charts

    return build_charts(kb, scenario, advice, {}, KEYS, userdb_path, site, progress, cancel)


class QtPlotsPanel(QWidget):
    """A scrollable grid of charts (two per row; a last one alone takes the whole row)."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        from ui.plots.charts import ChartWidget

        self.session = session
        self.task = TaskSlot("plots", session.notifier, parent=self)
        self.task.sig_done.connect(self.set_specs)
        self.charts: dict[str, ChartWidget] = {}
        self.info = QLabel("Hover a point to see its document, locator and row; the thick line is the "
                           f"recommended option; bands are {round(100 * INTERVAL_LEVEL)} % intervals.")
        self.info.setObjectName("subtitle")
        self.info.setWordWrap(True)
        host = QWidget()
        grid = QGridLayout(host)
        grid.setSpacing(10)
        for i, key in enumerate(KEYS):
            chart = ChartWidget()
            chart.setMinimumHeight(330)
            self.charts[key] = chart
            alone = i == len(KEYS) - 1 and i % 2 == 0  # the last chart of an odd number: the row's width
            grid.addWidget(chart, i // 2, i % 2, 1, 2 if alone else 1)
        area = QScrollArea()
        area.setWidget(host)
        area.setWidgetResizable(True)
        area.setFrameShape(QScrollArea.Shape.NoFrame)
        self._grid = grid
        area.viewport().installEventFilter(self)
        lay = QVBoxLayout(self)
        lay.addWidget(self.info)
        lay.addWidget(area, 1)
        session.sig_advice.connect(lambda _a: self.refresh())
        session.sig_ready.connect(self.refresh)
        session.sig_sites_changed.connect(self.refresh)
        self.refresh()

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Resize:
            self._fit_charts(watched.height())
        return super().eventFilter(watched, event)

    def _fit_charts(self, view_height: int) -> None:
        """No chart taller than the view: scrolled to, it is seen whole, its legend's last line
        included (was: each chart asked for its plot's 480 px plus title and legend, 628 px in a
        553 px view at 1280x720, and the cache-mode legend's third line sat under the view's edge).
        The plot gives way; the chart's layout keeps the wrapped legend at its height for the width."""
        top, _, _, bottom = self._grid.getContentsMargins()
        cap = max(330, view_height - top - bottom)
        for chart in self.charts.values():
            chart.setMaximumHeight(cap)

    def busy(self) -> bool:
        return self.task.running

    def refresh(self) -> None:
        s = self.session
        if s.kb is None or s.document.scenario is None:
            return
        from knowledge.infra.paths import user_db_path

        self.task.start(chart_data, s.kb, s.document.scenario, s.advice, user_db_path(), s.site)

    def set_specs(self, specs: dict) -> None:
        for key, spec in specs.items():
            if key in self.charts:
                self.charts[key].set_spec(spec)

    def on_theme_changed(self) -> None:
        for c in self.charts.values():
            c.on_theme_changed()
