"""The corpus of published result files (tests/fixtures/published/): every file imports with the
figures read off it by hand (expected.json), every run of a multi-run file is found, and every file
is documented in SOURCES.md with its repository, path and commit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from knowledge.importers.registry import REGISTRY

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "published"
EXPECTED = json.loads((CORPUS / "expected.json").read_text())
FILES = sorted(p.name for p in CORPUS.iterdir() if p.name not in ("SOURCES.md", "expected.json"))


def test_every_file_is_documented_and_expected():
    sources = (CORPUS / "SOURCES.md").read_text()
    assert set(FILES) == set(EXPECTED)
    for name in FILES:
        assert f"`{name}`" in sources, name


@pytest.mark.parametrize("name", FILES)
def test_a_published_file_imports_with_the_figures_read_by_hand(name):
    want = EXPECTED[name]
    if "refused" in want:
        with pytest.raises(Exception) as err:
            REGISTRY.parse_file(CORPUS / name)
        assert want["refused"] in str(err.value) and name in str(err.value)
        return
    got = REGISTRY.parse_file(CORPUS / name)
    assert got.tool == want["tool"]
    assert got.runs_found == want["runs"], "runs found must equal the runs in the file"
    assert got.runs_imported == want["runs"] - want.get("skipped", 0)
    for fig in want["figures"]:
        matches = [m for m in got.measurements
                   if m.metric == fig["metric"] and m.unit == fig["unit"] and m.value == pytest.approx(fig["value"])
                   and all((m.subject if k == "subject" else m.factors.get(k)) == v
                           for k, v in fig.items() if k not in ("metric", "value", "unit"))]
        assert matches, f"{name}: no measurement {fig}"
