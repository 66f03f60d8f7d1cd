"""``storage_backend``: where VM images live — ``local_disk``, ``nfs_file`` (image files on
NFS), ``nfs_root`` (guest root file system over NFS), ``iscsi`` (block devices) or
``distributed`` (a distributed store) — among the options the hosts offer.

Expected figure: VM boot time (s) under the scenario's neighbour load, from the ``boot_time``
family (doc 002): local disks see the I/O-heavy VMs of one host, with the host's disks' IOPS
against the testbed's one SCSI disk (taken as an HDD, 150 IOPS) as ``disk_speedup``; shared
storage sees those of the whole cluster over its link (``server_link_gbps``; doc 002's was
1 Gb/s) and on its own disks (``store_speedup``, :func:`store_speedup`: the store's stated IOPS,
else disks like the hosts' as many as its capacity holds, against doc 002's store, taken at the
sixteen testbed disks its sixteen I/O-heavy VMs kept busy; a store that states neither is taken
as the testbed's). The neighbours' load counts their I/O-heavy VMs, or what their traffic fills
of the link or of the store's disks when that weighs more (a traffic that fills either counts as
the sixteen VMs that filled the testbed's link).
With I/O-heavy neighbours every modelled option also gets ``boot_slowdown`` (boot time over the
same boot with idle neighbours), and when the chosen option's exceeds 3x a warning quotes doc 002
(three I/O-heavy VMs made a local-disk boot about 15x slower, row F6-03, the number derived from
the row) and names the way out: shared storage, whose boot stayed near idle up to sixteen such
VMs (F6-04), or a faster array.
A distributed store has no boot-time measurement; it gets the read and write throughput per VM
of the system the scenario names (``shared_storage[].system``), else of the thesis' best design
(``distributed_throughput``: Compuverde Structured, multicast lookup with an NFS interface, doc 004
chapter 4) with every VM of the cluster as a client, and the time to rebuild a lost node's copies
(``distributed_recovery_time``, Table 4.2). The storage entry's ``network_gbps`` is the store's
network rate as a whole, as for every shared store (the cache-mode and block-size cards read it so
too): the store is taken to have the thesis' number of storage nodes (:data:`ASSUMED_NODES`, the
scenario does not state it), each with an equal part of that rate as its link; each VM's share of
its host's NIC caps its throughput. So the cluster's VMs together never get more than the declared
rate. The recovery time moves the lost copies over the nodes' links: the thesis' time times its
node link over the scenario's (the same data per node assumed: the thesis does not state it),
extrapolated unless the links are the thesis' 1 Gb/s; Gluster's and Swift's, which doc 004 blames
on their own machinery (:data:`INTERNALLY_BOUND`), get no faster on a faster link.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from advisor.expected import ExpectedFigure
from advisor.hardware import MB_S_PER_GBPS, TESTBEDS, close, finish, stamp
from advisor.models.boot import FAIR_SHARE_ROWS
from advisor.notes import NoteIndex
from advisor.notes import attach as attach_notes
from advisor.recommend.base import (
    Alternative,
    EngineContext,
    Recommendation,
    decide,
    figure,
    mark_target_misses,
    prediction_figure,
)
from advisor.recommend.disks import disk_iops, hardware_of
from advisor.recommend.load import vm_iops
from advisor.rules import Effect, Rule, evaluate
from advisor.statements import Statement, statement

DECISION = "storage_backend"
#: the choice when the scenario declares no storage at all (images outside the plan, not infeasible)
NOT_DECLARED = "none declared"
BACKENDS = ("local_disk", "nfs_file", "nfs_root", "iscsi", "distributed")
#: the distributed design the thesis found best (doc 004 c4-C02, c3-C01): its figures stand for
#: the distributed option
DISTRIBUTED_SYSTEM = "compuverde_structured"
#: storage nodes a distributed store is taken to have: the thesis' (doc 004 row c4-S4.3.1-03)
ASSUMED_NODES = 24.0
#: how the card names each distributed system the thesis measured (doc 004 chapter 4)
SYSTEM_NOTES = {"compuverde_structured": "Compuverde Structured (multicast lookup), the thesis' best distributed design",
                "compuverde_unstructured": "Compuverde Unstructured (multicast lookup, object interface)",
                "swift": "OpenStack Swift (DHT lookup, proxies)", "gluster": "GlusterFS (DHT lookup, proxies)"}


#: Table 4.2 rows (doc 004) of each system's two recovery runs
RECOVERY_ROWS = {"compuverde_unstructured": ("c4-T4.2-01", "c4-T4.2-02"),
                 "compuverde_structured": ("c4-T4.2-03", "c4-T4.2-04"),
                 "swift": ("c4-T4.2-05", "c4-T4.2-06"), "gluster": ("c4-T4.2-07", "c4-T4.2-08")}
#: systems whose recovery doc 004 blames on their own machinery, not on the network (Sections 4.4.4,
#: 4.5.3, 4.7: DHT lookup, rsync, proxies doing the self-healing, processors never above 50 %): a
#: faster node link does not shorten it, a slower one can still lengthen it
INTERNALLY_BOUND = {"gluster": "its proxies heal over rsync and its nodes' processors never pass 50 %",
                    "swift": "its replication runs over rsync"}


def recovery_scale(system: str, testbed_gbps: float, node_gbps: float) -> tuple[float, str]:
    """Factor on the thesis' recovery time for nodes linked at ``node_gbps`` (the testbed's were
    ``testbed_gbps``), and what the figure's note says about it: the lost copies cross the links,
    so the time moves with them, except that a system doc 004 finds bound by its own machinery
    (:data:`INTERNALLY_BOUND`) gets no faster on a faster link."""
    scale = testbed_gbps / max(node_gbps, 1e-9)
    if system in INTERNALLY_BOUND and scale < 1.0:
        return 1.0, (f"not shortened by the faster node link: doc 004 finds {INTERNALLY_BOUND[system]} "
                     "(Sections 4.4.4, 4.5.3, 4.7)")
    return scale, ""


def distributed_system(ctx: EngineContext) -> str:
    """The distributed store the scenario offers (``shared_storage[].system``), else the thesis' best."""
    return next((s.system for s in ctx.scenario.hosts.shared_storage if s.kind == "distributed" and s.system),
                DISTRIBUTED_SYSTEM)


