"""The open scenario as an editable document: plain data in the file format, undo/redo, file path,
unsaved-changes flag and validation problems by field path.

The data is the mapping :func:`advisor.scenario.parse_scenario` reads (``hosts``, ``workloads``,
``preferences``); views address a value by a path tuple such as ``("workloads", 0, "vms")``, whose
text form ``workloads[0].vms`` is the one validation messages use. Validation is the core's
(:func:`advisor.scenario.parse_scenario`); this module only maps its messages to fields.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from knowledge.infra.errors import InputError

Path_ = tuple[str | int, ...]

_PROBLEM = re.compile(r"^\s*([A-Za-z_][\w\[\].]*): (.+)$")


def path_text(path: Path_) -> str:
    """``("workloads", 0, "vms")`` -> ``"workloads[0].vms"``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def get_in(data: Any, path: Path_, default: Any = None) -> Any:
    """The value at ``path`` in nested dicts/lists, or ``default``."""
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return default
    return data


def set_in(data: dict, path: Path_, value: Any) -> None:
    """Set the value at ``path``, creating dicts and list entries on the way; ``None`` removes a key."""
    node: Any = data
    for i, part in enumerate(path[:-1]):
        nxt = path[i + 1]
        empty: Any = [] if isinstance(nxt, int) else {}
        if isinstance(part, int):
            while len(node) <= part:
                node.append({} if not isinstance(nxt, int) else [])
            if node[part] is None:
                node[part] = empty
            node = node[part]
        else:
            if node.get(part) is None:
                node[part] = empty
            node = node[part]
    last = path[-1]
    if isinstance(last, int):
        while len(node) <= last:
            node.append(None)
        node[last] = value
    elif value is None:
        node.pop(last, None)
    else:
        node[last] = value


def problems_by_path(exc: InputError) -> dict[str, str]:
    """Map the lines ``path: message`` of a scenario validation error to ``{path: message}``;
    anything not in that form goes under the key ``""``."""
    out: dict[str, str] = {}
    lines = str(exc).splitlines()
    for line in lines[1:] if len(lines) > 1 else lines:
        m = _PROBLEM.match(line)
        if m:
            out.setdefault(m.group(1), m.group(2))
        elif line.strip():
            out[""] = (out.get("", "") + " " + line.strip()).strip()
    return out


class _SetValue(QUndoCommand):
    def __init__(self, doc: ScenarioDocument, path: Path_, old: Any, new: Any, text: str):
        super().__init__(text)
        self.doc, self.path, self.old, self.new = doc, path, old, new

    def id(self) -> int:  # consecutive edits of one field merge into one undo step
        return 1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt override
        if isinstance(other, _SetValue) and other.path == self.path:
            self.new = other.new
            return True
        return False

    def redo(self) -> None:
        self.doc._apply(self.path, self.new)

    def undo(self) -> None:
        self.doc._apply(self.path, self.old)


class _Replace(QUndoCommand):
    def __init__(self, doc: ScenarioDocument, old: dict, new: dict, text: str):
        super().__init__(text)
        self.doc, self.old, self.new = doc, old, new

    def redo(self) -> None:
        self.doc._replace(copy.deepcopy(self.new))

    def undo(self) -> None:
        self.doc._replace(copy.deepcopy(self.old))


