"""cpu_utilization, container_cpu, container_latency: doc 004 Table 9.2 rows, bounds, load monotonicity."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knowledge.infra.errors import InputError

DOC = "004_938d241a6a4af83f"


@pytest.fixture(scope="module")
def cpu(trained):
    return trained["cpu_utilization"]


def test_table_9_2_mapping(cpu, trained):
    pts = {p.key: p for p in cpu.training_points()}
    # Table 9.2: 3 platforms x 3 workloads x replication factor 1, 2, 3; chapter 7: 3 hosts x 3 loads in
    # each of Tables 7.2, 7.4, 7.8, 7.10 (test case 3's six-VM hosts left out)
    assert len(pts) == 63
    assert sum(p.locator == "Table 7.2" for p in pts.values()) == 9
    assert {p.locator for p in pts.values()} == {"Table 9.2", "Table 7.2", "Table 7.4", "Table 7.8", "Table 7.10"}
    assert pts["c7-T7.2-05"].features == {"hypervisor": "vmware esxi", "workload": "telecom",
                                         "replication_factor": 1.0, "load": 500.0}
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


def test_container_latency_has_a_platform_replication_term(trained):
    """Defect: vm, mix, RF 3 was predicted 3.52 ms [2.87, 4.64], measured 5.45 (doc 004 row c9-141); RF 2
    2.9 against 4.4 (c9-114). VMware's mixed load pays for replicas far more than the others."""
    fam = trained["container_latency"]
    pred = fam.predict([{"platform": "vm", "workload": "mix", "replication_factor": rf} for rf in (1, 2, 3)])
    assert pred.mean[2] == pytest.approx(5.45, rel=0.1) and pred.low[2] <= 5.45 <= pred.high[2]
    assert pred.mean[1] == pytest.approx(4.4, rel=0.15)
    assert np.all(np.diff(pred.mean) > 0)
    native = fam.predict([{"platform": "native", "workload": "mix", "replication_factor": rf} for rf in (1, 3)])
    assert pred.mean[2] / pred.mean[0] > 1.5 * native.mean[1] / native.mean[0]


def test_hypervisor_ordering_matches_table_9_2(cpu):
    q = [{"hypervisor": h, "load": 60000, "workload": "read", "replication_factor": 2}
         for h in ("native", "Docker", "VMware ESXi")]
    native, docker, vmware = cpu.predict(q).mean
    assert native < docker < vmware


def test_analog_hypervisors_are_extrapolated(cpu):
    pred = cpu.predict([{"hypervisor": "KVM", "load": 60000, "workload": "read"},
                        {"hypervisor": "VMware ESXi", "load": 60000, "workload": "read"}])
    assert pred.extrapolated.tolist() == [True, False]
    with pytest.raises(InputError, match="hypervisor"):
        cpu.predict([{"hypervisor": "Hyper-V", "load": 1000}])


def test_three_hypervisors_differ_as_chapter_5_says(cpu):
    """Defect: XenServer got VMware's figures. Doc 004 Figure 5.12 (source hosts before migration: KVM
    26 %, VMware 20 %, XenServer 34 %), Figure 5.4 (XenServer +20 %) and Section 5.6 (XenServer the
    highest): at a load where none saturates, VMware < KVM < XenServer, and Xen = XenServer."""
    hyps = ("native", "VMware ESXi", "KVM", "XenServer", "Xen")
    pred = cpu.predict([{"hypervisor": h, "load": 20000, "workload": "write", "replication_factor": 1}
                        for h in hyps])
    native, vmware, kvm, xenserver, xen = pred.mean
    assert native < vmware < kvm < xenserver and xen == pytest.approx(xenserver)
    assert kvm / vmware == pytest.approx(np.sqrt(26 / 20), rel=0.05)
    assert xenserver / vmware == pytest.approx(np.sqrt(34 / 20 * 1.2), rel=0.05)
    assert pred.extrapolated.tolist() == [False, False, True, True, True]
    assert (DOC, "Figure 5.12") in pred.citations and (DOC, "Section 5.6") in pred.citations


