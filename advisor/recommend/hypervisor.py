"""``hypervisor``: which hypervisor the cluster runs (KVM, VMware ESXi, XenServer, Xen) and,
for each containerizable workload, whether it runs as Docker containers instead of VMs.

Expected figures come from the ``cpu_utilization`` family (host CPU for the same work relative to
bare metal, at a Cassandra rate the thesis measured, doc 004 Table 9.2) and ``container_overhead``/``container_cpu``
(peak transactions relative to bare metal, and server CPU % at the Table 9.2 rate on the scenario's cores
per host; doc 004 chapters 9-10) when those families are available. The thesis' VMs ran on VMware ESXi:
the VM alternative's figures are flagged extrapolated for another hypervisor.
"""

from __future__ import annotations

from advisor.hardware import TESTBEDS, cpu_capacity, stamp
from advisor.recommend.base import EngineContext, Recommendation, decide, figure, prediction_figure
from advisor.recommend.disks import hardware_of
from advisor.rules import HV, Effect, Rule, evaluate

DECISION = "hypervisor"


#: reference point for the CPU-cost comparison: the Cassandra read workload at 60,000 tps, measured
#: on every platform in doc 004 Table 9.2 and well below the CPU ceiling (near it, utilization
#: ratios understate the cost)
REFERENCE_TPS = 60000.0
REFERENCE_WORKLOAD = "read"
#: how the figures of hypervisors the Cassandra tests did not run are derived (cpu_utilization)
ANALOG_NOTES = {"KVM": "VMware's measured CPU times KVM's factor from doc 004 chapter 5 (Figures 5.4, 5.12)",
                "XenServer": "VMware's measured CPU times XenServer's factor from doc 004 chapter 5 (Figures 5.4, "
                             "5.12)",
                "Xen": "XenServer's factor: the thesis measured XenServer, not plain Xen"}


_FIXED_RULE = Rule("hv.fixed-by-preferences", DECISION, "cluster", "safety",
                   "The scenario fixes the hypervisor (preferences.hypervisor).", lambda c: True, Effect())


def _cluster(ctx: EngineContext) -> Recommendation:
    outcome = evaluate(DECISION, ctx.rule_ctx(), HV)
    fixed = ctx.scenario.preferences.hypervisor
    if fixed:  # the others stay as alternatives, with their figures, excluded by the preference
        for h in HV:
            if h != fixed:
                outcome.excluded.setdefault(h, []).insert(0, (_FIXED_RULE, f"preferences.hypervisor is {fixed}"))
    expected, why, extra, cites = {}, {}, {}, []
    pred = ctx.models.predict("cpu_utilization", [{"hypervisor": h, "load": REFERENCE_TPS,
                                                   "workload": REFERENCE_WORKLOAD}
                                                  for h in (*HV, "native")], calibrate=False)
    if pred is not None:
        cites = ctx.model_citations("cpu_utilization", pred)
        native = max(float(pred.mean[-1]), 1e-9)
        for i, h in enumerate(HV):
            ratio = float(pred.mean[i]) / native
            expected[h] = {"cpu_cost_vs_native": figure(ratio, "ratio", float(pred.low[i]) / native,
                                                        float(pred.high[i]) / native, basis=pred.basis,
                                                        extrapolated=bool(pred.extrapolated[i]))}
            if h in ANALOG_NOTES:
                expected[h]["cpu_cost_vs_native"]["note"] = ANALOG_NOTES[h]
            stamp(expected[h]["cpu_cost_vs_native"], [])  # a ratio on one testbed: it carries over as it is
            extra[h] = -(ratio - 1.0)  # -1 point per 100 % more CPU than bare metal
            if ratio > 1.05:
                why[h] = f"about {100 * (ratio - 1):.0f} % more CPU than bare metal for the same work"
    rec = decide(DECISION, "cluster", outcome, ctx, extra_scores=extra, expected=expected, why=why,
                 model_citations=cites, has_model=pred is not None, order=HV)
    rec.rationale = f"The cluster runs {rec.choice}. {rec.rationale}"
    return rec


def _containers(ctx: EngineContext, hv: str) -> list[Recommendation]:
    out = []
    for w in ctx.scenario.workloads:
        if not w.containerizable:
            continue
        vm = "VM"
        outcome = evaluate(DECISION, ctx.rule_ctx(w), ("Docker", vm))
        expected, why, cites = {}, {}, []
        kind = "read" if w.io.read_share >= 0.7 else "write" if w.io.read_share <= 0.3 else "mix"
        tps = ctx.models.predict("container_overhead", [{"platform": "docker", "workload": kind},
                                                        {"platform": "vm", "workload": kind}])
        # the scenario's cores per host (the thesis' servers had 16); the rate stays Table 9.2's
        cores = float(ctx.scenario.hosts.cpu.cores)
        cpu = ctx.models.predict("container_cpu", [{"platform": "docker", "workload": kind, "physical_cores": cores},
                                                   {"platform": "vm", "workload": kind, "physical_cores": cores}])
        for i, choice in enumerate(("Docker", vm)):
            figs = {}
            if tps is not None:  # % of bare metal on the same servers: a ratio, carried over as it is
                figs["peak_transactions"] = stamp(prediction_figure(tps, i), [], TESTBEDS["container_cpu"])
            if cpu is not None:  # the thesis' servers' CPU onto the scenario's cores (their clock is not stated)
                factor, cpu_figs, same = cpu_capacity(hardware_of(ctx), TESTBEDS["container_cpu"])
                figs["server_cpu_utilization"] = stamp(prediction_figure(cpu, i), cpu_figs, TESTBEDS["container_cpu"],
                                                       same)
            if choice == vm and hv != "VMware ESXi":  # the thesis' VMs ran on VMware ESXi
                for f in figs.values():
                    f["extrapolated"] = True
            expected[choice] = figs
        if tps is not None:
            cites += ctx.model_citations("container_overhead", tps)
            if float(tps.mean[1]) < float(tps.mean[0]):
                why[vm] = f"about {100 * (1 - float(tps.mean[1]) / float(tps.mean[0])):.0f} % lower peak rate"
        rec = decide(DECISION, f"workload:{w.name}", outcome, ctx, expected=expected, why=why,
                     model_citations=cites, has_model=tps is not None,
                     extrapolated=bool(tps is not None and tps.extrapolated.any()))
        label = {"Docker": "Docker containers", vm: f"{hv} VMs"}
        rec.rationale = f"{w.name} runs as {label[rec.choice]}. {rec.rationale}"
        ctx.chosen.setdefault("containers", {})[w.name] = rec.choice == "Docker"
        rec.choice = label[rec.choice]
        for alt in rec.alternatives:
            alt.choice = label.get(alt.choice, alt.choice)
        out.append(rec)
    return out


def recommend(ctx: EngineContext) -> list[Recommendation]:
    """The cluster's hypervisor, then a container-or-VM choice per containerizable workload."""
    rec = _cluster(ctx)
    ctx.chosen["hypervisor"] = rec.choice
    ctx.facts.hypervisor = rec.choice
    return [rec, *_containers(ctx, rec.choice)]
