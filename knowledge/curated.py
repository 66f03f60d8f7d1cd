"""Load and validate the curated, human-readable knowledge under ``knowledge/data/``.

The curated files are the source of truth; :mod:`knowledge.build` compiles them into
SQLite. Every problem is reported with the file and line it stands on, and all
problems are collected before anything fails, so a reviewer sees the whole list.
"""

from __future__ import annotations

import csv
import hashlib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from knowledge.records import ConclusionRow, DocumentRow, MeasurementRow, NoteRow, TestbedRow

DATA_DIR = Path(__file__).resolve().parent / "data"

MEASUREMENT_COLUMNS = (
    "id", "locator", "metric", "value", "unit", "kind", "subject", "baseline",
    "qualifier", "value_low", "value_high", "testbed", "factors", "note",
)
TESTBED_COLUMNS = (
    "id", "locator", "description", "cpu", "cores", "ram", "disks", "nic",
    "hypervisor", "hypervisor_version", "host_os", "guest_os", "other",
)
CONCLUSION_COLUMNS = ("id", "decision", "locator", "condition", "recommendation", "evidence")
#: a document note (notes*.csv): where the document disagrees with itself, which measurement rows
#: that touches, and which reading the advice uses and why (our own words, numbers copied)
NOTE_COLUMNS = ("id", "locator", "rows", "text", "reading")
QUALIFIERS = ("=", "~", "<", ">", "<=", ">=")
LOCATOR_RE = re.compile(
    r"^(Abstract|Introduction|Conclusion|Conclusions|Keywords|Preface"
    r"|Table [0-9IVX]+(\.[0-9]+)?"
    r"|Figure [0-9]+(\.[0-9]+)?[a-z]?"
    r"|Equation \(?[0-9.]+\)?"
    r"|Section [0-9A-Z][0-9.]*"
    r"|Section [A-Z][A-Za-z &/-]+"
    r"|Chapter [0-9]+"
    r"|Paper [IVX]+)"
    r"(\b.*)?$"
)
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
FACTOR_NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


