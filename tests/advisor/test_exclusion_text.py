"""An alternative's reasons say each thing once (review r10: unsafe's read "ignores guest flushes: a host
crash loses data; ignores guest flushes; only for data that may be lost entirely")."""

from __future__ import annotations

import re

import pytest

from tests.advisor.examples import SCENARIOS

pytestmark = pytest.mark.timeout(300)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_no_reason_repeats_a_phrase(path, advice_of):
    for rec in advice_of(path).to_dict(expand=True)["recommendations"]:
        for alt in rec.get("alternatives", []):
            why = re.sub(r"\[[^\]]*\]", "", alt.get("why_not") or "")
            phrases = [p.strip() for part in why.split(";") for p in part.split(":") if len(p.strip()) > 12]
            assert len(phrases) == len(set(phrases)), (rec["decision"], alt["choice"], why)
            assert why.count("ignores guest flushes") <= 1, why
