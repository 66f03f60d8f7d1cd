"""The importer registry: which importer reads a file.

Built-in importers are registered in code (a frozen build carries no entry points); third parties
call :func:`register` or publish an entry point in the group ``capadvisor.importers``, which the
process-wide :data:`REGISTRY` loads itself, lazily, the first time it is asked for an importer (so
the CLI, the GUI and scripts all see the same plug-ins). Duplicate names: the first registration
wins (built-ins come first); a later one with a taken name is refused with
:class:`ImporterRegistryError` (reported as a plug-in failure when it comes from an entry point).
Each importer answers
``identify(text) -> confidence`` for the start of a file; the most confident wins, ties go to the
higher priority.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from knowledge.importers import bonnie, fio, fio_terse, fio_text, iozone, postmark, sysbench
from knowledge.importers.base import Importer, ImporterError, ParsedFile, decode_text
from knowledge.importers.validate import validate
from knowledge.infra.errors import InputError, RegistryError
from knowledge.infra.plugins import PluginFailure, load_entry_points

ENTRY_POINT_GROUP = "capadvisor.importers"
#: how much of a file ``identify`` looks at (characters)
HEAD_CHARS = 65536
#: the largest benchmark result file read (regular files only: see knowledge.infra.files)
MAX_IMPORT_BYTES = 256 * 1024 * 1024
#: below this confidence a file is "unknown format"
MIN_CONFIDENCE = 0.25

BUILTINS = (
    Importer("fio-json", "fio JSON / json+ output", fio.identify, fio.parse, priority=100),
    Importer("fio-terse", "fio terse (--minimal) output, versions 2-5", fio_terse.identify, fio_terse.parse,
             priority=95),
    Importer("fio-text", "fio human-readable output", fio_text.identify, fio_text.parse, priority=90),
    Importer("bonnie++", "bonnie++ CSV line or table", bonnie.identify, bonnie.parse, priority=80),
    Importer("sysbench", "sysbench report (cpu, fileio, memory, oltp, threads, mutex)", sysbench.identify, sysbench.parse, priority=70),
    Importer("postmark", "PostMark report", postmark.identify, postmark.parse, priority=60),
    Importer("iozone", "IOzone output or -R report", iozone.identify, iozone.parse, priority=50),
)


@dataclass(frozen=True)
class Match:
    """An importer's confidence (0..1) that it can read a file."""

    confidence: float
    importer: Importer


class ImporterRegistryError(RegistryError):
    """The importer registry refused a request (unknown name, name taken, not an importer);
    a user-facing message (exit status 2)."""


