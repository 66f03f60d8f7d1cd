"""``vcpu_overallocation``: how many vCPUs to allocate per physical core (``value``).

Levels follow the thesis: none (1.0), little (1.25), moderate (2.0), medium (2.5), massive (5.0)
vCPUs per *hardware thread* (logical CPU). The thesis counted its ratio over logical CPUs
(chapters 6 and 8: pools of 20 logical CPUs on hosts of 12 cores / 24 threads, doc 004 Sections
6.3.1 and 8.3.1), so its levels, the rules that name them and the models all use that unit;
``value`` is the same allocation per physical core of the scenario's hosts (level x
``threads_per_core``; details ``vcpus_per_hardware_thread``).

Expected figures: ``host_cpu_utilization`` (% of host), the host count's figure of the one
busy-core model (advisor/recommend/load.py: CPU intensity and request load in core-GHz over the
hosts' cores x clock) on the hosts the host count recommends, at another level times that level's
CPU over the chosen one's; ``thesis_host_cpu`` (% of host, ``overallocation_overhead``; measured on
VMware ESXi, flagged extrapolated for another hypervisor), what the thesis' own over-allocation
tests used at the scenario's request load per active host when workloads state
``request_load_rps`` (CPU time is work done: the figure moves with the load), else at the chapter 8
test load of 5900 req/s, moved by cores x clock: the request load only; and, when some workload
live-migrates, migration downtime and total migration time (s, ``migration_downtime``/
``migration_total_time``, doc 004 chapter 8). A heavily loaded migrating VM (high CPU or I/O
intensity, or at least 436 req/s) is read as the thesis' heavy-load tests x.2 (Section 8.4.1 and
conclusions c8-C1/c8-C2 treat x.2 as the heavy case, although Table 8.2 labels the loads the
other way), a lightly loaded one as tests x.1. On another hypervisor than ESXi a heavy VM keeps
ESXi's measured figures (the chapter 5 ratio, measured with a light VM, only widens the interval
downwards); a light one is scaled by that ratio. A ``max_migration_downtime_ms`` target excludes
the levels that miss it (hard, when some level meets it) or marks them down (soft).
"""

from __future__ import annotations

import numpy as np

from advisor.expected import ExpectedFigure, rounded
from advisor.hardware import TESTBEDS, cpu_capacity, migration_scale, stamp, transfer_migration_time
from advisor.recommend.base import (
    EngineContext,
    Recommendation,
    decide,
    figure,
    mark_target_misses,
    prediction_figure,
)
from advisor.recommend.disks import hardware_of
from advisor.recommend.load import host_cpu_pct
from advisor.rules import OVERALLOCATION, Effect, Rule, evaluate

DECISION = "vcpu_overallocation"
#: Table 8.2 loads (req/s) of the tests the thesis' text treats as heavy (x.2) and light (x.1)
HEAVY_TESTS = {"migrated_vm_load": 100.0, "others_load": 1900.0}
LIGHT_TESTS = {"migrated_vm_load": 1900.0, "others_load": 1000.0}
#: the migrated VM's own load (req/s) in the heavy (x.2) and light (x.1) tests, Section 8.4.1 (rows c8-109,
#: c8-099): what the downtime's last copy reads when no migrating workload states its request load
MIGRATED_RPS = {True: 1900.0, False: 100.0}


def downtime_inputs(migrating, heavy: bool, nic_gbps: float) -> dict[str, float]:
    """The ``migration_downtime`` query's physics: the migrated VM's request rate (its dirty rate;
    the largest a migrating workload states, else the thesis' heavy or light test VM's) and the
    link the memory is copied over (the host NIC)."""
    stated = [float(w.request_load_rps) for w in migrating if w.request_load_rps]
    return {"migrated_vm_rps": max(stated) if stated else MIGRATED_RPS[heavy], "link_gbps": float(nic_gbps)}


def model_ratio(vcpus_per_core, threads_per_core: int):
    """The thesis' over-allocation ratio (vCPUs per hardware thread) for ``vcpus_per_core``."""
    return vcpus_per_core / max(int(threads_per_core), 1)  # a number or a numpy array


def per_core(level_ratio: float, threads_per_core: int) -> float:
    """vCPUs per physical core for a level given in vCPUs per hardware thread."""
    return level_ratio * max(int(threads_per_core), 1)


