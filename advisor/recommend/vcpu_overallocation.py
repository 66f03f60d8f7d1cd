"""``vcpu_overallocation``: how many vCPUs to allocate per physical core (``value``).

Levels follow the thesis: none (1.0), little (1.25), moderate (2.0), medium (2.5), massive (5.0)
vCPUs per *hardware thread* (logical CPU). The thesis counted its ratio over logical CPUs
(chapters 6 and 8: pools of 20 logical CPUs on hosts of 12 cores / 24 threads, doc 004 Sections
6.3.1 and 8.3.1), so its levels, the rules that name them and the models all use that unit;
``value`` is the same allocation per physical core of the scenario's hosts (level x
``threads_per_core``; details ``vcpus_per_hardware_thread``).

Expected figures: host CPU utilization (% of host at the chapter 8 test load of 5900 req/s,
``overallocation_overhead``; measured on VMware ESXi, flagged extrapolated for another hypervisor),
and, when some workload live-migrates, migration downtime and total migration time (s,
``migration_downtime``/``migration_total_time``, doc 004 chapter 8). A heavily loaded migrating
VM is read as the thesis' heavy-load tests x.2 (Section 8.4.1 and conclusions c8-C1/c8-C2 treat
x.2 as the heavy case, although Table 8.2 labels the loads the other way), a lightly loaded one
as tests x.1.
"""

from __future__ import annotations

import numpy as np

from advisor.hardware import TESTBEDS, cpu_capacity, migration_scale, stamp, transfer_migration_time
from advisor.recommend.base import EngineContext, Recommendation, decide, prediction_figure
from advisor.recommend.disks import hardware_of
from advisor.rules import OVERALLOCATION, evaluate

DECISION = "vcpu_overallocation"
#: Table 8.2 loads (req/s) of the tests the thesis' text treats as heavy (x.2) and light (x.1)
HEAVY_TESTS = {"migrated_vm_load": 100.0, "others_load": 1900.0}
LIGHT_TESTS = {"migrated_vm_load": 1900.0, "others_load": 1000.0}


def model_ratio(vcpus_per_core: float, threads_per_core: int) -> float:
    """The thesis' over-allocation ratio (vCPUs per hardware thread) for ``vcpus_per_core``."""
    return vcpus_per_core / max(int(threads_per_core), 1)  # a number or a numpy array


def per_core(level_ratio: float, threads_per_core: int) -> float:
    """vCPUs per physical core for a level given in vCPUs per hardware thread."""
    return level_ratio * max(int(threads_per_core), 1)


def to_scenario(hw, migrating, label: str, values, totals=None):
    """The thesis' figure ``label`` (chapter 8 hosts: 12 cores at 2.0 GHz, 10 Gb/s, 14 GB VMs;
    numbers or arrays) on the scenario's hosts (``hw``, :class:`advisor.hardware.Hardware`): host
    CPU for the same work by CPU capacity (cores x clock), migration total time by the time its
    memory copy takes (the largest migrating VM's RAM over the host NIC), downtime (the last copy
    of dirty memory) as the whole migration's ``totals`` (the total times at the same points)
    move. Returns (values, hardware figures, testbed, whether the scenario's is the testbed's)."""
    if label == "host_cpu_utilization":
        bed = TESTBEDS["overallocation_overhead"]
        factor, figs, same = cpu_capacity(hw, bed)
        return np.minimum(100.0, np.asarray(values, dtype=float) * factor), figs, bed, same
    bed = TESTBEDS["migration"]
    ram = max((w.ram_gib for w in migrating), default=bed.vm_ram_gib)
    k, figs, same = migration_scale(hw, bed, ram)
    if label == "migration_total_time":
        return transfer_migration_time(np.asarray(values, dtype=float), bed, k), figs, bed, same
    totals = np.asarray(totals, dtype=float)
    ratio = np.where(totals > 0, transfer_migration_time(totals, bed, k) / np.maximum(totals, 1e-12), 1.0)
    return np.asarray(values, dtype=float) * ratio, figs, bed, same


