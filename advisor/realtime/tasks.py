"""Hard real-time tasks and task sets: typed data, units, and CSV/JSON loading.

A task has a period ``T_i``, a worst-case execution time ``C_i`` and a relative deadline
``D_i <= T_i`` (``D_i = T_i`` when not given), as in thesis chapter 11, section 11.3. All times
of a :class:`TaskSet` are in one unit, ``TaskSet.unit`` (``"s"``, ``"ms"`` or ``"us"``); the
analysis is unit-free, so every result is in the task set's unit too.

Files:

* CSV: a header ``name,period,wcet[,deadline]`` then one task per line; ``#`` starts a comment.
  A value is a number in the file's unit (``unit=`` argument, default ms) or a number with a
  unit suffix (``16ms``, ``2.5us``, ``0.1s``).
* JSON: ``{"unit": "ms", "tasks": [{"name": ..., "period": ..., "wcet": ..., "deadline": ...}]}``
  or just the list of task objects; values are numbers or strings with a unit suffix.

Every problem is an :class:`knowledge.infra.errors.InputError` naming the file and line or field.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from advisor.realtime import MAX_TASKS
from knowledge.infra.errors import InputError

#: no time (period, wcet, deadline, overhead) may exceed this, in any unit
MAX_TIME = 1e12
#: the largest task file read (far more than 10,000 tasks need)
MAX_TASK_FILE_BYTES = 16 * 1024 * 1024

#: seconds per unit
UNITS: dict[str, float] = {"s": 1.0, "ms": 1e-3, "us": 1e-6}
_EXPONENT = {"s": 0, "ms": 3, "us": 6}  # unit = 10^-exponent s; conversions multiply or divide by 10^k
_UNIT_ALIASES = {"sec": "s", "msec": "ms", "µs": "us", "μs": "us", "usec": "us"}
_VALUE_RE = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([a-zA-Zµμ]*)\s*$")


def normalize_unit(unit: str) -> str:
    """``"ms"``, ``"msec"`` ... -> the canonical unit name; unknown units raise InputError."""
    name = _UNIT_ALIASES.get(unit.strip(), unit.strip())
    if name not in UNITS:
        raise InputError(f"unknown time unit {unit!r}; use one of {', '.join(UNITS)}")
    return name


def convert(value: float, from_unit: str, to_unit: str) -> float:
    """``value`` in ``from_unit`` expressed in ``to_unit`` (both of :data:`UNITS`), exact to rounding:
    ``2 ms`` is ``2000.0 us`` and ``40 us`` is ``0.04 ms``."""
    k = _EXPONENT[normalize_unit(to_unit)] - _EXPONENT[normalize_unit(from_unit)]
    return value * 10**k if k >= 0 else value / 10**-k


def parse_time(text: object, unit: str, where: str) -> float:
    """A time value (number, or string with an optional unit suffix) in ``unit``.

    ``where`` names the file and line/field for the error message.
    """
    if isinstance(text, bool):
        raise InputError(f"{where}: expected a time, got {text!r}")
    if isinstance(text, int | float):
        try:
            value = float(text)
        except OverflowError:  # an integer beyond any float
            raise InputError(f"{where}: a {len(str(text))}-digit number is not a usable time") from None
    else:
        match = _VALUE_RE.match(str(text))
        if not match:
            raise InputError(f"{where}: {text!r} is not a time (a number, optionally with s, ms or us)")
        value = float(match.group(1))
        if match.group(2):
            try:
                value = convert(value, match.group(2), unit)
            except InputError:
                raise InputError(f"{where}: unknown time unit {match.group(2)!r} in {text!r}; "
                                 f"use s, ms or us") from None
    if not math.isfinite(value):
        raise InputError(f"{where}: {str(text)[:40]!r} is not a finite time")
    if abs(value) > MAX_TIME:
        raise InputError(f"{where}: {value:g} is too large a time (at most {MAX_TIME:g})")
    return value


@dataclass(frozen=True)
class Task:
    """One periodic task: period ``T_i``, worst-case execution time ``C_i``, deadline ``D_i``.

    Times are in the unit of the enclosing :class:`TaskSet`. ``deadline=None`` means ``D_i = T_i``.
    """

    name: str
    period: float
    wcet: float
    deadline: float | None = None

    @property
    def relative_deadline(self) -> float:
        """``D_i`` (the period when no deadline was given), in the task set's unit."""
        return self.period if self.deadline is None else self.deadline

    @property
    def utilization(self) -> float:
        """``C_i / T_i`` (dimensionless)."""
        return self.wcet / self.period