#: per-VM request rate (req/s) from which a migrating VM counts as heavily loaded without a CPU or
#: I/O intensity saying so: the geometric middle of the thesis' light and heavy migrated VMs
#: (100 and 1900 req/s, Section 8.3.3)
HEAVY_RPS = 436.0


def host_request_load(ctx: EngineContext) -> float | None:
    """Requests per second one active host carries (the workloads' stated ``request_load_rps``
    over the active hosts), or None when no workload states a request load."""
    wls = [w for w in ctx.scenario.workloads if w.request_load_rps]
    if not wls:
        return None
    return sum(w.vms * float(w.request_load_rps or 0.0) for w in wls) / max(ctx.facts.active_hosts, 1)


def _migration_figures(ctx: EngineContext, fam: str, queries: list[dict], hv: str, heavy: bool):
    """(figures per level, Prediction) of a migration family on the cluster's hypervisor.

    Chapter 8 measured VMware ESXi; the chapter 5 ratio of another hypervisor to ESXi (KVM 0.7 s,
    XenServer 0.3 s against ESXi's 3 s of downtime, Section 5.6) scales the family, for a light and
    a heavily loaded migrated VM alike: the hypervisor's own copy mechanism sets the downtime, and
    the hypervisor card quotes the same ratio. Chapter 5 measured the ratio with a lightly loaded
    VM (100 req/s, Section 5.3.2.2), so for a heavy one the interval reaches up to ESXi's chapter 8
    interval (a heavily loaded VM may dirty pages as fast on any hypervisor) and the figure is
    flagged extrapolated. The figure names the rows it rests on."""
    pred = ctx.models.predict(fam, [{**q, "hypervisor": hv} for q in queries], calibrate=False)
    if pred is None:
        return None, None
    figs = [prediction_figure(pred, i) for i in range(len(queries))]
    rows = _migration_rows(fam, hv, heavy)
    for f in figs:
        f["rows"] = list(rows)
    if heavy and hv != "VMware ESXi":
        base = ctx.models.predict(fam, [{**q, "hypervisor": "VMware ESXi"} for q in queries], calibrate=False)
        if base is not None:
            for i, f in enumerate(figs):
                esxi = prediction_figure(base, i)
                f.high = max(f.high, esxi.high)
                f.extrapolated = True
                f["note"] = (f"{hv}'s chapter 5 ratio to VMware ESXi (measured with a lightly loaded VM) on the "
                             "thesis' heavy-load test; the interval reaches up to ESXi's own chapter 8 interval")
    return figs, pred


#: Table 8.3 rows of each migration family per test kind (x.2 heavy, x.1 light: Section 8.4.1's reading)
TABLE_8_3_ROWS = {"migration_downtime": {True: ("c8-083", "c8-087", "c8-091"), False: ("c8-081", "c8-085", "c8-089")},
                  "migration_total_time": {True: ("c8-084", "c8-088", "c8-092"), False: ("c8-082", "c8-086", "c8-090")}}


def _migration_rows(fam: str, hv: str, heavy: bool) -> list[str]:
    """``004:<row>`` of the Table 8.3 tests a migration figure reads and, for another hypervisor
    than VMware ESXi, of the chapter 5 values its ratio comes from."""
    from advisor.models.migration import CH5_ROWS, HYPERVISOR_ALIASES

    rows = [f"004:{r}" for r in TABLE_8_3_ROWS.get(fam, {}).get(heavy, ())]
    ch5 = CH5_ROWS.get("downtime" if fam == "migration_downtime" else "total_migration_time", {})
    name = HYPERVISOR_ALIASES.get(hv.lower(), hv.lower())
    if name != "vmware esxi" and name in ch5:
        rows += [f"004:{ch5['vmware esxi']}", f"004:{ch5[name]}"]
    return rows


