"""docs/limits.md lists every estate-file limit the readers enforce (issue #34), from the one table
in knowledge/inventory/limits.py."""

from __future__ import annotations

from pathlib import Path

from knowledge.inventory import common, xlsx
from knowledge.inventory.limits import limits_table

DOC = Path(__file__).resolve().parents[2] / "docs" / "limits.md"


def test_the_limits_document_carries_the_readers_table():
    assert limits_table() in DOC.read_text(encoding="utf-8")


def test_every_reader_limit_is_in_the_table():
    table = limits_table()
    for value in (common.MAX_FILE_BYTES, common.MAX_TEXT_BYTES, common.MAX_JSON_BYTES, common.MAX_XML_BYTES,
                  xlsx.MAX_PART_BYTES, xlsx.MAX_SHARED_BYTES, xlsx.MAX_UNPACKED_BYTES):
        assert f"{value // 2**20} MiB" in table
    for value in (common.MAX_ROWS, common.MAX_VMS, common.MAX_HOSTS, common.MAX_CELL_CHARS, xlsx.MAX_COLUMNS):
        assert f"{value:,}" in table
    assert f"{xlsx.MAX_RATIO}:1" in table and f"{common.MAX_NAME_CHARS} " in table