def _transfer(ctx: EngineContext, expected: dict[str, dict], migrating) -> None:
    """Every level's figures onto the scenario's hosts (:func:`to_scenario`)."""
    hw = hardware_of(ctx)
    for figs in expected.values():
        totals = figs.get("migration_total_time", {}).get("value")  # before its own transfer
        for label in ("host_cpu_utilization", "migration_total_time", "migration_downtime"):
            fig = figs.get(label)
            if fig is None or (label == "migration_downtime" and totals is None):
                continue
            keys = ("value", "low", "high")
            moved, hw_figs, bed, same = to_scenario(hw, migrating, label, [fig[k] for k in keys],
                                                    [totals] * 3 if totals is not None else None)
            for key, v in zip(keys, moved, strict=True):
                fig[key] = float(f"{float(v):.6g}")
            stamp(fig, hw_figs, bed, same)


def recommend(ctx: EngineContext) -> list[Recommendation]:
    """One cluster-wide over-allocation ratio; sets ``ctx.facts.overallocation_ratio``."""
    levels = list(OVERALLOCATION)
    outcome = evaluate(DECISION, ctx.rule_ctx(), levels)
    sc = ctx.scenario
    migrating = [w for w in sc.workloads if w.live_migration]
    heavy = any(w.heavily_loaded for w in migrating)
    # No ``load``: the family's load is requests per second per *host* of the thesis' telecom test;
    # a workload's per-VM request rate of another application on other hosts is not that quantity,
    # so the figure stays the one measured at the test load (the levels compare on equal terms).
    base = {"hypervisor": ctx.facts.hypervisor or "VMware ESXi"}
    threads = sc.hosts.cpu.threads_per_core
    queries = [{**base, "overallocation_ratio": OVERALLOCATION[k]} for k in levels]
    mig_q = [{**q, **(HEAVY_TESTS if heavy else LIGHT_TESTS)} for q in queries]
    families = [("host_cpu_utilization", "overallocation_overhead", queries)]
    if migrating:
        families += [("migration_downtime", "migration_downtime", mig_q),
                     ("migration_total_time", "migration_total_time", mig_q)]
    expected = {k: {} for k in levels}
    cites, extrap, extra, why, has_model = [], False, {}, {}, False
    for label, fam, qs in families:
        pred = ctx.models.predict(fam, qs, calibrate=False)
        if pred is None:
            continue
        has_model = True
        cites += ctx.model_citations(fam, pred)
        for i, k in enumerate(levels):
            expected[k][label] = prediction_figure(pred, i)
        extrap = extrap or bool(pred.extrapolated.any())
        if label == "migration_downtime":
            best = float(min(pred.mean))
            for i, k in enumerate(levels):
                extra[k] = extra.get(k, 0.0) - (float(pred.mean[i]) - best)  # -1 point per extra second
                if float(pred.mean[i]) > best + 0.5:
                    why[k] = f"about {float(pred.mean[i]) - best:.1f} s longer migration downtime"
    _transfer(ctx, expected, migrating)
    rec = decide(DECISION, "cluster", outcome, ctx, extra_scores=extra, expected=expected, why=why,
                 extrapolated=extrap, model_citations=cites, has_model=has_model)
    rec.value = per_core(OVERALLOCATION[rec.choice], threads)
    rec.details["vcpus_per_hardware_thread"] = OVERALLOCATION[rec.choice]
    rec.details["threads_per_core"] = threads
    if migrating:  # which of the thesis' migration tests the downtime figure is read at
        rec.details["migration_tests"] = "heavy" if heavy else "light"
    per_thread = (f" ({OVERALLOCATION[rec.choice]:g} per hardware thread, the thesis' unit)" if threads > 1 else "")
    pinned = ("; real-time VMs' vCPUs are pinned and not over-allocated"
              if any(w.realtime is not None for w in sc.workloads) else "")
    rec.rationale = (f"Allocate up to {rec.value:g} vCPUs per physical core{per_thread}: {rec.choice} "
                     f"over-allocation{pinned}. " + rec.rationale)
    ctx.facts.overallocation_ratio = rec.value
    ctx.facts.overallocation_per_thread = OVERALLOCATION[rec.choice]
    ctx.chosen["vcpu_overallocation"] = rec.value
    return [rec]