def to_scenario(hw, migrating, label: str, values):
    """The thesis' figure ``label`` (chapter 8 hosts: 12 cores at 2.0 GHz, 10 Gb/s, 14 GB VMs;
    numbers or arrays) on the scenario's hosts (``hw``, :class:`advisor.hardware.Hardware`): host
    CPU for the same work by CPU capacity (cores x clock), migration total time by the time its
    memory copy takes (the largest migrating VM's RAM over the host NIC); downtime as it comes (its
    family reads the link and the VM's request rate, ``migrated_vm_rps``/``link_gbps``: the last
    copy of dirty memory does not grow with the whole memory copy). Returns (values, hardware figures, testbed, whether the scenario's is the testbed's).
    ``host_cpu_utilization`` comes on the scenario's hosts already (:func:`cpu_figures`, the busy-core
    model in core-GHz over the hosts' cores x clock): only its hardware figures and testbed are named."""
    if label in ("thesis_host_cpu", "host_cpu_utilization"):
        bed = TESTBEDS["overallocation_overhead"]
        factor, figs, same = cpu_capacity(hw, bed)
        if label == "host_cpu_utilization":
            factor = 1.0
        return np.minimum(100.0, np.asarray(values, dtype=float) * factor), figs, bed, same
    bed = TESTBEDS["migration"]
    ram = max((w.ram_gib for w in migrating), default=bed.need("vm_ram_gib"))
    k, figs, same = migration_scale(hw, bed, ram)
    if label == "migration_total_time":
        return transfer_migration_time(np.asarray(values, dtype=float), bed, k), figs, bed, same
    # the downtime family reads the link and the VM's dirty rate itself (its pre-copy physics): not
    # moved, and always the figure at the scenario's link (the model's reading of it, never the testbed's own)
    return np.asarray(values, dtype=float), [hw.nic()], bed, False


def _transfer(ctx: EngineContext, expected: dict[str, dict[str, ExpectedFigure]], migrating) -> list[str]:
    """Every level's figures onto the scenario's hosts (:func:`to_scenario`). A ``thesis_host_cpu``
    that reaches 100 % on these hosts says nothing (every level would read 100 [100-100] %: the
    thesis' test load does not fit one of them) and is not stated; returns the levels it was
    dropped from."""
    hw = hardware_of(ctx)
    dropped = []
    for level, figs in expected.items():
        for label in ("thesis_host_cpu", "migration_total_time", "migration_downtime"):
            fig = figs.get(label)
            if fig is None:
                continue
            moved, hw_figs, bed, same = to_scenario(hw, migrating, label, [fig.value, fig.low, fig.high])
            if label == "thesis_host_cpu" and float(moved[0]) >= 100.0:
                del figs[label]
                dropped.append(level)
                continue
            fig.value, fig.low, fig.high = (rounded(float(v)) for v in moved)
            stamp(fig, hw_figs, bed, same)
    return dropped


def cpu_figures(ctx: EngineContext, rec: Recommendation, active: int) -> None:
    """Give every level of ``rec`` (chosen and alternatives) its ``host_cpu_utilization`` on
    ``active`` hosts: the host count's figure (the one busy-core model,
    :func:`advisor.recommend.load.host_cpu_pct`: each VM's CPU intensity and request load in core-GHz
    over the hosts' cores x clock) at the chosen level, and at another level that figure times the
    thesis' host CPU at that level over the chosen one's (``thesis_host_cpu``, doc 004 Section
    8.4.1: more vCPUs per core cost more CPU for the same work); at most 100 %. The host count
    calls it again with the hosts it recommends, so both cards show one figure for one set of hosts."""
    overhead = ctx.chosen.get("_overallocation_overhead") or {}
    hw = hardware_of(ctx)
    busy = {b: host_cpu_pct(ctx, active, b) for b in ("value", "low", "high")}
    ghz = ctx.scenario.hosts.cpu.ghz
    for choice, figs in ((rec.choice, rec.expected), *((a.choice, a.expected) for a in rec.alternatives)):
        if choice not in OVERALLOCATION:
            continue
        f = overhead.get(choice, 1.0) / overhead.get(rec.choice, 1.0) if overhead.get(rec.choice) else 1.0
        value, low, high = (min(100.0, busy[b] * f) for b in ("value", "low", "high"))
        fig = figure(value, "% of host", min(low, value), max(high, value), active_hosts=active)
        fig["note"] = (f"busy cores on the busiest of {active} active hosts (CPU intensity and request load in "
                       f"core-GHz over the hosts' {ghz:g} GHz: the host count's figure)"
                       + ("" if choice == rec.choice else
                          f", times this level's CPU over the chosen level's ({f:.3g}x, doc 004 Section 8.4.1)"))
        _, hw_figs, bed, same = to_scenario(hw, [], "host_cpu_utilization", [value])
        figs["host_cpu_utilization"] = stamp(fig, hw_figs, bed, same)


