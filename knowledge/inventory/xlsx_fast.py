"""The fast path of reading a tab's rows (issue #30): the wanted cells are picked out of the
tab's XML with regular expressions instead of one Python call per XML element.

It gives exactly the rows the expat reader of :mod:`knowledge.inventory.xlsx` gives, and only
for tabs written the plain way every spreadsheet writer writes them: UTF-8, a ``worksheet`` root,
no DTD, comment, processing instruction or CDATA, rows of cells ``<c r="B7" s=".." t="..">`` holding
at most one ``<v>`` (or an inline ``<is><t>``). The whole part still goes through expat (with no
handlers: C speed) so a part that is not well-formed is never read here. On anything else
:class:`Bail` is raised and the caller re-reads the tab with the expat reader, skipping the
rows already given (the expat reader then names the problem exactly as before).
"""

from __future__ import annotations

import re
import zipfile
import zlib
from collections.abc import Callable, Iterator
from functools import lru_cache
from xml.parsers import expat

from knowledge.inventory.common import MAX_ROWS, check_cancel

_CHUNK = 1 << 16
_BROKEN = (zipfile.BadZipFile, zlib.error, EOFError)
#: the XML declaration and the root element (its prefix, e.g. ``x:``, is the tags' prefix)
_ROOT = re.compile(rb'(?:\xef\xbb\xbf)?(?:<\?xml(?P<decl>[^<>?]*)\?>)?\s*<(?P<prefix>(?:[A-Za-z_][\w.-]*:)?)'
                   rb'worksheet[\s/>]')
_ENCODING = re.compile(rb'encoding\s*=\s*["\']([^"\']*)["\']')
#: the columns up to the last one (XFD): a cell beyond it is no plain cell (the expat reader refuses it)
_UP_TO_XFD = "(?:[A-Z]{1,2}|[A-W][A-Z]{2}|X[A-E][A-Z]|XF[A-D])"
_ROW_NUMBER = re.compile(rb'\sr="([^"]*)"')


class Bail(Exception):
    """The tab is not written the plain way: read it with the expat reader."""


def _cell(prefix: str, letters: str, groups: bool) -> str:
    g = (lambda name: f"(?P<{name}>") if groups else (lambda _name: "(?:")
    return (f'<{prefix}c r="{g("col")}{letters})[0-9]+"(?: s="[0-9]+")?'
            f'(?: t="{g("t")}[A-Za-z]+)")?\\s*(?:/>|>(?:<{prefix}v>{g("v")}[^<]*)</{prefix}v>'
            f'|<{prefix}is><{prefix}t(?: xml:space="preserve")?>{g("is")}[^<]*)</{prefix}t></{prefix}is>)?'
            f'</{prefix}c>)')


@lru_cache(maxsize=32)
def _patterns(prefix: bytes, wanted: tuple[str, ...]):
    """(one row, strictly; the wanted cells of a row's body; the start of any element the expat
    reader reacts to)."""
    p = re.escape(prefix.decode())
    cell = _cell(p, _UP_TO_XFD, False)
    row = re.compile(f'\\s*<{p}row(?P<attrs>(?:\\s+[A-Za-z][\\w.-]*(?::[\\w.-]+)?="[^"<&]*")*)\\s*'
                     f'(?:/>|>(?P<body>(?:\\s*{cell})*\\s*)</{p}row>)'.encode())
    want = re.compile(_cell(p, "|".join(wanted), True).encode())
    marks = re.compile(f'<(?:{p}(?:c|v|t|row)|[^\\s/>!?]*worksheet)[\\s/>]'.encode())
    return row, want, marks


def shared_index(shared: list) -> dict[bytes, object]:
    """``{b"12": value of shared string 12}`` (what ``cell_value`` gives for ``t="s"``, ``<v>12</v>``)."""
    return {str(i).encode(): v if isinstance(v, str) or v is None else str(v) for i, v in enumerate(shared)}


def fast_rows(read: Callable[[int], bytes], shared: list, columns: set[int], value, cancel=None,
              index: dict[bytes, object] | None = None) -> Iterator[tuple[int, dict[int, object]]]:
    """``(row_number, {column: value})`` like the expat reader; :class:`Bail` when the tab is
    not plain (rows may have been given before: the caller skips that many). ``index``: the
    :func:`shared_index` of ``shared`` (made here when not given)."""
    from openpyxl.utils import get_column_letter

    letters = {get_column_letter(c + 1).encode(): c for c in columns}
    validator = expat.ParserCreate()
    validator.StartDoctypeDeclHandler = validator.EntityDeclHandler = _bail
    validator.ExternalEntityRefHandler = validator.CommentHandler = _bail
    validator.ProcessingInstructionHandler = validator.StartCdataSectionHandler = _bail
    pending, patterns, state = b"", None, [0, 0]  # row number, rows
    while True:
        check_cancel(cancel)
        try:
            chunk = read(_CHUNK)
            validator.Parse(chunk, not chunk)
        except (*_BROKEN, OSError, expat.ExpatError) as exc:  # the expat reader names it
            raise Bail(str(exc)) from exc
        pending += chunk
        if patterns is None:
            patterns, pending = _start(pending, letters, bool(chunk))
            if patterns is None:
                continue
        end = pending.rfind(b"</" + patterns[3] + b"row>")
        if end >= 0 or not chunk:
            cut = end + len(patterns[3]) + 6 if end >= 0 else 0
            if index is None:
                index = shared_index(shared)
            yield from _segment(pending[:cut], patterns, letters, (shared, index, value), state)
            pending = pending[cut:]
        if not chunk:
            if patterns[2].search(pending):
                raise Bail("cells after the last row")
            return


