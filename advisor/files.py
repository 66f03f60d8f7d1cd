"""What a file the user opens is: a scenario, an estate export (an inventory to import), a
benchmark tool's output (to import), or neither.

Used by the desktop app's Open and drag and drop: an RVTools workbook, a libvirt domain or a
Proxmox/OpenStack listing goes to the inventory import, a benchmark result to the benchmark
import, instead of failing as a scenario with a list of unknown keys."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

SCENARIO_SUFFIXES = (".yaml", ".yml", ".toml", ".json")
SCENARIO_KEYS = ("hosts", "workloads", "preferences")


@dataclass(frozen=True)
class FileKind:
    """``kind`` is ``scenario``, ``inventory``, ``series`` (utilisation series, read beside an
    inventory), ``benchmark`` or ``unknown``; for a benchmark, the
    importer's name and label (e.g. ``fio``, ``fio JSON output``); for an inventory, the export's
    format id and what produces it (e.g. ``rvtools-xlsx``, ``RVTools export (.xlsx ...)``)."""

    kind: str
    tool: str = ""
    label: str = ""


def classify_file(path: Path | str, min_confidence: float = 0.5) -> FileKind:
    """The kind of the file at ``path``: YAML and TOML files and JSON objects with a scenario key
    are scenarios; an estate export the inventory readers recognise by its content (RVTools
    workbook or CSV tabs, libvirt domain XML, virsh text, Proxmox or OpenStack JSON, the inventory
    template) is an inventory; anything else that an importer recognises (confidence at least
    ``min_confidence``) is benchmark output; the rest is unknown."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in (".yaml", ".yml", ".toml"):
        return FileKind("scenario")
    if suffix == ".json" and _json_scenario(path):
        return FileKind("scenario")
    inventory = _inventory_format(path)
    if inventory:
        from knowledge.inventory import FORMATS

        return FileKind("inventory", inventory, FORMATS.get(inventory.split(":")[0], inventory))
    series = _series_format(path)
    if series:
        from knowledge.series import FORMATS as SERIES_FORMATS

        return FileKind("series", series, SERIES_FORMATS[series])
    try:
        from knowledge.importers.registry import identify

        matches = identify(path)
    except Exception:  # noqa: BLE001 - an unreadable file is simply not benchmark output
        matches = []
    if matches and matches[0].confidence >= min_confidence:
        imp = matches[0].importer
        return FileKind("benchmark", imp.name, getattr(imp, "label", imp.name))
    return FileKind("scenario" if suffix == ".json" else "unknown")


def _inventory_format(path: Path) -> str:
    """The estate export format of ``path`` (``rvtools-xlsx``, ``libvirt-xml``, ...), or ``""``."""
    from knowledge.inventory import detect

    try:
        return detect(path)[0]
    except Exception:  # noqa: BLE001 - not an export the inventory readers know (or unreadable)
        # a workbook goes to the inventory import all the same: it says which collector's export
        # it is (or that it is none) instead of the scenario reader's unknown keys
        return "xlsx" if Path(path).suffix.lower() == ".xlsx" else ""


def _series_format(path: Path) -> str:
    """The utilisation series format of ``path`` (``series-csv``, ``prometheus-json``), or ``""``."""
    from knowledge.series import detect_series

    try:
        return detect_series(path) or ""
    except Exception:  # noqa: BLE001 - unreadable: not a series either
        return ""


def _json_scenario(path: Path) -> bool:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and any(k in data for k in SCENARIO_KEYS)