class ImporterRegistry:
    """Importers by name; built-ins first, third-party ones added with :meth:`register` or, when
    ``entry_point_group`` is given, loaded from that entry-point group on first use."""

    def __init__(self, importers: tuple[Importer, ...] = BUILTINS, *, entry_point_group: str | None = None):
        self._importers: dict[str, Importer] = {}
        for imp in importers:
            self.register(imp)
        self.entry_point_group = entry_point_group
        self._plugin_failures: list[PluginFailure] | None = None if entry_point_group else []

    def load_plugins(self) -> list[PluginFailure]:
        """Load the entry-point plug-ins once (later calls return the same failures)."""
        if self._plugin_failures is None:
            self._plugin_failures = []  # set first: a plug-in that asks the registry must not recurse
            self._plugin_failures.extend(load_entry_points(self.entry_point_group or "", self.register))
        return list(self._plugin_failures)

    @property
    def plugin_failures(self) -> list[PluginFailure]:
        """The plug-ins that could not be loaded (loading them first if not yet done)."""
        return self.load_plugins()

    def register(self, plugin: object) -> Importer:
        """Add an importer: an :class:`Importer`, an object with ``name``, ``identify`` and ``parse``
        (optional ``label``, ``priority``), or a callable returning one. A name already taken is an
        error, so a plug-in cannot silently replace a built-in."""
        imp = plugin
        if not isinstance(imp, Importer) and not hasattr(imp, "identify") and callable(imp):
            try:
                imp = imp()
            except Exception as exc:  # noqa: BLE001 - a broken factory is the plug-in's error
                raise ImporterRegistryError(f"importer factory {plugin!r} failed: {type(exc).__name__}: {exc}"
                                            ) from exc
        if not isinstance(imp, Importer):
            plain: Any = imp  # a duck-typed plug-in object
            missing = [a for a in ("name", "identify", "parse") if not hasattr(imp, a)]
            if missing:
                raise ImporterRegistryError(f"{plugin!r} is not an importer (missing {', '.join(missing)})")
            if not callable(plain.identify) or not callable(plain.parse):
                raise ImporterRegistryError(f"{plugin!r} is not an importer (identify/parse not callable)")
            try:
                priority = int(getattr(imp, "priority", 0))
            except (TypeError, ValueError):
                raise ImporterRegistryError(f"importer {plain.name!r}: priority must be an integer") from None
            imp = Importer(str(plain.name), str(getattr(plain, "label", plain.name)), plain.identify, plain.parse,
                           priority)
        if not imp.name or not imp.name.strip():
            raise ImporterRegistryError(f"{plugin!r}: an importer needs a non-empty name")
        if imp.name in self._importers:
            raise ImporterRegistryError(f"an importer named {imp.name!r} is already registered "
                                        "(the first registration wins)")
        self._importers[imp.name] = imp
        return imp

    def importers(self) -> list[Importer]:
        """All importers, highest priority first."""
        self.load_plugins()
        return sorted(self._importers.values(), key=lambda i: -i.priority)

    def get(self, name: str) -> Importer:
        """The importer called ``name`` (an :class:`ImporterRegistryError` listing the known ones if none)."""
        self.load_plugins()
        try:
            return self._importers[name]
        except KeyError:
            raise ImporterRegistryError(f"no importer named {name!r} (known: "
                                        f"{', '.join(sorted(self._importers))})") from None

    def identify(self, path_or_text: str | Path) -> list[Match]:
        """Every importer's confidence for a file (a :class:`~pathlib.Path`) or a text (a ``str``),
        best first; an importer whose ``identify`` raises counts as 0."""
        text = _head(path_or_text)
        matches = []
        for imp in self.importers():
            try:
                conf = float(imp.identify(text))
            except Exception:  # noqa: BLE001 - a broken identify must not stop the others
                conf = 0.0
            matches.append(Match(max(0.0, min(1.0, conf)), imp))
        return sorted(matches, key=lambda m: (-m.confidence, -m.importer.priority))

    def detect(self, path_or_text: str | Path, path: str = "") -> Importer:
        """The importer for a file, or an :class:`ImporterError` naming the known formats."""
        best = self.identify(path_or_text)
        if not best or best[0].confidence < MIN_CONFIDENCE:
            names = ", ".join(i.label for i in self.importers())
            raise ImporterError(path or str(path_or_text if isinstance(path_or_text, Path) else ""),
                                f"unknown format: not recognised as any of: {names}", line=1)
        return best[0].importer

    def parse_text(self, text: str, path: str = "", tool: str | None = None) -> ParsedFile:
        """Parse ``text`` with the named importer or the detected one."""
        others: list[Match] = []
        if tool:
            imp = self.get(tool)
        else:
            imp = self.detect(text, path)
            others = [m for m in self.identify(text) if m.confidence >= 0.9 and m.importer is not imp]
        try:
            result = imp.parse(text, path)
        except ImporterError:
            raise
        except Exception as exc:  # noqa: BLE001 - a plug-in's bug becomes a readable error
            raise ImporterError(path, f"importer {imp.name} failed: {type(exc).__name__}: {exc}") from exc
        if not isinstance(result, ParsedFile):
            raise ImporterError(path, f"importer {imp.name} returned {type(result).__name__}, not a ParsedFile")
        result.path = path
        result.format = result.format or imp.name
        if not isinstance(result.skipped, list) or not isinstance(result.warnings, list):
            raise ImporterError(path, f"importer {imp.name} returned warnings/skipped that are not lists")
        if not isinstance(result.runs_found, int) or result.runs_found <= 0:
            result.runs_found = (1 if result.measurements else 0) + len(result.skipped)
        result.runs_found = max(result.runs_found, len(result.skipped))
        validate(result, path)
        for other in others:
            if not other.importer.name.startswith(result.tool):  # another tool's output in the same file
                result.warnings.append(f"the file also holds what looks like {other.importer.label}: only the "
                                       f"{result.tool} part was read; to read that part, import the file "
                                       f"with that importer (capadvisor import --tool {other.importer.name} FILE)")
        result.warnings = list(dict.fromkeys(result.warnings + result.skipped))
        return result

    def parse_file(self, path: str | Path, tool: str | None = None) -> ParsedFile:
        """Read, decode, detect and parse one file; ``content_hash`` is the SHA-256 of its bytes."""
        from knowledge.infra.files import read_regular_bytes

        p = Path(path)
        try:  # regular files only (a FIFO or /dev/zero would block or never end), bounded size
            data = read_regular_bytes(p, "benchmark result", MAX_IMPORT_BYTES)
        except InputError as exc:
            raise ImporterError(str(p), str(exc).removeprefix(f"{p}: ")) from None
        if not data.strip():
            raise ImporterError(str(p), "the file is empty")
        text = decode_text(data, str(p))
        result = self.parse_text(text, str(p), tool)
        result.content_hash = hashlib.sha256(data).hexdigest()
        return result


def _head(path_or_text: str | Path) -> str:
    if isinstance(path_or_text, Path):
        from knowledge.infra.files import read_regular_head

        try:
            data = read_regular_head(path_or_text, HEAD_CHARS)
        except (OSError, InputError):
            return ""
        try:
            return decode_text(data, str(path_or_text))
        except ImporterError:  # cut inside a character, or not text: let identify decide
            return data.decode("utf-8", errors="replace")
    return path_or_text[:HEAD_CHARS]


#: the process-wide registry: the built-in importers, then the entry-point plug-ins (loaded on first use)
REGISTRY = ImporterRegistry(entry_point_group=ENTRY_POINT_GROUP)


def register(plugin: object) -> Importer:
    """Register a third-party importer in :data:`REGISTRY` (the ``load_entry_points`` callback)."""
    return REGISTRY.register(plugin)


def identify(path_or_text: str | Path) -> list[Match]:
    """:meth:`ImporterRegistry.identify` on :data:`REGISTRY`."""
    return REGISTRY.identify(path_or_text)


def parse_file(path: str | Path, tool: str | None = None) -> ParsedFile:
    """:meth:`ImporterRegistry.parse_file` on :data:`REGISTRY`."""
    return REGISTRY.parse_file(path, tool)
