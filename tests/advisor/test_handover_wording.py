"""Words on what a consultant hands over (issue #33's review): a plain number carries no unit "1", the
host count's assumptions name no field by its identifier."""

from __future__ import annotations

import re

import pytest

from advisor.text import figure_text

pytestmark = pytest.mark.timeout(120)


def test_a_share_reads_as_a_plain_number():
    assert figure_text("utilization", {"value": 0.4048, "unit": "1"}) == "utilization: 0.4048"
    assert figure_text("share", {"value": 0.74, "low": 0.7, "high": 0.8, "unit": "1"}) == "share: 0.74 (0.7–0.8)"
    assert figure_text("boot_time", {"value": 12.0, "unit": "s"}) == "boot time: 12 s"


def test_the_host_count_assumptions_use_words_not_field_names(advice_of):
    from advisor.scenario import load_scenario
    from tests.advisor.examples import SCENARIOS

    for path in SCENARIOS:
        advice = advice_of(load_scenario(path))
        for line in advice.find("host_count").details["assumptions"]:
            assert not re.search(r"\b[a-z]+_[a-z_]+\b", line), (path.name, line)
