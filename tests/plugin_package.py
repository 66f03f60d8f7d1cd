"""A real third-party importer package for the plug-in tests: a module plus its ``.dist-info``
(METADATA, entry_points.txt) written into a folder that goes on ``sys.path`` (in-process tests)
or ``PYTHONPATH`` (subprocess tests), exactly as pip lays out an installed distribution.
Nothing of it is imported by the project itself: the registries find it through
``importlib.metadata`` like any installed plug-in.

The importer ``demo-csv`` reads files of lines ``demo-csv,<MiB/s>`` (one run per line).
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

MODULE = '''
from knowledge.importers.base import Importer, ParsedFile, measurement


def identify(text):
    return 1.0 if text.startswith("demo-csv,") else 0.0


def parse(text, path):
    out = []
    lines = [ln for ln in text.splitlines() if ln.strip()]
    for ln in lines:
        value = float(ln.split(",")[1])
        out.append(measurement("throughput", value, "MiB/s",
                               {"benchmark": "demo", "operation": "read", "access_pattern": "sequential"},
                               "demo sequential read"))
    return ParsedFile("demo-csv", "1.0", {"lines": len(lines)}, out, runs_found=len(lines))


IMPORTER = Importer("demo-csv", "Demo CSV (a third-party plug-in)", identify, parse, priority=5)
'''

ENTRY_POINTS = """[capadvisor.importers]
demo-csv = capadvisor_demo_importer:IMPORTER
broken-demo = capadvisor_demo_importer:NO_SUCH_THING
"""


def write_package(root: Path) -> Path:
    """Lay out the distribution ``capadvisor-demo-importer 1.0`` under ``root``; returns ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "capadvisor_demo_importer.py").write_text(MODULE)
    info = root / "capadvisor_demo_importer-1.0.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: capadvisor-demo-importer\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    (info / "RECORD").write_text("")
    return root


@contextlib.contextmanager
def installed(root: Path):
    """The package importable in this process, and the process-wide importer registry made to
    load its entry points afresh (restored afterwards)."""
    from knowledge.importers.registry import REGISTRY

    write_package(root)
    saved = dict(REGISTRY._importers), REGISTRY._plugin_failures
    sys.path.insert(0, str(root))
    REGISTRY._plugin_failures = None  # as in a process that has not used the registry yet
    try:
        yield root
    finally:
        sys.path.remove(str(root))
        sys.modules.pop("capadvisor_demo_importer", None)
        REGISTRY._importers, REGISTRY._plugin_failures = saved
