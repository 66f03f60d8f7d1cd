"""distributed_throughput and distributed_recovery_time: doc 004 chapter 4 rows, network bound, healing."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.models.distributed import SYSTEMS
from knowledge.infra.errors import InputError

DOC = "004_938d241a6a4af83f"


@pytest.fixture(scope="module")
def thr(trained):
    return trained["distributed_throughput"]


@pytest.fixture(scope="module")
def rec(trained):
    return trained["distributed_recovery_time"]


# --- throughput ---------------------------------------------------------------------------------
def test_throughput_points_are_the_mb_s_rows_of_figures_4_6_and_4_7(thr, session_kb):
    pts = {p.key: p for p in thr.training_points()}
    rows = [r for loc in ("Figure 4.6a", "Figure 4.6b", "Figure 4.7a", "Figure 4.7b")
            for r in session_kb.measurements(document="004", locator=loc, metric="throughput", kind="absolute")]
    assert len(rows) == 12 and set(pts) == {r.key for r in rows}
    for r in rows:  # per-VM share of the 256 concurrent clients (row c4-S4.5.1-02)
        assert pts[r.key].target * 256 == pytest.approx(r.value)
    assert pts["c4-F4.7a-03"].features["replication_factor"] == 2.0   # Gluster, Section 4.3.1.4
    assert pts["c4-F4.6a-03"].features["replication_factor"] == 3.0   # Swift, Section 4.3.1.3
    assert (DOC, "Figure 4.7b") in thr.citations() and (DOC, "Section 4.3.1") in thr.citations()


def test_throughput_reproduces_the_measured_rates(thr, session_kb):
    pts = thr.training_points()
    pred = thr.predict([p.features for p in pts])
    y = np.array([p.target for p in pts])
    assert pred.unit == "MB/s" and not pred.extrapolated.any()
    assert np.median(np.abs(pred.mean - y) / y) < 0.1
    # Gluster read at 256 clients: 270 MB/s for the whole store (c4-F4.7b-03)
    g = thr.predict([{"storage_system": "Gluster", "operation": "read"}]).mean[0] * 256
    assert g == pytest.approx(session_kb.get("004", "c4-F4.7b-03").value, rel=0.1)


def test_multicast_beats_dht_as_measured(thr):
    for op in ("read", "write"):
        p = thr.predict([{"storage_system": s, "operation": op} for s in SYSTEMS]).mean
        cvu, cvs, swift, gluster = p
        assert cvu > 2 * swift and cvs > 2 * gluster  # Sections 4.5.1, 4.5.2


def test_replication_factor_divides_the_write_bound_only(thr):
    q = [{"storage_system": "compuverde_structured", "operation": op, "replication_factor": rf}
         for op in ("write", "read") for rf in (2, 3)]
    pred = thr.predict(q)
    assert pred.mean[1] / pred.mean[0] == pytest.approx(2 / 3)   # each written byte crosses 3 NICs, not 2
    assert pred.mean[3] == pytest.approx(pred.mean[2])          # reads cross one NIC whatever the RF
    assert pred.extrapolated.tolist() == [False, True, False, True]


@settings(max_examples=60, deadline=None)
@given(system=st.sampled_from(SYSTEMS), op=st.sampled_from(["read", "write"]), nodes=st.integers(3, 200),
       link=st.floats(0.1, 100), vms=st.integers(1, 5000), extra=st.integers(1, 500), rf=st.integers(1, 3))
def test_per_vm_throughput_within_the_network_and_never_rising_with_vms(thr, system, op, nodes, link, vms, extra, rf):
    q = {"storage_system": system, "operation": op, "node_count": nodes, "node_link_gbps": link,
         "replication_factor": rf}
    pred = thr.predict([{**q, "concurrent_vms": vms}, {**q, "concurrent_vms": vms + extra}])
    bound = nodes * link * 125.0 / (rf if op == "write" else 1) / vms   # MB/s per VM
    assert pred.mean[0] <= bound * (1 + 1e-9) and pred.high[0] <= bound * (1 + 1e-9)
    assert pred.mean[1] <= pred.mean[0] * (1 + 1e-12)


def test_host_link_caps_each_vm_and_fewer_clients_are_extrapolated(thr):
    pred = thr.predict([{"storage_system": "compuverde_unstructured", "operation": "read", "concurrent_vms": 2,
                         "host_link_gbps": 1.0},
                        {"storage_system": "compuverde_unstructured", "operation": "read", "node_count": 48}])
    assert pred.mean[0] == pytest.approx(125.0) and pred.high[0] <= 125.0
    assert pred.extrapolated.tolist() == [True, True]


def test_unknown_system_is_an_input_error(thr):
    with pytest.raises(InputError, match="ceph"):
        thr.predict([{"storage_system": "ceph", "operation": "read"}])


# --- recovery -----------------------------------------------------------------------------------
def test_a_system_without_points_takes_the_pooled_efficiency_and_the_physical_range(thr):
    """The held-out replay leaves a configuration's rows out: its efficiency is then the pool's (not
    the network bound), and its interval the physical range (three configurations cannot calibrate
    a 90 % band for a fourth)."""
    others = [p for p in thr.training_points() if p.features["storage_system"] != "compuverde_structured"]
    fam = type(thr)(points=others).fit()
    q = [{"storage_system": s, "operation": op} for s in ("compuverde_structured", "swift") for op in ("read", "write")]
    pred = fam.predict(q)
    bound = np.array([3000.0, 1500.0]) / 256  # 24 nodes x 1 Gb/s, RF 2 for writes
    seen = fam._core["model"].coef[[SYSTEMS.index(s) for s in sorted({p.features["storage_system"] for p in others})]]
    pooled = np.exp(np.mean(seen) + np.array([0.0, fam._core["model"].coef[-1]]))
    assert pred.mean[:2] == pytest.approx(np.minimum(pooled, 1.0) * bound)
    assert pred.mean[0] < 0.5 * bound[0] and pred.extrapolated.tolist() == [True, True, False, False]
    assert pred.high[:2] == pytest.approx(bound)  # up to the network bound: efficiency 1
    assert pred.low[:2].tolist() == [0.0, 0.0]
    assert pred.low[2] == pytest.approx(pred.mean[2] * np.exp(fam._log_lo))  # a system with points: its band
    # a seen system's node-count extrapolation keeps the widened calibrated band
    far = fam.predict([{"storage_system": "swift", "operation": "read", "node_count": 12}])
    assert far.high[0] / far.mean[0] == pytest.approx(np.exp(2 * fam._log_hi))


def test_recovery_points_pool_the_two_runs_of_table_4_2(rec, session_kb):
    pts = {p.features["storage_system"]: p for p in rec.training_points()}
    assert set(pts) == set(SYSTEMS)
    r1, r2 = session_kb.get("004", "c4-T4.2-05"), session_kb.get("004", "c4-T4.2-06")   # Swift, 9 h 27 and 10 h 16
    assert pts["swift"].target == pytest.approx(np.sqrt(r1.value_si * r2.value_si))
    assert pts["swift"].key == "c4-T4.2-05+c4-T4.2-06"
    assert rec.citations()[0] == (DOC, "Table 4.2")


def test_recovery_reproduces_the_documents_speedups(rec, session_kb):
    t = dict(zip(SYSTEMS, rec.predict([{"storage_system": s} for s in SYSTEMS]).mean, strict=True))
    assert t["compuverde_unstructured"] < t["compuverde_structured"] < t["swift"] < t["gluster"]
    # the restated speedups of Section 4.5.3 (not training rows): about 30x and 50x
    assert t["swift"] / t["compuverde_unstructured"] == pytest.approx(session_kb.get("004", "c4-S4.5.3-04").value,
                                                                        rel=0.1)
    assert t["gluster"] / t["compuverde_structured"] == pytest.approx(session_kb.get("004", "c4-S4.5.3-07").value,
                                                                       rel=0.1)


def test_recovery_scales_with_many_to_many_healing_only(rec):
    q = [{"storage_system": s, "node_count": n} for s in ("compuverde_structured", "gluster") for n in (24, 48, 12)]
    pred = rec.predict(q)
    assert pred.mean[1] == pytest.approx(pred.mean[0] * 23 / 47)
    assert pred.mean[2] == pytest.approx(pred.mean[0] * 23 / 11)
    assert pred.mean[3] == pred.mean[4] == pred.mean[5]            # Gluster heals through its proxies
    assert pred.extrapolated.tolist() == [False, True, True, False, True, True]


def test_a_system_without_points_takes_its_lookup_method(rec):
    others = [p for p in rec.training_points() if p.features["storage_system"] != "swift"]
    fam = type(rec)(points=others).fit()
    pred = fam.predict([{"storage_system": "swift"}])
    gluster = next(p.target for p in others if p.features["storage_system"] == "gluster")
    assert pred.mean[0] == pytest.approx(gluster) and pred.extrapolated[0]