def test_vmware_mix_at_rf_3_is_not_clipped_at_100(cpu):
    """Defect: VMware ESXi, mix, RF 3, 80k tps was predicted 105 % clipped to 100 [84.3, 100]; 84 %
    was measured (doc 004 row c9-139). The fitted ceiling (doc 004 Section 6.4 saw 82 %) holds it."""
    pred = cpu.predict([{"hypervisor": "VMware ESXi", "workload": "mix", "replication_factor": 3, "load": 80000}])
    assert pred.mean[0] == pytest.approx(84.0, rel=0.05)
    assert pred.low[0] <= 84.0 <= pred.high[0] and pred.high[0] <= 100
    assert not pred.extrapolated[0]


def test_idle_floor_where_table_7_2_shows_it(cpu):
    """Defect: "CPU proportional to load" against doc 004 Table 7.2 (VMware 300/500/700 req/s ->
    27/38/49 %, about 10 % at zero load). The VMware curve has an intercept, bare metal none."""
    loads = (0.0, 300.0, 500.0, 700.0)
    pred = cpu.predict([{"hypervisor": "VMware ESXi", "workload": "telecom", "load": x} for x in loads])
    zero, *measured = pred.mean
    assert measured == pytest.approx([27, 38, 49], rel=0.05)
    assert 5 <= zero <= 15
    assert pred.extrapolated.tolist() == [True, False, False, False]
    native = cpu.predict([{"hypervisor": "native", "workload": "mix", "load": 0.0}])
    assert native.mean[0] == pytest.approx(0.0)


def test_load_range_is_per_workload(cpu):
    """Defect: mix only ran at 80k tps (Table 9.2), so mix at 20k is extrapolated though write ran at 20k."""
    pred = cpu.predict([{"hypervisor": "native", "workload": w, "load": x}
                        for w, x in (("mix", 20000), ("write", 20000), ("mix", 80000), ("read", 80000))])
    assert pred.extrapolated.tolist() == [True, False, False, True]


def test_bad_inputs_are_input_errors(cpu):
    q = {"hypervisor": "native", "workload": "mix"}
    with pytest.raises(InputError, match="cpu_utilization.*load"):
        cpu.predict([{**q, "load": float("nan")}])
    with pytest.raises(InputError, match="cpu_utilization.*load"):
        cpu.predict([{**q, "load": -1}])
    with pytest.raises(InputError, match="cpu_utilization.*workload"):
        cpu.predict([{**q, "workload": "bogus"}])
    with pytest.raises(InputError, match="physical_cores"):
        cpu.predict([{**q, "physical_cores": 0}])
    # absent (None in a row) still means "the workload's rate"
    a = cpu.predict([{**q, "load": None}, {**q, "load": 80000}])
    assert a.mean[0] == pytest.approx(a.mean[1])


@pytest.mark.parametrize("cal", [{"native_cpu_percent": 10, "native_load": 0},
                                 {"native_cpu_percent": -1, "native_load": 1000},
                                 {"native_cpu_percent": "abc", "native_load": 1000}])
def test_calibration_values_are_checked(cpu, cal):
    with pytest.raises(InputError, match="calibration"):
        cpu.predict([{"hypervisor": "native", "load": 40000}], calibration=cal)


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
    pred = cpu.predict([{"hypervisor": "native", "workload": "write", "load": 20000, "physical_cores": c}
                        for c in (16, 32)])
    assert pred.mean[1] == pytest.approx(pred.mean[0] / 2, rel=1e-3)  # far below the ceiling: linear
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


def test_a_platform_at_a_replication_factor_it_never_ran_is_an_extrapolation(trained):
    """The held-out replay leaves Table 9.2's RF 1 runs of Docker and VMware out: their RF 1 figure
    then rests on bare metal's replication slope, flagged and given the wider band."""
    fam = trained["container_cpu"]
    q = [{"platform": p, "workload": "write", "replication_factor": 1} for p in ("docker", "vm", "native")]
    assert not fam.predict(q).extrapolated.any()
    keep = [p for p in fam.training_points()
            if not (p.features.get("platform") in ("docker", "vm") and p.features.get("replication_factor") == 1.0)]
    assert len(keep) < len(fam.training_points())
    left = type(fam)(points=keep).fit()
    pred = left.predict(q)
    assert pred.extrapolated.tolist() == [True, True, False]
    rel = pred.low / pred.mean
    assert rel[0] < rel[2]


