"""Placement under constraints (#32): anti-affinity, affinity, replicas over hosts and failure
domains, and the failures the placement must survive.

A workload's constraints (:func:`rules_of`):

* ``anti_affinity: true``: no two of its VMs share a host; a group name: no two VMs of the
  workloads of that group share a host;
* ``replication_factor: RF``: its replicas never share a host (and, when failure domains are
  declared, a domain): at most ceil(VMs / RF) of its VMs on one host and in one domain, so the
  VMs spread over at least RF hosts (and RF domains);
* ``affinity: true`` (or a group name): its VMs (the group's) stay on one host: they are placed
  as one unit;
* with failure domains declared, anti-affine VMs spread evenly over the domains too;
* sequential-I/O workloads (doc 003's interference, rule ``dp.no-sequential-pairs``): a host runs
  the VMs of at most one of them.

Hosts are numbered in order and stand in the declared domains in turn (host i in domain
i mod D). :func:`place` is first-fit decreasing (largest dominant share first) over single
hosts honouring the caps; :func:`lose` removes one failure the scenario must survive
(:func:`failures`, from ``preferences.survive``: each set of N hosts, or the fullest N in a large
cluster, or each whole domain) and re-places the lost VMs on the survivors' leftovers (host caps
kept; the domain spread is the failure itself); :func:`advisor.recommend.first_fit.survives` asks
it of every failure.
A replicated workload's VMs on the lost hosts are not re-placed: their replicas carry the loss.
:mod:`advisor.recommend.placement_count` finds the smallest count that places and survives
(:mod:`advisor.recommend.first_fit`: the first fit on every count at once). Pure: no engine
context, only capacities, per-VM demands and the rules.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

EPS = 1e-9
#: the most hosts the count search adds beyond its lower bound
MAX_EXTRA = 4096
#: the most sets of hosts checked one by one for ``survive.hosts`` > 1 (beyond: the fullest hosts)
MAX_FAILURE_SETS = 2000


@dataclass(frozen=True)
class Rule:
    """One workload's constraints: VMs per host and per domain at most, its anti-affinity group
    (at most one VM of the group per host), its affinity unit and whether replicas carry a loss."""

    per_host: int | None = None
    per_domain: int | None = None
    group: str | None = None
    together: str | None = None
    replicated: bool = False
    kinds: tuple[str, ...] = ()
    #: a set of workloads of which a host runs only one (doc 003's sequential-I/O interference)
    exclusive: str | None = None
    #: a workload of several VM shapes (:attr:`advisor.scenario.model.Workload.shape_keys`): its
    #: name and its shapes' placement names, whose VMs the caps count together
    workload: str | None = None
    shapes: tuple[str, ...] = ()

    def owner(self, name: str) -> str:
        """The workload whose VMs the caps count: placement name ``name``'s."""
        return self.workload or name

    def held(self, h: Host, name: str) -> int:
        """VMs of this rule's workload on host ``h`` (every shape's)."""
        return sum(h.vms.get(k, 0) for k in self.shapes) if self.shapes else h.vms.get(name, 0)


def rules_of(workloads, domains: int, exclusive: frozenset[str] = frozenset()) -> dict[str, Rule]:
    """Workload name -> its :class:`Rule` (only workloads with a constraint); the workloads named in
    ``exclusive`` never share a host with each other (each may share one with itself)."""
    out = {}
    for w in workloads:
        kinds, per_host, per_domain, group, together = [], None, None, None, None
        if w.anti_affinity is True:
            per_host, kinds = 1, ["anti_affinity"]
        elif isinstance(w.anti_affinity, str) and w.anti_affinity:
            group, kinds = w.anti_affinity, ["anti_affinity"]
        if (w.anti_affinity is True or group) and domains:
            per_domain = math.ceil(w.vms / domains)
        rf = w.replication_factor
        if rf and rf > 1 and w.vms > 1:
            share = math.ceil(w.vms / rf)
            per_host = min(per_host or share, share)
            per_domain = min(per_domain or share, share) if domains else per_domain
            kinds.append("replication_factor")
        if w.affinity:
            together = w.affinity if isinstance(w.affinity, str) else f"\0{w.name}"
            kinds.append("affinity")
        if w.name in exclusive:
            kinds.append("sequential_io")
        if kinds:
            keys = getattr(w, "shape_keys", (w.name,))  # (a workload's constraints alone: its name)
            rule = Rule(per_host, per_domain, group, together, bool(rf and rf > 1), tuple(kinds),
                        "sequential_io" if w.name in exclusive else None,
                        w.name if len(keys) > 1 else None, keys if len(keys) > 1 else ())
            out.update(dict.fromkeys(keys, rule))  # every VM shape of it under the workload's constraints
    return out