def refresh_cpu(ctx: EngineContext, active: int) -> None:
    """The over-allocation card's ``host_cpu_utilization`` on the ``active`` hosts the host count
    recommends (:func:`cpu_figures`)."""
    rec = ctx.chosen.get("_overallocation_rec")
    if rec is not None:
        cpu_figures(ctx, rec, active)


def _overhead_figures(ctx: EngineContext, levels: list[str], hv: str, load: float | None,
                      expected: dict[str, dict]) -> tuple[list[dict], bool] | None:
    """The thesis' host CPU at each level (``thesis_host_cpu``) at the host's request load when the
    scenario states one (CPU time is work done: the figure moves with it), else at the chapter 8
    test load the levels were measured at; (citations, extrapolated), or None without the model.
    ``host_cpu_utilization`` (the host count's busy-core figure, :func:`cpu_figures`) follows after
    the choice."""
    base: dict[str, object] = {"hypervisor": hv, **({"load": load} if load is not None else {})}
    queries = [{**base, "overallocation_ratio": OVERALLOCATION[k]} for k in levels]
    pred = ctx.models.predict("overallocation_overhead", queries, calibrate=False)
    ctx.chosen.pop("_overallocation_overhead", None)
    if pred is None:
        return None
    ctx.chosen["_overallocation_overhead"] = {k: float(pred.mean[i]) for i, k in enumerate(levels)}
    for i, k in enumerate(levels):
        fig = expected[k]["thesis_host_cpu"] = prediction_figure(pred, i)
        fig["note"] = (
            "the thesis' over-allocation tests (telecom VMs on 12 cores at 2.0 GHz, doc 004 chapter 8) at "
            + (f"the stated request load, {load:,.0f} req/s per host" if load is not None
               else "their test load (no request load stated)")
            + ", moved by cores x clock: request load only, the level's CPU overhead; the plan's busy CPU is "
              "host_cpu_utilization")
        if load is not None:
            fig["load_rps_per_host"] = round(load, 3)
    return ctx.model_citations("overallocation_overhead", pred), bool(pred.extrapolated.any())


def _downtime_scores(ctx: EngineContext, outcome, expected: dict[str, dict], migrating, extra, why) -> dict:
    """Level -> downtime (s) when every level has one; -1 point per second over the best level, and
    the ``max_migration_downtime_ms`` target (:func:`_downtime_target`)."""
    levels = list(expected)
    if not migrating or not all("migration_downtime" in expected[k] for k in levels):
        return {}
    downtime = {k: float(expected[k]["migration_downtime"]["value"]) for k in levels}
    best = min(downtime.values())
    for k, v in downtime.items():
        extra[k] = extra.get(k, 0.0) - (v - best)  # -1 point per extra second
        if v > best + 0.5:
            why[k] = f"about {v - best:.1f} s longer migration downtime"
    _downtime_target(ctx, outcome, downtime, migrating, extra, why)
    return downtime


def _details(rec: Recommendation, threads: int, migrating, heavy: bool, saturated: list[str],
             load: float | None) -> None:
    """What the card says besides its figures: per-thread ratio, the migration tests read, and why a
    level's ``thesis_host_cpu`` is not stated."""
    if saturated:
        rec.details["thesis_host_cpu"] = (
            "not stated at " + ", ".join(saturated) + ": the thesis' request load at that level would fill these "
            "hosts' CPU (100 % or more of their cores x clock), so the figure would read 100 % whatever the level; "
            "host_cpu_utilization is the plan's own figure")
        if load is not None:
            rec.details["load_rps_per_host"] = round(load, 3)
    rec.details["vcpus_per_hardware_thread"] = OVERALLOCATION[rec.choice]
    rec.details["threads_per_core"] = threads
    if migrating:  # which of the thesis' migration tests the downtime figure is read at
        rec.details["migration_tests"] = "heavy" if heavy else "light"


