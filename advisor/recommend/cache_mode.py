"""``cache_mode``: the KVM/QEMU disk cache mode per workload (writeback, writethrough, none,
directsync, unsafe).

Expected figure: throughput per VM (MB/s) from ``cache_mode_throughput`` (doc 001) for the
workload's operation mix at the host's VMs per host and page cache per VM: the harmonic mean
of the read and write operations weighted by the read share (a VM that moves its bytes in
that proportion). ``directsync`` was not measured; it is taken as the lower of writethrough
and none (it bypasses the host cache and flushes every write). ``unsafe`` is taken as
writeback. Modes that bypass the host page cache (none, directsync, and writes in
writethrough) are capped at the disks' bandwidth shared by the VMs on a host.
"""

from __future__ import annotations

import numpy as np

from advisor.recommend.base import EngineContext, Recommendation, decide, figure
from advisor.recommend.disks import DISK_MB_S, SHARED_KIND, disk_mb_s
from advisor.rules import CACHE, evaluate

DECISION = "cache_mode"
MODELLED = ("writeback", "writethrough", "none")
#: modes the documents did not measure -> the measured modes their figures are estimated from
#: (the lowest of them): directsync bypasses the host cache like none and completes writes on
#: stable storage like writethrough; unsafe is at best writeback
UNMEASURED = {"directsync": ("writethrough", "none"), "unsafe": ("writeback",)}


def estimate_mode(mode: str, by_mode: dict) -> tuple:
    """Figures of an unmeasured ``mode`` from the measured ones: ``by_mode`` maps each measured
    mode to a tuple (mean, low, high), numbers or arrays alike; the result is their element-wise
    minimum over the modes :data:`UNMEASURED` names for ``mode``."""
    sources = [by_mode[m] for m in UNMEASURED[mode]]
    return tuple(np.minimum.reduce([np.asarray(src[j], dtype=float) for src in sources]) for j in range(3))


def operations(w) -> list[tuple[str, float]]:
    """(operation, share of bytes) for a workload's I/O profile."""
    r = w.io.read_share
    kinds = {"random": ("random",), "sequential": ("sequential",), "mixed": ("random", "sequential")}[w.io.pattern]
    out = []
    for k in kinds:
        out.append((f"{k}_read", r / len(kinds)))
        out.append((f"{k}_write", (1 - r) / len(kinds)))
    return [(op, s) for op, s in out if s > 0]




def per_vm_limit_mb_s(ctx: EngineContext, vms_per_host: float | None = None) -> float:
    """Bandwidth one VM's image can get at most, MB/s: its share of the host's local disks, or of
    the host's NIC and of the chosen shared storage's link, which every VM of the cluster shares.
    ``vms_per_host`` defaults to the facts'."""
    h = ctx.scenario.hosts
    vph = ctx.facts.vms_per_host if vms_per_host is None else vms_per_host
    per_host = disk_limit_mb_s(ctx) / max(vph, 1e-9)
    backend = ctx.facts.storage_backend
    if backend in (None, "local_disk"):
        return per_host
    links = [s.network_gbps for s in h.shared_storage if s.kind == SHARED_KIND.get(backend)]
    links = links or [s.network_gbps for s in h.shared_storage]
    if not links:
        return per_host
    return min(per_host, max(links) * 125.0 / max(ctx.scenario.total_vms, 1))


def disk_limit_mb_s(ctx: EngineContext) -> float:
    """Aggregate bandwidth a host's images can get, MB/s: local disks, or the host's storage path."""
    h = ctx.scenario.hosts
    if ctx.facts.storage_backend not in (None, "local_disk"):
        links = [s.network_gbps for s in h.shared_storage] or [h.nic_gbps]
        return min(max(links), h.nic_gbps) * 125.0
    total = sum(disk_mb_s(ctx, d)[0] * d.count for d in h.disks)
    return total or DISK_MB_S["hdd"]


#: request size (KiB) from which random I/O is read as doc 001's Postmark test set 2 (files of
#: 100-300 KB, 200 on average, row S5.1-06) rather than test set 1 (1-100 KB, 50.5 on average,
#: row S5.1-03): the geometric middle of the two averages. A larger transfer per positioning
#: moves more bytes per second on the disk path (Tables 1, 3, 4: set 2 above set 1 for
#: writethrough and none).
POSTMARK_SET2_KIB = 100.0


def _queries(ctx: EngineContext, w, vms_per_host: float | None = None) -> list[dict]:
    vph = ctx.facts.vms_per_host if vms_per_host is None else vms_per_host
    guest_ram = sum(x.vms * x.ram_gib for x in ctx.scenario.workloads) / max(ctx.scenario.total_vms, 1)
    base = {"vms_per_host": vph, "host_ram_gib": ctx.scenario.hosts.ram_gib, "vm_ram_gib": guest_ram,
            "block_size_kib": w.io.block_size_kib}
    if w.io.footprint_gb:  # the data the VM keeps reading: what the host page cache must hold
        base["working_set_gib"] = w.io.footprint_gb * 1e9 / 2**30
    out = []
    for m in MODELLED:
        for op, _ in operations(w):
            q = {**base, "cache_mode": m, "operation": op}
            if op.startswith("random"):
                q["workload"] = "postmark_set2" if w.io.block_size_kib >= POSTMARK_SET2_KIB else "postmark_set1"
            out.append(q)
    return out


