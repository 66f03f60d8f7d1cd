"""Performance targets (``preferences.targets``): what the plan is expected to deliver for each,
and whether that meets it.

Each target's expected value comes from the same models the decisions show:

* ``max_host_cpu_pct`` (cluster): host CPU on the busiest active host, %: the VMs' busy cores
  (the one busy-core model of advisor/recommend/load.py: CPU intensity and request load in
  core-GHz over the hosts' clock, as the host count counts them) spread over the active hosts, never below one VM's own share of a host, plus the points the host count keeps
  for live-migration sources when VMs migrate (doc 004 c5-C4: the peak while a VM leaves);
* ``max_boot_time_s``: VM boot time on the chosen image storage with the I/O-heavy neighbours
  of the busiest host (local disks) or of the whole cluster (shared storage): ``boot_time``
  family (doc 002), as the storage decision shows it;
* ``min_throughput_mb_s`` (per VM): the best cache mode the rules allow for the workload (the mode
  ``preferences.fixed`` fixes, if any) at the active hosts' VMs per host: ``cache_mode_throughput`` (doc 001), as the cache-mode decision
  shows it (capped by the disks' share per VM);
* ``max_response_time_ms``: client mean latency of a database workload (``application``
  cassandra or database) in VMs or containers, ``container_latency`` (doc 004 Table 9.2, at the
  workload's replication factor, default 3); the mean response time of a telecom workload with a
  request load on the chosen hypervisor, ``request_response_time`` (doc 004 chapter 5); another
  workload with a request load gets the same figure at its requests per vCPU, marked
  ``extrapolated``; a workload without one cannot be judged (expected and met are null, and the
  note says why);
* ``max_migration_downtime_ms``: live-migration downtime of the chosen over-allocation level
  for the workloads that migrate (doc 004 Table 8.3, as the over-allocation decision shows it).

:func:`evaluate` returns one :class:`TargetResult` per target and scope (a target given for
every workload is checked for each workload it applies to); the host count searches the
smallest count whose results meet the targets, and the engine reports the final results as
the advice's top-level ``targets``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from advisor.scenario import TARGETS, Target

#: the targets whose expected value depends on the number of active hosts
COUNT_DEPENDENT = ("max_host_cpu_pct", "max_boot_time_s", "min_throughput_mb_s")
DATABASES = ("cassandra", "database")


@dataclass
class TargetResult:
    """One target checked for one scope (``cluster`` or ``workload:<name>``)."""

    name: str
    scope: str
    target: float
    expected: float | None
    unit: str
    met: bool | None
    hard: bool
    note: str = ""
    extrapolated: bool = False  # the expected value transfers a measurement beyond what was measured


    def to_dict(self) -> dict:
        out = {"name": self.name, "scope": self.scope, "target": self.target,
               "expected": None if self.expected is None else float(f"{self.expected:.6g}"),
               "unit": self.unit, "met": self.met, "hard": self.hard}
        if self.note:
            out["note"] = self.note
        if self.extrapolated:
            out["extrapolated"] = True
        return out

    def text(self) -> str:
        """One line for messages: ``max_boot_time_s (workload:web): expected 95 s, target <= 60 s``."""
        sign = "<=" if TARGETS.get(self.name, ("", "min"))[1] == "max" else ">="  # implicit targets are minimums
        got = "no model" if self.expected is None else f"{self.expected:.4g} {self.unit}"
        return f"{self.name} ({self.scope}): expected {got}, target {sign} {self.target:g} {self.unit}"


def _with_hosts(ctx, active: int):
    """A copy of ``ctx`` whose facts describe ``active`` active hosts."""
    facts = dataclasses.replace(ctx.facts)
    facts.set_hosts(ctx.scenario, active)
    return dataclasses.replace(ctx, facts=facts)


def host_cpu_pct(ctx, active: int, points: float = 0.0, bound: str = "value") -> float:
    """Host CPU (%) on the busiest of ``active`` hosts (see the module doc), plus ``points``;
    ``bound`` low/high: with the per-request cost's interval for request-driven workloads."""
    from advisor.recommend.load import host_cpu_pct as busy_pct

    return busy_pct(ctx, active, bound=bound) + points


