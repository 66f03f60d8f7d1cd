"""``cpu_governor``: the host CPU frequency governor (performance or ondemand), doc 003 Table I.

Expected figure (testbed values): Postmark requests served per second by an I/O-bound VM whose
neighbour cores are idle, with each governor.
"""

from __future__ import annotations

from advisor.recommend.base import EngineContext, Recommendation, decide, figure
from advisor.rules import evaluate

DECISION = "cpu_governor"
CHOICES = ("performance", "ondemand")


def recommend(ctx: EngineContext) -> list[Recommendation]:
    outcome = evaluate(DECISION, ctx.rule_ctx(), CHOICES)
    expected = {}
    for key, choice in (("T1-09", "performance"), ("T1-01", "ondemand")):
        row = ctx.cites.rows.get((ctx.cites.doc("003"), key))
        if row is not None:
            expected[choice] = {"testbed_request_rate": figure(row.value, row.unit, source=f"003 {row.locator}")}
    rec = decide(DECISION, "cluster", outcome, ctx, expected=expected, order=CHOICES)
    scaling = ctx.scenario.hosts.cpu.frequency_scaling
    note = " The hosts run without frequency scaling, so the clock already stays high." if scaling is False else ""
    rec.rationale = f"Run the {rec.choice} governor.{note} {rec.rationale}"
    return [rec]
