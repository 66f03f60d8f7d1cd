"""Intervals calibrated on held-out residuals (advisor.models.conformal): a stated level, wider where
the point is an extrapolation, never a fixed multiplicative band."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.models import FAMILIES, conformal, get_family
from advisor.models.base import TrainingPoint
from knowledge.infra.errors import InputError

pytestmark = pytest.mark.timeout(120)


def test_band_is_the_finite_sample_conformal_quantile():
    r = np.linspace(-1.0, 1.0, 19)  # 19 residuals: the 1st and the 19th bound a 90 % band
    assert conformal.band(r, 0.9) == (-1.0, 1.0)
    r = np.linspace(-1.0, 1.0, 39)  # 39: the 2nd and the 38th
    lo, hi = conformal.band(r, 0.9)
    assert lo == pytest.approx(r[1]) and hi == pytest.approx(r[37])
    assert conformal.band(np.array([0.1, 0.2]), 0.9) is None  # too few to calibrate on
    assert conformal.band(np.zeros(50), 0.9) == (-conformal.MIN_HALF_WIDTH, conformal.MIN_HALF_WIDTH)


def _pt(x: float, y: float, group: str) -> TrainingPoint:
    return TrainingPoint(features={"x": x}, target=y, document="d", locator=group, key=f"k{x}")


def test_residuals_come_from_refits_that_did_not_see_the_point():
    pts = [_pt(float(x), 2.0 * x, "A") for x in range(1, 11)]
    seen = []

    def fit(keep):
        seen.append({p.features["x"] for p in keep})
        return float(np.mean([p.target / p.features["x"] for p in keep]))

    def predict(core, test):
        assert not {p.features["x"] for p in test} & seen[-1]  # never predicts a point it was fitted on
        return np.array([core * p.features["x"] for p in test])

    r = conformal.held_out_residuals(pts, conformal.folds_cv(len(pts), 5), fit, predict)
    assert len(seen) == 5 and len(r) == 10 and np.allclose(r, 0.0)


def test_every_family_states_its_level_and_widens_extrapolations(session_kb):
    widths, levels = set(), {}
    for name in FAMILIES:
        fam = get_family(name, session_kb)
        point = fam.training_points()[0]
        try:  # a training point's features as a query (a few families need more than their points carry)
            levels[name] = fam.predict([dict(point.features)]).level
        except InputError:
            pass
        if name != "drs_migrations":  # counts: Poisson percentiles
            assert fam._ext_lo <= fam._log_lo and fam._ext_hi >= fam._log_hi, name
            widths.add(round(fam._log_hi - fam._log_lo, 6))
    assert len(levels) >= 10 and set(levels.values()) == {conformal.LEVEL}
    assert len(widths) > 5  # calibrated per family from its own residuals, not one fixed band


def test_an_extrapolated_query_gets_the_wider_band(session_kb):
    fam = get_family("cache_mode_throughput", session_kb)
    near = {"cache_mode": "writeback", "vms_per_host": 2, "operation": "random_read"}
    far = {**near, "vms_per_host": 60}
    pred = fam.predict([near, far])
    assert not pred.extrapolated[0] and pred.extrapolated[1]
    rel = (pred.high - pred.low) / pred.mean
    assert rel[1] > rel[0]


def test_extrapolation_folds_calibrate_the_extrapolation_band():
    """A family that names what its queries extrapolate over (here: x beyond the rest) gets the band
    of those folds' held-out residuals, not the interpolation band doubled."""
    pts = [_pt(float(x), 2.0 * x * (1.0 + 0.3 * (x >= 8)), "A") for x in range(1, 11)]

    def fit(keep):
        return float(np.mean([p.target / p.features["x"] for p in keep]))

    def predict(core, test):
        return np.array([core * p.features["x"] for p in test])

    groups = [[i for i, p in enumerate(pts) if p.features["x"] in xs] for xs in ({1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10})]
    inner, outer = conformal.calibrate(pts, fit, predict, np.zeros(10), groups)
    logo = conformal.band(conformal.held_out_residuals(pts, groups, fit, predict))
    assert outer == (min(logo[0], inner[0]), max(logo[1], inner[1]))
    assert outer != (inner[0] * conformal.EXTRAPOLATION_FACTOR, inner[1] * conformal.EXTRAPOLATION_FACTOR)
    doubled = conformal.calibrate(pts, fit, predict, np.zeros(10))[1]
    assert doubled == (inner[0] * conformal.EXTRAPOLATION_FACTOR, inner[1] * conformal.EXTRAPOLATION_FACTOR)


def test_too_few_residuals_for_a_90_percent_quantile_keep_the_fallback_floor():
    """With fewer than 19 held-out residuals the 90 % conformal quantile is not finite: the smallest and
    the largest of, say, 5 residuals cover a new point with probability 4/6, not 0.9. Such a band is never
    narrower than the fallback's +-SMALL_HALF_WIDTH (held out: 004-T8.3-total-heavy, 004-S6.4-cpu, fitted
    on three points, had +-5 % bands); 19 or more residuals keep their own quantile."""
    assert conformal.finite_quantile_n(0.9) == 19 and conformal.finite_quantile_n(0.8) == 9

    def fit(keep):
        return float(np.mean([p.target / p.features["x"] for p in keep]))

    def predict(core, test):
        return np.array([core * p.features["x"] for p in test])

    def pts(n):  # residuals within +-2 %
        return [_pt(float(x), 2.0 * x * (1.0 + 0.02 * (-1) ** x), "A") for x in range(1, n + 1)]

    few, _ = conformal.calibrate(pts(5), fit, predict, np.zeros(5))
    assert few == (-conformal.SMALL_HALF_WIDTH, conformal.SMALL_HALF_WIDTH)
    many, _ = conformal.calibrate(pts(40), fit, predict, np.zeros(40))
    assert many == (-conformal.MIN_HALF_WIDTH, conformal.MIN_HALF_WIDTH)