def boot_time_s(ctx, active: int) -> float | None:
    """Boot time (s) on the chosen image storage with the busiest host's I/O-heavy neighbours (the
    storage card's figure at ``active`` hosts, :func:`advisor.recommend.storage_backend.boot_time_at`)."""
    from advisor.recommend.storage_backend import boot_time_at

    return boot_time_at(ctx, active)


def throughput_mb_s(ctx, w, active: int) -> float | None:
    """Per-VM throughput (MB/s) of the best cache mode the rules allow for ``w``."""
    from advisor.recommend import cache_mode
    from advisor.rules import CACHE, evaluate

    sub = _with_hosts(ctx, active)
    batch = cache_mode.per_vm_throughput(sub, [w])
    if batch is None:
        return None
    figs = batch[0][0]
    pinned = ctx.scenario.preferences.pinned(cache_mode.DECISION, w.name)
    if pinned in figs:  # the scenario fixes the mode (preferences.fixed): its figure
        return figs[pinned]["throughput_per_vm"]["value"]
    excluded = evaluate(cache_mode.DECISION, sub.rule_ctx(w), CACHE).excluded
    allowed = [m for m in CACHE if m not in excluded] or list(CACHE)
    return max(figs[m]["throughput_per_vm"]["value"] for m in allowed)


def response_time_ms(ctx, w) -> tuple[float | None, str]:
    """Expected mean response time (ms) of ``w``, or None and why it cannot be judged: a database
    workload's client latency (``container_latency``, doc 004 Table 9.2, at its replication factor,
    in containers or VMs as chosen), a telecom workload's response time at its load per vCPU on the
    chosen hypervisor (``request_response_time``, doc 004 chapter 5). Any other workload that
    states a request load (a web front end, an API) gets the same estimate, extrapolated: a note
    starting with ``extrapolated`` says so (:data:`EXTRAPOLATED`)."""
    from advisor.recommend.load import load_driven

    app = w.application.strip().lower()
    if app in DATABASES:
        from advisor.models.containers import workload_of
        from advisor.recommend.hypervisor import DEFAULT_RF

        kind = workload_of(w.io.read_share)  # Table 9.2's row, as the container card reads it
        platform = "docker" if ctx.chosen.get("containers", {}).get(w.name) else "vm"
        pred = ctx.models.predict("container_latency", [{"platform": platform, "workload": kind,
                                                         "replication_factor": float(w.replication_factor or DEFAULT_RF)}],
                                  calibrate=False)  # the card's figure (documents only)
        return (None, "the latency model is not available") if pred is None else (float(pred.mean[0]), "")
    if load_driven(w):
        from advisor.recommend.hypervisor import RESPONSE_LEVEL

        hv = RESPONSE_LEVEL.get(ctx.facts.hypervisor or "VMware ESXi", "vmware esxi")
        pred = ctx.models.predict("request_response_time", [{"hypervisor": hv, "load_per_vcpu":
                                                            float(w.request_load_rps) / max(w.vcpus, 1)}])
        return (None, "the response-time model is not available") if pred is None else (float(pred.mean[0]), "")
    what = ("application " + repr(w.application)) if w.application else "a workload without an application"
    if w.realtime is None and w.request_load_rps:  # another request-serving workload: the telecom VM's figure
        from advisor.recommend.hypervisor import RESPONSE_LEVEL

        hv = RESPONSE_LEVEL.get(ctx.facts.hypervisor or "VMware ESXi", "vmware esxi")
        pred = ctx.models.predict("request_response_time", [{"hypervisor": hv, "load_per_vcpu":
                                                            float(w.request_load_rps) / max(w.vcpus, 1)}])
        if pred is None:
            return None, "the response-time model is not available"
        return float(pred.mean[0]), (f"{EXTRAPOLATED}: the thesis' telecom VM at the same requests per vCPU on "
                                     f"this hypervisor (doc 004 chapter 5); {what} was not measured and its "
                                     "work per request may differ")
    if app == "telecom":
        return None, ("cannot be judged: state the workload's request_load_rps (the documents' response times "
                      "for the telecom application are measured against the load per vCPU)")
    return None, (f"cannot be judged: the documents measured response times only for Cassandra-like databases "
                  f"(application cassandra or database) and request-serving VMs (the thesis' telecom "
                  f"application), against the requests per vCPU; state request_load_rps for {what} to get an "
                  f"extrapolated estimate")


