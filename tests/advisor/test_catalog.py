"""The decision catalogue is the one list of decisions: the engine runs it in its order, every
rule and every recommender belongs to an entry, and a new entry is all a new decision needs."""

from __future__ import annotations

import dataclasses
import sys
import types

import pytest

from advisor.engine import advise
from advisor.recommend import catalog
from advisor.recommend.base import Recommendation
from advisor.rules import RULES
from tests.advisor.test_engine import EXAMPLE, _kb_fixtures

kb_path, kb = _kb_fixtures.kb_path, _kb_fixtures.kb  # fixtures


def test_each_decision_is_declared_once_with_its_recommender():
    names = [d.name for d in catalog.CATALOG]
    assert len(names) == len(set(names))
    for d in catalog.CATALOG:
        assert d.recommender.DECISION == d.name and callable(d.recommender.recommend), d.name
        assert d.title and d.title != d.name


def test_the_order_runs_every_decision_after_the_ones_it_reads():
    order = catalog.order()
    assert sorted(order) == sorted(d.name for d in catalog.CATALOG)
    for d in catalog.CATALOG:
        for before in d.after:
            assert order.index(before) < order.index(d.name), (before, d.name)
    # the facts the decisions hand on: ratio -> hosts -> VMs per host of the cache mode
    assert order.index("vcpu_overallocation") < order.index("host_count") < order.index("cache_mode")


def test_the_order_refuses_a_cycle_and_an_unknown_predecessor():
    a = catalog.Decision("a", "A", types.ModuleType("a"), after=("b",))
    b = catalog.Decision("b", "B", types.ModuleType("b"), after=("a",))
    with pytest.raises(ValueError, match="cycle"):
        catalog.order((a, b))
    with pytest.raises(ValueError, match="unknown"):
        catalog.order((a,))
    # a decision declared before what it reads still runs after it
    c = catalog.Decision("c", "C", types.ModuleType("c"), after=("d",))
    d = catalog.Decision("d", "D", types.ModuleType("d"))
    assert catalog.order((c, d)) == ("d", "c")


def test_every_rule_belongs_to_a_catalogued_decision_and_every_decision_has_rules():
    names = {d.name for d in catalog.CATALOG}
    assert {r.decision for r in RULES} <= names
    for d in catalog.CATALOG:
        assert all(r.decision == d.name for r in d.rules)
    assert catalog.get("cache_mode").rules and catalog.get("hypervisor").rules


def test_decisions_are_in_the_knowledge_vocabulary():
    """The documents' conclusions are tagged with decisions: the engine's are among them."""
    from knowledge.curated import load_vocabulary

    assert {d.name for d in catalog.CATALOG} <= set(load_vocabulary().decisions)


def test_the_engine_gives_the_catalogue_decisions_in_its_order(kb):
    advice = advise(EXAMPLE, kb=kb)
    seen = list(dict.fromkeys(r.decision for r in advice.recommendations))
    order = catalog.order()
    assert seen == [n for n in order if n in seen]
    assert set(seen) == set(order)  # the example scenario exercises every decision


def test_a_new_decision_is_one_module_and_one_entry(kb, monkeypatch):
    """Adding a decision needs no edit anywhere but the catalogue: the engine runs it after what
    it reads, the JSON and the report carry it with its title."""
    mod = types.ModuleType("advisor.recommend.spare_parts")
    mod.DECISION = "spare_parts"

    def recommend(ctx):
        hosts = ctx.chosen["host_count"]
        return [Recommendation("spare_parts", "cluster", f"{hosts // 2 + 1} spare disks", value=hosts // 2 + 1)]

    mod.recommend = recommend
    monkeypatch.setitem(sys.modules, mod.__name__, mod)
    entry = catalog.Decision("spare_parts", "Spare parts", mod, after=("host_count",), value_unit="disks")
    monkeypatch.setattr(catalog, "CATALOG", (entry, *catalog.CATALOG))  # declared first, runs after host_count
    advice = advise(EXAMPLE, kb=kb)
    names = [r.decision for r in advice.recommendations]
    assert names.index("spare_parts") > names.index("host_count")
    rec = advice.find("spare_parts")
    assert rec.choice.endswith("spare disks") and advice.to_dict()["recommendations"][names.index("spare_parts")]
    assert catalog.title("spare_parts") == "Spare parts"
    assert catalog.choice_text("spare_parts", rec.choice, rec.value).endswith(" disks")
    from advisor.render import to_markdown

    assert "Spare parts" in to_markdown(advice)


def test_choice_text_shows_the_value_only_where_the_catalogue_gives_it_a_unit():
    assert catalog.choice_text("vcpu_overallocation", "4:1", 4.0) == "4:1 · 4 vCPUs per core"
    assert catalog.choice_text("host_count", "5", 5.0) == "5 hosts"  # the count with its unit, once
    assert catalog.choice_text("storage_backend", "nfs_file", None) == "NFS, image files"  # a label, not an id
    assert catalog.choice_text("cache_mode", "none", None) == "none"
    assert catalog.title("no_such_decision") == "No such decision"
    assert dataclasses.is_dataclass(catalog.CATALOG[0])
