"""``cache_mode``: the KVM/QEMU disk cache mode per workload (writeback, writethrough, none,
directsync, unsafe).

Expected figure: throughput per VM (MB/s) from ``cache_mode_throughput`` (doc 001) for the
workload's operation mix at the host's VMs per host and page cache per VM: the harmonic mean
of the read and write operations weighted by the read share (a VM that moves its bytes in
that proportion). ``directsync`` was not measured; it is taken as the lower of writethrough
and none (it bypasses the host cache and flushes every write). ``unsafe`` is taken as
writeback.

Physical bounds (the family's ``disk_path_mb_s`` and ``stream_mb_s``, see
advisor/models/cache_mode.py): only the part of a VM's I/O that reaches the device scales with
the device, and it never exceeds the VM's share of the device and of every link on the way:
reads beyond the page cache's hit ratio at the device's IOPS for the request size (random) or
its bandwidth (sequential), writes always (synchronously at the request size for none and
writethrough, in the flusher's merged streams for writeback and unsafe). The page-cache part
moves with host RAM per VM and the working set only. One per-VM service figure,
``throughput_per_vm`` (MB/s), gives ``iops_per_vm`` (the same at the request size): a
workload's ``io.iops`` is checked against both, so the two implicit targets agree.
``iops_share_per_vm`` is the VM's share of the device's IOPS (what reaches the device at most).
"""

from __future__ import annotations

import math
from operator import attrgetter

import numpy as np

from advisor.expected import ExpectedFigure
from advisor.hardware import TESTBEDS, same_disks, stamp
from advisor.models.base import Prediction
from advisor.recommend.base import EngineContext, Recommendation, decide, figure, fixed_choice
from advisor.recommend.disks import DISK_MB_S, hardware_of
from advisor.recommend.profile import per_workload
from advisor.rules import CACHE, Effect, Rule, evaluate

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
    """(operation, share of bytes) for a workload's I/O profile. Sequential writes that rewrite
    data in place (``io.rewrite_share`` of them) are doc 001's Bonnie++ ``rewrite``: each block
    read, changed and written back."""
    r = w.io.read_share
    rw = float(getattr(w.io, "rewrite_share", 0.0) or 0.0)
    kinds = {"random": ("random",), "sequential": ("sequential",), "mixed": ("random", "sequential")}[w.io.pattern]
    out = []
    for k in kinds:
        out.append((f"{k}_read", r / len(kinds)))
        if k == "sequential":
            out.append(("sequential_write", (1 - r) * (1 - rw) / len(kinds)))
            out.append(("rewrite", (1 - r) * rw / len(kinds)))
        else:
            out.append((f"{k}_write", (1 - r) / len(kinds)))
    return [(op, s) for op, s in out if s > 0]




def device(ctx: EngineContext):
    """What the VMs of one host share for their images (:class:`advisor.hardware.Device`): the
    local disks, or the host's share of the chosen shared storage through its NIC; None without
    either."""
    f, sc = ctx.facts, ctx.scenario
    total = ctx.once("total_vms", lambda: sc.total_vms)
    return ctx.once(("cache_mode.device", f.storage_backend, f.vms_per_host),
                    lambda: hardware_of(ctx).behind_vms(f.storage_backend, f.vms_per_host, total))


def iops_for_block(dev, block_kib: float) -> float:
    """Random IOPS of ``dev`` at requests of ``block_kib``: its IOPS, never more than its
    bandwidth moves at that size."""
    return min(dev.iops, dev.mb_s * 1e6 / (max(block_kib, 1e-9) * 1024.0))


def per_vm_limit_mb_s(ctx: EngineContext, vms_per_host: float | None = None) -> float:
    """Bandwidth one VM's image can get at most, MB/s: its share of the host's local disks, or of
    the host's NIC and of the chosen shared storage's link, which every VM of the cluster shares.
    ``vms_per_host`` defaults to the facts'."""
    vph = ctx.facts.vms_per_host if vms_per_host is None else vms_per_host
    return disk_limit_mb_s(ctx) / max(vph, 1e-9)


