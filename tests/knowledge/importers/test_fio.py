"""fio JSON, json+ and text output, from real fio 3.33 runs and a published fio 2.2.10 file."""

from __future__ import annotations

import json

import pytest

from knowledge.importers import fio, fio_text
from knowledge.importers.base import ImporterError
from knowledge.importers.registry import parse_file

from .conftest import FIXTURES, by, one


def test_group_reported_json_gives_exact_totals_with_the_files_parameters(fixture_text):
    text = fixture_text("fio3_randrw_2jobs_group.json")
    raw = json.loads(text)["jobs"][0]
    r = fio.parse(text, "g.json")
    assert (r.tool, r.tool_version) == ("fio", "3.33")
    bw = one(r.measurements, metric="throughput", operation="read")
    assert bw.value == raw["read"]["bw"] and bw.unit == "KiB/s"
    assert bw.value_si == raw["read"]["bw"] * 1024
    assert bw.factors == {"benchmark": "fio", "operation": "read", "access_pattern": "random",
                          "read_share": "70", "block_size": "4", "queue_depth": "4", "threads": "2",
                          "direct_io": "yes", "statistic": "total"}
    iops = one(r.measurements, metric="iops", operation="write")
    assert iops.value == raw["write"]["iops"] and iops.unit == "ops/s"
    lat = one(r.measurements, metric="latency", operation="read", statistic="mean")
    assert (lat.value, lat.unit) == (raw["read"]["lat_ns"]["mean"], "ns")
    assert lat.value_si == pytest.approx(raw["read"]["lat_ns"]["mean"] * 1e-9)
    p99 = one(r.measurements, metric="latency", operation="write", statistic="p99")
    assert p99.value == raw["write"]["clat_ns"]["percentile"]["99.000000"]
    assert r.parameters["jobs"][0]["numjobs"] == "2"


def test_jobs_reported_one_by_one_get_per_job_rows_and_a_group_sum(fixture_text):
    text = fixture_text("fio3_randrw_2jobs.json")
    jobs = json.loads(text)["jobs"]
    r = fio.parse(text, "j.json")
    per_job = by(r.measurements, metric="throughput", operation="read", statistic="per_job")
    assert sorted(m.value for m in per_job) == sorted(j["read"]["bw"] for j in jobs)
    assert all(m.factors["threads"] == "1" for m in per_job)
    total = one(r.measurements, metric="throughput", operation="read", statistic="total")
    assert total.value == sum(j["read"]["bw"] for j in jobs) and total.factors["threads"] == "2"


def test_json_plus_is_read_like_json_and_its_histograms_ignored(fixture_text):
    text = fixture_text("fio3_seqread_2jobs.jsonplus")
    assert "bins" in text
    r = fio.parse(text, "p.json")
    jobs = json.loads(text)["jobs"]
    total = one(r.measurements, metric="throughput", operation="read", statistic="total")
    assert total.value == sum(j["read"]["bw"] for j in jobs)
    assert total.factors["access_pattern"] == "sequential" and total.factors["block_size"] == "128"
    assert total.factors["direct_io"] == "no"
    assert not by(r.measurements, operation="write")


def test_fio2_microsecond_keys_and_duplicate_percentile_keys(fixture_text):
    r = fio.parse(fixture_text("fio2_write_published.json"), "old.json")
    assert r.tool_version == "2.2.10"
    assert any("duplicate key" in w for w in r.warnings)
    assert any("no job options" in w for w in r.warnings)
    assert one(r.measurements, metric="throughput").value == 62499
    lat = one(r.measurements, metric="latency", statistic="mean")
    assert (lat.value, lat.unit) == (8182.26, "us")
    assert one(r.measurements, metric="latency", statistic="p99").value == 8640
    assert not by(r.measurements, operation="read"), "directions without I/O give nothing"


def test_lines_before_the_json_are_skipped_with_a_warning(fixture_text):
    text = fixture_text("fio3_randrw_2jobs_group.json")
    noisy = "note: both iodepth >= 1 and synchronous I/O engine are selected\n" + text + "\nfio: trailer\n"
    plain, r = fio.parse(text, "a"), fio.parse(noisy, "b")
    assert [m.value for m in r.measurements] == [m.value for m in plain.measurements]
    assert any("skipped 1 line" in w for w in r.warnings) and any("after the JSON" in w for w in r.warnings)


def test_utf16_file_from_a_windows_shell_reads_the_same(tmp_path):
    src = FIXTURES / "fio3_randrw_2jobs_group.json"
    utf16 = tmp_path / "win.json"
    utf16.write_bytes(src.read_text().encode("utf-16"))
    a, b = parse_file(src), parse_file(utf16)
    assert [(m.metric, m.value) for m in a.measurements] == [(m.metric, m.value) for m in b.measurements]
    assert a.content_hash != b.content_hash


def test_text_output_group_reported(fixture_text):
    r = fio_text.parse(fixture_text("fio3_seqwrite_2jobs_group.txt"), "t.txt")
    assert r.tool_version == "3.33"
    bw = one(r.measurements, metric="throughput")
    assert (bw.value, bw.unit, bw.value_si) == (9987, "MiB/s", 9987 * 1048576)
    assert bw.factors["threads"] == "2" and bw.factors["block_size"] == "64"
    assert one(r.measurements, metric="iops").value == 160_000
    assert one(r.measurements, metric="latency", statistic="mean").value == 10.82
    assert one(r.measurements, metric="latency", statistic="p99").value == 21
    assert any("rounded" in w for w in r.warnings)


