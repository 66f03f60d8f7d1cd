"""The host count's placement constraints from the scenario (#32): the workloads' anti-affinity,
affinity and replicas, the failure domains, the failures to survive
(:mod:`advisor.recommend.placement`) and the HA admission policy (:mod:`advisor.recommend.ha`),
as the active hosts they need, the binding constraint and the per-host placement."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from advisor.recommend import ha as ha_policy
from advisor.recommend.base import EngineContext
from advisor.recommend.host_demand import LABELS, UNITS, Budgets, by_workload, placement_profiles, shape_names
from advisor.recommend.placement import EPS, Host, Placement, Rule, _admits, _units, rules_of
from advisor.recommend.placement_count import Counted, constrained_count, placer

#: doc 003 C5 (rule dp.no-sequential-pairs): two sequential-I/O VMs paired on one host ran about 18 %
#: longer and got 24 % less bandwidth; random mixes interfered little
INTERFERENCE = {"rule": "dp.no-sequential-pairs", "source": "003:C5", "run_time_longer_pct": 18.0,
                "bandwidth_less_pct": 24.0}


def sequential(sc) -> frozenset[str]:
    """The workloads doc 003's interference rule keeps apart (sequential, not low I/O), when two or more."""
    names = frozenset(w.name for w in sc.workloads if w.io.pattern == "sequential" and w.io.intensity != "low")
    return names if len(names) > 1 else frozenset()


@dataclass
class Constrained:
    """The constrained placement and what it needs."""

    active: int
    unconstrained: int
    counted: Counted | None
    ha: dict | None
    binding: str
    problems: list[str] = field(default_factory=list)
    interference: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # warnings that do not make the count infeasible
    #: placement name -> (workload, vCPUs a VM) of the VM shapes (:func:`shape_names`)
    shapes: dict[str, tuple[str, int]] = field(default_factory=dict)

    @property
    def placement(self) -> Placement | None:
        return self.counted.placement if self.counted else None

    @property
    def empty(self) -> int:
        """Active hosts the placement leaves without a VM (the spare HA admission or a failure needs)."""
        p = self.placement
        return sum(1 for h in p.hosts if not any(h.vms.values())) if p is not None else 0

    def details(self, reserve: int) -> dict:
        """The host count card's details: the per-host placement, the counts and what binds."""
        c = self.counted
        return {"placement_by_host": self.by_host(),
                "constraints": {"hosts_unconstrained": self.unconstrained,
                                "hosts_by_constraints": c.by_constraints if c else self.unconstrained,
                                "hosts_by_survival": c.by_survival if c else self.unconstrained,
                                "hosts_by_ha": self.ha.get("active_hosts") if self.ha else None,
                                "binding": self.binding,
                                **({"sequential_io": {"workloads": self.interference, **INTERFERENCE}}
                                   if self.interference else {})},
                "ha": self.ha}

    def by_host(self) -> list[dict]:
        """The placement per host, its VMs per workload (:func:`by_workload`: a workload's VM shapes
        joined, and split out in ``vm_shapes``)."""
        hosts = self.counted.placement.to_list() if self.counted else []
        return [{**h, **by_workload(h["vms"], self.shapes)} for h in hosts] if self.shapes else hosts

    def text(self) -> str:
        """The rationale's sentence on the constraints."""
        seq = (f" Sequential-I/O workloads ({', '.join(self.interference)}) never share a host: paired, they ran "
               f"about {INTERFERENCE['run_time_longer_pct']:g} % longer with {INTERFERENCE['bandwidth_less_pct']:g} % "
               f"less bandwidth [{INTERFERENCE['rule']}]." if self.interference else "")
        if self.active <= self.unconstrained:
            return f" Placement constraints hold on these hosts (binding: {self.binding}).{seq}"
        return (f" Placement constraints raise the active hosts from {self.unconstrained} to {self.active} "
                f"(binding: {self.binding}).{seq}")


def declared(sc) -> bool:
    """Whether the scenario declares any placement constraint, failure to survive or HA policy."""
    p = sc.preferences
    return bool(p.survive or p.ha or sequential(sc) or any(w.anti_affinity or w.affinity or (w.replication_factor or 0) > 1
                                         for w in sc.workloads))