class CurationError(Exception):
    """The curated data is invalid; ``problems`` lists every problem found."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        head = f"{len(problems)} problem(s) in the curated knowledge:"
        super().__init__("\n".join([head, *problems[:200]]))


@dataclass(frozen=True)
class Unit:
    name: str
    dimension: str
    si: float


@dataclass(frozen=True)
class FactorDef:
    name: str
    type: str  # "categorical" | "numeric"
    unit: str | None
    levels: tuple[str, ...] | None
    description: str


@dataclass
class Vocabulary:
    units: dict[str, Unit] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)
    metrics: dict[str, dict] = field(default_factory=dict)
    factors: dict[str, FactorDef] = field(default_factory=dict)
    decisions: dict[str, str] = field(default_factory=dict)

    def merge(self, raw: dict, origin: str, problems: list[str]) -> None:
        """Add the entries of one vocabulary file; a redefinition is a problem."""
        for name, spec in (raw.get("units") or {}).items():
            self._add(self.units, name, Unit(name, spec["dimension"], float(spec["si"])),
                      origin, "unit", problems)
        for name, text in (raw.get("kinds") or {}).items():
            self._add(self.kinds, name, text, origin, "kind", problems)
        for name, spec in (raw.get("metrics") or {}).items():
            self._add(self.metrics, name, spec, origin, "metric", problems)
        for name, spec in (raw.get("factors") or {}).items():
            if not FACTOR_NAME_RE.match(name):
                problems.append(f"{origin}: factor name {name!r} must be snake_case")
            levels = spec.get("levels")
            fdef = FactorDef(
                name=name,
                type=spec.get("type", "categorical"),
                unit=spec.get("unit"),
                levels=tuple(str(v) for v in levels) if levels else None,
                description=spec.get("description", ""),
            )
            if fdef.type not in ("categorical", "numeric"):
                problems.append(f"{origin}: factor {name}: type must be categorical or numeric")
            if fdef.type == "numeric" and not fdef.unit:
                problems.append(f"{origin}: numeric factor {name} needs a unit")
            self._add(self.factors, name, fdef, origin, "factor", problems)
        for name, text in (raw.get("decisions") or {}).items():
            self._add(self.decisions, name, text, origin, "decision", problems)

    @staticmethod
    def _add(table: dict, name: str, value, origin: str, what: str, problems: list[str]) -> None:
        if name in table and table[name] != value:
            problems.append(f"{origin}: {what} {name!r} is already defined differently")
        table[name] = value


@dataclass
class Curated:
    vocabulary: Vocabulary
    documents: list[DocumentRow]
    measurements: list[MeasurementRow]
    testbeds: list[TestbedRow]
    conclusions: list[ConclusionRow]
    digest: str
    notes: list[NoteRow] = field(default_factory=list)


def parse_factors(text: str) -> list[tuple[str, str]]:
    """Parse ``name=level; name=level`` into pairs (order kept)."""
    pairs = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        name, sep, level = part.partition("=")
        pairs.append((name.strip(), level.strip() if sep else ""))
    return pairs


def _number(text: str) -> float | None:
    text = text.strip()
    if not text:
        return None
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _read_csv(path: Path, columns: tuple[str, ...], problems: list[str]) -> list[tuple[int, dict]]:
    rows = []
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            header = tuple(reader.fieldnames or ())
            missing = [c for c in columns if c not in header]
            extra = [c for c in header if c not in columns]
            if missing or extra:
                problems.append(f"{path}:1: columns must be {','.join(columns)}"
                                f" (missing {missing}, unexpected {extra})")
                return []
            for row in reader:
                if None in row:
                    problems.append(f"{path}:{reader.line_num}: too many fields")
                    continue
                if any(v is None for v in row.values()):
                    problems.append(f"{path}:{reader.line_num}: too few fields")
                    continue
                rows.append((reader.line_num, {k: v.strip() for k, v in row.items()}))
    except UnicodeDecodeError as exc:
        problems.append(f"{path}: not UTF-8 ({exc})")
    return rows


def load_vocabulary(data_dir: Path = DATA_DIR, problems: list[str] | None = None) -> Vocabulary:
    """The merged vocabulary: the core file plus every per-document addition."""
    own = problems if problems is not None else []
    vocab = Vocabulary()
    core = data_dir / "vocabulary.yaml"
    vocab.merge(yaml.safe_load(core.read_text(encoding="utf-8")) or {}, str(core), own)
    for extra in sorted(data_dir.glob("*/vocabulary*.yaml")):
        vocab.merge(yaml.safe_load(extra.read_text(encoding="utf-8")) or {}, str(extra), own)
    if problems is None and own:
        raise CurationError(own)
    return vocab


def data_digest(data_dir: Path = DATA_DIR) -> str:
    """SHA-256 over every curated file (names and bytes): identifies a knowledge-base build."""
    h = hashlib.sha256()
    for path in sorted(p for p in data_dir.rglob("*") if p.is_file() and p.suffix in (".csv", ".yaml")):
        h.update(str(path.relative_to(data_dir)).encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def load(data_dir: Path = DATA_DIR) -> Curated:
    """Load and validate all curated data; raise :class:`CurationError` listing every problem."""
    problems: list[str] = []
    vocab = load_vocabulary(data_dir, problems)
    docs_raw = yaml.safe_load((data_dir / "documents.yaml").read_text(encoding="utf-8"))
    documents = [DocumentRow(**d) for d in docs_raw["documents"]]
    doc_ids = {d.id for d in documents}
    for sub in sorted(p for p in data_dir.iterdir() if p.is_dir()):
        if sub.name not in doc_ids:
            problems.append(f"{sub}: folder does not name a document of documents.yaml")

    measurements: list[MeasurementRow] = []
    testbeds: list[TestbedRow] = []
    conclusions: list[ConclusionRow] = []
    notes: list[NoteRow] = []
    for doc in documents:
        folder = data_dir / doc.id
        if not folder.is_dir():
            continue
        tb_ids: set[str] = set()
        for _, row in _identified_rows(folder, "testbeds*.csv", TESTBED_COLUMNS, tb_ids, problems):
            testbeds.append(TestbedRow(doc.id, row["id"], row["locator"], *(row[k] for k in TESTBED_COLUMNS[2:])))
        m_ids: set[str] = set()
        for path in sorted(folder.glob("measurements*.csv")):
            for line, row in _read_csv(path, MEASUREMENT_COLUMNS, problems):
                m = _measurement(doc.id, row, f"{path}:{line}", vocab, tb_ids, problems)
                if m is None:
                    continue
                if m.key in m_ids:
                    problems.append(f"{m.source}: id {m.key!r} is repeated in {doc.id}")
                m_ids.add(m.key)
                measurements.append(m)
        c_ids: set[str] = set()
        for where, row in _identified_rows(folder, "conclusions*.csv", CONCLUSION_COLUMNS, c_ids, problems):
            if row["decision"] not in vocab.decisions:
                problems.append(f"{where}: decision {row['decision']!r} is not in the vocabulary")
            _required(row, ("condition", "recommendation"), where, problems)
            evidence = _measurement_ids(row["evidence"], m_ids, f"{where}: evidence", doc.id, problems)
            conclusions.append(ConclusionRow(doc.id, row["id"], row["decision"], row["locator"],
                                             row["condition"], row["recommendation"], evidence))
        notes += load_notes(folder, doc.id, m_ids, problems)
    if problems:
        raise CurationError(problems)
    return Curated(vocab, documents, measurements, testbeds, conclusions, data_digest(data_dir), notes)


def load_notes(folder: Path, doc: str, m_ids: set[str], problems: list[str]) -> list[NoteRow]:
    """The notes of one document (``notes*.csv``): ids unique, locator checked, every row a
    measurement id of the document, text and reading given."""
    out: list[NoteRow] = []
    for where, row in _identified_rows(folder, "notes*.csv", NOTE_COLUMNS, set(), problems):
        rows = _measurement_ids(row["rows"], m_ids, f"{where}: rows:", doc, problems)
        _required(row, ("text", "reading"), where, problems)
        out.append(NoteRow(doc, row["id"], row["locator"], row["text"], row["reading"], rows))
    return out


def _identified_rows(folder: Path, pattern: str, columns: tuple[str, ...], ids: set[str],
                     problems: list[str]):
    """(``file:line``, row) of every CSV of ``folder`` matching ``pattern``, after checking that its
    id is well formed and unique within ``ids`` (which it joins) and its locator well formed."""
    for path in sorted(folder.glob(pattern)):
        for line, row in _read_csv(path, columns, problems):
            where = f"{path}:{line}"
            if not ID_RE.match(row["id"]) or row["id"] in ids:
                problems.append(f"{where}: id {row['id']!r} is empty, malformed or repeated")
            ids.add(row["id"])
            _check_locator(row["locator"], where, problems)
            yield where, row


def _required(row: dict, fields: tuple[str, ...], where: str, problems: list[str]) -> None:
    for field_name in fields:
        if not row[field_name]:
            problems.append(f"{where}: {field_name} is empty")


def _measurement_ids(text: str, m_ids: set[str], what: str, doc: str, problems: list[str]) -> tuple[str, ...]:
    """``a; b`` -> ``("a", "b")``, each checked to be a measurement id of ``doc``."""
    keys = tuple(k.strip() for k in text.split(";") if k.strip())
    for k in keys:
        if k not in m_ids:
            problems.append(f"{what} {k!r} is not a measurement id of {doc}")
    return keys


def _check_locator(locator: str, where: str, problems: list[str]) -> None:
    if not LOCATOR_RE.match(locator):
        problems.append(f"{where}: locator {locator!r} must start like 'Table 5', 'Figure 3', "
                        "'Section 5.4.1' or 'Abstract'")


def _measurement(doc: str, row: dict, where: str, vocab: Vocabulary, testbeds: set[str],
                 problems: list[str]) -> MeasurementRow | None:
    before = len(problems)
    if not ID_RE.match(row["id"]):
        problems.append(f"{where}: id {row['id']!r} is empty or malformed")
    _check_locator(row["locator"], where, problems)
    unit = vocab.units.get(row["unit"])
    if unit is None:
        problems.append(f"{where}: unit {row['unit']!r} is not in the vocabulary")
    metric = vocab.metrics.get(row["metric"])
    if metric is None:
        problems.append(f"{where}: metric {row['metric']!r} is not in the vocabulary")
    elif unit is not None and unit.dimension not in metric["dimensions"]:
        problems.append(f"{where}: unit {unit.name} ({unit.dimension}) does not fit metric "
                        f"{row['metric']} ({', '.join(metric['dimensions'])})")
    if row["kind"] not in vocab.kinds:
        problems.append(f"{where}: kind {row['kind']!r} is not in the vocabulary")
    if row["kind"] in ("ratio", "percent_change") and not row["baseline"]:
        problems.append(f"{where}: a {row['kind']} needs its baseline")
    if not row["subject"]:
        problems.append(f"{where}: subject is empty")
    qualifier = row["qualifier"] or "="
    if qualifier not in QUALIFIERS:
        problems.append(f"{where}: qualifier {qualifier!r} must be one of {' '.join(QUALIFIERS)}")
    try:
        value = _number(row["value"])
        low = _number(row["value_low"])
        high = _number(row["value_high"])
    except ValueError:
        problems.append(f"{where}: value, value_low and value_high must be plain numbers")
        return None
    if value is None:
        problems.append(f"{where}: value is empty")
    if low is not None and high is not None and low > high:
        problems.append(f"{where}: value_low > value_high")
    if row["testbed"] and row["testbed"] not in testbeds:
        problems.append(f"{where}: testbed {row['testbed']!r} is not in testbeds.csv")
    factors: dict[str, str] = {}
    for name, level in parse_factors(row["factors"]):
        fdef = vocab.factors.get(name)
        if fdef is None:
            problems.append(f"{where}: factor {name!r} is not in the vocabulary")
            continue
        if name in factors:
            problems.append(f"{where}: factor {name} is given twice")
        if level == "":
            problems.append(f"{where}: factor {name} has no level")
        elif fdef.type == "numeric":
            try:
                _number(level)
            except ValueError:
                problems.append(f"{where}: factor {name} must be a number in {fdef.unit}, not {level!r}")
        elif fdef.levels and level not in fdef.levels:
            problems.append(f"{where}: factor {name} level {level!r} is not one of {list(fdef.levels)}")
        factors[name] = level
    if len(problems) > before or value is None or unit is None:
        return None
    return MeasurementRow(doc, row["id"], row["locator"], row["metric"], value, row["unit"], row["kind"],
                          row["subject"], row["baseline"], qualifier, low, high, value * unit.si, row["testbed"],
                          row["note"], factors, source=where)


def main(argv: list[str] | None = None) -> int:
    """``python -m knowledge.curated [TEXT]``: validate; with TEXT, show only problems containing it."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    try:
        cur = load()
    except CurationError as exc:
        shown = [p for p in exc.problems if not args or args[0] in p]
        print(f"{len(exc.problems)} problem(s) in all; {len(shown)} shown:")
        print("\n".join(shown))
        return 1
    print(f"ok: {len(cur.measurements)} measurements, {len(cur.testbeds)} testbeds, "
          f"{len(cur.conclusions)} conclusions, {len(cur.notes)} notes from {len(cur.documents)} documents")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
