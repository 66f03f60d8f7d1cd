"""The curated data and its validation: every problem is named with file and line."""

from __future__ import annotations

import pytest

from knowledge import curated


def test_the_shipped_curated_data_is_valid():
    cur = curated.load()
    assert len(cur.documents) == 5
    assert {m.document for m in cur.measurements} == {d.id for d in cur.documents}
    assert len(cur.measurements) > 500


def test_every_document_has_a_testbed_and_conclusions():
    cur = curated.load()
    for doc in cur.documents:
        assert any(t.document == doc.id for t in cur.testbeds), doc.id
        assert any(c.document == doc.id for c in cur.conclusions), doc.id


def test_every_ratio_keeps_its_baseline_and_every_value_is_finite():
    cur = curated.load()
    for m in cur.measurements:
        if m.kind in ("ratio", "percent_change"):
            assert m.baseline, m.source
        assert m.value == m.value and abs(m.value) < 1e15, m.source


def test_units_are_si_consistent():
    vocab = curated.load_vocabulary()
    assert vocab.units["MB/s"].si == 1e6
    assert vocab.units["MiB/s"].si == 2**20
    assert vocab.units["KiB/s"].si == 1024
    assert vocab.units["Gb/s"].si == 1.25e8
    assert vocab.units["min"].si == 60
    assert vocab.units["%"].si == 0.01


def test_mini_data_loads(mini_data):
    cur = curated.load(mini_data)
    mine = [m for m in cur.measurements if m.document == "001_59d3b1dfbc4dd7d1"]
    assert [m.key for m in mine] == ["T1-01", "T1-02", "S2-01", "S2-02"]
    rec = mine[2]
    assert (rec.value, rec.value_low, rec.value_high, rec.qualifier) == (18.5, 18, 19, "~")
    assert mine[0].factors == {"hypervisor": "KVM", "cache_mode": "writeback", "vms_per_host": "1"}


@pytest.mark.parametrize(("old", "new", "message"), [
    ("59.77,MB/s", "59.77,MB/sec", "unit 'MB/sec' is not in the vocabulary"),
    ("throughput,59.77,MB/s", "downtime,59.77,MB/s", "does not fit metric downtime"),
    ("cache_mode=writeback", "cache_mode=write-back", "level 'write-back' is not one of"),
    ("vms_per_host=1,\nT1-02", "vms_per_host=one,\nT1-02", "must be a number in count"),
    ("hypervisor=KVM; cache_mode=writeback", "hypervisr=KVM; cache_mode=writeback",
     "factor 'hypervisr' is not in the vocabulary"),
    (",ratio,throughput vs native,hypervisor=native,", ",ratio,throughput vs native,,",
     "a ratio needs its baseline"),
    ("T1-02,Table 1", "T1-02,page 7", "locator 'page 7' must start like"),
    ("T1-02,Table 1", "T1-01,Table 1", "id 'T1-01' is repeated"),
    ("3.98,MB/s", "3,98,MB/s", "too many fields"),
    ("18.5,min", "eighteen,min", "must be plain numbers"),
    (",~,18,19,", ",~,19,18,", "value_low > value_high"),
    (",,tb1,hypervisor=KVM; cache_mode=writeback", ",,tb9,hypervisor=KVM; cache_mode=writeback",
     "testbed 'tb9' is not in testbeds.csv"),
])
def test_a_bad_measurement_is_reported_with_file_and_line(mini_data, old, new, message):
    path = mini_data / "001_59d3b1dfbc4dd7d1" / "measurements.csv"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(curated.CurationError) as info:
        curated.load(mini_data)
    problems = info.value.problems
    assert any(message in p for p in problems), problems
    assert all("measurements.csv:" in p for p in problems if message in p)


def test_all_problems_are_collected_at_once(mini_data):
    path = mini_data / "001_59d3b1dfbc4dd7d1" / "measurements.csv"
    text = path.read_text().replace("MB/s", "MBps")
    path.write_text(text)
    with pytest.raises(curated.CurationError) as info:
        curated.load(mini_data)
    unit_problems = [p for p in info.value.problems if "unit 'MBps'" in p]
    assert {p.split(":")[1] for p in unit_problems} == {"2", "3"}
    # the conclusion citing the two rejected rows is reported too, in the same run
    assert any("conclusions.csv:2" in p for p in info.value.problems)


def test_conclusion_evidence_must_exist(mini_data):
    path = mini_data / "001_59d3b1dfbc4dd7d1" / "conclusions.csv"
    path.write_text(path.read_text().replace("T1-01;T1-02", "T1-01;T9-99"))
    with pytest.raises(curated.CurationError, match="evidence 'T9-99' is not a measurement id"):
        curated.load(mini_data)


def test_a_per_document_vocabulary_may_add_but_not_redefine(mini_data):
    extra = mini_data / "001_59d3b1dfbc4dd7d1" / "vocabulary.yaml"
    extra.write_text("units:\n  rpm: {dimension: rotational_speed, si: 0.0166667}\n")
    assert "rpm" in curated.load_vocabulary(mini_data).units
    extra.write_text("units:\n  MB/s: {dimension: data_rate, si: 1048576}\n")
    with pytest.raises(curated.CurationError, match="unit 'MB/s' is already defined differently"):
        curated.load(mini_data)


def test_digest_changes_with_the_data(mini_data):
    before = curated.data_digest(mini_data)
    path = mini_data / "001_59d3b1dfbc4dd7d1" / "measurements.csv"
    path.write_text(path.read_text().replace("59.77", "59.78"))
    assert curated.data_digest(mini_data) != before