def constrain(ctx: EngineContext, cap: dict[str, float], budgets: Budgets, start: int,
              profiles: list[tuple] | None = None) -> Constrained | None:
    """The active hosts the constraints need, from the unconstrained packing's ``start``
    (``profiles``: :func:`advisor.recommend.host_demand.placement_profiles`, when made already)."""
    sc = ctx.scenario
    if not declared(sc):
        return None
    domains = sc.hosts.failure_domains
    profiles = profiles if profiles is not None else placement_profiles(ctx, cap, budgets)
    rules = rules_of(sc.workloads, len(domains), sequential(sc))
    problems = []
    for w in sc.workloads:
        rf = w.replication_factor or 0
        if rf > 1 and w.vms > 1 and domains and len(domains) < rf:
            problems.append(f"{w.name}: replication factor {rf} needs at least "
                            f"{rf} failure domains, {len(domains)} declared (hosts.failure_domains)")
    survive = sc.preferences.survive
    if survive is not None and survive.domains and len(domains) <= survive.domains:
        problems.append(f"surviving the loss of {_plural(survive.domains, 'failure domain')} needs at least "
                        f"{survive.domains + 1} declared, {len(domains)} declared (hosts.failure_domains)")
        survive = replace(survive, domains=max(len(domains) - 1, 0))  # the most they can survive
    put = placer(cap, profiles, rules, domains)  # one first fit for the count and the HA spread
    counted = constrained_count(cap, profiles, rules, domains, survive, start, put)
    if counted is None:
        problems += _unplaceable(sc, cap, profiles, rules) or [
            "no host count places every VM under its constraints (anti-affinity, affinity, replicas, failures "
            "to survive)"]
    active = counted.by_survival if counted else start
    binding = counted.binding if counted else "infeasible"
    ha = None
    if sc.preferences.ha is not None:
        ha = ha_policy.admission(sc.preferences.ha.policy, sc.preferences.ha.tolerate_hosts, cap, profiles, active)
        if ha["hosts"] is None:
            problems.append("HA slot policy: the largest VM's slot does not fit a host")
        elif ha["hosts"] - sc.hosts.reserve > active:
            active, binding = ha["hosts"] - sc.hosts.reserve, f"HA admission ({sc.preferences.ha.policy})"
            if counted is not None:  # the placement spreads over the hosts admission control needs
                counted.placement = put(active)
    out = Constrained(active, start, counted, ha, binding, problems, sorted(sequential(sc)))
    out.notes = _replica_notes(sc) + _domain_notes(domains, out.placement)
    out.shapes = shape_names(sc)
    return out


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _replica_notes(sc) -> list[str]:
    """Workloads with fewer VMs than copies (more than one VM: a single VM stands for one node of a
    cluster sized elsewhere, as in doc 004's experiments)."""
    return [f"workloads[{i}].replication_factor: {w.replication_factor} copies, but {w.vms} VMs hold at most "
            f"{w.vms} (a copy needs a VM of its own): give vms >= {w.replication_factor} or a smaller "
            "replication_factor" for i, w in enumerate(sc.workloads)
            if w.replication_factor and 1 < w.vms < w.replication_factor]


def _unplaceable(sc, cap: dict[str, float], profiles, rules: dict[str, Rule]) -> list[str]:
    """The affinity units no host, not even an empty one, takes, each named by its field and the
    resource it exceeds (a single VM larger than a host is refused before the constraints)."""
    keys = tuple(cap)
    capacity = [float(cap[k]) for k in keys]
    index = {key: i for i, w in enumerate(sc.workloads) for key in w.shape_keys}
    out = []
    for u in _units(capacity, keys, profiles, rules):
        if _admits(Host(0, "", list(capacity)), u, rules, None):
            continue
        i = min(index[name] for name in u.members)
        w = sc.workloads[i]
        what = (f"affinity group {w.affinity!r}" if isinstance(w.affinity, str) else "affinity: true") \
            if w.affinity else "its constraints"
        over = [f"{LABELS[k]} {x:.4g} {UNITS[k]} of a host's {c:.4g}" for k, x, c in zip(keys, u.demand, capacity,
                                                                                        strict=True)
                if x > c * (1 + EPS)]
        need = "; ".join(over) if over else "its anti-affinity, replicas or sequential I/O keep them apart"
        field = f"workloads[{i}].affinity" if w.affinity else f"workloads[{i}]"
        out.append(f"{field}: {what} keeps {_plural(sum(u.members.values()), 'VM')} on one host, which no host "
                   f"holds ({need})")
    return list(dict.fromkeys(out))


def _domain_notes(domains, placement: Placement | None) -> list[str]:
    """Where the placement needs more hosts in a failure domain than the scenario declares there."""
    if placement is None or not domains:
        return []
    used: dict[str, int] = {}
    for h in placement.hosts:
        used[h.domain] = used.get(h.domain, 0) + 1
    return [f"failure domain {d.name}: the placement uses {_plural(used[d.name], 'host')} there, {d.hosts} declared "
            "(hosts.failure_domains)" for d in domains if used.get(d.name, 0) > d.hosts]
