"""`capadvisor import` and `capadvisor sites` through the real CLI entry point (user database in tmp_path)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.cli import main
from knowledge.userdb import UserDatabase
from tests.knowledge.importers.conftest import FIXTURES


@pytest.fixture()
def run(capsys):
    def _run(*args):
        code = main(list(args))
        out = capsys.readouterr()
        return code, out.out, out.err
    return _run


def fx(name: str) -> str:
    return str(FIXTURES / name)


def test_json_output_has_the_interface_keys(run):
    code, out, _ = run("import", fx("fio3_randrw_2jobs_group.json"), fx("sysbench10_cpu.txt"),
                       "--site", "lab", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert doc["site"] == "lab" and doc["imported"] == 2
    fio, sb = doc["files"]
    assert {"path", "tool", "tool_version", "measurements", "warnings"} <= set(fio)
    assert (fio["tool"], fio["tool_version"], fio["status"]) == ("fio", "3.33", "imported")
    m = next(m for m in fio["measurements"] if m["metric"] == "throughput" and m["operation"] == "read")
    assert (m["unit"], m["factors"]["block_size"], m["block_size"], m["value_si"]) == (
        "KiB/s", "4", "4", m["value"] * 1024)
    assert sb["measurements"][0] == {**sb["measurements"][0], "metric": "throughput", "value": 10199.5,
                                     "unit": "ops/s"}
    with UserDatabase() as db:
        assert [s.name for s in db.sites()] == ["lab"]
        assert len(db.site_measurements("lab")) == len(fio["measurements"]) + len(sb["measurements"])


def test_same_content_twice_is_recognised_not_duplicated(run, tmp_path):
    copy = tmp_path / "renamed.txt"
    shutil.copy(FIXTURES / "postmark_verbose.txt", copy)
    assert run("import", fx("postmark_verbose.txt"), "--site", "lab")[0] == 0
    code, out, _ = run("import", str(copy), "--site", "lab", "--format", "json")
    assert code == 0
    rec = json.loads(out)["files"][0]
    assert rec["status"] == "duplicate" and "postmark_verbose.txt" in rec["note"]
    with UserDatabase() as db:
        assert len(db.imports("lab")) == 1
    # another site may hold the same file
    assert json.loads(run("import", str(copy), "--site", "other", "--format", "json")[1])["imported"] == 1


def test_bad_files_are_named_the_others_still_imported_and_exit_code_is_2(run, tmp_path):
    bad = tmp_path / "truncated.json"
    bad.write_text((FIXTURES / "fio3_randrw_2jobs_group.json").read_text()[:900])
    unknown = tmp_path / "notes.txt"
    unknown.write_text("hello\n")
    code, out, err = run("import", str(bad), fx("bonnie2_csv_sync.txt"), str(unknown), "--site", "s",
                         "--format", "json")
    assert code == 2
    doc = json.loads(out)
    assert [f["status"] for f in doc["files"]] == ["failed", "imported", "failed"]
    assert "truncated.json, line" in doc["files"][0]["error"] and "notes.txt, line 1: unknown format" in err
    with UserDatabase() as db:
        assert [i.tool for i in db.imports("s")] == ["bonnie++"]  # nothing half-written


def test_dry_run_stores_nothing(run):
    code, out, _ = run("import", fx("iozone3_auto_stdout.txt"), "--dry-run")
    assert code == 0 and "dry run" in out and "986084" in out
    with UserDatabase() as db:
        assert db.sites() == []


def test_a_failing_store_leaves_no_partial_import(run, monkeypatch):
    from knowledge.importers import base

    real = base.leveled_measurement

    def poisoned(metric, value, unit, levels, subject=""):
        m = real(metric, value, unit, levels, subject)
        if metric == "iops":
            m.value = "not-a-number"  # float() in add_import raises after earlier rows were inserted
        return m

    monkeypatch.setattr("knowledge.importers.fio.leveled_measurement", poisoned)
    code, _, err = run("import", fx("fio3_randrw_2jobs_group.json"), "--site", "t")
    assert code == 2 and "fio3_randrw_2jobs_group.json" in err and "not a number" in err
    with UserDatabase() as db:
        assert db.imports("t") == [] and db.site_measurements("t") == []


def test_third_party_importer_from_an_installed_distribution(run, tmp_path):
    """A real distribution with an entry point in capadvisor.importers: the registry loads it by
    itself (the CLI does nothing special); the broken entry point of the same package is reported."""
    from tests.plugin_package import installed

    f = tmp_path / "m.csv"
    f.write_text("demo-csv,80\ndemo-csv,95\n")
    with installed(tmp_path / "site-packages"):
        code, out, err = run("import", str(f), "--site", "p", "--format", "json")
        code2, listing, _ = run("import", "--list-importers")
    doc = json.loads(out)
    assert code == 0 and doc["files"][0]["tool"] == "demo-csv"
    assert [m["value"] for m in doc["files"][0]["measurements"]] == [80.0, 95.0]
    assert doc["summary"].endswith("2 runs found, 2 imported, 0 skipped")
    assert "plug-in broken-demo" in err and "NO_SUCH_THING" in err
    assert [p["name"] for p in doc["plugin_failures"]] == ["broken-demo"]
    assert code2 == 0 and "demo-csv" in listing


def test_third_party_importer_in_a_fresh_process(tmp_path):
    """The same package on PYTHONPATH of a real `capadvisor import` process."""
    import os
    import subprocess
    import sys

    from tests.plugin_package import write_package

    root = write_package(tmp_path / "site-packages")
    f = tmp_path / "m.csv"
    f.write_text("demo-csv,42\n")
    env = dict(os.environ, PYTHONPATH=f"{root}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "cfg"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), CAPADVISOR_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.run([sys.executable, "-m", "app", "import", str(f), "--site", "plug"], env=env,
                          capture_output=True, text=True, timeout=100)
    assert proc.returncode == 0, proc.stderr
    assert "demo-csv 1.0" in proc.stdout and "1 run found, 1 imported, 0 skipped" in proc.stdout
    # the package's broken entry point is reported once, not a second time by a log handler
    assert proc.stderr.count("broken-demo") == 1, proc.stderr


def test_sites_list_show_compare_delete(run):
    run("import", fx("sysbench10_cpu.txt"), fx("bonnie2_csv_sync.txt"), "--site", "a")
    run("import", fx("sysbench11_cpu_published.txt"), "--site", "b")
    code, out, _ = run("sites", "list", "--format", "json")
    assert code == 0 and [(s["name"], s["imports"]) for s in json.loads(out)] == [("a", 2), ("b", 1)]
    code, out, _ = run("sites", "show", "a", "--format", "json")
    summary = json.loads(out)["summary"]
    assert summary["cpu_events_per_s"] == 10199.5 and summary["sources"]["cpu_events_per_s"]["tool"] == "sysbench"
    code, out, _ = run("sites", "show", "a")
    assert code == 0 and "sequential write" in out and "414.69" in out
    code, out, _ = run("sites", "compare", "a", "b", "--format", "json")
    assert json.loads(out)["ratios"]["cpu_events_per_s"] == pytest.approx(114.08 / 10199.5)
    code, _, err = run("sites", "delete", "b")
    assert code == 2 and "--yes" in err
    code, out, _ = run("sites", "delete", "b", "--yes")
    assert code == 0 and "deleted site 'b'" in out
    code, _, err = run("sites", "show", "b")
    assert code == 2 and "no site named 'b'" in err


def test_sites_remove_import_removes_one_file_and_keeps_the_others(run, tmp_path):
    """Issue #29: one bad imported file can be removed from a site (was: only the whole site)."""
    run("import", fx("sysbench10_cpu.txt"), fx("bonnie2_csv_sync.txt"), "--site", "a")
    with UserDatabase() as db:
        imports = {Path(i.path).name: i.id for i in db.imports("a")}
        before = {m.import_id for m in db.site_measurements("a")}
        path = db.path
    assert set(imports) == {"sysbench10_cpu.txt", "bonnie2_csv_sync.txt"} and len(before) == 2
    bad = imports["bonnie2_csv_sync.txt"]
    code, _, err = run("sites", "remove-import", "a", "999")
    assert code == 2 and "no import 999" in err and str(bad) in err
    code, _, err = run("sites", "remove-import", "nosuch", str(bad))
    assert code == 2 and "no site named 'nosuch'" in err
    code, out, _ = run("sites", "remove-import", "a", str(bad))
    assert code == 0 and f"removed import {bad}" in out and "bonnie2_csv_sync.txt" in out
    with UserDatabase(path) as db:
        assert [Path(i.path).name for i in db.imports("a")] == ["sysbench10_cpu.txt"]
        left = db.site_measurements("a")
        assert left and {m.import_id for m in left} == {imports["sysbench10_cpu.txt"]}
        orphans = db._con.execute("SELECT count(*) FROM site_factors f LEFT JOIN site_measurements m "
                                  "ON m.id = f.measurement_id WHERE m.id IS NULL").fetchone()[0]
        assert orphans == 0
    code, out, _ = run("sites", "show", "a")
    assert code == 0 and "bonnie2_csv_sync.txt" not in out and "414.69" not in out  # bonnie's figures went
    code, out, _ = run("import", fx("bonnie2_csv_sync.txt"), "--site", "a")  # the same file again: imported anew
    assert code == 0
    with UserDatabase(path) as db:
        assert len(db.imports("a")) == 2
