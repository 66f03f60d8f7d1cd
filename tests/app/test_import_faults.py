"""Import faults with real processes and real file systems: kill -9 mid-import, two imports at once,
a full disk, a read-only folder, a bad file in a batch, damaged and foreign databases. Everything is
all-or-nothing per file, messages are clear, exit codes are 0/1/2/3, databases stay intact."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.cli import main
from knowledge.infra.paths import user_db_path
from knowledge.userdb import UserDatabase

FIXTURES = Path(__file__).resolve().parents[1] / "knowledge" / "importers" / "fixtures"
FIO = FIXTURES / "fio3_randrw_2jobs.json"


def run(*args):
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def cli(*args, timeout=100):
    return subprocess.run([sys.executable, "-m", "app", *args], capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ))


def fio_copies(folder: Path, n: int, jobs: int = 1) -> list[Path]:
    """``n`` fio JSON files of distinct content (the job name differs), ``jobs`` job copies each."""
    doc = json.loads(FIO.read_text())
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        d = dict(doc)
        d["jobs"] = [dict(doc["jobs"][0], jobname=f"copy{i}-{k}", groupid=k) for k in range(jobs)]
        p = folder / f"fio{i:03}.json"
        p.write_text(json.dumps(d))
        out.append(p)
    return out


def integrity(path: Path) -> str:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return con.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        con.close()


def assert_whole(path: Path) -> None:
    """Intact, no site without imports, no import without measurements."""
    assert integrity(path) == "ok"
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        assert con.execute("SELECT count(*) FROM sites s WHERE NOT EXISTS "
                           "(SELECT 1 FROM imports i WHERE i.site_id = s.id)").fetchone()[0] == 0
        assert con.execute("SELECT count(*) FROM imports i WHERE NOT EXISTS "
                           "(SELECT 1 FROM site_measurements m WHERE m.import_id = i.id)").fetchone()[0] == 0
    finally:
        con.close()


def test_one_bad_file_never_stops_a_batch_nor_leaves_an_empty_site(tmp_path):
    """A lone surrogate in a fio job name (JSON escape), an empty file, garbage: reported per file."""
    good = FIXTURES / "sysbench10_cpu.txt"
    surrogate = tmp_path / "surrogate.json"
    surrogate.write_text(FIO.read_text().replace('"jobname" : "', '"jobname" : "\\ud800', 1))
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(b"\x00\xff" * 50)
    code, out, err = run("import", str(garbage), str(surrogate), str(empty), str(good), "--site", "fresh")
    assert code == 2 and "Traceback" not in err
    assert "garbage.bin" in err and "empty.txt" in err and "surrogate.json" not in err
    assert "4 files: 2 imported, 2 failed" in out
    with UserDatabase() as db:
        tools = [i.tool for i in db.imports("fresh")]
        assert tools == ["fio", "sysbench"]
        subjects = {m.subject for m in db.site_measurements("fresh")}
        assert any("\ufffd" in s for s in subjects)
    code, _, err = run("import", str(garbage), "--site", "never")
    assert code == 2
    with UserDatabase() as db:
        assert "never" not in [s.name for s in db.sites()]
    assert_whole(user_db_path())


def test_kill_9_mid_import_leaves_whole_files_only(tmp_path):
    files = fio_copies(tmp_path / "in", 60, jobs=40)
    proc = subprocess.Popen([sys.executable, "-m", "app", "import", *map(str, files), "--site", "killed"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))
    db = user_db_path()
    deadline = time.monotonic() + 60
    stored = 0
    while time.monotonic() < deadline and proc.poll() is None:
        if db.exists():
            try:
                con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
                stored = con.execute("SELECT count(*) FROM imports").fetchone()[0]
                con.close()
            except sqlite3.Error:
                stored = 0
            if stored >= 2:
                break
        time.sleep(0.02)
    if proc.poll() is not None:
        pytest.skip("the import finished before it could be killed")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    assert_whole(db)
    with UserDatabase() as udb:
        n = len(udb.imports("killed"))
        assert 2 <= n < 60
        per_import = {}
        for m in udb.site_measurements("killed"):
            per_import[m.import_id] = per_import.get(m.import_id, 0) + 1
        assert len(set(per_import.values())) == 1, "every stored file is whole"
    # the rest imports afterwards; the stored ones are recognised
    code, out, _ = run("import", *map(str, files), "--site", "killed")
    assert code == 0 and f"{n} already imported" in out
    assert_whole(db)


def test_two_imports_at_once_both_succeed(tmp_path):
    a = fio_copies(tmp_path / "a", 15, jobs=20)
    b = [p.rename(p.with_name("b" + p.name)) for p in fio_copies(tmp_path / "b", 15, jobs=21)]
    assert cli("import", str(FIXTURES / "sysbench10_cpu.txt"), "--site", "both").returncode == 0  # db exists
    env = dict(os.environ)
    procs = [subprocess.Popen([sys.executable, "-m", "app", "import", *map(str, files), "--site", "both"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for files in (a, b)]
    results = [p.communicate(timeout=110) for p in procs]
    for p, (_out, err) in zip(procs, results, strict=True):
        assert p.returncode == 0, err
        assert "Traceback" not in err
    with UserDatabase() as db:
        assert len(db.imports("both")) == 31
    assert_whole(user_db_path())


def _mount_tmpfs(where: Path, size: str) -> bool:
    where.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True).returncode == 0


def _umount(where: Path) -> None:
    subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_disk_full_fails_the_file_whole_with_a_clear_message(tmp_path, monkeypatch):
    small = tmp_path / "small"
    if not _mount_tmpfs(small, "400k"):
        pytest.skip("needs root and a tmpfs mount to make a small disk")
    try:
        monkeypatch.setenv("CAPADVISOR_DATA_DIR", str(small / "data"))
        assert run("import", str(FIXTURES / "sysbench10_cpu.txt"), "--site", "full")[0] == 0
        big = fio_copies(tmp_path / "big", 1, jobs=400)
        code, out, err = run("import", str(big[0]), "--site", "full")
        assert code == 1 and "Traceback" not in err  # a full disk is no damaged database (#34: it was 3)
        assert "is full" in err and "fio000.json" in err and "rolled back" in err
        assert_whole(small / "data" / user_db_path().name)
        with UserDatabase() as db:
            assert [i.tool for i in db.imports("full")] == ["sysbench"]
    finally:
        _umount(small)


def test_a_disk_full_before_the_database_opens_is_exit_1_and_says_so(tmp_path, monkeypatch):
    """The review's reproducer (#34 point 9): the disk is already full when the import opens the user
    database (SQLite says only "disk I/O error" when it cannot make its shared-memory file)."""
    small = tmp_path / "small2"
    if not _mount_tmpfs(small, "200k"):
        pytest.skip("needs root and a tmpfs mount to make a small disk")
    try:
        monkeypatch.setenv("CAPADVISOR_DATA_DIR", str(small / "data"))
        assert run("import", str(FIXTURES / "sysbench10_cpu.txt"), "--site", "full")[0] == 0
        db_file = small / "data" / user_db_path().name
        before = db_file.read_bytes()
        with contextlib.suppress(OSError), open(small / "fill", "wb") as fh:
            while True:
                fh.write(b"\0" * 4096)
        code, _out, err = run("import", str(FIO), "--site", "full")
        assert code == 1 and "Traceback" not in err, err
        assert "is full" in err
        assert db_file.read_bytes() == before
    finally:
        _umount(small)


def test_a_read_only_folder_gives_a_clear_message_and_changes_nothing(tmp_path, monkeypatch):
    ro = tmp_path / "ro"
    if not _mount_tmpfs(ro, "2m"):
        pytest.skip("needs root and a tmpfs mount (root ignores permission bits)")
    try:
        monkeypatch.setenv("CAPADVISOR_DATA_DIR", str(ro / "data"))
        assert run("import", str(FIXTURES / "sysbench10_cpu.txt"), "--site", "ro")[0] == 0
        before = (ro / "data" / user_db_path().name).read_bytes()
        assert subprocess.run(["mount", "-o", "remount,ro", str(ro)], capture_output=True).returncode == 0
        code, _, err = run("import", str(FIO), "--site", "ro")
        assert code == 3 and "Traceback" not in err
        assert "read-only" in err or "cannot use" in err
        assert (ro / "data" / user_db_path().name).read_bytes() == before
        # a fresh database in a read-only folder: the folder is named
        monkeypatch.setenv("CAPADVISOR_DATA_DIR", str(ro / "other"))
        code, _, err = run("import", str(FIO), "--site", "ro")
        assert code == 3 and str(ro / "other") in err and "Traceback" not in err
    finally:
        _umount(ro)


def _make_db(tmp_path) -> Path:
    assert run("import", str(FIO), "--site", "lab")[0] == 0
    return user_db_path()


@pytest.mark.parametrize("damage, words", [
    ("DROP TABLE site_factors", "table site_factors missing"),
    ("ALTER TABLE imports DROP COLUMN warnings", "column imports.warnings missing"),
    ("UPDATE imports SET parameters = '{bad json'", "imports row 1 has an unreadable parameters"),
    ("UPDATE site_measurements SET value = 'x' WHERE id = 1", "not a finite number"),
])
def test_damage_beyond_quick_check_is_exit_3_with_a_clear_message(tmp_path, damage, words):
    db = _make_db(tmp_path)
    con = sqlite3.connect(db)
    con.execute(damage)
    con.commit()
    con.close()
    before = db.read_bytes()
    commands = [("sites", "show", "lab")]
    if "value" not in damage:  # storing into the site reads its imports (duplicate check), not its values
        commands.append(("import", str(FIXTURES / "sysbench10_cpu.txt"), "--site", "lab"))
    for args in commands:
        code, _, err = run(*args)
        assert code == 3, (args, err)
        assert words in err and "Traceback" not in err
    assert db.read_bytes() == before


def test_a_bit_flipped_file_is_exit_3(tmp_path):
    db = _make_db(tmp_path)
    data = bytearray(db.read_bytes())
    for off in range(100, len(data), 97):  # flip bits all over the pages
        data[off] ^= 0x55
    db.write_bytes(bytes(data))
    code, _, err = run("sites", "show", "lab")
    assert code == 3 and "Traceback" not in err and str(db) in err


def test_foreign_and_empty_files_are_not_adopted(tmp_path):
    empty_sqlite = tmp_path / "foreign.sqlite"
    sqlite3.connect(empty_sqlite).close()  # a valid, empty SQLite file of someone else
    con = sqlite3.connect(empty_sqlite)
    con.execute("PRAGMA user_version = 0")
    con.close()
    zero = tmp_path / "zero.sqlite"
    zero.write_bytes(b"")
    example = Path(__file__).resolve().parents[2] / "resources" / "examples" / "scenario.yaml"
    for target in (zero, empty_sqlite):
        before = target.read_bytes()
        code, _, err = run("advise", str(example), "--site-db", str(target))
        assert code == 3 and str(target) in err and "left untouched" in err, err
        assert target.read_bytes() == before


def test_a_read_during_a_long_import_is_not_told_the_database_is_damaged(tmp_path):
    db = _make_db(tmp_path)
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # a long import holds the write lock
    writer.execute("INSERT INTO sites (name, description, created) VALUES ('busy', '', 0)")
    try:
        code, out, err = run("sites", "list")
        assert code == 0 and "lab" in out and "damaged" not in err
    finally:
        writer.execute("ROLLBACK")
        writer.close()
