"""Helpers shared by the estate readers: numbers as exports print them, header matching,
text decoding, size limits and cancellation."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from pathlib import Path

from knowledge.infra.errors import InputError

#: the largest estate file read (bytes): an .xlsx workbook; an export of 100,000 VMs stays far below
MAX_FILE_BYTES = 256 * 1024 * 1024
#: the largest text export (CSV, JSON, XML, virsh text) read, bytes: a vInfo CSV of 100,000 VMs is
#: about 100 MiB; the text is held in memory (up to four bytes a character) while it is read
MAX_TEXT_BYTES = 128 * 1024 * 1024
#: the largest JSON export (Proxmox, OpenStack) read, bytes: 100,000 servers are about 30 MiB; every
#: JSON value becomes a Python object (some 10x the bytes)
MAX_JSON_BYTES = 64 * 1024 * 1024
#: the largest domain XML, bytes (one ``virsh dumpxml`` domain is a few KiB)
MAX_XML_BYTES = 16 * 1024 * 1024
#: rows read from one tab (sheet or CSV file), VMs and hosts read from all files together
MAX_ROWS = 250_000
MAX_VMS = 100_000
MAX_HOSTS = 10_000
#: the longest text cell or field kept, characters (longer: that row's VM or host is left out)
MAX_CELL_CHARS = 65_536
#: the longest VM or host name, characters (the scenario's names are at most 200)
MAX_NAME_CHARS = 200
#: no number read from an estate file may exceed this in size (beyond it sums overflow)
MAX_NUMBER = 1e12

#: a percent column (or series computed as a percentage) whose every value is at most this holds 0-1
#: fractions: it is read x 100, with a warning (:func:`fraction_note`); the series readers and the
#: collectors' utilisation columns follow the same rule
FRACTION_AT_MOST = 1.0
#: thousands grouped (``16,384``, ``1.234.567``); a first group of 0 is a decimal (``0.185``, ``0,185``)
_THOUSANDS = re.compile(r"^[+-]?[1-9]\d{0,2}([,.' \u00a0\u202f]\d{3})+$")
_DECIMAL_COMMA = re.compile(r"^[+-]?\d+,\d+$")

ProgressFn = Callable[[float, str], None]


def norm_header(text: object, prefix: str = "") -> str:
    """A header reduced to lower-case letters and digits, without the tab prefix RVTools puts
    in front of some exports' column names (``vInfoVMName`` -> ``vmname`` for prefix vInfo)."""
    key = re.sub(r"[^0-9a-z]", "", str(text or "").lower())
    p = prefix.lower()
    if p and key.startswith(p) and len(key) > len(p):
        key = key[len(p):]
    return key


class RowError(InputError):
    """One VM's or host's row cannot be read (a number out of range, a name too long): the
    readers leave that VM or host out with a warning naming file, row and field, and read on."""