#: how the note of an estimate transferred beyond what was measured starts
EXTRAPOLATED = "extrapolated"


def downtime_ms(ctx, w) -> tuple[float | None, str]:
    """Live-migration downtime (ms) of the chosen over-allocation level, for a migrating ``w``."""
    if not w.live_migration:
        return None, "the workload does not live-migrate"
    value = ctx.chosen.get("migration_downtime_s")
    if value is None:
        return None, "no migration-downtime figure"
    return 1000.0 * float(value), ""


def _scopes(ctx, t: Target, name: str) -> list:
    """The workloads a per-workload target applies to (its own, or every one it concerns)."""
    wls = ctx.scenario.workloads
    if t.workload is not None:
        return [w for w in wls if w.name == t.workload]
    if name == "max_migration_downtime_ms":
        return [w for w in wls if w.live_migration]
    if name == "max_response_time_ms":
        from advisor.recommend.load import load_driven

        judged = [w for w in wls if w.application.lower() in DATABASES or load_driven(w)
                  or (w.realtime is None and w.request_load_rps)]
        return judged or wls
    return wls


def _own_target(ctx, name: str, w) -> bool:
    """Whether ``w`` has its own target ``name`` (a general one then does not apply to it)."""
    return any(t.name == name and t.workload == w.name for t in ctx.scenario.preferences.targets)


def evaluate(ctx, active: int, *, names: tuple[str, ...] | None = None, cpu_points: float = 0.0
             ) -> list[TargetResult]:
    """Every target of the scenario (or those in ``names``) checked at ``active`` active hosts."""
    out: list[TargetResult] = []
    for t in ctx.scenario.preferences.targets:
        if names is not None and t.name not in names:
            continue
        unit = TARGETS[t.name][0]
        v: float | None
        if t.name == "max_host_cpu_pct":
            v = host_cpu_pct(ctx, active, cpu_points)
            out.append(TargetResult(t.name, "cluster", t.value, v, unit, t.met_by(v), t.hard))
            continue
        if t.name == "max_boot_time_s" and t.workload is None:  # one boot time for every VM
            v = boot_time_s(ctx, active)
            out.append(TargetResult(t.name, "cluster", t.value, v, unit, None if v is None else t.met_by(v), t.hard,
                                    "" if v is not None else "no boot-time figure for the chosen storage"))
            continue
        for w in _scopes(ctx, t, t.name):
            if t.workload is None and _own_target(ctx, t.name, w):
                continue
            note = ""
            if t.name == "max_boot_time_s":
                v = boot_time_s(ctx, active)
                note = "" if v is not None else "no boot-time figure for the chosen storage"
            elif t.name == "min_throughput_mb_s":
                v = throughput_mb_s(ctx, w, active)
                note = "" if v is not None else "the cache-mode model is not available"
            elif t.name == "max_response_time_ms":
                v, note = response_time_ms(ctx, w)
            else:
                v, note = downtime_ms(ctx, w)
            out.append(TargetResult(t.name, f"workload:{w.name}", t.value, v, unit,
                                    None if v is None else t.met_by(v), t.hard, note,
                                    extrapolated=v is not None and note.startswith(EXTRAPOLATED)))
    return out


def missed(results: list[TargetResult], *, hard: bool | None = None) -> list[TargetResult]:
    """Results that are not met (``met`` False; unknown ones are not counted), optionally only the
    hard (``hard=True``) or soft ones."""
    return [r for r in results if r.met is False and (hard is None or r.hard == hard)]


def final_results(ctx, recs) -> list[TargetResult]:
    """The targets checked on the final plan (the recommended active hosts), for the advice's
    top-level ``targets``; a missed target also becomes a warning of the host count."""
    if not ctx.scenario.preferences.targets:
        return []
    results = evaluate(ctx, ctx.facts.active_hosts, cpu_points=float(ctx.chosen.get("cpu_points", 0.0)))
    hc = next((r for r in recs if r.decision == "host_count"), None)
    if hc is not None:
        for r in missed(results):
            if any(r.text() in w for w in hc.warnings):  # already named (an infeasible hard target)
                continue
            hc.warnings.append(f"target missed: {r.text()}" + ("" if r.hard else " (a soft target)"))
    return results


