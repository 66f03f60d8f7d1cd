"""The user database: forward migrations keep data; writes are transactional; a damaged,
foreign or newer file is refused and left byte-for-byte untouched."""

from __future__ import annotations

import sqlite3

import pytest

from knowledge import userdb
from knowledge.infra.errors import DatabaseError, InputError
from knowledge.userdb import SiteMeasurement, UserDatabase


def _v1_database(path):
    """A user database as version 1 of the program wrote it, with one site and one import."""
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA application_id = {userdb.USER_APPLICATION_ID}")
    userdb.MIGRATIONS[0](con)
    con.execute("PRAGMA user_version = 1")
    con.execute("INSERT INTO sites (name, description, created) VALUES ('lab', 'old lab', 1.0)")
    con.execute("INSERT INTO imports (site_id, path, tool, tool_version, content_hash, imported_at,"
                " parameters) VALUES (1, '/x/fio.json', 'fio', '3.33', 'abc', 2.0, '{\"bs\": \"4k\"}')")
    con.execute("INSERT INTO site_measurements (import_id, metric, value, unit, subject)"
                " VALUES (1, 'iops', 12345.5, 'ops/s', 'randread')")
    con.execute("INSERT INTO site_factors VALUES (1, 'block_size', '4')")
    con.commit()
    con.close()


def test_new_database_is_created_at_the_latest_version(tmp_path):
    with UserDatabase(tmp_path / "u.sqlite") as db:
        assert db.schema_version == userdb.USER_SCHEMA_VERSION == 4
        assert db.sites() == []


def test_default_location_is_the_user_data_dir(tmp_path):
    with UserDatabase() as db:
        assert db.path.parent.name == "data"
        assert str(tmp_path) in str(db.path)


def test_old_version_is_migrated_and_nothing_is_lost(tmp_path):
    path = tmp_path / "u.sqlite"
    _v1_database(path)
    with UserDatabase(path) as db:
        assert db.schema_version == 4
        [site] = db.sites()
        assert (site.name, site.description, site.imports, site.measurements) == ("lab", "old lab", 1, 1)
        [rec] = db.imports("lab")
        assert (rec.tool, rec.tool_version, rec.parameters, rec.warnings) == ("fio", "3.33", {"bs": "4k"}, [])
        [m] = db.site_measurements("lab")
        assert (m.metric, m.value, m.unit, m.factors) == ("iops", 12345.5, "ops/s", {"block_size": "4"})
        db.save_project("p", {"hosts": {"count": 2}})  # the version 3 table exists
        assert db.load_project("p") == {"hosts": {"count": 2}}
    with UserDatabase(path) as db:  # reopening does not migrate again
        assert len(db.site_measurements()) == 1


def test_failed_migration_rolls_back(tmp_path, monkeypatch):
    path = tmp_path / "u.sqlite"
    _v1_database(path)
    before = path.read_bytes()

    def broken(con):
        con.executescript("ALTER TABLE imports ADD COLUMN warnings TEXT; CREATE TABLE sites (x);")

    monkeypatch.setattr(userdb, "MIGRATIONS", (userdb.MIGRATIONS[0], broken, userdb.MIGRATIONS[2]))
    with pytest.raises(DatabaseError, match="could not upgrade .* from version 1"):
        UserDatabase(path)
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 1
    cols = [r[1] for r in con.execute("PRAGMA table_info(imports)")]
    assert "warnings" not in cols
    con.close()
    assert len(path.read_bytes()) == len(before)


def test_newer_database_is_refused_untouched(tmp_path):
    path = tmp_path / "u.sqlite"
    UserDatabase(path).close()
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version = 42")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(DatabaseError, match="version 42, newer than this program"):
        UserDatabase(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("content", [b"garbage" * 1000, b"SQLite format 3\x00" + b"\x00\xff" * 2000])
def test_corrupt_database_is_refused_untouched(tmp_path, content):
    path = tmp_path / "u.sqlite"
    path.write_bytes(content)
    with pytest.raises(DatabaseError) as info:
        UserDatabase(path)
    assert str(path) in str(info.value) and "left untouched" in str(info.value)
    assert path.read_bytes() == content


def test_foreign_database_is_refused(tmp_path):
    path = tmp_path / "u.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE mine (x)")
    con.commit()
    con.close()
    with pytest.raises(DatabaseError, match="not a Capacity Advisor user database"):
        UserDatabase(path)


def test_unwritable_location_gives_a_clear_message(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(DatabaseError, match="cannot create the folder"):
        UserDatabase(blocker / "sub" / "u.sqlite")


def _measurements(n=3):
    return [SiteMeasurement("throughput", 100.0 + i, "MiB/s", "seq read", {"block_size": "1024"},
                            (100.0 + i) * 2**20) for i in range(n)]


def test_import_is_stored_once_and_in_one_transaction(tmp_path):
    with UserDatabase(tmp_path / "u.sqlite") as db:
        db.add_import("lab", path="a.json", tool="fio", tool_version="3.33", content_hash="h1",
                      parameters={"rw": "read"}, measurements=_measurements(), warnings=["w"])
        with pytest.raises(InputError, match="already imported into site 'lab'"):
            db.add_import("lab", path="copy.json", tool="fio", tool_version="3.33", content_hash="h1",
                          parameters={}, measurements=_measurements())
        # the same file may go to another site
        db.add_import("other", path="a.json", tool="fio", tool_version="3.33", content_hash="h1",
                      parameters={}, measurements=_measurements(1))
        bad = _measurements(2) + [SiteMeasurement("iops", float("nan"), "ops/s")]
        with pytest.raises(DatabaseError, match="storing b.json"):
            db.add_import("lab", path="b.json", tool="fio", tool_version="3.33", content_hash="h2",
                          parameters={}, measurements=bad)
        with pytest.raises(DatabaseError):  # the site is created inside the import's transaction
            db.add_import("fresh", path="b.json", tool="fio", tool_version="3.33", content_hash="h2",
                          parameters={}, measurements=bad)
        assert "fresh" not in [s.name for s in db.sites()]
        assert [r.content_hash for r in db.imports("lab")] == ["h1"]
        assert len(db.site_measurements("lab")) == 3
        assert db.find_import("lab", "h1").warnings == ["w"]
        assert db.find_import("lab", "h2") is None


def test_sites_are_listed_and_deleted_with_their_data(tmp_path):
    with UserDatabase(tmp_path / "u.sqlite") as db:
        db.add_import("lab", path="a", tool="fio", tool_version="", content_hash="h",
                      parameters={}, measurements=_measurements())
        db.add_import("client", path="a", tool="fio", tool_version="", content_hash="h",
                      parameters={}, measurements=_measurements(2))
        assert [(s.name, s.measurements) for s in db.sites()] == [("client", 2), ("lab", 3)]
        assert db.delete_site("lab") == 3
        assert [s.name for s in db.sites()] == ["client"]
        assert len(db.site_measurements()) == 2
        with pytest.raises(InputError, match="no site named 'lab'"):
            db.delete_site("lab")
