"""``disk_placement``: virtual disk backing, size and zone per workload, with co-location advice
(doc 003 section II, doc 002 section 5.2, doc 004 chapters 5 and 10).

Expected figure (testbed values, not a regression): Postmark throughput on the doc 003 testbed
with a virtual disk close to the footprint (4 GB: 2.1 MB/s) or oversized (40 GB: 1.3 MB/s).
"""

from __future__ import annotations

from advisor.recommend.base import EngineContext, Recommendation, decide, figure
from advisor.rules import DP_FILE, DP_OUTER, DP_SIZED, evaluate

DECISION = "disk_placement"
CHOICES = (DP_SIZED, DP_OUTER, DP_FILE)


def _testbed(ctx: EngineContext) -> dict[str, dict]:
    out = {}
    for key, choice in (("F1d-01", DP_SIZED), ("F1e-01", DP_FILE)):
        row = ctx.cites.rows.get((ctx.cites.doc("003"), key))
        if row is not None:
            out[choice] = {"testbed_throughput": figure(row.value, row.unit, source=f"003 {row.locator}")}
    if DP_SIZED in out:
        out[DP_OUTER] = dict(out[DP_SIZED])
    return out


def recommend(ctx: EngineContext) -> list[Recommendation]:
    out = []
    for w in ctx.scenario.workloads:
        outcome = evaluate(DECISION, ctx.rule_ctx(w), CHOICES)
        rec = decide(DECISION, f"workload:{w.name}", outcome, ctx, expected=_testbed(ctx), order=CHOICES)
        size = w.io.footprint_gb
        lead = f"{w.name}: {rec.choice}"
        if size:
            lead += f" (about {max(size * 1.25, 1):.0f} GB for a {size:g} GB footprint, thin-provisioned)"
        rec.rationale = f"{lead}. {rec.rationale}"
        out.append(rec)
    return out
