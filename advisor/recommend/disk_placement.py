"""``disk_placement``: virtual disk backing, size and zone per workload, with co-location advice
(doc 003 section II, doc 002 section 5.2, doc 004 chapters 5 and 10).

The choices depend on where the images live (the ``storage_backend`` decision): on local hard
disks every choice applies; flash disks have no zones (no outer zone); images on NFS or a
distributed store are files (no partitions); iSCSI exports block devices (no image files).

Expected figure (testbed values, not a regression): Postmark throughput on the doc 003 testbed
(Figure 1(d)/(e)) with a virtual disk close to the footprint (4 GB: 2.1 MB/s) or oversized (40 GB:
1.3 MB/s; shown for a file-backed image only when the workload's disk is oversized, since a file
was measured to be slower still, Figure 1(c), without a figure), and their ratio.
"""

from __future__ import annotations

from advisor.hardware import TESTBEDS, stamp
from advisor.recommend.base import EngineContext, Recommendation, decide, figure, fixed_choice
from advisor.recommend.profile import per_workload
from advisor.rules import DP_FILE, DP_FILE_SIZED, DP_OUTER, DP_SIZED, Effect, Rule, evaluate, oversized

DECISION = "disk_placement"
CHOICES = (DP_SIZED, DP_OUTER, DP_FILE_SIZED, DP_FILE)
PARTITIONS = (DP_SIZED, DP_OUTER)
FILES = (DP_FILE_SIZED, DP_FILE)


def _not_applicable(ctx: EngineContext) -> dict[str, str]:
    """choice -> why it does not apply to where the images live."""
    backend = ctx.facts.storage_backend or "local_disk"
    if backend == "local_disk":
        if any(d.kind == "hdd" for d in ctx.scenario.hosts.disks):
            return {}
        return {DP_OUTER: "the hosts' flash disks have no zones: every block is reached equally fast"}
    if backend == "iscsi":
        return {c: "iSCSI exports block devices: images are LUNs, not files" for c in FILES} | {
            DP_OUTER: "the zones of the iSCSI target's disks are not described in the scenario"}
    label = {"nfs_file": "files on NFS", "nfs_root": "file systems on NFS", "distributed": "objects or files "
             "of the distributed store"}[backend]
    return {c: f"images are {label}, not host partitions" for c in PARTITIONS}


def _testbed(ctx: EngineContext, w) -> dict[str, dict]:
    rows = {key: ctx.cites.rows.get((ctx.cites.doc("003"), key)) for key in ("F1d-01", "F1e-01")}
    sized, big = rows["F1d-01"], rows["F1e-01"]
    out: dict[str, dict] = {}
    if sized is None:
        return out
    for c in (DP_SIZED, DP_OUTER, DP_FILE_SIZED):
        out[c] = {"testbed_throughput": figure(sized.value, sized.unit, source=f"003 {sized.locator} (4 GB disk)")}
        if big is not None:
            out[c]["gain_vs_oversized"] = figure(sized.value / big.value, "ratio",
                                                 source=f"003 {sized.locator}, {big.locator}")
    if big is not None and oversized(w):
        out[DP_FILE] = {"testbed_throughput": figure(big.value, big.unit, 0.0, big.value,
                                                     source=f"003 {big.locator} (40 GB disk; a file-backed "
                                                            "disk was slower still)")}
    for figs in out.values():  # the testbed's own figures, labelled as such: what carries over is the ratio
        for fig in figs.values():
            stamp(fig, [], TESTBEDS["doc003_testbed"])
            fig.measured_on = "doc 003's testbed"
    return out


def recommend(ctx: EngineContext) -> list[Recommendation]:
    """One placement per workload (computed once per distinct profile, :mod:`advisor.recommend.profile`;
    built once per outcome of the rules: an estate's 1,124 profiles decide 34 ways)."""
    blocked = _not_applicable(ctx)
    rows = [ctx.cites.rows.get((ctx.cites.doc("003"), key)) for key in ("F1d-01", "F1e-01")]
    cites = [r.citation() for r in rows if r is not None]
    where = ctx.facts.storage_backend or "local_disk"
    containers = ctx.chosen.get("containers", {})
    built: dict[tuple, Recommendation] = {}  # by outcome and what else build reads (see compute)

    def build(w, scope: str, in_containers: bool, outcome) -> Recommendation:
        rec = decide(DECISION, scope, outcome, ctx, expected=_testbed(ctx, w), order=CHOICES,
                     model_citations=[dict(c) for c in cites])
        size = w.io.footprint_gb
        lead = f"Place the virtual disk as {rec.choice}"
        if size:
            lead += f" (about {max(size * 1.25, 1):.0f} GB for a {size:g} GB footprint, thin-provisioned)"
        rec.rationale = f"{lead}; images on {where}. {rec.rationale}"
        if in_containers:
            rec.rationale = ("The workload is advised to run as containers (see the hypervisor advice); this applies "
                             "if it runs in VMs instead. " + rec.rationale)
            rec.details["applies_if"] = "the workload runs in VMs"
        return rec

    def compute(w, scope: str, in_containers: bool) -> Recommendation:
        outcome = evaluate(DECISION, ctx.rule_ctx(w), CHOICES)
        for c, reason in blocked.items():
            outcome.excluded.setdefault(c, []).insert(0, (_FIT_RULE, reason))
        # what build reads besides the outcome: the figures (oversized or not), the footprint, the fixed choice
        key = (outcome.key(), oversized(w), w.io.footprint_gb, in_containers, fixed_choice(ctx, DECISION, scope))
        if key not in built:
            built[key] = build(w, scope, in_containers, outcome)
        return built[key]

    return per_workload(ctx, DECISION, ctx.scenario.workloads, compute, lambda w: bool(containers.get(w.name)))


_FIT_RULE = Rule("dp.where-images-live", DECISION, "workload", "safety",
                 "Only placements that exist where the images live apply.", lambda c: True, Effect())
