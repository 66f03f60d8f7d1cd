"""The writable user database: sites, imported benchmark files and their measurements,
and saved projects (scenarios).

Schema versioned by ``PRAGMA user_version`` with forward migrations (:data:`MIGRATIONS`);
every write runs in one transaction; a newer or foreign file is refused, never rewritten.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from knowledge.infra import jsonout
from knowledge.infra.errors import DatabaseError, InputError
from knowledge.infra.paths import user_db_path
from knowledge.infra.sqlite_util import open_checked

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


#: MIGRATIONS[i] upgrades a database from version i to i + 1
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_v1, _v2, _v3)
USER_SCHEMA_VERSION = len(MIGRATIONS)


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


class UserDatabase:
    """The user's writable database, opened (and migrated forward) at ``path``."""

    def __init__(self, path: Path | None = None, *, migrate: bool = True):
        self.path = Path(path) if path is not None else user_db_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseError(f"cannot create the folder of the user database {self.path.parent}: "
                                f"{exc}") from exc
        self._con = open_checked(self.path, application_id=USER_APPLICATION_ID,
                                 what="user database", read_only=False, allow_empty=True)
        self._con.execute("PRAGMA foreign_keys = ON")
        version = self.schema_version
        if version > USER_SCHEMA_VERSION:
            self._con.close()
            raise DatabaseError(
                f"user database {self.path} has schema version {version}, newer than this program "
                f"({USER_SCHEMA_VERSION}); it was left untouched. Use a newer Capacity Advisor")
        if migrate and version < USER_SCHEMA_VERSION:
            self.migrate()

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
            con.execute("BEGIN IMMEDIATE")
            if version == 0:
                con.execute(f"PRAGMA application_id = {USER_APPLICATION_ID}")
            for step in range(version, target):
                for statement in _statements(MIGRATIONS[step]):
                    con.execute(statement)
            con.execute(f"PRAGMA user_version = {target}")
            con.execute("COMMIT")
        except sqlite3.Error as exc:
            con.execute("ROLLBACK")
            raise DatabaseError(f"could not upgrade user database {self.path} from version "
                                f"{version}: {exc}; it was left as it was") from exc

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> UserDatabase:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- sites -----------------------------------------------------------------------------
    def sites(self) -> list[Site]:
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
        name = name.strip()
        if not name:
            raise InputError("a site needs a name")
        with self._con:
            row = self._con.execute("SELECT id FROM sites WHERE name=?", (name,)).fetchone()
            if row:
                return row[0]
            return self._con.execute("INSERT INTO sites (name, description, created) VALUES (?, ?, ?)",
                                     (name, description, time.time())).lastrowid

    def delete_site(self, name: str) -> int:
        """Delete a site with its imports and measurements; returns the measurements removed."""
        site = self.site(name)
        with self._con:
            self._con.execute("DELETE FROM sites WHERE id=?", (site.id,))
        return site.measurements

    # --- imports ---------------------------------------------------------------------------
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
        rows = self._con.execute(sql + " ORDER BY i.id", args).fetchall()
        return [ImportRecord(*r[:7], parameters=json.loads(r[7]), warnings=json.loads(r[8]))
                for r in rows]

    def add_import(self, site: str, *, path: str, tool: str, tool_version: str, content_hash: str,
                   parameters: dict, measurements: Iterable[SiteMeasurement],
                   warnings: Iterable[str] = ()) -> int:
        """Store one imported file and all its measurements in a single transaction.

        Raises :class:`InputError` if the same content is already imported into ``site``.
        """
        site_id = self.ensure_site(site)
        try:
            with self._con:
                import_id = self._con.execute(
                    "INSERT INTO imports (site_id, path, tool, tool_version, content_hash, imported_at,"
                    " parameters, warnings) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (site_id, path, tool, tool_version, content_hash, time.time(),
                     json.dumps(parameters, sort_keys=True, default=str),
                     json.dumps(list(warnings)))).lastrowid
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
            raise
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
        rows = self._con.execute(" ".join(sql) + " ORDER BY m.id", args).fetchall()
        out = []
        for mid, iid, met, val, unit, subj, vsi, tool in rows:
            factors = dict(self._con.execute(
                "SELECT factor, level FROM site_factors WHERE measurement_id=? ORDER BY rowid", (mid,)))
            out.append(SiteMeasurement(met, val, unit, subj, factors, vsi, mid, iid, tool))
        return out

    # --- projects --------------------------------------------------------------------------
    def save_project(self, name: str, scenario: dict, recommendations: dict | None = None) -> None:
        with self._con:
            self._con.execute(
                "INSERT INTO projects (name, scenario, recommendations, saved_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT(name) DO UPDATE SET scenario=excluded.scenario,"
                " recommendations=excluded.recommendations, saved_at=excluded.saved_at",
                (name, jsonout.dumps(scenario), jsonout.dumps(recommendations) if recommendations else None,
                 time.time()))

    def projects(self) -> list[str]:
        return [r[0] for r in self._con.execute("SELECT name FROM projects ORDER BY name")]

    def load_project(self, name: str) -> dict:
        row = self._con.execute("SELECT scenario FROM projects WHERE name=?", (name,)).fetchone()
        if row is None:
            raise InputError(f"no project named {name!r}")
        return json.loads(row[0])


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
