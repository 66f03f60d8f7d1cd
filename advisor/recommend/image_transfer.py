"""``image_transfer``: provisioning manager and protocol for moving VM images to hosts.

Choices: Nimbus or OpenNebula, each with GridFTP or SCP (doc 000), or no copy at all when the
images are NFS files the hosts attach (doc 002). OpenNebula with GridFTP was never timed (doc 000
ran GridFTP under Nimbus only): it gets no transfer time, only the line-rate floor, and says so.
Expected figure: transfer time (s) of the
largest image from ``image_transfer_time`` at the TCP goodput over the host NIC (94 % of its line
rate: neither protocol reaches line rate), or at the rate the destination host's local disks write
when that is lower (sequential MB/s, declared or per-kind defaults), never below the physics floor
image size / the slower of NIC and disks (a 1 Gb/s link moves at most 125 MB/s).

``manager_overhead_vs_opennebula``: the time the provisioning manager keeps a VM in its
initialization and termination states, relative to OpenNebula's for the same images (doc 000
Figure 4: Nimbus spends about 72 % less, row F4-02, and is about 3.5 times faster, row F4-01; the
two statements bound the figure). Both managers moved the images with SCP there.
"""

from __future__ import annotations

import copy

from advisor.expected import ExpectedFigure
from advisor.hardware import MB_S_PER_GBPS, TESTBEDS, close, stamp
from advisor.recommend.base import EngineContext, Recommendation, decide, figure
from advisor.recommend.disks import hardware_of
from advisor.rules import Effect, Rule, evaluate
from advisor.statements import row_values

DECISION = "image_transfer"
CHOICES = ("Nimbus + GridFTP", "OpenNebula + GridFTP", "Nimbus + SCP", "OpenNebula + SCP",
           "shared NFS image (no copy)")


#: combinations the documents never timed, and why: no transfer time is offered for them (doc 000
#: Figure 3 timed GridFTP under Nimbus only; SCP under both managers, the same time)
UNMEASURED = {"OpenNebula + GridFTP": "never measured: doc 000 timed GridFTP under Nimbus only (Figure 3)"}
#: doc 000 Figure 4: Nimbus's initialization and termination time against OpenNebula's
MANAGER_ROWS = {"speedup": "000:F4-01", "percent_change": "000:F4-02"}


def manager_overhead(ctx: EngineContext) -> tuple[dict[str, ExpectedFigure], list[dict]]:
    """choice -> ``manager_overhead_vs_opennebula`` figure, and the rows' citations."""
    speedup, change = row_values(ctx.kb, [MANAGER_ROWS["speedup"], MANAGER_ROWS["percent_change"]])
    a, b = 1.0 / speedup, 1.0 + change / 100.0
    note = "time in the manager's initialization and termination states, doc 000 Figure 4 (SCP, same images)"
    nimbus = figure((a + b) / 2.0, "ratio", min(a, b), max(a, b), note=note)
    out = {c: (copy.deepcopy(nimbus) if c.startswith("Nimbus") else figure(1.0, "ratio", note=note))
           for c in CHOICES[:-1]}
    kb = ctx.kb
    cites = [kb.get(kb.resolve_document(r.split(":")[0]), r.split(":")[1]).citation() for r in MANAGER_ROWS.values()]
    return out, cites


def image_gb(ctx: EngineContext) -> float:
    """Largest image to move, GB (each workload's ``image_size_gb``)."""
    return max(w.image_size_gb for w in ctx.scenario.workloads)


def floor_seconds(size_gb: float, link_gbps: float) -> float:
    """The fastest possible transfer of ``size_gb`` GB over ``link_gbps`` Gb/s, s."""
    return size_gb * 8.0 / link_gbps


