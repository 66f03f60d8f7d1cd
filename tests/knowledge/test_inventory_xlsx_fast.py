"""The fast path of reading a tab (issue #30, knowledge/inventory/xlsx_fast.py) gives exactly what the
expat reader gives: the same rows on the project's RVTools test workbooks and collector fixtures,
the same estate, and on a tab that is not plain (a comment, broken XML, a cell beyond XFD, an
entity) the same rows and the same refusal, the fast path handing the tab back to expat."""

from __future__ import annotations

import dataclasses
import zipfile
from pathlib import Path

import pytest

from knowledge.infra.errors import InputError
from knowledge.inventory import read_inventory
from knowledge.inventory import xlsx as X
from tests.knowledge import rvtools_workbooks as RV

ROOT = Path(__file__).resolve().parents[2]
COLLECTORS = sorted((ROOT / "tests/fixtures/inventory/collectors").glob("*.xlsx"))
WORKBOOKS = [RV.path(n) for n in RV.ESTATES] + COLLECTORS


def all_rows(path: Path, fast: bool, sparse: bool):
    """Every tab's rows (every column, or every third one), and the tabs the fast path gave back."""
    with X.Workbook(path, fast=fast) as wb:
        out = {}
        for sheet in wb.sheetnames:
            width = len(wb.header(sheet))
            cols = set(range(0, width, 3) if sparse else range(width))
            out[sheet] = list(wb.rows(sheet, cols))
        return out, wb.bailed


@pytest.mark.parametrize("path", WORKBOOKS, ids=lambda p: p.name)
@pytest.mark.parametrize("sparse", [False, True])
def test_fast_rows_are_the_expat_rows(path, sparse):
    fast, bailed = all_rows(path, True, sparse)
    slow, _ = all_rows(path, False, sparse)
    assert bailed == []  # the fast path read every tab itself
    assert fast == slow
    assert sum(len(r) for r in fast.values()) > 0


@pytest.mark.parametrize("name", sorted(RV.ESTATES))
def test_same_estate_either_way(name, monkeypatch):
    fast = read_inventory([RV.path(name)])
    expat_only = X.Workbook
    monkeypatch.setattr(X, "Workbook", lambda path: expat_only(path, fast=False))
    slow = read_inventory([RV.path(name)])
    assert [dataclasses.asdict(v) for v in fast.vms] == [dataclasses.asdict(v) for v in slow.vms]
    assert [dataclasses.asdict(h) for h in fast.hosts] == [dataclasses.asdict(h) for h in slow.hosts]
    assert fast.vms and fast.left_out == slow.left_out


def edited(tmp_path: Path, edit) -> Path:
    """The SDK-style RVTools workbook with its vInfo part (sheet1) changed by ``edit(bytes)``."""
    src = RV.path("rvtools-4x-sdk.xlsx")
    out = tmp_path / "edited.xlsx"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            zout.writestr(info.filename, edit(data) if info.filename == "xl/worksheets/sheet1.xml" else data)
    return out


def after_row(n: int, text: bytes):
    return lambda xml: xml.replace(f"</x:row><x:row r=\"{n + 1}\"".encode(),
                                   b"</x:row>" + text + f"<x:row r=\"{n + 1}\"".encode(), 1)


HOSTILE = {
    "comment": after_row(20, b"<!-- a comment -->"),
    "broken": after_row(30, b"<x:c r=\"A1\"><x:v>1</x:v>"),
    "beyond_xfd": lambda xml: xml.replace(b'<x:c r="B25" ', b'<x:c r="XFE25" ', 1),
    "entity": lambda xml: xml.replace(b'<x:c r="A12" t="s"><x:v>', b'<x:c r="A12" t="str"><x:v>R&amp;D &#65;', 1),
    "inline_cr": lambda xml: xml.replace(b'<x:c r="A13" t="s"><x:v>', b'<x:c r="A13" t="str"><x:v>a\r\nb', 1),
    "doctype": lambda xml: xml.replace(b"?>", b"?><!DOCTYPE x:worksheet>", 1),
    "cells_outside": lambda xml: xml.replace(b"<x:sheetData>", b"<x:c r=\"XFZ1\"/><x:sheetData>", 1),
}