#: the decision whose card shows a target next to its own figure (the host count's shows them all)
TARGET_DECISION = {"max_host_cpu_pct": "host_count", "max_boot_time_s": "storage_backend",
                   "min_throughput_mb_s": "cache_mode", "max_response_time_ms": "hypervisor",
                   "max_migration_downtime_ms": "vcpu_overallocation"}
#: readable names for cards and reports
TARGET_LABELS = {"max_host_cpu_pct": "host CPU", "max_boot_time_s": "VM boot time",
                 "min_throughput_mb_s": "throughput per VM", "max_response_time_ms": "response time",
                 "max_migration_downtime_ms": "migration downtime"}
#: the implicit targets of a workload's io.iops (see :func:`implicit_targets`): decision, label
IMPLICIT = {"requested_iops": ("cache_mode", "IOPS per VM asked"),
            "requested_throughput_mb_s": ("cache_mode", "I/O per VM asked")}


def is_max(name: str) -> bool:
    """Whether target ``name`` is an upper limit (the scenario's ``max_*``); the implicit targets
    of a workload's io.iops are what it asks for: lower limits."""
    return name in TARGETS and TARGETS[name][1] == "max"


def for_card(results, decision: str, scope: str) -> list[TargetResult]:
    """The target results a card of ``decision`` at ``scope`` shows: every one on the host count's
    card; on the others, those of their figure, at their scope (cluster targets on cluster cards)."""
    if decision == "host_count":
        return list(results)
    def owner(name: str) -> str | None:
        return TARGET_DECISION.get(name) or IMPLICIT.get(name, (None, ""))[0]

    return [r for r in results if owner(r.name) == decision and r.scope == scope]


def card_line(r: TargetResult) -> tuple[str, str]:
    """(state, text) for a card: state ``met``, ``missed`` or ``unknown``; text like ``VM boot time
    <= 60 s: expected 30.5 s (workload:web; hard)``."""
    sign = "<=" if is_max(r.name) else ">="
    scope = "" if r.scope == "cluster" else f"{r.scope.replace('workload:', '')}; "
    state = "unknown" if r.met is None else "met" if r.met else "missed"
    kind = f"({scope}{'hard' if r.hard else 'soft'})"
    label = TARGET_LABELS.get(r.name) or IMPLICIT.get(r.name, ("", r.name.replace("_", " ")))[1]
    if r.expected is None:  # say why it cannot be judged, never a bare "no model"
        why = r.note or "cannot be judged: no model for it"
        return state, f"{label} {sign} {r.target:g} {r.unit}: {why} {kind}"
    word = {"met": "met", "missed": "not met", "unknown": "not judged"}[state]
    if r.extrapolated:  # the card says what the estimate rests on
        kind = f"{kind[:-1]}; {r.note})"
    return state, f"{label} {sign} {r.target:g} {r.unit}: expected {r.expected:.3g} {r.unit} — {word} {kind}"


def implicit_targets(recs) -> list:
    """(From the cache-mode recommendations.) Per workload that states ``io.iops``: its request as two implicit soft targets (the IOPS
    against the VM's share of the device at its request size, and IOPS x request size against the
    chosen mode's throughput per VM), as :class:`TargetResult`s for the
    advice's top-level ``targets``: a request the device share cannot serve is a target not met."""
    from advisor.recommend.cache_mode import DECISION, IMPLICIT_TARGETS

    out = []
    for rec in recs:
        asked = rec.details.get("requested_io") if rec.decision == DECISION else None
        if not asked:
            continue
        for name, (unit, want, got) in IMPLICIT_TARGETS.items():
            expected = asked.get(got)
            met = None if expected is None else expected >= asked[want] * (1 - 1e-9)
            out.append(TargetResult(name, rec.scope, asked[want], expected, unit, met, False,
                                    f"implicit: the workload's io.iops with cache={rec.choice}"))
    return out
