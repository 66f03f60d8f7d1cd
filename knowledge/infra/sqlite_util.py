"""Opening SQLite files safely: identify them, check them, and explain what is wrong."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from knowledge.infra.errors import DatabaseError


def open_checked(path: Path, *, application_id: int, what: str, read_only: bool,
                 allow_empty: bool = False) -> sqlite3.Connection:
    """Open ``path`` and verify it is an intact SQLite file of our kind.

    ``application_id`` is the PRAGMA value our files carry; ``what`` names the file's role
    in messages. An empty new file is accepted when ``allow_empty`` (a fresh user
    database). Nothing is ever written here; a problem raises :class:`DatabaseError`
    naming the file and saying what to do, and leaves the file untouched.
    """
    path = Path(path)
    if read_only:
        if not path.exists():
            raise DatabaseError(f"{what} {path} does not exist")
        uri = f"file:{path.as_posix()}?mode=ro"
    else:
        uri = f"file:{path.as_posix()}?mode=rwc"
    try:
        con = sqlite3.connect(uri, uri=True, check_same_thread=False)
    except sqlite3.Error as exc:
        raise DatabaseError(f"cannot open {what} {path}: {exc}") from exc
    try:
        con.execute("PRAGMA foreign_keys = ON")
        app_id = con.execute("PRAGMA application_id").fetchone()[0]
        n_tables = con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if n_tables == 0 and app_id == 0:
            if allow_empty:
                return con
            raise DatabaseError(f"{what} {path} is empty")
        if app_id != application_id:
            raise DatabaseError(
                f"{path} is an SQLite file but not a Capacity Advisor {what} "
                f"(application id {app_id:#x}); it was left untouched")
        result = con.execute("PRAGMA quick_check").fetchone()[0]
        if result != "ok":
            raise DatabaseError(f"{what} {path} is damaged ({result}); it was left untouched. "
                                "Restore it from a backup or move it away to start afresh")
    except sqlite3.DatabaseError as exc:
        con.close()
        raise DatabaseError(
            f"{path} is not a readable {what} ({exc}); it was left untouched. "
            "Restore it from a backup or move it away to start afresh") from exc
    except DatabaseError:
        con.close()
        raise
    return con
