"""The chart registry (advisor/figures/registry.py) is the one list of charts: every chart has one
builder, names a decision of the catalogue, and the views show exactly what it says, in its order."""

from __future__ import annotations

import pytest

from advisor.figures import registry
from advisor.figures.charts import CHARTS
from advisor.figures.whatif import INPUTS
from advisor.recommend import catalog

pytestmark = pytest.mark.timeout(60)


def test_every_declared_chart_has_its_builder_and_no_other_builder_exists():
    assert list(CHARTS) == [c.key for c in registry.CHARTS]
    assert all(callable(b) for b in CHARTS.values())


def test_each_chart_names_a_decision_of_the_catalogue():
    names = {d.name for d in catalog.CATALOG}
    assert {c.decision for c in registry.CHARTS if c.decision} <= names
    assert registry.of_decision("vcpu_overallocation") == ("overallocation_overhead", "migration_downtime")
    assert registry.of_decision("host_count") == ()


def test_each_view_has_its_charts_once_in_a_reading_order():
    for view in registry.VIEWS:
        places = [c.place(view) for c in registry.CHARTS if c.place(view) is not None]
        assert sorted(places) == list(range(1, len(places) + 1)), view
    assert registry.keys(registry.REPORT) == registry.keys(registry.PLOTS)  # the report holds the Plots tab
    assert set(registry.keys(registry.WORKSHOP)) <= set(registry.keys(registry.WHATIF))
    with pytest.raises(ValueError, match="no view 'slides'"):
        registry.keys("slides")


def test_the_what_if_inputs_move_charts_the_what_if_view_shows():
    moved = {key for i in INPUTS.values() for key in i.charts}
    assert moved and moved <= set(registry.keys(registry.WHATIF))


def test_a_builder_for_an_undeclared_chart_or_a_second_builder_fails_loudly(monkeypatch):
    with pytest.raises(KeyError, match="not declared"):
        registry.builds("pie")
    with pytest.raises(KeyError, match="two builders"):
        registry.builds("cache_mode")(lambda *a: None)
    monkeypatch.setattr(registry, "CHARTS", (*registry.CHARTS, registry.Chart("pie", None, plots=9)))
    with pytest.raises(LookupError, match="without a builder: pie"):
        registry.builders()
