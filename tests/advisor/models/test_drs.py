"""drs_peak_cpu and drs_migrations: doc 004 chapter 7 rows (DRS levels 1, 3, 5 vs a human expert)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.models.drs import EVENTS, poisson_interval
from knowledge.infra.errors import InputError

DOC = "004_938d241a6a4af83f"
EVENT_NAMES = tuple(EVENTS.values())


@pytest.fixture(scope="module")
def peak(trained):
    return trained["drs_peak_cpu"]


@pytest.fixture(scope="module")
def moves(trained):
    return trained["drs_migrations"]


def _find(points, **feats):
    return [p for p in points if all(p.features.get(k) == v for k, v in feats.items())]


# --- hottest host -------------------------------------------------------------------------------
def test_peak_points_cover_every_case_and_the_expert(peak):
    pts = peak.training_points()
    assert len(pts) == 60  # 5 test cases x 3 loads x (levels 1, 3, 5 + expert)
    # test case 1, 700 req/s: level 1 did not migrate (row c7-T7.1-01), so the hosts stay at the
    # load-shift state of Table 7.2 (67, 51, 49 %); the expert brought them to 58, 52, 57 %
    drs1 = [p for p in _find(pts, event="load_shift", balancer="drs", drs_level=1.0) if p.target == 67.0]
    assert len(drs1) == 1 and "c7-T7.1-01" in drs1[0].key and drs1[0].key.startswith("c7-T7.2-10")
    assert drs1[0].features["mean_host_cpu"] == pytest.approx((67 + 51 + 49) / 3)
    drs5 = [p for p in _find(pts, event="load_shift", balancer="drs", drs_level=5.0) if p.target == 67.0]
    assert len(drs5) == 1 and drs5[0].key.startswith("c7-T7.2-11")  # Table 7.2's own DRS column
    expert = [p for p in _find(pts, event="load_shift", balancer="human_expert") if p.target == 58.0]
    assert len(expert) == 1 and expert[0].features["mean_host_cpu"] == pytest.approx((58 + 52 + 57) / 3)
    # maintenance: host 3 is evacuated (4 %) and left out of the mean
    m = _find(pts, event="maintenance", balancer="human_expert")
    assert sorted(p.target for p in m) == [42.0, 63.0, 85.0]
    assert sorted(p.features["mean_host_cpu"] for p in m) == pytest.approx([40.0, 63.0, 85.0])
    assert (DOC, "Table 7.6") in peak.citations() and (DOC, "Table 7.5") in peak.citations()


def test_peak_predictions_near_the_tables(peak):
    pts = peak.training_points()
    pred = peak.predict([p.features for p in pts])
    y = np.array([p.target for p in pts])
    assert pred.unit == "%" and np.median(np.abs(pred.mean - y) / y) < 0.05
    y_loo, loo = peak.loo()
    mean_baseline = np.array([np.mean(np.delete(y, i)) for i in range(len(y))])
    assert np.median(np.abs(loo - y_loo) / y_loo) < 0.5 * np.median(np.abs(mean_baseline - y) / y)


def test_expert_balances_better_than_conservative_drs(peak):
    for event in EVENT_NAMES:
        q = [{"mean_host_cpu": 50, "event": event, "drs_level": 1}, {"mean_host_cpu": 50, "event": event,
                                                                     "balancer": "expert"}]
        level1, expert = peak.predict(q).mean
        assert expert <= level1
    # an added empty host stays empty at level 1: the loaded hosts sit ~1.46x above the mean (Table 7.6)
    added = peak.predict([{"mean_host_cpu": 50, "event": "host_added", "drs_level": 1}]).mean[0]
    assert added == pytest.approx(50 * 1.46, rel=0.03)


@settings(max_examples=80, deadline=None)
@given(event=st.sampled_from(EVENT_NAMES), cpu=st.floats(1, 100), level=st.floats(1, 4), step=st.floats(0, 1))
def test_peak_is_bounded_and_non_increasing_in_the_level(peak, event, cpu, level, step):
    pred = peak.predict([{"mean_host_cpu": cpu, "event": event, "drs_level": level},
                         {"mean_host_cpu": cpu, "event": event, "drs_level": level + step}])
    assert np.all(pred.mean >= cpu * (1 - 1e-12)) and np.all(pred.low >= cpu * (1 - 1e-12))
    assert np.all(pred.high <= 100.0) and np.all(pred.mean <= 100.0)
    assert pred.mean[1] <= pred.mean[0] * (1 + 1e-12)


def test_peak_extrapolation_flags_and_errors(peak):
    pred = peak.predict([{"mean_host_cpu": 50, "drs_level": 3}, {"mean_host_cpu": 50, "drs_level": 4},
                         {"mean_host_cpu": 95, "drs_level": 5}, {"mean_host_cpu": 50, "balancer": "manual"}])
    assert pred.extrapolated.tolist() == [False, True, True, False]
    with pytest.raises(InputError, match="required"):
        peak.predict([{"event": "failover"}])
    with pytest.raises(InputError, match="drs_level"):
        peak.predict([{"mean_host_cpu": 50, "drs_level": 7}])
    with pytest.raises(InputError, match="event"):
        peak.predict([{"mean_host_cpu": 50, "event": "power_outage"}])


# --- migrations ---------------------------------------------------------------------------------
def test_migration_points_are_the_totals(moves, session_kb):
    pts = moves.training_points()
    drs = [p for p in pts if p.features["balancer"] == "drs"]
    assert len(drs) == 45 and len(pts) == 55
    # Section 7.5: DRS did nothing in 23 of the 45 cases, and in 2 of the 15 level-5 cases
    assert sum(p.target == 0 for p in drs) == session_kb.get("004", "c7-S7.5-02").value
    assert sum(p.target == 0 for p in drs if p.features["drs_level"] == 5.0) == \
        session_kb.get("004", "c7-S7.5-07").value
    keys = {p.key for p in pts}
    assert {"c7-S7.4.1-03@300", "c7-S7.4.1-03@500", "c7-T7.5-02"} <= keys
    assert not any(k.startswith("c7-T7.5-03") for k in keys)  # per-direction parts are not totals
    assert next(p for p in pts if p.key == "c7-T7.5-02").target == 5.0  # level 3, 600 req/s, with ping-pong


def test_maintenance_moves_every_vm_at_every_level(moves):
    pred = moves.predict([{"event": "maintenance", "drs_level": lvl} for lvl in (1, 3, 5)]
                         + [{"event": "maintenance", "vms_per_host": 8}])
    assert pred.mean[:3] == pytest.approx([4.0, 4.0, 4.0])   # Table 7.9
    assert pred.mean[3] == pytest.approx(8.0) and pred.extrapolated.tolist() == [False] * 3 + [True]
    assert pred.unit == "migrations"


def test_conservative_drs_ignores_load_shifts(moves):
    for event in ("load_shift", "two_load_shifts", "failover"):
        p = moves.predict([{"event": event, "drs_level": 1}, {"event": event, "drs_level": 5},
                           {"event": event, "balancer": "human_expert"}])
        assert p.mean[0] == 0.0 and p.low[0] == p.high[0] == 0.0
        assert 0 < p.mean[1] <= p.mean[2]


@settings(max_examples=60, deadline=None)
@given(event=st.sampled_from(EVENT_NAMES), level=st.floats(1, 4), step=st.floats(0, 1))
def test_migrations_never_fall_with_a_more_aggressive_level(moves, event, level, step):
    p = moves.predict([{"event": event, "drs_level": level}, {"event": event, "drs_level": level + step}])
    assert p.mean[1] >= p.mean[0] - 1e-12
    assert np.all(p.low <= p.mean) and np.all(p.mean <= p.high)


def test_loo_beats_the_mean_in_absolute_migrations(moves):
    y, loo = moves.loo()
    mean_baseline = np.array([np.mean(np.delete(y, i)) for i in range(len(y))])
    assert np.mean(np.abs(loo - y)) < 0.5 * np.mean(np.abs(mean_baseline - y))


def test_poisson_interval():
    lo, hi = poisson_interval(np.array([0.0, 1.0, 4.0]))
    assert lo.tolist() == [0.0, 0.0, 1.0] and hi.tolist() == [0.0, 3.0, 8.0]  # 5th and 95th: a 90 % interval


def test_an_event_left_out_for_a_balancer_takes_its_pooled_cell(peak, moves, session_kb):
    """The held-out replay leaves an experiment's rows out: the expert's maintenance total (one row
    for every load) goes, and the families must still predict it, flagged, from what is left."""
    from advisor.models import FAMILIES

    def without(fam, event):
        keep = [p for p in fam.training_points()
                if not (p.features["event"] == event and p.features["balancer"] == "human_expert")]
        return FAMILIES[fam.name].factory(session_kb).fit(keep)

    q = {"event": "maintenance", "balancer": "human_expert"}
    m = without(moves, "maintenance").predict([q])
    assert m.mean[0] == pytest.approx(4.0) and m.extrapolated[0]  # every VM of the evacuated host moves
    assert moves.predict([q]).extrapolated[0] == np.False_
    left = without(peak, "host_added")
    pred = left.predict([{**q, "event": "host_added", "mean_host_cpu": 40.0}])
    others = left.predict([{**q, "event": e, "mean_host_cpu": 40.0} for e in EVENT_NAMES if e != "host_added"])
    assert pred.extrapolated[0] and pred.mean[0] == pytest.approx(40.0 * np.exp(np.mean(np.log(others.mean / 40.0))))


def _left_out(fam, experiment: str):
    """(the family refitted without the rows of the replay's ``experiment``, the points left out)."""
    from advisor.replay import load_suite

    rows = set(next(e for e in load_suite() if e.id == experiment).rows)
    pts = fam.training_points()
    out = [p for p in pts if rows & {k.split("@")[0] for k in p.key.split("+")}]
    assert out
    return type(fam)(points=[p for p in pts if p not in out]).fit(), out


def test_held_out_peak_keeps_the_documents_order_of_options(peak):
    """Defect (issue #28): Table 7.10 at 300 req/s left out, every option was predicted the same hottest
    host (36.2 %), as at 500 and 700 req/s where all four measured alike; the table has levels 1 and 3
    at 47 % above level 5 and the expert at 42 %. The option's effect shared by the other events (a
    more aggressive threshold and the expert balance better) now orders them."""
    rest, out = _left_out(peak, "004-T7.10-300")
    mean = out[0].features["mean_host_cpu"]
    q = [{"mean_host_cpu": mean, "event": "maintenance", "drs_level": lvl} for lvl in (1, 3, 5)]
    level1, level3, level5, expert = rest.predict([*q, {**q[0], "balancer": "expert"}]).mean
    assert min(level1, level3) > max(level5, expert)


@pytest.mark.parametrize(("experiment", "event", "fewer", "more"), [
    ("004-T7.1-700", "load_shift", 5, "expert"),        # level 5 made no move, the expert one
    ("004-T7.3-300", "two_load_shifts", 5, "expert"),   # level 5 one move, the expert two
    ("004-T7.5-300", "host_added", 3, "expert"),        # level 3 two moves, the expert four
])
def test_held_out_migrations_keep_the_documents_order_of_options(moves, experiment, event, fewer, more):
    """Defect (issue #28): left out, these tables' options tied (their other loads measured the same
    count for both); the options' effect across the events (DRS moves fewer VMs than the expert)
    now orders them as the table does."""
    rest, _ = _left_out(moves, experiment)
    drs, expert = rest.predict([{"event": event, "drs_level": fewer}, {"event": event, "balancer": more}]).mean
    assert drs < expert


def test_pooling_keeps_mandatory_and_never_moved_cells(moves):
    """An evacuation moves every VM at every level, and level 1 never moved a VM for a load shift:
    the shared option effects do not move these cells."""
    p = moves.predict([{"event": "maintenance", "drs_level": lvl} for lvl in (1, 3, 5)]
                      + [{"event": "load_shift", "drs_level": 1}]).mean
    assert p[:3] == pytest.approx([4.0, 4.0, 4.0]) and p[3] == 0.0


def test_a_count_no_other_option_ties_keeps_its_own_mean(moves):
    """DRS migration counts: a cell's mean over its loads is its estimate; only options whose own means
    tie take the other events' order (the held-out bench: MdAPE 2.3 % against the nearest neighbour's
    0 % when every cell was shrunk). Test case 3 (host added): level 3 moved 2, 3, 5 VMs at 300, 500,
    600 req/s (Table 7.5) and no other option's mean is 10/3 of the 4 moves the event calls for."""
    assert moves.predict([{"event": "host_added", "drs_level": 3}]).mean[0] == pytest.approx(10 / 3)
    # level 5 and the expert both moved 4 VMs at 300 and 500 req/s; 600 left out, the two tie on their
    # own means and the other events' order (the expert moved more) separates them
    at_600 = {"c7-T7.5-01", "c7-T7.5-02", "c7-T7.5-06", "c7-T7.5-10"}
    pts = [p for p in moves.training_points() if p.key.split("@")[0] not in at_600]
    held = type(moves)(points=pts).fit()
    lvl5, expert = held.predict([{"event": "host_added", "drs_level": 5}, {"event": "host_added",
                                                                          "balancer": "human_expert"}]).mean
    assert lvl5 != pytest.approx(expert) and expert > lvl5