def test_text_output_per_job_and_run_status_totals(fixture_text):
    r = fio_text.parse(fixture_text("fio3_randrw_2jobs.txt"), "t.txt")
    assert sorted(m.value for m in by(r.measurements, metric="throughput", operation="read",
                                      statistic="per_job")) == [83.9, 84.1]
    total = one(r.measurements, metric="throughput", operation="read", statistic="total")
    assert (total.value, total.unit, total.factors["threads"]) == (168, "MiB/s", "2")
    assert one(r.measurements, metric="throughput", operation="write", statistic="total").value == 72.3
    assert "read_share" not in total.factors  # not in the text output


def test_fio2_text_lines_are_understood():
    text = ("iometer: (g=0): rw=randrw, bs=4K-4K/4K-4K/4K-4K, ioengine=libaio, iodepth=64\nfio-2.0.15\n"
            "iometer: (groupid=0, jobs=1): err= 0: pid=21423: Thu May  9 16:33:14 2013\n"
            "  read : io=326081KB, bw=1023.3KB/s, iops=170 , runt=318686msec\n"
            "     lat (usec): min=293 , max=1805.8K, avg=300958.41, stdev=282008.08\n")
    r = fio_text.parse(text, "old.txt")
    bw = one(r.measurements, metric="throughput")
    assert (bw.value, bw.unit, bw.factors["block_size"], bw.factors["queue_depth"]) == (1023.3, "KiB/s", "4", "64")
    assert one(r.measurements, metric="latency").value == 300958.41


@pytest.mark.parametrize("damage, where", [
    (lambda t: t[: len(t) // 2], "line"),
    (lambda t: t.replace('"bw" : ', '"bw_gone" : ', 1), "key jobs[0].read.bw"),
    (lambda t: t.replace('"bw" : 197542', '"bw" : "fast"', 1), "key jobs[0].read.bw"),
    (lambda t: t.replace('"jobs" : [', '"jobz" : [', 1), "key jobs"),
])
def test_damaged_json_names_the_line_or_key(fixture_text, damage, where):
    with pytest.raises(ImporterError) as err:
        fio.parse(damage(fixture_text("fio3_randrw_2jobs_group.json")), "bad.json")
    assert "bad.json" in str(err.value) and where in str(err.value)


def test_wrong_encoding_is_reported_with_its_line(tmp_path):
    path = tmp_path / "latin1.json"
    text = (FIXTURES / "fio3_randrw_2jobs_group.json").read_text().replace('"randrw"', '"randrw-Müller"', 1)
    path.write_bytes(text.encode("latin-1"))
    with pytest.raises(ImporterError, match=r"latin1.json, line 8: not UTF-8"):
        parse_file(path)


def test_text_without_results_is_an_error():
    with pytest.raises(ImporterError, match="no job results"):
        fio_text.parse("randrw: (g=0): rw=randrw, bs=4K-4K/4K-4K/4K-4K, ioengine=libaio, iodepth=1\n", "x")


def test_block_size_from_per_direction_bs_and_unknown_with_bssplit(fixture_text):
    doc = json.loads(fixture_text("fio3_randrw_2jobs_group.json"))
    doc["jobs"][0]["job options"]["bs"] = "4k,64k"
    r = fio.parse(json.dumps(doc), "bs.json")
    assert one(r.measurements, metric="throughput", operation="read").factors["block_size"] == "4"
    assert one(r.measurements, metric="throughput", operation="write").factors["block_size"] == "64"
    del doc["jobs"][0]["job options"]["bs"]
    doc["jobs"][0]["job options"]["bssplit"] = "4k/50:64k/50"
    r = fio.parse(json.dumps(doc), "split.json")
    assert "block_size" not in one(r.measurements, metric="throughput", operation="read").factors


def test_each_json_job_entry_is_a_run_and_an_entry_without_io_is_a_skipped_run(fixture_text):
    doc = json.loads(fixture_text("fio3_randrw_2jobs.json"))
    assert fio.parse(json.dumps(doc), "j.json").runs_found == len(doc["jobs"]) == 2
    for d in ("read", "write", "trim"):
        doc["jobs"][1][d]["io_bytes"] = doc["jobs"][1][d]["total_ios"] = 0
    doc["jobs"][1]["error"] = 5
    r = fio.parse(json.dumps(doc), "j.json")
    assert (r.runs_found, r.runs_imported) == (2, 1)
    assert "jobs[1]" in r.skipped[0] and "did no I/O (fio error 5)" in r.skipped[0]


def test_json_in_which_no_job_did_io_is_refused_with_fios_own_message(fixture_text):
    doc = json.loads(fixture_text("fio3_randrw_2jobs.json"))
    for job in doc["jobs"]:
        job["error"] = 22
        for d in ("read", "write", "trim"):
            job[d]["io_bytes"] = job[d]["total_ios"] = 0
    text = "fio: time_based requires a runtime/timeout setting\n" + json.dumps(doc, indent=1)
    with pytest.raises(ImporterError, match=r"x.json, key jobs: fio 3.33 JSON output in which no job did any I/O "
                                            r"\(fio reported error 22; fio said 'fio: time_based requires"):
        fio.parse(text, "x.json")
