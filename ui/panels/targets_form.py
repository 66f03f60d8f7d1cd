"""The scenario editor's targets (``preferences.targets``): one row per target with its value
(empty leaves it out) and whether it is hard; written to the document as a number (hard) or
``{value, hard: false}``, the file format the engine reads. Per-workload targets stay in the file."""

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


class TargetsForm(QWidget):
    """Value and hard/soft per target, bound to ``preferences.targets`` of ``document``."""

    def __init__(self, document: ScenarioDocument, parent: QWidget | None = None):
        super().__init__(parent)
        self.document = document
        self.values: dict[str, NumberEdit] = {}
        self.hard: dict[str, QCheckBox] = {}
        self.errors: dict[str, QLabel] = {}
        self._refreshing = False
        form = QFormLayout(self)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        form.setContentsMargins(6, 6, 6, 6)
        for name, (unit, kind, scope) in TARGETS.items():
            spin = NumberEdit(unit, step=STEPS[name], optional=True)
            spin.setObjectName(f"target_{name}")
            spin.setMinimumWidth(90)
            spin.setMaximumWidth(200)
            which = "at most" if kind == "max" else "at least"
            where = "on every host" if scope == "cluster" else "for every workload"
            title = TARGET_LABELS[name][:1].upper() + TARGET_LABELS[name][1:]
            spin.setToolTip(f"{title} {which} this, {where} ({name}; unit: {unit}); "
                            "not set: no target")
            hard = QCheckBox("hard")
            hard.setObjectName(f"target_{name}_hard")
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
        self.document.set((*PATH, name), data, f"Edit target {TARGET_LABELS[name]}")

    def refresh(self) -> None:
        """Show the document's targets (a number, or ``{value, hard}``) without writing back."""
        self._refreshing = True
        try:
            for name in TARGETS:
                raw = self.document.get((*PATH, name))
                value, hard = raw, True
                if isinstance(raw, dict):
                    value, hard = raw.get("value"), raw.get("hard", True)
                self.values[name].setValue(value)
                self.hard[name].setChecked(bool(hard))
                self.hard[name].setEnabled(value is not None)
        finally:
            self._refreshing = False

    def show_problems(self, problems: dict[str, str]) -> None:
        for name in TARGETS:
            base = path_text((*PATH, name))
            msg = problems.get(base) or problems.get(f"{base}.value") or problems.get(f"{base}.hard") or ""
            self.errors[name].setText(msg)
            self.errors[name].setVisible(bool(msg))
