"""``storage_backend``: where VM images live — ``local_disk``, ``nfs_file`` (image files on
NFS), ``nfs_root`` (guest root file system over NFS), ``iscsi`` (block devices) or
``distributed`` (a distributed store) — among the options the hosts offer.

Expected figure: VM boot time (s) under the scenario's neighbour load, from the ``boot_time``
family (doc 002): local disks see the I/O-heavy VMs of one host, with the host's disks' IOPS
against the testbed's one SCSI disk (taken as an HDD, 150 IOPS) as ``disk_speedup``; shared
storage sees those of the whole cluster over its link (``server_link_gbps``; doc 002's was
1 Gb/s).
A distributed store has no boot-time measurement; it gets the read and write throughput per VM
of the thesis' best design (``distributed_throughput``: Compuverde Structured, multicast lookup
with an NFS interface, doc 004 chapter 4) with every VM of the cluster as a client, the
storage entry's ``network_gbps`` as each storage node's link and each VM's share of its host's
NIC as a cap, and the time to rebuild a lost
node's copies (``distributed_recovery_time``, Table 4.2).
"""

from __future__ import annotations

from advisor.hardware import TESTBEDS, close, stamp
from advisor.recommend.base import Alternative, EngineContext, Recommendation, decide, prediction_figure
from advisor.recommend.disks import disk_iops, hardware_of
from advisor.rules import Effect, Rule, evaluate

DECISION = "storage_backend"
BACKENDS = ("local_disk", "nfs_file", "nfs_root", "iscsi", "distributed")
#: the distributed design the thesis found best (doc 004 c4-C02, c3-C01): its figures stand for
#: the distributed option
DISTRIBUTED_SYSTEM = "compuverde_structured"


#: IOPS of the doc 002 testbed's local disk (one SCSI disk per blade, Section 4.1), taken as an HDD's
TESTBED_DISK_IOPS = TESTBEDS["boot_time"].disk_iops


def _disk_speedup(ctx: EngineContext) -> float:
    """The hosts' local disks' random IOPS against the doc 002 testbed's one disk."""
    total = sum(disk_iops(ctx, d)[0] * d.count for d in ctx.scenario.hosts.disks)
    return max(total / TESTBED_DISK_IOPS, 0.01) if total else 1.0


def _stamp_boot(ctx: EngineContext, fig: dict, backend: str, neighbour: str, query: dict) -> dict:
    """Basis of a boot time: the local disks or the storage link it was transferred onto (only
    I/O-heavy neighbours make a boot wait for them; idle and CPU-heavy ones do not, doc 002
    Section 5.2, so then the documents' figure stands as measured)."""
    hw, testbed = hardware_of(ctx), TESTBEDS["boot_time"]
    if neighbour != "io":
        return stamp(fig, [], testbed)
    if backend == "local_disk":
        dev = hw.local()
        figs = dev.figures if dev is not None else []
        return stamp(fig, figs, testbed, close(query.get("disk_speedup", 1.0), 1.0))
    link = hw.store_link("iscsi" if backend == "iscsi" else "nfs")
    return stamp(fig, [link] if link else [], testbed, close(query["server_link_gbps"], testbed.link_gbps))


def _distributed(ctx: EngineContext) -> tuple[dict, list[dict], bool]:
    """Expected figures of the distributed option, their citations, and whether extrapolated."""
    sc = ctx.scenario
    link = max((s.network_gbps for s in sc.hosts.shared_storage if s.kind == "distributed"), default=1.0)
    base = {"storage_system": DISTRIBUTED_SYSTEM, "node_link_gbps": link,
            "concurrent_vms": float(max(sc.total_vms, 1)),
            # each VM's share of its host's NIC, which the VMs of a host share
            "host_link_gbps": sc.hosts.nic_gbps / max(ctx.facts.vms_per_host, 1.0)}
    tp = ctx.models.predict("distributed_throughput", [{**base, "operation": op} for op in ("read", "write")],
                            calibrate=False)
    rt = ctx.models.predict("distributed_recovery_time", [{"storage_system": DISTRIBUTED_SYSTEM}], calibrate=False)
    figs, cites, extrap = {}, [], False
    note = "Compuverde Structured (multicast lookup), the thesis' best distributed design"
    hw = hardware_of(ctx)
    testbed = TESTBEDS["distributed_throughput"]
    links = [f for f in (hw.store_link("distributed"), hw.nic()) if f is not None]
    if tp is not None:
        for i, op in enumerate(("read", "write")):
            figs[f"throughput_per_vm_{op}"] = prediction_figure(tp, i)
            figs[f"throughput_per_vm_{op}"]["system"] = note
            stamp(figs[f"throughput_per_vm_{op}"], links, testbed, close(link, testbed.link_gbps))
        cites += ctx.model_citations("distributed_throughput", tp)
        extrap = bool(tp.extrapolated.any())
    if rt is not None:
        figs["recovery_time"] = prediction_figure(rt, 0)
        figs["recovery_time"]["system"] = note
        stamp(figs["recovery_time"], [], testbed)  # per system and node count: no hardware figure enters
        cites += ctx.model_citations("distributed_recovery_time", rt)
    return figs, cites, extrap


