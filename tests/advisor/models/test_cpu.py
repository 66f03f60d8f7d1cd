"""cpu_utilization, container_cpu, container_latency: doc 004 Table 9.2 rows, bounds, load monotonicity."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knowledge.errors import InputError

DOC = "004_938d241a6a4af83f"


@pytest.fixture(scope="module")
def cpu(trained):
    return trained["cpu_utilization"]


def test_table_9_2_mapping(cpu, trained):
    pts = {p.key: p for p in cpu.training_points()}
    assert len(pts) == 27  # 3 platforms x 3 workloads x replication factor 1, 2, 3
    p = pts["c9-139"]  # server CPU, VMware ESXi, mix load, RF 3
    assert p.target == 84.0 and (p.document, p.locator) == (DOC, "Table 9.2")
    # chapter 9's tps_limit is the family's load
    assert p.features == {"hypervisor": "vmware esxi", "workload": "mix", "replication_factor": 3.0, "load": 80000.0}
    assert pts["c9-100"].features["load"] == 20000.0 and pts["c9-100"].target == 12.0
    ccpu = {p.key: p for p in trained["container_cpu"].training_points()}
    assert ccpu["c9-139"].features["platform"] == "vm" and ccpu["c9-079"].features["platform"] == "docker"
    lat = {p.key: p for p in trained["container_latency"].training_points()}
    assert len(lat) == 27 and lat["c9-141"].target == 5.45


def test_predictions_near_measured_points(cpu, trained):
    for fam, tol in ((cpu, 0.1), (trained["container_latency"], 0.2)):
        pts = fam.training_points()
        pred = fam.predict([p.features for p in pts])
        y = np.array([p.target for p in pts])
        assert np.median(np.abs(pred.mean - y) / y) < tol
        assert not pred.extrapolated.any()


def test_hypervisor_ordering_matches_table_9_2(cpu):
    q = [{"hypervisor": h, "load": 60000, "workload": "read", "replication_factor": 2}
         for h in ("native", "Docker", "VMware ESXi")]
    native, docker, vmware = cpu.predict(q).mean
    assert native < docker < vmware


def test_analog_hypervisors_are_extrapolated(cpu):
    pred = cpu.predict([{"hypervisor": "KVM", "load": 60000, "workload": "read"},
                        {"hypervisor": "VMware ESXi", "load": 60000, "workload": "read"}])
    assert pred.extrapolated.tolist() == [True, False]
    assert pred.mean[0] == pytest.approx(pred.mean[1])
    with pytest.raises(InputError, match="hypervisor"):
        cpu.predict([{"hypervisor": "Hyper-V", "load": 1000}])


@settings(max_examples=80, deadline=None)
@given(hyp=st.sampled_from(["native", "Docker", "VMware ESXi", "KVM"]), wl=st.sampled_from(["mix", "read", "write"]),
       rf=st.sampled_from([1, 2, 3]), load=st.floats(0, 1e6), extra=st.floats(0, 1e6),
       cores=st.none() | st.floats(1, 256))
def test_utilization_monotone_in_load_and_within_0_100(cpu, hyp, wl, rf, load, extra, cores):
    q = {"hypervisor": hyp, "workload": wl, "replication_factor": rf}
    if cores is not None:
        q["physical_cores"] = cores
    pred = cpu.predict([{**q, "load": load}, {**q, "load": load + extra}])
    assert pred.mean[1] >= pred.mean[0]
    for arr in (pred.mean, pred.low, pred.high):
        assert np.all((arr >= 0) & (arr <= 100))


def test_more_cores_lower_utilization(cpu):
    pred = cpu.predict([{"hypervisor": "native", "load": 40000, "physical_cores": c} for c in (16, 32)])
    assert pred.mean[1] == pytest.approx(pred.mean[0] / 2)
    assert pred.extrapolated.tolist() == [False, True]


def test_calibration_keeps_the_platform_to_native_ratio(cpu):
    q = [{"hypervisor": "VMware ESXi", "load": 40000, "workload": "mix"},
         {"hypervisor": "native", "load": 40000, "workload": "mix"}]
    docs = cpu.predict(q)
    site = cpu.predict(q, calibration={"site": "dc1", "native_cpu_percent": 10.0, "native_load": 40000})
    assert site.basis == "site:dc1"
    assert site.mean[1] == pytest.approx(10.0)
    assert site.mean[0] / site.mean[1] == pytest.approx(docs.mean[0] / docs.mean[1])


def test_container_cpu_defaults_to_table_rate(trained):
    fam = trained["container_cpu"]
    a = fam.predict([{"platform": "docker", "workload": "write"}])
    b = fam.predict([{"platform": "docker", "workload": "write", "load": 20000, "replication_factor": 3}])
    assert a.mean == pytest.approx(b.mean)
    assert 20 <= a.mean[0] <= 32  # Table 9.2: Docker, write, RF 3 measured 26 %
