"""Snapshots of each target's export for the example scenarios.

A change to the advice or to a generator shows here as a diff. When the change is intended,
regenerate the snapshots and review them like code:

    CAPADVISOR_UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/advisor/export/test_snapshots.py
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from advisor.export import export_config
from tests.advisor.examples import SCENARIOS, TARGETS

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("CAPADVISOR_UPDATE_SNAPSHOTS") == "1"


def render(ex) -> str:
    """Every file of an export (and its manifest), one after the other, in path order."""
    from knowledge.infra import jsonout

    files = dict(ex.files)
    files[ex.manifest_path] = jsonout.dumps(ex.manifest(), indent=2) + "\n"
    return "".join(f"==> {rel} <==\n{files[rel]}\n" for rel in sorted(files))


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.name)
def test_export_matches_its_snapshot(advice_of, scenario, target):
    text = render(export_config(advice_of(scenario), target))
    path = SNAPSHOTS / f"{scenario.stem}.{target}.txt"
    if UPDATE or not path.exists():
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"{path.name} did not exist and was written: review and commit it")
        return
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                            f"snapshots/{path.name}", "export now", n=1))
        pytest.fail(f"the {target} export of {scenario.name} changed (if intended: CAPADVISOR_UPDATE_SNAPSHOTS=1, "
                    f"then review the diff):\n{diff[:6000]}")
