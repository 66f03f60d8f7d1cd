"""Qt item models over the knowledge base's rows (measurements, testbeds) and site measurements,
with a filter proxy that matches text in any column and factor conditions."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from advisor.figures.prose import fmt_value

__all__ = ["fmt_value"]  # re-exported: panels format numbers through the core

_NO_PARENT = QModelIndex()

MEASUREMENT_COLUMNS = ("document", "locator", "id", "metric", "value", "unit", "kind", "factors", "subject",
                       "testbed", "note")


class _RowsModel(QAbstractTableModel):
    """A read-only table of Python rows with named columns and headers."""

    def __init__(self, columns: tuple[str, ...], headers: tuple[str, ...], rows=(), parent=None):
        super().__init__(parent)
        self.columns, self.headers = columns, headers
        self._rows = list(rows)

    def set_rows(self, rows) -> None:
        """Replace every row."""
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def row_at(self, i: int):
        return self._rows[i]

    def display(self, row, col: str) -> str:
        """The text shown in column ``col`` of ``row`` (subclasses say how)."""
        return str(getattr(row, col, "") or "")

    def row_texts(self) -> list[str]:
        """Each row's shown texts joined and in lower case: what the filter searches."""
        cols = self.columns
        return [" ".join(self.display(r, c) for c in cols).lower() for r in self._rows]

    def rowCount(self, parent=_NO_PARENT) -> int:  # noqa: N802 - Qt override
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=_NO_PARENT) -> int:  # noqa: N802 - Qt override
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.headers[section]
        return None


class MeasurementTableModel(_RowsModel):
    """Rows of :class:`knowledge.store.MeasurementRow`; sorting by value uses the number."""

    def __init__(self, rows=(), parent=None):
        super().__init__(MEASUREMENT_COLUMNS, tuple(c.capitalize() for c in MEASUREMENT_COLUMNS), rows, parent)
        self._highlight: set[tuple[str, str]] = set()

    def set_rows(self, rows, highlight: set[tuple[str, str]] | None = None) -> None:
        """Replace the rows; ``highlight`` holds (document, id) pairs shown in bold."""
        self._highlight = set(highlight or ())
        super().set_rows(rows)

    def display(self, r, col: str) -> str:
        """The text shown in column ``col`` of row ``r``."""
        if col == "document":
            return r.document[:3]
        if col == "id":
            return r.key
        if col == "value":
            q = "" if r.qualifier == "=" else r.qualifier
            rng = f" [{fmt_value(r.value_low)}–{fmt_value(r.value_high)}]" if r.value_low is not None else ""
            return f"{q}{fmt_value(r.value)}{rng}"
        if col == "factors":
            return "; ".join(f"{k}={v}" for k, v in r.factors.items())
        return str(getattr(r, col, "") or "")

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        r = self._rows[index.row()]
        col = MEASUREMENT_COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.display(r, col)
        if role == Qt.ItemDataRole.UserRole:  # sort key
            if col == "value":
                return r.value_si if r.value_si is not None else r.value
            return self.data(index, Qt.ItemDataRole.DisplayRole)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{r.document} · {r.locator} · {r.key}\n{r.note}".strip()
        if role == Qt.ItemDataRole.FontRole and (r.document, r.key) in self._highlight:
            f = QFont()
            f.setBold(True)
            return f
        if role == Qt.ItemDataRole.BackgroundRole and (r.document, r.key) in self._highlight:
            return QBrush(QColor(255, 210, 63, 70))
        if role == Qt.ItemDataRole.TextAlignmentRole and col == "value":
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class RecordTableModel(_RowsModel):
    """Generic rows of dataclass-like records (or dicts) with chosen attribute columns."""

    def __init__(self, columns: tuple[str, ...], rows=(), headers: tuple[str, ...] | None = None, parent=None):
        super().__init__(columns, headers or tuple(c.replace("_", " ").capitalize() for c in columns), rows,
                         parent)

    def _value(self, row, col: str):
        return row.get(col) if isinstance(row, dict) else getattr(row, col, "")

    @staticmethod
    def _shown(value) -> str:
        if isinstance(value, float):
            return fmt_value(value)
        if isinstance(value, dict):
            return "; ".join(f"{k}={v}" for k, v in value.items())
        return "" if value is None else str(value)

    def display(self, row, col: str) -> str:
        """The text shown in column ``col`` of ``row``."""
        return self._shown(self._value(row, col))

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        value = self._value(self._rows[index.row()], self.columns[index.column()])
        if role == Qt.ItemDataRole.DisplayRole:
            return self._shown(value)
        if role == Qt.ItemDataRole.UserRole:
            return value if isinstance(value, int | float) else self.data(index)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.data(index)
        return None


# source-model signals after which the rows' texts are made again
_CHANGE_SIGNALS = ("modelReset", "dataChanged", "rowsInserted", "rowsRemoved", "rowsMoved", "layoutChanged")


class FilterProxy(QSortFilterProxyModel):
    """Case-insensitive match of every word of the filter text in any column; numeric sorting.

    Each source row's text (its columns joined, lower case) is made once per change of the source
    model and kept, so a keystroke in the filter only tests words against ready strings.
    """

    def __init__(self, parent=None):
        super().__init__(parent)
        self._words: list[str] = []
        self._haystack: list[str] | None = None
        self.setSortRole(Qt.ItemDataRole.UserRole)
        self.setDynamicSortFilter(True)

    def setSourceModel(self, model) -> None:  # noqa: N802 - Qt override
        old = self.sourceModel()
        if old is not None:
            for signal in _CHANGE_SIGNALS:
                getattr(old, signal).disconnect(self._forget)
        super().setSourceModel(model)
        self._haystack = None
        if model is not None:
            for signal in _CHANGE_SIGNALS:
                getattr(model, signal).connect(self._forget)

    def _forget(self, *_args) -> None:
        self._haystack = None

    def _texts(self) -> list[str]:
        if self._haystack is None:
            model = self.sourceModel()
            if isinstance(model, _RowsModel):
                self._haystack = model.row_texts()
            else:
                cols = range(model.columnCount())
                self._haystack = [" ".join(str(model.data(model.index(r, c)) or "") for c in cols).lower()
                                  for r in range(model.rowCount())]
        return self._haystack

    def set_text(self, text: str) -> None:
        words = [w.lower() for w in text.split() if w]
        if words == self._words:
            return
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9
            self.beginFilterChange()
            self._words = words
            self.endFilterChange()
        else:
            self._words = words
            self.invalidateFilter()

    def filterAcceptsRow(self, row: int, parent: QModelIndex) -> bool:  # noqa: N802 - Qt override
        if not self._words:
            return True
        if parent.isValid():
            return True
        texts = self._texts()
        if row >= len(texts):  # a change not yet signalled: read the row afresh
            self._haystack = None
            texts = self._texts()
        text = texts[row]
        return all(w in text for w in self._words)

    def lessThan(self, left: QModelIndex, right: QModelIndex) -> bool:  # noqa: N802 - Qt override
        a, b = left.data(Qt.ItemDataRole.UserRole), right.data(Qt.ItemDataRole.UserRole)
        if isinstance(a, int | float) and isinstance(b, int | float):
            return a < b
        return str(a or "") < str(b or "")
