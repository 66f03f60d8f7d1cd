"""Numbers read the same everywhere: a figure, its interval and the totals' text write 1,000 and up
with thousands separators, and rounding never produces an exponent for an ordinary number."""
import pytest

from advisor.scenario.totals import num
from advisor.text import figure_parts, fmt_value


@pytest.mark.parametrize("value, digits, text", [
    (6944.3, 4, "6,944"),         # was "6944" while the interval's other end read "19,615"
    (19615.0, 4, "19,615"),
    (1234, 4, "1,234"),
    (999.96, 4, "1,000"),         # rounds up to 1000: separators, not "1000"
    (9999.7, 4, "10,000"),        # was "1e+04"
    (99.96, 2, "100"),            # was "1e+02"
    (52.345, 4, "52.34"),
    (0.5, 4, "0.5"),
    (-2500.0, 4, "-2,500"),
    (12_345_678.0, 4, "1.23e+07"),
])
def test_fmt_value(value, digits, text):
    assert fmt_value(value, digits) == text


@pytest.mark.parametrize("value", [1000, 1234.4, 6944.3, 19615, 250_000, 12.5, 999.4, 0.25])
def test_a_figure_reads_as_the_totals_text_writes_it(value):
    assert fmt_value(value) == num(value)


def test_an_interval_writes_both_ends_alike():
    label, shown, unit, interval = figure_parts(
        "iops_per_host", {"value": 12000.0, "low": 6944.3, "high": 19615.2, "unit": "IOPS"})
    assert (shown, interval) == ("12,000", "6,944–19,615")
