"""The writable user database: sites, imported benchmark files and their measurements,
saved projects (scenarios) and the cost catalogue (:mod:`knowledge.costs`).

Schema versioned by ``PRAGMA user_version`` with forward migrations (:data:`MIGRATIONS`);
every write runs in one transaction; a newer or foreign file is refused, never rewritten.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from knowledge import costs
from knowledge.costs import Catalogue
from knowledge.infra import jsonout
from knowledge.infra.errors import DatabaseError, InputError
from knowledge.infra.paths import user_db_path
from knowledge.infra.sqlite_util import check_schema, explain, open_checked

#: PRAGMA application_id of a user database ('CAUD')
USER_APPLICATION_ID = 0x43415544


def _v1(con: sqlite3.Connection) -> None:
    con.executescript("""
        CREATE TABLE sites (
            id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, description TEXT NOT NULL DEFAULT '',
            created REAL NOT NULL);
        CREATE TABLE imports (
            id INTEGER PRIMARY KEY, site_id INTEGER NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
            path TEXT NOT NULL, tool TEXT NOT NULL, tool_version TEXT NOT NULL DEFAULT '',
            content_hash TEXT NOT NULL, imported_at REAL NOT NULL, parameters TEXT NOT NULL DEFAULT '{}');
        CREATE TABLE site_measurements (
            id INTEGER PRIMARY KEY, import_id INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
            metric TEXT NOT NULL, value REAL NOT NULL, unit TEXT NOT NULL, subject TEXT NOT NULL DEFAULT '');
        CREATE TABLE site_factors (
            measurement_id INTEGER NOT NULL REFERENCES site_measurements(id) ON DELETE CASCADE,
            factor TEXT NOT NULL, level TEXT NOT NULL, PRIMARY KEY (measurement_id, factor));
    """)


def _v2(con: sqlite3.Connection) -> None:
    # version 2: an import remembers its warnings; the same file is stored once per site;
    # measurements carry their value in SI units for comparison across tools.
    con.executescript("""
        ALTER TABLE imports ADD COLUMN warnings TEXT NOT NULL DEFAULT '[]';
        CREATE UNIQUE INDEX imports_once ON imports(site_id, content_hash);
        ALTER TABLE site_measurements ADD COLUMN value_si REAL;
        CREATE INDEX site_measurements_metric ON site_measurements(metric);
    """)


def _v3(con: sqlite3.Connection) -> None:
    # version 3: saved projects (scenarios) with their last recommendations.
    con.executescript("""
        CREATE TABLE projects (
            id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, scenario TEXT NOT NULL,
            recommendations TEXT, saved_at REAL NOT NULL);
    """)


def _v4(con: sqlite3.Connection) -> None:
    # version 4: the cost catalogue (knowledge.costs): its settings (name, currency, years, power,
    # rack) as one JSON document and its named entries (host models, storage, licences) one a row.
    con.executescript("""
        CREATE TABLE cost_settings (
            id INTEGER PRIMARY KEY CHECK (id = 1), data TEXT NOT NULL, saved_at REAL NOT NULL);
        CREATE TABLE cost_entries (
            id INTEGER PRIMARY KEY, section TEXT NOT NULL, name TEXT NOT NULL, data TEXT NOT NULL,
            position INTEGER NOT NULL DEFAULT 0, saved_at REAL NOT NULL, UNIQUE (section, name));
    """)


#: MIGRATIONS[i] upgrades a database from version i to i + 1
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_v1, _v2, _v3, _v4)
USER_SCHEMA_VERSION = len(MIGRATIONS)
#: the tables and columns of the current schema (what damage detection checks)
USER_SCHEMA = {
    "sites": ("id", "name", "description", "created"),
    "imports": ("id", "site_id", "path", "tool", "tool_version", "content_hash", "imported_at", "parameters",
                "warnings"),
    "site_measurements": ("id", "import_id", "metric", "value", "unit", "subject", "value_si"),
    "site_factors": ("measurement_id", "factor", "level"),
    "projects": ("id", "name", "scenario", "recommendations", "saved_at"),
    "cost_settings": ("id", "data", "saved_at"),
    "cost_entries": ("id", "section", "name", "data", "position", "saved_at"),
}
WHAT = "user database"


@dataclass(frozen=True)
class Site:
    id: int
    name: str
    description: str
    created: float
    imports: int = 0
    measurements: int = 0


@dataclass(frozen=True)
class ImportRecord:
    id: int
    site: str
    path: str
    tool: str
    tool_version: str
    content_hash: str
    imported_at: float
    parameters: dict
    warnings: list[str]


@dataclass
class SiteMeasurement:
    """One measurement of a site benchmark, in the knowledge base's vocabulary."""

    metric: str
    value: float
    unit: str
    subject: str = ""
    factors: dict[str, str] = field(default_factory=dict)
    value_si: float | None = None
    id: int | None = None
    import_id: int | None = None
    tool: str = ""


