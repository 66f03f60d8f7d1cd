"""Edit ▸ Cost catalogue…: your prices of host models, storage and licences, the power price and
the years of operation, stored in the user database (:mod:`knowledge.costs`). The dialog only
shows and edits the entries; every check is the catalogue's own (:func:`knowledge.costs.parse_catalogue`),
and a problem selects the cell it names."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from knowledge import costs
from knowledge.infra.errors import UserFacingError
from ui.spreadsheet import SpreadsheetTable

#: per section: (field path in the file format, column title, kind); kind: text, number, bool or a choice tuple
COLUMNS: dict[str, list[tuple[str, str, object]]] = {
    "hosts": [("name", "Name", "text"), ("cpu.model", "CPU model", "text"), ("cpu.sockets", "CPUs", "number"),
              ("cpu.cores_per_socket", "Cores per CPU", "number"), ("cpu.threads_per_core", "Threads per core", "number"),
              ("cpu.ghz", "GHz", "number"), ("ram_gib", "RAM (GiB)", "number"), ("disks", "Local disks", "disks"),
              ("nic_gbps", "NIC (Gb/s)", "number"), ("price", "Price", "number"), ("power_w", "Power (W)", "number"),
              ("idle_w", "Idle (W)", "number"), ("rack_units", "Rack (U)", "number"),
              ("support_per_year", "Support per year", "number"), ("example", "Example", "bool")],
    "storage": [("name", "Name", "text"), ("kind", "Kind", costs.STORAGE_KINDS),
                ("network_gbps", "Network (Gb/s)", "number"), ("base_price", "Base price", "number"),
                ("price_per_tb", "Price per TB", "number"), ("price_per_node", "Price per node", "number"),
                ("tb_per_node", "TB per node", "number"), ("copies", "Copies", "number"),
                ("min_nodes", "Min nodes", "number"), ("power_w", "Power (W)", "number"),
                ("rack_units", "Rack (U)", "number"), ("support_per_year", "Support per year", "number"),
                ("example", "Example", "bool")],
    "licences": [("name", "Name", "text"), ("for", "For", costs.HYPERVISORS + costs.STORAGE_KINDS),
                 ("per", "Per", costs.LICENCE_UNITS), ("price", "Price (once)", "number"),
                 ("per_year", "Per year", "number"), ("min_cores_per_cpu", "Min cores per CPU", "number"),
                 ("example", "Example", "bool")],
}
TITLES = {"hosts": "&Host models", "storage": "&Storage", "licences": "&Licences"}
_PROBLEM = re.compile(r"^\s*(hosts|storage|licences)\[(\d+)\](?:\.([\w.]+))?")


def _get(data: dict, path: str):
    for part in path.split("."):
        if not isinstance(data, dict):
            return None
        data = data.get(part)
    return data


def _set(data: dict, path: str, value) -> None:
    parts = path.split(".")
    for part in parts[:-1]:
        data = data.setdefault(part, {})
    data[parts[-1]] = value


def _number(text: str):
    text = text.strip().replace(",", "")
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        return text  # the catalogue's check names it
    return int(value) if value.is_integer() else value


class CostCatalogueDialog(QDialog):
    """The cost catalogue editor (see the module doc); ``sig_saved(Catalogue)`` after Save."""

    sig_saved = Signal(object)

    def __init__(self, userdb, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Cost catalogue")
        self.userdb = userdb
        self._extra: dict[str, list[dict]] = {s: [] for s in costs.SECTIONS}  # fields the tables do not show
        intro = QLabel("Your own prices: Capacity Advisor never invents one. Advice and design search price their "
                       "designs with this catalogue. Entries marked <i>Example</i> hold placeholder prices.")
        intro.setWordWrap(True)
        form = QFormLayout()
        self.name = QLineEdit()
        self.currency = QLineEdit()
        self.currency.setMaxLength(12)
        self.currency.setToolTip("A label only: nothing is converted")
        self.years = self._spin(1, 50, 1, " years")
        self.kwh = self._spin(0, 100, 4, "")
        self.kwh.setToolTip("Price of one kWh in the catalogue's currency")
        self.pue = self._spin(1, 5, 2, "")
        self.pue.setToolTip("Power usage effectiveness: the facility's power over the IT equipment's")
        self.rack = self._spin(0, 1e6, 2, "")
        self.rack.setToolTip("Rack space per height unit (U) and year; 0: not counted")
        for label, w in (("&Name", self.name), ("C&urrency", self.currency), ("&Years of operation", self.years),
                         ("&Power price per kWh", self.kwh), ("P&UE", self.pue), ("&Rack price per U and year", self.rack)):
            form.addRow(label, w)
        self.tabs = QTabWidget()
        self.tables: dict[str, QTableWidget] = {}
        for section in costs.SECTIONS:
            t = SpreadsheetTable(0, len(COLUMNS[section]))
            t.setHorizontalHeaderLabels([c[1] for c in COLUMNS[section]])
            t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
            t.verticalHeader().setVisible(False)
            t.horizontalHeader().setStretchLastSection(False)
            self.tables[section] = t
            self.tabs.addTab(t, TITLES[section])
        self.add_button = QPushButton("&Add")
        self.add_button.clicked.connect(self.add_row)
        self.remove_button = QPushButton("Re&move")
        self.remove_button.clicked.connect(self.remove_row)
        self.import_button = QPushButton("&Import…")
        self.import_button.setToolTip("Read a catalogue file (YAML or JSON); Save stores it")
        self.import_button.clicked.connect(self.import_file)
        self.export_button = QPushButton("E&xport…")
        self.export_button.clicked.connect(self.export_file)
        self.example_button = QPushButton("Load the &example")
        self.example_button.setToolTip("The shipped example with placeholder prices")
        self.example_button.clicked.connect(lambda: self.load(costs.load_catalogue(costs.example_path())))
        row = QHBoxLayout()
        for b in (self.add_button, self.remove_button):
            row.addWidget(b)
        row.addStretch(1)
        for b in (self.import_button, self.export_button, self.example_button):
            row.addWidget(b)
        self.status = QLabel()
        self.status.setObjectName("warning")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        save = buttons.button(QDialogButtonBox.StandardButton.Save)
        save.setShortcut(QKeySequence(QKeySequence.StandardKey.Save))  # Ctrl+S, also from a table
        save.setToolTip("Store the catalogue and price the advice with it (Ctrl+S)")
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(intro)
        lay.addLayout(form)
        lay.addWidget(self.tabs, 1)
        lay.addLayout(row)
        lay.addWidget(self.status)
        lay.addWidget(buttons)
        stored = None
        try:
            stored = userdb.cost_catalogue()
        except UserFacingError as exc:
            self.status.setText(str(exc))
        self.load(stored or costs.Catalogue(name="my prices"))
        self.resize(1180, 640)

    @staticmethod
    def _spin(lo: float, hi: float, decimals: int, suffix: str) -> QDoubleSpinBox:
        s = QDoubleSpinBox()
        s.setRange(lo, hi)
        s.setDecimals(decimals)
        s.setSuffix(suffix)
        return s

    # --- catalogue <-> widgets ------------------------------------------------------------------
    def load(self, cat: costs.Catalogue) -> None:
        """Show ``cat`` (not stored until Save)."""
        self.name.setText(cat.name)
        self.currency.setText(cat.currency)
        self.years.setValue(cat.years)
        self.kwh.setValue(cat.power.price_per_kwh)
        self.pue.setValue(cat.power.pue)
        self.rack.setValue(cat.rack_price_per_unit_per_year)
        for section in costs.SECTIONS:
            t = self.tables[section]
            entries = [costs.entry_to_dict(e) for e in cat.entries(section)]
            self._extra[section] = entries
            t.setRowCount(0)
            for data in entries:
                self._append(section, data)
            t.resizeColumnsToContents()
        self.status.setText(f"{cat.examples} entries are examples with placeholder prices: replace them with yours"
                            if cat.examples else "")

    def _append(self, section: str, data: dict) -> None:
        t = self.tables[section]
        r = t.rowCount()
        t.insertRow(r)
        for c, (path, _title, kind) in enumerate(COLUMNS[section]):
            if path == "for":
                value = data.get("hypervisor") or data.get("storage")
            elif kind == "disks":
                value = costs.disks_text(data.get("disks") or [])
            else:
                value = _get(data, path)
            if kind == "bool":
                item = QTableWidgetItem()
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked if value else Qt.CheckState.Unchecked)
                t.setItem(r, c, item)
            elif isinstance(kind, tuple):
                box = QComboBox()
                box.addItems(["", *kind])
                box.setCurrentText("" if value is None else str(value))
                t.setCellWidget(r, c, box)
            else:
                t.setItem(r, c, QTableWidgetItem("" if value is None else str(value)))

    def data(self) -> dict:
        """The catalogue in the file format, as the widgets hold it (not yet validated)."""
        out = {"version": costs.CATALOGUE_VERSION, "name": self.name.text(), "currency": self.currency.text(),
               "years": self.years.value(), "power": {"price_per_kwh": self.kwh.value(), "pue": self.pue.value()}}
        if self.rack.value():
            out["rack"] = {"price_per_unit_per_year": self.rack.value()}
        for section in costs.SECTIONS:
            t = self.tables[section]
            rows = []
            for r in range(t.rowCount()):
                base = self._extra[section][r] if r < len(self._extra[section]) else {}
                entry = {k: v for k, v in base.items() if not any(k == p.split(".")[0] for p, *_ in COLUMNS[section])
                         and k not in ("hypervisor", "storage")}
                if section == "hosts" and isinstance(base.get("cpu"), dict):
                    entry["cpu"] = {k: v for k, v in base["cpu"].items()
                                    if f"cpu.{k}" not in [p for p, *_ in COLUMNS[section]]}
                for c, (path, _title, kind) in enumerate(COLUMNS[section]):
                    if kind == "bool":
                        item = t.item(r, c)
                        if item is not None and item.checkState() == Qt.CheckState.Checked:
                            entry["example"] = True
                        continue
                    if isinstance(kind, tuple):
                        value = t.cellWidget(r, c).currentText() or None
                    else:
                        item = t.item(r, c)
                        text = item.text() if item is not None else ""
                        value = (text.strip() or None) if kind == "text" else \
                            costs.parse_disks_text(text) if kind == "disks" else _number(text)
                    if value is None:
                        continue
                    if path == "for":
                        entry["hypervisor" if value in costs.HYPERVISORS else "storage"] = value
                    else:
                        _set(entry, path, value)
                rows.append(entry)
            out[section] = rows
        return out

    def catalogue(self) -> costs.Catalogue:
        """The validated catalogue (InputError naming every bad field)."""
        return costs.parse_catalogue(self.data(), "the cost catalogue")

    # --- actions -----------------------------------------------------------------------------------
    def current_section(self) -> str:
        return costs.SECTIONS[self.tabs.currentIndex()]

    def add_row(self) -> None:
        section = self.current_section()
        self._extra[section].append({})
        self._append(section, {"name": f"new {section.rstrip('s')} {self.tables[section].rowCount() + 1}"})
        t = self.tables[section]
        t.setCurrentCell(t.rowCount() - 1, 0)
        t.editItem(t.item(t.rowCount() - 1, 0))

    def remove_row(self) -> None:
        section = self.current_section()
        t = self.tables[section]
        r = t.currentRow()
        if r >= 0:
            t.removeRow(r)
            if r < len(self._extra[section]):
                del self._extra[section][r]

    def _problem(self, exc: UserFacingError) -> None:
        """Show ``exc`` and select the first cell it names."""
        text = str(exc)
        self.status.setText(text)
        for line in text.splitlines()[1:]:
            m = _PROBLEM.match(line)
            if not m:
                continue
            section, row, field = m.group(1), int(m.group(2)), m.group(3) or "name"
            col = next((i for i, (p, *_r) in enumerate(COLUMNS[section])
                        if p == field or (p == "for" and field in ("hypervisor", "storage"))
                        or (p == "disks" and field.startswith("disks"))), 0)
            self.tabs.setCurrentIndex(costs.SECTIONS.index(section))
            self.tables[section].setCurrentCell(row, col)
            break

    def save(self) -> None:
        try:
            cat = self.catalogue()
            self.userdb.save_cost_catalogue(cat)
        except UserFacingError as exc:
            self._problem(exc)
            return
        self.sig_saved.emit(cat)
        self.accept()

    def import_file(self) -> None:
        path, _f = QFileDialog.getOpenFileName(self, "Import a cost catalogue", "",
                                               "Cost catalogues (*.yaml *.yml *.json);;All files (*)")
        if not path:
            return
        try:
            self.load(costs.load_catalogue(path))
        except UserFacingError as exc:
            self._problem(exc)

    def export_file(self) -> None:
        try:
            cat = self.catalogue()
        except UserFacingError as exc:
            self._problem(exc)
            return
        path, _f = QFileDialog.getSaveFileName(self, "Export the cost catalogue", "costs.yaml",
                                               "YAML (*.yaml *.yml);;JSON (*.json)")
        if not path:
            return
        from knowledge.infra.atomic import write_text_atomic

        try:
            write_text_atomic(Path(path), costs.dumps_catalogue(cat, "json" if path.lower().endswith(".json")
                                                                 else "yaml"))
        except (OSError, UserFacingError) as exc:
            self.status.setText(f"could not write {path}: {exc}")
            return
        self.status.setText(f"exported to {path}")
