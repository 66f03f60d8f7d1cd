"""Form fields bound to a :class:`~ui.document.ScenarioDocument`: one editor per value, its unit,
a tooltip, and the validation message of its path shown right under it.

A :class:`FieldSpec` names the path (relative to a prefix such as ``("workloads", 2)``), the kind
of editor and its unit; :class:`BoundForm` builds a QFormLayout from specs, writes every edit to
the document (undoable) and refreshes the editors when the document changes (undo, open).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ui.document import ScenarioDocument, path_text

#: the value an optional number shows as "not set"
UNSET = -1.0


@dataclass(frozen=True)
class FieldSpec:
    """One field: ``kind`` is int, float, optfloat (may be unset), choice, bool or text."""

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

        if isinstance(w, QSpinBox | QDoubleSpinBox):
            w.valueChanged.connect(write)
        elif isinstance(w, QComboBox):
            w.currentTextChanged.connect(write)
        elif isinstance(w, QCheckBox):
            w.toggled.connect(write)
        elif isinstance(w, QLineEdit):
            w.textEdited.connect(write)

    _refreshing = False

    def refresh(self) -> None:
        """Show the document's values in the editors (without writing back)."""
        self._refreshing = True
        try:
            for spec in self.specs:
                w = self.editors[spec.path]
                value = self.document.get(self.full_path(spec))
                if value is None:
                    value = spec.default
                if isinstance(w, QSpinBox):
                    w.setValue(int(value) if value is not None else 0)
                elif isinstance(w, QDoubleSpinBox):
                    w.setValue(float(value) if value is not None else UNSET)
                elif isinstance(w, QComboBox):
                    w.setCurrentText(str(value) if value is not None else spec.choices[0])
                elif isinstance(w, QCheckBox):
                    w.setChecked(bool(value))
                elif isinstance(w, QLineEdit) and w.text() != str(value or ""):
                    w.setText(str(value or ""))
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
