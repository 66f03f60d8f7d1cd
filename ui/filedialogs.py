"""What every file dialog of the app does alike: start in the folder the user last used (else the
documents folder, never the application's own folder), propose a file named after the scenario,
and add the extension of the chosen format to a name typed without one."""

from __future__ import annotations

import re
from pathlib import Path


def start_dir(last_dir: str) -> str:
    """Where a file dialog starts: ``last_dir`` when it is a folder outside the application's
    bundle, else the user's documents folder (or home)."""
    from PySide6.QtCore import QStandardPaths

    from knowledge.infra.paths import bundle_root

    last = Path(last_dir) if last_dir else None
    if last is not None and last.is_dir() and not last.resolve().is_relative_to(bundle_root().resolve()):
        return str(last)
    docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return docs if docs and Path(docs).is_dir() else str(Path.home())


def filter_suffix(name_filter: str, default: str = "yaml") -> str:
    """``"TOML scenario (*.toml)"`` -> ``"toml"`` (``default`` when the filter names none)."""
    m = re.search(r"\*\.(\w+)", name_filter or "")
    return m.group(1) if m else default


def with_suffix(path: Path, name_filter: str, allowed: tuple[str, ...], default: str) -> Path:
    """``path`` with the extension of the chosen format when the name has none of ``allowed``
    (``lab`` -> ``lab.yaml``; ``lab.v2`` -> ``lab.v2.yaml``)."""
    if path.suffix.lower() in allowed:
        return path
    return path.with_name(f"{path.name}.{filter_suffix(name_filter, default)}")


def safe_file_name(title: str) -> str:
    """A title as a file name that stays in the folder it is joined to (no path separators, ``..``,
    characters file systems refuse or device names: :func:`knowledge.infra.paths.safe_filename`)."""
    from knowledge.infra.paths import safe_filename

    return safe_filename(title, "scenario", 80)
