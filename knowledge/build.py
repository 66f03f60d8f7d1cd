"""Compile the curated data (knowledge/data/) into the read-only SQLite knowledge base.

The file is written next to its destination under a temporary name in one transaction
and renamed into place, so a reader never sees a half-built knowledge base.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from pathlib import Path

from knowledge import curated

#: 2: the document notes (tables notes, note_rows)
KB_SCHEMA_VERSION = 2
#: PRAGMA application_id of a compiled knowledge base ('CAKB')
KB_APPLICATION_ID = 0x43414B42
SCHEMA_SQL = Path(__file__).resolve().parent / "schema" / "kb.sql"


def build(destination: Path, data_dir: Path = curated.DATA_DIR) -> curated.Curated:
    """Validate the curated data and write the knowledge base to ``destination`` atomically.

    Raises :class:`knowledge.curated.CurationError` (listing every problem) before
    anything is written if the data is invalid.
    """
    cur = curated.load(data_dir)
    destination = Path(destination)
    destination.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=destination.name + ".", suffix=".tmp",
                                    dir=destination.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        tmp.unlink()
        con = sqlite3.connect(tmp)
        try:
            _fill(con, cur)
        finally:
            con.close()
        os.replace(tmp, destination)
    finally:
        if tmp.exists():
            tmp.unlink()
    return cur


def _fill(con: sqlite3.Connection, cur: curated.Curated) -> None:
    vocab = cur.vocabulary
    con.executescript(SCHEMA_SQL.read_text(encoding="utf-8"))
    with con:
        con.execute(f"PRAGMA user_version = {KB_SCHEMA_VERSION}")
        con.execute(f"PRAGMA application_id = {KB_APPLICATION_ID}")
        con.executemany("INSERT INTO meta VALUES (?, ?)", [
            ("digest", cur.digest), ("schema_version", str(KB_SCHEMA_VERSION)),
        ])
        con.executemany("INSERT INTO documents VALUES (?, ?, ?, ?, ?)",
                        [(d.id, d.short, d.title, d.authors, d.kind) for d in cur.documents])
        con.executemany("INSERT INTO units VALUES (?, ?, ?)",
                        [(u.name, u.dimension, u.si) for u in vocab.units.values()])
        con.executemany("INSERT INTO kinds VALUES (?, ?)", list(vocab.kinds.items()))
        con.executemany("INSERT INTO metrics VALUES (?, ?, ?)", [
            (name, ",".join(spec["dimensions"]), spec.get("description", ""))
            for name, spec in vocab.metrics.items()])
        con.executemany("INSERT INTO factor_defs VALUES (?, ?, ?, ?, ?)", [
            (f.name, f.type, f.unit, ",".join(f.levels) if f.levels else None, f.description)
            for f in vocab.factors.values()])
        con.executemany("INSERT INTO decisions VALUES (?, ?)", list(vocab.decisions.items()))
        con.executemany(
            "INSERT INTO testbeds VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(t.document, t.id, t.locator, *(getattr(t, c) for c in curated.TESTBED_COLUMNS[2:]))
             for t in cur.testbeds])
        for m in cur.measurements:
            mid = con.execute(
                "INSERT INTO measurements (document, key, locator, metric, value, unit, kind, subject,"
                " baseline, qualifier, value_low, value_high, value_si, testbed, note)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (m.document, m.key, m.locator, m.metric, m.value, m.unit, m.kind, m.subject,
                 m.baseline, m.qualifier, m.value_low, m.value_high, m.value_si, m.testbed,
                 m.note)).lastrowid
            rows = []
            for name, level in m.factors.items():
                fdef = vocab.factors[name]
                rows.append((mid, name, level, float(level) if fdef.type == "numeric" else None))
            con.executemany("INSERT INTO factors VALUES (?, ?, ?, ?)", rows)
        for c in cur.conclusions:
            con.execute("INSERT INTO conclusions VALUES (?, ?, ?, ?, ?, ?)",
                        (c.document, c.id, c.decision, c.locator, c.condition, c.recommendation))
            con.executemany("INSERT INTO conclusion_evidence VALUES (?, ?, ?)",
                            [(c.document, c.id, e) for e in c.evidence])
        for n in cur.notes:
            con.execute("INSERT INTO notes VALUES (?, ?, ?, ?, ?)", (n.document, n.id, n.locator, n.text, n.reading))
            con.executemany("INSERT INTO note_rows VALUES (?, ?, ?)", [(n.document, n.id, r) for r in n.rows])
    con.execute("VACUUM")


def main(argv: list[str] | None = None) -> int:
    """``python -m knowledge.build DEST``: compile the knowledge base to DEST."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m knowledge.build DEST.sqlite", file=sys.stderr)
        return 2
    try:
        cur = build(Path(args[0]))
    except curated.CurationError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"wrote {args[0]}: {len(cur.measurements)} measurements and {len(cur.notes)} notes from "
          f"{len(cur.documents)} documents")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