def path_gbps(ctx: EngineContext) -> tuple[float, list, bool]:
    """(the rate an image moves at, Gb/s: the host NIC, or the destination host's local disks
    when they write slower; the hardware figures it rests on; whether that is the testbed's)."""
    hw = hardware_of(ctx)
    nic = hw.nic()
    local = hw.local()
    testbed = TESTBEDS["image_transfer_time"]
    if local is not None and local.mb_s / MB_S_PER_GBPS < nic.value:
        rate = local.mb_s / MB_S_PER_GBPS
        return rate, [nic, *local.figures], close(rate, testbed.need("link_gbps"))
    return nic.value, [nic], close(nic.value, testbed.need("link_gbps"))


def transfer_inputs(ctx: EngineContext) -> dict[str, float]:
    """The ``image_transfer_time`` query's hardware: the host NIC and, when the hosts have local
    disks, the rate they write (sequential MB/s): the image moves at the slower of the TCP goodput
    over the NIC and the disk."""
    hw = hardware_of(ctx)
    local = hw.local()
    return {"link_gbps": hw.nic().value, **({"disk_mb_s": float(local.mb_s)} if local is not None else {})}


def recommend(ctx: EngineContext) -> list[Recommendation]:
    outcome = evaluate(DECISION, ctx.rule_ctx(), CHOICES)
    if ctx.facts.storage_backend != "nfs_file":
        outcome.excluded[CHOICES[-1]] = [(_NO_NFS, "images are not kept as NFS image files")]
    size = image_gb(ctx)
    link, hw_figs, same = path_gbps(ctx)
    nic = ctx.scenario.hosts.nic_gbps
    floor = floor_seconds(size, link)
    query = transfer_inputs(ctx)
    pred = ctx.models.predict("image_transfer_time", [{"image_size_gb": size, "protocol": p, **query}
                                                      for p in ("gridftp", "scp")], calibrate=False)
    expected: dict[str, dict] = {c: {} for c in CHOICES}
    cites = []
    if pred is not None:
        cites = ctx.model_citations("image_transfer_time", pred)
        for i, proto in enumerate(("GridFTP", "SCP")):
            v, lo, hi = (max(float(a[i]), floor) for a in (pred.mean, pred.low, pred.high))
            for c in CHOICES:
                if proto in c and c not in UNMEASURED:
                    expected[c]["transfer_time"] = stamp(
                        figure(v, "s", lo, hi, basis=pred.basis, extrapolated=bool(pred.extrapolated[i])),
                        hw_figs, TESTBEDS["image_transfer_time"], same)
    for c in CHOICES[:-1]:
        expected[c]["line_rate_floor"] = stamp(figure(floor, "s"), hw_figs, TESTBEDS["image_transfer_time"], same)
    expected[CHOICES[-1]]["transfer_time"] = stamp(figure(0.0, "s"), [])
    overhead, overhead_cites = manager_overhead(ctx)
    for c, fig in overhead.items():
        expected[c]["manager_overhead_vs_opennebula"] = fig
    cites = [*cites, *overhead_cites]
    rec = decide(DECISION, "cluster", outcome, ctx, expected=expected, model_citations=cites,
                 has_model=pred is not None, order=CHOICES, why=dict(UNMEASURED))
    if rec.choice == CHOICES[-1]:
        lead = (f"Copy no image: hosts attach the NFS image files ({size:g} GB; a copy over the {link:g} Gb/s "
                f"NIC would take at least {floor:.0f} s at line rate).")
    else:
        lead = f"Move images ({size:g} GB, {nic:g} Gb/s NIC: at least {floor:.0f} s at line rate) with {rec.choice}."
    if link < nic * (1 - 1e-9):
        lead += (f" The hosts' disks write about {link * 125:,.0f} MB/s, less than the NIC moves: they set the pace.")
    rec.rationale = f"{lead} {rec.rationale}"
    return [rec]


_NO_NFS = Rule("it.no-nfs-files", DECISION, "cluster", "safety", "No copy is needed only for NFS image files.",
               lambda c: True, Effect())
