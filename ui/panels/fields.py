"""Form fields bound to a :class:`~ui.document.ScenarioDocument`: one editor per value, its unit,
a tooltip, and the validation message of its path shown right under it.

A :class:`FieldSpec` names the path (relative to a prefix such as ``("workloads", 2)``), the kind
of editor and its unit; :class:`BoundForm` builds a QFormLayout from specs, writes every edit to
the document (undoable) and refreshes the editors when the document changes (undo, open).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from ui.document import ScenarioDocument, get_in, path_text

#: the value an optional number shows as "not set"
UNSET = -1.0
#: what an optional yes/no shows, and the value each entry stands for
OPTBOOL = (("not known", None), ("yes", True), ("no", False))


@dataclass(frozen=True)
class FieldSpec:
    """One field: ``kind`` is int, float, optfloat (may be unset), choice, bool, optbool (yes, no
    or not known) or text."""

    path: tuple
    label: str
    kind: str
    unit: str = ""
    tip: str = ""
    choices: tuple[str, ...] = ()
    default: object = None
    maximum: float = 1e7
    decimals: int = 2
    step: float = 1.0


class _Row(QWidget):
    def __init__(self, editor: QWidget, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(editor)
        self.error = QLabel(self)
        self.error.setObjectName("fieldError")
        self.error.setWordWrap(True)
        self.error.hide()
        lay.addWidget(self.error)

    def set_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))


def make_editor(spec: FieldSpec) -> QWidget:
    """The editor widget for a spec, with unit suffix, range and tooltip."""
    if spec.kind == "int":
        w = QSpinBox()
        w.setRange(-1, int(spec.maximum))
        if spec.unit:
            w.setSuffix(f" {spec.unit}")
    elif spec.kind in ("float", "optfloat"):
        w = QDoubleSpinBox()
        w.setDecimals(spec.decimals)
        w.setRange(UNSET if spec.kind == "optfloat" else -1.0, spec.maximum)
        w.setSingleStep(spec.step)
        if spec.kind == "optfloat":
            w.setSpecialValueText("not set")
        if spec.unit:
            w.setSuffix(f" {spec.unit}")
    elif spec.kind == "choice":
        w = QComboBox()
        w.addItems(list(spec.choices))
    elif spec.kind == "bool":
        w = QCheckBox()
    elif spec.kind == "optbool":
        w = QComboBox()
        for text, value in OPTBOOL:
            w.addItem(text, value)
    else:
        w = QLineEdit()
        w.setClearButtonEnabled(True)
    if isinstance(w, QSpinBox | QDoubleSpinBox):
        w.setKeyboardTracking(True)
        w.setAccelerated(True)
        w.setMinimumWidth(130)
        w.setMaximumWidth(240)
    w.setToolTip(spec.tip + (f" (unit: {spec.unit})" if spec.unit else "")
                 + ("; arrow keys or the mouse wheel step it" if isinstance(w, QSpinBox | QDoubleSpinBox) else ""))
    if isinstance(w, QComboBox):
        w.setMinimumWidth(130)
        w.setMaximumWidth(240)
    w.setObjectName("field_" + path_text(spec.path).replace("[", "_").replace("]", "").replace(".", "_"))
    return w


class BoundForm(QWidget):
    """A form of fields bound to ``document`` under ``prefix``."""

    def __init__(self, document: ScenarioDocument, specs: list[FieldSpec], prefix: tuple = (),
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.prefix = tuple(prefix)
        self.specs = specs
        self.editors: dict[tuple, QWidget] = {}
        self.rows: dict[tuple, _Row] = {}
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        form.setContentsMargins(6, 6, 6, 6)
        form.setVerticalSpacing(6)
        for spec in specs:
            editor = make_editor(spec)
            row = _Row(editor)
            label = QLabel(spec.label + (f" ({spec.unit})" if spec.unit and spec.kind == "choice" else ""))
            label.setBuddy(editor)
            label.setToolTip(editor.toolTip())
            form.addRow(label, row)
            self.editors[spec.path] = editor
            self.rows[spec.path] = row
            self._connect(spec, editor)
        document.sig_changed.connect(lambda _p: self.refresh())
        document.sig_validated.connect(self.show_problems)
        self.refresh()
        self.show_problems(document.problems)

    def set_prefix(self, prefix: tuple) -> None:
        """Bind the same fields to another part of the document (e.g. another workload)."""
        self.prefix = tuple(prefix)
        self.refresh()
        self.show_problems(self.document.problems)

    def full_path(self, spec: FieldSpec) -> tuple:
        return self.prefix + spec.path

    def _connect(self, spec: FieldSpec, w: QWidget) -> None:
        def write(value) -> None:
            if self._refreshing:
                return
            if spec.kind == "optfloat" and value <= UNSET:
                value = None
            if spec.kind == "text" and spec.default is not None and value == "":
                value = None
            self.document.set(self.full_path(spec), value, f"Edit {spec.label.lower()}")

        connect_editor(spec, w, write)

    _refreshing = False

    def refresh(self) -> None:
        """Show the document's values in the editors (without writing back)."""
        self._refreshing = True
        try:
            for spec in self.specs:
                _show_value(spec, self.editors[spec.path], self.document.get(self.full_path(spec)))
        finally:
            self._refreshing = False

    def show_problems(self, problems: dict[str, str]) -> None:
        """Show each problem next to the field of its path; clear the others."""
        for spec in self.specs:
            text = path_text(self.full_path(spec))
            msg = problems.get(text, "")
            self.rows[spec.path].set_error(msg)
            self.editors[spec.path].setProperty("invalid", bool(msg))
            self.editors[spec.path].style().polish(self.editors[spec.path])

    def problem_count(self) -> int:
        """How many of this form's fields have a problem."""
        return sum(1 for r in self.rows.values() if r.error.isVisibleTo(self) or r.error.text())


