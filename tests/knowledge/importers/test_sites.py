"""Site summaries from real imported files: which figure comes from which measurement."""

from __future__ import annotations

import json

import pytest

from knowledge.importers.registry import parse_file
from knowledge.infra.errors import InputError
from knowledge.sites import FIGURES, compare_sites, summarize_site
from knowledge.userdb import UserDatabase

from .conftest import FIXTURES


def store(db, site, *names):
    for name in names:
        r = parse_file(FIXTURES / name)
        db.add_import(site, path=str(FIXTURES / name), tool=r.tool, tool_version=r.tool_version,
                      content_hash=r.content_hash, parameters=r.parameters, measurements=r.measurements,
                      warnings=r.warnings)


@pytest.fixture()
def db(tmp_path):
    with UserDatabase(tmp_path / "user.sqlite") as d:
        yield d


def test_summary_takes_each_figure_from_the_best_fitting_measurement(db):
    store(db, "lab", "fio3_randrw_2jobs_group.json", "bonnie2_csv_sync.txt", "sysbench10_cpu.txt",
          "sysbench10_fileio_seqrd.txt")
    s = summarize_site(db, "lab")
    raw = json.loads((FIXTURES / "fio3_randrw_2jobs_group.json").read_text())["jobs"][0]
    assert s.rand_read_iops == raw["read"]["iops"]
    assert s.rand_write_mib_s == raw["write"]["bw"] / 1024
    assert s.seq_write_mib_s == 424644 / 1024  # bonnie++ block writes, K/sec = KiB/s
    assert s.seq_read_mib_s == 7152.73  # sysbench seqrd, MiB/s
    assert s.cpu_events_per_s == 10199.5
    src = s.sources["seq_write_mib_s"]
    assert (src.tool, src.metric, src.value, src.unit) == ("bonnie++", "throughput", 424644, "KiB/s")
    assert src.path.endswith("bonnie2_csv_sync.txt") and src.measurement_id is not None
    assert set(s.sources) == set(FIGURES)


def test_per_job_rows_are_not_figures_the_group_total_is(db):
    store(db, "lab", "fio3_randrw_2jobs.json")
    jobs = json.loads((FIXTURES / "fio3_randrw_2jobs.json").read_text())["jobs"]
    s = summarize_site(db, "lab")
    assert s.rand_read_iops == pytest.approx(sum(j["read"]["iops"] for j in jobs))
    assert s.sources["rand_read_iops"].factors["statistic"] == "total"
    assert s.seq_read_mib_s is None and s.cpu_events_per_s is None


def test_compare_sites_gives_ratio_b_over_a(db):
    store(db, "a", "sysbench10_cpu.txt")
    store(db, "b", "sysbench11_cpu_published.txt", "bonnie103_published.txt")
    c = compare_sites(db, "a", "b")
    assert c.ratios["cpu_events_per_s"] == pytest.approx(114.08 / 10199.5)
    assert c.ratios["seq_read_mib_s"] is None  # a has no sequential read
    assert c.b.seq_read_mib_s == 49497 / 1024
    assert json.loads(json.dumps(c.as_dict()))["ratios"]["cpu_events_per_s"] == c.ratios["cpu_events_per_s"]


def test_unknown_site_is_an_input_error(db):
    with pytest.raises(InputError, match="no site named 'ghost'"):
        summarize_site(db, "ghost")
