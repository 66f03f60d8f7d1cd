"""``load_balancing``: the automatic migration (DRS-style) threshold, from doc 004 chapter 7;
given only when some workload live-migrates (otherwise nothing moves automatically).

Expected figures per choice (the thesis' DRS levels 1, 3, 5 and the human expert for "manual"):
the CPU of the hottest host after the balancer acted (``drs_peak_cpu``) at the cluster's mean
host CPU after the event, and the migrations it makes per event (``drs_migrations``) for the
scenario's VMs per host and active hosts. All measured on VMware ESXi 5.5 DRS.

The event (``preferences.balancing_event``; chapter 7's five test cases): ``load_shift`` (one
VM's load rises), ``two_load_shifts``, ``host_added`` (an empty host joins the active ones),
``failover`` (a passive VM takes over its active twin's load) or ``maintenance`` (one host is
evacuated). Without it: maintenance when the plan keeps a reserve (N+x), else a load shift. The
workloads' loads are read as the state after the event (a load shift: the shifted VM at its
raised rate).

Mean host CPU: the VMs' busy cores over the cores of the hosts that carry them after the event
(one more for ``host_added``, one fewer for ``maintenance`` without a reserve). Workloads that
state a request load and run the thesis' telecom application keep the cores their load costs
busy (``cpu_utilization``, telecom: the Table 7.2 hosts, VMware ESXi, 300-700 req/s per VM on
four VMs per host; KVM and XenServer through the chapter 5 ratios; the host count sizes for the
same): CPU time is work done, so the figures move with the load as the chapter 7 tables do. On
hyperthreaded hosts that CPU rises twice as fast once the busy threads outnumber the cores
(:data:`SMT_SLOPE`, from the chapter 7 hosts). ``preferences.balancing_mean_host_cpu_pct`` (the
mean host CPU after the event, e.g. from the cluster's monitoring) replaces the estimate.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from advisor.hardware import stamp
from advisor.recommend.base import EngineContext, Recommendation, decide, prediction_figure
from advisor.recommend.disks import hardware_of
from advisor.recommend.load import busy_cores_at, load_driven, telecom_idle_pct
from advisor.rules import evaluate

DECISION = "load_balancing"
CHOICES = ("level 5 (aggressive)", "level 3 (default)", "level 1 (conservative)", "manual (expert plan)")
#: choice -> (balancer, DRS level) of the drs_* families
BALANCER = {CHOICES[0]: ("drs", 5.0), CHOICES[1]: ("drs", 3.0), CHOICES[2]: ("drs", 1.0),
            CHOICES[3]: ("human_expert", 3.0)}


def event_of(ctx: EngineContext) -> str:
    """The event the figures are for (see the module doc)."""
    sc = ctx.scenario
    return sc.preferences.balancing_event or ("maintenance" if sc.hosts.reserve > 0 else "load_shift")


def hosts_after(ctx: EngineContext, event: str) -> int:
    """Hosts that carry the VMs after ``event``: the active ones, one more when a host is added,
    one fewer when one is evacuated and the plan keeps no reserve to take its VMs."""
    n = ctx.facts.active_hosts
    if event == "host_added":
        return n + 1
    if event == "maintenance" and ctx.scenario.hosts.reserve == 0:
        return max(n - 1, 1)
    return n


#: hyperthreading: host CPU (% of hardware threads) rises this many times faster per unit of work
#: once the busy threads outnumber the physical cores (two threads share a core's pipeline). From
#: doc 004 chapter 7: Table 7.2's hosts are linear in the load up to 49 % at 700 req/s per VM (rows
#: c7-T7.2-01/05/09: 27, 38, 49 %, about 1.4 points per 100 req/s of a host); the hosts the load
#: shift, the two shifts and the maintenance pushed beyond half their 24 threads ran about twice as
#: steep: 67 % at 3,500 req/s (c7-T7.2-10), 72 % at 3,600 (c7-T7.4-10), 85 % at 4,200 (c7-T7.10-10)
#: against 59, 60 and 68 % on the straight line: (67 - 50) / (59 - 50) = 1.9, 2.25 and 1.9.
SMT_SLOPE = 2.0


def smt_knee(linear_pct: float, threads_per_core: int) -> float:
    """Host CPU (%) for a demand that would show ``linear_pct`` on a host whose threads all ran at
    full speed: beyond the physical cores (``100 / threads_per_core`` %), each unit of work takes
    :data:`SMT_SLOPE` times the thread time."""
    knee = 100.0 / max(threads_per_core, 1)
    if threads_per_core < 2 or linear_pct <= knee:
        return linear_pct
    return min(100.0, knee + (linear_pct - knee) * SMT_SLOPE)


def mean_host_cpu(ctx: EngineContext, hosts: int | None = None, bound: str = "value") -> float:
    """The cluster's mean host CPU, % over ``hosts`` (default the active hosts): the busy cores of
    every VM (a telecom VM's from its request load, :func:`~advisor.recommend.load.busy_cores_at`)
    over those hosts' cores; with load-driven VMs on hyperthreaded hosts, through :func:`smt_knee`
    (the chapter 7 hosts above half their threads). ``bound`` ``low``/``high``: with the load
    model's interval (the figures' intervals carry it)."""
    sc = ctx.scenario
    given = sc.preferences.balancing_mean_host_cpu_pct
    if given is not None:
        return float(given)
    n = max(hosts or ctx.facts.active_hosts, 1)
    driven = any(load_driven(w) for w in sc.workloads)
    busy = sum(w.vms * busy_cores_at(ctx, w, idle_share=False, bound=bound) for w in sc.workloads)
    linear = 100.0 * busy / (n * max(sc.hosts.cpu.cores, 1))
    if driven:  # the hosts' idle floor once per host, then the hyperthreading knee
        linear = smt_knee(linear + telecom_idle_pct(ctx), sc.hosts.cpu.threads_per_core)
    return min(100.0, max(linear, 0.1))


def _figures(ctx: EngineContext) -> tuple[dict, list[dict], dict, str]:
    event = event_of(ctx)
    n_after = hosts_after(ctx, event)
    cpu, cpu_lo, cpu_hi = (mean_host_cpu(ctx, n_after, b) for b in ("value", "low", "high"))
    base = [{"event": event, "balancer": BALANCER[c][0], "drs_level": BALANCER[c][1]} for c in CHOICES]
    peak = ctx.models.predict("drs_peak_cpu", [{**q, "mean_host_cpu": m} for m in (cpu, cpu_lo, cpu_hi)
                                               for q in base], calibrate=False)
    if peak is not None:  # the interval carries the mean's own (the load model's) interval
        k = len(CHOICES)
        peak = replace(peak, mean=peak.mean[:k], low=np.minimum(peak.low[:k], peak.low[k:2 * k]),
                       high=np.maximum(peak.high[:k], peak.high[2 * k:]), extrapolated=peak.extrapolated[:k])
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
            expected[c][label]["event"] = event
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