def parse_number(value: object) -> float | None:
    """A number from a cell: int/float as they are; text with thousands separators
    (``16,384``), a decimal comma (``2,5``), a unit or percent sign (``35 %``, ``0%``);
    blank -> None. Raises ValueError for anything else, ``nan``, ``inf`` and numbers beyond
    :data:`MAX_NUMBER` included."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a number")
    if isinstance(value, (int, float)):
        return finite_value(value)
    text = str(value).strip().rstrip("%").strip()
    if not text:
        return None
    if len(text) > 64:
        raise ValueError(f"{text[:20]}... ({len(text)} characters) is not a number")
    if _THOUSANDS.match(text):
        text = re.sub(r"[,.' \u00a0\u202f]", "", text)
    elif _DECIMAL_COMMA.match(text):
        text = text.replace(",", ".")
    return finite_value(float(text))


def finite_value(value: float | int) -> float:
    """``value`` as a float when it is finite and at most :data:`MAX_NUMBER` in size; else
    ValueError (``nan``, ``inf``, ``1e309``, a 400-digit integer)."""
    try:
        x = float(value)
    except (OverflowError, ValueError):
        raise ValueError(f"{str(value)[:20]}... is not a number that fits") from None
    if not math.isfinite(x):
        raise ValueError(f"{value!r} is not a finite number")
    if abs(x) > MAX_NUMBER:
        raise ValueError(f"{x:.3g} is beyond {MAX_NUMBER:.0e}, the largest number an estate file may hold")
    return x


def checked(value: object, where: str, field: str, low: float = 0.0, high: float = MAX_NUMBER,
            integer: bool = False) -> float | None:
    """The one check every number of an estate file goes through: ``value`` (a number or its
    text, blank -> None) parsed, finite, within ``[low, high]`` and whole when ``integer``; a
    :class:`RowError` naming ``where`` (file and row) and ``field`` otherwise."""
    try:
        x = parse_number(value)
    except ValueError as exc:
        text = str(value)
        shown = f"{text[:24]!r}... ({len(text):,} characters)" if len(text) > 30 else repr(value)
        why = str(exc) if any(w in str(exc) for w in ("finite", "beyond", "fits")) else f"{shown} is not a number"
        raise RowError(f"{where}, field {field}: {why}") from None
    if x is None:
        return None
    if integer and x != int(x):
        raise RowError(f"{where}, field {field}: {x:g} is not a whole number")
    if not low <= x <= high:
        raise RowError(f"{where}, field {field}: {x:g} is outside {low:g}-{high:g}")
    return x


def parse_bool(value: object) -> bool | None:
    """True/False from ``True``, ``yes``, ``1`` and the like; blank -> None."""
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return bool(value)
    text = str(value).strip().lower()
    if not text:
        return None
    if text in ("true", "yes", "y", "1", "on", "x"):
        return True
    if text in ("false", "no", "n", "0", "off", "-"):
        return False
    raise ValueError(f"{value!r} is not true or false")


def read_text(path: Path) -> str:
    """A text export (CSV, JSON, virsh output): UTF-16 (with a byte-order mark, or text whose every
    other byte is NUL, as Excel's "Unicode text" and PowerShell write it), UTF-8 (with or without
    BOM), else Windows-1252 as Windows tools write it. Binary junk is refused with the file's name."""
    data = read_bytes(path)
    utf16 = _utf16(data)
    if utf16:
        try:
            return data.decode(utf16)
        except UnicodeDecodeError as exc:
            raise InputError(f"{path}: not valid UTF-16 text ({exc.reason} at byte {exc.start})") from exc
    if b"\x00" in data[:4096]:
        raise InputError(f"{path}: binary data, not a text export (a NUL byte in the first 4 KiB)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: neither UTF-8 nor Windows-1252 text ({exc.reason} at byte "
                         f"{exc.start})") from exc
    if sum(1 for ch in text[:4096] if ord(ch) < 32 and ch not in "\r\n\t") > 8:
        raise InputError(f"{path}: binary data, not a text export")
    return text


def _utf16(data: bytes) -> str | None:
    """The UTF-16 codec ``data`` is written in, or None: by its byte-order mark, else by NUL bytes
    at every odd (little-endian) or even (big-endian) position of a text start."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "utf-16"
    head = data[:256]
    if len(head) >= 8 and len(head) % 2 == 0:
        even, odd = head[0::2], head[1::2]
        if odd.count(0) == len(odd) and 0 not in even:
            return "utf-16-le"
        if even.count(0) == len(even) and 0 not in odd:
            return "utf-16-be"
    return None


def read_bytes(path: Path, limit: int = MAX_TEXT_BYTES) -> bytes:
    """The file's bytes: a regular file only (no FIFO, device or folder: refused before it is
    opened), of at most ``limit`` bytes."""
    from knowledge.infra.files import read_regular_bytes

    return read_regular_bytes(path, "estate export", limit)


def check_cancel(cancel) -> None:
    if cancel is not None:
        cancel.raise_if_cancelled()


def report(progress: ProgressFn | None, fraction: float, message: str) -> None:
    if progress is not None:
        progress(min(1.0, max(0.0, fraction)), message)


def listing(names: Iterable[object], limit: int = 12) -> str:
    """``a, b, c`` (at most ``limit`` names, then ``...``)."""
    items = [str(n) for n in names if str(n or "").strip()]
    text = ", ".join(items[:limit])
    return text + (f", ... ({len(items)} in all)" if len(items) > limit else "")


def normalize_uuid(text: str) -> str:
    return re.sub(r"[^0-9a-f]", "", (text or "").lower())


def fraction_note(what: str, top: float) -> str:
    """The warning of a file whose ``what`` (``field cpu_pct``) was read as 0-1 fractions (largest value ``top``)."""
    return (f"{what}: every value is at most {FRACTION_AT_MOST:g} (largest {top:.4g}): read as 0-1 fractions and "
            f"multiplied by 100 (a percentage is 0-100); if the values really stayed below 1 %, the sizing is "
            f"100 times too high")


def fraction_fields(tops: dict, at_most: float = FRACTION_AT_MOST) -> set:
    """The percentage columns of one table (key -> its largest value) written as 0-1 fractions: those whose
    values are all at most ``at_most`` (some above 0), unless another percentage column of the table passes
    it (a table is written in one unit: real averages under 1 % beside real peaks stay as they are)."""
    if any(top > at_most for top in tops.values()):
        return set()
    return {k for k, top in tops.items() if 0 < top <= at_most}