#: IOPS of the doc 002 testbed's local disk (one SCSI disk per blade, Section 4.1), taken as an HDD's
TESTBED_DISK_IOPS = TESTBEDS["boot_time"].disk_iops


def _disk_speedup(ctx: EngineContext) -> float:
    """The hosts' local disks' random IOPS against the doc 002 testbed's one disk."""
    total = sum(disk_iops(ctx, d)[0] * d.count for d in ctx.scenario.hosts.disks)
    return max(total / TESTBED_DISK_IOPS, 0.01) if total else 1.0


def _stamp_boot(ctx: EngineContext, fig: ExpectedFigure, backend: str, neighbour: str, query: dict) -> ExpectedFigure:
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
    kind = "iscsi" if backend == "iscsi" else "nfs"
    link = hw.store_link(kind)
    store = hw.store_disks(kind, sized_only=True) if "store_speedup" in query else None
    figs = [*(store.figures if store is not None else []), *([link] if link else [])]
    # the documents' figure as measured only on the testbed's link with a store that says nothing of
    # its disks (taken as the testbed's); the store's own disks, when known, are a basis of their own
    same = close(query["server_link_gbps"], testbed.need("link_gbps")) and store is None
    return stamp(fig, figs, [testbed, TESTBEDS["boot_store"]][store is not None], same)