def create_database(path: Path, target: int = USER_SCHEMA_VERSION) -> None:
    """Create a user database at ``path`` whole or not at all: the schema is built in a temporary
    file in the same folder, which is then linked into place (never over an existing file, so a
    concurrent creator's database is kept). A killed creation leaves no file at ``path``."""
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".new", dir=path.parent)
        os.close(fd)
    except OSError as exc:
        raise explain(exc, path, WHAT, "creating it") from exc
    tmp = Path(tmp_name)
    try:
        con = sqlite3.connect(tmp, isolation_level=None)
        try:
            con.execute("PRAGMA journal_mode = WAL")
            con.execute("BEGIN IMMEDIATE")
            con.execute(f"PRAGMA application_id = {USER_APPLICATION_ID}")
            for step in range(target):
                for statement in _statements(MIGRATIONS[step]):
                    con.execute(statement)
            con.execute(f"PRAGMA user_version = {target}")
            con.execute("COMMIT")
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            con.close()
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another process created it first: use theirs
        except OSError:
            if not path.exists():
                os.rename(tmp, path)  # a file system without hard links
    except (sqlite3.Error, OSError) as exc:
        raise explain(exc, path, WHAT, "creating it") from exc
    finally:
        for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            with contextlib.suppress(OSError):
                leftover.unlink()