def _offered(ctx: EngineContext) -> dict[str, str]:
    """backend -> reason it is not on offer (empty when offered)."""
    kinds = {s.kind for s in ctx.scenario.hosts.shared_storage}
    out = {}
    if not ctx.scenario.hosts.disks:
        out["local_disk"] = "the hosts have no local disks"
    for b, kind in (("nfs_file", "nfs"), ("nfs_root", "nfs"), ("iscsi", "iscsi"), ("distributed", "distributed")):
        if kind not in kinds:
            out[b] = f"no {kind} shared storage on offer"
    return out


def recommend(ctx: EngineContext) -> list[Recommendation]:
    """One cluster-wide image storage backend; sets ``ctx.facts.storage_backend``."""
    sc, facts = ctx.scenario, ctx.facts
    outcome = evaluate(DECISION, ctx.rule_ctx(), BACKENDS)
    for b, reason in _offered(ctx).items():
        outcome.excluded.setdefault(b, []).insert(0, (_OFFER_RULE, reason))
    cpu_heavy = any(w.cpu_intensity == "high" for w in sc.workloads)
    neighbour = "io" if facts.io_heavy_vms else ("cpu" if cpu_heavy else "idle")
    link = {s.kind: s.network_gbps for s in sc.hosts.shared_storage}
    modelled = ("local_disk", "nfs_file", "nfs_root", "iscsi")
    queries = []
    speedup = _disk_speedup(ctx)
    for b in modelled:
        q = {"storage_backend": b, "neighbour_load": neighbour}
        if b == "local_disk":
            q.update(concurrent_vms=float(round(facts.io_heavy_vms_per_host, 3)), disk_speedup=speedup)
        else:
            q.update(concurrent_vms=float(facts.io_heavy_vms),
                     server_link_gbps=max(link.get("iscsi" if b == "iscsi" else "nfs", 1.0), 0.01))
        queries.append(q)
    pred = ctx.models.predict("boot_time", queries, calibrate=False)
    expected, why, extra, cites = {b: {} for b in BACKENDS}, {}, {}, []
    if pred is not None:
        cites = ctx.model_citations("boot_time", pred)
        offered = [i for i, b in enumerate(modelled) if b not in outcome.excluded]
        best = min((float(pred.mean[i]) for i in offered), default=float(min(pred.mean)))
        for i, b in enumerate(modelled):
            expected[b]["boot_time"] = _stamp_boot(ctx, prediction_figure(pred, i), b, neighbour, queries[i])
            t = float(pred.mean[i])
            extra[b] = -min(3.0, 2.0 * (t / max(best, 1e-9) - 1.0))  # up to -3 points when boot is slower
            if t > best * 1.2:
                why[b] = f"boot takes about {t:.0f} s against {best:.0f} s"
    if "distributed" not in outcome.excluded:  # on offer: its figures and their sources
        dist_figs, dist_cites, _ = _distributed(ctx)
        expected["distributed"].update(dist_figs)
        cites += dist_cites
    rec = decide(DECISION, "cluster", outcome, ctx, extra_scores=extra, expected=expected, why=why,
                 model_citations=cites, has_model=pred is not None, order=BACKENDS)
    rec.rationale = (f"Keep VM images on {rec.choice} (neighbour load: {neighbour}; "
                     f"{facts.io_heavy_vms} I/O-heavy VMs). " + rec.rationale)
    rec.details = {"neighbour_load": neighbour, "concurrency": {q["storage_backend"]: q["concurrent_vms"]
                                                                for q in queries},
                   "local_disk_speedup": round(speedup, 3)}
    if all(b in outcome.excluded for b in BACKENDS):
        rec.warnings.append("no image storage fits: the hosts offer no local disks or shared storage the "
                            "workloads can use")
        rec.confidence = min(rec.confidence, 0.2)
        if all(any(rule is _OFFER_RULE for rule, _ in outcome.excluded[b]) for b in BACKENDS):
            # nothing on offer at all: no choice to make (the host count names what is missing)
            lost = Alternative(rec.choice, rec.score, dict(rec.expected), "excluded: " + _offered(ctx)[rec.choice],
                               True)
            rec.alternatives.insert(0, lost)
            rec.choice, rec.expected, rec.extrapolated = "infeasible", {}, False
            rec.rationale = "No storage can hold the VM images: the hosts have no local disks and no shared " \
                            "storage is on offer. " + rec.rationale
            facts.storage_backend = None
            ctx.chosen["storage_backend"] = None
            return [rec]
    facts.storage_backend = rec.choice
    ctx.chosen["storage_backend"] = rec.choice
    return [rec]


_OFFER_RULE = Rule("sb.on-offer", DECISION, "cluster", "safety",
                   "Only storage the hosts offer can hold images.", lambda c: True, Effect())
