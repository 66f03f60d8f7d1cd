"""The example scenarios shipped in resources/examples (tests of the export and the bench plan)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "resources" / "examples"
TARGETS = ("libvirt", "xen", "proxmox", "openstack")


def _is_scenario(path: Path) -> bool:
    """Scenario files (a mapping with workloads), not the real-time task-set examples."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        data = json.loads(text)
    elif path.suffix == ".toml":
        data = tomllib.loads(text)
    elif path.suffix in (".yaml", ".yml"):
        data = yaml.safe_load(text)
    else:
        return False
    return isinstance(data, dict) and "workloads" in data


#: every example scenario shipped in resources/examples
SCENARIOS = sorted(p for p in EXAMPLES.iterdir() if p.is_file() and _is_scenario(p))
