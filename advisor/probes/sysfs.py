"""Reading /proc and /sys under a chosen root, returning a reason instead of raising.

Every reader takes paths as the system sees them ("/sys/block/sda/size"); :class:`FsRoot`
maps them under its root, so tests can point a probe at a fake tree of real-looking files.
"""

from __future__ import annotations

import os
from pathlib import Path


class FsRoot:
    """A file-system root ("/" on the real machine) for reading kernel interface files."""

    def __init__(self, root: str | os.PathLike = "/") -> None:
        self.root = Path(root)

    @property
    def is_real(self) -> bool:
        """True when reading the running system (root is "/"), so live calls are allowed."""
        return self.root.resolve() == Path("/").resolve()

    def path(self, logical: str) -> Path:
        """The real path of ``logical`` ("/proc/meminfo") under this root."""
        return self.root / logical.lstrip("/")

    def read(self, logical: str) -> tuple[str | None, str]:
        """``(text stripped, "")`` or ``(None, reason)`` if the file is missing or unreadable."""
        try:
            return self.path(logical).read_text(errors="replace").strip(), ""
        except FileNotFoundError:
            return None, f"{logical} does not exist"
        except PermissionError:
            return None, f"{logical} is not readable without root"
        except OSError as exc:
            # sysfs answers EINVAL for e.g. the speed of a link that is down
            return None, f"{logical} cannot be read ({exc.strerror or exc})"

    def read_int(self, logical: str) -> tuple[int | None, str]:
        """An integer file; ``(None, reason)`` when missing, unreadable or not an integer."""
        text, reason = self.read(logical)
        if text is None:
            return None, reason
        try:
            return int(text.split()[0], 0), ""
        except (ValueError, IndexError):
            return None, f"{logical} holds {text[:40]!r}, not an integer"

    def exists(self, logical: str) -> bool:
        return self.path(logical).exists()

    def listdir(self, logical: str) -> list[str]:
        """Sorted entries of a directory; empty if it is missing or unreadable."""
        try:
            return sorted(os.listdir(self.path(logical)))
        except OSError:
            return []

    def realpath(self, logical: str) -> str:
        """Where a sysfs symlink points, as a logical path ("/sys/devices/..."); "" if unknown."""
        try:
            target = os.path.realpath(self.path(logical))
        except OSError:
            return ""
        root = str(self.root.resolve())
        if root != "/" and target.startswith(root):
            target = target[len(root):] or "/"
        return target


def parse_cpu_list(text: str) -> list[int]:
    """"0-3,8,10-11" -> [0, 1, 2, 3, 8, 10, 11] (the kernel's cpulist format)."""
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def parse_key_values(text: str, sep: str = ":") -> dict[str, str]:
    """Lines ``key<sep> value`` -> dict (first occurrence wins), e.g. /proc/meminfo."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        key, found, value = line.partition(sep)
        if found:
            out.setdefault(key.strip(), value.strip())
    return out
