"""A guard on ``Outcome.key()`` (close-session4, "Last look"): disk placement and cache mode build one
recommendation per key of their rules' outcome (plus the workload fields they list beside it), and the key
lists by hand what it holds of the outcome (scores, exclusions, warnings, each fired rule's effect here). A
later ``build`` (or ``decide``) reading an outcome field the key omits (a new field, or the rule context
itself, e.g. ``outcome.ctx.w.name``) would hand one workload's recommendation to another: these tests fail
then, as the cache mode's ``figures_key`` test fails for its figures.

Every outcome the per-workload recommenders evaluate in a real advice is traced: the reads of its fields
while its key is made, and every other read (the recommender's compute and build, ``decide``). The rule
context is read only through a fired rule's effect (``Rule.effect_for``), whose result the key holds."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil

import pytest

import advisor.recommend
from advisor.engine import advise
from advisor.recommend import cache_mode, disk_placement
from advisor.rules import Outcome, Rule, evaluate
from advisor.scenario import parse_scenario
from tests.advisor.test_profiles import _varied

pytestmark = pytest.mark.timeout(300)

FIELDS = frozenset(f.name for f in dataclasses.fields(Outcome))


class _Tracer:
    """Reads of traced outcomes: (field path, phase), phase "key" inside ``Outcome.key``, else "build"."""

    def __init__(self) -> None:
        self.in_effect = 0  # inside Rule.effect_for: the rule reads the context for its effect (held by the key)


class _CtxView:
    """The rule context of a traced outcome: its attribute reads outside a rule's effect are noted."""

    def __init__(self, ctx, outcome: _Traced):
        object.__setattr__(self, "_ctx", ctx)
        object.__setattr__(self, "_outcome", outcome)

    def __getattr__(self, name: str):
        outcome = object.__getattribute__(self, "_outcome")
        if not outcome._tracer.in_effect:
            outcome._note(("ctx", name))
        return getattr(object.__getattribute__(self, "_ctx"), name)


class _Traced(Outcome):
    """An outcome that notes which of its fields are read, and when."""

    def __getattribute__(self, name: str):
        value = object.__getattribute__(self, name)
        if name in FIELDS:
            self._note((name,))
            if name == "ctx":
                return _CtxView(value, self)
        return value

    def _note(self, path: tuple[str, ...]) -> None:
        phase = "key" if object.__getattribute__(self, "_in_key") else "build"
        object.__getattribute__(self, "_reads").add((path, phase))

    def key(self) -> tuple:
        object.__setattr__(self, "_in_key", True)
        object.__setattr__(self, "_keyed", True)
        try:
            return super().key()
        finally:
            object.__setattr__(self, "_in_key", False)

    def outside_key(self) -> set[tuple[str, ...]]:
        """The fields read outside ``key()`` that ``key()`` itself never read."""
        reads = object.__getattribute__(self, "_reads")
        keyed = {p for p, phase in reads if phase == "key"}
        return {p for p, phase in reads if phase == "build"} - keyed


def _trace(monkeypatch) -> list[_Traced]:
    """Trace every outcome the recommenders evaluate from now on (returned as they are made)."""
    tracer, made = _Tracer(), []
    real_effect = Rule.effect_for

    def effect_for(rule, ctx):
        tracer.in_effect += 1
        try:
            return real_effect(rule, ctx)
        finally:
            tracer.in_effect -= 1

    def traced(*args, **kwargs):
        o = evaluate(*args, **kwargs)
        t = _Traced(o.scores, o.excluded, o.warnings, o.fired, o.ctx)
        for name, value in (("_tracer", tracer), ("_reads", set()), ("_in_key", False), ("_keyed", False),
                            ("_decision", args[0])):
            object.__setattr__(t, name, value)
        made.append(t)
        return t

    monkeypatch.setattr(Rule, "effect_for", effect_for)
    for info in pkgutil.iter_modules(advisor.recommend.__path__):
        module = importlib.import_module(f"advisor.recommend.{info.name}")
        if getattr(module, "evaluate", None) is evaluate:
            monkeypatch.setattr(module, "evaluate", traced)
    return made


def test_the_recommenders_read_of_an_outcome_only_what_its_key_holds(session_kb, monkeypatch):
    made = _trace(monkeypatch)
    advise(parse_scenario(_varied(40, 8)), kb=session_kb)
    keyed = [o for o in made if object.__getattribute__(o, "_keyed")]
    decisions = {object.__getattribute__(o, "_decision") for o in keyed}
    assert {disk_placement.DECISION, cache_mode.DECISION} <= decisions and len(keyed) >= 40, decisions
    outside = {p for o in keyed for p in o.outside_key()}
    assert not outside, f"read of an outcome but not in Outcome.key(): {sorted(outside)}"


def test_the_guard_catches_a_build_reading_the_rule_context(session_kb, monkeypatch):
    """The guard can fail: a ``decide`` that also read the workload's name through the outcome is caught."""
    real = disk_placement.decide

    def decide(decision, scope, outcome, ctx, **kwargs):
        assert outcome.ctx.workload.name  # a read the key does not hold
        return real(decision, scope, outcome, ctx, **kwargs)

    made = _trace(monkeypatch)
    monkeypatch.setattr(disk_placement, "decide", decide)
    advise(parse_scenario(_varied(6, 2)), kb=session_kb)
    outside = {p for o in made if object.__getattribute__(o, "_keyed") for p in o.outside_key()}
    assert outside == {("ctx", "workload")}
