"""Value validation at the importer boundary: what any importer (built-in or plug-in) returns is
checked before it can reach the database, so a stored site never breaks a later command.

Refused (the whole file, with the file and the key named): a file with no figures at all (a
report cut short: stored, it would leave an import of nothing, and a site without figures), a value that is not a finite number,
a negative value (no benchmark figure is below zero), a ``value_si`` that overflows, a numeric
factor (threads, block size, queue depth, file size, read share) that is negative or not finite,
a read share above 100 %, parameters nested deeper than :data:`MAX_DEPTH` or holding non-finite
numbers. Repaired with a warning: text with lone surrogates (e.g. a fio job name written by a
broken locale), which SQLite cannot store, becomes U+FFFD.
"""

from __future__ import annotations

import math
import re

from knowledge.importers.base import ImporterError, ParsedFile

#: deepest nesting of the parameters an import may store
MAX_DEPTH = 32
#: factors whose levels are numbers (when they look like one) and must be >= 0
NUMERIC_FACTORS = ("threads", "block_size", "queue_depth", "file_size", "read_share")
_SURROGATE = re.compile("[\\ud800-\\udfff]")
_NUMERIC = re.compile(r"\s*[-+]?(\d|\.\d|inf|nan)", re.I)


class _Where:
    """'measurement N (metric, subject)', built only when a message needs it."""

    __slots__ = ("i", "m")

    def __init__(self, i: int, m: object):
        self.i, self.m = i, m

    def __str__(self) -> str:
        m = self.m
        text = f"measurement {self.i + 1} ({m.metric}{', ' + m.subject if m.subject else ''})"  # type: ignore[attr-defined]
        return _SURROGATE.sub("\ufffd", text)


def _clean(text: object, fixed: list[str], where: object) -> str:
    s = text if type(text) is str else str(text)
    if s.isascii():
        return s
    if _SURROGATE.search(s):
        fixed.append(str(where))
        return _SURROGATE.sub("\ufffd", s)
    return s


def _clean_tree(obj: object, path: str, where: str, fixed: list[str], depth: int = 0) -> object:
    if depth > MAX_DEPTH:
        raise ImporterError(path, f"parameters nested deeper than {MAX_DEPTH} levels", key=where)
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            key = k if type(k) is str and k.isascii() else _clean(k, fixed, f"{where}.{k!r}")
            t = type(v)
            if (t is str and v.isascii()) or t is int or t is bool or v is None or (t is float and math.isfinite(v)):
                out[key] = v  # a plain scalar: nothing to check or repair, no message to build
            else:
                out[key] = _clean_tree(v, path, f"{where}.{key}", fixed, depth + 1)
        return out
    if isinstance(obj, list | tuple):
        return [_clean_tree(v, path, f"{where}[{i}]", fixed, depth + 1) for i, v in enumerate(obj)]
    if isinstance(obj, float) and not math.isfinite(obj):
        raise ImporterError(path, f"a non-finite number ({obj!r}) in the parameters", key=where)
    if type(obj) is str:
        return obj if obj.isascii() else _clean(obj, fixed, where)
    if obj is None or isinstance(obj, bool | int | float):
        return obj
    return _clean(obj, fixed, where)


def _finite(value: object, path: str, key: str, what: str) -> float:
    try:
        x = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ImporterError(path, f"{what} {value!r} is not a number", key=key) from None
    if not math.isfinite(x):
        raise ImporterError(path, f"{what} {value!r} is not a finite number", key=key)
    if x < 0:
        raise ImporterError(path, f"{what} {value!r} is negative", key=key)
    return x