def _distributed(ctx: EngineContext) -> tuple[dict, list[dict], bool]:
    """Expected figures of the distributed option, their citations, and whether extrapolated."""
    sc = ctx.scenario
    link = max((s.network_gbps for s in sc.hosts.shared_storage if s.kind == "distributed"), default=1.0)
    node_link = link / ASSUMED_NODES  # the store's rate shared by its nodes (see the module doc)
    system = distributed_system(ctx)
    base = {"storage_system": system, "node_link_gbps": node_link, "node_count": ASSUMED_NODES,
            "concurrent_vms": float(max(sc.total_vms, 1)),
            # each VM's share of its host's NIC, which the VMs of a host share
            "host_link_gbps": sc.hosts.nic_gbps / max(ctx.facts.vms_per_host, 1.0)}
    tp = ctx.models.predict("distributed_throughput", [{**base, "operation": op} for op in ("read", "write")],
                            calibrate=False)
    rt = ctx.models.predict("distributed_recovery_time", [{"storage_system": system}], calibrate=False)
    figs, cites, extrap = {}, [], False
    note = f"{SYSTEM_NOTES[system]}; {ASSUMED_NODES:g} storage nodes assumed, {node_link:.3g} Gb/s each"
    hw = hardware_of(ctx)
    testbed = TESTBEDS["distributed_throughput"]
    store_link = hw.store_link("distributed")
    links = [f for f in (store_link, hw.nic()) if f is not None]
    same = close(node_link, testbed.need("link_gbps"))
    if tp is not None:
        for i, op in enumerate(("read", "write")):
            figs[f"throughput_per_vm_{op}"] = prediction_figure(tp, i)
            figs[f"throughput_per_vm_{op}"]["system"] = note
            stamp(figs[f"throughput_per_vm_{op}"], links, testbed, same)
        cites += ctx.model_citations("distributed_throughput", tp)
        extrap = bool(tp.extrapolated.any())
    if rt is not None:
        # the lost copies cross the nodes' links: the thesis' time at its link, moved to the scenario's
        scale, why = recovery_scale(system, testbed.need("link_gbps"), node_link)
        fig = prediction_figure(rt, 0, scale=scale)
        fig["extrapolated"] = bool(fig.get("extrapolated")) or not same
        fig["system"] = note
        fig["rows"] = [f"004:{r}" for r in RECOVERY_ROWS.get(system, ())]
        if why:
            fig["note"] = why
        figs["recovery_time"] = stamp(fig, [store_link] if store_link is not None else [], testbed, same)
        cites += ctx.model_citations("distributed_recovery_time", rt)
    return figs, cites, extrap


def _offered(ctx: EngineContext) -> dict[str, str]:
    """backend -> reason it is not on offer (empty when offered)."""
    kinds = {s.kind for s in ctx.scenario.hosts.shared_storage}
    out = {}
    if not ctx.scenario.hosts.disks:
        out["local_disk"] = "the hosts declare no local disks (hosts.disks)"
    for b, kind in (("nfs_file", "nfs"), ("nfs_root", "nfs"), ("iscsi", "iscsi"), ("distributed", "distributed")):
        if kind not in kinds:
            out[b] = f"no {kind} shared storage is declared in the scenario (hosts.shared_storage)"
    return out


MODELLED = ("local_disk", "nfs_file", "nfs_root", "iscsi")
#: boot slowdown (boot time under the neighbours' load / idle boot time) from which the advice
#: warns, and the doc 002 rows the warning quotes: Figure 6's three I/O-heavy VMs on one local
#: disk, the shared options that stayed near their idle boot up to sixteen such VMs
SLOWDOWN_WARNING = 3.0
SLOWDOWN_ROW, SHARED_ROWS = "002:F6-03", ("002:F6-04", "002:F6-05")


def _neighbour(ctx: EngineContext) -> str:
    cpu_heavy = any(w.cpu_intensity == "high" for w in ctx.scenario.workloads)
    return "io" if ctx.facts.io_heavy_vms else ("cpu" if cpu_heavy else "idle")


def boot_query(ctx: EngineContext, backend: str, neighbour: str | None = None) -> dict | None:
    """The ``boot_time`` query for ``backend`` with the scenario's neighbours (None when the family
    does not model ``backend``): local disks see the I/O-heavy VMs of one host (``facts``), shared
    storage those of the whole cluster over its link."""
    if backend not in MODELLED:
        return None
    facts = ctx.facts
    q: dict[str, object] = {"storage_backend": backend, "neighbour_load": neighbour or _neighbour(ctx)}
    if backend == "local_disk":
        q.update(concurrent_vms=busiest_io_heavy(facts), disk_speedup=_disk_speedup(ctx))
    else:
        kind = "iscsi" if backend == "iscsi" else "nfs"
        link = {s.kind: s.network_gbps for s in ctx.scenario.hosts.shared_storage}
        gbps = max(link.get(kind, 1.0), 0.01)
        # the neighbours' load on the store: their I/O-heavy count, or (when larger) what their
        # traffic fills of the link or of the store's disks, in the testbed's I/O-heavy VMs (doc 002:
        # sixteen of them brought the 1 Gb/s link of NFS file near capacity, Figure 8)
        speedup, disk_share = store_speedup(ctx, kind)
        capacity = gbps / TESTBEDS["boot_time"].need("link_gbps")
        if speedup is not None:
            q["store_speedup"] = speedup
            capacity = min(capacity, speedup)
        share = max(storage_traffic_mb_s(ctx) / (gbps * MB_S_PER_GBPS), disk_share)
        concurrent = max(float(facts.io_heavy_vms), share * LINK_FULL_VMS * capacity)
        # the VMs that share the link and the store with the boot (fair share beyond doc 002's
        # range): those whose I/O goes there, at most the cluster's VMs, whatever their traffic
        q.update(concurrent_vms=concurrent, server_link_gbps=gbps,
                 competing_vms=min(concurrent, float(max(ctx.scenario.total_vms, 1))))
    return q


