"""image_transfer_time: the doc 000 ratio rows and the link-rate floor."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knowledge.infra.errors import InputError

DOC = "000_e535415c79727fe1"


@pytest.fixture(scope="module")
def fam(trained):
    return trained["image_transfer_time"]


def test_training_points_are_the_figure_3_ratios(fam):
    pts = {p.key: p for p in fam.training_points()}
    assert set(pts) == {"F3-01", "F3-02"}
    assert pts["F3-02"].target == pytest.approx(1 / 0.54)  # GridFTP cuts the time by 46 %
    assert pts["F3-01"].target == pytest.approx(2.0)       # nearly twice as fast
    assert all(p.document == DOC and p.locator == "Figure 3" for p in pts.values())


def test_scp_is_the_measured_ratio_slower_than_gridftp(fam):
    pred = fam.predict([{"image_size_gb": 6, "protocol": "scp"}, {"image_size_gb": 6, "protocol": "gridftp"}])
    ratio = np.exp(np.mean(np.log([1 / 0.54, 2.0])))
    assert pred.mean[0] / pred.mean[1] == pytest.approx(ratio)
    # GridFTP at the TCP goodput of the 1 Gb/s link (1448 data bytes per 1538 bytes of line time)
    assert pred.mean[1] == pytest.approx(6 * 8 / 1.0 * 1538 / 1448)
    assert pred.unit == "s" and not pred.extrapolated.any()


def test_extrapolation_outside_3_to_21_gb_and_other_links(fam):
    """Doc 000 Section 4.3 swept 3 to 21 GB in steps of 3 (row S4.3-01's range): a 20 GB image is
    inside it (issue 28: it was flagged against 12, the row's middle value)."""
    pred = fam.predict([{"image_size_gb": 2, "protocol": "scp"}, {"image_size_gb": 12, "protocol": "scp"},
                        {"image_size_gb": 20, "protocol": "gsiftp"}, {"image_size_gb": 21, "protocol": "scp"},
                        {"image_size_gb": 22, "protocol": "scp"},
                        {"image_size_gb": 6, "protocol": "scp", "link_gbps": 10}])
    assert pred.extrapolated.tolist() == [True, False, False, False, True, True]


def test_unknown_protocol_is_an_input_error(fam):
    with pytest.raises(InputError, match="scp"):
        fam.predict([{"image_size_gb": 1, "protocol": "bittorrent"}])


@settings(max_examples=80, deadline=None)
@given(size=st.floats(0.01, 500), link=st.floats(0.1, 100), proto=st.sampled_from(["scp", "gsiftp", "gridftp"]),
       rate=st.none() | st.floats(1, 5000))
def test_never_faster_than_the_link(fam, size, link, proto, rate):
    cal = None if rate is None else {"scp_mb_s": rate}
    pred = fam.predict([{"image_size_gb": size, "protocol": proto, "link_gbps": link}], calibration=cal)
    floor = size * 1e9 / (link * 1e9 / 8)  # bytes / (bytes per second)
    assert pred.mean[0] >= floor * (1 - 1e-12)
    assert pred.low[0] >= floor * (1 - 1e-12)


def test_calibration_uses_the_site_copy_rate(fam):
    q = [{"image_size_gb": 6, "protocol": "scp"}, {"image_size_gb": 6, "protocol": "gsiftp"}]
    site = fam.predict(q, calibration={"site": "lab", "scp_mb_s": 40.0})
    assert site.basis == "site:lab"
    assert site.mean[0] == pytest.approx(6000 / 40.0)
    assert site.mean[0] / site.mean[1] == pytest.approx(fam._core["factor"]["scp"])


@pytest.mark.parametrize("value", [0, -5, "fast", float("inf")])
def test_site_copy_rate_is_checked(fam, value):
    """Defect: scp_mb_s=0 gave an infinite transfer time."""
    with pytest.raises(InputError, match="image_transfer_time.*scp_mb_s"):
        fam.predict([{"image_size_gb": 6, "protocol": "scp"}], calibration={"scp_mb_s": value})


def test_gridftp_is_above_the_line_rate_floor_and_bounded_by_the_disk(fam):
    """Defect (issue #28): the GridFTP estimate was the line-rate floor itself, though doc 000 Figure
    3(b) says neither protocol reaches line rate. It now moves at the TCP goodput over the link, or at
    the destination disk's write rate when that is slower (never below either's floor)."""
    q = {"image_size_gb": 12.0, "protocol": "gridftp", "link_gbps": 1.0}
    link, slow_disk, fast_disk = fam.predict([q, {**q, "disk_mb_s": 60.0}, {**q, "disk_mb_s": 500.0}]).mean
    floor = 12.0 * 8 / 1.0
    assert floor < link < 1.1 * floor
    assert slow_disk == pytest.approx(12.0 * 1000 / 60.0)  # the disk's own rate, no TCP framing on it
    assert fast_disk == pytest.approx(link)
    ten = fam.predict([{**q, "link_gbps": 10.0, "disk_mb_s": 150.0}])
    assert ten.mean[0] == pytest.approx(12.0 * 1000 / 150.0) and ten.low[0] >= 12.0 * 1000 / 150.0 * (1 - 1e-12)
