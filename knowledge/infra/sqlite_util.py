"""Opening SQLite files safely: identify them, check them, and explain what is wrong.

:func:`open_checked` opens a file of ours (its ``PRAGMA application_id``) and refuses anything
else untouched; :func:`explain` turns an ``sqlite3`` error into a :class:`DatabaseError` whose
message says what happened in the user's terms (locked by another program, disk full, read-only,
damaged); :func:`check_schema` finds missing tables and columns that ``quick_check`` cannot see.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from knowledge.infra.errors import DatabaseError

#: how long a connection waits for another one's write lock before "locked" (milliseconds)
BUSY_TIMEOUT_MS = 10_000
SQLITE_MAGIC = b"SQLite format 3\x00"


def header_application_id(path: Path) -> int | None:
    """The application id in an SQLite file's header, or None when ``path`` is not an SQLite
    file (missing, shorter than a header, other magic). Reads 100 bytes, writes nothing."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)
    except OSError:
        return None
    if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
        return None
    return int.from_bytes(head[68:72], "big")


def explain(exc: BaseException, path: Path, what: str, doing: str) -> DatabaseError:
    """A :class:`DatabaseError` for ``exc`` raised while ``doing`` something with ``what`` at ``path``."""
    text = str(exc)
    low = text.lower()
    if isinstance(exc, sqlite3.OperationalError) and ("locked" in low or "busy" in low):
        msg = (f"{what} {path} is locked by another program (another import or Capacity Advisor window "
               f"writing to it) and stayed locked for {BUSY_TIMEOUT_MS // 1000} s while {doing}; nothing "
               "was changed. Try again when the other one has finished")
    elif "full" in low or (isinstance(exc, OSError) and getattr(exc, "errno", None) == 28) or (
            "disk i/o" in low and _no_space(path)):
        msg = (f"the disk holding {what} {path} is full while {doing}; the change was rolled back "
               "(nothing half-written). Free some space and try again")
    elif "readonly" in low or "read-only" in low or "read only" in low:
        msg = (f"{what} {path} is read-only (the file or its folder cannot be written) while {doing}; "
               "nothing was changed. Check the permissions, or choose another data folder")
    elif "unable to open" in low or "disk i/o" in low or isinstance(exc, OSError):
        msg = (f"cannot use {what} {path} while {doing}: {text}. Check that its folder exists and is "
               "writable")
    elif ("malformed" in low or "not a database" in low or "corrupt" in low or "no such table" in low
          or "no such column" in low):
        msg = (f"{what} {path} is damaged ({text}); it was left untouched. Restore it from a backup or "
               "move it away to start afresh")
    else:
        msg = f"{what} {path}: database error while {doing}: {text}"
    err = DatabaseError(msg)
    if "is full while" in msg:
        err.exit_code = 1  # the disk, not the database: exit 1 as any failed write (3 is a damaged file)
    err.__cause__ = exc
    return err


def _no_space(path: Path) -> bool:
    """Whether the file system holding ``path`` has (almost) no free space left: SQLite says only
    "disk I/O error" when it cannot make its shared-memory file there."""
    import shutil

    try:
        return shutil.disk_usage(Path(path).parent).free < 256 * 1024
    except OSError:
        return False


def _is_lock(exc: sqlite3.Error) -> bool:
    low = str(exc).lower()
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in low or "busy" in low)


def check_schema(con: sqlite3.Connection, path: Path, what: str, expected: dict[str, tuple[str, ...]]) -> None:
    """Raise :class:`DatabaseError` when a table or column of ``expected`` is missing."""
    missing = []
    for table, columns in expected.items():
        have = {r[1] for r in con.execute(f"PRAGMA table_info({table})")}
        if not have:
            missing.append(f"table {table}")
            continue
        missing += [f"column {table}.{c}" for c in columns if c not in have]
    if missing:
        raise DatabaseError(f"{what} {path} is damaged: {', '.join(missing[:5])} missing; it was left "
                            "untouched. Restore it from a backup or move it away to start afresh")


def open_checked(path: Path, *, application_id: int, what: str, read_only: bool,
                 allow_empty: bool = False) -> sqlite3.Connection:
    """Open ``path`` and verify it is an intact SQLite file of our kind.

    ``application_id`` is the PRAGMA value our files carry; ``what`` names the file's role
    in messages. A file without tables and without application id is accepted only when
    ``allow_empty`` (the caller just created it itself); any other file that is not ours,
    a 0-byte file included, is refused. The connection waits :data:`BUSY_TIMEOUT_MS` for
    another writer. Nothing is ever written here; a problem raises :class:`DatabaseError`
    naming the file and saying what to do, and leaves the file untouched.
    """
    path = Path(path)
    if path.is_dir():
        raise DatabaseError(f"{what} {path} is a folder, not a database file")
    if path.exists() and not path.is_file():
        raise DatabaseError(f"{what} {path} is not a regular file")
    if path.exists() and path.stat().st_size == 0 and not allow_empty:
        raise DatabaseError(f"{what} {path} is an empty file (0 bytes), not a Capacity Advisor {what}; it was "
                            "left untouched. Delete it to start afresh, or give another file")
    if read_only:
        if not path.exists():
            raise DatabaseError(f"{what} {path} does not exist")
        uri = f"file:{path.as_posix()}?mode=ro"
    else:
        uri = f"file:{path.as_posix()}?mode=rw" if not allow_empty else f"file:{path.as_posix()}?mode=rwc"
    try:
        con = sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000)
    except sqlite3.Error as exc:
        raise explain(exc, path, what, "opening it") from exc
    try:
        con.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        con.execute("PRAGMA foreign_keys = ON")
        app_id = con.execute("PRAGMA application_id").fetchone()[0]
        n_tables = con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if n_tables == 0 and app_id == 0:
            if allow_empty:
                return con
            raise DatabaseError(f"{path} is an SQLite file without tables (not a Capacity Advisor {what}); "
                                "it was left untouched")
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
        low = str(exc).lower()
        if _is_lock(exc) or "unable to open" in low or "readonly" in low or "disk i/o" in low:
            # busy, or a folder that cannot be written (WAL needs its -shm file): not damaged
            raise explain(exc, path, what, "opening it") from exc
        raise DatabaseError(
            f"{path} is not a readable {what} ({exc}); it was left untouched. "
            "Restore it from a backup or move it away to start afresh") from exc
    except DatabaseError:
        con.close()
        raise
    return con