def busiest_io_heavy(facts) -> float:
    """I/O-heavy VMs on the busiest active host: their rounded-up share (VMs are whole), the
    neighbours a local-disk boot there waits behind."""
    return float(math.ceil(facts.io_heavy_vms / max(facts.active_hosts, 1) - 1e-9))


def boot_time_at(ctx: EngineContext, active: int, backend: str | None = None) -> float | None:
    """Boot time (s) on ``backend`` (default the chosen one) at ``active`` active hosts: the one
    figure the storage card (refreshed at the recommended count, :func:`refresh`), the
    ``max_boot_time_s`` target, the host count's search and its warnings read."""
    backend = backend or ctx.facts.storage_backend
    if backend is None:
        return None
    facts = dataclasses.replace(ctx.facts)
    facts.set_hosts(ctx.scenario, active)
    query = boot_query(dataclasses.replace(ctx, facts=facts), backend)
    if query is None:
        return None
    pred = ctx.models.predict("boot_time", [query], calibrate=False)
    return None if pred is None else float(pred.mean[0])


def refresh(ctx: EngineContext) -> None:
    """The storage card at the facts the host count settled (the recommended active hosts): its
    choice kept, every figure, reason and warning recomputed there, so that the card, the
    ``max_boot_time_s`` target and the host count's warnings state one boot time."""
    old = ctx.chosen.get("_storage_rec")
    if old is None or old.choice not in BACKENDS:
        return
    new = recommend(ctx, keep=old.choice)[0]
    finish(new, hardware_of(ctx), ctx.facts.storage_backend)
    attach_notes(new, NoteIndex(ctx.kb))  # the document notes, as the engine gave the first card
    old.__dict__.update(new.__dict__)
    ctx.chosen["_storage_rec"] = old


def store_speedup(ctx: EngineContext, kind: str) -> tuple[float | None, float]:
    """(the shared store's disks against doc 002's store, the share of them the VMs' I/O fills):
    the ratio transfer of the boot figures onto the store's own disks (its stated IOPS, else disks
    like the hosts' as many as its capacity holds, at their declared figures, a site's, or the
    per-kind defaults), the lower of the IOPS and MB/s ratios against the testbed's store
    (:data:`advisor.hardware.TESTBEDS` ``boot_store``: sixteen testbed disks). (None, 0) when the
    scenario states neither the store's IOPS nor its capacity: the store is taken as the testbed's,
    which kept up with its link (the transfer is then the link's alone, the identity on doc 002)."""
    dev = hardware_of(ctx).store_disks(kind, sized_only=True)
    if dev is None:
        return None, 0.0
    bed = TESTBEDS["boot_store"]
    speedup = max(min(dev.iops / bed.disk_iops, dev.mb_s / bed.disk_mb_s), 1e-6)
    iops = sum(w.vms * vm_iops(w) for w in ctx.scenario.workloads)
    return speedup, max(iops / dev.iops, storage_traffic_mb_s(ctx) / dev.mb_s)


#: I/O-heavy VMs that bring the testbed's 1 Gb/s storage link near capacity (doc 002 Figure 8,
#: NFS file; the boot family's knee for nfs_file)
LINK_FULL_VMS = 16.0


def storage_traffic_mb_s(ctx: EngineContext) -> float:
    """The VMs' storage traffic over a shared store, MB/s: each VM's IOPS (``io.iops``, else the
    host count's per-intensity figure) times its request size (as the host count's warning)."""
    return sum(w.vms * vm_iops(w) * w.io.block_size_kib * 1024 / 1e6 for w in ctx.scenario.workloads)