def recommend(ctx: EngineContext) -> list[Recommendation]:
    """One cluster-wide over-allocation ratio; sets ``ctx.facts.overallocation_ratio``."""
    levels = list(OVERALLOCATION)
    outcome = evaluate(DECISION, ctx.rule_ctx(), levels)
    sc = ctx.scenario
    migrating = [w for w in sc.workloads if w.live_migration]
    heavy = any(w.heavily_loaded or (w.request_load_rps or 0.0) >= HEAVY_RPS for w in migrating)
    hv = ctx.facts.hypervisor or "VMware ESXi"
    load = host_request_load(ctx)
    threads = sc.hosts.cpu.threads_per_core
    mig_q = [{"overallocation_ratio": OVERALLOCATION[k], **(HEAVY_TESTS if heavy else LIGHT_TESTS)} for k in levels]
    down_q = [{"overallocation_ratio": OVERALLOCATION[k], **downtime_inputs(migrating, heavy, sc.hosts.nic_gbps)}
              for k in levels]
    expected: dict[str, dict] = {k: {} for k in levels}
    extra: dict[str, float] = {}
    cites: list[dict] = []
    why: dict[str, str] = {}
    extrap, has_model = False, False
    overhead = _overhead_figures(ctx, levels, hv, load, expected)
    if overhead is not None:
        has_model = True
        cites += overhead[0]
        extrap = overhead[1]
    if migrating:
        for fam in ("migration_downtime", "migration_total_time"):
            figs, mpred = _migration_figures(ctx, fam, down_q if fam == "migration_downtime" else mig_q, hv, heavy)
            if figs is None:
                continue
            has_model = True
            cites += ctx.model_citations(fam, mpred)
            for i, k in enumerate(levels):
                expected[k][fam] = figs[i]
            extrap = extrap or any(f["extrapolated"] for f in figs)
    saturated = _transfer(ctx, expected, migrating)  # onto the scenario's hosts (CPU capacity, memory copy)
    downtime = _downtime_scores(ctx, outcome, expected, migrating, extra, why)
    fixed = sc.preferences.vcpu_overallocation
    if fixed:  # the others stay as alternatives, with their figures, excluded by the preference
        for k in levels:
            if k != fixed:
                outcome.excluded.setdefault(k, []).insert(0, (_FIXED_RULE, f"the scenario's preferences fix the over-allocation to {fixed}"))
    rec = decide(DECISION, "cluster", outcome, ctx, extra_scores=extra, expected=expected, why=why,
                 extrapolated=extrap, model_citations=cites, has_model=has_model)
    rec.value = per_core(OVERALLOCATION[rec.choice], threads)
    _details(rec, threads, migrating, heavy, saturated, load)
    per_thread = (f" ({OVERALLOCATION[rec.choice]:g} per hardware thread, the thesis' unit)" if threads > 1 else "")
    pinned = ("; real-time VMs' vCPUs are pinned and not over-allocated"
              if any(w.realtime is not None for w in sc.workloads) else "")
    rec.rationale = (f"Allocate up to {rec.value:g} vCPUs per physical core{per_thread}: {rec.choice} "
                     f"over-allocation{pinned}. " + rec.rationale)
    cpu_figures(ctx, rec, ctx.facts.active_hosts)  # the host count's figure, moved by refresh_cpu
    ctx.chosen["_overallocation_rec"] = rec
    ctx.facts.overallocation_ratio = rec.value
    ctx.facts.overallocation_per_thread = OVERALLOCATION[rec.choice]
    ctx.chosen["vcpu_overallocation"] = rec.value
    if rec.choice in downtime:
        ctx.chosen["migration_downtime_s"] = downtime[rec.choice]
    return [rec]


_FIXED_RULE = Rule("oa.fixed-by-preferences", DECISION, "cluster", "safety",
                   "The scenario's preferences fix the over-allocation level.",
                   lambda c: True, Effect())


def _downtime_target(ctx: EngineContext, outcome, downtime: dict[str, float], migrating, extra, why) -> None:
    """Levels whose downtime misses a ``max_migration_downtime_ms`` target: excluded when the target
    is hard and some level meets it, else 2 points down (the advice prefers the levels that meet it)."""
    targets = [t for t in (ctx.scenario.preferences.target("max_migration_downtime_ms", w.name) for w in migrating)
               if t is not None]
    if not targets or not downtime:
        return
    limit = min(t.value for t in targets) / 1000.0  # ms -> s
    mark_target_misses(outcome, downtime, limit, any(t.hard for t in targets), _TARGET_RULE,
                       lambda v: f"migration downtime about {v:.2g} s misses the target of {limit * 1000:g} ms",
                       extra, why)


_TARGET_RULE = Rule("oa.downtime-target", DECISION, "cluster", "safety",
                    "Levels whose migration downtime misses a hard target are not offered.", lambda c: True, Effect())
