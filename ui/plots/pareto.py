"""The chart of a design-space search: :class:`~advisor.optimize.chart.ParetoFigure` drawn by the
application's chart widget; clicking a point emits its design."""

from __future__ import annotations

from PySide6.QtCore import Signal

from ui.plots.charts import ChartWidget

CLICK_HINT = "Click a point to load its design into the scenario (Edit ▸ Undo takes it back)."


class ParetoChart(ChartWidget):
    """``sig_design(candidate)`` when a point is clicked."""

    sig_design = Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.figure = None

    def set_figure(self, fig) -> None:
        self.figure = fig
        self._items = None  # always rebuilt: the click handlers belong to the new points
        self.set_spec(fig.spec)
        if fig.spec.caption and not fig.spec.empty_reason:  # what a click does: the window's words, not a file's
            self.caption.setText(f"{fig.spec.caption} {CLICK_HINT}")
        for p, scatter in zip(fig.spec.points, (self._items or {}).get("points", []), strict=False):
            scatter.sigClicked.connect(lambda _item, points, _ev=None, name=p.name: self._clicked(name, points))

    def _clicked(self, name: str, points) -> None:
        if self.figure is None or points is None or len(points) == 0:
            return
        candidate = self.figure.design_at(name, int(points[0].index()))
        if candidate is not None:
            self.sig_design.emit(candidate)
