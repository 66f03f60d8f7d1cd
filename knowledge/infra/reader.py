"""The validating reader of the user's files: typed access to one mapping of a file, every
problem collected by its path (``workloads[2].vcpus: must be >= 1``) instead of stopping at the
first, a key given twice (:class:`knowledge.infra.userdata.KeyedMapping`) or unknown refused in
the same words in every file (scenario, cost catalogue).

:class:`CheckedMapping` checks the mapping itself (a mapping, its known keys, no key twice);
:class:`MappingReader` adds the typed reads of strings, bounded numbers, booleans and lists. A
file whose fields follow other rules (the cost catalogue's) reads them its own way on a
:class:`CheckedMapping`.
"""

from __future__ import annotations

import math
import re
from typing import Any

#: the largest size of any number of a user file (beyond it sums and products of figures overflow
#: or lose all precision)
MAX_NUMBER = 1e12
#: the longest name or other text value, in characters
MAX_TEXT = 200

#: a key the reader's caller has no default for (the key is required)
MISSING: Any = object()


class Problems:
    """Collects validation problems by path; :meth:`listing` shows at most ``limit`` of them."""

    def __init__(self, limit: int = 50) -> None:
        self.items: list[str] = []
        self.limit = limit

    def add(self, path: str, message: str) -> None:
        self.items.append(f"{path}: {message}" if path else message)

    def listing(self) -> str:
        shown = self.items[:self.limit]
        more = len(self.items) - len(shown)
        return "\n  ".join(shown + ([f"... and {more} more"] if more else []))


class CheckedMapping:
    """One mapping of a file, checked: a mapping, only ``known`` keys, no key twice; problems
    are reported under ``path`` (``root`` names the whole file when ``path`` is empty; ``noun`` is
    what the file calls its keys)."""

    def __init__(self, data: Any, path: str, problems: Problems, known: tuple[str, ...], *,
                 root: str = "scenario", noun: str = "key"):
        self.path, self.problems = path, problems
        if not isinstance(data, dict):
            problems.add(path or root, "must be a mapping")
            data = {}
        self.data = data
        for key in data:
            if key not in known:
                problems.add(self.p(str(key)), f"unknown {noun} (known: {', '.join(known)})")
        for key, line in getattr(data, "duplicates", ()):
            where = f" (line {line})" if line else ""
            problems.add(self.p(str(key)), f"duplicate key{where}: a key may appear once in a mapping")

    def p(self, key: str) -> str:
        """The path of ``key`` of this mapping."""
        return f"{self.path}.{key}" if self.path else key

    def raw(self, key: str, default: Any = MISSING) -> Any:
        value = self.data.get(key, MISSING)
        if value is MISSING or value is None:
            if default is MISSING:
                self.problems.add(self.p(key), "is required")
                return None
            return default
        return value


class MappingReader(CheckedMapping):
    """Typed access to one checked mapping of a file: strings, bounded numbers, booleans, lists."""

    def string(self, key: str, default: Any = MISSING, choices: tuple[str, ...] | None = None,
               *, empty: bool = True) -> Any:
        value = self.raw(key, default)
        if value is None or value is default:
            return value
        fallback = default if default is not MISSING else None
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            self.problems.add(self.p(key), f"must be a string, not a {kind_name(value)}")
            return fallback
        value = str(value)
        if not empty and not value.strip():
            self.problems.add(self.p(key), "must not be empty")
            return fallback
        why = text_problem(value)
        if why:
            self.problems.add(self.p(key), why)
            return fallback
        if choices and value not in choices:
            self.problems.add(self.p(key), f"must be one of {'|'.join(choices)}, not {value!r}")
            return default if default is not MISSING else choices[0]
        return value

    def number(self, key: str, default: Any = MISSING, *, minimum: float | None = None,
               maximum: float | None = None, integer: bool = False, exclusive_min: bool = False) -> Any:
        value = self.raw(key, default)
        if value is None or value is default:
            return value
        fallback = default if default is not MISSING else None
        kind = "an integer" if integer else "a number"
        if not is_number(value):
            if isinstance(value, int) and not isinstance(value, bool):  # an integer too large for a float
                self.problems.add(self.p(key), f"must be <= {num(MAX_NUMBER)}, not {shown(value)}")
            else:
                self.problems.add(self.p(key), f"must be {kind}, not {shown(value)}")
            return fallback
        if integer and value != int(value):
            self.problems.add(self.p(key), f"must be an integer, not {shown(value)}")
            return fallback
        bound = min(MAX_NUMBER, maximum if maximum is not None else MAX_NUMBER)
        if abs(value) > bound:
            absurd = f", not {shown(value)}" if abs(value) > MAX_NUMBER else ""  # say what was read
            self.problems.add(self.p(key), f"must be <= {num(bound)}{absurd}")
            value = math.copysign(bound, value)
        if minimum is not None and (value <= minimum if exclusive_min else value < minimum):
            self.problems.add(self.p(key), f"must be {'>' if exclusive_min else '>='} {num(minimum)}")
        return int(value) if integer else float(value)

    def boolean(self, key: str, default: Any = MISSING) -> Any:
        value = self.raw(key, default)
        if value is None or value is default:
            return value
        if not isinstance(value, bool):
            self.problems.add(self.p(key), f"must be true or false, not {shown(value)}")
            return default if default is not MISSING else False
        return value

    def items(self, key: str, default: Any = MISSING, limit: int | None = None) -> list:
        value = self.raw(key, default)
        if value is None:
            return []
        if not isinstance(value, list):
            self.problems.add(self.p(key), f"must be a list, not a {kind_name(value)}")
            return []
        if limit is not None and len(value) > limit:
            self.problems.add(self.p(key), f"has {len(value):,} entries; at most {limit:,}")
            return value[:limit]
        return value


def is_number(value: Any) -> bool:
    """True for a finite int or float (not a bool, not an int too large for a float)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def kind_name(value: Any) -> str:
    """What a value of a file is, in the file's words (``mapping``, ``list``, ``string``, ...)."""
    for kind, name in ((bool, "boolean"), (dict, "mapping"), (list, "list"), (str, "string")):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def num(x: float) -> str:
    """A bound or value for messages: ``3`` for 3.0, else as Python writes it."""
    return str(int(x)) if float(x).is_integer() else str(x)


def shown(value: Any) -> str:
    """A short representation of a rejected value for messages."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        return f"a {len(str(abs(value)))}-digit number"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def text_problem(value: str) -> str | None:
    """Why ``value`` cannot be a name or text of a user file (None: it can)."""
    if len(value) > MAX_TEXT:
        return f"is {len(value)} characters long; at most {MAX_TEXT}"
    if _SURROGATE.search(value):
        return "is not valid Unicode text (a lone surrogate)"
    if _CONTROL.search(value):
        return "must not contain control characters (NUL, escape, ...; line breaks and tabs are allowed)"
    return None


#: what :func:`text_problem` refuses (one C-level scan per text: an estate has tens of thousands)
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
