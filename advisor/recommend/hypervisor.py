"""``hypervisor``: which hypervisor the cluster runs (KVM, VMware ESXi, XenServer, Xen) and,
for each containerizable workload, whether it runs as Docker containers instead of VMs.

The cluster card's ``cpu_cost_vs_native`` (host CPU for the same work relative to bare metal)
rests on the one experiment that ran KVM, VMware ESXi, XenServer and the non-virtualized target
with the same application at the same loads: doc 004 chapter 5 (Figures 5.2-5.4, conclusion in
Section 5.6). KVM's and VMware's CPU utilization was almost the same as the target's; XenServer's
peak at 6 cores was 70 %, 20 points above the others (rows c5-F5.4-01/02): 70 / 50 = 1.4. The
intervals come from the chapter's other same-load comparison, the source hosts before a live
migration (Figure 5.12: KVM 26 %, VMware 20 %, XenServer 34 %, rows c5-F5.12-01/06/12): KVM up to
26/20 = 1.3x, XenServer between 34/26 and 34/20. Every number is derived from those rows when the
advice is made (:mod:`advisor.statements`).

(The figure used to be the Cassandra read load of Table 9.2 — VMware ESXi against bare metal, 1.56x
— times chapter 5 ratios to VMware: a database's cost inside a VM, chapter 9's own finding about
Cassandra, applied to every workload and every hypervisor, which contradicted Section 5.6.) When a
workload is a database (``application`` cassandra/database), the card adds
``database_cpu_cost_vs_native`` from the ``cpu_utilization`` family (Table 9.2; KVM and XenServer
through the chapter 5 ratios, flagged extrapolated). When a workload serves the thesis' telecom
requests (``application: telecom`` with ``request_load_rps``), the card adds
``request_response_time``: the mean response time at the highest load per vCPU among them
(``request_response_time``, doc 004 chapter 5: KVM and VMware about 1 ms at light load and 20-25
ms at the peak, XenServer 4 and 26 ms).

The container decision's figures come from ``container_overhead``/``container_cpu``/
``container_latency`` (peak transactions relative to bare metal, server CPU % at the Table 9.2
rate on the scenario's cores per host, and the clients' mean latency; at the workload's
``replication_factor``, default 3; doc 004 chapters 9-10). The thesis' VMs ran on VMware ESXi: the VM alternative's
figures are flagged extrapolated for another hypervisor.
"""

from __future__ import annotations

from advisor.expected import ExpectedFigure
from advisor.hardware import TESTBEDS, cpu_capacity, stamp
from advisor.models.containers import workload_of
from advisor.recommend.base import EngineContext, Recommendation, decide, figure, prediction_figure
from advisor.recommend.disks import hardware_of
from advisor.recommend.profile import per_workload
from advisor.rules import HV, Effect, Rule, evaluate
from advisor.statements import Statement, derive, statement

DECISION = "hypervisor"


#: reference point of the database figure: the Cassandra read workload at 60,000 tps, measured
#: on every platform in doc 004 Table 9.2 and well below the CPU ceiling
REFERENCE_TPS = 60000.0
REFERENCE_WORKLOAD = "read"
#: how the database figures of hypervisors the Cassandra tests did not run are derived
ANALOG_NOTES = {"KVM": "VMware's measured CPU times KVM's factor from doc 004 chapter 5 (Figures 5.4, 5.12)",
                "XenServer": "VMware's measured CPU times XenServer's factor from doc 004 chapter 5 (Figures 5.4, "
                             "5.12)",
                "Xen": "XenServer's factor: the thesis measured XenServer, not plain Xen"}
#: doc 004 chapter 5 rows of the CPU-cost figure (see the module doc)
PEAK_ROWS = ("004:c5-F5.4-01", "004:c5-F5.4-02")       # XenServer peak, points above the others
BEFORE_ROWS = {"KVM": "004:c5-F5.12-01", "VMware ESXi": "004:c5-F5.12-06", "XenServer": "004:c5-F5.12-12"}
DATABASES = ("cassandra", "database")
#: copies a Cassandra-like workload keeps when the scenario does not say (Table 9.2's default runs)
DEFAULT_RF = 3.0


