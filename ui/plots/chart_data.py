"""A chart's numbers as a table a screen reader can read, and as text to paste into a
spreadsheet: one row per drawn value (curves, measured points, lines, shaded ranges and the
advice's marks), with the axes' quantities and units as column headers."""

from __future__ import annotations

import math

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from advisor.figures.spec import ChartSpec
from ui.plots.axes import plain_number

#: at most this many rows per curve (a curve is sampled evenly; its ends are always kept)
CURVE_ROWS = 25


def _num(value) -> str:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return ""
    return plain_number(float(f"{v:.4g}")) if math.isfinite(v) else ""


def _header(name: str, unit: str) -> str:
    return f"{name} ({unit})" if unit else name


def chart_table(spec: ChartSpec) -> tuple[list[str], list[list[str]]]:
    """(column headers, rows) of everything ``spec`` draws."""
    headers = ["Series", "Kind", _header(spec.x_label, spec.x_unit), _header(spec.y_label, spec.y_unit),
               "Low", "High", "Note"]
    rows: list[list[str]] = []
    for c in spec.curves:
        n = len(c.x)
        step = max(1, math.ceil(n / CURVE_ROWS))
        picks = sorted(set(range(0, n, step)) | ({n - 1} if n else set()))
        kind = "model curve, recommended" if c.highlight else "model curve"
        for i in picks:
            rows.append([c.name, kind, _num(c.x[i]), _num(c.mean[i]),
                         _num(c.low[i]) if c.low is not None else "", _num(c.high[i]) if c.high is not None else "",
                         "extrapolated" if c.extrapolated is not None and bool(c.extrapolated[i]) else ""])
    for p in spec.points:
        for i in range(len(p.x)):
            rows.append([p.name, "measured", _num(p.x[i]), _num(p.y[i]), "", "", p.tips[i] if i < len(p.tips) else ""])
    for line in spec.lines:
        if line.slope is not None:
            rows.append([line.label, "sloped line", "", "", "", "", f"y = {_num(line.slope)} x + {_num(line.pos)}"])
        elif line.axis == "x":
            rows.append([line.label, "vertical line", _num(line.pos), "", "", "", line.kind])
        else:
            rows.append([line.label, "horizontal line", "", _num(line.pos), "", "", line.kind])
    for r in spec.regions:
        rows.append([r.label or "shaded range", "shaded range", f"{_num(r.start)} to {_num(r.end)}", "", "", "", ""])
    for m in spec.marks:
        rows.append([m.label, "the advice", _num(m.x), _num(m.y) if m.y is not None else "", "", "", m.figure])
    return headers, rows


def chart_text(spec: ChartSpec) -> str:
    """The chart's table as tab-separated text (title and caption first), for a spreadsheet."""
    headers, rows = chart_table(spec)
    lines = [spec.title] + ([spec.caption] if spec.caption else []) + ["\t".join(headers)]
    lines += ["\t".join(cell.replace("\t", " ").replace("\n", " ") for cell in row) for row in rows]
    return "\n".join(lines) + "\n"


def copy_chart_data(spec: ChartSpec | None) -> bool:
    """Put the chart's numbers on the clipboard; False when there is nothing drawn."""
    if spec is None or spec.empty:
        return False
    QGuiApplication.clipboard().setText(chart_text(spec))
    return True


def data_table_widget(spec: ChartSpec, parent: QWidget | None = None) -> QTableWidget:
    """A read-only table of the chart's numbers, named for a screen reader."""
    headers, rows = chart_table(spec)
    table = QTableWidget(len(rows), len(headers), parent)
    table.setHorizontalHeaderLabels(headers)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    for i, row in enumerate(rows):
        for j, text in enumerate(row):
            table.setItem(i, j, QTableWidgetItem(text))
    table.setAccessibleName(f"Data of the chart {spec.title}")
    table.setAccessibleDescription(f"{len(rows)} rows: {', '.join(headers[:4])}. {spec.caption}")
    return table


def data_button(chart) -> QToolButton:
    """"Data": the chart's numbers as a table (for a screen reader) or copied as text."""
    button = QToolButton()
    button.setText("Data")
    button.setObjectName("chartData")
    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    menu = QMenu(button)
    menu.addAction("Show as &table…", chart.show_data)
    menu.addAction("&Copy data", chart.copy_data)
    button.setMenu(menu)
    button.setToolTip("The chart's numbers: as a table, or copied for a spreadsheet")
    button.setAccessibleName("Chart data")
    button.setAccessibleDescription("Show the numbers of this chart as a table, or copy them")
    return button


class ChartDataDialog(QDialog):
    """The chart's numbers as a table, with Copy."""

    def __init__(self, spec: ChartSpec, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(f"Data: {spec.title}")
        self.spec = spec
        self.table = data_table_widget(spec, self)
        about = QLabel(spec.caption or spec.title)
        about.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        copy = buttons.addButton("&Copy data", QDialogButtonBox.ButtonRole.ActionRole)
        copy.setToolTip("Copy the table as tab-separated text, for a spreadsheet")
        copy.clicked.connect(lambda: copy_chart_data(self.spec))
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(about)
        lay.addWidget(self.table, 1)
        lay.addWidget(buttons)
        self.resize(760, 480)
        self.table.setFocus()
