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
    hv = ctx.facts.hypervisor or "VMware ESXi"
    lead = f"Balance load with {rec.choice}."
    if hv != "VMware ESXi" and rec.choice != "manual (expert plan)":
        lead += (f" The levels are VMware DRS migration thresholds, which the thesis measured; {hv} has no "
                 "DRS: set the balancer you run on it (an oVirt or OpenStack scheduler, for example) to the "
                 "equivalent aggressiveness.")
        rec.warnings.append(f"DRS thresholds were measured on VMware ESXi; on {hv} use an equivalent balancer "
                            "setting and check its migrations")
        rec.confidence = max(0.05, rec.confidence - 0.15)
        rec.extrapolated = True
    rec.rationale = f"{lead} {rec.rationale}"
    return [rec]
