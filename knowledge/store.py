"""The knowledge base: the documents' measurements, testbeds and conclusions, read-only.

This is the only API the engine and the GUI use to read the documents' knowledge; no
SQL is written outside :mod:`knowledge`.

>>> kb = KnowledgeBase.open()
>>> rows = kb.measurements(metric="throughput", where={"cache_mode": "writeback"})
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from knowledge import build, curated
from knowledge.infra.errors import DatabaseError, InputError
from knowledge.infra.paths import bundled_kb_path, user_cache_dir
from knowledge.infra.sqlite_util import header_application_id, open_checked
from knowledge.records import ConclusionRow, DocumentRow, MeasurementRow, NoteRow, TestbedRow

_M_COLS = ("mid, document, key, locator, metric, value, unit, kind, subject, baseline, qualifier,"
           " value_low, value_high, value_si, testbed, note")


class KnowledgeBase:
    """Read-only access to a compiled knowledge base file."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._con = open_checked(self.path, application_id=build.KB_APPLICATION_ID,
                                 what="knowledge base", read_only=True)
        version = self._con.execute("PRAGMA user_version").fetchone()[0]
        if version != build.KB_SCHEMA_VERSION:
            self._con.close()
            raise DatabaseError(f"knowledge base {self.path} has schema version {version}; this "
                                f"program reads version {build.KB_SCHEMA_VERSION}")
        self._cache: dict[str, list[MeasurementRow]] = {}
        self._notes: list[NoteRow] | None = None

    # --- opening ---------------------------------------------------------------------------
    @classmethod
    def open(cls, path: Path | None = None) -> KnowledgeBase:
        """Open ``path``, or the shipped knowledge base, compiling it from the curated data when
        the shipped one is missing or older than the data (into the user cache, atomically)."""
        if path is not None:
            return cls(path)
        return cls(ensure_compiled())

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> KnowledgeBase:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- metadata --------------------------------------------------------------------------
    @property
    def digest(self) -> str:
        return self._con.execute("SELECT value FROM meta WHERE key='digest'").fetchone()[0]

    def documents(self) -> list[DocumentRow]:
        rows = self._con.execute("SELECT id, short, title, authors, kind FROM documents ORDER BY id")
        return [DocumentRow(*r) for r in rows]

    def resolve_document(self, text: str) -> str:
        """A document id from an id or a unique prefix of one (``001`` -> ``001_59d3...``)."""
        ids = [d.id for d in self.documents()]
        if text in ids:
            return text
        hits = [i for i in ids if i.startswith(text)]
        if len(hits) == 1:
            return hits[0]
        raise InputError(f"document {text!r} is not known" if not hits else
                         f"document {text!r} is ambiguous: {', '.join(hits)}")

    def units(self) -> dict[str, tuple[str, float]]:
        """unit name -> (dimension, factor to SI)."""
        return {n: (d, s) for n, d, s in self._con.execute("SELECT name, dimension, si FROM units")}

    def metrics(self) -> list[str]:
        return [r[0] for r in self._con.execute("SELECT name FROM metrics ORDER BY name")]

    def factor_names(self) -> list[str]:
        """Factors used by at least one measurement, sorted."""
        return [r[0] for r in self._con.execute("SELECT DISTINCT factor FROM factors ORDER BY factor")]

    def factor_types(self) -> dict[str, tuple[str, str | None]]:
        """factor -> (type, unit) for every factor of the vocabulary."""
        return {n: (t, u) for n, t, u in self._con.execute("SELECT name, type, unit FROM factor_defs")}

    def levels(self, factor: str) -> list[str]:
        rows = self._con.execute("SELECT DISTINCT level FROM factors WHERE factor=? ORDER BY level_num, level",
                                 (factor,))
        return [r[0] for r in rows]

    # --- measurements ----------------------------------------------------------------------
    def measurements(self, *, metric: str | None = None, document: str | None = None,
                     locator: str | None = None, kind: str | None = None,
                     where: dict[str, str] | None = None) -> list[MeasurementRow]:
        """Measurements matching every given criterion, in document and curation order.

        ``where`` maps factor names to levels; categorical levels match case-insensitively,
        numeric ones by value (``vms_per_host=2`` matches ``2.0``); the level ``*`` only
        requires the factor to be present. ``document`` may be a unique id prefix.
        """
        sql = [f"SELECT {_M_COLS} FROM measurements m WHERE 1=1"]
        args: list = []
        if metric:
            sql.append("AND metric = ?")
            args.append(metric)
        if document:
            sql.append("AND document = ?")
            args.append(self.resolve_document(document))
        if locator:
            sql.append("AND locator = ? COLLATE NOCASE")
            args.append(locator)
        if kind:
            sql.append("AND kind = ?")
            args.append(kind)
        types = self.factor_types()
        for name, level in (where or {}).items():
            if name not in types:
                raise InputError(f"factor {name!r} is not known; known factors: "
                                 f"{', '.join(self.factor_names())}")
            if level == "*":
                sql.append("AND EXISTS (SELECT 1 FROM factors f WHERE f.mid=m.mid AND f.factor=?)")
                args.append(name)
            elif types[name][0] == "numeric":
                try:
                    num = float(level)
                except ValueError as exc:
                    raise InputError(f"factor {name} is numeric ({types[name][1]}): "
                                     f"{level!r} is not a number") from exc
                sql.append("AND EXISTS (SELECT 1 FROM factors f WHERE f.mid=m.mid AND f.factor=?"
                           " AND abs(f.level_num - ?) <= 1e-9 * max(1, abs(?)))")
                args += [name, num, num]
            else:
                sql.append("AND EXISTS (SELECT 1 FROM factors f WHERE f.mid=m.mid AND f.factor=?"
                           " AND f.level = ? COLLATE NOCASE)")
                args += [name, level]
        sql.append("ORDER BY mid")
        rows = self._con.execute(" ".join(sql), args).fetchall()
        return self._with_factors(rows)

    def get(self, document: str, key: str) -> MeasurementRow:
        """The measurement ``key`` of ``document`` (id or unique prefix)."""
        doc = self.resolve_document(document)
        rows = self._con.execute(f"SELECT {_M_COLS} FROM measurements WHERE document=? AND key=?",
                                 (doc, key)).fetchall()
        if not rows:
            raise InputError(f"no measurement {key!r} in document {doc}")
        return self._with_factors(rows)[0]

    def all_measurements(self) -> list[MeasurementRow]:
        """Every measurement (cached: the knowledge base is read-only)."""
        if "all" not in self._cache:
            self._cache["all"] = self.measurements()
        return self._cache["all"]

    def _with_factors(self, rows: list[tuple]) -> list[MeasurementRow]:
        if not rows:
            return []
        mids = [r[0] for r in rows]
        factors: dict[int, dict[str, str]] = {mid: {} for mid in mids}
        for chunk_start in range(0, len(mids), 900):
            chunk = mids[chunk_start:chunk_start + 900]
            marks = ",".join("?" * len(chunk))
            for mid, name, level in self._con.execute(
                    f"SELECT mid, factor, level FROM factors WHERE mid IN ({marks}) ORDER BY rowid",
                    chunk):
                factors[mid][name] = level
        return [MeasurementRow(*r[1:], factors=factors[r[0]]) for r in rows]  # type: ignore[misc]

    # --- testbeds and conclusions ----------------------------------------------------------
    def testbeds(self, document: str | None = None) -> list[TestbedRow]:
        sql, args = "SELECT * FROM testbeds", ()  # type: tuple[str, tuple[str, ...]]
        if document:
            sql, args = sql + " WHERE document=?", (self.resolve_document(document),)
        return [TestbedRow(*r) for r in self._con.execute(sql + " ORDER BY document, rowid", args)]

    def conclusions(self, decision: str | None = None) -> list[ConclusionRow]:
        sql, args = "SELECT * FROM conclusions", ()  # type: tuple[str, tuple[str, ...]]
        if decision:
            sql, args = sql + " WHERE decision=?", (decision,)
        out = []
        for r in self._con.execute(sql + " ORDER BY document, rowid", args).fetchall():
            ev = tuple(x[0] for x in self._con.execute(
                "SELECT measurement FROM conclusion_evidence WHERE document=? AND conclusion=?",
                (r[0], r[1])))
            out.append(ConclusionRow(*r, evidence=ev))  # type: ignore[misc]
        return out

    def notes(self, document: str | None = None) -> list[NoteRow]:
        """The document notes (every inconsistency curated), in document and curation order."""
        if self._notes is None:
            rows: dict[tuple[str, str], list[str]] = {}
            for doc, note, key in self._con.execute("SELECT document, note, measurement FROM note_rows"
                                                    " ORDER BY rowid"):
                rows.setdefault((doc, note), []).append(key)
            self._notes = [NoteRow(doc, nid, loc, text, reading, tuple(rows.get((doc, nid), ())))
                           for doc, nid, loc, text, reading in self._con.execute(
                               "SELECT document, id, locator, text, reading FROM notes ORDER BY document, rowid")]
        out = self._notes
        if document:
            doc = self.resolve_document(document)
            out = [n for n in out if n.document == doc]
        return list(out)

    def notes_by_row(self) -> dict[tuple[str, str], list[NoteRow]]:
        """(document, measurement id) -> the notes that concern that row."""
        out: dict[tuple[str, str], list[NoteRow]] = {}
        for n in self.notes():
            for r in n.rows:
                out.setdefault((n.document, r), []).append(n)
        return out

    # --- statistics ------------------------------------------------------------------------
    def stats(self) -> dict:
        """Counts per document, per metric and per kind, and totals."""
        q = self._con.execute
        return {
            "measurements": q("SELECT count(*) FROM measurements").fetchone()[0],
            "testbeds": q("SELECT count(*) FROM testbeds").fetchone()[0],
            "conclusions": q("SELECT count(*) FROM conclusions").fetchone()[0],
            "notes": q("SELECT count(*) FROM notes").fetchone()[0],
            "per_document": dict(q("SELECT document, count(*) FROM measurements GROUP BY document"
                                   " ORDER BY document").fetchall()),
            "per_metric": dict(q("SELECT metric, count(*) FROM measurements GROUP BY metric"
                                 " ORDER BY count(*) DESC, metric").fetchall()),
            "per_kind": dict(q("SELECT kind, count(*) FROM measurements GROUP BY kind"
                               " ORDER BY kind").fetchall()),
        }


