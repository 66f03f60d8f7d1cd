"""block_size_throughput: the doc 003 ratio rows and the request-cost physics."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knowledge.infra.errors import InputError

DOC = "003_df7033d90e434637"
HDD = {"disk_iops": 150.0, "disk_mb_s": 150.0}


@pytest.fixture(scope="module")
def fam(trained):
    return trained["block_size_throughput"]


def test_training_points_are_the_vm_vs_native_rows(fam, session_kb):
    pts = {p.key.split("+")[0]: p for p in fam.training_points()}
    assert set(pts) == {"F4c-02", "F4c-03", "F4b-02"}
    gap = session_kb.get("003", "F4c-02").value                     # -32 %
    assert pts["F4c-02"].target == pytest.approx(1 + gap / 100)
    assert pts["F4b-02"].target == 1.0                               # parity from 1 MB requests
    assert pts["F4b-02"].features["block_size_kib"] == pytest.approx(1e6 / 1024)
    assert (DOC, "Figure 4(c)") in fam.citations() and (DOC, "Section II.D") in fam.citations()


def test_sequential_vm_reads_lose_the_measured_gap_at_small_requests(fam, session_kb):
    gap = 1 + session_kb.get("003", "F4c-03").value / 100
    q = [{"block_size_kib": b, "access_pattern": "sequential", **HDD} for b in (4000 / 1024, 64, 1024)]
    pred = fam.predict(q + [{"block_size_kib": 4, "access_pattern": "sequential", "platform": "native", **HDD}])
    assert pred.mean[0] == pytest.approx(150 * gap)
    assert 150 * gap < pred.mean[1] < 150
    assert pred.mean[2] == pytest.approx(150) and pred.mean[3] == pytest.approx(150)
    # between the two measurements the interval spans both
    assert pred.low[1] <= 150 * gap + 1e-9 and pred.high[1] == pytest.approx(150)
    assert pred.unit == "MB/s"


def test_random_reads_follow_the_disk_service_time(fam):
    pred = fam.predict([{"block_size_kib": b, "access_pattern": "random", "record_kib": 4, **HDD}
                        for b in (4, 64, 256)])
    # one positioning (1/150 s) plus the transfer of the whole request; 4 KiB of it is useful
    expect = [4 * 1024 / (1 / 150 + b * 1024 / 150e6) / 1e6 for b in (4, 64, 256)]
    assert pred.mean == pytest.approx(expect)
    assert np.all(np.diff(pred.mean) < 0)  # Section II.D: larger blocks hurt reads without locality
    # the default record is the No_Locality block of row SII.D-03, 4 KB (10^3 B)
    default = fam.predict([{"block_size_kib": 64, "access_pattern": "random", **HDD}]).mean[0]
    assert default == pytest.approx(4000 / (1 / 150 + 64 * 1024 / 150e6) / 1e6)


def test_requests_smaller_than_the_record_never_exceed_the_device_iops(fam):
    """Review item 3: a workload with 50 KiB records asked at 4 KiB requests on one 150-IOPS HDD
    read 7.31 MB/s (1,784 IOPS of 4 KiB): each small request counted the whole record as read.
    Now a request reads at most its own size: at most 150 x 4 KiB per second."""
    pred = fam.predict([{"block_size_kib": b, "access_pattern": "random", "record_kib": 50.0, **HDD}
                        for b in (4, 64, 1024)])
    assert pred.mean[0] <= 150 * 4 * 1024 / 1e6 * (1 + 1e-9) and pred.high[0] <= 150 * 4 * 1024 / 1e6 * (1 + 1e-9)
    assert pred.mean[0] == pytest.approx(4 * 1024 / (1 / 150 + 4 * 1024 / 150e6) / 1e6)
    assert np.all(pred.high <= 150 * 50 * 1024 / 1e6 * (1 + 1e-9))


@settings(max_examples=80, deadline=None)
@given(pattern=st.sampled_from(["random", "sequential"]), b=st.floats(0.5, 8192), step=st.floats(0, 4096),
       iops=st.floats(50, 1e6), rate=st.floats(10, 7000), platform=st.sampled_from(["vm", "native"]))
def test_monotone_in_the_request_size_and_within_the_disk(fam, pattern, b, step, iops, rate, platform):
    q = {"access_pattern": pattern, "disk_iops": iops, "disk_mb_s": rate, "platform": platform}
    pred = fam.predict([{**q, "block_size_kib": b}, {**q, "block_size_kib": b + step}])
    record = 4000 / 1024
    for i, size in enumerate((b, b + step)):  # a random request serves at most its useful part per positioning
        top = rate if pattern == "sequential" else min(min(size, record) * 1024 * iops / 1e6, rate)
        assert pred.high[i] <= top * (1 + 1e-9) and pred.mean[i] <= top * (1 + 1e-9)
    if pattern == "random":
        if b >= record:  # from the record size on, a larger request only wastes
            assert pred.mean[1] <= pred.mean[0] * (1 + 1e-12)
    else:
        assert pred.mean[1] >= pred.mean[0] * (1 - 1e-12)


def test_extrapolation_flags(fam):
    pred = fam.predict([{"block_size_kib": 4, "access_pattern": "random", **HDD},
                        {"block_size_kib": 256, "access_pattern": "random", **HDD},
                        {"block_size_kib": 1024, "access_pattern": "random", **HDD},
                        {"block_size_kib": 4, "access_pattern": "random", "disk_iops": 50000, "disk_mb_s": 500},
                        {"block_size_kib": 1, "access_pattern": "sequential", **HDD},
                        {"block_size_kib": 4096, "access_pattern": "sequential", **HDD}])
    assert pred.extrapolated.tolist() == [False, False, True, True, True, False]


def test_input_errors(fam):
    with pytest.raises(InputError, match="required"):
        fam.predict([{"block_size_kib": 4, "access_pattern": "random", "disk_mb_s": 100}])
    with pytest.raises(InputError, match="access_pattern"):
        fam.predict([{"block_size_kib": 4, "access_pattern": "mixed", **HDD}])
