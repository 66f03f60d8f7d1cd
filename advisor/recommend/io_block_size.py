"""``io_block_size``: the I/O request size an application in a VM should use (doc 003
sections II.D and II.E): small requests for purely random reads, large ones when reads have
spatial locality or are sequential."""

from __future__ import annotations

from advisor.recommend.base import EngineContext, Recommendation, decide
from advisor.rules import evaluate

DECISION = "io_block_size"
CHOICES = ("4 KiB", "64 KiB", "1 MiB")


def recommend(ctx: EngineContext) -> list[Recommendation]:
    out = []
    for w in ctx.scenario.workloads:
        outcome = evaluate(DECISION, ctx.rule_ctx(w), CHOICES)
        rec = decide(DECISION, f"workload:{w.name}", outcome, ctx, order=CHOICES)
        rec.rationale = (f"{w.name} ({w.io.pattern} I/O, now {w.io.block_size_kib:g} KiB requests): use "
                         f"{rec.choice} requests. {rec.rationale}")
        out.append(rec)
    return out
