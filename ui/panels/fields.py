"""Form fields bound to a :class:`~ui.document.ScenarioDocument`: one editor per value, its unit,
a tooltip, and the validation message of its path shown right under it.

A :class:`FieldSpec` names the path (relative to a prefix such as ``("workloads", 2)``), the kind
of editor and its unit; :class:`BoundForm` builds a QFormLayout from specs, writes every edit to
the document (undoable) and refreshes the editors when the document changes (undo, open).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from ui.document import ScenarioDocument, get_in, path_text
from ui.panels.editors import ChoiceBox, NumberEdit, TextEdit

#: what an optional yes/no shows, and the value each entry stands for
OPTBOOL = (("not known", None), ("yes", True), ("no", False))


#: what an optional choice shows when it is not set
NOT_SET = "(not set)"


@dataclass(frozen=True)
class FieldSpec:
    """One field: ``kind`` is int, float, optfloat (may be unset), choice, optchoice (a choice or
    not set), bool, optbool (yes, no or not known) or text."""

    path: tuple
    label: str
    kind: str
    unit: str = ""
    tip: str = ""
    choices: tuple[str, ...] = ()
    default: object = None
    decimals: int = 2
    step: float = 1.0


#: the editor of each kind of the scenario's field table: (when the field has a value, when it may be unset)
_EDITOR_KINDS = {"int": ("int", "optfloat"), "float": ("float", "optfloat"), "choice": ("choice", "optchoice"),
                 "bool": ("bool", "optbool"), "text": ("text", "text")}


def table_specs(section: str, nested: bool = True) -> list[FieldSpec]:
    """The form of the scenario mapping ``section`` (``''``: the top level; ``hosts.disks``: one
    disk group), from the scenario's field table (:mod:`advisor.scenario.fields`): label, tip,
    unit, choices, default and bounds declared there; ``nested``: with its sections' fields."""
    from advisor.scenario.fields import form_fields

    out = []
    for f in form_fields(section, nested):
        optional = f.default is None and not f.required
        if f.kind == "text":  # an emptied optional text removes the key (its default applies)
            default: object = None if f.required else ""
        else:
            default = None if optional else f.default
        rel = f.path[len(section) + 1:] if section else f.path
        out.append(FieldSpec(tuple(rel.split(".")), f.label, _EDITOR_KINDS[f.kind][optional], f.unit, f.tip,
                             choices=f.choices, default=default, decimals=f.decimals, step=f.step))
    return out


#: how a field an imported scenario marks is shown: (label suffix, tooltip lead)
MARKS = {
    "assumed": (" <span style='color:#b35900'>⚠ assumed</span>",
                "Assumed: the imported estate's export does not carry this value; it is a default (listed under "
                "'assumed' in the scenario). Check it before trusting the advice."),
    "measured": (" <span style='color:#2e7d32'>● measured</span>",
                 "Measured: derived from the usage the estate's export or its utilisation series recorded (listed "
                 "under 'measured'; the scenario file's comment says when: a snapshot at export time, a collector's "
                 "average over its collection, or a percentile of the series)."),
}


def provenance(data: dict, full_path: tuple) -> str | None:
    """``assumed`` or ``measured`` when the scenario (an imported estate) marks the field at
    ``full_path`` so: a workload's own ``assumed`` / ``measured`` lists, ``estate.assumed`` for the
    hosts (a mark on ``hosts.cpu`` covers its fields); None otherwise."""
    if len(full_path) >= 3 and full_path[0] == "workloads" and isinstance(full_path[1], int):
        w = get_in(data, full_path[:2])
        name = ".".join(str(p) for p in full_path[2:])
        if isinstance(w, dict):
            if name in (w.get("assumed") or []):
                return "assumed"
            if name in (w.get("measured") or []):
                return "measured"
    elif full_path and full_path[0] == "hosts":
        estate = data.get("estate") if isinstance(data, dict) else None
        marks = (estate.get("assumed") or []) if isinstance(estate, dict) else []
        name = ".".join(str(p) for p in full_path)
        if any(name == m or name.startswith(m + ".") for m in marks if isinstance(m, str)):
            return "assumed"
    return None


