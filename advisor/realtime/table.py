"""A task table as typed by a person (cells of text) read into tasks, with every problem named
by row and column: a row is either a task or has a problem, never silently left out."""

from __future__ import annotations

from knowledge.infra.errors import InputError

from .tasks import Task, parse_time, validate_task

#: the columns of a task table: name, period T_i, WCET C_i, deadline D_i (optional)
COLUMNS = ("name", "period", "wcet", "deadline")
_LABELS = {"name": "name", "period": "period", "wcet": "WCET", "deadline": "deadline"}


def read_task_rows(cells: list[list[str]], unit: str = "ms") -> tuple[list[tuple], dict[tuple[int, int], str]]:
    """``cells`` (rows of up to four texts: name, period, WCET, deadline; times in ``unit`` or with
    a unit suffix such as ``2ms``) -> (``[(name, period, wcet[, deadline]), ...]`` of the good rows,
    ``{(row, column): message}``). Wholly empty rows are skipped; a row without a name is named
    ``t<row number>``."""
    rows: list[tuple] = []
    problems: dict[tuple[int, int], str] = {}
    for i, raw in enumerate(cells):
        texts = [str(c).strip() if c is not None else "" for c in list(raw)[:4]]
        texts += [""] * (4 - len(texts))
        if not any(texts):
            continue
        name = texts[0] or f"t{i + 1}"
        values: dict[str, float | None] = {}
        for col in (1, 2, 3):
            key = COLUMNS[col]
            if not texts[col]:
                if col < 3:
                    problems[(i, col)] = f"{_LABELS[key]} is missing"
                values[key] = None
                continue
            try:
                values[key] = parse_time(texts[col], unit, _LABELS[key])
            except InputError as exc:
                problems[(i, col)] = str(exc).split(": ", 1)[-1]
        for col, message in _relations(values):  # every problem of the row, not the first one only
            problems[(i, col)] = f"{problems[(i, col)]}; {message}" if (i, col) in problems else message
        if any(r == i for r, _c in problems):
            continue
        task = Task(name, values["period"] or 0.0, values["wcet"] or 0.0, values["deadline"])
        try:
            validate_task(task, f"task {i + 1}")
        except InputError as exc:
            message = str(exc).split(": ", 1)[-1]
            problems[(i, _column_of(message))] = message.replace(f"task {name!r}: ", "")
            continue
        rows.append((name, task.period, task.wcet) + ((task.deadline,) if task.deadline is not None else ()))
    return rows, problems


def _relations(values: dict[str, float | None]) -> list[tuple[int, str]]:
    """(column, message) of each rule ``0 < C_i <= D_i <= T_i`` the row's given numbers break
    (a missing number breaks none: it is named as missing)."""
    period, wcet, deadline = values.get("period"), values.get("wcet"), values.get("deadline")
    out = []
    for col, key, value in ((1, "period", period), (2, "wcet", wcet), (3, "deadline", deadline)):
        if value is not None and not value > 0:
            out.append((col, f"{_LABELS[key]} must be a positive number, got {value:g}"))
    if deadline is not None and period is not None and 0 < period < deadline:
        out.append((3, f"deadline {deadline:g} is longer than the period {period:g} (D <= T is needed)"))
    limit = deadline if deadline is not None else period
    if wcet is not None and limit is not None and 0 < limit < wcet:
        out.append((2, f"WCET {wcet:g} exceeds its deadline {limit:g}"
                       f"{'' if deadline is not None else ' (the period)'}, so the task can never meet it"))
    return out


def _column_of(message: str) -> int:
    """The column a validation message is about (WCET, deadline, period, else the name)."""
    text = message.lower()
    for col, word in ((2, "wcet"), (3, "deadline"), (1, "period")):
        if text.split(": ", 1)[-1].startswith(word) or f": {word}" in text:
            return col
    return 0
