"""Atomic file writes: write to a temporary file beside the target, then rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from knowledge.infra.errors import UserFacingError


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that readers see the old or the new file, never a mix."""
    path = Path(path)
    blocker = next((p for p in path.parents if p.exists() and not p.is_dir()), None)
    if blocker is not None:
        raise UserFacingError(f"cannot write {path}: {blocker} is a file, not a folder")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
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


def write_text_atomic(path: Path, text: str, encoding: str = "utf-8") -> None:
    """Text version of :func:`write_bytes_atomic`."""
    write_bytes_atomic(path, text.encode(encoding))