def validate(result: ParsedFile, path: str) -> ParsedFile:
    """Check and repair ``result`` in place (see the module doc); returns it."""
    if not result.measurements:  # stored, it would be an import of nothing: a site with no figures
        why = f"; skipped: {_SURROGATE.sub(chr(0xFFFD), str(result.skipped[0]))}" if result.skipped else ""
        raise ImporterError(path, f"no benchmark figures in this file (a run cut short or without results){why}")
    fixed: list[str] = []
    result.tool = _clean(result.tool, fixed, "tool")
    result.tool_version = _clean(result.tool_version, fixed, "tool_version")
    result.format = _clean(result.format, fixed, "format")
    if not isinstance(result.parameters, dict):
        raise ImporterError(path, "the importer's parameters are not a mapping", key="parameters")
    result.parameters = _clean_tree(result.parameters, path, "parameters", fixed)  # type: ignore[assignment]
    # factor sets found clean, as their keys then their levels: the measurements of a file mostly share a few
    clean_factors: set[tuple] = set()
    for i, m in enumerate(result.measurements):
        v, vsi, metric, unit, subject, factors = m.value, m.value_si, m.metric, m.unit, m.subject, m.factors
        seen = (*factors, *factors.values()) if type(factors) is dict else None
        try:
            if (type(v) is float and 0 <= v < math.inf and (vsi is None or type(vsi) is float and 0 <= vsi < math.inf)
                    and type(metric) is str and metric.isascii() and type(unit) is str and unit.isascii()
                    and type(subject) is str and subject.isascii() and seen in clean_factors):
                continue  # the usual figure: nothing in it to check further or to repair
        except TypeError:  # an unhashable level: checked (and refused) below
            pass
        _check_measurement(i, m, path, fixed, clean_factors)
    result.warnings = [_clean(w, fixed, "warning") for w in result.warnings]
    result.skipped = [_clean(w, fixed, "skipped") for w in result.skipped]
    if fixed:
        result.warnings.append(f"text that is not valid Unicode (lone surrogates) in {len(fixed)} place(s), "
                               f"e.g. {fixed[0]}: replaced by U+FFFD")
    return result


def _check_measurement(i: int, m, path: str, fixed: list[str], clean_factors: set[tuple]) -> None:
    """Check and repair measurement ``i``; its factors go to ``clean_factors`` (as their keys then
    their levels) when they needed nothing."""
    where = _Where(i, m)
    m.metric = _clean(m.metric, fixed, where)
    m.unit = _clean(m.unit, fixed, where)
    m.subject = _clean(m.subject, fixed, where)
    v = m.value
    if not (type(v) is float and 0 <= v < math.inf):
        m.value = _finite(v, path, str(where), "value")
    vsi = m.value_si
    if vsi is not None and not (type(vsi) is float and 0 <= vsi < math.inf):
        m.value_si = _finite(vsi, path, str(where), "value in SI units")
    items = tuple(m.factors.items())
    seen = (*(k for k, _ in items), *(level for _, level in items))
    try:
        known = seen in clean_factors
    except TypeError:  # an unhashable level: checked (and refused) below
        known = False
    if not known:
        repaired = len(fixed)
        m.factors = _checked_factors(items, path, where, fixed)
        if len(fixed) == repaired and all(type(k) is str and type(v) is str for k, v in items):
            clean_factors.add(seen)


def _checked_factors(items: tuple, path: str, where: _Where, fixed: list[str]) -> dict[str, str]:
    """The factors (``(key, level)`` pairs) checked: keys and levels as text, numeric levels finite
    and >= 0, a read share <= 100 %."""
    factors = {}
    for k, raw in items:
        # the common case (ASCII text, a finite level >= 0) without building any message
        key = k if type(k) is str and k.isascii() else _clean(k, fixed, where)
        level = raw if type(raw) is str and raw.isascii() else _clean(raw, fixed, where)
        if key in NUMERIC_FACTORS and _NUMERIC.match(level):
            try:
                x = float(level)
            except ValueError:
                x = -1.0
            if not 0 <= x < math.inf:
                x = _finite(level, path, f"{where}.{key}", key.replace("_", " "))
            if key == "read_share" and x > 100:
                raise ImporterError(path, f"read share {level}% is above 100%", key=f"{where}.{key}")
        factors[key] = level
    return factors
