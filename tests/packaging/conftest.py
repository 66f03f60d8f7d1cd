"""Shared helpers for the packaging tests: the packaging folder and its spec_support module."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
LINUX = PACKAGING / "linux"


@pytest.fixture(scope="session")
def spec_support():
    """packaging/spec_support.py, imported by path (packaging/ is not a Python package)."""
    spec = importlib.util.spec_from_file_location("capadvisor_spec_support", PACKAGING / "spec_support.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
