"""Fixtures: the advice for every example scenario (computed once per session) and its exports."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
import yaml

from advisor.engine import advise
from knowledge.store import KnowledgeBase
from tests.knowledge.conftest import kb_path  # noqa: F401 - the session's compiled knowledge base

ROOT = Path(__file__).resolve().parents[3]
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


@pytest.fixture(scope="session")
def session_kb(kb_path):  # noqa: F811
    with KnowledgeBase(kb_path) as kb:
        yield kb


@pytest.fixture(scope="session")
def advice_of(session_kb):
    """path or scenario mapping -> Advice (memoised per path)."""
    cache: dict = {}

    def get(scenario):
        key = str(scenario) if isinstance(scenario, Path) else None
        if key is not None and key in cache:
            return cache[key]
        advice = advise(scenario, kb=session_kb)
        if key is not None:
            cache[key] = advice
        return advice

    return get
