"""What every benchmark importer shares: the parse result, the importer error, the importer
descriptor the registry keeps, and helpers for numbers, sizes and units.

An importer turns the text a benchmark tool wrote into :class:`SiteMeasurement` rows in the
knowledge base's vocabulary (metric, value, unit, factors), with ``value_si`` filled from the
vocabulary's unit factors, plus the tool, its version and the file's own parameters.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from knowledge.infra.errors import InputError
from knowledge.userdb import SiteMeasurement


class ImporterError(InputError):
    """A benchmark file that cannot be read: the message names the file and the line or key."""

    def __init__(self, path: str, message: str, *, line: int | None = None, key: str | None = None):
        where = path or "<text>"
        if line is not None:
            where += f", line {line}"
        if key is not None:
            where += f", key {key}"
        super().__init__(f"{where}: {message}")
        self.path = path
        self.line = line
        self.key = key
        self.reason = message


@dataclass
class ParsedFile:
    """The result of importing one file (nothing stored yet).

    ``runs_found`` counts the runs (reports, groups, result lines) the importer saw in the file;
    ``skipped`` has one entry per run it could not import, naming the line and why (the registry
    copies them into ``warnings``, so nothing is dropped silently). An importer that does not
    count runs leaves ``runs_found`` at 0: the registry then counts one run per file with
    measurements.
    """

    tool: str
    tool_version: str
    parameters: dict
    measurements: list[SiteMeasurement]
    warnings: list[str] = field(default_factory=list)
    path: str = ""
    content_hash: str = ""
    format: str = ""
    runs_found: int = 0
    skipped: list[str] = field(default_factory=list)

    @property
    def runs_imported(self) -> int:
        return max(0, self.runs_found - len(self.skipped))


@dataclass(frozen=True)
class Importer:
    """A registered importer.

    ``identify(text)`` returns a confidence in [0, 1] that ``text`` (the start of a file) is in
    this importer's format; ``parse(text, path)`` returns a :class:`ParsedFile` or raises
    :class:`ImporterError`. Among equal confidences the higher ``priority`` wins.
    """

    name: str
    label: str
    identify: Callable[[str], float]
    parse: Callable[[str, str], ParsedFile]
    priority: int = 0


# --- units ------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _unit_si() -> dict[str, float]:
    from knowledge.curated import load_vocabulary

    return {name: unit.si for name, unit in load_vocabulary().units.items()}


def unit_si(unit: str) -> float:
    """The factor that converts a value in ``unit`` (a vocabulary unit) to its SI base."""
    try:
        return _unit_si()[unit]
    except KeyError:
        raise ValueError(f"unit {unit!r} is not in the knowledge-base vocabulary") from None


def measurement(metric: str, value: float, unit: str, factors: dict[str, object], subject: str = ""
                ) -> SiteMeasurement:
    """A site measurement with ``value_si`` from the vocabulary; factor levels become strings
    (numbers without a useless ``.0``) and ``None`` levels are dropped."""
    return leveled_measurement(metric, value, unit, factor_levels(factors), subject)


def factor_levels(factors: dict[str, object]) -> dict[str, str]:
    """Factor levels as text (:func:`fmt_level`), ``None`` and empty levels dropped."""
    return {k: fmt_level(v) for k, v in factors.items() if v is not None and v != ""}


def leveled_measurement(metric: str, value: float, unit: str, levels: dict[str, str], subject: str = ""
                        ) -> SiteMeasurement:
    """A site measurement whose factor levels are already text (:func:`factor_levels`): an importer
    that gives many measurements the same factors formats them once. ``levels`` becomes the
    measurement's own (pass a fresh dict)."""
    value = float(value)
    si = _unit_si().get(unit)
    return SiteMeasurement(metric, value, unit, subject, levels, value * (unit_si(unit) if si is None else si))


def fmt_level(value: object) -> str:
    """A factor level as text: 4.0 -> '4', 0.5 -> '0.5', True -> 'yes'."""
    if type(value) is str:  # the common case, first
        return value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if value == int(value) and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    return str(value)


# --- numbers ----------------------------------------------------------------------------------

_NUM_RE = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")


def number(text: object, path: str, *, line: int | None = None, key: str | None = None,
           what: str = "number") -> float:
    """``text`` as a finite float, or an :class:`ImporterError` naming the place."""
    if isinstance(text, bool):
        raise ImporterError(path, f"expected a {what}, found {text!r}", line=line, key=key)
    if isinstance(text, int | float):
        value = float(text)
    else:
        s = str(text).strip()
        if not _NUM_RE.match(s):
            raise ImporterError(path, f"expected a {what}, found {s[:40]!r}", line=line, key=key)
        value = float(s)
    if not math.isfinite(value):
        raise ImporterError(path, f"expected a finite {what}, found {text!r}", line=line, key=key)
    return value


def is_number(text: str) -> bool:
    """Whether ``text`` is a plain decimal number (sign, digits, point, exponent)."""
    return bool(_NUM_RE.match(text.strip()))


_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)(i?b?)\s*$", re.IGNORECASE)
_POWERS = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5}


def size_kib(text: str, *, default_unit: str = "B", si_when_b: bool = False) -> float | None:
    """A size such as '4k', '64KiB', '1m', '4096' in KiB, or None if it is not a plain size.

    A number without suffix is in ``default_unit`` ('B' or 'K'); a suffix is binary (fio,
    bonnie++, sysbench) unless ``si_when_b`` and the suffix is 'kB'/'MB' without 'i'.
    """
    m = _SIZE_RE.match(text)
    if not m:
        return None
    value, prefix, tail = float(m.group(1)), m.group(2).lower(), m.group(3).lower()
    if not prefix:
        if tail == "b" or default_unit == "B":
            return value / 1024
        return value
    base = 1000 if (si_when_b and tail == "b") else 1024
    return value * base ** _POWERS[prefix] / 1024


def decode_text(data: bytes, path: str) -> str:
    """The text of a benchmark file: UTF-8 (with or without BOM) or UTF-16 with a BOM (as a
    Windows shell redirect writes it). Anything else is an :class:`ImporterError` naming the line."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise ImporterError(path, f"not valid UTF-16 text ({exc.reason})") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ImporterError(path, f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
                                  f"{exc.start}); save the tool's output as UTF-8", line=line) from exc
    if "\x00" in text:
        raise ImporterError(path, "binary data (NUL bytes), not a text report",
                            line=text.count("\n", 0, text.index("\x00")) + 1)
    return text
