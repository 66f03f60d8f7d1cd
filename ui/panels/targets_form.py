"""The scenario editor's targets (``preferences.targets``): one row per target with its value
(empty leaves it out) and whether it is hard; written to the document as a number (hard) or
``{value, hard: false}``, the file format the engine reads. :class:`WorkloadTargetsForm` edits
the targets of one workload (``preferences.targets.workloads.<name>``, which replace the general
ones for it): the general value shows as the field's placeholder, a workload that loses its last
target leaves no empty entry, and a renamed workload keeps its targets."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QFormLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from advisor.recommend.targets import TARGET_LABELS
from advisor.scenario import TARGETS
from ui.document import ScenarioDocument, path_text
from ui.panels.editors import NumberEdit

PATH = ("preferences", "targets")
#: short labels (the field shows the unit, the tooltip says the rest): narrow on small screens
LABELS = {"max_host_cpu_pct": "Host CPU ≤", "max_boot_time_s": "Boot time ≤", "min_throughput_mb_s": "Per-VM I/O ≥",
          "max_response_time_ms": "Response ≤", "max_migration_downtime_ms": "Downtime ≤"}
#: the step of Up/Down per target
STEPS = {"max_host_cpu_pct": 5.0, "max_boot_time_s": 5.0, "min_throughput_mb_s": 1.0, "max_response_time_ms": 1.0,
         "max_migration_downtime_ms": 100.0}


#: the targets a single workload can have (host CPU is the cluster's)
WORKLOAD_TARGETS = tuple(n for n, (_unit, _kind, scope) in TARGETS.items() if scope != "cluster")


class TargetsForm(QWidget):
    """Value and hard/soft per target, bound to ``preferences.targets`` of ``document`` (or to
    ``path`` for the ``names`` given)."""

    prefix = "target"

    def __init__(self, document: ScenarioDocument, parent: QWidget | None = None, *,
                 path: tuple = PATH, names: tuple[str, ...] | None = None):
        super().__init__(parent)
        self.document = document
        self.path = tuple(path)
        self.names = tuple(names or TARGETS)
        self.values: dict[str, NumberEdit] = {}
        self.hard: dict[str, QCheckBox] = {}
        self.errors: dict[str, QLabel] = {}
        self._refreshing = False
        form = QFormLayout(self)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        form.setContentsMargins(6, 6, 6, 6)
        for name in self.names:
            unit, kind, scope = TARGETS[name]
            spin = NumberEdit(unit, step=STEPS[name], optional=True)
            spin.setObjectName(f"{self.prefix}_{name}")
            spin.setMinimumWidth(90)
            spin.setMaximumWidth(200)
            which = "at most" if kind == "max" else "at least"
            where = ("on every host" if scope == "cluster" else "for every workload" if self.path == PATH
                     else "for this workload (replaces the target for every workload)")
            title = TARGET_LABELS[name][:1].upper() + TARGET_LABELS[name][1:]
            spin.setToolTip(f"{title} {which} this, {where} ({name}; unit: {unit}); "
                            "not set: no target")
            hard = QCheckBox("hard")
            hard.setObjectName(f"{self.prefix}_{name}_hard")
            hard.setChecked(True)
            hard.setToolTip("Hard: a plan that misses it is not offered (the host count says 'infeasible' and "
                            "names it). Soft: the advice shows how far it is missed.")
            error = QLabel()
            error.setObjectName("fieldError")
            error.setWordWrap(True)
            error.hide()
            row = QWidget()
            outer = QVBoxLayout(row)
            outer.setContentsMargins(0, 0, 0, 0)
            outer.setSpacing(2)
            line = QHBoxLayout()
            line.setContentsMargins(0, 0, 0, 0)
            line.addWidget(spin, 1)
            line.addWidget(hard)
            outer.addLayout(line)
            outer.addWidget(error)  # below the field, as the other forms show problems
            label = QLabel(LABELS[name])
            label.setBuddy(spin)
            label.setToolTip(spin.toolTip())
            form.addRow(label, row)
            self.values[name], self.hard[name], self.errors[name] = spin, hard, error
            spin.sig_edited.connect(lambda _v, n=name: self._write(n))
            hard.toggled.connect(lambda _v, n=name: self._write(n))
        document.sig_changed.connect(lambda _p: self.refresh())
        document.sig_validated.connect(self.show_problems)
        self.refresh()

    def _write(self, name: str) -> None:
        if self._refreshing:
            return
        value = self.values[name].value()  # a number, None (empty) or the text typed: the core judges it
        if value is None:
            data = None
        elif self.hard[name].isChecked():
            data = value
        else:
            data = {"value": value, "hard": False}
        self.hard[name].setEnabled(data is not None)
        self.document.set((*self.path, name), data, f"Edit target {TARGET_LABELS[name]}")

    def refresh(self) -> None:
        """Show the document's targets (a number, or ``{value, hard}``) without writing back."""
        self._refreshing = True
        try:
            for name in self.names:
                raw = self.document.get((*self.path, name))
                value, hard = raw, True
                if isinstance(raw, dict):
                    value, hard = raw.get("value"), raw.get("hard", True)
                self.values[name].setValue(value)
                self.hard[name].setChecked(bool(hard))
                self.hard[name].setEnabled(value is not None)
        finally:
            self._refreshing = False

    def show_problems(self, problems: dict[str, str]) -> None:
        for name in self.names:
            base = path_text((*self.path, name))
            msg = problems.get(base) or problems.get(f"{base}.value") or problems.get(f"{base}.hard") or ""
            self.errors[name].setText(msg)
            self.errors[name].setVisible(bool(msg))


