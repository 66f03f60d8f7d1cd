"""`capadvisor kb ...` through the real CLI entry point."""

from __future__ import annotations

import csv
import io
import json

import pytest

from app.cli import main


@pytest.fixture()
def run(capsys, kb_path):
    def _run(*args):
        code = main(["kb", "--kb", str(kb_path), *args])
        out = capsys.readouterr()
        return code, out.out, out.err
    return _run


@pytest.fixture(scope="session")
def kb_path(compiled_kb):
    return compiled_kb


def test_export_csv_has_the_interface_columns_and_every_row(run, tmp_path, kb_path):
    from knowledge.store import KnowledgeBase

    out_file = tmp_path / "all.csv"
    code, _, err = run("export", "--format", "csv", "-o", str(out_file))
    assert code == 0 and "wrote" in err
    rows = list(csv.DictReader(out_file.open()))
    with KnowledgeBase(kb_path) as kb:
        assert len(rows) == kb.stats()["measurements"]
        factor_names = kb.factor_names()
    header = list(rows[0].keys())
    for col in ("document", "locator", "metric", "value", "unit", "kind", "subject"):
        assert col in header
    for name in ("hypervisor", "cache_mode", "vms_per_host"):
        assert name in header
    assert set(factor_names) <= set(header)
    hit = [r for r in rows if r["locator"] == "Table 1" and r["document"].startswith("001")
           and r["cache_mode"] == "writeback" and r["operation"] == "random_read" and r["test_set"] == "1"]
    assert [h["value"] for h in hit] == ["59.77"]


def test_export_json_to_stdout(run):
    code, out, _ = run("export", "--format", "json")
    assert code == 0
    records = json.loads(out)
    assert {"document", "locator", "metric", "value", "unit", "kind", "subject", "cache_mode"} <= set(records[0])


def test_query_is_a_readable_table(run):
    code, out, _ = run("query", "--metric", "throughput", "--document", "001",
                       "--where", "cache_mode=none", "--where", "vms_per_host=1")
    assert code == 0
    assert out.splitlines()[0].split()[:4] == ["doc", "locator", "metric", "value"]
    assert "5.41" in out and "59.77" not in out
    assert out.rstrip().endswith("measurement(s)")


def test_query_csv_and_json(run):
    code, out, _ = run("query", "-d", "001", "-l", "Table 1", "--format", "csv")
    assert code == 0
    assert len(list(csv.DictReader(io.StringIO(out)))) == 12
    code, out, _ = run("query", "-d", "001", "-l", "Table 1", "--format", "json")
    assert len(json.loads(out)) == 12


def test_query_with_a_bad_factor_explains(run):
    code, _, err = run("query", "--where", "cachemode=none")
    assert code == 2
    assert "factor 'cachemode' is not known" in err and "Traceback" not in err
    code, _, err = run("query", "--where", "cache_mode")
    assert code == 2 and "expected FACTOR=LEVEL" in err


def test_stats(run):
    code, out, _ = run("stats")
    assert code == 0
    assert "measurements" in out and "001_59d3b1dfbc4dd7d1" in out and "throughput" in out
    code, out, _ = run("stats", "--format", "json")
    data = json.loads(out)
    assert sum(data["per_document"].values()) == data["measurements"]


def test_testbeds_and_conclusions(run):
    code, out, _ = run("testbeds", "--format", "json")
    assert code == 0 and len(json.loads(out)) >= 10
    code, out, _ = run("conclusions", "--decision", "cache_mode")
    assert code == 0 and "[cache_mode]" in out


def test_damaged_kb_file_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"\x00" * 4096)
    code = main(["kb", "--kb", str(bad), "stats"])
    err = capsys.readouterr().err
    assert code == 3 and str(bad) in err and "Traceback" not in err


def test_version_and_help(capsys):
    from app import __version__

    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and __version__ in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "kb" in capsys.readouterr().out


def test_unwritable_user_dir_is_announced_and_reading_still_works(tmp_path, monkeypatch, capsys, kb_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    monkeypatch.setenv("CAPADVISOR_DATA_DIR", str(blocker / "data"))
    code = main(["kb", "--kb", str(kb_path), "stats", "--format", "json"])
    out = capsys.readouterr()
    assert code == 0 and json.loads(out.out)["measurements"] > 0
    assert "cannot save its files" in out.err and "CAPADVISOR_DATA_DIR" in out.err


def test_notes_list_every_inconsistency_as_text_and_json(run, kb_path):
    """Issue 28: ``kb notes [--format json]``: a list of objects with document, locator and text."""
    from knowledge.store import KnowledgeBase

    code, out, _ = run("notes", "--format", "json")
    assert code == 0
    notes = json.loads(out)
    with KnowledgeBase(kb_path) as kb:
        assert len(notes) == len(kb.notes()) >= 25
    assert all({"document", "locator", "text", "rows", "reading"} <= set(n) for n in notes)
    assert {n["document"][:3] for n in notes} == {"000", "001", "002", "003", "004"}
    code, text, _ = run("notes", "--document", "002")
    assert code == 0 and "26.7" in text and "reading:" in text and "Section 5.3" in text
    assert f"{sum(n['document'].startswith('002') for n in notes)} note(s)" in text
    code, _, err = run("notes", "--document", "999")
    assert code == 2 and "999" in err
