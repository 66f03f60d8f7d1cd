"""Reading the tabs of a large .xlsx workbook quickly and safely.

openpyxl (read-only mode) opens the workbook: it checks the package, lists the tabs, reads the
shared strings and finds each tab's XML part. Turning every cell of a 93-column, 10,000-row
tab into openpyxl cells costs seconds, so the rows themselves are streamed here from the same
part with expat, keeping only the columns asked for (all of them for the header row). A
workbook part with a DTD (where XML bombs and external entities live) is refused; an .xlsx
never has one.
"""

from __future__ import annotations

import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from xml.parsers import expat

from knowledge.infra.errors import InputError
from knowledge.inventory.common import MAX_FILE_BYTES, MAX_ROWS, check_cancel

#: the largest uncompressed part (a tab's XML) read, the largest shared-string table, the most all
#: parts of a workbook may unpack to, bytes, and the largest compression ratio believed of a part
#: over 16 MiB (RVTools workbooks compress about 10:1; a zip bomb 1000:1)
MAX_PART_BYTES = 256 * 1024 * 1024
MAX_SHARED_BYTES = 128 * 1024 * 1024
MAX_UNPACKED_BYTES = 512 * 1024 * 1024
MAX_RATIO = 200
#: the last column a workbook may have (XFD, as in Excel)
MAX_COLUMNS = 16_384
_CHUNK = 1 << 16
_BROKEN = (zipfile.BadZipFile, zlib.error, EOFError)


class Workbook:
    """An open .xlsx workbook (use as a context manager). ``fast`` = False reads every tab with
    expat (the reference the fast path is tested against); ``bailed`` lists the tabs the fast
    path handed back to expat."""

    def __init__(self, path: Path, fast: bool = True):
        from knowledge.infra.files import check_regular, read_regular_head

        self.path = Path(path)
        self.fast = fast
        self.bailed: list[str] = []
        self._index: dict[bytes, object] | None = None  # the shared strings by the text of their number
        check_regular(self.path, "estate export", MAX_FILE_BYTES)
        try:
            magic = read_regular_head(self.path, 4)
        except OSError as exc:
            raise InputError(f"cannot read {self.path}: {exc.strerror or exc}") from exc
        if magic != b"PK\x03\x04":
            raise InputError(f"{self.path}: not an .xlsx workbook (it does not start like a zip package)")
        check_package(self.path)
        from openpyxl.utils.exceptions import InvalidFileException

        try:
            self.wb = _load(self.path)
        except Exception as exc:
            unsafe = _defused(exc)
            if unsafe is not None:
                raise InputError(f"{self.path}: refused: its XML declares a document type, entities or external "
                                 f"references ({type(unsafe).__name__}); an .xlsx workbook never does") from exc
            if isinstance(exc, (*_BROKEN, InvalidFileException, KeyError, ValueError, TypeError, OSError,
                                expat.ExpatError)) or type(exc).__module__.startswith("xml"):
                reason = str(exc).split("\n")[0]
                raise InputError(f"{self.path}: not a readable .xlsx workbook ({type(exc).__name__}: {reason})") from exc
            raise

    def __enter__(self) -> Workbook:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.wb.close()

    @property
    def sheetnames(self) -> list[str]:
        return list(self.wb.sheetnames)

    def find_sheet(self, name: str) -> str | None:
        """The tab called ``name`` (case and spaces ignored), or None."""
        want = name.replace(" ", "").lower()
        return next((s for s in self.wb.sheetnames if s.replace(" ", "").lower() == want), None)

    def rows(self, sheet: str, columns: set[int] | None = None, cancel=None) -> Iterator[tuple[int, dict[int, object]]]:
        """``(row_number, {column_index: value})`` for every row of ``sheet``; only ``columns``
        (0-based) are converted, every column when None. Values: str, float, bool or None.
        A tab written the plain way is read by :func:`~knowledge.inventory.xlsx_fast.fast_rows`;
        any other (or a hostile one) by expat, which names what is wrong."""
        from knowledge.inventory.xlsx_fast import Bail, fast_rows, shared_index

        ws = self.wb[sheet]
        self._check_part(ws)
        given = 0
        if columns is not None and self.fast:
            src = ws._get_source()
            try:
                if self._index is None:
                    self._index = shared_index(ws._shared_strings)
                for row in fast_rows(src.read, ws._shared_strings, columns, cell_value, cancel, self._index):
                    given += 1
                    yield row
                return
            except Bail:
                self.bailed.append(sheet)
            finally:
                src.close()
        for row in self._expat_rows(ws, sheet, columns, cancel):
            if given:
                given -= 1
            else:
                yield row

    def _expat_rows(self, ws, sheet: str, columns: set[int] | None, cancel) -> Iterator[tuple[int, dict[int, object]]]:
        reader = _SheetReader(ws._shared_strings, columns)
        src = ws._get_source()
        try:
            parser = reader.parser
            while True:
                check_cancel(cancel)
                try:
                    chunk = src.read(_CHUNK)
                except (*_BROKEN, OSError) as exc:
                    raise InputError(f"{self.path}: tab {sheet}: the packed data is damaged ({type(exc).__name__}: "
                                     f"{str(exc).splitlines()[0] if str(exc) else 'unreadable'})") from exc
                try:
                    parser.Parse(chunk, not chunk)
                except expat.ExpatError as exc:
                    raise InputError(f"{self.path}: tab {sheet}: broken XML at line {exc.lineno} "
                                     f"({expat.ErrorString(exc.code)})") from exc
                except _Refused as exc:
                    raise InputError(f"{self.path}: tab {sheet}: refused, {exc}") from exc
                if reader.done:
                    yield from reader.done
                    reader.done = []
                if not chunk:
                    break
        finally:
            src.close()

    def header(self, sheet: str) -> list[str]:
        """The first row of ``sheet`` as text (empty strings for blank cells)."""
        for _n, cells in self.rows(sheet, None):
            width = max(cells, default=-1) + 1
            return ["" if cells.get(i) is None else str(cells.get(i)).strip() for i in range(width)]
        return []

    def _check_part(self, ws) -> None:
        try:
            info = self.wb._archive.getinfo(ws._worksheet_path)
        except (KeyError, AttributeError):
            return
        _check_member(self.path, info, MAX_PART_BYTES)


