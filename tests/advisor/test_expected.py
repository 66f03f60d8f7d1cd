"""The typed expected figure: attributes inside the engine, today's JSON keys at the edge."""

from __future__ import annotations

import json

import pytest

from advisor.expected import ExpectedFigure, as_figure
from advisor.recommend.base import Alternative, Recommendation, figure

pytestmark = pytest.mark.timeout(30)


def test_figure_keeps_its_call_signature_and_json_keys():
    f = figure(52.34567891, "MB/s", 45.0, 60.0, basis="documents", extrapolated=False, note="per VM")
    assert isinstance(f, ExpectedFigure)
    assert (f.value, f.low, f.high, f.unit, f.basis, f.extrapolated) == (52.3457, 45.0, 60.0, "MB/s", "documents",
                                                                         False)
    assert f.to_dict() == {"value": 52.3457, "low": 45.0, "high": 60.0, "unit": "MB/s", "basis": "documents",
                           "extrapolated": False, "note": "per VM"}
    # low/high default to the value; a figure without a basis writes no basis key
    assert figure(3, "hosts").to_dict() == {"value": 3.0, "low": 3.0, "high": 3.0, "unit": "hosts"}


def test_the_mapping_view_reads_and_builds_like_the_old_dict():
    f = figure(2.0, "s", 1.0, 3.0)
    f["event"] = "peak"  # a key of its own
    f["basis"] = "documents"  # an attribute
    assert f.basis == "documents" and f["event"] == "peak" and "event" in f and "level" not in f
    assert f.get("extrapolated") is None and f.number("value") == 2.0
    assert as_figure(f.to_dict()) == f and as_figure(f) is f


def test_recommendation_json_is_the_figures_json():
    rec = Recommendation("d", "cluster", "a", expected={"x": figure(1.0, "s", 0.5, 2.0, level=0.9)},
                         alternatives=[Alternative("b", 0.0, {"x": {"value": 2.0, "low": 1.0, "high": 3.0,
                                                                       "unit": "s"}})])
    assert isinstance(rec.alternatives[0].expected["x"], ExpectedFigure)  # an old-style dict is typed
    out = json.loads(json.dumps(rec.to_dict()))
    assert out["expected"]["x"] == {"value": 1.0, "low": 0.5, "high": 2.0, "unit": "s", "level": 0.9}
    assert out["alternatives"][0]["expected"]["x"] == {"value": 2.0, "low": 1.0, "high": 3.0, "unit": "s"}
