"""``load_balancing``: the automatic migration (DRS-style) threshold, from doc 004 chapter 7;
given only when some workload live-migrates (otherwise nothing moves automatically).

Expected figures per choice (the thesis' DRS levels 1, 3, 5 and the human expert for "manual"):
the CPU of the hottest host after the balancer acted (``drs_peak_cpu``) at the cluster's mean
host CPU (busy cores over the active hosts' cores, as the host count plans them), and the
migrations it makes per event (``drs_migrations``) for the scenario's VMs per host and active
hosts. The event is a host going into maintenance when the plan keeps a reserve (N+x), else a
load shift on one VM. All measured on VMware ESXi 5.5 DRS.
"""

from __future__ import annotations

from advisor.hardware import stamp
from advisor.recommend.base import EngineContext, Recommendation, decide, prediction_figure
from advisor.recommend.disks import hardware_of
from advisor.recommend.load import busy_cores
from advisor.rules import evaluate

DECISION = "load_balancing"
CHOICES = ("level 5 (aggressive)", "level 3 (default)", "level 1 (conservative)", "manual (expert plan)")
#: choice -> (balancer, DRS level) of the drs_* families
BALANCER = {CHOICES[0]: ("drs", 5.0), CHOICES[1]: ("drs", 3.0), CHOICES[2]: ("drs", 1.0),
            CHOICES[3]: ("human_expert", 3.0)}


def mean_host_cpu(ctx: EngineContext) -> float:
    """The cluster's mean host CPU, % (busy cores of every VM over the active hosts' cores)."""
    sc = ctx.scenario
    busy = sum(w.vms * busy_cores(w) for w in sc.workloads)
    return min(100.0, 100.0 * busy / max(ctx.facts.active_hosts * sc.hosts.cpu.cores, 1))


def _figures(ctx: EngineContext) -> tuple[dict, list[dict], dict, str]:
    event = "maintenance" if ctx.scenario.hosts.reserve > 0 else "load_shift"
    cpu = mean_host_cpu(ctx)
    base = [{"event": event, "balancer": BALANCER[c][0], "drs_level": BALANCER[c][1]} for c in CHOICES]
    peak = ctx.models.predict("drs_peak_cpu", [{**q, "mean_host_cpu": cpu} for q in base], calibrate=False)
    moves = ctx.models.predict("drs_migrations", [{**q, "vms_per_host": ctx.facts.vms_per_host,
                                                   "hosts": float(ctx.facts.active_hosts)} for q in base],
                               calibrate=False)
    expected: dict[str, dict] = {c: {} for c in CHOICES}
    cites, why = [], {}
    for name, label, pred in (("drs_peak_cpu", "peak_host_cpu", peak), ("drs_migrations", "migrations_per_event",
                                                                         moves)):
        if pred is None:
            continue
        cites += ctx.model_citations(name, pred)
        for i, c in enumerate(CHOICES):
            # from the cluster's mean host CPU and VMs per host: the scenario's cores and VMs
            expected[c][label] = stamp(prediction_figure(pred, i), [hardware_of(ctx).cores()])
    if peak is not None:
        best = min(float(v) for v in peak.mean)
        for i, c in enumerate(CHOICES):
            if float(peak.mean[i]) > best + 5:
                why[c] = f"hottest host at about {float(peak.mean[i]):.0f} % against {best:.0f} %"
    return expected, cites, why, f"{event.replace('_', ' ')} at {cpu:.0f} % mean host CPU"

def recommend(ctx: EngineContext) -> list[Recommendation]:
    if not any(w.live_migration for w in ctx.scenario.workloads):
        return []
    outcome = evaluate(DECISION, ctx.rule_ctx(), CHOICES)
    expected, cites, why, case = _figures(ctx)
    rec = decide(DECISION, "cluster", outcome, ctx, expected=expected, why=why, model_citations=cites,
                 order=CHOICES, has_model=bool(cites))
    hv = ctx.facts.hypervisor or "VMware ESXi"
    lead = f"Balance load with {rec.choice} (figures for a {case})."
    if hv != "VMware ESXi" and rec.choice != "manual (expert plan)":
        lead += (f" The levels are VMware DRS migration thresholds, which the thesis measured; {hv} has no "
                 "DRS: set the balancer you run on it (an oVirt or OpenStack scheduler, for example) to the "
                 "equivalent aggressiveness.")
        rec.warnings.append(f"DRS thresholds were measured on VMware ESXi; on {hv} use an equivalent balancer "
                            "setting and check its migrations")
        rec.confidence = max(0.05, rec.confidence - 0.15)
        rec.extrapolated = True
    rec.rationale = f"{lead} {rec.rationale}"
    return [rec]