def validate_task(task: Task, where: str) -> None:
    """Raise InputError unless ``0 < C_i <= D_i <= T_i`` and the name is usable."""
    if not task.name or not task.name.strip():
        raise InputError(f"{where}: a task needs a name")
    for label, value in (("period", task.period), ("wcet", task.wcet)):
        if not math.isfinite(value) or value <= 0:
            raise InputError(f"{where}: task {task.name!r}: {label} must be a positive number, got {value!r}")
    if task.deadline is not None:
        if not math.isfinite(task.deadline) or task.deadline <= 0:
            raise InputError(f"{where}: task {task.name!r}: deadline must be positive, got {task.deadline!r}")
        if task.deadline > task.period:
            raise InputError(f"{where}: task {task.name!r}: deadline {task.deadline:g} is longer than the "
                             f"period {task.period:g}; only constrained deadlines (D <= T) are supported")
    if task.wcet > task.relative_deadline:
        raise InputError(f"{where}: task {task.name!r}: wcet {task.wcet:g} exceeds its deadline "
                         f"{task.relative_deadline:g}, so it can never meet it")


@dataclass(frozen=True)
class TaskSet:
    """An ordered collection of tasks, all times in ``unit`` (``"s"``, ``"ms"`` or ``"us"``).

    ``source`` names where it came from (a file path) for messages; the order of ``tasks`` is the
    order of the input, not the priority order (see :meth:`priority_order`).
    """

    tasks: tuple[Task, ...]
    unit: str = "ms"
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tasks", tuple(self.tasks))
        object.__setattr__(self, "unit", normalize_unit(self.unit))
        where = self.source or "task set"
        if not self.tasks:
            raise InputError(f"{where}: no tasks")
        if len(self.tasks) > MAX_TASKS:
            raise InputError(f"{where}: {len(self.tasks):,} tasks; at most {MAX_TASKS:,} are analysed")
        seen: set[str] = set()
        for i, task in enumerate(self.tasks):
            validate_task(task, f"{where}: task {i + 1}")
            if task.name in seen:
                raise InputError(f"{where}: task name {task.name!r} appears twice")
            seen.add(task.name)

    @classmethod
    def from_tuples(cls, rows: Iterable[Sequence], unit: str = "ms", source: str = "") -> TaskSet:
        """Build from ``(name, period, wcet[, deadline])`` tuples (times in ``unit``)."""
        tasks = []
        for row in rows:
            name, period, wcet, *rest = row
            tasks.append(Task(str(name), float(period), float(wcet), float(rest[0]) if rest else None))
        return cls(tuple(tasks), unit, source)

    def __len__(self) -> int:
        return len(self.tasks)

    @property
    def utilization(self) -> float:
        """``U = sum C_i / T_i`` (dimensionless)."""
        return math.fsum(t.utilization for t in self.tasks)

    @property
    def names(self) -> list[str]:
        return [t.name for t in self.tasks]

    @property
    def has_constrained_deadlines(self) -> bool:
        """True if some ``D_i < T_i`` (then fixed priorities are deadline-monotonic)."""
        return any(t.deadline is not None and t.deadline < t.period for t in self.tasks)

    def priority_order(self) -> list[int]:
        """Indices of ``tasks``, highest priority first: rate-monotonic (shortest period first) or,
        with constrained deadlines, deadline-monotonic; ties keep the input order (section 11.4)."""
        return sorted(range(len(self.tasks)),
                      key=lambda i: (self.tasks[i].relative_deadline, self.tasks[i].period, i))

    def scaled(self, speed_scale: float | None) -> TaskSet:
        """The task set on a core ``speed_scale`` times as fast as the one ``C_i`` was measured on:
        ``C_i * s0 / s = C_i / speed_scale``. ``None`` or 1 returns ``self``."""
        if speed_scale is None or speed_scale == 1:
            return self
        if not math.isfinite(speed_scale) or speed_scale <= 0:
            raise InputError(f"speed scale must be a positive number, got {speed_scale!r}")
        return replace(self, tasks=tuple(replace(t, wcet=t.wcet / speed_scale) for t in self.tasks))

    def in_unit(self, unit: str) -> TaskSet:
        """The same task set with every time expressed in ``unit``."""
        unit = normalize_unit(unit)
        if unit == self.unit:
            return self
        def f(v: float) -> float:
            return convert(v, self.unit, unit)
        return replace(self, unit=unit, tasks=tuple(
            Task(t.name, f(t.period), f(t.wcet), None if t.deadline is None else f(t.deadline))
            for t in self.tasks))

    def to_dict(self) -> dict:
        """The JSON form read by :func:`load_taskset`."""
        return {"unit": self.unit, "tasks": [
            {"name": t.name, "period": t.period, "wcet": t.wcet,
             **({} if t.deadline is None else {"deadline": t.deadline})} for t in self.tasks]}


# ----------------------------------------------------------------------------------------- loading