def connect_editor(spec: FieldSpec, w: QWidget, write: Callable[[object], None]) -> None:
    """Call ``write(value)`` whenever the user changes editor ``w`` (optbool: True, False or None)."""
    if isinstance(w, QSpinBox | QDoubleSpinBox):
        w.valueChanged.connect(write)
    elif spec.kind == "optbool":
        w.currentIndexChanged.connect(lambda i: write(OPTBOOL[i][1]))
    elif isinstance(w, QComboBox):
        w.currentTextChanged.connect(write)
    elif isinstance(w, QCheckBox):
        w.toggled.connect(write)
    elif isinstance(w, QLineEdit):
        w.textEdited.connect(write)


def _show_value(spec: FieldSpec, w: QWidget, value) -> None:
    """Put ``value`` (or the spec's default when missing) into editor ``w`` without side effects."""
    if value is None:
        value = spec.default
    if isinstance(w, QSpinBox | QDoubleSpinBox):
        number = (int(value) if isinstance(w, QSpinBox) else float(value)) if value is not None else (
            0 if isinstance(w, QSpinBox) else UNSET)
        if w.value() != number:  # setValue re-formats the text: it would eat a half-typed "2." while typing
            w.setValue(number)
    elif spec.kind == "optbool":
        w.setCurrentIndex([v for _t, v in OPTBOOL].index(value if isinstance(value, bool) else None))
    elif isinstance(w, QComboBox):
        w.setCurrentText(str(value) if value is not None else spec.choices[0])
    elif isinstance(w, QCheckBox):
        w.setChecked(bool(value))
    elif isinstance(w, QLineEdit) and w.text() != str(value or ""):
        w.setText(str(value or ""))
        w.setCursorPosition(0)  # show the start of a long text