def disk_limit_mb_s(ctx: EngineContext) -> float:
    """Aggregate bandwidth a host's images can get, MB/s: local disks, or the host's storage path."""
    dev = device(ctx)
    return dev.mb_s if dev is not None else DISK_MB_S["hdd"]


#: request size (KiB) from which random I/O is read as doc 001's Postmark test set 2 (files of
#: 100-300 KB, 200 on average, row S5.1-06) rather than test set 1 (1-100 KB, 50.5 on average,
#: row S5.1-03): the geometric middle of the two averages. A larger transfer per positioning
#: moves more bytes per second on the disk path (Tables 1, 3, 4: set 2 above set 1 for
#: writethrough and none).
POSTMARK_SET2_KIB = 100.0


def _queries(ctx: EngineContext, w, vms_per_host: float | None = None, dev=None) -> list[dict]:
    vph = ctx.facts.vms_per_host if vms_per_host is None else vms_per_host
    guest_ram = ctx.once("mean_vm_ram_gib", lambda: sum(x.vms * x.ram_gib for x in ctx.scenario.workloads)
                         / max(ctx.scenario.total_vms, 1))
    base = {"vms_per_host": vph, "host_ram_gib": ctx.scenario.hosts.ram_gib, "vm_ram_gib": guest_ram,
            "block_size_kib": w.io.block_size_kib}
    if dev is not None:  # the documents' disk path transferred onto the device the host's VMs share
        base.update(disk_iops=max(iops_for_block(dev, w.io.block_size_kib), 1e-9), disk_mb_s=max(dev.mb_s, 1e-9))
    bandwidth, random_path = device_share(ctx, w, vms_per_host, dev)
    base["stream_mb_s"] = max(bandwidth, 1e-9)
    if w.io.footprint_gb:  # the data the VM keeps reading: what the host page cache must hold
        base["working_set_gib"] = w.io.footprint_gb * 1e9 / 2**30
    out = []
    for m in MODELLED:
        for op, _ in operations(w):
            q = {**base, "cache_mode": m, "operation": op,
                 "disk_path_mb_s": max(random_path if op.startswith("random") else bandwidth, 1e-9)}
            if op.startswith("random"):
                q["workload"] = "postmark_set2" if w.io.block_size_kib >= POSTMARK_SET2_KIB else "postmark_set1"
            out.append(q)
    return out


def device_share(ctx: EngineContext, w, vms_per_host: float | None, dev) -> tuple[float, float]:
    """(bandwidth, random-I/O path) one VM of ``w`` gets at most, MB/s: its share of the device
    (and links) the host's VMs share; the random path at ``w``'s request size (the IOPS share
    times the size, never more than the bandwidth share)."""
    bandwidth = per_vm_limit_mb_s(ctx, vms_per_host)
    share = iops_share_per_vm(ctx, w, vms_per_host, dev)
    return bandwidth, min(bandwidth, share * w.io.block_size_kib * 1024.0 / 1e6)


def iops_share_per_vm(ctx: EngineContext, w, vms_per_host: float | None, dev) -> float:
    """One VM's share of the device's random IOPS at ``w``'s request size (inf without a device)."""
    if dev is None:
        return math.inf
    vph = ctx.facts.vms_per_host if vms_per_host is None else vms_per_host
    return iops_for_block(dev, w.io.block_size_kib) / max(vph, 1e-9)


def mb_s_to_iops(mb_s: float, block_kib: float) -> float:
    """Requests per second of ``block_kib`` that move ``mb_s`` (10^6 B/s)."""
    return mb_s * 1e6 / (max(block_kib, 1e-9) * 1024.0)


def _stamp(ctx: EngineContext, fig: ExpectedFigure, dev) -> ExpectedFigure:
    """The basis of a figure on ``dev`` and the hardware figures it rests on."""
    testbed = TESTBEDS["cache_mode_throughput"]
    if dev is None:
        return stamp(fig, [], testbed)
    same = same_disks(dev, testbed) and not math.isfinite(dev.link_mb_s)
    fig["device"] = dev.description
    return stamp(fig, dev.figures, testbed, same)