def load_taskset(path: str | Path, unit: str | None = None) -> TaskSet:
    """Read a task set from a CSV or JSON file (chosen by extension, else by content).

    ``unit`` is the unit of bare numbers (default: the JSON ``unit`` key, else ms).
    """
    from knowledge.infra.files import read_regular_text

    path = Path(path)
    text = read_regular_text(path, "task set", MAX_TASK_FILE_BYTES).removeprefix("\ufeff")
    is_json = path.suffix.lower() == ".json" or (path.suffix.lower() != ".csv"
                                                 and text.lstrip()[:1] in ("{", "["))
    return parse_json(text, str(path), unit) if is_json else parse_csv(text, str(path), unit)


def parse_csv(text: str, source: str = "<csv>", unit: str | None = None) -> TaskSet:
    """Parse ``name,period,wcet[,deadline]`` CSV text; ``source`` names it in error messages."""
    unit = normalize_unit(unit or "ms")
    rows = []
    for lineno, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        cells = [c.strip() for c in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        rows.append((lineno, cells))
    if not rows:
        raise InputError(f"{source}: no tasks (expected a header name,period,wcet[,deadline] and rows)")
    columns = ["name", "period", "wcet", "deadline"]
    first_line, first = rows[0]
    if first and first[0].lower() == "name":
        header = [c.lower() for c in first]
        unknown = [c for c in header if c not in columns]
        missing = [c for c in columns[:3] if c not in header]
        if unknown or missing:
            raise InputError(f"{source}, line {first_line}: header must be name,period,wcet[,deadline]"
                             + (f"; unknown column(s) {', '.join(unknown)}" if unknown else "")
                             + (f"; missing {', '.join(missing)}" if missing else ""))
        columns = header
        rows = rows[1:]
    tasks = []
    for lineno, cells in rows:
        where = f"{source}, line {lineno}"
        if len(cells) > len(columns) and any(cells[len(columns):]):
            raise InputError(f"{where}: {len(cells)} fields, expected at most {len(columns)} "
                             f"({','.join(columns)})")
        record = dict(zip(columns, cells, strict=False))
        for col in ("name", "period", "wcet"):
            if not record.get(col):
                raise InputError(f"{where}: missing {col}")
        deadline = record.get("deadline") or None
        task = Task(record["name"], parse_time(record["period"], unit, f"{where}, period"),
                    parse_time(record["wcet"], unit, f"{where}, wcet"),
                    None if deadline is None else parse_time(deadline, unit, f"{where}, deadline"))
        validate_task(task, where)
        tasks.append(task)
    return TaskSet(tuple(tasks), unit, source)


def _refuse_duplicates(data: object, where: str) -> None:
    """A key given twice in a mapping of the file is refused as the scenario refuses it."""
    for key, _line in getattr(data, "duplicates", ()):
        raise InputError(f"{where}: {key}: duplicate key: a key may appear once in a mapping")


def parse_json(text: str, source: str = "<json>", unit: str | None = None) -> TaskSet:
    """Parse a JSON task set (object with ``tasks`` and optional ``unit``, or a list of tasks)."""
    from knowledge.infra.userdata import loads

    data = loads(text, "json", source)  # the parse every user file shares: mappings remember a key given twice
    _refuse_duplicates(data, source)
    if isinstance(data, dict):
        if "tasks" not in data:
            raise InputError(f"{source}: expected a key 'tasks' (a list of tasks)")
        file_unit = data.get("unit")
        if file_unit is not None and not isinstance(file_unit, str):
            raise InputError(f"{source}: unit: expected a string such as \"ms\"")
        items = data["tasks"]
    else:
        file_unit, items = None, data
    try:
        unit = normalize_unit(unit or file_unit or "ms")
    except InputError as exc:
        raise InputError(f"{source}: unit: {exc}") from None
    if not isinstance(items, list):
        raise InputError(f"{source}: tasks: expected a list of task objects")
    tasks = []
    for i, item in enumerate(items):
        where = f"{source}: tasks[{i}]"
        if not isinstance(item, dict):
            raise InputError(f"{where}: expected an object with name, period, wcet[, deadline]")
        _refuse_duplicates(item, where)
        unknown = sorted(set(item) - {"name", "period", "wcet", "deadline"})
        if unknown:
            raise InputError(f"{where}: unknown field(s) {', '.join(unknown)}")
        for key in ("name", "period", "wcet"):
            if item.get(key) in (None, ""):
                raise InputError(f"{where}.{key}: missing")
        deadline = item.get("deadline")
        task = Task(str(item["name"]), parse_time(item["period"], unit, f"{where}.period"),
                    parse_time(item["wcet"], unit, f"{where}.wcet"),
                    None if deadline is None else parse_time(deadline, unit, f"{where}.deadline"))
        validate_task(task, where)
        tasks.append(task)
    return TaskSet(tuple(tasks), unit, source)
