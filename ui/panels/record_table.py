"""A list of the scenario document (local disk groups, shared storage) as an editable table.

Model/view with a delegate: a click selects the cell under the mouse and typing goes into that
cell (an editor opens for it and takes the keys); Enter or Tab commits, Tab moves on to the next
cell and, from the last cell, out of the table; Esc cancels. Each commit is one undoable change of
the document. What the user types is kept as typed: a cell whose value the core's validation
refuses turns red, with the message as its tooltip and, by row, under the table.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QStyledItemDelegate,
    QVBoxLayout,
    QWidget,
)

from ui import theme
from ui.document import ScenarioDocument, get_in, path_text
from ui.panels.editors import NumberEdit, format_number
from ui.panels.fields import FieldSpec, connect_editor, make_editor, show_value, spec_tip
from ui.spreadsheet import SpreadsheetView

_NO_PARENT = QModelIndex()


class RecordListModel(QAbstractTableModel):
    """The entries of ``document`` at ``list_path``, a column per spec; edits go to the document."""

    def __init__(self, document: ScenarioDocument, list_path: tuple, specs: list[FieldSpec], noun: str,
                 parent=None):
        super().__init__(parent)
        self.document, self.list_path, self.specs, self.noun = document, tuple(list_path), specs, noun
        self._rows = self._items()
        self._problems: dict[str, str] = {}
        document.sig_changed.connect(lambda _p: self.reload())
        document.sig_validated.connect(self.set_problems)
        self.set_problems(document.problems)

    def _items(self) -> list:
        value = self.document.get(self.list_path)
        return copy.deepcopy(list(value)) if isinstance(value, list) else []

    def reload(self) -> None:
        """Follow the document (undo, open, add, remove)."""
        items = self._items()
        if len(items) != len(self._rows):
            self.beginResetModel()
            self._rows = items
            self.endResetModel()
        elif items != self._rows:
            self._rows = items
            self.dataChanged.emit(self.index(0, 0), self.index(len(items) - 1, len(self.specs) - 1))

    def set_problems(self, problems: dict[str, str]) -> None:
        self._problems = dict(problems)
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, len(self.specs) - 1))

    def cell_path(self, row: int, col: int) -> tuple:
        return self.list_path + (row,) + self.specs[col].path

    def problem(self, row: int, col: int) -> str:
        return self._problems.get(path_text(self.cell_path(row, col)), "")

    # --- Qt model ------------------------------------------------------------------------
    def rowCount(self, parent=_NO_PARENT) -> int:  # noqa: N802 - Qt override
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=_NO_PARENT) -> int:  # noqa: N802 - Qt override
        return 0 if parent.isValid() else len(self.specs)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal:
            spec = self.specs[section]
            if role == Qt.ItemDataRole.DisplayRole:
                return spec.label + (f"\n({spec.unit})" if spec.unit else "")
            if role == Qt.ItemDataRole.ToolTipRole:
                return spec_tip(spec)
        elif role == Qt.ItemDataRole.DisplayRole:
            return str(section + 1)
        return None

    def flags(self, index: QModelIndex):
        return (Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEditable)

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        spec = self.specs[index.column()]
        value = get_in(self._rows[index.row()], spec.path)
        if role == Qt.ItemDataRole.EditRole:
            return value
        if role == Qt.ItemDataRole.DisplayRole:
            if spec.kind == "optfloat" and value is None:
                return "not set"
            if spec.kind in ("bool", "optbool"):
                return "" if value is None else ("yes" if value else "no")
            return format_number(value) if isinstance(value, int | float) else ("" if value is None else str(value))
        problem = self.problem(index.row(), index.column())
        if role == Qt.ItemDataRole.ToolTipRole:
            return problem or spec_tip(spec)
        if role == Qt.ItemDataRole.BackgroundRole and problem:
            return QColor(theme.colors()["bad_bg"])  # a colour, not a QBrush: that loads QGradient (~1 ms, #30)
        if role == Qt.ItemDataRole.ForegroundRole:
            c = theme.colors()
            if problem:
                return QColor(c["bad"])
            if spec.kind == "optfloat" and value is None:
                return QColor(c["muted"])
        if role == Qt.ItemDataRole.TextAlignmentRole and spec.kind in ("int", "float", "optfloat"):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def setData(self, index: QModelIndex, value, role=Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if not index.isValid() or role != Qt.ItemDataRole.EditRole:
            return False
        spec = self.specs[index.column()]
        if spec.kind == "text" and value == "":
            value = None
        self.document.set(self.cell_path(index.row(), index.column()), value,
                          f"Edit {self.noun} {index.row() + 1} {spec.label.lower()}")
        return True


class RecordDelegate(QStyledItemDelegate):
    """Editors of the field kinds (numbers take any text; the core judges it)."""

    def __init__(self, specs: list[FieldSpec], parent=None):
        super().__init__(parent)
        self.specs = specs

    def createEditor(self, parent, option, index):  # noqa: N802 - Qt override
        spec = self.specs[index.column()]
        editor = make_editor(spec, with_unit=False)
        editor.setParent(parent)
        editor.setMinimumWidth(0)
        editor.setMaximumWidth(16777215)
        editor.setObjectName(f"{editor.objectName()}_{index.row()}")
        if isinstance(editor, QComboBox):  # a choice is committed as soon as it is made (after the
            # view has registered the editor: the first key may arrive while it is being opened)
            connect_editor(spec, editor, lambda _v, e=editor: QTimer.singleShot(0, e, lambda: self._commit(e)))
        return editor

    def _commit(self, editor) -> None:
        if not editor.property("loading"):
            self.commitData.emit(editor)

    def setEditorData(self, editor, index) -> None:  # noqa: N802 - Qt override
        editor.setProperty("loading", True)
        show_value(self.specs[index.column()], editor, index.data(Qt.ItemDataRole.EditRole))
        editor.setProperty("loading", False)
        if isinstance(editor, NumberEdit):
            editor.selectAll()

    def setModelData(self, editor, model, index) -> None:  # noqa: N802 - Qt override
        spec = self.specs[index.column()]
        if isinstance(editor, NumberEdit):
            value = editor.value()
        elif spec.kind == "optbool":
            value = editor.currentData()
        elif isinstance(editor, QComboBox):
            value = editor.currentText()
        elif isinstance(editor, QCheckBox):
            value = editor.isChecked()
        else:
            value = editor.text()
        model.setData(index, value, Qt.ItemDataRole.EditRole)

    def updateEditorGeometry(self, editor, option, index) -> None:  # noqa: N802 - Qt override
        editor.setGeometry(option.rect)


class RecordView(SpreadsheetView):
    """Typing goes to the current cell; Tab goes on cell by cell and leaves after the last one."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)


