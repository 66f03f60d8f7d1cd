"""Issue #34, point 9: earlier fixes that had regressed.

- A damaged user database (a flipped bit, a missing table or column, a bad JSON row, text in a
  number column) stays byte for byte as it was after every command that opens it, also when its
  journal is not WAL (opening it switched the journal mode: the bytes changed on every read while
  the message said "left untouched"); ``sites delete`` never writes into one with a missing table
  or column.
- ``advise`` with the cache folder on a full disk is a message, not a ``sqlite3.OperationalError``
  traceback (exit 1: the disk, not a damaged file).
- ``capadvisor gui --scenario FILE --screenshots DIR`` with a YAML syntax error exits 2.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from knowledge.infra.paths import user_db_path
from tests.advisor.examples import EXAMPLES

pytestmark = pytest.mark.timeout(600)
FIXTURES = Path(__file__).resolve().parents[1] / "knowledge" / "importers" / "fixtures"
SAMPLE = FIXTURES / "sysbench10_cpu.txt"

DAMAGE = {
    "flipped bits": None,
    "missing table": "DROP TABLE site_factors",
    "missing column": "ALTER TABLE imports DROP COLUMN warnings",
    "bad JSON row": "UPDATE imports SET parameters = '{bad json'",
    "text in a number column": "UPDATE site_measurements SET value = 'x' WHERE id = 1",
}


def run(*args: str) -> tuple[int, str]:
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(list(args))
    return code, err.getvalue()


@pytest.fixture()
def good_db(tmp_path) -> bytes:
    assert run("import", str(SAMPLE), "--site", "lab")[0] == 0
    db = user_db_path()
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode = DELETE")  # a file as another tool (or an older version) left it
    con.close()
    return db.read_bytes()


def _damage(db: Path, good: bytes, kind: str) -> bytes:
    for extra in (Path(f"{db}-wal"), Path(f"{db}-shm")):
        extra.unlink(missing_ok=True)
    db.write_bytes(good)
    sql = DAMAGE[kind]
    if sql is None:
        data = bytearray(good)
        for off in range(100, len(data), 97):
            data[off] ^= 0x55
        db.write_bytes(bytes(data))
    else:
        con = sqlite3.connect(db)
        con.execute(sql)
        con.commit()
        con.close()
    return db.read_bytes()


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_a_damaged_database_stays_byte_for_byte(good_db, kind):
    db = user_db_path()
    commands = [("sites", "show", "lab"), ("sites", "list"), ("advise", str(EXAMPLES / "small-lab.json"),
                                                               "--site", "lab", "--format", "json")]
    if kind in ("flipped bits", "missing table", "missing column"):  # the others: deleting the site is the remedy
        commands.append(("sites", "delete", "lab", "--yes"))
    for args in commands:
        before = _damage(db, good_db, kind)
        code, err = run(*args)
        assert "Traceback" not in err
        if args[1] != "list" or kind in ("flipped bits", "missing table", "missing column"):
            assert code == 3 and str(db) in err, (kind, args, code, err)
        assert db.read_bytes() == before, (kind, args)


def test_a_full_cache_folder_is_a_message(tmp_path, monkeypatch):
    from knowledge import build

    def full(con, cur):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(build, "_fill", full)
    code, err = run("advise", str(EXAMPLES / "small-lab.json"), "--format", "json")
    assert code == 1 and "Traceback" not in err and "cannot write the compiled knowledge base" in err, err
    assert "database or disk is full" in err and not list(Path(os.environ["CAPADVISOR_CACHE_DIR"]).glob("*.tmp"))


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("mount") is None, reason="needs root to mount a small tmpfs")
def test_a_full_cache_disk_for_real(tmp_path, monkeypatch):
    small = tmp_path / "small"
    small.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(small)],
                      capture_output=True).returncode != 0:
        pytest.skip("no tmpfs mount here")
    try:
        monkeypatch.setenv("CAPADVISOR_CACHE_DIR", str(small / "cache"))
        code, err = run("advise", str(EXAMPLES / "small-lab.json"), "--format", "json")
        assert code == 1 and "Traceback" not in err and "full" in err, err
    finally:
        subprocess.run(["umount", "-l", str(small)], capture_output=True)


def test_screenshots_of_a_scenario_with_a_yaml_syntax_error_exit_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nworkloads: [\n")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    p = subprocess.run([sys.executable, "-c", "import sys; from app.cli import main; sys.exit(main(sys.argv[1:]))",
                        "gui", "--scenario", str(bad), "--screenshots", str(tmp_path / "shots")],
                       capture_output=True, text=True, timeout=300, env=env)
    assert p.returncode == 2 and "bad.yaml" in p.stderr and "invalid YAML" in p.stderr, p.stderr[-1500:]
