"""``load_balancing``: the automatic migration (DRS-style) threshold, from doc 004 chapter 7;
given only when some workload live-migrates (otherwise nothing moves automatically)."""

from __future__ import annotations

from advisor.recommend.base import EngineContext, Recommendation, decide
from advisor.rules import evaluate

DECISION = "load_balancing"
CHOICES = ("level 5 (aggressive)", "level 3 (default)", "level 1 (conservative)", "manual (expert plan)")


def recommend(ctx: EngineContext) -> list[Recommendation]:
    if not any(w.live_migration for w in ctx.scenario.workloads):
        return []
    outcome = evaluate(DECISION, ctx.rule_ctx(), CHOICES)
    rec = decide(DECISION, "cluster", outcome, ctx, order=CHOICES)
    rec.rationale = f"Balance load with {rec.choice}. {rec.rationale}"
    return [rec]
