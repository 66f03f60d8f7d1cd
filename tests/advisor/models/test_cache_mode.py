"""cache_mode_throughput: training rows traced to doc 001, fit quality, physics properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.models.cache_mode import MODES, CacheModeThroughput, page_cache_per_vm
from knowledge.infra.errors import InputError

DOC = "001_59d3b1dfbc4dd7d1"


@pytest.fixture(scope="module")
def fam(trained):
    return trained["cache_mode_throughput"]


def test_training_points_map_doc_001_tables(fam):
    pts = fam.training_points()
    assert len(pts) == 63  # Tables 1, 3, 4 (12 each) + Tables 2, 5, 6 (9 each)
    by_key = {p.key: p for p in pts}
    t207 = by_key["T2-07"]  # Bonnie++ sequential read, writeback, 1 VM
    assert t207.target == pytest.approx(618.881)
    assert t207.features["workload"] == "bonnie" and t207.features["cache_mode"] == "writeback"
    assert (t207.document, t207.locator) == (DOC, "Table 2")
    t403 = by_key["T4-03"]  # Postmark set 1 random read, none, 3 VMs
    assert t403.features == {"cache_mode": "none", "operation": "random_read", "workload": "postmark_set1",
                             "vms_per_host": 3.0, "host_ram_gib": 4.0, "vm_ram_gib": 1.0}
    assert t403.target == pytest.approx(1.89)
    assert by_key["T3-07"].features["workload"] == "postmark_set2"
    counts = {w: sum(p.features["workload"] == w for p in pts) for w in ("postmark_set1", "postmark_set2", "bonnie")}
    assert counts == {"postmark_set1": 18, "postmark_set2": 18, "bonnie": 27}
    assert "S5.1-01" not in by_key  # a ratio restating Table 2, not a throughput


def test_predictions_near_measured_points(fam):
    pts = fam.training_points()
    pred = fam.predict([p.features for p in pts])
    ape = np.abs(pred.mean - [p.target for p in pts]) / [p.target for p in pts]
    assert np.median(ape) < 0.15
    # a one-VM measurement is reproduced closely (it is also the group's cap)
    i = [p.key for p in pts].index("T1-01")
    assert pred.mean[i] == pytest.approx(59.77, rel=0.05)
    assert not pred.extrapolated.any()
    assert np.all(pred.low <= pred.mean) and np.all(pred.mean <= pred.high)
    assert (DOC, "Table 6") in pred.citations


def test_defaults_and_extrapolation(fam):
    pred = fam.predict([{"cache_mode": "none", "vms_per_host": 2, "operation": "random_read"},
                        {"cache_mode": "none", "vms_per_host": 6, "operation": "random_read"},
                        {"cache_mode": "none", "vms_per_host": 2, "operation": "random_read",
                         "workload": "bonnie"}])
    assert pred.unit == "MB/s"
    assert pred.extrapolated.tolist() == [False, True, True]
    # default workload for random operations is Postmark test set 1
    same = fam.predict([{"cache_mode": "none", "vms_per_host": 2, "operation": "random_read",
                         "workload": "postmark_set1"}])
    assert same.mean[0] == pytest.approx(pred.mean[0])


def test_unknown_level_is_an_input_error(fam):
    with pytest.raises(InputError, match="cache_mode"):
        fam.predict([{"cache_mode": "directsync", "vms_per_host": 1, "operation": "random_read"}])
    with pytest.raises(InputError, match="vms_per_host"):
        fam.predict([{"cache_mode": "none", "vms_per_host": 0.5, "operation": "random_read"}])


def test_page_cache_per_vm_physics():
    got = page_cache_per_vm(np.array([4.0, 4.0, 4.0, 4.0]), np.array([1.0] * 4), np.array([1.0, 2.0, 3.0, 8.0]))
    assert got[:3] == pytest.approx([3.0, 1.0, 1 / 3])
    assert got[3] == pytest.approx(0.05 / 8)  # more guests than RAM: floor


@settings(max_examples=60, deadline=None)
@given(mode=st.sampled_from(MODES),
       op_wl=st.sampled_from([("random_read", "postmark_set1"), ("random_write", "postmark_set2"),
                              ("sequential_read", "bonnie"), ("sequential_write", "bonnie"), ("rewrite", "bonnie")]),
       vms=st.floats(1, 64), extra=st.floats(0.01, 32), ram=st.floats(1, 512))
def test_more_vms_never_raise_per_vm_throughput(fam, mode, op_wl, vms, extra, ram):
    op, wl = op_wl
    q = {"cache_mode": mode, "operation": op, "workload": wl, "host_ram_gib": ram}
    pred = fam.predict([{**q, "vms_per_host": vms}, {**q, "vms_per_host": vms + extra}])
    assert pred.mean[1] <= pred.mean[0] * (1 + 1e-9)
    assert np.all(pred.mean > 0)


@settings(max_examples=30, deadline=None)
@given(mode=st.sampled_from(MODES), vms=st.floats(1, 16), ram=st.floats(1, 1024))
def test_never_above_the_one_vm_measurement(fam, mode, vms, ram):
    """Hardware limit: no VM is predicted faster than one VM alone measured on the testbed."""
    one = {p.features["cache_mode"]: p.target for p in fam.training_points()
           if p.features["operation"] == "sequential_read" and p.features["vms_per_host"] == 1}
    pred = fam.predict([{"cache_mode": mode, "operation": "sequential_read", "vms_per_host": vms,
                         "host_ram_gib": ram}])
    assert pred.mean[0] <= one[mode] + 1e-9


def test_calibration_transfers_mode_ratio_onto_site_disk(fam):
    """A site's figure replaces the testbed's disk (one 7200 rpm disk at the HDD defaults, 150 MB/s):
    every mode and VM count moves by site / testbed, the documents' ratios between them stay."""
    q = [{"cache_mode": "writeback", "vms_per_host": 2, "operation": "sequential_write"},
         {"cache_mode": "none", "vms_per_host": 1, "operation": "sequential_write"}]
    docs = fam.predict(q)
    site = fam.predict(q, calibration={"site": "lab", "seq_write_mib_s": 300.0})
    assert docs.basis == "documents" and site.basis == "site:lab"
    factor = 300.0 * 1.048576 / 150.0
    # none bypasses the host page cache: its figure is all disk path and moves by the whole factor
    assert site.mean[1] == pytest.approx(docs.mean[1] * factor)
    # the same as declaring that device as a feature: one mechanism
    feat = fam.predict([{**x, "disk_mb_s": 300.0 * 1.048576} for x in q])
    assert site.mean == pytest.approx(feat.mean)
    # no figure for the operation: the documents' numbers stay
    other = fam.predict(q, calibration={"site": "lab", "rand_read_iops": 1000})
    assert other.basis == "documents" and other.mean == pytest.approx(docs.mean)


