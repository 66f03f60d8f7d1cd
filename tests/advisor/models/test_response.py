"""request_response_time (doc 004 chapter 5): below the lightest load measured, the interval is the
monotone bound, not the extrapolated band around a curve fitted elsewhere."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.timeout(60)


def test_below_the_lightest_load_the_interval_is_zero_to_the_figure_there(trained):
    fam = trained["request_response_time"]
    pts = fam.training_points()
    heavy = [p for p in pts if p.features["load_per_vcpu"] > 100]  # the held-out replay leaves Figure 5.11 out
    left = type(fam)(points=heavy).fit()
    lightest = min(p.features["load_per_vcpu"] for p in heavy)
    q = [{"hypervisor": h, "load_per_vcpu": 100.0 / 6} for h in ("kvm", "vmware esxi", "xenserver")]
    pred = left.predict(q)
    edge = left.predict([{**x, "load_per_vcpu": lightest} for x in q])
    assert pred.extrapolated.all() and np.all(pred.low == 0.0)
    assert pred.high == pytest.approx(edge.mean * np.exp(left._log_hi))
    assert np.all(pred.high <= edge.high)  # never above the interval at the lightest load
    light = {p.features["hypervisor"]: p.target for p in pts if p.features["load_per_vcpu"] < 100}
    assert all(pred.low[i] <= light[h] <= pred.high[i] for i, h in enumerate(("kvm", "vmware esxi", "xenserver")))
    inside = left.predict([{"hypervisor": "kvm", "load_per_vcpu": 400.0}])
    assert inside.low[0] > 0  # within the measured loads: the calibrated band
