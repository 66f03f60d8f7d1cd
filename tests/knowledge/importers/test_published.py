"""The corpus of published result files (tests/fixtures/published/): every file imports with the
figures read off it by hand (expected.json), or is refused with a message naming what is
unsupported; every run of a multi-run file is found; every file is documented in SOURCES.md with
its repository, path and commit.

The number of runs in each file is known twice, independently of the importers: counted by hand
into expected.json, and counted again here by :func:`count_runs`, a deliberately minimal reader
(one regular expression per format, nothing shared with knowledge/importers)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from knowledge.importers.registry import REGISTRY

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "published"
EXPECTED = json.loads((CORPUS / "expected.json").read_text())
FILES = sorted(p.name for p in CORPUS.iterdir() if p.name not in ("SOURCES.md", "expected.json"))


def count_runs(tool: str, text: str) -> int:
    """The runs in a result file, counted with one pattern per format (independent of the importers)."""
    lines = text.splitlines()
    if tool == "fio":
        if '"fio version"' in text:  # JSON (after any notes fio printed first): the entries of "jobs"
            start = re.search(r"(?m)^\{", text).start()  # type: ignore[union-attr]
            return len(json.JSONDecoder().raw_decode(text, start)[0]["jobs"])
        terse = [ln for ln in lines if re.match(r"^[2-5];", ln) and ln.count(";") > 100]
        if terse:
            return len(terse)
        return sum(1 for ln in lines if re.search(r"\(groupid=\d+, jobs=\d+\): err=", ln))
    if tool == "bonnie++":  # result lines of the CSV (1.9x/2.x start with the format version; 1.03 with a name)
        return sum(1 for ln in lines if re.match(r"^1\.9\d,", ln)
                   or re.match(r"^[^,#\s][^,]*,\d+[MGK]?,", ln) and ln.count(",") in (13, 26))
    if tool == "sysbench":  # invocations that ran a test (prepare/cleanup steps run none)
        chunks = re.split(r"(?m)^.{0,30}sysbench \d+\.\d+[^\n]*(?:\(using|multi-threaded)", text)[1:]
        return sum(1 for c in chunks if "Running the test with" in c)
    if tool == "postmark":
        return len(re.findall(r"seconds of transactions \(", text))
    if tool == "iozone":
        if re.search(r'^"[\w -]+ report"', text, re.M):  # -R report: (report, file size) rows
            return len(re.findall(r'^"\d+"\s+\d', text, re.M))
        return sum(1 for ln in lines if re.match(r"^\s+\d+\s+\d+(\s+\d+){3,}\s*$", ln))
    raise AssertionError(f"no run counter for {tool}")


def test_every_file_is_documented_and_expected():
    sources = (CORPUS / "SOURCES.md").read_text()
    assert set(FILES) == set(EXPECTED)
    assert len(FILES) >= 40
    for name in FILES:
        row = next((ln for ln in sources.splitlines() if ln.startswith(f"| `{name}` |")), None)
        assert row, f"{name} is not in SOURCES.md"
        assert re.search(r"\| [0-9a-f]{40} \|", row), f"{name}: no commit in SOURCES.md"


@pytest.mark.parametrize("name", FILES)
def test_the_runs_counted_by_hand_are_the_runs_in_the_file(name):
    want = EXPECTED[name]
    text = (CORPUS / name).read_text(encoding="utf-8")
    assert count_runs(want["tool"], text) == want["runs"]
    if "also" in want:
        assert count_runs(want["also"]["tool"], text) == want["also"]["runs"]


def _check(name: str, want: dict, got) -> None:
    assert got.tool == want["tool"]
    assert got.runs_found == want["runs"], "runs found must equal the runs in the file"
    assert got.runs_imported == want["runs"] - want.get("skipped", 0)
    assert len(got.skipped) == want.get("skipped", 0), got.skipped
    for fig in want["figures"]:
        matches = [m for m in got.measurements
                   if m.metric == fig["metric"] and m.unit == fig["unit"] and m.value == pytest.approx(fig["value"])
                   and all((m.subject if k == "subject" else m.factors.get(k)) == v
                           for k, v in fig.items() if k not in ("metric", "value", "unit"))]
        assert matches, f"{name}: no measurement {fig}"


@pytest.mark.parametrize("name", FILES)
def test_a_published_file_imports_with_the_figures_read_by_hand(name):
    want = EXPECTED[name]
    if "refused" in want:
        with pytest.raises(Exception) as err:
            REGISTRY.parse_file(CORPUS / name)
        assert want["refused"] in str(err.value) and name in str(err.value)
        return
    got = REGISTRY.parse_file(CORPUS / name)
    _check(name, want, got)
    if "warning" in want:
        assert any(want["warning"] in w for w in got.warnings), got.warnings
    if "also" in want:  # a file holding a second tool's output: that part is read with --tool
        _check(name, want["also"], REGISTRY.parse_file(CORPUS / name, tool=want["also"]["tool"]))
