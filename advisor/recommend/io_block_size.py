"""``io_block_size``: the I/O request size an application in a VM should use (doc 003
sections II.D and II.E): small requests for purely random reads, large ones when reads have
spatial locality or are sequential, a middle size for mixed access.

Expected figures per choice: useful data one VM reads per second (MB/s) for each access
pattern the workload has (``throughput_random``, ``throughput_sequential``), from
``block_size_throughput`` on the device the host's VMs share for their images, the same one the
cache-mode card names (:meth:`advisor.hardware.Hardware.behind_vms`: the hosts' local disks
together, or the host's share of the chosen shared store through its NIC; read figures of a
site's disks when calibrated), and the VM's share of it (1 / VMs per host): a figure is per VM,
never more than the VM's share of the device's IOPS at the request size or of its bandwidth.
Random reads fetch the workload's own request size (``io.block_size_kib``, its ``record``) of
useful data each: larger requests waste the rest, smaller ones need one positioning per request.
Each figure says the device (``device``), the VMs sharing it (``vms_sharing``) and the useful
part of a request (``useful_kib``). No figure without any device.
For sequential reads also ``sequential_vs_native``: what the VM reads per second against the
same machine without virtualization at that request size (the same family, ``platform`` vm over
native: each request pays a fixed virtualization cost that large requests amortize, doc 003
Figure 4(b)/(c)).
"""

from __future__ import annotations

import math

from advisor.hardware import TESTBEDS, same_disks, stamp
from advisor.recommend.base import EngineContext, Recommendation, decide, figure, prediction_figure
from advisor.recommend.disks import hardware_of
from advisor.recommend.profile import per_workload
from advisor.rules import Effect, Rule, evaluate

DECISION = "io_block_size"
CHOICES = ("4 KiB", "64 KiB", "1 MiB")
KIB = {"4 KiB": 4.0, "64 KiB": 64.0, "1 MiB": 1024.0}
PATTERNS = {"random": ("random",), "sequential": ("sequential",), "mixed": ("random", "sequential")}




def disk_figures(ctx: EngineContext) -> tuple[float, float, str, list, bool, float] | None:
    """(random IOPS, streaming MB/s, what device, the hardware figures they rest on, whether they
    are the testbed's disk's, VMs per host sharing it) of the device the host's VMs share for
    their images, or None without one."""
    sc, f = ctx.scenario, ctx.facts
    dev = hardware_of(ctx).behind_vms(f.storage_backend, f.vms_per_host, sc.total_vms, reads_only=True)
    if dev is None:
        return None
    same = same_disks(dev, TESTBEDS["block_size_throughput"]) and math.isinf(dev.link_mb_s)
    return dev.iops, dev.mb_s, dev.description, dev.figures, same, max(float(f.vms_per_host), 1.0)


def _figures(ctx: EngineContext, profiles: list[tuple[str, float]]) -> tuple[list[dict], list[dict]]:
    """For each I/O profile (a workload's ``io.pattern`` and ``io.block_size_kib``: all the
    figures read of it), choice -> expected figures (one vectorised call for all profiles), and
    the citations; empty figures without a device or the model."""
    disk = disk_figures(ctx)
    if disk is None:
        return [{} for _ in profiles], []
    queries = [{"block_size_kib": KIB[c], "access_pattern": p, "disk_iops": max(disk[0], 1e-9),
                "disk_mb_s": max(disk[1], 1e-9), "record_kib": max(float(record), 0.5)}
               for pattern, record in profiles for c in CHOICES for p in PATTERNS[pattern]]
    pred = ctx.models.predict("block_size_throughput", queries, calibrate=False)
    if pred is None:
        return [{} for _ in profiles], []
    native_q = [{**q, "platform": "native"} for q in queries]
    native = ctx.models.predict("block_size_throughput", native_q, calibrate=False)
    out, i = [], 0
    for pattern, record in profiles:
        expected: dict[str, dict] = {c: {} for c in CHOICES}
        for c in CHOICES:
            for p in PATTERNS[pattern]:
                fig = prediction_figure(pred, i, scale=1.0 / disk[5])  # the VM's share of the whole device
                useful = min(KIB[c], max(float(record), 0.5)) if p == "random" else KIB[c]
                fig.update(device=disk[2], vms_sharing=round(disk[5], 3), useful_kib=useful,
                           note=f"per VM: its share of the device (1/{disk[5]:.3g})"
                           + (f"; {useful:g} KiB of each request useful" if p == "random" else ""))
                expected[c][f"throughput_{p}"] = stamp(fig, disk[3], TESTBEDS["block_size_throughput"], disk[4])
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