def chapter5_cost(ctx: EngineContext) -> tuple[dict[str, ExpectedFigure], list[dict], dict[str, list[Statement]]]:
    """CPU for the same work relative to bare metal per hypervisor, from doc 004 chapter 5's rows:
    (figures, citations, statements quoted per hypervisor)."""
    kb = ctx.kb
    xen = statement(kb, "about {n} % more CPU than bare metal for the same work", PEAK_ROWS,
                    "points_above_rest_pct")
    ratio = {"KVM": 1.0, "VMware ESXi": 1.0, "XenServer": 1.0 + xen.value / 100.0}
    kvm_vs_vmw = derive(kb, [BEFORE_ROWS["KVM"], BEFORE_ROWS["VMware ESXi"]], "ratio")
    xen_lo = derive(kb, [BEFORE_ROWS["XenServer"], BEFORE_ROWS["KVM"]], "ratio")
    xen_hi = derive(kb, [BEFORE_ROWS["XenServer"], BEFORE_ROWS["VMware ESXi"]], "ratio")
    bounds = {"KVM": (1.0, max(kvm_vs_vmw, 1.0)), "VMware ESXi": (1.0, 1.05),
              "XenServer": (min(xen_lo, ratio["XenServer"]), max(xen_hi, ratio["XenServer"]))}
    note = "doc 004 chapter 5: the same telecom application on each hypervisor and on bare metal at the same loads"
    figs = {}
    for h in HV:
        src = "XenServer" if h == "Xen" else h
        lo, hi = bounds[src]
        figs[h] = stamp(figure(ratio[src], "ratio", lo, hi, extrapolated=h == "Xen", note=note), [])
        if h == "Xen":
            figs[h]["note"] = "XenServer's figure: the thesis measured XenServer, not plain Xen"
    rows = [*PEAK_ROWS, *BEFORE_ROWS.values()]
    cites = [kb.get(kb.resolve_document(r.split(":")[0]), r.split(":")[1]).citation() for r in rows]
    return figs, cites, {"XenServer": [xen], "Xen": [xen]}


def _database_cost(ctx: EngineContext) -> tuple[dict[str, ExpectedFigure], list[dict]]:
    """Cassandra's CPU in a VM against bare metal per hypervisor (Table 9.2), for database workloads."""
    if not any(w.application.lower() in DATABASES for w in ctx.scenario.workloads):
        return {}, []
    pred = ctx.models.predict("cpu_utilization", [{"hypervisor": h, "load": REFERENCE_TPS,
                                                   "workload": REFERENCE_WORKLOAD}
                                                  for h in (*HV, "native")], calibrate=False)
    if pred is None:
        return {}, []
    native = max(float(pred.mean[-1]), 1e-9)
    out = {}
    for i, h in enumerate(HV):
        out[h] = stamp(figure(float(pred.mean[i]) / native, "ratio", float(pred.low[i]) / native,
                              float(pred.high[i]) / native, extrapolated=bool(pred.extrapolated[i]),
                              note=ANALOG_NOTES.get(h, "Cassandra read load, doc 004 Table 9.2")), [])
    return out, ctx.model_citations("cpu_utilization", pred)


#: the scenario's hypervisor -> the request_response_time family's level
RESPONSE_LEVEL = {"KVM": "kvm", "VMware ESXi": "vmware esxi", "XenServer": "xenserver", "Xen": "xenserver"}


def request_load_per_vcpu(ctx: EngineContext) -> float | None:
    """The highest request load per vCPU of the workloads that serve the thesis' telecom requests
    (``application: telecom`` with ``request_load_rps``), or None without such a workload."""
    from advisor.recommend.load import load_driven

    loads = [float(w.request_load_rps or 0.0) / max(w.vcpus, 1) for w in ctx.scenario.workloads if load_driven(w)]
    return max(loads) if loads else None


def _response_time(ctx: EngineContext) -> tuple[dict[str, ExpectedFigure], list[dict]]:
    """hypervisor -> ``request_response_time`` figure (doc 004 chapter 5) for the request-serving
    workloads at their load per vCPU, and the citations; empty without such a workload."""
    load = request_load_per_vcpu(ctx)
    if load is None:
        return {}, []
    pred = ctx.models.predict("request_response_time", [{"hypervisor": RESPONSE_LEVEL[h], "load_per_vcpu": load}
                                                        for h in HV], calibrate=False)
    if pred is None:
        return {}, []
    out = {}
    for i, h in enumerate(HV):
        fig = prediction_figure(pred, i)
        fig["load_per_vcpu"] = round(load, 3)
        if h == "Xen":
            fig["note"] = "XenServer's figure: the thesis measured XenServer, not plain Xen"
            fig["extrapolated"] = True
        out[h] = fig
    return out, ctx.model_citations("request_response_time", pred)