def _slowdown_warning(ctx: EngineContext, choice: str, slowdown: dict, times: dict, idle: dict,
                      offered: list[str]) -> tuple[str, list[Statement]]:
    """The doc 002 warning when the chosen storage boots far slower under I/O-heavy neighbours."""
    if choice not in slowdown or slowdown[choice] < SLOWDOWN_WARNING:
        return "", []
    measured = statement(ctx.kb, "about {n}x slower", [SLOWDOWN_ROW], "value")
    sixteen = statement(ctx.kb, "up to {n} such VMs", [SHARED_ROWS[0]], "value")
    shared = [b for b in offered if b in ("nfs_file", "iscsi", "distributed")]
    if choice == "local_disk":
        way_out = (f"keep the images on shared storage ({', '.join(shared)} is on offer)" if shared else
                   "offer shared storage (NFS image files or iSCSI)") + \
            f", whose boot stayed near its idle time {sixteen.text} (doc 002 Figure 6), or put the images on a " \
            "faster array (more disks or flash) on each host"
        where = f"{busiest_io_heavy(ctx.facts):.0f} I/O-heavy VMs on the busiest host's local disks"
    else:
        way_out = "use a faster storage network or more storage servers (the link saturates, doc 002 Figure 8)"
        where = f"{ctx.facts.io_heavy_vms} I/O-heavy VMs sharing the {choice} storage"
        q = boot_query(ctx, choice)
        if q is not None and float(q["concurrent_vms"]) > ctx.facts.io_heavy_vms:  # the traffic weighs more
            gbps = float(q["server_link_gbps"])
            traffic = storage_traffic_mb_s(ctx)
            where += (f" and the VMs' storage traffic, {traffic:,.0f} MB/s on its {gbps:g} Gb/s link "
                      f"({100 * traffic / (gbps * MB_S_PER_GBPS):.0f} % of it)")
    text = (f"VM boot on {choice} grows about {slowdown[choice]:.0f}x with {where} (expected {times[choice]:.0f} s "
            f"against {idle[choice]:.0f} s with idle neighbours; on doc 002's testbed three I/O-heavy VMs made a "
            f"local-disk boot {measured.text}, Figure 6): {way_out}")
    return text, [measured, sixteen]


@dataclasses.dataclass
class _Boot:
    """The boot-time figures of the modelled options and what the decision reads of them."""

    queries: list
    pred: Any
    bounded: list
    expected: dict = dataclasses.field(default_factory=lambda: {b: {} for b in BACKENDS})
    why: dict = dataclasses.field(default_factory=dict)
    extra: dict = dataclasses.field(default_factory=dict)
    cites: list = dataclasses.field(default_factory=list)
    slowdown: dict = dataclasses.field(default_factory=dict)
    times: dict = dataclasses.field(default_factory=dict)
    idle: dict = dataclasses.field(default_factory=dict)


def _boot_figures(ctx: EngineContext, outcome, modelled: tuple, neighbour: str) -> _Boot:
    """Boot time (and, under I/O-heavy neighbours, the slowdown over the idle boot) of every
    modelled option, in one batch; scores up to 3 points down for a slower boot."""
    queries = [q for q in (boot_query(ctx, b, neighbour) for b in modelled) if q is not None]
    loaded = neighbour == "io"
    # the same boots with idle neighbours: what the slowdown under I/O load is relative to
    idle_q = [{**q, "neighbour_load": "idle", "concurrent_vms": 0.0} for q in queries] if loaded else []
    pred = ctx.models.predict("boot_time", queries + idle_q, calibrate=False) if queries else None
    out = _Boot(queries, pred, fair_share_bounded(ctx, queries) if pred is not None else [False] * len(queries))
    if pred is None:
        return out
    out.cites = ctx.model_citations("boot_time", pred)
    offered = [i for i, b in enumerate(modelled) if b not in outcome.excluded]
    best = min((float(pred.mean[i]) for i in offered), default=float(min(pred.mean[:len(modelled)])))
    for i, b in enumerate(modelled):
        out.expected[b]["boot_time"] = _stamp_boot(ctx, prediction_figure(pred, i), b, neighbour, queries[i])
        if out.bounded[i]:
            _mark_fair_share(ctx, out.expected[b]["boot_time"])
        t = float(pred.mean[i])
        out.times[b] = t
        if loaded:
            base = max(float(pred.mean[len(modelled) + i]), 1e-9)
            out.idle[b], out.slowdown[b] = base, t / base
            slow = figure(t / base, "ratio", float(pred.low[i]) / base, float(pred.high[i]) / base,
                          basis=pred.basis, extrapolated=bool(pred.extrapolated[i]), idle_boot_time=round(base, 3))
            out.expected[b]["boot_slowdown"] = _stamp_boot(ctx, slow, b, neighbour, queries[i])
            if out.bounded[i]:
                _mark_fair_share(ctx, out.expected[b]["boot_slowdown"])
        out.extra[b] = -min(3.0, 2.0 * (t / max(best, 1e-9) - 1.0))  # up to -3 points when boot is slower
        if t > best * 1.2:
            out.why[b] = f"boot takes about {t:.0f} s against {best:.0f} s"
    return out


