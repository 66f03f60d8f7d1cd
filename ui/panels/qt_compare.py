"""Compare two to four scenarios side by side: their key inputs and every recommendation, the
cells that differ from the first column highlighted."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from knowledge.infra.errors import UserFacingError
from ui.workers import TaskSlot

if TYPE_CHECKING:
    from advisor.engine import Advice

MAX_COLUMNS = 4


def summarize_inputs(data: dict) -> dict[str, str]:
    """Key inputs of scenario data (:func:`advisor.figures.summary.scenario_inputs`); an invalid
    scenario gives no rows."""
    from advisor.figures.summary import scenario_inputs
    from advisor.scenario import parse_scenario

    try:
        return scenario_inputs(parse_scenario(data))
    except UserFacingError:
        return {}


def advise_all(items: list[tuple[str, dict]], kb, site, userdb_path, progress=None,
               cancel=None) -> list[Advice | str | None]:
    """Worker: the advice for each (name, data) pair; an invalid scenario gives its error message."""
    from advisor.engine import advise
    from advisor.progress import check, report
    from knowledge.userdb import UserDatabase

    out = []
    with UserDatabase(userdb_path) as db:
        for i, (_name, data) in enumerate(items):
            check(cancel)
            report(progress, i / len(items), f"advising scenario {i + 1}")
            try:
                out.append(advise(data, kb=kb, site=site or None, userdb=db))
            except UserFacingError as exc:
                out.append(str(exc))
    return out


def _cost_cell(advice) -> str:
    from advisor.figures.summary import cost_summary

    text = cost_summary(advice)
    return "no cost catalogue" if text is None else text.removeprefix("Cost: ")


def _cpu_cell(advice) -> str:
    from advisor.expected import as_figure
    from advisor.text import fmt_value

    rec = advice.first("host_count", "cluster")
    fig = rec.expected.get("host_cpu_utilization") if rec is not None else None
    if fig is None:
        return "—"
    fig = as_figure(fig)
    return f"{fmt_value(fig.value)} {fig.unit}"


#: result rows under the decisions: (label, advice -> text)
RESULT_ROWS = (("Cost", _cost_cell), ("Host CPU at the planned load", _cpu_cell))


class QtComparePanel(QWidget):
    """Side-by-side comparison; the first column is the open scenario."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.others: list[tuple[str, dict]] = []
        self.advices: list[Advice | str | None] = []
        self.task = TaskSlot("comparing scenarios", session.notifier, parent=self)
        self.task.sig_done.connect(self.show_advices)
        add = QPushButton("Add scenario file…")
        add.setToolTip("Compare with up to three scenario files")
        add.clicked.connect(self.add_dialog)
        variant = QPushButton("&Keep a copy, then vary")
        variant.setToolTip("Keep the open scenario as it is now in a column of its own; then change the open "
                           "scenario (the first column follows every edit) and compare")
        variant.clicked.connect(lambda: self.add_data(f"{self.session.document.title} (as it was)",
                                                      copy.deepcopy(self.session.document.data)))
        clear = QPushButton("Clear")
        clear.clicked.connect(self.clear)
        self.info = QLabel("Cells that differ from the first column are highlighted.")
        self.info.setObjectName("subtitle")
        self.info.setWordWrap(True)
        bar = QHBoxLayout()
        bar.addWidget(self.info, 1)
        for b in (add, variant, clear):
            bar.addWidget(b)
        self.table = QTableWidget()
        self.table.setAccessibleName("Comparison of the designs")
        self.table.setAccessibleDescription("One column per design, one row per input or result; "
                                            "cells that differ from the first column are bold")
        self.table.setWordWrap(True)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        # a design's name longer than its column ends in "…" (its tooltip holds it whole), never clipped at both sides
        header = self.table.horizontalHeader()
        header.setTextElideMode(Qt.TextElideMode.ElideRight)
        bold = header.font()  # the style sheet draws the names at weight 600: elide with that font's widths
        bold.setWeight(QFont.Weight.DemiBold)
        header.setFont(bold)
        lay = QVBoxLayout(self)
        lay.addLayout(bar)
        lay.addWidget(self.table, 1)
        session.sig_advice.connect(lambda _a: self.refresh())
        self.refresh()

    def busy(self) -> bool:
        return self.task.running

    def items(self) -> list[tuple[str, dict]]:
        return [(self.session.document.title + " (open)", self.session.document.data), *self.others]

    def add_data(self, name: str, data: dict) -> None:
        if len(self.others) >= MAX_COLUMNS - 1:
            self.others.pop(0)
        self.others.append((name, copy.deepcopy(data)))
        self.refresh()

    def add_file(self, path: Path) -> None:
        from advisor.scenario import load_scenario

        self.add_data(Path(path).stem, load_scenario(path).to_dict())

    def add_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Scenario to compare", self.session.settings.last_dir,
                                              "Scenarios (*.yaml *.yml *.toml *.json)")
        if path:
            try:
                self.add_file(Path(path))
            except UserFacingError as exc:
                self.session.notifier.failure(f"opening {Path(path).name}", exc)

    def clear(self) -> None:
        self.others = []
        self.refresh()

    def refresh(self) -> None:
        from knowledge.infra.paths import user_db_path

        if self.session.kb is None:
            self.show_advices([None for _ in self.items()])
            return
        self.task.start(advise_all, [(n, copy.deepcopy(d)) for n, d in self.items()], self.session.kb,
                        self.session.site, user_db_path())

    def rows(self) -> tuple[list[str], list[list[str]]]:
        """(row labels, one list of cell texts per row) of the comparison."""
        from ui.panels.qt_recommendations import choice_text, decision_title

        items = self.items()
        inputs = [summarize_inputs(d) for _n, d in items]
        labels = list(inputs[0])
        cells = [[inp.get(k, "") for inp in inputs] for k in labels]
        keys: list[tuple[str, str]] = []
        advices = [a for a in self.advices if not isinstance(a, str | None)]
        for adv in advices:
            for r in adv.recommendations:
                if (r.decision, r.scope) not in keys:
                    keys.append((r.decision, r.scope))
        for dec, scope in keys:
            labels.append(f"{decision_title(dec)} · {scope.replace('workload:', '')}")
            row = []
            for adv in self.advices:
                if isinstance(adv, str):
                    row.append("invalid: " + adv[:80])
                    continue
                rec = adv.find(dec, scope) if adv is not None else None
                row.append(choice_text(rec) if rec else "—")
            cells.append(row)
        for label, read in RESULT_ROWS:  # what the designs cost and how busy their hosts are
            labels.append(label)
            cells.append(["invalid" if isinstance(a, str) else ("—" if a is None else read(a)) for a in self.advices])
        return labels, cells

    def show_advices(self, advices: list[Advice | str | None]) -> None:
        from ui import theme

        self.advices = advices
        items = self.items()
        labels, cells = self.rows()
        self.table.clear()
        self.table.setColumnCount(len(items))
        self.table.setRowCount(len(labels))
        self.table.setHorizontalHeaderLabels([n for n, _d in items])
        for j, (name, _d) in enumerate(items):
            self.table.horizontalHeaderItem(j).setToolTip(name)
        self.table.setVerticalHeaderLabels(labels)
        accent = QColor(theme.colors()["accent"])
        accent.setAlpha(60)
        self.differences = 0
        for i, row in enumerate(cells):
            for j, text in enumerate(row):
                item = QTableWidgetItem(text)
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                if j > 0 and text != row[0]:
                    item.setBackground(QBrush(accent))
                    f = QFont()
                    f.setBold(True)
                    item.setFont(f)
                    item.setToolTip(f"differs from the first column ({row[0]})")
                    self.differences += 1
                self.table.setItem(i, j, item)
        self.info.setText(f"{len(items)} scenario(s); {self.differences} cell(s) differ from the first column "
                          "(highlighted)." + ("" if len(items) > 1 else " Add a scenario to compare."))

    def prepare_screenshot(self) -> None:
        """Add two variants of the open scenario when nothing is compared yet (for screenshots)."""
        if self.others:
            return
        a = copy.deepcopy(self.session.document.data)
        a.setdefault("preferences", {})["open_source_only"] = True
        a["hosts"]["count"] = int(a["hosts"].get("count", 1)) + 2
        a["name"] = "open source, more hosts"
        b = copy.deepcopy(self.session.document.data)
        for d in b["hosts"].get("disks", []):
            d["kind"] = "hdd"
        b["hosts"]["shared_storage"] = [{"kind": "iscsi", "network_gbps": 1.0}]
        b["name"] = "HDD + iSCSI"
        self.others = [("open source, more hosts", a), ("HDD + iSCSI", b)]
        self.refresh()