def _bail(*_a):
    raise Bail("not a plain worksheet part")


def _start(head: bytes, letters: dict[bytes, int], more: bool):
    """The patterns for this part and the text from its first row on, once the root element and
    the first row are in ``head``; (None, head) while more is to come."""
    m = _ROOT.match(head)
    if m is None:
        if more and len(head) < 4096:
            return None, head
        raise Bail("no worksheet root element")
    enc = _ENCODING.search(m.group("decl") or b"")
    if enc and enc.group(1).lower() not in (b"utf-8", b"utf8"):
        raise Bail("not UTF-8")
    prefix = m.group("prefix")
    row, want, marks = _patterns(prefix, tuple(sorted(k.decode() for k in letters)))
    first = re.compile(b"<" + re.escape(prefix) + rb"row[\s/>]").search(head, m.end())
    if first is None:
        if more:
            return None, head
        first_at = len(head)
    else:
        first_at = first.start()
    if marks.search(head, m.end(), first_at) or head.find(b"<!", m.end(), first_at) >= 0 \
            or head.find(b"<?", m.end(), first_at) >= 0:  # a comment there could hide what looks like a row
        raise Bail("cells, a comment or a processing instruction before the rows")
    return (row, want, marks, prefix), head[first_at:]


def _segment(seg: bytes, patterns, letters, values, state) -> Iterator[tuple[int, dict[int, object]]]:
    """The rows of ``seg`` (whole rows and the white space between them)."""
    row_re, want, _marks, _prefix = patterns
    shared, index, value = values
    lookup = index.get
    pos, n = 0, len(seg)
    out = []
    while pos < n:
        m = row_re.match(seg, pos)
        if m is None:
            if seg[pos:].isspace():
                break
            raise Bail("a row that is not plain")
        pos = m.end()
        attrs, body = m.group("attrs", "body")
        r = _ROW_NUMBER.search(attrs) if attrs else None
        if r is not None:
            digits = r.group(1)
            if not (digits.isdigit() and 0 < len(digits) < 10):
                raise Bail("an odd row number")
            state[0] = int(digits)
        else:
            state[0] += 1
        state[1] += 1
        if state[1] > MAX_ROWS:
            raise Bail("too many rows")
        cells: dict[int, object] = {}
        if body:
            for col, t, v, inline in want.findall(body):
                raw = v or inline
                if t == b"s":  # most cells: a shared string (as cell_value finds it)
                    x = lookup(raw, index)
                    if x is not index:
                        cells[letters[col]] = x
                        continue
                text = raw.decode() if b"&" not in raw and b"\r" not in raw else _text(raw)
                cells[letters[col]] = value(shared, t.decode() if t else "n", text)
        out.append((state[0], cells))
    yield from out


def _text(raw: bytes) -> str:
    """Character data as expat reads it (entities, line ends)."""
    parts: list[str] = []
    p = expat.ParserCreate()
    p.CharacterDataHandler = parts.append
    p.Parse(b"<a>" + raw + b"</a>", True)
    return "".join(parts)


# --- shared strings ---------------------------------------------------------------------------
_SST_ROOT = re.compile(rb'(?:\xef\xbb\xbf)?(?:<\?xml(?P<decl>[^<>?]*)\?>)?[ \t\r\n]*<(?P<prefix>(?:[A-Za-z_][\w.-]*:)?)'
                       rb'sst(?P<attrs>(?:[ \t\r\n]+[A-Za-z][\w.-]*(?::[\w.-]+)?="[^"<&]*")*)[ \t\r\n]*>')
_MAIN_NS = b"http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def plain_shared_strings(data: bytes) -> list[str] | None:
    """The shared-string table as openpyxl's reader gives it (``read_string_table``: each
    ``<si>``'s text, ``x005F_`` removed), for a table of plain ``<si><t>..</t></si>`` entries;
    None for any other (rich text runs, phonetic hints, a DTD, broken XML ...): openpyxl reads it."""
    validator = expat.ParserCreate()
    validator.StartDoctypeDeclHandler = validator.EntityDeclHandler = _bail
    validator.ExternalEntityRefHandler = validator.CommentHandler = _bail
    validator.ProcessingInstructionHandler = validator.StartCdataSectionHandler = _bail
    try:
        validator.Parse(data, True)
    except (expat.ExpatError, Bail):
        return None
    m = _SST_ROOT.match(data)
    if m is None or data.count(b"xmlns") != 1:
        return None
    enc = _ENCODING.search(m.group("decl") or b"")
    prefix = m.group("prefix")
    ns = b"xmlns:" + prefix[:-1] if prefix else b"xmlns"
    if (enc and enc.group(1).lower() not in (b"utf-8", b"utf8")) or ns + b'="' + _MAIN_NS + b'"' not in m.group("attrs"):
        return None
    p = re.escape(prefix)
    si = b"<" + p + b"si><" + p + b'(?:t>|t xml:space="preserve">)([^<]*)</' + p + b"t></" + p + b"si>"
    body = re.compile(b"(?:" + si + b")*").match(data, m.end())
    tail = data[body.end():] if body else b""
    if body is None or not re.fullmatch(b"</" + p + rb"sst>[ \t\r\n]*", tail):
        return None
    texts = re.findall(si, data[m.end():body.end()])
    return [(_text(raw) if b"&" in raw or b"\r" in raw else raw.decode()).replace("x005F_", "") for raw in texts]
