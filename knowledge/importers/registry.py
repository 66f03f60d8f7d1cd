"""The importer registry: which importer reads a file.

Built-in importers are registered in code (a frozen build carries no entry points); third parties
call :func:`register` — the CLI and GUI load the entry-point group ``capadvisor.importers`` with
``app.plugins.load_entry_points(ENTRY_POINT_GROUP, register)``. Each importer answers
``identify(text) -> confidence`` for the start of a file; the most confident wins, ties go to the
higher priority.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from knowledge.importers import bonnie, fio, fio_text, iozone, postmark, sysbench
from knowledge.importers.base import Importer, ImporterError, ParsedFile, decode_text

ENTRY_POINT_GROUP = "capadvisor.importers"
#: how much of a file ``identify`` looks at (characters)
HEAD_CHARS = 65536
#: below this confidence a file is "unknown format"
MIN_CONFIDENCE = 0.25

BUILTINS = (
    Importer("fio-json", "fio JSON / json+ output", fio.identify, fio.parse, priority=100),
    Importer("fio-text", "fio human-readable output", fio_text.identify, fio_text.parse, priority=90),
    Importer("bonnie++", "bonnie++ CSV line or table", bonnie.identify, bonnie.parse, priority=80),
    Importer("sysbench", "sysbench fileio / cpu report", sysbench.identify, sysbench.parse, priority=70),
    Importer("postmark", "PostMark report", postmark.identify, postmark.parse, priority=60),
    Importer("iozone", "IOzone output or -R report", iozone.identify, iozone.parse, priority=50),
)


@dataclass(frozen=True)
class Match:
    """An importer's confidence (0..1) that it can read a file."""

    confidence: float
    importer: Importer


class ImporterRegistry:
    """Importers by name; built-ins first, third-party ones added with :meth:`register`."""

    def __init__(self, importers: tuple[Importer, ...] = BUILTINS):
        self._importers: dict[str, Importer] = {}
        for imp in importers:
            self.register(imp)

    def register(self, plugin: object) -> Importer:
        """Add an importer: an :class:`Importer`, an object with ``name``, ``identify`` and ``parse``
        (optional ``label``, ``priority``), or a callable returning one. A name already taken is an
        error, so a plug-in cannot silently replace a built-in."""
        imp = plugin
        if not isinstance(imp, Importer) and not hasattr(imp, "identify") and callable(imp):
            imp = imp()
        if not isinstance(imp, Importer):
            missing = [a for a in ("name", "identify", "parse") if not hasattr(imp, a)]
            if missing:
                raise TypeError(f"{plugin!r} is not an importer (missing {', '.join(missing)})")
            imp = Importer(str(imp.name), str(getattr(imp, "label", imp.name)), imp.identify, imp.parse,
                           int(getattr(imp, "priority", 0)))
        if imp.name in self._importers:
            raise ValueError(f"an importer named {imp.name!r} is already registered")
        self._importers[imp.name] = imp
        return imp

    def importers(self) -> list[Importer]:
        """All importers, highest priority first."""
        return sorted(self._importers.values(), key=lambda i: -i.priority)

    def get(self, name: str) -> Importer:
        """The importer called ``name`` (an :class:`ImporterError` listing the known ones if none)."""
        try:
            return self._importers[name]
        except KeyError:
            raise ImporterError("", f"no importer named {name!r} (known: "
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
        imp = self.get(tool) if tool else self.detect(text, path)
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
        result.warnings = list(dict.fromkeys(result.warnings))
        return result

    def parse_file(self, path: str | Path, tool: str | None = None) -> ParsedFile:
        """Read, decode, detect and parse one file; ``content_hash`` is the SHA-256 of its bytes."""
        p = Path(path)
        try:
            data = p.read_bytes()
        except OSError as exc:
            raise ImporterError(str(p), f"cannot read: {exc.strerror or exc}") from exc
        if not data.strip():
            raise ImporterError(str(p), "the file is empty")
        text = decode_text(data, str(p))
        result = self.parse_text(text, str(p), tool)
        result.content_hash = hashlib.sha256(data).hexdigest()
        return result


def _head(path_or_text: str | Path) -> str:
    if isinstance(path_or_text, Path):
        try:
            with open(path_or_text, "rb") as fh:
                data = fh.read(HEAD_CHARS)
        except OSError:
            return ""
        try:
            return decode_text(data, str(path_or_text))
        except ImporterError:  # cut inside a character, or not text: let identify decide
            return data.decode("utf-8", errors="replace")
    return path_or_text[:HEAD_CHARS]


#: the process-wide registry with the built-in importers
REGISTRY = ImporterRegistry()


def register(plugin: object) -> Importer:
    """Register a third-party importer in :data:`REGISTRY` (the ``load_entry_points`` callback)."""
    return REGISTRY.register(plugin)


def identify(path_or_text: str | Path) -> list[Match]:
    """:meth:`ImporterRegistry.identify` on :data:`REGISTRY`."""
    return REGISTRY.identify(path_or_text)


def parse_file(path: str | Path, tool: str | None = None) -> ParsedFile:
    """:meth:`ImporterRegistry.parse_file` on :data:`REGISTRY`."""
    return REGISTRY.parse_file(path, tool)