class RecordTable(QWidget):
    """A list of the document (e.g. ``hosts.disks``) as a table with Add and Remove; the
    problems of its entries are listed under it by row."""

    def __init__(self, document: ScenarioDocument, list_path: tuple, specs: list[FieldSpec],
                 new_item: Callable[[list], dict], noun: str, empty_text: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.list_path = tuple(list_path)
        self.specs = specs
        self.new_item = new_item
        self.noun = noun

        self.model = RecordListModel(document, self.list_path, specs, noun, self)
        self.table = RecordView(self)
        self.table.setObjectName("table_" + path_text(self.list_path).replace(".", "_"))
        self.table.setModel(self.model)
        self.table.setItemDelegate(RecordDelegate(specs, self.table))
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setSizeAdjustPolicy(QAbstractScrollArea.SizeAdjustPolicy.AdjustToContents)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setMinimumSectionSize(40)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.setToolTip(f"One row per {noun}: click a cell and type; Tab moves on, Esc cancels")
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
        self.remove_button.setToolTip(f"Remove the {noun} of the selected cell")
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

    def cell_rect(self, row: int, col: int):
        """Where cell (row, col) is drawn, in the table's viewport coordinates."""
        return self.table.visualRect(self.model.index(row, col))

    def refresh(self) -> None:
        """Show or hide the table and its hint; fit the height to the rows."""
        items = self.items()
        self.table.setVisible(bool(items))
        self.empty.setVisible(not items)
        self.remove_button.setEnabled(bool(items))
        self._fit_height()

    def _fit_height(self) -> None:
        rows = self.model.rowCount()
        header = self.table.horizontalHeader()
        height = max(header.sizeHint().height(), header.height() if header.isVisible() else 0)
        height += 2 * self.table.frameWidth()
        height += sum(self.table.rowHeight(r) for r in range(rows))
        if self.table.horizontalScrollBar().isVisible():
            height += self.table.horizontalScrollBar().sizeHint().height()
        self.table.setFixedHeight(height)

    def show_problems(self, problems: dict[str, str]) -> None:
        """The list's messages under the table, by row (the cells turn red through the model)."""
        lines = []
        base = path_text(self.list_path)
        if problems.get(base):
            lines.append(problems[base])
        for row in range(len(self.items())):
            for spec in self.specs:
                msg = problems.get(path_text(self.list_path + (row,) + spec.path), "")
                if msg:
                    lines.append(f"{self.noun.capitalize()} {row + 1}, {spec.label.lower()}: {msg}")
            prefix = path_text(self.list_path + (row,))
            for path, msg in problems.items():  # problems of the entry not tied to a column
                if path.startswith(prefix) and not any(
                        path == path_text(self.list_path + (row,) + s.path) for s in self.specs):
                    lines.append(f"{self.noun.capitalize()} {row + 1}: {path[len(prefix):].lstrip('.') or 'entry'}"
                                 f": {msg}")
        self.problems.setText("\n".join(lines))
        self.problems.setVisible(bool(lines))

    # --- editing ---------------------------------------------------------------------------
    def selected_row(self) -> int:
        """The row of the current cell, or -1."""
        cur = self.table.currentIndex()
        return cur.row() if cur.isValid() else -1

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
        index = self.model.index(len(items) - 1, 0)
        self.table.setCurrentIndex(index)
        self.table.setFocus()

    def remove(self) -> None:
        """Remove the entry of the current cell (the last one when none is current); an empty
        list is dropped."""
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