def per_vm_throughput(ctx: EngineContext, workloads, vms_per_host=None) -> tuple[list[dict[str, dict]], Prediction] | None:
    """For each workload, mode -> expected per-VM throughput figure (MB/s), and the Prediction
    (one vectorised call for all workloads); None without the model. ``vms_per_host`` gives one
    value per workload (default: the facts' for all), so the charts sweep this very function. The
    documents' disk path is transferred onto the device the host's VMs share (:func:`device`), and
    modes that bypass the host page cache never get more than the VM's share of that device and of
    every link on the way."""
    dev = device(ctx)
    vphs = [None] * len(workloads) if vms_per_host is None else [float(v) for v in vms_per_host]
    queries = [_queries(ctx, w, v, dev) for w, v in zip(workloads, vphs, strict=True)]
    pred = ctx.models.predict("cache_mode_throughput", [q for qs in queries for q in qs])
    if pred is None:
        return None
    out = []
    i = 0
    for w, vph in zip(workloads, vphs, strict=True):
        ops = operations(w)
        iops_share = iops_share_per_vm(ctx, w, vph, dev)
        values: dict[str, dict[str, tuple[float, float, float]]] = {}
        extrap: dict[str, bool] = {}
        for m in MODELLED:  # (the family keeps each figure within the device share, see the module doc)
            values[m] = {}
            for op, _ in ops:
                values[m][op] = (float(pred.mean[i]), float(pred.low[i]), float(pred.high[i]))
                extrap[m] = extrap.get(m, False) or bool(pred.extrapolated[i])
                i += 1
        for mode, sources in UNMEASURED.items():
            for op, _ in ops:
                est = estimate_mode(mode, {m: values[m][op] for m in sources})
                values.setdefault(mode, {})[op] = (float(est[0]), float(est[1]), float(est[2]))
            extrap[mode] = mode == "directsync" or any(extrap[m] for m in sources)  # never measured itself
        figs = {}
        for m, per_op in values.items():
            agg = [1.0 / sum(s / max(per_op[op][j], 1e-9) for op, s in ops) for j in range(3)]
            fig = figure(agg[0], pred.unit, agg[1], agg[2], basis=pred.basis, extrapolated=extrap[m],
                         operations={op: round(per_op[op][0], 3) for op, _ in ops})
            figs[m] = {"throughput_per_vm": _stamp(ctx, fig, dev) if pred.basis == "documents" else fig}
            if m in DEVICE_BOUND and dev is not None:
                _state_bound(ctx, w, vph, dev, ops, fig)
            block = w.io.block_size_kib
            iops = figure(mb_s_to_iops(agg[0], block), "IOPS", mb_s_to_iops(agg[1], block), mb_s_to_iops(agg[2], block),
                          basis=fig["basis"], extrapolated=extrap[m], block_size_kib=block)
            for key in ("hardware", "testbed", "device"):
                if key in fig:
                    iops[key] = fig[key]
            figs[m]["iops_per_vm"] = iops
            if dev is not None:
                figs[m]["iops_share_per_vm"] = _stamp(ctx, figure(iops_share, "IOPS",
                                                                  block_size_kib=w.io.block_size_kib), dev)
        out.append(figs)
    return out, pred


#: modes whose every byte reaches the device (no host page cache serves their reads): the VM's
#: share of the device is their ceiling
DEVICE_BOUND = ("none", "directsync")


def _state_bound(ctx: EngineContext, w, vms_per_host, dev, ops, fig) -> None:
    """When the VM's share of the device sets the figure (``none``, ``directsync``): say so in its
    basis (``bound`` and a ``hardware`` line: the device's IOPS at the request size or its MB/s,
    over the VMs that share it)."""
    bandwidth, random_path = device_share(ctx, w, vms_per_host, dev)
    limit = 1.0 / sum(s / max(random_path if op.startswith("random") else bandwidth, 1e-12) for op, s in ops)
    if fig["value"] < limit * (1 - 1e-4):
        return
    vph = ctx.facts.vms_per_host if vms_per_host is None else vms_per_host
    text = (f"bound: the VM's share of {dev.description}, {limit:.4g} MB/s ({iops_for_block(dev, w.io.block_size_kib):,.0f}"
            f" IOPS at {w.io.block_size_kib:g} KiB and {dev.mb_s:,.0f} MB/s over {vph:.3g} VMs)")
    fig["bound"] = text
    fig.setdefault("hardware", []).append(text)