@dataclass
class Host:
    """One host: its domain, what it keeps free, its VMs per workload and per anti-affinity group."""

    index: int
    domain: str
    free: list[float]
    vms: dict[str, int] = field(default_factory=dict)
    groups: dict[str, int] = field(default_factory=dict)
    owners: dict[str, str] = field(default_factory=dict)  # exclusive set -> the workload holding the host

    def to_dict(self) -> dict:
        return {"host": f"host-{self.index + 1}", "domain": self.domain,
                "vms": {k: v for k, v in self.vms.items() if v}}


@dataclass
class Unit:
    """What is placed at once: one VM, or a whole affinity group (its members' VMs summed)."""

    demand: list[float]
    members: dict[str, int]
    size: float = 0.0
    #: (resource index, demand, tolerance) of each resource it needs: what :func:`_admits` checks
    need: list[tuple[int, float, float]] = field(default_factory=list)
    #: (demand, members): units of one shape go to the same hosts (first fit starts after the last)
    shape: tuple = ()

    def measured(self, cap: list[float]) -> Unit:
        """Itself with its size (dominant share of ``cap``), needs and shape filled in."""
        self.size = max((x / c if c > 0 else 0.0 for x, c in zip(self.demand, cap, strict=True)), default=0.0)
        self.need = [(k, x, EPS * max(1.0, x)) for k, x in enumerate(self.demand) if x > 0]
        self.shape = (tuple(self.demand), tuple(self.members.items()))
        return self


def _units(cap: list[float], keys: tuple[str, ...], profiles, rules: dict[str, Rule]) -> list[Unit]:
    """The units in placement order (largest dominant share first, then the order given); the VMs
    of one profile share their measures."""
    units: list[Unit] = []
    together: dict[str, Unit] = {}
    for name, demand, n in profiles:
        d = [float(demand.get(k, 0.0)) for k in keys]
        r = rules.get(name)
        if r is not None and r.together:
            u = together.setdefault(r.together, Unit([0.0] * len(keys), {}))
            u.demand = [a + b * n for a, b in zip(u.demand, d, strict=True)]
            u.members[name] = u.members.get(name, 0) + int(n)
            continue
        if int(n) > 0:
            one = Unit(d, {name: 1}).measured(cap)
            units += [one] + [Unit(d, {name: 1}, one.size, one.need, one.shape) for _ in range(int(n) - 1)]
    units += [u.measured(cap) for u in together.values()]
    units.sort(key=lambda u: -u.size)  # stable: ties keep the order given
    return units


def _admits(h: Host, u: Unit, rules: dict[str, Rule], per_dom: dict | None) -> bool:
    free = h.free
    for k, x, tol in u.need:
        if free[k] + tol < x:
            return False
    for name, n in u.members.items():
        r = rules.get(name)
        if r is None:
            continue
        if r.per_host is not None and r.held(h, name) + n > r.per_host:
            return False
        if r.group is not None and h.groups.get(r.group, 0) + n > 1:
            return False
        owner = r.owner(name)
        if r.exclusive is not None and h.owners.get(r.exclusive, owner) != owner:
            return False
        if per_dom is not None and r.per_domain is not None and per_dom.get((h.domain, owner), 0) + n > r.per_domain:
            return False
    return True


def _put(h: Host, u: Unit, rules: dict[str, Rule], per_dom: dict | None) -> None:
    h.free = [f - x for f, x in zip(h.free, u.demand, strict=True)]
    for name, n in u.members.items():
        h.vms[name] = h.vms.get(name, 0) + n
        r = rules.get(name)
        owner = r.owner(name) if r is not None else name
        if r is not None and r.group is not None:
            h.groups[r.group] = h.groups.get(r.group, 0) + n
        if r is not None and r.exclusive is not None:
            h.owners[r.exclusive] = owner
        if per_dom is not None:
            per_dom[(h.domain, owner)] = per_dom.get((h.domain, owner), 0) + n