def _load(path: Path):
    """``openpyxl.load_workbook(path, read_only=True, data_only=True, keep_links=False)``, with a
    plain shared-string table read by :func:`~knowledge.inventory.xlsx_fast.plain_shared_strings`
    (openpyxl's reader makes objects per string: 0.3 s for an export of 10,000 VMs)."""
    from openpyxl.reader.excel import KEEP_VBA, ExcelReader
    from openpyxl.xml.constants import SHARED_STRINGS

    from knowledge.inventory.xlsx_fast import plain_shared_strings

    class Reader(ExcelReader):
        def read_strings(self):
            ct = self.package.find(SHARED_STRINGS)
            strings = None
            if ct is not None:
                try:
                    strings = plain_shared_strings(self.archive.read(ct.PartName[1:]))
                except (*_BROKEN, OSError, KeyError):
                    strings = None
            if strings is None:
                super().read_strings()
            else:
                self.shared_strings = strings

    reader = Reader(path, read_only=True, keep_vba=KEEP_VBA, data_only=True, keep_links=False)
    reader.read()
    return reader.wb


def check_package(path: Path) -> None:
    """Refuse a workbook whose parts unpack beyond the limits (a zip bomb) before anything is
    unpacked: each part, the shared strings, all parts together, and the compression ratio (the
    sizes the package declares bind: Python's zip reader never returns more than them)."""
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
    except (*_BROKEN, OSError, ValueError) as exc:
        raise InputError(f"{path}: not a readable .xlsx workbook ({type(exc).__name__}: {exc})") from exc
    total = 0
    for info in infos:
        shared = info.filename.lower().endswith("sharedstrings.xml")
        _check_member(path, info, MAX_SHARED_BYTES if shared else MAX_PART_BYTES)
        total += info.file_size
    if total > MAX_UNPACKED_BYTES:
        raise InputError(f"{path}: the workbook unpacks to {total / 2**20:.0f} MiB, more than the "
                         f"{MAX_UNPACKED_BYTES // 2**20} MiB an estate workbook may: refused (a zip bomb or not an export)")


def sheet_names(path: Path) -> list[str]:
    """The sheet names of a workbook, read from its ``xl/workbook.xml`` part alone (no shared strings,
    no sheet opened: telling an RVTools workbook from another collector's costs milliseconds);
    InputError for a package that is no readable workbook."""
    check_package(path)
    names: list[str] = []

    def start(name: str, attrs: dict) -> None:
        if name.rsplit(":", 1)[-1] == "sheet" and "name" in attrs:
            names.append(attrs["name"])

    p = expat.ParserCreate()
    p.StartElementHandler = start
    p.StartDoctypeDeclHandler = _SheetReader.doctype
    p.EntityDeclHandler = _SheetReader.entity
    try:
        with zipfile.ZipFile(path) as zf:
            part = next((n for n in zf.namelist() if n.lower() == "xl/workbook.xml"), None)
            if part is None:
                raise InputError(f"{path}: a zip package without xl/workbook.xml: not an .xlsx workbook")
            p.Parse(zf.read(part), True)
    except (*_BROKEN, OSError, expat.ExpatError, _Refused) as exc:
        raise InputError(f"{path}: not a readable .xlsx workbook ({type(exc).__name__}: {exc})") from exc
    return names


def _check_member(path: Path, info: zipfile.ZipInfo, limit: int) -> None:
    ratio = info.file_size / info.compress_size if info.compress_size else 0.0
    if info.file_size > limit or (ratio > MAX_RATIO and info.file_size > 16 * 2**20):
        raise InputError(f"{path}: part {info.filename} unpacks to {info.file_size / 2**20:.0f} MiB "
                         f"({ratio:.0f}:1): refused (at most {limit // 2**20} MiB and {MAX_RATIO}:1; a zip bomb "
                         "or not an export)")


