"""The rule table: every conclusion of the documents is encoded, every citation resolves, and the
safety constraints exclude what they must."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.recommend import catalog
from advisor.recommend.base import CitationIndex
from advisor.rules import (
    CACHE,
    HV,
    KIND_ORDER,
    OVERALLOCATION,
    RULES,
    Facts,
    RuleContext,
    evaluate,
    referenced_conclusions,
)
from advisor.scenario import load_scenario, parse_scenario
from tests.advisor.test_engine import _kb_fixtures, make, workload

kb_path, kb = _kb_fixtures.kb_path, _kb_fixtures.kb  # fixtures

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


def ctx_for(data: dict, workload_index: int | None = 0, **facts) -> RuleContext:
    sc = parse_scenario(data)
    f = Facts.of(sc)
    for k, v in facts.items():
        setattr(f, k, v)
    return RuleContext(sc, f, sc.workloads[workload_index] if workload_index is not None else None)


def test_every_conclusion_of_the_documents_is_encoded(kb):
    have = referenced_conclusions()
    missing = [f"{c.document[:3]}:{c.id} ({c.decision})" for c in kb.conclusions()
               if f"{c.document[:3]}:{c.id}" not in have]
    assert not missing, missing


def test_every_rule_reference_resolves_and_ids_are_unique(kb):
    index = CitationIndex(kb)
    ids = [r.id for r in RULES]
    assert len(ids) == len(set(ids))
    for rule in RULES:
        assert catalog.get(rule.decision) is not None, rule.id  # a rule of a decision the engine takes
        assert rule.kind in KIND_ORDER and rule.scope in ("cluster", "workload") and rule.text
        for ref in (*rule.conclusions, *rule.evidence):
            cites = index.resolve(ref)
            assert cites and all(c["document"].startswith(ref[:3]) for c in cites), ref
    with pytest.raises(KeyError):
        index.resolve("001:NO-SUCH-ROW")


@pytest.mark.parametrize("name", ["scenario.yaml", "small-lab.json", "cassandra-containers.toml"])
def test_every_condition_and_effect_runs_on_the_examples(name):
    sc = load_scenario(EXAMPLES / name)
    facts = Facts.of(sc)
    facts.hypervisor, facts.overallocation_ratio, facts.storage_backend = "KVM", 2.0, "nfs_file"
    for rule in RULES:
        for w in (sc.workloads if rule.scope == "workload" else [None]):
            ctx = RuleContext(sc, facts, w)
            if rule.condition(ctx):
                rule.effect_for(ctx)


def test_live_migration_leaves_only_the_modes_that_bypass_the_host_cache():
    """Doc 001 Section 3: none is the only one of its three modes that supports migration; directsync
    (not in doc 001) bypasses the host page cache too and is the other mode libvirt accepts."""
    out = evaluate("cache_mode", ctx_for(make([workload(live_migration=True, data_loss_tolerance="any")])), CACHE)
    assert set(out.excluded) == {"writeback", "writethrough", "unsafe"}
    assert "cache.migration-needs-none" in [r.id for r in out.fired]
    assert out.fired[0].effect_for(ctx_for(make())).scores == {"none": 1.0}


def test_no_tolerated_loss_excludes_modes_that_acknowledge_before_stable_storage():
    """Doc 001 Conclusions: writeback endangers integrity, none 'does not provide total data
    integrity', writethrough ensures it."""
    out = evaluate("cache_mode", ctx_for(make([workload(data_loss_tolerance="none")])), CACHE)
    assert set(out.excluded) == {"writeback", "unsafe", "none"}
    assert "writethrough" not in out.excluded and "directsync" not in out.excluded
    assert out.scores["writethrough"] > out.scores["writeback"]
    anything = evaluate("cache_mode", ctx_for(make([workload(data_loss_tolerance="any")])), CACHE)
    assert "unsafe" not in anything.excluded and "writeback" not in anything.excluded


def test_heavily_loaded_migrating_vms_exclude_medium_and_massive_overallocation():
    heavy = ctx_for(make([workload(live_migration=True, cpu_intensity="high")]), None)
    out = evaluate("vcpu_overallocation", heavy, OVERALLOCATION)
    assert {"medium", "massive", "moderate"} <= set(out.excluded)
    assert "little" not in out.excluded and "none" not in out.excluded
    light = ctx_for(make([workload(live_migration=True, cpu_intensity="low",
                                   io={"intensity": "low"})]), None)
    out = evaluate("vcpu_overallocation", light, OVERALLOCATION)
    assert not out.excluded and "oa.light-migration-massive-ok" in [r.id for r in out.fired]


def test_hypervisor_preferences_and_hardware():
    data = make()
    data["preferences"] = {"open_source_only": True}
    data["hosts"]["cpu"]["virtualization"] = "none"
    out = evaluate("hypervisor", ctx_for(data, None), HV)
    assert set(out.excluded) == {"VMware ESXi", "KVM", "XenServer"}


def test_rules_of_other_scopes_do_not_fire():
    ctx = ctx_for(make([workload(live_migration=True)]), None)  # cluster scope: no workload
    out = evaluate("cache_mode", ctx, CACHE)
    assert not out.fired and not out.excluded


def test_conflicts_name_both_rules():
    ctx = ctx_for(make([workload(vms=2, live_migration=True)], count=2, reserve=0))
    out = evaluate("cache_mode", ctx, CACHE)
    text = out.conflicts("none")
    line = next(t for t in text if "cache.few-vms-writeback" in t)
    assert line.startswith("cache.few-vms-writeback, cache.reads-avoid-none favour writeback, "
                           "but cache.migration-needs-none (safety) excludes it"), text
    assert len(text) == len({t.split(" favour")[1] for t in text})  # one line per (favourite, reason)