def test_iops_calibration_uses_block_size(fam):
    """rand_read_iops at the query's block size against the testbed's 150 IOPS at that size; a MiB/s
    figure against the testbed's 150 IOPS times the block size."""
    q = [{"cache_mode": "none", "vms_per_host": 1, "operation": "random_read", "block_size_kib": 8}]
    docs = fam.predict(q).mean[0]
    assert fam.predict(q, calibration={"rand_read_iops": 1500}).mean[0] == pytest.approx(docs * 10)
    mib = 1500 * 8 / 1024  # the same device given as MiB/s at 8 KiB requests
    assert fam.predict(q, calibration={"rand_read_mib_s": mib}).mean[0] == pytest.approx(docs * 10)


def test_transfer_is_the_identity_on_the_testbeds_disk(fam):
    """disk_iops / disk_mb_s at the testbed's figures (one HDD at 150 and 150) give the documents'
    numbers back, every training row included."""
    pts = fam.training_points()
    plain = fam.predict([p.features for p in pts]).mean
    same = fam.predict([{**p.features, "disk_iops": 150.0, "disk_mb_s": 150.0} for p in pts]).mean
    assert same == pytest.approx(plain, rel=1e-12)


@settings(max_examples=40, deadline=None)
@given(mode=st.sampled_from(MODES), op=st.sampled_from(["random_read", "random_write", "sequential_read",
                                                         "sequential_write", "rewrite"]),
       vms=st.floats(1, 16), factor=st.floats(0.1, 3000), more=st.floats(1.0, 10.0))