class ScenarioDocument(QObject):
    """The scenario being edited. ``sig_changed(path)`` after every change (``()`` = everything),
    ``sig_validated(problems)`` with ``{path text: message}``, ``sig_dirty(bool)``, ``sig_path(str)``."""

    sig_changed = Signal(object)
    sig_validated = Signal(dict)
    sig_dirty = Signal(bool)
    sig_path = Signal(str)

    def __init__(self, data: dict | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self._data: dict = copy.deepcopy(data) if data is not None else {}
        self.path: Path | None = None
        self.problems: dict[str, str] = {}
        self.scenario = None  # the last valid advisor.scenario.Scenario
        self.validate()

    def _on_clean_changed(self, clean: bool) -> None:
        self.sig_dirty.emit(not clean)

    # --- reading -------------------------------------------------------------------------
    @property
    def data(self) -> dict:
        """The current data (do not modify; use :meth:`set`)."""
        return self._data

    def get(self, path: Path_, default: Any = None) -> Any:
        return get_in(self._data, path, default)

    @property
    def dirty(self) -> bool:
        return not self.undo_stack.isClean()

    @property
    def title(self) -> str:
        name = self._data.get("name") or (self.path.stem if self.path else "untitled")
        return str(name)

    # --- editing -------------------------------------------------------------------------
    def set(self, path: Path_, value: Any, text: str | None = None) -> None:
        """Change one value (undoable; consecutive edits of the same field merge). A value an
        imported estate only assumed is declared once edited: its ``assumed`` mark goes in the same
        undo step (advisor.inventory.marks_after_edit)."""
        from advisor.inventory import marks_after_edit

        old = copy.deepcopy(self.get(path))
        if old == value:
            return
        text = text or f"Edit {path_text(path)}"
        marks = marks_after_edit(self._data, tuple(path))
        if not marks:
            self.undo_stack.push(_SetValue(self, tuple(path), old, copy.deepcopy(value), text))
            return
        self.undo_stack.beginMacro(text)
        self.undo_stack.push(_SetValue(self, tuple(path), old, copy.deepcopy(value), text))
        for where, kept in marks.items():
            self.undo_stack.push(_SetValue(self, where, copy.deepcopy(self.get(where)), kept or None, text))
        self.undo_stack.endMacro()

    def replace(self, data: dict, text: str) -> None:
        """Replace the whole data (undoable), e.g. adding or removing a workload."""
        self.undo_stack.push(_Replace(self, copy.deepcopy(self._data), copy.deepcopy(data), text))

    def load_data(self, data: dict, path: Path | None = None) -> None:
        """Start over with ``data`` (not undoable; the document is clean afterwards)."""
        self.undo_stack.clear()
        self.path = Path(path) if path else None
        self._replace(copy.deepcopy(data))
        self.undo_stack.setClean()
        self.sig_dirty.emit(False)
        self.sig_path.emit(str(self.path or ""))

    def _apply(self, path: Path_, value: Any) -> None:
        set_in(self._data, path, copy.deepcopy(value))
        self.validate()
        self.sig_changed.emit(path)

    def _replace(self, data: dict) -> None:
        self._data = data
        self.validate()
        self.sig_changed.emit(())

    # --- validation and files ------------------------------------------------------------
    def validate(self) -> dict[str, str]:
        """Run the core's validation; remember and announce the problems by path."""
        from advisor.scenario import parse_scenario

        try:
            self.scenario = parse_scenario(self._data, self.title)
            self.problems = {}
        except InputError as exc:
            self.problems = problems_by_path(exc)
        self.sig_validated.emit(self.problems)
        return self.problems

    def open(self, path: Path) -> None:
        """Read a scenario file (YAML, TOML or JSON). A valid one is shown in its canonical form;
        one with wrong values opens as written, its problems marked, so that they can be fixed
        (it cannot be saved before). Raises InputError when the file cannot be read or parsed,
        or is no scenario at all (not a mapping)."""
        from advisor.scenario import parse_scenario, read_scenario_data

        data = read_scenario_data(path)
        if not isinstance(data, dict):
            found = "an empty file" if data is None else f"a {type(data).__name__}"
            raise InputError(f"{Path(path).name}: not a scenario (expected hosts and workloads, found {found})")
        try:
            data = parse_scenario(data, str(path)).to_dict()
        except InputError:
            pass  # opened as written; validate() marks the problems
        self.load_data(data, Path(path))

    def save(self, path: Path | None = None) -> Path:
        """Write the scenario (format by suffix) atomically; refuses an invalid scenario."""
        from advisor.scenario import parse_scenario, save_scenario

        target = Path(path) if path else self.path
        if target is None:
            raise InputError("choose a file name first")
        scenario = parse_scenario(self._data, str(target))
        save_scenario(scenario, target)
        self.path = target
        self.undo_stack.setClean()
        self.sig_path.emit(str(target))
        return target