class UserDatabase:
    """The user's writable database, opened (and migrated forward) at ``path``.

    A missing file is created whole (:func:`create_database`); an existing file must be ours:
    a 0-byte file, an SQLite file of another program (even one without tables), a damaged file
    (``quick_check``, missing tables or columns) are refused with a :class:`DatabaseError` and
    left untouched. Every sqlite3 error becomes a :class:`DatabaseError` saying what happened
    (locked by another program, disk full, read-only, damaged). Writers wait up to
    :data:`~knowledge.infra.sqlite_util.BUSY_TIMEOUT_MS` for each other; the journal is WAL, so
    reads go on during a long import.
    """

    def __init__(self, path: Path | None = None, *, migrate: bool = True):
        self.path = Path(path) if path is not None else user_db_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseError(f"cannot create the folder of the user database {self.path.parent}: "
                                f"{exc}") from exc
        if not self.path.exists() and not self.path.is_symlink():
            create_database(self.path, USER_SCHEMA_VERSION if migrate else 0)
        self._con = open_checked(self.path, application_id=USER_APPLICATION_ID,
                                 what=WHAT, read_only=False, allow_empty=False)
        try:
            self._con.execute("PRAGMA foreign_keys = ON")
            self._wal_set = False  # the journal mode is set before the first write, never by a read
            version = self.schema_version
            if version > USER_SCHEMA_VERSION:
                raise DatabaseError(
                    f"user database {self.path} has schema version {version}, newer than this program "
                    f"({USER_SCHEMA_VERSION}); it was left untouched. Use a newer Capacity Advisor")
            if migrate and version < USER_SCHEMA_VERSION:
                self.migrate()
            if self.schema_version == USER_SCHEMA_VERSION:
                check_schema(self._con, self.path, WHAT, USER_SCHEMA)
        except sqlite3.Error as exc:
            self._con.close()
            raise explain(exc, self.path, WHAT, "opening it") from exc
        except DatabaseError:
            self._con.close()
            raise

    @contextlib.contextmanager
    def _errors(self, doing: str) -> Iterator[None]:
        """Translate sqlite3 errors raised while ``doing`` into user-facing DatabaseErrors."""
        try:
            yield
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            raise explain(exc, self.path, WHAT, doing) from exc
        except OSError as exc:
            raise explain(exc, self.path, WHAT, doing) from exc

    @contextlib.contextmanager
    def _write(self, doing: str) -> Iterator[None]:
        """One write transaction (errors as :meth:`_errors`). The journal becomes WAL here, before
        the first write, so that a command that only reads (or a file refused as damaged) leaves the
        file byte for byte as it was."""
        if not self._wal_set:
            self._wal_set = True
            with contextlib.suppress(sqlite3.Error):  # a read-only folder keeps its journal mode
                self._con.execute("PRAGMA journal_mode = WAL")
        with self._errors(doing), self._con:
            yield

    def _json(self, text: object, table: str, row_id: object, column: str) -> object:
        try:
            return json.loads(text)  # type: ignore[arg-type]
        except (TypeError, ValueError, RecursionError) as exc:
            raise DatabaseError(f"user database {self.path} is damaged: {table} row {row_id} has an "
                                f"unreadable {column} ({type(exc).__name__}); it was left untouched. "
                                "Restore it from a backup, or delete that site and import again") from exc

    @property
    def schema_version(self) -> int:
        return self._con.execute("PRAGMA user_version").fetchone()[0]

    def migrate(self, target: int = USER_SCHEMA_VERSION) -> None:
        """Apply the forward migrations up to ``target``, all in one transaction."""
        version = self.schema_version
        if version >= target:
            return
        con = self._con
        try:
            if con.in_transaction:
                con.commit()
            con.execute("BEGIN IMMEDIATE")
            if version == 0:
                con.execute(f"PRAGMA application_id = {USER_APPLICATION_ID}")
            for step in range(version, target):
                for statement in _statements(MIGRATIONS[step]):
                    con.execute(statement)
            con.execute(f"PRAGMA user_version = {target}")
            con.execute("COMMIT")
        except sqlite3.Error as exc:
            if con.in_transaction:
                con.execute("ROLLBACK")
            err = explain(exc, self.path, WHAT, f"upgrading it from schema version {version}")
            raise DatabaseError(f"could not upgrade user database {self.path} from version {version}: "
                                f"{err}; it was left as it was") from exc

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> UserDatabase:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- sites -----------------------------------------------------------------------------
    def sites(self) -> list[Site]:
        with self._errors("listing the sites"):
            rows = self._con.execute("""
            SELECT s.id, s.name, s.description, s.created,
                   (SELECT count(*) FROM imports i WHERE i.site_id = s.id),
                   (SELECT count(*) FROM site_measurements m JOIN imports i ON m.import_id = i.id
                     WHERE i.site_id = s.id)
            FROM sites s ORDER BY s.name""").fetchall()
        return [Site(*r) for r in rows]

    def site(self, name: str) -> Site:
        for s in self.sites():
            if s.name == name:
                return s
        raise InputError(f"no site named {name!r}")

    def ensure_site(self, name: str, description: str = "") -> int:
        """The id of site ``name``, creating it if needed."""
        name = _site_name(name)
        with self._write(f"creating site {name!r}"):
            return self._site_id(name, description)

    def _site_id(self, name: str, description: str = "") -> int:
        """The id of site ``name``, created inside the caller's transaction if needed."""
        self._con.execute("INSERT OR IGNORE INTO sites (name, description, created) VALUES (?, ?, ?)",
                          (name, description, time.time()))
        return self._con.execute("SELECT id FROM sites WHERE name=?", (name,)).fetchone()[0]

    def delete_site(self, name: str) -> int:
        """Delete a site with its imports and measurements; returns the measurements removed."""
        site = self.site(name)
        with self._write(f"deleting site {name!r}"):
            self._con.execute("DELETE FROM sites WHERE id=?", (site.id,))
        return site.measurements

    # --- imports ---------------------------------------------------------------------------
    def delete_import(self, site: str, import_id: int) -> tuple[ImportRecord, int]:
        """Remove one imported file of ``site`` with its measurements, in one transaction (a bad
        file no longer means deleting the whole site); returns the import and the measurements
        removed. An id that is not one of the site's imports is refused, naming the ones it has."""
        records = {r.id: r for r in self.imports(self.site(site).name)}
        rec = records.get(import_id)
        if rec is None:
            known = ", ".join(str(i) for i in sorted(records)) or "none"
            raise InputError(f"site {site!r} has no import {import_id} (its imports: {known}; "
                             f"see capadvisor sites show {site})")
        with self._write(f"removing import {import_id} from site {site!r}"):
            self._con.execute("DELETE FROM site_factors WHERE measurement_id IN "
                              "(SELECT id FROM site_measurements WHERE import_id=?)", (import_id,))
            removed = self._con.execute("DELETE FROM site_measurements WHERE import_id=?", (import_id,)).rowcount
            self._con.execute("DELETE FROM imports WHERE id=?", (import_id,))
        return rec, removed

    def find_import(self, site: str, content_hash: str) -> ImportRecord | None:
        """The import of the same content into ``site``, if any."""
        for rec in self.imports(site):
            if rec.content_hash == content_hash:
                return rec
        return None

    def imports(self, site: str | None = None) -> list[ImportRecord]:
        sql = ("SELECT i.id, s.name, i.path, i.tool, i.tool_version, i.content_hash, i.imported_at,"
               " i.parameters, i.warnings FROM imports i JOIN sites s ON s.id = i.site_id")
        args: tuple = ()
        if site is not None:
            sql += " WHERE s.name = ?"
            args = (site,)
        with self._errors("reading the imports"):
            rows = self._con.execute(sql + " ORDER BY i.id", args).fetchall()
        out = []
        for r in rows:
            params = self._json(r[7], "imports", r[0], "parameters")
            warnings = self._json(r[8], "imports", r[0], "warnings")
            if not isinstance(params, dict) or not isinstance(warnings, list):
                raise DatabaseError(f"user database {self.path} is damaged: imports row {r[0]} has "
                                    "parameters or warnings of the wrong kind; it was left untouched")
            out.append(ImportRecord(r[0], r[1], r[2], r[3], r[4], r[5], r[6], parameters=params,
                                    warnings=[str(w) for w in warnings]))
        return out

    def add_import(self, site: str, *, path: str, tool: str, tool_version: str, content_hash: str,
                   parameters: dict, measurements: Iterable[SiteMeasurement],
                   warnings: Iterable[str] = ()) -> int:
        """Store one imported file and all its measurements in a single transaction.

        The site is created inside the same transaction, so a failed or killed import leaves
        neither an empty site nor a partial import. Raises :class:`InputError` if the same content
        is already imported into ``site``, :class:`DatabaseError` for a locked, full, read-only
        or damaged database (everything rolled back).
        """
        name = _site_name(site)
        try:
            with self._write(f"storing {path}"):
                site_id = self._site_id(name)
                import_id = self._con.execute(
                    "INSERT INTO imports (site_id, path, tool, tool_version, content_hash, imported_at,"
                    " parameters, warnings) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (site_id, path, tool, tool_version, content_hash, time.time(),
                     jsonout.dumps(parameters, sort_keys=True, default=str),
                     jsonout.dumps(list(warnings)))).lastrowid
                for m in measurements:
                    mid = self._con.execute(
                        "INSERT INTO site_measurements (import_id, metric, value, unit, subject, value_si)"
                        " VALUES (?, ?, ?, ?, ?, ?)",
                        (import_id, m.metric, float(m.value), m.unit, m.subject, m.value_si)).lastrowid
                    self._con.executemany("INSERT INTO site_factors VALUES (?, ?, ?)",
                                          [(mid, k, str(v)) for k, v in m.factors.items()])
        except sqlite3.IntegrityError as exc:
            if "imports" in str(exc) or "UNIQUE" in str(exc):
                raise InputError(f"{path}: the same content is already imported into site "
                                 f"{site!r}") from exc
            raise explain(exc, self.path, WHAT, f"storing {path}") from exc
        assert import_id is not None  # the row just inserted has an id
        return import_id

    def site_measurements(self, site: str | None = None, metric: str | None = None
                          ) -> list[SiteMeasurement]:
        sql = ["SELECT m.id, m.import_id, m.metric, m.value, m.unit, m.subject, m.value_si, i.tool"
               " FROM site_measurements m JOIN imports i ON i.id = m.import_id"
               " JOIN sites s ON s.id = i.site_id WHERE 1=1"]
        args: list = []
        if site is not None:
            sql.append("AND s.name = ?")
            args.append(site)
        if metric is not None:
            sql.append("AND m.metric = ?")
            args.append(metric)
        with self._errors("reading the measurements"):
            rows = self._con.execute(" ".join(sql) + " ORDER BY m.id", args).fetchall()
            factor_rows = self._con.execute(
                "SELECT f.measurement_id, f.factor, f.level FROM site_factors f"
                " JOIN site_measurements m ON m.id = f.measurement_id JOIN imports i ON i.id = m.import_id"
                " JOIN sites s ON s.id = i.site_id" + (" WHERE s.name = ?" if site is not None else "")
                + " ORDER BY f.rowid", (site,) if site is not None else ()).fetchall()
        factors: dict[int, dict[str, str]] = {}
        for mid, factor, level in factor_rows:
            factors.setdefault(mid, {})[str(factor)] = str(level)
        out = []
        for mid, iid, met, val, unit, subj, vsi, tool in rows:
            if not isinstance(val, int | float) or not math.isfinite(val) or (
                    vsi is not None and (not isinstance(vsi, int | float) or not math.isfinite(vsi))):
                raise DatabaseError(f"user database {self.path} is damaged: site_measurements row {mid} "
                                    f"holds the value {val!r} ({vsi!r} in SI units), not a finite number; it "
                                    "was left untouched. Delete that site and import its files again")
            out.append(SiteMeasurement(str(met), float(val), str(unit), str(subj), factors.get(mid, {}),
                                       None if vsi is None else float(vsi), mid, iid, str(tool)))
        return out

    # --- projects --------------------------------------------------------------------------
    def save_project(self, name: str, scenario: dict, recommendations: dict | None = None) -> None:
        with self._write(f"saving project {name!r}"):
            self._con.execute(
                "INSERT INTO projects (name, scenario, recommendations, saved_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT(name) DO UPDATE SET scenario=excluded.scenario,"
                " recommendations=excluded.recommendations, saved_at=excluded.saved_at",
                (name, jsonout.dumps(scenario), jsonout.dumps(recommendations) if recommendations else None,
                 time.time()))

    def projects(self) -> list[str]:
        with self._errors("listing the projects"):
            return [r[0] for r in self._con.execute("SELECT name FROM projects ORDER BY name")]

    def load_project(self, name: str) -> dict:
        with self._errors(f"loading project {name!r}"):
            row = self._con.execute("SELECT scenario FROM projects WHERE name=?", (name,)).fetchone()
        if row is None:
            raise InputError(f"no project named {name!r}")
        doc = self._json(row[0], "projects", name, "scenario")
        if not isinstance(doc, dict):
            raise DatabaseError(f"user database {self.path} is damaged: project {name!r} is not a scenario")
        return doc


    # --- cost catalogue (knowledge.costs) ------------------------------------------------------
    def cost_catalogue(self) -> Catalogue | None:
        """The stored cost catalogue, or None when none was imported. Stored entries are checked
        again as they are read: a damaged one is reported, never priced."""
        with self._errors("reading the cost catalogue"):
            settings = self._con.execute("SELECT data FROM cost_settings WHERE id = 1").fetchone()
            rows = self._con.execute("SELECT id, section, name, data FROM cost_entries"
                                     " ORDER BY section, position, id").fetchall()
        if settings is None and not rows:
            return None
        doc = self._json(settings[0], "cost_settings", 1, "data") if settings is not None else {}
        if not isinstance(doc, dict):
            raise DatabaseError(f"user database {self.path} is damaged: the cost catalogue's settings are not a "
                                "mapping; it was left untouched. Import the catalogue again")
        doc = {k: v for k, v in doc.items() if k not in costs.SECTIONS}
        for section in costs.SECTIONS:
            doc[section] = []
        for row_id, section, _name, data in rows:
            if section not in costs.SECTIONS:
                raise DatabaseError(f"user database {self.path} is damaged: cost_entries row {row_id} is in the "
                                    f"unknown section {section!r}; it was left untouched")
            doc[section].append(self._json(data, "cost_entries", row_id, "data"))
        try:
            return costs.parse_catalogue(doc, f"the cost catalogue in {self.path}")
        except InputError as exc:
            raise DatabaseError(f"user database {self.path} holds a cost catalogue that no longer validates "
                                f"({exc}); import it again") from exc

    def save_cost_catalogue(self, catalogue: Catalogue, *, merge: bool = False) -> None:
        """Store ``catalogue`` in one transaction: replacing the stored one, or with ``merge`` adding
        its entries (an entry of the same section and name is replaced) and taking its settings."""
        now = time.time()
        with self._write("storing the cost catalogue"):
            if not merge:
                self._con.execute("DELETE FROM cost_entries")
            self._con.execute("INSERT INTO cost_settings (id, data, saved_at) VALUES (1, ?, ?)"
                              " ON CONFLICT(id) DO UPDATE SET data=excluded.data, saved_at=excluded.saved_at",
                              (jsonout.dumps(catalogue.settings()), now))
            for section in costs.SECTIONS:
                start = self._con.execute("SELECT coalesce(max(position), -1) + 1 FROM cost_entries"
                                          " WHERE section=?", (section,)).fetchone()[0]
                for i, entry in enumerate(catalogue.entries(section)):
                    self._con.execute(
                        "INSERT INTO cost_entries (section, name, data, position, saved_at) VALUES (?, ?, ?, ?, ?)"
                        " ON CONFLICT(section, name) DO UPDATE SET data=excluded.data, saved_at=excluded.saved_at",
                        (section, entry.name, jsonout.dumps(costs.entry_to_dict(entry)), start + i, now))

    def save_cost_entry(self, section: str, entry) -> None:
        """Add ``entry`` to section ``section`` of the stored catalogue, or replace the entry of
        the same name (one transaction; the whole catalogue must stay valid)."""
        if section not in costs.SECTIONS:
            raise InputError(f"unknown cost catalogue section {section!r} (known: {', '.join(costs.SECTIONS)})")
        catalogue = self.cost_catalogue() or costs.Catalogue()
        entries = catalogue.entries(section)
        if any(e.name == entry.name for e in entries):
            entries[:] = [entry if e.name == entry.name else e for e in entries]
        else:
            entries.append(entry)
        costs.parse_catalogue(catalogue.to_dict(), "the cost catalogue")
        self.save_cost_catalogue(catalogue)

    def remove_cost_entry(self, section: str, name: str) -> None:
        """Remove one entry of the stored catalogue; InputError when there is none of that name."""
        with self._write(f"removing {name!r} from the cost catalogue"):
            gone = self._con.execute("DELETE FROM cost_entries WHERE section=? AND name=?", (section, name)).rowcount
        if not gone:
            raise InputError(f"the cost catalogue has no {section} entry named {name!r}")

    def clear_cost_catalogue(self) -> None:
        """Forget the stored cost catalogue (settings and entries, one transaction)."""
        with self._write("clearing the cost catalogue"):
            self._con.execute("DELETE FROM cost_entries")
            self._con.execute("DELETE FROM cost_settings")


def _site_name(name: str) -> str:
    name = str(name).strip()
    if not name:
        raise InputError("a site needs a name")
    if len(name) > 200 or any(ord(c) < 32 for c in name):
        raise InputError(f"site name {name[:40]!r}...: at most 200 characters, no control characters")
    return name


def _statements(migration: Callable[[sqlite3.Connection], None]) -> list[str]:
    """The SQL statements a migration runs, so they can run inside our own transaction
    (``executescript`` would commit)."""

    class _Recorder:
        def __init__(self) -> None:
            self.sql: list[str] = []

        def executescript(self, script: str) -> None:
            self.sql += [s.strip() for s in script.split(";") if s.strip()]

        def execute(self, sql: str, *args) -> None:
            if args:
                raise ValueError("migrations use literal SQL")
            self.sql.append(sql)

    rec = _Recorder()
    migration(rec)  # type: ignore[arg-type]
    return rec.sql
