"""Helpers shared by the estate readers: numbers as exports print them, header matching,
text decoding, size limits and cancellation."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from knowledge.infra.errors import InputError

#: the largest estate file read (bytes); an export of 100,000 VMs stays far below
MAX_FILE_BYTES = 512 * 1024 * 1024

_THOUSANDS = re.compile(r"^[+-]?\d{1,3}([,.' \u00a0\u202f]\d{3})+$")
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


def parse_number(value: object) -> float | None:
    """A number from a cell: int/float as they are; text with thousands separators
    (``16,384``), a decimal comma (``2,5``), a unit or percent sign (``35 %``, ``0%``);
    blank -> None. Raises ValueError for anything else."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a number")
    if isinstance(value, (int, float)):
        return float(value)
    text = str(value).strip().rstrip("%").strip()
    if not text:
        return None
    if _THOUSANDS.match(text):
        text = re.sub(r"[,.' \u00a0\u202f]", "", text)
    elif _DECIMAL_COMMA.match(text):
        text = text.replace(",", ".")
    return float(text)


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


def read_bytes(path: Path) -> bytes:
    """The file's bytes; regular files only, at most :data:`MAX_FILE_BYTES`."""
    try:
        if not path.is_file():
            raise InputError(f"{path}: not a regular file" if path.exists() else f"{path}: no such file")
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InputError(f"{path}: {size / 2**20:.0f} MiB is larger than the {MAX_FILE_BYTES // 2**20} MiB "
                             "an estate file may have")
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc


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
