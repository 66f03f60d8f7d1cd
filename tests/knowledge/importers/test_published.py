"""The corpus of published result files (tests/fixtures/published/): every file imports with the
figures read off it by hand (expected.json), or is refused with a message naming what is
unsupported; every run of a multi-run file is found; every file is documented in SOURCES.md with
its repository, path, commit, how it was obtained and its sha256.

Files obtained through the stored index are committed; files that only a fetched snapshot holds
are kept out of the repository (workplace rule); their tests read them from ``../shared/published/``
or ``local/`` (tests/kept_out.py) and run when the file is there with the sha256 that SOURCES.md records, and are skipped with SOURCES.md's reason otherwise.

The number of runs in each file is known twice, independently of the importers: counted by hand
into expected.json, and counted again here by :func:`count_runs`, a deliberately minimal reader
(one regular expression per format, nothing shared with knowledge/importers)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from knowledge.importers.registry import REGISTRY
from tests import kept_out

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "published"
LOCAL = CORPUS / "local"
EXPECTED = json.loads((CORPUS / "expected.json").read_text())
SOURCES = (CORPUS / "SOURCES.md").read_text()
#: file -> its row of SOURCES.md (cells stripped)
ROWS = {m.group(1): [c.strip() for c in m.group(0).strip("|").split("|")]
        for m in re.finditer(r"(?m)^\| `([^`]+)` \|.*\|$", SOURCES)}
COMMITTED = sorted(p.name for p in CORPUS.iterdir() if p.is_file() and p.name not in ("SOURCES.md", "expected.json"))
KEPT_OUT = sorted(n for n, row in ROWS.items() if row[4].startswith("fetched snapshot"))
FILES = COMMITTED + KEPT_OUT


def corpus_file(name: str) -> Path:
    """The file of the corpus; a fetched-snapshot file only when it is present with its recorded sha256
    (the test is skipped with SOURCES.md's reason otherwise)."""
    if name in COMMITTED:
        return CORPUS / name
    path, row = kept_out.find(name, LOCAL), ROWS[name]
    if path is None:
        pytest.skip(f"{name}: {row[4]}")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert digest == row[5], f"{path}: sha256 {digest}, SOURCES.md records {row[5]} (not the published file)"
    return path


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
    if tool == "iozone":  # throughput mode: each "Children see throughput" line is one run
        children = sum(1 for ln in lines if re.match(r"^\s*Children see throughput for\s+\d+ ", ln))
        if re.search(r'^"[\w -]+ report"', text, re.M):  # -R report: (report, file size) rows
            return len(re.findall(r'^"\d+"\s+\d', text, re.M)) + children
        return sum(1 for ln in lines if re.match(r"^\s+\d+\s+\d+(\s+\d+){3,}\s*$", ln)) + children
    raise AssertionError(f"no run counter for {tool}")


def test_every_file_is_documented_and_expected():
    assert set(FILES) == set(EXPECTED) == set(ROWS)
    assert len(FILES) >= 50 and len(COMMITTED) >= 40  # every file the stored index holds is committed
    assert not set(COMMITTED) & set(KEPT_OUT)
    for name in COMMITTED:  # committed: the index's text, with the file id and commit it came from
        row = ROWS[name]
        assert re.fullmatch(r"[0-9a-f]{40}", row[3]), f"{name}: no commit in SOURCES.md"
        assert re.match(rf"via the stored index, file id \d+, commit {row[3]}", row[4]), f"{name}: {row[4]}"
        assert hashlib.sha256((CORPUS / name).read_bytes()).hexdigest() == row[5], f"{name}: not the recorded text"
    for name in KEPT_OUT:  # not in the repository, with the way to restore it
        row = ROWS[name]
        assert "kept out of the repository (workplace rule); restore with `git show " in row[4], name
        assert re.fullmatch(r"[0-9a-f]{64}", row[5]) and re.fullmatch(r"[0-9a-f]{40}", row[3]), name


def test_files_kept_out_are_not_committed():
    import subprocess

    root = CORPUS.parents[2]
    tracked = subprocess.run(["git", "-C", str(root), "ls-files", str(CORPUS)], capture_output=True, text=True)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    names = {Path(p).name for p in tracked.stdout.split()}
    assert names.isdisjoint(KEPT_OUT) and not any("/local/" in p for p in tracked.stdout.split())
    assert set(COMMITTED) <= names


@pytest.mark.parametrize("name", FILES)
def test_the_runs_counted_by_hand_are_the_runs_in_the_file(name):
    want = EXPECTED[name]
    text = corpus_file(name).read_text(encoding="utf-8")
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
    path = corpus_file(name)
    if "refused" in want:
        with pytest.raises(Exception) as err:
            REGISTRY.parse_file(path)
        assert want["refused"] in str(err.value) and name in str(err.value)
        return
    got = REGISTRY.parse_file(path)
    _check(name, want, got)
    if "warning" in want:
        assert any(want["warning"] in w for w in got.warnings), got.warnings
    if "also" in want:  # a file holding a second tool's output: that part is read with --tool
        _check(name, want["also"], REGISTRY.parse_file(path, tool=want["also"]["tool"]))