_FIXED_RULE = Rule("hv.fixed-by-preferences", DECISION, "cluster", "safety",
                   "The scenario's preferences fix the hypervisor.", lambda c: True, Effect())


def _cluster(ctx: EngineContext) -> Recommendation:
    outcome = evaluate(DECISION, ctx.rule_ctx(), HV)
    fixed = ctx.scenario.preferences.hypervisor
    if fixed:  # the others stay as alternatives, with their figures, excluded by the preference
        for h in HV:
            if h != fixed:
                outcome.excluded.setdefault(h, []).insert(0, (_FIXED_RULE, f"the scenario's preferences fix the hypervisor to {fixed}"))
    expected, why, extra = {}, {}, {}
    figs, cites, quoted = chapter5_cost(ctx)
    db_figs, db_cites = _database_cost(ctx)
    rt_figs, rt_cites = _response_time(ctx)
    cites += db_cites + rt_cites
    for h in HV:
        expected[h] = {"cpu_cost_vs_native": figs[h]}
        if h in db_figs:
            expected[h]["database_cpu_cost_vs_native"] = db_figs[h]
        if h in rt_figs:
            expected[h]["request_response_time"] = rt_figs[h]
        ratio = figs[h].value
        extra[h] = -(ratio - 1.0)  # -1 point per 100 % more CPU than bare metal
        if h in quoted:
            why[h] = quoted[h][0].text
    rec = decide(DECISION, "cluster", outcome, ctx, extra_scores=extra, expected=expected, why=why,
                 model_citations=cites, has_model=True, order=HV)
    rec.rationale = f"The cluster runs {rec.choice}. {rec.rationale}"
    rec.details["statements"] = [st.to_dict() for st in quoted["XenServer"]]
    return rec


def latency_rows(ctx: EngineContext, kind: str, rf: float, docker: bool) -> list[str]:
    """``004:<row>`` of the Table 9.2 latency of ``kind`` at replication factor ``rf`` on Docker or
    on the thesis' VMs (VMware ESXi); empty when the thesis did not run that factor."""
    platform = "Docker" if docker else "VMware ESXi"

    def rows() -> list[str]:
        found = ctx.kb.measurements(document="004", locator="Table 9.2", metric="latency",
                                    where={"workload": kind, "replication_factor": str(rf), "hypervisor": platform})
        return [f"004:{r.key}" for r in found]

    return list(ctx.once(("table-9.2-latency", kind, rf, platform), rows))


def _container_predictions(ctx: EngineContext, kind: str, rf: float) -> tuple:
    """(peak transactions, server CPU, client latency) predictions for Docker and a VM running
    Table 9.2's ``kind`` at replication factor ``rf`` (each None without its family)."""
    tps = ctx.models.predict("container_overhead", [{"platform": "docker", "workload": kind},
                                                    {"platform": "vm", "workload": kind}])
    # the scenario's cores per host (the thesis' servers had 16); the rate stays Table 9.2's
    cores = float(ctx.scenario.hosts.cpu.cores)
    cpu = ctx.models.predict("container_cpu", [{"platform": p, "workload": kind, "physical_cores": cores,
                                                "replication_factor": rf} for p in ("docker", "vm")])
    lat = ctx.models.predict("container_latency", [{"platform": p, "workload": kind, "replication_factor": rf}
                                                   for p in ("docker", "vm")], calibrate=False)
    return tps, cpu, lat