class _Row(QWidget):
    """A field's editor with its problem message under it; the message's label is made with the
    first problem (a form of 26 fields starts with none: ~40 hidden labels less to build and style
    before the window's first paint, issue #30)."""

    def __init__(self, editor: QWidget, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(editor)
        self._error: QLabel | None = None

    @property
    def error(self) -> QLabel:
        """The label of the field's problem message (hidden while there is none)."""
        if self._error is None:
            self._error = QLabel(self)
            self._error.setObjectName("fieldError")
            self._error.setWordWrap(True)
            self._error.hide()
            self.layout().addWidget(self._error)
        return self._error

    def set_error(self, text: str) -> None:
        if text or self._error is not None:
            self.error.setText(text)
            self.error.setVisible(bool(text))


def spec_tip(spec: FieldSpec) -> str:
    """The tooltip of a field: what it is, its unit, how to change it."""
    tip = spec.tip + (f" (unit: {spec.unit})" if spec.unit else "")
    if spec.kind in ("int", "float", "optfloat"):
        tip += "; Up/Down step it" + ("; empty = not set" if spec.kind == "optfloat" else "")
    return tip


def make_editor(spec: FieldSpec, with_unit: bool = True) -> QWidget:
    """The editor widget for a spec, with its unit inside the field and a tooltip. Numbers are
    never clamped: what is typed goes to the document and the core's validation judges it."""
    w: QWidget
    if spec.kind in ("int", "float", "optfloat"):
        w = NumberEdit(spec.unit if with_unit else "", integer=spec.kind == "int", step=spec.step,
                       optional=spec.kind == "optfloat")
        if spec.kind != "optfloat" and spec.default is not None:
            w.setPlaceholderText(f"{spec.default:g} (default)")
    elif spec.kind == "choice":
        w = ChoiceBox()
        w.addItems(list(spec.choices))
    elif spec.kind == "bool":
        w = QCheckBox()
    elif spec.kind == "optbool":
        w = ChoiceBox()
        for text, value in OPTBOOL:
            w.addItem(text, value)
    elif spec.kind == "optchoice":
        w = ChoiceBox()
        w.addItem(NOT_SET, None)
        for choice in spec.choices:
            w.addItem(choice, choice)
    else:
        w = TextEdit()
        w.setClearButtonEnabled(True)
    if isinstance(w, NumberEdit | QComboBox):
        w.setMinimumWidth(110)
        w.setMaximumWidth(240)
    w.setToolTip(spec_tip(spec))
    w.setObjectName("field_" + path_text(spec.path).replace("[", "_").replace("]", "").replace(".", "_"))
    return w


#: how a problem's message names other fields (``hosts.count`` -> ``Hosts``): the scenario editor's
#: words, set by :mod:`ui.panels.qt_scenario` (which knows every field's label) with
#: :func:`set_problem_words`; None: as the core wrote it
_problem_words: Callable[[str, str, dict], str] | None = None


def set_problem_words(words: Callable[[str, str, dict], str] | None) -> None:
    """``words(problem's path, message, scenario data)``: a problem's message in the editor's words."""
    global _problem_words
    _problem_words = words


class BoundForm(QWidget):
    """A form of fields bound to ``document`` under ``prefix``."""

    def __init__(self, document: ScenarioDocument, specs: list[FieldSpec], prefix: tuple = (),
                 parent: QWidget | None = None, shown: int | None = None):
        super().__init__(parent)
        self.document = document
        self.prefix = tuple(prefix)
        self.specs: list[FieldSpec] = []
        self.later: list[FieldSpec] = list(specs[shown:]) if shown is not None else []
        self.editors: dict[tuple, QWidget] = {}
        self.rows: dict[tuple, _Row] = {}
        self.labels: dict[tuple, QLabel] = {}
        self.form = QFormLayout(self)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.form.setContentsMargins(6, 6, 6, 6)
        self.form.setVerticalSpacing(6)
        self._later_labels: QLabel | None = None
        if self.later:  # the label column as wide as with them: their labels in a row of no height
            self._later_labels = QLabel()
            self._later_labels.setFixedHeight(0)
            self.form.setWidget(0, QFormLayout.ItemRole.LabelRole, self._later_labels)
        self.add_rows(specs[:shown])
        document.sig_changed.connect(lambda _p: self.refresh())
        document.sig_validated.connect(self.show_problems)

    def add_rows(self, specs: list[FieldSpec]) -> None:
        """Add the fields of ``specs`` under the form's others, showing the document's values (a
        form's rows below the fold can come after the window's first paint, issue #30)."""
        for spec in specs:
            editor = make_editor(spec)
            row = _Row(editor)
            label = QLabel(self._label_text(spec))
            label.setBuddy(editor)
            label.setToolTip(editor.toolTip())
            self.form.insertRow(len(self.specs), label, row)
            self.specs.append(spec)
            self.editors[spec.path] = editor
            self.rows[spec.path] = row
            self.labels[spec.path] = label
            self._connect(spec, editor)
        self.refresh()
        self.show_problems(self.document.problems)

    def add_later(self, count: int | None = None) -> list[FieldSpec]:
        """Add the next ``count`` (default: all) of the fields the form was made without (``shown``);
        returns their specs. Until the last of them, a row of no height holds their labels, so that
        the fields above stand where they will stand with them (the widest label sets the column)."""
        specs, self.later = self.later[:count], self.later[len(self.later[:count]):]
        if not self.later and self._later_labels is not None:
            self.form.removeRow(self._later_labels)
            self._later_labels = None
        self.add_rows(specs)
        return specs

    def set_prefix(self, prefix: tuple) -> None:
        """Bind the same fields to another part of the document (e.g. another workload)."""
        self.prefix = tuple(prefix)
        self.refresh()
        self.show_problems(self.document.problems)

    def full_path(self, spec: FieldSpec) -> tuple:
        return self.prefix + spec.path

    @staticmethod
    def _label_text(spec: FieldSpec, mark: str | None = None) -> str:
        """The label (plain text), or with ``mark`` the label and its marker (rich text)."""
        text = spec.label + (f" ({spec.unit})" if spec.unit and spec.kind == "choice" else "")
        if not mark:
            return text
        from html import escape

        return escape(text) + MARKS[mark][0]

    def _connect(self, spec: FieldSpec, w: QWidget) -> None:
        def write(value) -> None:
            if self._refreshing:
                return
            if spec.kind == "text" and spec.default is not None and value == "":
                value = None
            path = self.full_path(spec)
            self.document.set(path, value, f"Edit {spec.label.lower()}")

        connect_editor(spec, w, write)

    _refreshing = False

    def refresh(self) -> None:
        """Show the document's values in the editors (without writing back)."""
        self._refreshing = True
        try:
            for spec in self.specs:
                show_value(spec, self.editors[spec.path], self.document.get(self.full_path(spec)))
                self.show_mark(spec)
        finally:
            self._refreshing = False
        if self._later_labels is not None:
            self._show_later_labels()

    def _show_later_labels(self) -> None:
        """The labels of the fields to come, as they will read (with their marks), one a line: the
        widest sets the column; of unmarked ones only the 3 longest (laying the text out costs)."""
        marks = [provenance(self.document.data, self.full_path(spec)) for spec in self.later]
        label = self._later_labels
        assert label is not None
        if any(marks):
            from html import escape

            label.setTextFormat(Qt.TextFormat.RichText)
            label.setText("<br>".join(self._label_text(spec, mark) if mark else escape(self._label_text(spec))
                                      for spec, mark in zip(self.later, marks, strict=True)))
        else:
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setText("\n".join(sorted((self._label_text(spec) for spec in self.later), key=len)[-3:]))

    def show_mark(self, spec: FieldSpec) -> None:
        """Mark the field when the scenario says it is assumed or measured (an imported estate)."""
        mark = provenance(self.document.data, self.full_path(spec))
        label, editor = self.labels[spec.path], self.editors[spec.path]
        label.setTextFormat(Qt.TextFormat.RichText if mark else Qt.TextFormat.PlainText)
        label.setText(self._label_text(spec, mark))
        tip = spec_tip(spec)
        if mark:
            tip = f"{MARKS[mark][1]}\n\n{tip}"
        label.setToolTip(tip)
        editor.setToolTip(tip)
        if editor.property("provenance") != (mark or ""):
            editor.setProperty("provenance", mark or "")
            editor.style().polish(editor)

    def show_problems(self, problems: dict[str, str]) -> None:
        """Show each problem next to the field of its path; clear the others."""
        for spec in self.specs:
            text = path_text(self.full_path(spec))
            msg = problems.get(text, "")
            if msg and "." in msg and _problem_words is not None:  # another field it names, in the
                # editor's words ("Hosts", not hosts.count)
                msg = _problem_words(text, msg, self.document.data)
            self.rows[spec.path].set_error(msg)
            editor = self.editors[spec.path]
            if bool(editor.property("invalid")) != bool(msg):  # polished again only when it changes:
                editor.setProperty("invalid", bool(msg))  # each polish matches the style sheet anew
                editor.style().polish(editor)


def connect_editor(spec: FieldSpec, w: QWidget, write: Callable[[object], None]) -> None:
    """Call ``write(value)`` whenever the user changes editor ``w`` (optbool: True, False or None;
    numbers: a number, None when emptied, or the text typed when it is not a number)."""
    if isinstance(w, NumberEdit):
        w.sig_edited.connect(write)
    elif spec.kind == "optbool":
        w.currentIndexChanged.connect(lambda i: write(OPTBOOL[i][1]))
    elif spec.kind == "optchoice":
        w.currentIndexChanged.connect(lambda i: write(w.itemData(i)))
    elif isinstance(w, QComboBox):
        w.currentTextChanged.connect(write)
    elif isinstance(w, QCheckBox):
        w.toggled.connect(write)
    elif isinstance(w, QLineEdit):
        w.textEdited.connect(write)


def show_value(spec: FieldSpec, w: QWidget, value) -> None:
    """Put ``value`` into editor ``w`` without side effects (a missing number shows empty, with
    the default as placeholder; a missing choice shows the default)."""
    if isinstance(w, NumberEdit):
        w.setValue(value)
        return
    if value is None:
        value = spec.default
    if spec.kind == "optbool":
        w.setCurrentIndex([v for _t, v in OPTBOOL].index(value if isinstance(value, bool) else None))
    elif spec.kind == "optchoice":
        if value is not None and w.findData(value) < 0:  # a value the list does not have: shown, judged by the core
            w.addItem(str(value), value)
        w.setCurrentIndex(max(w.findData(value), 0) if value is not None else 0)
    elif isinstance(w, QComboBox):
        text = str(value) if value is not None else spec.choices[0]
        if w.findText(text) < 0:  # a value the file has but the list does not: shown, judged by the core
            w.addItem(text)
        w.setCurrentText(text)
    elif isinstance(w, QCheckBox):
        w.setChecked(bool(value))
    elif isinstance(w, QLineEdit) and w.text() != str(value or ""):
        w.setText(str(value or ""))
        w.setCursorPosition(0)  # show the start of a long text
