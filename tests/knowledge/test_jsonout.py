"""knowledge.infra.jsonout: strict JSON out (RFC 8259), written straight away when it can be."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from knowledge.infra import jsonout


def test_non_finite_floats_become_null_at_any_depth():
    doc = {"a": math.inf, "b": [1.5, -math.inf, (math.nan, 2)], "c": {"d": np.float64("nan"), "e": "inf"}}
    text = jsonout.dumps(doc)
    assert json.loads(text) == {"a": None, "b": [1.5, None, [None, 2]], "c": {"d": None, "e": "inf"}}
    assert "Infinity" not in text and "NaN" not in text


def test_finite_documents_are_written_as_json_writes_them():
    doc = {"x": [1, 2.5, (3, "é\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace"))],
           "y": {"z": None, "w": True}, "v": np.float64(0.1)}
    for kwargs in ({}, {"indent": 2}, {"sort_keys": True}):
        assert jsonout.dumps(doc, **kwargs) == json.dumps(doc, allow_nan=False, **kwargs)


def test_what_is_not_json_is_still_refused():
    with pytest.raises(TypeError):
        jsonout.dumps({"s": {1, 2}})
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular"):
        jsonout.dumps(loop)