def _containers(ctx: EngineContext, hv: str) -> list[Recommendation]:
    """Docker or VMs for each containerizable workload (once per distinct profile,
    :mod:`advisor.recommend.profile`)."""
    vm = "VM"
    label = {"Docker": "Docker containers", vm: f"{hv} VMs"}

    def compute(w, scope: str, target) -> Recommendation:
        outcome = evaluate(DECISION, ctx.rule_ctx(w), ("Docker", vm))
        expected, why, cites = {}, {}, []
        extra: dict[str, float] = {}
        kind = workload_of(w.io.read_share)  # Table 9.2's workload nearest to the read share
        rf = float(w.replication_factor or DEFAULT_RF)
        tps, cpu, lat = ctx.once(("hypervisor.containers", kind, rf), lambda: _container_predictions(ctx, kind, rf))
        for i, choice in enumerate(("Docker", vm)):
            figs = {}
            if tps is not None:  # % of bare metal on the same servers: a ratio, carried over as it is
                figs["peak_transactions"] = stamp(prediction_figure(tps, i), [], TESTBEDS["container_cpu"])
            if cpu is not None:  # the thesis' servers' CPU onto the scenario's cores (their clock is not stated)
                factor, cpu_figs, same = cpu_capacity(hardware_of(ctx), TESTBEDS["container_cpu"])
                figs["server_cpu_utilization"] = stamp(prediction_figure(cpu, i), cpu_figs, TESTBEDS["container_cpu"],
                                                       same)
            if lat is not None:  # client mean latency at the Table 9.2 rate of the workload's read share
                figs["client_latency"] = stamp(prediction_figure(lat, i), [], TESTBEDS["container_cpu"])
                figs["client_latency"]["rows"] = latency_rows(ctx, kind, rf, choice == "Docker")
            if choice == vm and hv != "VMware ESXi":  # the thesis' VMs ran on VMware ESXi
                for f in figs.values():
                    f["extrapolated"] = True
            expected[choice] = figs
        if tps is not None:
            cites += ctx.model_citations("container_overhead", tps)
            if float(tps.mean[1]) < float(tps.mean[0]):
                why[vm] = f"about {100 * (1 - float(tps.mean[1]) / float(tps.mean[0])):.0f} % lower peak rate"
        _latency_target(outcome, expected, target, extra, why)
        rec = decide(DECISION, scope, outcome, ctx, extra_scores=extra, expected=expected, why=why,
                     model_citations=cites, has_model=tps is not None,
                     extrapolated=bool(tps is not None and tps.extrapolated.any()))
        rec.rationale = f"The workload runs as {label[rec.choice]}. {rec.rationale}"
        rec.choice = label[rec.choice]
        for alt in rec.alternatives:
            alt.choice = label.get(alt.choice, alt.choice)
        return rec

    wls = [w for w in ctx.scenario.workloads if w.containerizable]
    prefs = ctx.scenario.preferences
    out = per_workload(ctx, DECISION, wls, compute,
                       lambda w: _target_of(prefs.target("max_response_time_ms", w.name)))
    for w, rec in zip(wls, out, strict=True):
        ctx.chosen.setdefault("containers", {})[w.name] = rec.choice == label["Docker"]
    return out


def _target_of(target) -> tuple[float, bool] | None:
    """A ``max_response_time_ms`` target as (ms, hard), hashable for the profile memo."""
    return None if target is None else (float(target.value), bool(target.hard))


def _latency_target(outcome, expected: dict[str, dict], target: tuple[float, bool] | None, extra: dict,
                    why: dict) -> None:
    """Options whose client latency (Table 9.2) misses a ``max_response_time_ms`` target: excluded
    when the target is hard and the other option meets it, else 2 points down."""
    lat = {c: figs["client_latency"]["value"] for c, figs in expected.items() if "client_latency" in figs}
    if target is None or not lat:
        return
    limit, hard = target
    meets = [c for c, v in lat.items() if v <= limit * (1 + 1e-9)]
    for c, v in lat.items():
        if c in meets:
            continue
        reason = f"client latency about {v:.3g} ms misses the target of {limit:g} ms (doc 004 Table 9.2)"
        if hard and meets:
            outcome.excluded.setdefault(c, []).append((_LATENCY_RULE, reason))
        else:
            extra[c] = extra.get(c, 0.0) - 2.0
            why[c] = reason


_LATENCY_RULE = Rule("hv.latency-target", DECISION, "workload", "safety",
                     "A database workload does not run where its client latency misses a hard response-time target.",
                     lambda c: True, Effect())


def recommend(ctx: EngineContext) -> list[Recommendation]:
    """The cluster's hypervisor, then a container-or-VM choice per containerizable workload."""
    rec = _cluster(ctx)
    ctx.chosen["hypervisor"] = rec.choice
    ctx.facts.hypervisor = rec.choice
    return [rec, *_containers(ctx, rec.choice)]