def _throughput_target(ctx: EngineContext, target: tuple[float, bool] | None, outcome, figs: dict) -> None:
    """Modes whose throughput per VM misses a hard ``min_throughput_mb_s`` target of the workload
    (``target``: its value and whether it is hard) are excluded when another allowed mode meets it
    (a soft target only lowers their score through the throughput term every mode gets)."""
    if target is None or not target[1]:
        return
    value = target[0]
    allowed = [m for m in CACHE if m not in outcome.excluded]
    meets = [m for m in allowed if figs[m]["throughput_per_vm"].value >= value * (1 - 1e-9)]
    if not meets:
        return
    for m in allowed:
        if m not in meets:
            v = figs[m]["throughput_per_vm"].value
            outcome.excluded.setdefault(m, []).append(
                (_TARGET_RULE, f"about {v:.3g} MB/s per VM, below the {value:g} MB/s target"))


_TARGET_RULE = Rule("cache.throughput-target", DECISION, "workload", "safety",
                    "Modes whose throughput per VM misses a hard target are not offered.", lambda c: True, Effect())


def requested_io(w, rec: Recommendation) -> dict | None:
    """A workload's requested I/O (``io.iops`` x ``io.block_size_kib``) against the one per-VM
    service figure of the chosen mode (``throughput_per_vm``, and ``iops_per_vm``, the same at the
    request size): ``{requested_iops, iops_per_vm, iops_share, requested_mb_s, throughput_mb_s,
    met}``; ``iops_share`` is the VM's share of the device's IOPS (for reference: a cached mode
    serves part of the I/O from the page cache); None when the workload states no IOPS or there
    are no figures."""
    if not w.io.iops or "throughput_per_vm" not in rec.expected:
        return None
    mb_s = w.io.iops * w.io.block_size_kib * 1024.0 / 1e6
    got = rec.expected["throughput_per_vm"].value
    iops = mb_s_to_iops(got, w.io.block_size_kib)
    share = rec.expected["iops_share_per_vm"].value if "iops_share_per_vm" in rec.expected else math.inf
    met = mb_s <= got * (1 + 1e-9)  # the same as w.io.iops <= iops
    return {"requested_iops": w.io.iops, "iops_per_vm": round(iops, 6),
            "iops_share": share if math.isfinite(share) else None,
            "requested_mb_s": round(mb_s, 6), "throughput_mb_s": got, "met": met}


#: implicit targets of a workload that states ``io.iops``: name -> (unit, what ``requested_io`` holds)
IMPLICIT_TARGETS = {"requested_iops": ("IOPS", "requested_iops", "iops_per_vm"),
                    "requested_throughput_mb_s": ("MB/s", "requested_mb_s", "throughput_mb_s")}


#: the fields of ``w.io`` the figures of :func:`per_vm_throughput` read, all they read of a workload
#: (tests/advisor/test_profiles.py checks it): workloads equal in them share one set of figures
FIGURE_FIELDS = ("pattern", "read_share", "rewrite_share", "block_size_kib", "footprint_gb")


_figure_values = attrgetter(*FIGURE_FIELDS)


def figures_key(w) -> tuple:
    """The values of :data:`FIGURE_FIELDS` of ``w`` and their types (a figure states the request
    size as given: 4 and 4.0 stay apart)."""
    values = _figure_values(w.io)
    return values, tuple(map(type, values))


def _io_figures(ctx: EngineContext) -> dict | None:
    """:func:`figures_key` -> mode -> figures and the citations: :func:`per_vm_throughput` in one
    vectorised call for one workload of each distinct key; None without the model."""
    reps: dict = {}
    for w in ctx.scenario.workloads:
        reps.setdefault(figures_key(w), w)
    batch = per_vm_throughput(ctx, list(reps.values()))
    if batch is None:
        return None
    return {"figures": dict(zip(reps, batch[0], strict=True)),
            "citations": ctx.model_citations("cache_mode_throughput", batch[1])}