def recommend(ctx: EngineContext, keep: str | None = None) -> list[Recommendation]:
    """One cluster-wide image storage backend; sets ``ctx.facts.storage_backend``. ``keep``: the
    choice already taken (:func:`refresh`)."""
    facts = ctx.facts
    outcome = evaluate(DECISION, ctx.rule_ctx(), BACKENDS)
    for b, reason in _offered(ctx).items():
        outcome.excluded.setdefault(b, []).insert(0, (_OFFER_RULE, reason))
    neighbour = _neighbour(ctx)
    # storage the scenario does not declare gets no figure (it would rest on an assumed link or disk)
    modelled = tuple(b for b in MODELLED if b not in _offered(ctx))
    speedup = _disk_speedup(ctx)
    boot = _boot_figures(ctx, outcome, modelled, neighbour)
    expected, why, extra, cites = boot.expected, boot.why, boot.extra, boot.cites
    queries, pred, bounded = boot.queries, boot.pred, boot.bounded
    slowdown, times, idle = boot.slowdown, boot.times, boot.idle
    _boot_target(ctx, outcome, times, extra, why)
    if "distributed" not in outcome.excluded:  # on offer: its figures and their sources
        dist_figs, dist_cites, _ = _distributed(ctx)
        expected["distributed"].update(dist_figs)
        cites += dist_cites
    rec = decide(DECISION, "cluster", outcome, ctx, extra_scores=extra, expected=expected, why=why,
                 model_citations=cites, has_model=pred is not None or not queries, order=BACKENDS, keep=keep)
    ctx.chosen["_storage_rec"] = rec
    rec.rationale = (f"Keep VM images on {rec.choice} (neighbour load: {neighbour}; "
                     f"{facts.io_heavy_vms} I/O-heavy VMs). " + rec.rationale)
    if any(bounded):  # the rows one boot's I/O volume rests on, with the card's sources
        doc = ctx.kb.resolve_document("002")
        have = {(c.get("document"), c.get("id")) for c in rec.citations if isinstance(c, dict)}
        rec.citations += [c for c in (ctx.kb.get(doc, row).citation() for row in FAIR_SHARE_ROWS)
                          if (c["document"], c["id"]) not in have]
    chosen_fig = rec.expected.get("boot_time")
    if chosen_fig is not None and chosen_fig.get("fair_share_bound"):
        rec.rationale += " " + FAIR_SHARE_TEXT.format(choice=rec.choice, mb=chosen_fig.get("boot_io_mb") or 0.0)
    rec.details.update({"neighbour_load": neighbour, "concurrency": {q["storage_backend"]: q["concurrent_vms"]
                                                                for q in queries},
                   "local_disk_speedup": round(speedup, 3),
                   # the shared stores' disks against doc 002's store (absent: taken as the testbed's)
                   "store_speedup": {q["storage_backend"]: round(float(q["store_speedup"]), 6)
                                     for q in queries if "store_speedup" in q}})
    warning, quoted = _slowdown_warning(ctx, rec.choice, slowdown, times, idle,
                                        [b for b in BACKENDS if b not in outcome.excluded])
    if warning:
        rec.warnings.append(warning)
        rec.citations += [ctx.kb.get(ctx.kb.resolve_document(ref.split(":")[0]), ref.split(":")[1]).citation()
                          for st in quoted for ref in st.rows]
        rec.details["statements"] = [st.to_dict() for st in quoted]
    if all(b in outcome.excluded for b in BACKENDS):
        rec.warnings.append("no image storage fits: the hosts offer no local disks or shared storage the "
                            "workloads can use")
        rec.confidence = min(rec.confidence, 0.2)
        if all(any(rule is _OFFER_RULE for rule, _ in outcome.excluded[b]) for b in BACKENDS):
            # nothing on offer at all: no choice to make (the host count names what is missing)
            lost = Alternative(rec.choice, rec.score, dict(rec.expected), "excluded: " + _offered(ctx)[rec.choice],
                               True)
            rec.alternatives.insert(0, lost)
            # (the thesis' real-time example, Table 11.1, states a CPU share and nothing of storage: the
            # plan then says where images could live only once the scenario declares some)
            rec.choice, rec.expected, rec.extrapolated = NOT_DECLARED, {}, False
            rec.rationale = "The scenario declares no storage for the VM images (no local disks, no shared " \
                            "storage): they live outside this plan, which sizes no storage; declare hosts.disks " \
                            "or hosts.shared_storage to have it chosen. " + rec.rationale
            facts.storage_backend = None
            ctx.chosen["storage_backend"] = None
            return [rec]
    facts.storage_backend = rec.choice
    ctx.chosen["storage_backend"] = rec.choice
    return [rec]


