"""A case measured as a ratio, a percent change or a difference of two of the advice's figures gets
both figures' uncertainty, not the first one's alone (advisor.replay.running)."""

from __future__ import annotations

import math

import pytest

from advisor.replay.running import _combined

pytestmark = pytest.mark.timeout(30)


def test_a_ratio_adds_both_log_half_widths_in_quadrature():
    a = {"value": 2.0, "low": 1.0, "high": 4.0}      # x/2 .. x2
    b = {"value": 1.0, "low": 0.5, "high": 1.5}
    value, low, high = _combined(a, b, difference=False)
    assert value == 2.0
    assert low == pytest.approx(2.0 * math.exp(-math.hypot(math.log(2.0), math.log(1.5))))
    assert high == pytest.approx(2.0 * math.exp(math.hypot(math.log(2.0), math.log(2.0))))
    assert high > 4.0 / 1.0 * 1.0 and low < 1.0  # wider than the first figure's interval alone
    exact = {"value": 1.0, "low": 1.0, "high": 1.0}
    assert _combined(a, exact, difference=False) == pytest.approx((2.0, 1.0, 4.0))


def test_a_difference_adds_the_absolute_half_widths_in_quadrature():
    a = {"value": 28.0, "low": 25.0, "high": 32.0}
    b = {"value": 10.0, "low": 6.0, "high": 13.0}
    value, low, high = _combined(a, b, difference=True)
    assert value == 18.0
    assert low == pytest.approx(18.0 - math.hypot(3.0, 3.0)) and high == pytest.approx(18.0 + math.hypot(4.0, 4.0))


def test_a_figure_without_a_positive_spread_keeps_the_first_figures_interval():
    a = {"value": 2.0, "low": 0.0, "high": 3.0}
    b = {"value": 2.0, "low": 1.0, "high": 3.0}
    assert _combined(a, b, difference=False) == pytest.approx((1.0, 0.0, 1.5))