def recommend(ctx: EngineContext) -> list[Recommendation]:
    """One cache mode per workload (computed once per distinct profile, :mod:`advisor.recommend.profile`)."""
    hv = ctx.facts.hypervisor or "KVM"
    table = _io_figures(ctx)
    containers = ctx.chosen.get("containers", {})
    targets = ctx.scenario.preferences

    any_target = any(t.name == "min_throughput_mb_s" for t in targets.targets)  # (most estates: none)

    def fact(w) -> tuple:
        t = targets.target("min_throughput_mb_s", w.name) if any_target else None
        return bool(containers.get(w.name)), None if t is None else (t.value, t.hard)

    built: dict[tuple, Recommendation] = {}  # by outcome and what else build reads (see compute)

    def build(w, scope: str, in_containers: bool, outcome, figs: dict | None) -> Recommendation:
        extra, why = {}, {}
        if figs is not None:
            allowed = [m for m in CACHE if m not in outcome.excluded] or list(CACHE)
            best = max(figs[m]["throughput_per_vm"].value for m in allowed)
            for m in allowed:  # excluded modes keep their rule score: the model does not rescue them
                t = figs[m]["throughput_per_vm"].value
                extra[m] = 3.0 * (t / best - 1.0) if best > 0 else 0.0
            for m in CACHE:
                t = figs[m]["throughput_per_vm"].value
                if t < 0.9 * best:
                    why[m] = f"about {t:.3g} MB/s per VM against {best:.3g}"
        rec = decide(DECISION, scope, outcome, ctx, extra_scores=extra, expected=figs or {}, why=why,
                     model_citations=table["citations"] if table is not None else [], has_model=figs is not None,
                     order=CACHE)
        lead = (f"Cache mode {rec.choice} ({ctx.facts.vms_per_host:.3g} VMs per host, "
                f"{ctx.facts.page_cache_per_vm_gib:.3g} GiB host page cache per VM, data loss tolerance "
                f"{w.data_loss_tolerance}{', live migration' if w.live_migration else ''}).")
        if hv not in ("KVM",):
            lead += f" Cache modes are KVM/QEMU settings; with {hv} use its equivalent write policy."
        rec.rationale = f"{lead} {rec.rationale}"
        if in_containers:
            rec.rationale = ("The workload is advised to run as containers (see the hypervisor advice); this applies "
                             "if it runs in VMs instead. " + rec.rationale)
            rec.details["applies_if"] = "the workload runs in VMs"
        return rec

    def compute(w, scope: str, facts: tuple) -> Recommendation:
        in_containers, target = facts
        outcome = evaluate(DECISION, ctx.rule_ctx(w), CACHE)
        io = figures_key(w)
        figs = table["figures"][io] if table is not None else None
        if figs is not None:
            _throughput_target(ctx, target, outcome, figs)
        # what build reads besides the outcome: the figures, two fields for the text, the fixed choice
        key = (outcome.key(), io, in_containers, w.data_loss_tolerance, w.live_migration,
               fixed_choice(ctx, DECISION, scope))
        if key not in built:
            built[key] = build(w, scope, in_containers, outcome, figs)
        return built[key]

    out = per_workload(ctx, DECISION, ctx.scenario.workloads, compute, fact)
    for w, rec in zip(ctx.scenario.workloads, out, strict=True):
        asked = requested_io(w, rec)
        if asked is not None:
            rec.details["requested_io"] = asked
            if not asked["met"]:
                rec.warnings.append(
                    f"{w.name} asks {w.io.iops:,.0f} IOPS of {w.io.block_size_kib:g} KiB ({asked['requested_mb_s']:.3g} "
                    f"MB/s) per VM; with cache={rec.choice} one VM gets about {asked['iops_per_vm']:,.0f} IOPS "
                    f"({asked['throughput_mb_s']:.3g} MB/s)"
                    + (f" on a share of {asked['iops_share']:,.0f} IOPS of the device its image is on"
                       if asked["iops_share"] is not None else "")
                    + ": target not met (faster or more disks, or fewer VMs per host)")
    return out
