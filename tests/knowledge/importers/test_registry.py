"""The importer registry: detection of every committed fixture, third-party importers, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from knowledge.curated import load_vocabulary
from knowledge.importers.base import Importer, ImporterError, ParsedFile, measurement
from knowledge.importers.registry import (
    REGISTRY,
    ImporterRegistry,
    ImporterRegistryError,
    identify,
    parse_file,
)

from .conftest import FIXTURES

EXPECTED = {
    "fio3_randrw_2jobs.json": "fio-json", "fio3_randrw_2jobs_group.json": "fio-json",
    "fio3_seqread_2jobs.jsonplus": "fio-json", "fio2_write_published.json": "fio-json",
    "fio3_randrw_2jobs.txt": "fio-text", "fio3_seqwrite_2jobs_group.txt": "fio-text",
    "bonnie2_csv.txt": "bonnie++", "bonnie2_csv_sync.txt": "bonnie++", "bonnie2_table.txt": "bonnie++",
    "bonnie2_table_fast.txt": "bonnie++", "bonnie103_published.txt": "bonnie++",
    "bonnie103_fastmode_csv.txt": "bonnie++", "bonnie2_table_and_csv_long_name.txt": "bonnie++",
    "sysbench10_cpu.txt": "sysbench", "sysbench10_fileio_rndrw.txt": "sysbench",
    "sysbench10_fileio_seqrd.txt": "sysbench", "sysbench10_fileio_seqwr_direct.txt": "sysbench",
    "sysbench11_cpu_published.txt": "sysbench", "sysbench11_fileio_rndrw_published.txt": "sysbench",
    "postmark_verbose.txt": "postmark", "postmark_terse.txt": "postmark",
    "postmark_three_reports.txt": "postmark", "sysbench10_session_log.txt": "sysbench",
    "sysbench10_session_headings_fatal.txt": "sysbench",
    "fio3_two_invocations.txt": "fio-text",
    "iozone3_auto_stdout.txt": "iozone", "iozone3_excel_R_sample.txt": "iozone",
    **{f"fio3_terse_v{v}_randrw_2jobs.txt": "fio-terse" for v in (2, 3, 4, 5)},
}


def test_every_fixture_is_covered_and_documented():
    outputs = {p.name for p in FIXTURES.iterdir() if p.is_file() and p.suffix not in (".cmd", ".source")}
    assert outputs == set(EXPECTED)
    for name in outputs:
        assert (FIXTURES / f"{name}.cmd").exists() or (FIXTURES / f"{name}.source").exists(), name


@pytest.mark.parametrize("name, importer", sorted(EXPECTED.items()))
def test_each_fixture_is_identified_and_parsed(name, importer):
    matches = identify(FIXTURES / name)
    assert matches[0].importer.name == importer and matches[0].confidence >= 0.5
    assert matches[1].confidence < matches[0].confidence
    result = parse_file(FIXTURES / name)
    assert result.measurements and result.content_hash and len(result.content_hash) == 64
    vocab = load_vocabulary()
    for m in result.measurements:
        unit = vocab.units[m.unit]
        assert unit.dimension in vocab.metrics[m.metric]["dimensions"], (m.metric, m.unit)
        assert m.value_si == pytest.approx(m.value * unit.si)
        for factor, level in m.factors.items():
            fdef = vocab.factors[factor]
            assert fdef.levels is None or level in fdef.levels, (factor, level)
            if fdef.type == "numeric":
                float(level)


def test_unknown_file_and_empty_file(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_text("just some notes\nnothing to see\n")
    with pytest.raises(ImporterError, match=r"notes.txt, line 1: unknown format"):
        parse_file(p)
    (tmp_path / "empty.txt").write_text("  \n")
    with pytest.raises(ImporterError, match="empty"):
        parse_file(tmp_path / "empty.txt")
    with pytest.raises(ImporterError, match="cannot read"):
        parse_file(tmp_path / "missing.txt")


class CsvThroughput:
    """A third-party importer of lines 'mytool,<MiB/s>' (duck-typed, not an Importer)."""

    name = "mytool"
    label = "my tool CSV"
    priority = 5

    @staticmethod
    def identify(text):
        return 1.0 if text.startswith("mytool,") else 0.0

    @staticmethod
    def parse(text, path):
        value = float(text.split(",")[1])
        return ParsedFile("mytool", "1", {}, [measurement("throughput", value, "MiB/s", {"operation": "read"})])


def test_third_party_importer_is_used_and_its_crash_becomes_an_importer_error(tmp_path):
    reg = ImporterRegistry()
    reg.register(CsvThroughput)  # duck-typed: name, label, priority, identify, parse
    f = tmp_path / "x.csv"
    f.write_text("mytool,12.5\n")
    r = reg.parse_file(f)
    assert (r.tool, r.measurements[0].value_si) == ("mytool", 12.5 * 2**20)
    f.write_text("mytool,fast\n")
    with pytest.raises(ImporterError, match="importer mytool failed: ValueError"):
        reg.parse_file(f)
    assert "mytool" not in {i.name for i in REGISTRY.importers()}, "a private registry stays private"


def test_register_accepts_a_factory_and_checks_what_parse_returns(tmp_path):
    reg = ImporterRegistry(())
    reg.register(lambda: Importer("odd", "odd", lambda t: 1.0, lambda t, p: {"not": "a result"}))
    with pytest.raises(ImporterError, match="importer odd returned dict, not a ParsedFile"):
        reg.parse_text("x", "f.txt")


def test_register_refuses_duplicates_and_non_importers():
    reg = ImporterRegistry()
    with pytest.raises(ImporterRegistryError, match="already registered"):
        reg.register(Importer("fio-json", "again", lambda t: 1.0, lambda t, p: None))
    with pytest.raises(ImporterRegistryError, match="not an importer"):
        reg.register(object())


def test_priority_breaks_ties_and_a_broken_identify_counts_as_zero():
    reg = ImporterRegistry(())
    reg.register(Importer("low", "low", lambda t: 0.9, lambda t, p: None, priority=1))
    reg.register(Importer("high", "high", lambda t: 0.9, lambda t, p: None, priority=9))
    reg.register(Importer("broken", "broken", lambda t: 1 / 0, lambda t, p: None, priority=99))
    ranked = reg.identify("anything")
    assert [m.importer.name for m in ranked] == ["high", "low", "broken"]
    assert ranked[-1].confidence == 0.0
    assert reg.detect("anything").name == "high"


def test_forced_tool_and_unknown_tool(tmp_path):
    assert REGISTRY.parse_file(FIXTURES / "postmark_terse.txt", tool="postmark").tool == "postmark"
    with pytest.raises(ImporterRegistryError, match="no importer named 'nope'"):
        REGISTRY.parse_file(FIXTURES / "postmark_terse.txt", tool="nope")
    with pytest.raises(ImporterError, match="no bonnie"):
        REGISTRY.parse_file(FIXTURES / "postmark_terse.txt", tool="bonnie++")
    with pytest.raises(ImporterError, match="sysbench"):
        REGISTRY.parse_file(FIXTURES / "postmark_terse.txt", tool="sysbench")


def test_identify_accepts_text_too():
    text = Path(FIXTURES / "sysbench10_cpu.txt").read_text()
    assert identify(text)[0].importer.name == "sysbench"


@pytest.mark.parametrize("name, message", [
    ("fio3_truncated.json", r"fio3_truncated.json, line 58: invalid JSON"),
    ("fio3_missing_bw.json", r"fio3_missing_bw.json, key jobs\[0\].read.bw: expected a number"),
    ("bonnie2_table_latin1.txt", r"bonnie2_table_latin1.txt, line 4: not UTF-8"),
    ("sysbench10_missing_value.txt", r"sysbench10_missing_value.txt, line 24, key reads/s: expected a number"),
    ("iozone3_truncated.txt", r"iozone3_truncated.txt, line 1: no IOzone results"),
])
def test_damaged_copies_fail_with_file_and_place(name, message):
    with pytest.raises(ImporterError, match=message):
        parse_file(FIXTURES / "damaged" / name)


def test_truncated_postmark_report_keeps_what_it_has_and_says_so():
    r = parse_file(FIXTURES / "damaged" / "postmark_verbose_truncated.txt")
    assert r.measurements[0].value == 2000 and any("truncated" in w for w in r.warnings)