def test_a_faster_disk_never_lowers_a_figure_and_moves_none_by_its_factor(fam, mode, op, vms, factor, more):
    """The disk path moves with the device; the page-cache path does not: a faster device never
    lowers any mode, and ``none`` (all disk path) moves by exactly the device's factor."""
    q = {"cache_mode": mode, "vms_per_host": vms, "operation": op}
    slow, fast = fam.predict([{**q, "disk_iops": 150 * factor, "disk_mb_s": 150 * factor},
                              {**q, "disk_iops": 150 * factor * more, "disk_mb_s": 150 * factor * more}]).mean
    assert fast >= slow * (1 - 1e-9)
    if mode == "none":
        assert fast == pytest.approx(slow * more, rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(mode=st.sampled_from(MODES), op=st.sampled_from(["random_read", "random_write", "sequential_read",
                                                         "sequential_write", "rewrite"]),
       vms=st.floats(1, 32), factor=st.floats(0.5, 5000), ram=st.floats(2, 1024), work=st.floats(0.05, 500),
       path=st.floats(0.01, 2000), stream=st.floats(1.0, 10.0))
def test_what_reaches_the_device_stays_within_its_share(fam, mode, op, vms, factor, ram, work, path, stream):
    """The physical bounds (disk_path_mb_s, stream_mb_s): a read of a cached mode serves its hit
    ratio h from the page cache and the rest within the device share (T <= path / (1 - h)); a
    read of ``none`` and every write of ``none``/``writethrough`` within the share at the request
    size; a ``writeback`` write within the streaming share. The interval's top too."""
    from advisor.models.cache_mode import hit_ratio

    q = {"cache_mode": mode, "vms_per_host": vms, "operation": op, "host_ram_gib": ram, "vm_ram_gib": 1.0,
         "working_set_gib": work, "disk_iops": 150 * factor, "disk_mb_s": 150 * factor,
         "disk_path_mb_s": path, "stream_mb_s": path * stream}
    pred = fam.predict([q])
    h = 0.0 if mode == "none" else float(hit_ratio(page_cache_per_vm(np.array(ram), np.array(1.0), np.array(vms)),
                                                   np.array(work), np.array(op.startswith("seq") or op == "rewrite")))
    if op.endswith("read"):
        limit = path if mode == "none" else (path / (1 - h) if h < 1 else np.inf)
    else:
        limit = path * stream if mode == "writeback" else path
    assert pred.mean[0] <= limit * (1 + 1e-9)
    assert pred.high[0] <= limit * (1 + 1e-9)


def test_the_page_cache_part_does_not_move_with_the_disk(fam):
    """A working set the page cache holds (h = 1): writeback reads come from host RAM; a thousand
    times the disk (within the same device share) does not multiply them (before, the disk ratio
    lifted the page-cache path too)."""
    q = {"cache_mode": "writeback", "vms_per_host": 2.0, "operation": "random_read", "host_ram_gib": 4.0,
         "vm_ram_gib": 1.0, "working_set_gib": 0.1, "disk_path_mb_s": 8.0, "stream_mb_s": 150.0}
    slow, fast = fam.predict([{**q, "disk_iops": 150.0, "disk_mb_s": 150.0},
                              {**q, "disk_iops": 150000.0, "disk_mb_s": 150000.0}]).mean
    assert fast == pytest.approx(slow, rel=1e-9)


def test_fresh_instance_from_points_matches(fam):
    again = CacheModeThroughput(points=fam.training_points()).fit()
    q = [{"cache_mode": "writethrough", "vms_per_host": 2.5, "operation": "rewrite"}]
    assert again.predict(q).mean == pytest.approx(fam.predict(q).mean)


@settings(max_examples=40, deadline=None)
@given(mode=st.sampled_from(MODES), vms=st.floats(1, 16), ram=st.floats(1, 256), more=st.floats(0.5, 256))
def test_more_host_ram_helps_only_the_cached_modes(fam, mode, vms, ram, more):
    q = {"cache_mode": mode, "operation": "random_read", "vms_per_host": vms}
    pred = fam.predict([{**q, "host_ram_gib": ram}, {**q, "host_ram_gib": ram + more}])
    if mode == "none":
        assert pred.mean[1] == pytest.approx(pred.mean[0])  # O_DIRECT: no host page cache
    else:
        assert pred.mean[1] >= pred.mean[0] * (1 - 1e-12)


def test_host_page_cache_is_the_physics_feature(fam):
    """The share of the benchmark's file the page cache per VM holds decides (doc 001 Sections 4-5):
    the 2 GiB Bonnie++ file does not fit 1 GiB per VM on the 4 GiB testbed but fits 7 GiB."""
    q = [{"cache_mode": "writeback", "operation": "sequential_read", "vms_per_host": 2, "host_ram_gib": r}
         for r in (4, 16)]
    pred = fam.predict(q)
    assert pred.mean[1] > 3 * pred.mean[0]
    assert pred.extrapolated.tolist() == [False, True]  # 16 GB: page cache per VM beyond the testbed's
    # Postmark set 2's 0.76 GiB pool fits the 1 GiB per VM of two VMs on 4 GiB: more RAM no longer
    # helps; with 3 GiB (0.5 GiB per VM) it does not fit, and the VMs are slower
    q = [{"cache_mode": "writeback", "operation": "random_read", "workload": "postmark_set2", "vms_per_host": 2,
          "host_ram_gib": r} for r in (3, 4, 16)]
    short, fits, more = fam.predict(q).mean
    assert short < 0.95 * fits and more == pytest.approx(fits)
    # a working set that fits the page cache is served from it; one that does not, from the disk
    q = [{"cache_mode": "writeback", "operation": "sequential_read", "vms_per_host": 2, "working_set_gib": w}
         for w in (0.5, 2.0, 8.0)]
    small, testbed, large = fam.predict(q).mean
    assert small > 3 * testbed and large <= testbed


def test_the_one_vm_sequential_reads_are_reproduced(fam):
    """Defect: writeback/writethrough sequential read at 1 VM were predicted 272.9 [220, 381] and 202.3
    MB/s (measured 618.9 and 584.5, doc 001 rows T2-07, T2-08), 2 VMs 70.6 (36.45, T5-07)."""
    keys = {"T2-07": 618.881, "T2-08": 584.503, "T5-07": 36.45, "T5-08": 32.35, "T6-07": 23.9}
    by_key = {p.key: p for p in fam.training_points()}
    pred = fam.predict([by_key[k].features for k in keys])
    for (key, y), m, lo, hi in zip(keys.items(), pred.mean, pred.low, pred.high, strict=True):
        # T5-08 (writethrough, 2 VMs) within 12 %: it is kept above none's 2-VM figure (34 MB/s, the
        # model's) by the smallest ratio Tables 2, 5 and 6 measured (writethrough reads faster in each)
        assert m == pytest.approx(y, rel=0.12 if key == "T5-08" else 0.1), key
        assert lo <= y <= hi, key
    assert not pred.extrapolated.any()
    # the x17 drop from one to two VMs (the file stops fitting the page cache)
    assert pred.mean[0] / pred.mean[2] > 10


def test_intervals_contain_most_training_points(fam):
    pts = fam.training_points()
    pred = fam.predict([p.features for p in pts])
    y = np.array([p.target for p in pts])
    assert np.mean((pred.low <= y) & (y <= pred.high)) >= 0.9


def test_bad_inputs_are_input_errors_naming_the_feature(fam):
    q = {"cache_mode": "writeback", "vms_per_host": 2, "operation": "random_read"}
    for bad, feature in (({"vm_ram_gib": -1}, "vm_ram_gib"), ({"host_ram_gib": -4}, "host_ram_gib"),
                         ({"host_ram_gib": 0}, "host_ram_gib"), ({"workload": "bogus"}, "workload"),
                         ({"working_set_gib": 0}, "working_set_gib"), ({"host_ram_gib": float("nan")}, "host_ram_gib"),
                         ({"host_ram_gib": "lots"}, "host_ram_gib")):
        with pytest.raises(InputError, match=feature) as err:
            fam.predict([{**q, **bad}])
        assert "cache_mode_throughput" in str(err.value)
    with pytest.raises(InputError, match="block_size_kib"):
        fam.predict([{**q, "block_size_kib": 0}], calibration={"rand_read_iops": 1000})


@pytest.mark.parametrize("value", [-5, 0, "abc", float("nan"), float("inf")])
def test_calibration_values_are_checked(fam, value):
    q = [{"cache_mode": "none", "vms_per_host": 1, "operation": "sequential_read"}]
    with pytest.raises(InputError, match="seq_read_mib_s"):
        fam.predict(q, calibration={"site": "x", "seq_read_mib_s": value})


def test_calibrated_interval_keeps_the_documents_relative_width(fam):
    q = [{"cache_mode": "none", "vms_per_host": 1, "operation": "sequential_read"},
         {"cache_mode": "writeback", "vms_per_host": 2, "operation": "sequential_read"}]
    docs = fam.predict(q)
    site = fam.predict(q, calibration={"site": "x", "seq_read_mib_s": 21.29})
    assert site.mean[0] == pytest.approx(docs.mean[0] * 21.29 * 1.048576 / 150.0)
    assert np.all(site.low < site.mean) and np.all(site.mean < site.high)
    assert site.low / site.mean == pytest.approx(docs.low / docs.mean)
    assert site.high / site.mean == pytest.approx(docs.high / docs.mean)


def test_unmeasured_workload_falls_back_to_the_operations_default(fam):
    pred = fam.predict([{"cache_mode": "writeback", "vms_per_host": 2, "operation": "sequential_read",
                         "workload": "postmark_set2"},
                        {"cache_mode": "writeback", "vms_per_host": 2, "operation": "sequential_read"}])
    assert pred.mean[0] == pytest.approx(pred.mean[1])
    assert pred.extrapolated.tolist() == [True, False]


@pytest.mark.parametrize(("table", "faster", "slower", "ops"), [
    ("T1", "none", "writethrough", ("random_read", "random_write")),                      # Postmark, one VM
    ("T2", "none", "writethrough", ("rewrite",)),                                          # Bonnie++, one VM
    ("T2", "writeback", "writethrough", ("sequential_read", "rewrite")),
    ("T5", "writethrough", "none", ("sequential_read",)),                                  # Bonnie++, two VMs
    # the 2 GiB Bonnie++ file fits one VM's page cache, not two VMs': writeback's rewrite, below none's
    # at two and three VMs, is above it at one (a ratio measured with less page cache caps nothing)
    ("T2", "writeback", "none", ("rewrite",)),
    ("T6", "writeback", "writethrough", ("sequential_read",)),                             # three VMs
])
def test_held_out_tables_keep_the_documents_order_of_modes(fam, table, faster, slower, ops):
    """Defect (issue #28): refitted without a table's own rows, the model ranked the modes against
    the table (Table 1: writethrough above none, 7.68 against 3.34 MB/s; Table 2 rewrite: all
    three at the 150 MB/s disk; Table 5 reads: none above writethrough). The ratio of a mode to its
    reference, measured at the other VM counts, now keeps the order."""
    pts = fam.training_points()
    rest = CacheModeThroughput(points=[p for p in pts if not p.key.startswith(table + "-")]).fit()
    own = [p for p in pts if p.key.startswith(table + "-") and p.features["operation"] in ops]
    assert own
    for p in own:
        if p.features["cache_mode"] != faster:
            continue
        q = dict(p.features)
        got = rest.predict([q, {**q, "cache_mode": slower}]).mean
        measured = {x.features["cache_mode"]: x.target for x in own if x.features["operation"] == q["operation"]
                    and x.features["workload"] == q["workload"]}
        assert measured[faster] > measured[slower]  # the document's order
        assert got[0] > got[1], (p.key, got)


def test_a_postmark_write_is_its_read_times_one_ratio_in_every_mode(fam):
    """Postmark reports one run's read and write rates (doc 001 Tables 1, 3, 4: write / read 1.16-1.17
    in every mode): a point left out of one mode is pinned by its pair and the other modes."""
    pts = [p for p in fam.training_points() if p.key != "T1-07"]  # writeback, set 2, random read, 1 VM
    left = CacheModeThroughput(points=pts).fit()
    for n in (1.0, 2.0, 3.0):
        q = [{"cache_mode": m, "vms_per_host": n, "operation": op, "workload": "postmark_set2"}
             for m in MODES for op in ("random_read", "random_write")]
        mean = left.predict(q).mean.reshape(len(MODES), 2)
        ratio = mean[:, 1] / mean[:, 0]
        assert ratio == pytest.approx(np.full(len(MODES), ratio[0]), rel=0.02), (n, ratio)
    t107 = next(p for p in fam.training_points() if p.key == "T1-07")
    got = left.predict([t107.features]).mean[0]
    in_sample = fam.predict([t107.features]).mean[0]
    assert got > 0.8 * in_sample and got > 0.6 * t107.target  # 16.8 of 26.83 MB/s; without the tie 12.4


def test_a_rewrite_is_never_faster_than_its_read_and_write_in_turn(fam):
    """Physics (a rewrite reads each block and writes it back): at most 1 / (1/read + 1/write) of the
    same mode and configuration. Defect (issue #28): held out, Table 2's one-VM writeback rewrite was
    predicted at the 150 MB/s disk, interval [90, 150] MB/s, measured 42.7 (row T2-04)."""
    pts = fam.training_points()
    rest = CacheModeThroughput(points=[p for p in pts if not p.key.startswith("T2-")]).fit()
    for model in (fam, rest):
        for mode in MODES:
            for vms in (1.0, 2.0, 3.0, 6.0):
                q = {"cache_mode": mode, "vms_per_host": vms}
                rw, r, w = model.predict([{**q, "operation": o} for o in ("rewrite", "sequential_read",
                                                                          "sequential_write")]).mean
                assert rw <= 1.0 / (1.0 / r + 1.0 / w) * (1 + 1e-9), (mode, vms)
    t204 = next(p for p in pts if p.key == "T2-04")
    pred = rest.predict([t204.features])
    assert pred.low[0] <= t204.target <= pred.high[0]