_WHOLE_RECORDS = Rule("bs.whole-records", DECISION, "workload", "safety",
                      "A random read fetches the application's whole record: requests smaller than the record "
                      "split it, one positioning per part (doc 003 Figure 3 keeps the useful data per read constant).",
                      lambda c: True, Effect())


def _whole_records(w, outcome) -> None:
    """Request sizes below the workload's record are excluded for random access (a record split
    over several requests pays one positioning each: its figure says so), unless none is left."""
    if w.io.pattern == "sequential":
        return
    record = float(w.io.block_size_kib)
    small = [c for c in CHOICES if KIB[c] < record * (1 - 1e-9) and c not in outcome.excluded]
    if len(small) == len([c for c in CHOICES if c not in outcome.excluded]):
        small = small[:-1]  # every size splits it: the largest splits it least
    for c in small:
        outcome.excluded.setdefault(c, []).append(
            (_WHOLE_RECORDS, f"splits each {record:g} KiB record into {math.ceil(record / KIB[c] - 1e-9)} requests"))


def _by_figures(expected: dict, outcome) -> tuple[dict[str, float], dict[str, str]]:
    """Up to 3 points down for a request size whose useful data per VM falls short of the best
    allowed one (the geometric mean over the workload's access patterns), with the reason."""
    def useful(c: str) -> float | None:
        vals = [f["value"] for k, f in expected.get(c, {}).items() if k.startswith("throughput_") and f["value"] > 0]
        return math.prod(vals) ** (1.0 / len(vals)) if vals else None

    got = {c: v for c in CHOICES if (v := useful(c)) is not None}
    allowed = [v for c, v in got.items() if c not in outcome.excluded]
    if not allowed:
        return {}, {}
    best = max(allowed)
    extra = {c: 3.0 * (v / best - 1.0) for c, v in got.items()}
    why = {c: f"about {v:.3g} MB/s of useful data per VM against {best:.3g}" for c, v in got.items() if v < 0.9 * best}
    return extra, why


def recommend(ctx: EngineContext) -> list[Recommendation]:
    """One request size per workload: the figures in one vectorised call for each I/O profile
    (access pattern and request size), the decision once per distinct profile
    (:mod:`advisor.recommend.profile`)."""
    profiles = list(dict.fromkeys((w.io.pattern, w.io.block_size_kib) for w in ctx.scenario.workloads))
    figures, cites = _figures(ctx, profiles)
    by_io = dict(zip(profiles, figures, strict=True))

    def compute(w, scope: str, _fact) -> Recommendation:
        expected = by_io[(w.io.pattern, w.io.block_size_kib)]
        outcome = evaluate(DECISION, ctx.rule_ctx(w), CHOICES)
        _whole_records(w, outcome)
        extra, why = _by_figures(expected, outcome)
        rec = decide(DECISION, scope, outcome, ctx, expected=expected, model_citations=cites,
                     order=CHOICES, has_model=bool(expected), extra_scores=extra, why=why)
        rec.rationale = (f"{w.io.pattern.capitalize()} I/O, now {w.io.block_size_kib:g} KiB requests: use "
                         f"{rec.choice} requests. {rec.rationale}")
        return rec

    return per_workload(ctx, DECISION, ctx.scenario.workloads, compute)