def _fill(hosts: list[Host], units: list[Unit], rules: dict[str, Rule], per_dom: dict | None) -> list[Unit]:
    """First fit of ``units`` onto ``hosts``; the units no host admits."""
    left = []
    start: dict[tuple, int] = {}  # per unit shape: hosts before this index took no more of it
    for u in units:
        key = u.shape
        i0 = start.get(key, 0)
        for i in range(i0, len(hosts)):
            if _admits(hosts[i], u, rules, per_dom):
                _put(hosts[i], u, rules, per_dom)
                start[key] = i  # hosts before i refused it and only fill up
                break
        else:
            left.append(u)
            start[key] = len(hosts)
    return left


def domain_names(domains, count: int) -> list[str]:
    """The domain of each of ``count`` hosts: the declared domains in turn ('' when none)."""
    names = [d.name for d in domains] or [""]
    return [names[i % len(names)] for i in range(count)]


@dataclass
class Placement:
    """Hosts with their VMs, the units none admits, and the resource order of the free vectors."""

    resources: tuple[str, ...]
    capacity: list[float]
    hosts: list[Host]
    unplaced: dict[str, int]

    def to_list(self) -> list[dict]:
        return [h.to_dict() for h in self.hosts]


def place(capacity: dict[str, float], profiles, rules: dict[str, Rule], domains, count: int) -> Placement:
    """First-fit decreasing of whole VMs (affinity groups as one unit) onto ``count`` hosts under
    ``rules``; ``unplaced``: workload -> VMs no host admits."""
    keys = tuple(capacity)
    cap = [float(capacity[k]) for k in keys]
    hosts = [Host(i, d, list(cap)) for i, d in enumerate(domain_names(domains, count))]
    left = _fill(hosts, _units(cap, keys, profiles, rules), rules, {} if domains else None)
    unplaced: dict[str, int] = {}
    for u in left:
        for name, n in u.members.items():
            unplaced[name] = unplaced.get(name, 0) + n
    return Placement(keys, cap, hosts, unplaced)


def failures(p: Placement, survive) -> list[tuple[str, list[int]]]:
    """The failures to survive: (label, indices of the lost hosts). ``domains``: each whole domain
    (each set of that many); ``hosts``: each set of that many hosts (up to :data:`MAX_FAILURE_SETS`
    sets; beyond, the fullest hosts together)."""
    out: list[tuple[str, list[int]]] = []
    if survive is None:
        return out
    names = [d for d in dict.fromkeys(h.domain for h in p.hosts) if d]  # the declared domains used
    if survive.domains and names:  # hosts in too few domains lose them all
        for lost in itertools.combinations(names, min(survive.domains, len(names))):
            out.append(("domain " + ", ".join(lost), [h.index for h in p.hosts if h.domain in lost]))
    if survive.hosts == 1:
        out += [(f"host-{h.index + 1}", [h.index]) for h in p.hosts]
    elif survive.hosts > 1 and math.comb(len(p.hosts), survive.hosts) <= MAX_FAILURE_SETS:
        for pair in itertools.combinations(range(len(p.hosts)), min(survive.hosts, len(p.hosts))):
            out.append((", ".join(f"host-{i + 1}" for i in pair), list(pair)))
    elif survive.hosts > 1:
        load = sorted(p.hosts, key=lambda h: -sum(h.vms.values()))
        out.append((f"the {survive.hosts} fullest hosts", [h.index for h in load[:survive.hosts]]))
    return out


def lose(p: Placement, lost: list[int], profiles, rules: dict[str, Rule]) -> dict[str, int]:
    """Re-place the VMs of the ``lost`` hosts on the survivors' leftovers (host caps kept; a
    replicated workload's lost VMs are carried by its replicas): workload -> VMs left over."""
    gone = set(lost)
    survivors = [Host(h.index, h.domain, list(h.free), dict(h.vms), dict(h.groups), dict(h.owners)) for h in p.hosts
                 if h.index not in gone]
    moved: dict[str, int] = {}
    for h in p.hosts:
        if h.index in gone:
            for name, n in h.vms.items():
                if n and not (rules.get(name) and rules[name].replicated):
                    moved[name] = moved.get(name, 0) + n
    demand = {name: d for name, d, _ in profiles}
    units = _units(p.capacity, p.resources, [(n, demand[n], k) for n, k in moved.items()], rules)
    left: dict[str, int] = {}
    for u in _fill(survivors, units, rules, None):
        for name, n in u.members.items():
            left[name] = left.get(name, 0) + n
    return left