def outcome(path: Path, fast: bool):
    rows: list = []
    with X.Workbook(path, fast=fast) as wb:
        try:
            for row in wb.rows("vInfo", set(range(0, 40, 2))):
                rows.append(row)
        except InputError as exc:
            return rows, str(exc), wb.bailed
    return rows, None, wb.bailed


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_tab_that_is_not_plain_reads_as_before(case, tmp_path):
    path = edited(tmp_path, HOSTILE[case])
    fast_rows, fast_err, bailed = outcome(path, True)
    slow_rows, slow_err, _ = outcome(path, False)
    assert (fast_rows, fast_err) == (slow_rows, slow_err)
    if case in ("entity", "inline_cr"):
        assert bailed == [] and fast_err is None  # read by the fast path itself, text decoded as expat does
        want = "R&D A" if case == "entity" else "a\nb"
        assert any(str(c.get(0)).startswith(want) for _n, c in fast_rows)
    else:
        assert bailed == ["vInfo"]
    if case in ("broken", "beyond_xfd", "doctype"):
        assert fast_err is not None and "tab vInfo" in fast_err


# --- the shared-string table -------------------------------------------------------------------
def sst(entries: bytes, root: bytes = b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">') -> bytes:
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + root + entries + b"</sst>\n"


PLAIN = sst(b"<si><t>VM</t></si><si><t xml:space=\"preserve\">  two  spaces </t></si><si><t></t></si>"
            b"<si><t>R&amp;D &lt;x&gt; &#233;t&#xE9;</t></si><si><t>line\r\nend\rx</t></si>"
            b"<si><t>a_x005F_x000D_b</t></si><si><t>caf\xc3\xa9</t></si>")
NOT_PLAIN = {
    "rich": sst(b"<si><r><t>bo</t></r><r><rPr><b/></rPr><t>ld</t></r></si>"),
    "phonetic": sst(b"<si><t>a</t><rPh sb=\"0\" eb=\"1\"><t>A</t></rPh></si>"),
    "other_namespace": sst(b"<si><t>a</t></si>", b'<sst xmlns="http://purl.oclc.org/ooxml/spreadsheetml/main">'),
    "comment": sst(b"<si><t>a</t></si><!-- c -->"),
    "empty_element": sst(b"<si><t/></si>"),
}


def openpyxl_strings(data: bytes) -> list:
    import io

    from openpyxl.reader.strings import read_string_table

    return read_string_table(io.BytesIO(data))


def test_plain_shared_strings_are_openpyxls():
    from knowledge.inventory.xlsx_fast import plain_shared_strings

    assert plain_shared_strings(PLAIN) == openpyxl_strings(PLAIN)
    assert len(openpyxl_strings(PLAIN)) == 7
    with zipfile.ZipFile(RV.path("rvtools-4x-sdk.xlsx")) as z:
        real = z.read("xl/sharedStrings.xml")
    assert plain_shared_strings(real) == openpyxl_strings(real) != []


@pytest.mark.parametrize("case", sorted(NOT_PLAIN))
def test_other_shared_strings_are_left_to_openpyxl(case):
    from knowledge.inventory.xlsx_fast import plain_shared_strings

    assert plain_shared_strings(NOT_PLAIN[case]) is None


def test_the_workbook_reads_a_plain_table_itself(monkeypatch):
    """An RVTools workbook opens without openpyxl's string reader (and reads the same rows)."""
    import openpyxl.reader.excel

    want, _ = all_rows(RV.path("rvtools-4x-sdk.xlsx"), True, False)

    def refused(_src):
        raise AssertionError("openpyxl's shared-string reader used for a plain table")

    monkeypatch.setattr(openpyxl.reader.excel, "read_string_table", refused)
    assert all_rows(RV.path("rvtools-4x-sdk.xlsx"), True, False)[0] == want