#: what the card says when the chosen option's boot time is the fair-share bound
FAIR_SHARE_TEXT = ("The boot time on {choice} is extrapolated beyond doc 002's measured range (up to sixteen "
                   "I/O-heavy VMs on its 1 Gb/s link): it is the fair-share bound, the time at the edge of that "
                   "range plus one boot's I/O (about {mb:,.0f} MB, from the NFS-root boot with sixteen I/O-heavy "
                   "VMs, doc 002 F6-08, S4.4-11, S4.1-08) for each competing VM more, at its fair share of the "
                   "link and of the store's disks.")


def fair_share_bounded(ctx: EngineContext, queries: list[dict]) -> list[bool]:
    """Per ``boot_time`` query: whether its time is the family's fair-share bound (beyond doc
    002's measured range, where the log-linear curve would grow faster than a fair share allows)."""
    fam = ctx.models.family("boot_time")
    check = getattr(fam, "fair_share_bounded", None)
    if check is None or not queries:
        return [False] * len(queries)
    return [bool(x) for x in check(queries)]


def _mark_fair_share(ctx: EngineContext, fig: dict) -> None:
    """Say on a boot-time figure that it is the fair-share bound, and the rows it rests on."""
    fam = ctx.models.family("boot_time")
    fig["extrapolated"] = True
    fig["fair_share_bound"] = True
    volume = getattr(fam, "boot_io_mb", None)
    fig["boot_io_mb"] = round(float(volume()), 1) if volume is not None else None
    fig["rows"] = [f"002:{r}" for r in FAIR_SHARE_ROWS]
    fig.setdefault("hardware", []).append(
        "fair-share bound beyond doc 002's range: one boot's I/O from rows " + ", ".join(FAIR_SHARE_ROWS))


def _boot_target(ctx: EngineContext, outcome, times: dict[str, float], extra: dict, why: dict) -> None:
    """Options whose boot time misses a ``max_boot_time_s`` target (the strictest that applies):
    excluded when the target is hard and an offered option meets it, else 2 points down. The
    host count then looks for the count that meets it on the chosen option."""
    prefs = ctx.scenario.preferences
    targets = [t for t in prefs.targets if t.name == "max_boot_time_s"]
    if not targets or not times:
        return
    limit = min(t.value for t in targets)
    mark_target_misses(outcome, times, limit, any(t.hard for t in targets), _TARGET_RULE,
                       lambda t: f"boot takes about {t:.0f} s, above the {limit:g} s target", extra, why,
                       candidates=[b for b in times if b not in outcome.excluded])


_TARGET_RULE = Rule("sb.boot-time-target", DECISION, "cluster", "safety",
                    "Options whose boot time misses a hard target are not offered.", lambda c: True, Effect())
_OFFER_RULE = Rule("sb.on-offer", DECISION, "cluster", "safety",
                   "Only storage the hosts offer can hold images.", lambda c: True, Effect())
