"""Reading the user's input files: regular files only, of bounded size, never blocking.

A FIFO, a device such as ``/dev/zero``, a socket or a folder given where a file is expected is
refused with an :class:`~knowledge.infra.errors.InputError` naming the path *before* it is opened
(opening a FIFO for reading blocks until a writer appears; ``/dev/zero`` never ends). A file larger
than the caller's limit is refused without being read whole. The file is opened non-blocking and
checked again after opening, so a file swapped for a FIFO in between cannot block either.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from knowledge.infra.errors import InputError

MIB = 1024 * 1024

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def size_text(n: float) -> str:
    """``n`` bytes as a short readable size (``512 B``, ``3.2 MiB``)."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def check_regular(path: Path | str, what: str, limit: int | None = None) -> os.stat_result:
    """The ``stat`` of ``path`` if it is a regular file (following links) of at most ``limit``
    bytes; otherwise an InputError naming ``what`` and the path."""
    path = Path(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise InputError(f"cannot read {what} {path}: no such file") from None
    except OSError as exc:
        raise InputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{path}: is {_kind(st.st_mode)}, not a file; give a {what} file")
    if limit is not None and st.st_size > limit:
        raise InputError(f"{path}: {size_text(st.st_size)} is larger than a {what} may be "
                         f"({size_text(limit)}); nothing was read")
    return st


def read_regular_bytes(path: Path | str, what: str, limit: int) -> bytes:
    """The bytes of the regular file ``path`` (at most ``limit`` of them), see the module doc."""
    path = Path(path)
    check_regular(path, what, limit)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise InputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):  # swapped since the check
            raise InputError(f"{path}: is {_kind(os.fstat(fh.fileno()).st_mode)}, not a file; "
                             f"give a {what} file")
        try:
            data = fh.read(limit + 1)
        except OSError as exc:
            raise InputError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise InputError(f"{path}: larger than a {what} may be ({size_text(limit)}); nothing was read")
    return data


def read_regular_text(path: Path | str, what: str, limit: int, encoding: str = "utf-8") -> str:
    """The text of the regular file ``path`` (see :func:`read_regular_bytes`); a byte sequence
    that is not ``encoding`` is an InputError naming the line."""
    data = read_regular_bytes(path, what, limit)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(f"{path}, line {line}: not UTF-8 text ({exc.reason} at byte {exc.start}); "
                         f"save the {what} as UTF-8") from None


def read_regular_head(path: Path | str, size: int) -> bytes:
    """The first ``size`` bytes of ``path`` if it is a regular file (InputError otherwise)."""
    path = Path(path)
    check_regular(path, "file")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise InputError(f"{path}: not a regular file")
        return fh.read(size)
