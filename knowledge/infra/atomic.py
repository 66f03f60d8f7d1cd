"""Atomic file writes: write to a temporary file beside the target, then rename."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from knowledge.infra.errors import UserFacingError


def write_bytes_atomic(path: Path, data: bytes, private: bool = False) -> None:
    """Replace ``path`` with ``data`` so that readers see the old or the new file, never a mix.

    Permissions: a file that exists keeps its mode; a new one gets the usual ``0666`` less the
    process umask (scenario files and reports are meant to be handed over), or ``0600`` with
    ``private`` (settings and databases, which only their owner reads)."""
    path = Path(path)
    blocker = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise UserFacingError(f"cannot write {path}: {blocker} is a file, not a folder")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode) if not private else 0o600
        except FileNotFoundError:
            mode = 0o600 if private else 0o666 & ~_umask()
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            os.fchmod(fd, mode)
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    except OSError as exc:
        raise UserFacingError(f"cannot write {path}: {exc.strerror or exc}") from exc


def _umask() -> int:
    """The process umask (read without changing it where /proc says it; else set and restored)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    old = os.umask(0o022)
    os.umask(old)
    return old


def write_text_atomic(path: Path, text: str, encoding: str = "utf-8", private: bool = False) -> None:
    """Text version of :func:`write_bytes_atomic`."""
    write_bytes_atomic(path, text.encode(encoding), private=private)
