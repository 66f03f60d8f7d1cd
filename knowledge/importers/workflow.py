"""The one site-import workflow: read benchmark files and store them under a site.

``capadvisor import`` and the GUI's Sites tab both call :func:`import_files`, so both store the
same things (the resolved path, the tool, the version, the parameters with the format, every
measurement, the warnings) and report the same outcome per file and the same summary line
(``N runs found, M imported, K skipped``).

Each file is parsed, checked at the importer boundary (:mod:`knowledge.importers.validate`) and
stored in its own transaction, the site created inside it: a bad file (unreadable, unknown format,
invalid values) is reported with its message and the batch goes on; a file whose content is
already in the site is reported as a duplicate, not stored twice. A database problem (locked,
disk full, read-only, damaged) fails that file with a clear message; nothing half-written stays.
``progress(fraction, message)`` is called per file and ``cancel`` (e.g.
:class:`advisor.progress.CancelToken`) is polled between files: files stored before the cancel
stay stored, whole, and are listed in the batch returned.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from knowledge.importers.base import ImporterError
from knowledge.importers.registry import REGISTRY, ImporterRegistry
from knowledge.infra.errors import DatabaseError, InputError, UserFacingError
from knowledge.infra.plugins import PluginFailure
from knowledge.userdb import SiteMeasurement, UserDatabase

#: the outcome of one file
IMPORTED, DUPLICATE, PARSED, FAILED = "imported", "duplicate", "parsed", "failed"


@dataclass
class FileResult:
    """What happened to one file (``status``: imported, duplicate, parsed (dry run) or failed)."""

    path: str
    status: str
    tool: str | None = None
    tool_version: str | None = None
    format: str | None = None
    content_hash: str | None = None
    parameters: dict = field(default_factory=dict)
    measurements: list[SiteMeasurement] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: str = ""
    note: str = ""
    import_id: int | None = None
    database_error: bool = False
    database_exit: int = DatabaseError.exit_code  # 3 a damaged file; 1 the disk (full, #34)
    runs_found: int = 0
    runs_imported: int = 0
    runs_skipped: int = 0

    @property
    def ok(self) -> bool:
        return self.status != FAILED

    def summary(self) -> str:
        """``N runs found, M imported, K skipped`` for this file."""
        return runs_line(self.runs_found, self.runs_imported, self.runs_skipped)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "status": self.status, "tool": self.tool,
                               "tool_version": self.tool_version}
        if self.status == FAILED:
            out["error"] = self.error
        else:
            out.update(format=self.format, content_hash=self.content_hash, parameters=self.parameters)
        out.update(measurements=[measurement_record(m) for m in self.measurements], warnings=self.warnings,
                   runs_found=self.runs_found, runs_imported=self.runs_imported, runs_skipped=self.runs_skipped,
                   summary=self.summary())
        if self.import_id is not None:
            out["import_id"] = self.import_id
        if self.note:
            out["note"] = self.note
        return out


@dataclass
class ImportBatch:
    """The outcome of :func:`import_files`: one :class:`FileResult` per file, in order."""

    site: str
    dry_run: bool
    files: list[FileResult] = field(default_factory=list)
    plugin_failures: list[PluginFailure] = field(default_factory=list)
    cancelled: bool = False

    def count(self, status: str) -> int:
        return sum(f.status == status for f in self.files)

    @property
    def failed(self) -> list[FileResult]:
        return [f for f in self.files if f.status == FAILED]

    @property
    def exit_code(self) -> int:
        """0 when every file was imported (or a duplicate), 3 when the database failed a file (1 when
        the disk was full), 2 when a file could not be read."""
        codes = [f.database_exit for f in self.files if f.database_error]
        if codes:
            return max(codes)  # a damaged database (3) outweighs a full disk (1)
        return InputError.exit_code if self.failed else 0

    @property
    def runs_found(self) -> int:
        return sum(f.runs_found for f in self.files)

    @property
    def runs_imported(self) -> int:
        return sum(f.runs_imported for f in self.files)

    @property
    def runs_skipped(self) -> int:
        return sum(f.runs_skipped for f in self.files)

    def summary(self) -> str:
        """One line: files by outcome, then ``N runs found, M imported, K skipped``."""
        n = len(self.files)
        parts = [f"{self.count(IMPORTED if not self.dry_run else PARSED)} "
                 + ("imported" if not self.dry_run else "read (dry run)")]
        if self.count(DUPLICATE):
            parts.append(f"{self.count(DUPLICATE)} already imported")
        if self.failed:
            parts.append(f"{len(self.failed)} failed")
        text = (f"{n} file{'s' if n != 1 else ''}: {', '.join(parts)}; "
                f"{runs_line(self.runs_found, self.runs_imported, self.runs_skipped)}")
        return text + (" (cancelled)" if self.cancelled else "")

    def to_dict(self) -> dict[str, Any]:
        return {"site": self.site, "dry_run": self.dry_run, "files": [f.to_dict() for f in self.files],
                "imported": self.count(IMPORTED), "duplicates": self.count(DUPLICATE), "failed": len(self.failed),
                "runs_found": self.runs_found, "runs_imported": self.runs_imported,
                "runs_skipped": self.runs_skipped, "summary": self.summary(), "cancelled": self.cancelled,
                "plugin_failures": [f.__dict__ for f in self.plugin_failures]}


def runs_line(found: int, imported: int, skipped: int) -> str:
    return f"{found} run{'s' if found != 1 else ''} found, {imported} imported, {skipped} skipped"


def measurement_record(m: SiteMeasurement) -> dict:
    """A site measurement as JSON: metric, value, unit, value_si, subject, factors (also flattened)."""
    rec = {"metric": m.metric, "value": m.value, "unit": m.unit, "value_si": m.value_si,
           "subject": m.subject, "factors": dict(m.factors)}
    for k, v in m.factors.items():
        rec.setdefault(k, v)
    return rec


def _failed(path: Path, exc: BaseException) -> FileResult:
    msg = str(exc)
    if str(path) not in msg and path.name not in msg:
        msg = f"{path}: {msg}"
    return FileResult(str(path), FAILED, error=msg)


def import_one(path: Path, site: str, db: UserDatabase | None, *, dry_run: bool = False,
               tool: str | None = None, registry: ImporterRegistry = REGISTRY) -> FileResult:
    """Parse (and unless ``dry_run`` store) one file; a bad file or a database problem becomes a
    failed :class:`FileResult`, never an exception (except a damaged database, which stops the batch)."""
    path = Path(path)
    try:
        parsed = registry.parse_file(path, tool)
    except UserFacingError as exc:
        return _failed(path, exc)
    except (OSError, UnicodeError, ValueError, RecursionError, MemoryError) as exc:  # never a traceback
        return _failed(path, ImporterError(str(path), f"cannot import: {type(exc).__name__}: {exc}"))
    res = FileResult(str(path), PARSED, parsed.tool, parsed.tool_version, parsed.format, parsed.content_hash,
                     {**parsed.parameters, "format": parsed.format}, parsed.measurements, parsed.warnings,
                     runs_found=parsed.runs_found, runs_imported=parsed.runs_imported,
                     runs_skipped=len(parsed.skipped))
    if db is None:
        return res
    previous = db.find_import(site, parsed.content_hash) if _has_site(db, site) else None
    if previous is not None:
        res.status, res.import_id = DUPLICATE, previous.id
        res.note = (f"same content already imported into site {site!r} from {previous.path} "
                    f"(import {previous.id}); not stored again")
        res.runs_skipped, res.runs_imported = res.runs_found, 0
        return res
    if dry_run:
        return res
    try:
        res.import_id = db.add_import(site, path=str(path.resolve()), tool=parsed.tool,
                                      tool_version=parsed.tool_version, content_hash=parsed.content_hash,
                                      parameters=res.parameters, measurements=parsed.measurements,
                                      warnings=parsed.warnings)
    except InputError as exc:
        return _failed(path, exc)
    except DatabaseError as exc:
        failed = _failed(path, exc)
        failed.error = f"{path}: not stored: {exc}"
        failed.database_error = True
        failed.database_exit = exc.exit_code
        return failed
    res.status = IMPORTED
    return res


def _cancelled(cancel: Any) -> bool:
    flag = getattr(cancel, "cancelled", None)
    if isinstance(flag, bool):
        return flag
    try:
        cancel.raise_if_cancelled()
    except Exception:  # noqa: BLE001 - any "cancelled" exception of the caller's token
        return True
    return False


def _has_site(db: UserDatabase, site: str) -> bool:
    return any(s.name == site for s in db.sites())


def import_files(paths: Iterable[str | Path], site: str, *, db_path: Path | None = None, dry_run: bool = False,
                 tool: str | None = None, registry: ImporterRegistry = REGISTRY,
                 progress: Callable[[float, str], None] | None = None, cancel: Any = None) -> ImportBatch:
    """Import ``paths`` into ``site`` of the user database at ``db_path`` (default: the user's).

    A dry run parses only (comparing with the database when it exists, to flag duplicates).
    Raises :class:`InputError` for an empty site name or an unknown ``tool`` and
    :class:`DatabaseError` when the database cannot be opened; per-file problems are in the
    results. Cancelling (``cancel.cancelled`` true, or ``cancel.raise_if_cancelled()`` raising)
    stops between files: the batch returned has ``cancelled`` set and holds the files done so far
    (each stored whole).
    """
    from knowledge.infra.paths import user_db_path

    files = [Path(p) for p in paths]
    site = str(site).strip()
    if not site:
        raise InputError("a site needs a name")
    failures = registry.plugin_failures
    if tool:
        registry.get(tool)
    batch = ImportBatch(site, dry_run, plugin_failures=failures)
    db_file = Path(db_path) if db_path is not None else user_db_path()
    db = UserDatabase(db_file) if (not dry_run or db_file.exists()) else None
    try:
        for i, path in enumerate(files):
            if cancel is not None and _cancelled(cancel):
                batch.cancelled = True
                break
            if progress is not None:
                progress(i / max(1, len(files)), f"importing {path.name} ({i + 1} of {len(files)})")
            batch.files.append(import_one(path, site, db, dry_run=dry_run, tool=tool, registry=registry))
    finally:
        if db is not None:
            db.close()
    if progress is not None:
        progress(1.0, batch.summary())
    return batch