class _Refused(Exception):
    pass


def _defused(exc: BaseException | None) -> BaseException | None:
    """The defusedxml refusal in an exception's chain, if any."""
    seen = 0
    while exc is not None and seen < 10:
        if type(exc).__module__.startswith("defusedxml"):
            return exc
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def column_index(ref: str) -> int:
    """0-based column of a cell reference (``A1`` -> 0, ``CO134`` -> 92)."""
    n = 0
    for ch in ref:
        if "A" <= ch <= "Z":
            n = n * 26 + (ord(ch) - 64)
        elif "a" <= ch <= "z":
            n = n * 26 + (ord(ch) - 96)
        else:
            break
    return n - 1


class _SheetReader:
    """expat handlers that collect the wanted cells of each row (kept lean: they run for every
    cell of the tab)."""

    def __init__(self, shared: list, columns: set[int] | None):
        self.shared, self.columns = shared, columns
        self.done: list[tuple[int, dict[int, object]]] = []
        self.row: dict[int, object] | None = None
        self.row_no = 0
        self.rows = 0
        self.col = -1
        self.ctype = "n"
        self.keep = False
        self.buf: list[str] | None = None
        self.cols: dict[str, int] = {}
        self._tags("")
        p = expat.ParserCreate()
        p.buffer_text = True
        p.StartElementHandler = self.start
        p.EndElementHandler = self.end
        p.CharacterDataHandler = self.chars
        p.StartDoctypeDeclHandler = self.doctype
        p.EntityDeclHandler = self.entity
        p.ExternalEntityRefHandler = self.external
        self.parser = p

    def _tags(self, prefix: str) -> None:
        self.prefix = prefix
        self.t_c, self.t_row, self.t_v, self.t_t = (prefix + t for t in ("c", "row", "v", "t"))

    @staticmethod
    def doctype(*_a):
        raise _Refused("the XML declares a document type (DTD); a workbook part never does")

    @staticmethod
    def entity(*_a):
        raise _Refused("the XML declares entities")

    @staticmethod
    def external(*_a):
        raise _Refused("the XML refers to an external entity")

    def column(self, ref: str) -> int:
        letters = ref.rstrip("0123456789")
        col = self.cols.get(letters)
        if col is None:
            col = column_index(letters[:4])
            if len(letters) > 3 or not 0 <= col < MAX_COLUMNS:
                raise _Refused(f"cell {ref[:20]!r} lies beyond the last column a workbook has (XFD)")
            self.cols[letters] = col
        return col

    def start(self, name: str, attrs: dict) -> None:
        if name == self.t_c:
            ref = attrs.get("r")
            self.col = col = self.column(ref) if ref else self.col + 1
            if col >= MAX_COLUMNS:
                raise _Refused(f"row {self.row_no} has more than {MAX_COLUMNS} cells")
            if self.columns is None or col in self.columns:
                self.keep = True
                self.ctype = attrs.get("t", "n")
        elif name == self.t_v or name == self.t_t:
            if self.keep:
                self.buf = []
        elif name == self.t_row:
            r = attrs.get("r")
            if r and not (r.isdigit() and len(r) < 10):
                raise _Refused(f"row number {r[:20]!r} (after row {self.row_no}) is not a row number")
            self.row_no = int(r) if r else self.row_no + 1
            self.rows += 1
            if self.rows > MAX_ROWS:
                raise _Refused(f"more than {MAX_ROWS:,} rows: larger than an estate tab may be")
            self.row = {}
            self.col = -1
        elif name.endswith("worksheet"):
            self._tags(name[: len(name) - len("worksheet")])

    def chars(self, data: str) -> None:
        if self.buf is not None:
            self.buf.append(data)

    def end(self, name: str) -> None:
        if name == self.t_c:
            if self.keep:
                buf = self.buf
                if self.row is not None:
                    self.row[self.col] = self.value("".join(buf) if buf else "")
                self.keep = False
                self.buf = None
        elif name == self.t_row:
            if self.row is not None:
                self.done.append((self.row_no, self.row))
            self.row = None

    def value(self, text: str) -> object:
        return cell_value(self.shared, self.ctype, text)


def cell_value(shared: list, t: str, text: str) -> object:
    """A cell's value from its type ``t`` and the text of its ``<v>`` (or inline ``<t>``)."""
    if t == "s":
        try:
            v = shared[int(text)]
        except (ValueError, IndexError):
            return None
        return v if isinstance(v, str) or v is None else str(v)
    if t in ("str", "inlineStr", "d"):
        return text
    if t == "b":
        return text.strip() in ("1", "true")
    if t == "e" or not text:
        return None
    try:
        return float(text)
    except ValueError:
        return text
