"""fio terse output (--minimal), versions 2 to 5, from real fio 3.33 runs (fixtures/*.cmd): the
field layout of each version, per-job lines, fio messages between lines, cut-off lines."""

from __future__ import annotations

import pytest

from knowledge.importers import fio_terse
from knowledge.importers.base import ImporterError
from knowledge.importers.registry import REGISTRY

from .conftest import FIXTURES, by

#: (version, first line's read KiB/s and IOPS, write KiB/s and IOPS), read off the files with awk
FIRST_LINE = {2: (40225, 10056, 17098, 4274), 3: (45612, 11403, 19513, 4878),
              4: (41227, 10306, 17489, 4372), 5: (46504, 11626, 19876, 4969)}


@pytest.mark.parametrize("version", sorted(FIRST_LINE))
def test_every_terse_version_is_read_with_its_own_layout(version, fixture_text):
    name = f"fio3_terse_v{version}_randrw_2jobs.txt"
    r = fio_terse.parse(fixture_text(name), name)
    assert r.runs_found == 2 and not r.skipped
    assert r.tool_version == ("" if version == 2 else "3.33")  # v2 carries no fio version
    first = [m for m in r.measurements if m.subject.endswith("line 1")]
    rbw, riops, wbw, wiops = FIRST_LINE[version]
    assert by(first, metric="throughput", operation="read")[0].value == rbw
    assert by(first, metric="iops", operation="read")[0].value == riops
    assert by(first, metric="throughput", operation="write")[0].value == wbw
    assert by(first, metric="iops", operation="write")[0].value == wiops
    assert not by(r.measurements, operation="trim")  # no trim I/O: no trim figures
    # two lines of one job name and group = numjobs=2 without group_reporting: per-job figures
    assert {m.factors["statistic"] for m in by(r.measurements, metric="throughput")} == {"per_job"}
    assert any("reported one by one" in w for w in r.warnings)
    assert any("no job parameters" in w for w in r.warnings)


def test_the_registry_detects_terse_and_prefers_it_over_other_readers():
    matches = REGISTRY.identify(FIXTURES / "fio3_terse_v3_randrw_2jobs.txt")
    assert matches[0].importer.name == "fio-terse" and matches[0].confidence == 1.0


def test_fio_messages_between_lines_are_one_warning_and_a_cut_off_line_is_a_skipped_run(fixture_text):
    lines = fixture_text("fio3_terse_v3_randrw_2jobs.txt").splitlines()
    text = "\n".join(["fio: pid=1, err=11/file:engines/libaio.c:354, func=io_queue_init, error=Resource"] * 3
                     + [lines[0], lines[1][:400]])
    r = fio_terse.parse(text, "t.txt")
    assert (r.runs_found, r.runs_imported) == (2, 1)
    assert "line 5" in r.skipped[0] and "fewer than its layout needs" in r.skipped[0]
    assert any("lines 1-3: 3 fio messages" in w for w in r.warnings)


def test_a_number_that_is_not_one_names_the_line_and_field(fixture_text):
    line = fixture_text("fio3_terse_v3_randrw_2jobs.txt").splitlines()[0].split(";")
    line[6] = "12x"  # read bandwidth
    with pytest.raises(ImporterError, match=r"t.txt, line 1, key read bandwidth KiB/s \(field 7\)"):
        fio_terse.parse(";".join(line), "t.txt")


def test_no_terse_line_is_refused():
    with pytest.raises(ImporterError, match="no fio terse line"):
        fio_terse.parse("3;fio-3.33;short\n", "t.txt")
