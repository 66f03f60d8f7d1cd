"""The fio JSON import's fast path (#30): one plain decode when a count proves no key is repeated,
the decoder with a pairs hook (which names every duplicate) otherwise; shared factor levels; the
collector paused only while parsing; validation's cache of clean factor sets."""

from __future__ import annotations

import gc
import json

import pytest

from knowledge.importers import fio
from knowledge.importers.base import ImporterError, ParsedFile, leveled_measurement
from knowledge.importers.validate import validate

pytestmark = pytest.mark.timeout(60)

BASE = "fio3_randrw_2jobs.json"  # its "time" value holds two colons


def _no_slow_path(monkeypatch):
    def refuse(duplicates):
        raise AssertionError("decoded a second time with the pairs hook")
    monkeypatch.setattr(fio, "_object_pairs", refuse)


def _duplicates_warning(r) -> str:
    return next((w for w in r.warnings if "duplicate key" in w), "")


@pytest.mark.parametrize("name", [BASE, "fio3_randrw_2jobs_group.json", "fio3_seqread_2jobs.jsonplus"])
def test_real_fio_output_is_decoded_once(fixture_text, monkeypatch, name):
    expected = fio.parse(fixture_text(name), "a")
    _no_slow_path(monkeypatch)
    r = fio.parse(fixture_text(name), "a")
    assert [(m.metric, m.value, m.factors) for m in r.measurements] == \
        [(m.metric, m.value, m.factors) for m in expected.measurements]
    assert not _duplicates_warning(r)


def test_colons_in_option_values_keep_the_fast_path(fixture_text, monkeypatch):
    doc = json.loads(fixture_text(BASE))
    for job in doc["jobs"]:
        job["job options"]["filename"] = "/dev/disk/by-path/pci-0000:00:1f.2-ata-1"
    doc["global options"] = {"description": "a:b:c"}
    _no_slow_path(monkeypatch)
    r = fio.parse(json.dumps(doc, indent=1), "opts.json")
    assert r.parameters["jobs"][0]["filename"].endswith("1f.2-ata-1") and not _duplicates_warning(r)


@pytest.mark.parametrize("edit, count, key", [
    # a value repeated where the importer reads it
    (lambda t: t.replace('"bw" :', '"bw" : 1, "bw" :', 1), 1, "bw"),
    # colons inside the dropped and the kept value would balance a naive count
    (lambda t: t.replace('"jobs"', '"x" : "a:b", "x" : "c:d:e", "jobs"', 1), 1, "x"),
    # an escaped colon (\u003a) is one more colon once decoded than in the text
    (lambda t: t.replace('"jobs"', '"x" : 1, "x" : "\\u003a", "jobs"', 1), 1, "x"),
    (lambda t: t.replace('"jobs"', '"x" : 1, "x" : "\\u003A", "jobs"', 1), 1, "x"),
    # inside an object a duplicate dropped, and deep in a job where nothing is read
    (lambda t: t.replace('"jobs"', '"x" : {"a": 1}, "x" : {"a": 2, "a": 3}, "jobs"', 1), 2, "a"),
    (lambda t: t.replace('"job options" : {', '"job options" : {"bs" : "8k", ', 1), 1, "bs"),
    (lambda t: t.replace('"jobs"', '"jobs" : [], "jobs"', 1), 1, "jobs"),
    # colons in strings outside the places the fast path counts: a list of text
    (lambda t: t.replace('"jobs"', '"n" : ["a:b"], "n" : ["c:d"], "jobs"', 1), 1, "n"),
])
def test_a_duplicate_key_anywhere_is_found_and_named(fixture_text, edit, count, key):
    r = fio.parse(edit(fixture_text(BASE)), "dup.json")
    assert _duplicates_warning(r) == (f"{count} duplicate key(s) in the JSON (e.g. {key!r}; old fio percentile "
                                      "blocks): the last value was kept")


def test_old_fio_percentile_blocks_keep_their_warning(fixture_text):
    r = fio.parse(fixture_text("fio2_write_published.json"), "old.json")
    assert _duplicates_warning(r).startswith("6 duplicate key(s) in the JSON (e.g. '0.00';")


def test_colons_outside_the_counted_places_without_duplicates_give_no_warning(fixture_text):
    text = fixture_text(BASE).replace('"jobs"', '"notes" : ["a:b", "c\\u003ad"], "k:ey" : 1, "jobs"', 1)
    r = fio.parse(text, "ok.json")
    assert not _duplicates_warning(r)


def test_the_figures_of_a_direction_do_not_share_their_factors(fixture_text):
    r = fio.parse(fixture_text(BASE), "a")
    assert len({id(m.factors) for m in r.measurements}) == len(r.measurements)
    r.measurements[0].factors["block_size"] = "999"
    again = fio.parse(fixture_text(BASE), "a")
    assert again.measurements[0].factors["block_size"] != "999", "the level cache was changed through a result"


def test_the_collector_runs_again_after_a_parse_and_after_a_refusal(fixture_text):
    assert gc.isenabled()
    fio.parse(fixture_text(BASE), "a")
    assert gc.isenabled()
    with pytest.raises(ImporterError):
        fio.parse(fixture_text(BASE)[:500], "cut.json")
    assert gc.isenabled()
    gc.disable()
    try:
        fio.parse(fixture_text(BASE), "a")
        assert not gc.isenabled(), "a collector the caller had paused stays paused"
    finally:
        gc.enable()


def _parsed(*factor_sets) -> ParsedFile:
    return ParsedFile("t", "1", {}, [leveled_measurement("iops", 1.0, "ops/s", dict(f)) for f in factor_sets])


def test_validation_checks_every_measurement_even_after_identical_clean_ones():
    clean = {"threads": "4", "operation": "read"}
    with pytest.raises(ImporterError, match=r"measurement 3 .*threads"):
        validate(_parsed(clean, clean, {"threads": "-4", "operation": "read"}), "v.json")
    r = validate(_parsed(clean, {"threads": 4, "operation": "read"}, {"operation": "x\ud800"},
                         {"operation": "x\ud800"}), "v.json")
    assert r.measurements[1].factors == clean and type(r.measurements[1].factors["threads"]) is str
    assert [m.factors["operation"] for m in r.measurements[2:]] == ["x\ufffd", "x\ufffd"]
    assert any("lone surrogates) in 2 place(s)" in w for w in r.warnings)


def test_validation_fast_path_still_checks_values_and_text_of_figures_with_known_factors():
    """A figure whose factors were found clean before is still checked for its value, its value in
    SI units and its text (the fast path skips only what it has proven)."""
    clean = {"threads": "4", "operation": "read"}

    def parsed(*figures):
        r = _parsed(*[clean] * len(figures))
        for m, change in zip(r.measurements, figures, strict=True):
            for attr, value in change.items():
                setattr(m, attr, value)
        return r

    with pytest.raises(ImporterError, match=r"measurement 2 \(iops\): value -1.0 is negative"):
        validate(parsed({}, {"value": -1.0}), "v.json")
    with pytest.raises(ImporterError, match=r"measurement 3 \(iops\): value in SI units inf is not a finite"):
        validate(parsed({}, {}, {"value_si": float("inf")}), "v.json")
    r = validate(parsed({}, {"subject": "job \ud800"}, {"value": 3}, {"unit": 5}), "v.json")
    assert r.measurements[1].subject == "job \ufffd" and any("lone surrogates) in 1 place" in w for w in r.warnings)
    assert type(r.measurements[2].value) is float and r.measurements[3].unit == "5"