def test_a_replication_factor_never_run_gets_the_band_of_each_factor_left_out(trained):
    """What such a query extrapolates over is the replication factor: its band is calibrated on each
    factor's Cassandra runs predicted by the model fitted without them (never narrower than the
    interpolation band), not the interpolation band doubled; another extrapolation (an analog
    hypervisor) keeps the doubled band. Held out (RF 1 of Docker and VMware left out), the VMware write
    run at RF 1 (24 %, row c9-103) lies within: predicting a factor from the others over-predicts
    by up to a quarter, and the doubled band reached 16 % below."""
    from advisor.models import conformal

    fam = trained["cpu_utilization"]
    keep = [p for p in fam.training_points() if not (p.features["hypervisor"] in ("docker", "vmware esxi")
                                                       and p.features["workload"] != "telecom"
                                                       and p.features["replication_factor"] == 1.0)]
    assert len(keep) == len(fam.training_points()) - 6
    left = type(fam)(points=keep).fit()
    folds: dict[float, list[int]] = {}
    for i, p in enumerate(keep):
        if p.features["workload"] != "telecom":
            folds.setdefault(p.features["replication_factor"], []).append(i)
    lo, hi = conformal.band(conformal.held_out_residuals(keep, list(folds.values()), left._fit_core,
                                                         left.predict_points))
    assert left._rf_band == (min(lo, left._log_lo), max(hi, left._log_hi)) != (left._ext_lo, left._ext_hi)
    q = {"hypervisor": "VMware ESXi", "workload": "write", "replication_factor": 1, "load": 20000}
    pred = left.predict([q, {**q, "hypervisor": "KVM", "replication_factor": 2}])
    assert pred.extrapolated.all()
    assert pred.low[0] / pred.mean[0] == pytest.approx(np.exp(left._rf_band[0]))
    assert pred.low[1] / pred.mean[1] == pytest.approx(np.exp(left._ext_lo))
    assert pred.low[0] <= 24.0 <= pred.high[0]


def test_latency_at_a_replication_factor_never_run_gets_the_factor_band(trained):
    """container_latency the same way: held out (Table 9.2's RF 3 runs of Docker and VMware left out),
    each run lies within an interval calibrated on each factor's runs predicted without them, which
    is narrower than the doubled interpolation band (the replay's latency at RF 3: 3.5 -> 1.4 of the
    value wide, all six inside)."""
    fam = trained["container_latency"]
    out = [p for p in fam.training_points() if p.features["platform"] in ("docker", "vm")
           and p.features["replication_factor"] == 3.0]
    assert len(out) == 6
    left = type(fam)(points=[p for p in fam.training_points() if p not in out]).fit()
    pred = left.predict([p.features for p in out])
    assert pred.extrapolated.all() and left._rf_band is not None
    assert left._rf_band[1] - left._rf_band[0] < left._ext_hi - left._ext_lo
    assert np.allclose(pred.high / pred.mean, np.exp(left._rf_band[1]))
    for p, lo, hi in zip(out, pred.low, pred.high, strict=True):
        assert lo <= p.target <= hi, p.key


def test_latency_slopes_shrink_towards_a_shared_one(trained):
    """Each platform x workload's replication slope is the shared one plus a non-negative addition,
    shrunk towards it: leave-one-out error below a free slope per pair (7.2 %), never falling with RF."""
    fam = trained["container_latency"]
    y, loo = fam.loo()
    assert np.median(np.abs(loo - y) / y) < 0.065
    q = [{"platform": p, "workload": w, "replication_factor": rf}
         for p in ("native", "docker", "vm") for w in ("mix", "read", "write") for rf in (1, 2, 3)]
    mean = fam.predict(q).mean.reshape(9, 3)
    assert np.all(np.diff(mean, axis=1) >= 0)