def per_vm_throughput(ctx: EngineContext, workloads, vms_per_host=None) -> tuple[list[dict[str, dict]], object] | None:
    """For each workload, mode -> expected per-VM throughput figure (MB/s), and the Prediction
    (one vectorised call for all workloads); None without the model. ``vms_per_host`` gives one
    value per workload (default: the facts' for all), so the charts sweep this very function."""
    vphs = [None] * len(workloads) if vms_per_host is None else [float(v) for v in vms_per_host]
    queries = [_queries(ctx, w, v) for w, v in zip(workloads, vphs, strict=True)]
    pred = ctx.models.predict("cache_mode_throughput", [q for qs in queries for q in qs])
    if pred is None:
        return None
    out = []
    i = 0
    for w, vph in zip(workloads, vphs, strict=True):
        cap = per_vm_limit_mb_s(ctx, vph)
        ops = operations(w)
        values: dict[str, dict[str, tuple[float, float, float]]] = {}
        extrap: dict[str, bool] = {}
        for m in MODELLED:
            values[m] = {}
            for op, _ in ops:
                v, lo, hi = float(pred.mean[i]), float(pred.low[i]), float(pred.high[i])
                if (m == "none" or (m == "writethrough" and op.endswith("write"))) and v > cap:
                    # the disks' share caps the figure; the interval keeps its relative width
                    v, lo, hi = cap, lo * cap / v, min(hi * cap / v, cap)
                values[m][op] = (v, lo, hi)
                extrap[m] = extrap.get(m, False) or bool(pred.extrapolated[i])
                i += 1
        for mode, sources in UNMEASURED.items():
            values[mode] = {op: tuple(float(v) for v in estimate_mode(mode, {m: values[m][op] for m in sources}))
                            for op, _ in ops}
            extrap[mode] = mode == "directsync" or any(extrap[m] for m in sources)  # never measured itself
        figs = {}
        for m, per_op in values.items():
            agg = [1.0 / sum(s / max(per_op[op][j], 1e-9) for op, s in ops) for j in range(3)]
            figs[m] = {"throughput_per_vm": figure(agg[0], pred.unit, agg[1], agg[2], basis=pred.basis,
                                                   extrapolated=extrap[m],
                                                   operations={op: round(per_op[op][0], 3) for op, _ in ops})}
        out.append(figs)
    return out, pred


def recommend(ctx: EngineContext) -> list[Recommendation]:
    """One cache mode per workload."""
    out = []
    hv = ctx.facts.hypervisor or "KVM"
    batch = per_vm_throughput(ctx, ctx.scenario.workloads)
    cites = ctx.model_citations("cache_mode_throughput", batch[1]) if batch else []
    for k, w in enumerate(ctx.scenario.workloads):
        outcome = evaluate(DECISION, ctx.rule_ctx(w), CACHE)
        figs = batch[0][k] if batch else None
        extra, why = {}, {}
        if figs is not None:
            allowed = [m for m in CACHE if m not in outcome.excluded] or list(CACHE)
            best = max(figs[m]["throughput_per_vm"]["value"] for m in allowed)
            for m in allowed:  # excluded modes keep their rule score: the model does not rescue them
                t = figs[m]["throughput_per_vm"]["value"]
                extra[m] = 3.0 * (t / best - 1.0) if best > 0 else 0.0
            for m in CACHE:
                t = figs[m]["throughput_per_vm"]["value"]
                if t < 0.9 * best:
                    why[m] = f"about {t:.3g} MB/s per VM against {best:.3g}"
        rec = decide(DECISION, f"workload:{w.name}", outcome, ctx, extra_scores=extra, expected=figs or {},
                     why=why, model_citations=cites, has_model=figs is not None, order=CACHE)
        lead = (f"{w.name}: cache={rec.choice} ({ctx.facts.vms_per_host:.3g} VMs per host, "
                f"{ctx.facts.page_cache_per_vm_gib:.3g} GiB host page cache per VM, data loss tolerance "
                f"{w.data_loss_tolerance}{', live migration' if w.live_migration else ''}).")
        if hv not in ("KVM",):
            lead += f" Cache modes are KVM/QEMU settings; with {hv} use its equivalent write policy."
        rec.rationale = f"{lead} {rec.rationale}"
        if ctx.chosen.get("containers", {}).get(w.name):
            rec.rationale = (f"{w.name} is advised to run as containers (see the hypervisor advice); this applies "
                             f"if it runs in VMs instead. " + rec.rationale)
            rec.details["applies_if"] = "the workload runs in VMs"
        out.append(rec)
    return out
