"""``io_block_size``: the I/O request size an application in a VM should use (doc 003
sections II.D and II.E): small requests for purely random reads, large ones when reads have
spatial locality or are sequential, a middle size for mixed access.

Expected figures per choice: useful data read per second (MB/s) for each access pattern the
workload has (``throughput_random``, ``throughput_sequential``), from ``block_size_throughput``
on the device that holds the images: with images on local disks, the hosts' fastest disk group
(its stated IOPS and MB/s, else the site's calibrated figures when they match the disk kind,
else the per-kind defaults of the scenario format); with images on shared storage, its stated
IOPS and its link rate (``network_gbps`` x 125 MB/s), disks like the hosts' assumed where the
IOPS are not stated (each figure's ``device`` says which). Random reads fetch the workload's
own request size (``io.block_size_kib``) of useful data each. No figure without any device.
For sequential reads also ``sequential_vs_native``: what the VM reads per second against the
same machine without virtualization at that request size (the same family, ``platform`` vm over
native: each request pays a fixed virtualization cost that large requests amortize, doc 003
Figure 4(b)/(c)).
"""

from __future__ import annotations

from advisor.hardware import MB_S_PER_GBPS, SHARED_KIND, TESTBEDS, HwFigure, close, stamp, store_name
from advisor.recommend.base import EngineContext, Recommendation, decide, figure, prediction_figure
from advisor.recommend.disks import hardware_of
from advisor.rules import evaluate

DECISION = "io_block_size"
CHOICES = ("4 KiB", "64 KiB", "1 MiB")
KIB = {"4 KiB": 4.0, "64 KiB": 64.0, "1 MiB": 1024.0}
PATTERNS = {"random": ("random",), "sequential": ("sequential",), "mixed": ("random", "sequential")}




def disk_figures(ctx: EngineContext) -> tuple[float, float, str, list, bool] | None:
    """(random IOPS, streaming MB/s, what device, the hardware figures they rest on, whether they
    are the testbed's disk's) of the device holding the images, or None without one."""
    sc = ctx.scenario
    hw = hardware_of(ctx)
    testbed = TESTBEDS["block_size_throughput"]
    local = None
    for d in sc.hosts.disks:  # reads: the site's read figures for disks of the kind it measured
        fi, fm = hw.disk_iops(d, True), hw.disk_mb_s(d, True)
        how = {"declared": "given", "probe": "probe", "defaults": "defaults",
               "assumed": "assumed"}.get(fi.source, fi.source.replace(":", " "))
        if local is None or fm.value > local[1]:
            local = (fi.value, fm.value, f"local {d.kind.upper()} ({how})", [fi, fm])
    kind = SHARED_KIND.get(ctx.facts.storage_backend or "local_disk")
    offers = [s for s in sc.hosts.shared_storage if s.kind == kind] if kind else []
    if not offers or kind is None:
        if local is None:
            return None
        return (*local, close(local[0], testbed.disk_iops) and close(local[1], testbed.disk_mb_s))
    s = max(offers, key=lambda o: o.network_gbps)
    link = hw.store_link(kind)
    link_mb_s = s.network_gbps * MB_S_PER_GBPS
    if s.iops:
        return (float(s.iops), link_mb_s, f"{kind} storage ({s.iops:g} IOPS, {s.network_gbps:g} Gb/s link)",
                [HwFigure(store_name(kind), float(s.iops), "IOPS", hw.source("hosts.shared_storage.iops")), link],
                False)
    if local is None:
        return None
    assumed = [HwFigure(f"{store_name(kind)}, {f.what} like the hosts' (assumed)", f.value, f"{f.unit} each",
                        "defaults" if f.source in ("declared", "assumed") else f.source) for f in local[3]]
    return (local[0], min(local[1], link_mb_s),
            f"{kind} storage over {s.network_gbps:g} Gb/s, with disks like the hosts' {local[2][6:]} assumed",
            [*assumed, link], False)


def _figures(ctx: EngineContext, workloads) -> tuple[list[dict], list[dict]]:
    """For each workload, choice -> expected figures (one vectorised call for all workloads), and
    the citations; empty figures without a device or the model."""
    disk = disk_figures(ctx)
    if disk is None:
        return [{} for _ in workloads], []
    queries = [{"block_size_kib": KIB[c], "access_pattern": p, "disk_iops": disk[0], "disk_mb_s": disk[1],
                "record_kib": max(float(w.io.block_size_kib), 0.5)}
               for w in workloads for c in CHOICES for p in PATTERNS[w.io.pattern]]
    pred = ctx.models.predict("block_size_throughput", queries, calibrate=False)
    if pred is None:
        return [{} for _ in workloads], []
    native_q = [{**q, "platform": "native"} for q in queries]
    native = ctx.models.predict("block_size_throughput", native_q, calibrate=False)
    out, i = [], 0
    for w in workloads:
        expected: dict[str, dict] = {c: {} for c in CHOICES}
        for c in CHOICES:
            for p in PATTERNS[w.io.pattern]:
                expected[c][f"throughput_{p}"] = prediction_figure(pred, i)
                expected[c][f"throughput_{p}"]["device"] = disk[2]
                stamp(expected[c][f"throughput_{p}"], disk[3], TESTBEDS["block_size_throughput"], disk[4])
                if p == "sequential" and native is not None and float(native.mean[i]) > 0:
                    n = float(native.mean[i])
                    # a ratio of the same family on the same device: the testbed's, carried over as it is
                    expected[c]["sequential_vs_native"] = stamp(figure(
                        float(pred.mean[i]) / n, "ratio", float(pred.low[i]) / n, min(float(pred.high[i]) / n, 1.0),
                        extrapolated=bool(pred.extrapolated[i]),
                        note="VM against the same machine without virtualization, same request size"),
                        [], TESTBEDS["block_size_throughput"])
                i += 1
        out.append(expected)
    return out, ctx.model_citations("block_size_throughput", pred)


def recommend(ctx: EngineContext) -> list[Recommendation]:
    out = []
    figures, cites = _figures(ctx, ctx.scenario.workloads)
    for w, expected in zip(ctx.scenario.workloads, figures, strict=True):
        outcome = evaluate(DECISION, ctx.rule_ctx(w), CHOICES)
        rec = decide(DECISION, f"workload:{w.name}", outcome, ctx, expected=expected, model_citations=cites,
                     order=CHOICES, has_model=bool(expected))
        rec.rationale = (f"{w.name} ({w.io.pattern} I/O, now {w.io.block_size_kib:g} KiB requests): use "
                         f"{rec.choice} requests. {rec.rationale}")
        out.append(rec)
    return out