class WorkloadTargetsForm(TargetsForm):
    """The targets of one workload (``preferences.targets.workloads.<name>``): :meth:`bind` it
    to the workload at an index of the document's workloads."""

    prefix = "workload_target"

    def __init__(self, document: ScenarioDocument, parent: QWidget | None = None):
        self.index: int | None = None
        self.bound_name: str | None = None
        super().__init__(document, parent, path=(*PATH, "workloads", ""), names=WORKLOAD_TARGETS)
        self.setEnabled(False)

    def _name_at(self, index: int | None) -> str | None:
        wls = self.document.get(("workloads",), []) or []
        if index is None or not 0 <= index < len(wls) or not isinstance(wls[index], dict):
            return None
        name = wls[index].get("name")
        return str(name) if name else None

    def bind(self, index: int | None) -> None:
        """Edit the targets of the workload at ``index`` (None: none)."""
        self.index = index
        self.bound_name = self._name_at(index)
        self.path = (*PATH, "workloads", self.bound_name or "")
        self.setEnabled(self.bound_name is not None)
        self.refresh()

    def refresh(self) -> None:
        name = self._name_at(self.index)
        if name is not None and self.bound_name is not None and name != self.bound_name:
            self._follow_rename(self.bound_name, name)
            return  # the move refreshes again
        super().refresh()
        general = self.document.get(PATH) or {}
        for target in self.names:  # what applies when this workload has none of its own
            raw = general.get(target) if isinstance(general, dict) else None
            value = raw.get("value") if isinstance(raw, dict) else raw
            self.values[target].setPlaceholderText(f"all: {value:g}" if isinstance(value, (int, float))
                                                   else "not set")

    def _follow_rename(self, old: str, new: str) -> None:
        """The workload was renamed: its targets move with it (one undoable step)."""
        self.bound_name = new
        self.path = (*PATH, "workloads", new)
        per = self.document.get((*PATH, "workloads")) or {}
        if isinstance(per, dict) and old in per and new not in per:
            moved = {(new if k == old else k): v for k, v in per.items()}
            self.document.set((*PATH, "workloads"), moved, "Rename workload targets")
        else:
            super().refresh()

    def _write(self, name: str) -> None:
        if self._refreshing or self.bound_name is None:
            return
        super()._write(name)
        per = self.document.get((*PATH, "workloads")) or {}
        if isinstance(per, dict) and not per.get(self.bound_name):  # no empty entries in the file
            rest = {k: v for k, v in per.items() if k != self.bound_name}
            self.document.set((*PATH, "workloads"), rest or None, "Edit workload targets")