class RecordTable(QWidget):
    """A list of the document (e.g. ``hosts.disks``) as a table: a row per entry, a column per
    field (unit in the header), Add and Remove. Each edit is one undoable document change; a
    cell with a problem turns red with the message as its tooltip, and the messages of the list
    are listed under the table by row."""

    def __init__(self, document: ScenarioDocument, list_path: tuple, specs: list[FieldSpec],
                 new_item: Callable[[list], dict], noun: str, empty_text: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.list_path = tuple(list_path)
        self.specs = specs
        self.new_item = new_item
        self.noun = noun
        self.editors: list[list[QWidget]] = []
        self._row_of: dict[QObject, int] = {}
        self._refreshing = False

        self.table = QTableWidget(0, len(specs), self)
        self.table.setObjectName("table_" + path_text(self.list_path).replace(".", "_"))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setSizeAdjustPolicy(QAbstractScrollArea.SizeAdjustPolicy.AdjustToContents)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.setToolTip(f"One row per {noun}; select a row (or click into it) and Remove deletes it")
        for col, spec in enumerate(specs):
            header = spec.label + (f"\n({spec.unit})" if spec.unit else "")
            self.table.setHorizontalHeaderItem(col, _header_item(header, spec.tip))
        self.empty = QLabel(empty_text, self)
        self.empty.setObjectName("hint")
        self.empty.setWordWrap(True)
        self.problems = QLabel(self)
        self.problems.setObjectName("fieldError")
        self.problems.setWordWrap(True)
        self.problems.hide()
        self.add_button = QPushButton(f"Add {noun}")
        self.add_button.setToolTip(f"Add a {noun}")
        self.add_button.clicked.connect(self.add)
        self.remove_button = QPushButton("Remove")
        self.remove_button.setToolTip(f"Remove the selected {noun}")
        self.remove_button.clicked.connect(self.remove)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(4)
        lay.addWidget(self.table)
        lay.addWidget(self.empty)
        lay.addWidget(self.problems)
        lay.addLayout(buttons)
        document.sig_changed.connect(lambda _p: self.refresh())
        document.sig_validated.connect(self.show_problems)
        self.refresh()
        self.show_problems(document.problems)

    # --- reading and showing ---------------------------------------------------------------
    def items(self) -> list:
        value = self.document.get(self.list_path)
        return list(value) if isinstance(value, list) else []

    def _build_rows(self, n: int) -> None:
        self.table.setRowCount(n)
        self.editors = []
        self._row_of.clear()
        for row in range(n):
            editors = []
            for col, spec in enumerate(self.specs):
                w = make_editor(spec)
                if isinstance(w, QSpinBox | QDoubleSpinBox):
                    w.setSuffix("")  # the unit is in the column header
                    w.setButtonSymbols(QSpinBox.ButtonSymbols.NoButtons)  # type, or wheel / arrow keys
                w.setMinimumWidth(60)
                w.setMaximumWidth(16777215)
                if isinstance(w, QSpinBox | QDoubleSpinBox | QComboBox):
                    w.setFrame(False)
                w.setObjectName(f"{w.objectName()}_{row}")
                self._connect(row, spec, w)
                for obj in (w, *w.findChildren(QWidget)):
                    self._row_of[obj] = row
                    obj.installEventFilter(self)
                self.table.setCellWidget(row, col, w)
                editors.append(w)
            self.editors.append(editors)

    def refresh(self) -> None:
        """Show the document's entries (rebuilding the rows when their number changed)."""
        items = self.items()
        if len(items) != len(self.editors):
            self._build_rows(len(items))
        self._refreshing = True
        try:
            for row, item in enumerate(items):
                for col, spec in enumerate(self.specs):
                    _show_value(spec, self.editors[row][col], get_in(item, spec.path))
        finally:
            self._refreshing = False
        self.table.setVisible(bool(items))
        self.empty.setVisible(not items)
        self.remove_button.setEnabled(bool(items))
        self._fit_height()

    def _fit_height(self) -> None:
        rows = self.table.rowCount()
        height = self.table.horizontalHeader().sizeHint().height() + 2 * self.table.frameWidth()
        height += sum(self.table.rowHeight(r) for r in range(rows))
        if self.table.horizontalScrollBar().isVisible():
            height += self.table.horizontalScrollBar().sizeHint().height()
        self.table.setFixedHeight(height)

    def show_problems(self, problems: dict[str, str]) -> None:
        """Red cells with the message as tooltip; the list's messages under the table."""
        lines = []
        base = path_text(self.list_path)
        if problems.get(base):
            lines.append(problems[base])
        for row, editors in enumerate(self.editors):
            for spec, w in zip(self.specs, editors, strict=True):
                msg = problems.get(path_text(self.list_path + (row,) + spec.path), "")
                w.setProperty("invalid", bool(msg))
                w.setToolTip(msg or (spec.tip + (f" (unit: {spec.unit})" if spec.unit else "")))
                w.style().polish(w)
                if msg:
                    lines.append(f"{self.noun} {row + 1}, {spec.label.lower()}: {msg}")
            prefix = path_text(self.list_path + (row,))
            for path, msg in problems.items():  # problems of the entry not tied to a column
                if path.startswith(prefix) and not any(
                        path == path_text(self.list_path + (row,) + s.path) for s in self.specs):
                    lines.append(f"{self.noun} {row + 1}: {path[len(prefix):].lstrip('.') or 'entry'}: {msg}")
        self.problems.setText("\n".join(lines))
        self.problems.setVisible(bool(lines))

    # --- editing ---------------------------------------------------------------------------
    def _connect(self, row: int, spec: FieldSpec, w: QWidget) -> None:
        def write(value) -> None:
            if self._refreshing:
                return
            if spec.kind == "optfloat" and value <= UNSET:
                value = None
            self.document.set(self.list_path + (row,) + spec.path, value,
                              f"Edit {self.noun} {row + 1} {spec.label.lower()}")

        connect_editor(spec, w, write)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.FocusIn and obj in self._row_of:
            self.table.selectRow(self._row_of[obj])
        return False

    def selected_row(self) -> int:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return rows[0].row() if rows else -1

    def _edited_copy(self) -> tuple[dict, list]:
        data = copy.deepcopy(self.document.data)
        node = data
        for part in self.list_path[:-1]:
            node = node.setdefault(part, {})
        items = node.get(self.list_path[-1])
        if not isinstance(items, list):
            items = node[self.list_path[-1]] = []
        return data, items

    def add(self) -> None:
        data, items = self._edited_copy()
        items.append(self.new_item(items))
        self.document.replace(data, f"Add {self.noun}")
        self.table.selectRow(len(items) - 1)

    def remove(self) -> None:
        """Remove the selected entry (the last one when none is selected); an empty list is dropped."""
        data, items = self._edited_copy()
        if not items:
            return
        row = self.selected_row()
        del items[row if 0 <= row < len(items) else len(items) - 1]
        if not items:
            node = data
            for part in self.list_path[:-1]:
                node = node[part]
            del node[self.list_path[-1]]
        self.document.replace(data, f"Remove {self.noun}")


def _header_item(text: str, tip: str):
    from PySide6.QtWidgets import QTableWidgetItem

    item = QTableWidgetItem(text)
    item.setToolTip(tip)
    return item