def ensure_compiled(data_dir: Path = curated.DATA_DIR) -> Path:
    """Path of a knowledge base compiled from the current curated data.

    Uses the shipped file when its digest matches the data (or when the data is not
    present, as in a frozen build); otherwise compiles into the user cache, keyed by digest.
    """
    shipped = bundled_kb_path()
    if not data_dir.is_dir():
        if shipped.exists():
            return shipped
        raise DatabaseError(f"no knowledge base: neither {shipped} nor the curated data {data_dir}")
    digest = curated.data_digest(data_dir)
    if shipped.exists() and _digest_of(shipped) == digest:
        return shipped
    cached = user_cache_dir() / f"knowledge-{digest[:16]}.sqlite"
    if (cached.exists() or cached.is_symlink()) and (
            not cached.is_file() or header_application_id(cached) != build.KB_APPLICATION_ID):
        raise DatabaseError(f"{cached} is where the compiled knowledge base is cached, but it holds a file that "
                            "is not a Capacity Advisor knowledge base; it was left untouched. Move it away "
                            "(the knowledge base is then compiled again)")
    if not cached.exists() or _digest_of(cached) != digest:
        try:
            build.build(cached, data_dir)
        except (OSError, sqlite3.Error) as exc:  # a full or read-only cache folder (#34: was a traceback)
            err = DatabaseError(f"cannot write the compiled knowledge base to {cached}: {exc}; nothing was left "
                                "half-written. Free some space in the cache folder (or point CAPADVISOR_CACHE_DIR "
                                "elsewhere) and try again")
            err.exit_code = 1  # the disk, not a damaged file
            raise err from exc
    return cached


def _digest_of(path: Path) -> str | None:
    try:
        con = sqlite3.connect(f"file:{path.as_posix()}?mode=ro", uri=True)
        try:
            return con.execute("SELECT value FROM meta WHERE key='digest'").fetchone()[0]
        finally:
            con.close()
    except (sqlite3.Error, TypeError):
        return None
