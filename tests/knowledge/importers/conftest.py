"""Paths of the committed fixtures (real tool output; see each *.cmd or *.source file)."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture()
def fixture_text():
    def _read(name: str) -> str:
        return (FIXTURES / name).read_text(encoding="utf-8")
    return _read


def by(measurements, **factors):
    """The measurements whose factors include every ``factors`` item (metric=/unit= match fields)."""
    out = []
    for m in measurements:
        ok = True
        for k, v in factors.items():
            have = getattr(m, k) if k in ("metric", "unit", "subject") else m.factors.get(k)
            if have != v:
                ok = False
                break
        if ok:
            out.append(m)
    return out


def one(measurements, **factors):
    found = by(measurements, **factors)
    assert len(found) == 1, f"expected one measurement with {factors}, found {len(found)}"
    return found[0]
