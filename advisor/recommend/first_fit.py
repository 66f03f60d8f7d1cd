"""First fit of the placement's units onto an open-ended row of hosts, indexed (#30: 10,000
workload groups, every one of them under doc 003's sequential-I/O rule, took 132 s).

:func:`advisor.recommend.placement.place` puts each unit (largest first) on the first of ``count``
hosts that admits it. Without a per-domain cap (no failure domains, or no anti-affine or replicated
workload), whether host i admits a unit depends only on what hosts 0..i hold, so the placement on
``count`` hosts is the first ``count`` hosts of one first fit onto as many hosts as it needs, and the
units that fit on none of them are those it put on a later host (or that no host takes).
:class:`FirstFit` runs that first fit once; :meth:`FirstFit.placement` gives the placement on any
count, the same as ``place`` (``tests/advisor/test_first_fit.py`` compares them on random
estates with every kind of constraint). The room's steps, one VM more each, grow the last first fit
by that VM when it comes last in the order (:func:`growing`) instead of placing every unit again.

The first host that admits a unit is found in a tree of the hosts' free capacity (per resource the
most any host below a node keeps free: a subtree without room is skipped whole), O(log hosts) per
unit instead of a scan. Sequential-I/O workloads (one owner per host) search a second tree that
holds only the hosts no such workload owns yet, besides the few hosts their own VMs hold. Every
host the trees offer is still checked by the placement's own ``_admits``.

:class:`Leftovers` indexes one placement's leftovers the same way for the failures to survive: each
failure's VMs re-placed as :func:`advisor.recommend.placement.lose` does, without copying every
surviving host per failure (``survive: {hosts: 1}`` at 10,000 workload groups: 38 s -> 0.7 s).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from advisor.recommend.placement import (
    Host,
    Placement,
    Rule,
    Unit,
    _admits,
    _put,
    _units,
    failures,
    lose,
)

NEG = float("-inf")
#: from this many failures to survive on, :func:`survives` indexes the leftovers
INDEXED_FROM = 8


class _Tree:
    """Per resource, the most free capacity of any host below each node of a binary tree over the
    host slots (slots without a host, or hosts the tree leaves out, hold -inf)."""

    def __init__(self, dims: int) -> None:
        self.size = 64
        self.t = [[NEG] * (2 * self.size) for _ in range(dims)]

    def _grow(self) -> None:
        old, size = self.t, self.size
        self.size = size * 2
        self.t = [[NEG] * (2 * self.size) for _ in old]
        for col, was in zip(self.t, old, strict=True):
            col[self.size:self.size + size] = was[size:]
            for node in range(self.size - 1, 0, -1):
                a, b = col[2 * node], col[2 * node + 1]
                col[node] = a if a > b else b

    def set(self, i: int, free: list[float], dims) -> None:
        """Slot ``i`` keeps ``free`` (only the resources ``dims`` changed); each resource's maxima
        are mended upwards until one is unchanged."""
        while i >= self.size:
            self._grow()
        leaf = i + self.size
        for d in dims:
            col, node = self.t[d], leaf
            col[node] = free[d]
            node >>= 1
            while node:
                a, b = col[2 * node], col[2 * node + 1]
                m = a if a > b else b
                if col[node] == m:
                    break
                col[node] = m
                node >>= 1

    def first(self, i0: int, need: list[tuple[int, float, float]], n: int) -> int:
        """The first slot from ``i0`` below ``n`` whose free capacity may hold ``need`` ((resource,
        demand, tolerance): ``_admits``' own test), else ``n``."""
        if i0 >= n:
            return n
        size = self.size
        cols = [(self.t[d], x, b) for d, x, b in need]
        node = i0 + size
        while True:
            for col, x, b in cols:
                if col[node] + b < x:
                    break
            else:
                if node >= size:
                    return node - size if node - size < n else n
                node <<= 1
                continue
            while node & 1:
                node >>= 1
            if not node:
                return n
            node += 1


class _Index:
    """The trees over a row of hosts (free capacity; per exclusive set, the hosts nobody owns) and
    the hosts each exclusive workload owns; finds the first host that admits a unit."""

    def __init__(self, dims: int, rules: dict[str, Rule]) -> None:
        self.rules, self.dims = rules, dims
        self.tree = _Tree(dims)
        sets = sorted({r.exclusive for r in rules.values() if r.exclusive is not None})
        self.unowned = {s: _Tree(dims) for s in sets}  # per exclusive set: hosts nobody owns
        self.owned: dict[tuple[str, str], list[int]] = {}  # (set, workload) -> hosts it owns

    def _exclusive(self, u: Unit) -> tuple[str, str] | None:
        """(set, workload) when exactly one of the unit's workloads is in an exclusive set."""
        if not self.unowned:  # no exclusive set declared
            return None
        found = list(dict.fromkeys((r.exclusive, r.owner(name)) for name in u.members
                                   if (r := self.rules.get(name)) is not None and r.exclusive is not None))
        return found[0] if len(found) == 1 else None

    def search(self, u: Unit, i0: int, n: int, host_at, gone=frozenset()) -> int:
        """The first of hosts ``i0`` .. ``n`` - 1 that admits ``u`` (``host_at(i)``: host i; the
        trees hold no host of ``gone``), else ``n``."""
        need = u.need or [(0, -1e300, 0.0)]
        tree, ex, best = self.tree, self._exclusive(u), n
        if ex is not None:
            tree = self.unowned[ex[0]]
            for i in self.owned.get(ex, ()):
                if i0 <= i < best and i not in gone and _admits(host_at(i), u, self.rules, None):
                    best = i
        i = tree.first(i0, need, best)
        while i < best:
            if _admits(host_at(i), u, self.rules, None):
                return i
            i = tree.first(i + 1, need, best)
        return best

    def show(self, i: int, h: Host) -> None:
        """Host ``h`` in slot ``i`` of every tree, as it is now."""
        every = range(self.dims)
        self.tree.set(i, h.free, every)
        gone = [NEG] * self.dims
        for s, t in self.unowned.items():
            t.set(i, gone if s in h.owners else h.free, every)

    def hide(self, i: int) -> None:
        """Slot ``i`` takes nothing (a lost host)."""
        gone, every = [NEG] * self.dims, range(self.dims)
        self.tree.set(i, gone, every)
        for t in self.unowned.values():
            t.set(i, gone, every)

    def put(self, i: int, h: Host, u: Unit) -> list[tuple[str, str]]:
        """``u`` onto host ``h`` in slot ``i``, the trees mended; the (set, workload) that came to own it."""
        dims = [d for d, x in enumerate(u.demand) if x != 0]
        if not self.unowned:  # no exclusive set: nobody comes to own a host
            _put(h, u, self.rules, None)
            self.tree.set(i, h.free, dims)
            return []
        before = dict(h.owners)
        _put(h, u, self.rules, None)
        self.tree.set(i, h.free, dims)
        gone = [NEG] * self.dims
        for s, t in self.unowned.items():
            if s not in h.owners:
                t.set(i, h.free, dims)
            elif s not in before:
                t.set(i, gone, range(self.dims))
        came = [(s, name) for s, name in h.owners.items() if before.get(s) != name]
        for key in came:
            self.owned.setdefault(key, []).append(i)
        return came


class FirstFit(_Index):
    """One first fit of the units onto as many hosts as they need (see the module text)."""

    def __init__(self, capacity: dict[str, float], profiles, rules: dict[str, Rule], domains) -> None:
        super().__init__(len(capacity), rules)
        self.keys = tuple(capacity)
        self.cap = [float(capacity[k]) for k in self.keys]
        self.domains = domains
        self.units = _units(self.cap, self.keys, profiles, rules)
        self.hosts: list[Host] = []
        self.at: list[int] = []  # per unit: the host it went to, -1 when no host takes it
        self._latest: list[tuple[int, float]] | None = None
        self._start: dict[tuple, int] = {}  # per unit shape: hosts before this index took no more of it
        self._run()

    def _domain(self, i: int) -> str:
        names = [d.name for d in self.domains] or [""]
        return names[i % len(names)]

    def _run(self) -> None:
        for u in self.units:
            self._step(u)

    def _step(self, u: Unit) -> None:
        start = self._start
        key = u.shape
        i0 = start.get(key, 0)
        i = self._find(u, i0) if i0 >= 0 else -1
        if i >= 0:
            self.put(i, self.hosts[i], u)
        start[key] = i  # -1: no host, not even an empty one, takes this shape
        self.at.append(i)

    def extend(self, u: Unit) -> None:
        """One unit more, last in the order: what a first fit of the units and ``u`` gives."""
        self.units.append(u)
        self._step(u)
        self._latest = None

    def _find(self, u: Unit, i0: int) -> int:
        """The first host from ``i0`` that admits ``u`` (a new one after the last), -1 if none does."""
        n = len(self.hosts)
        i = self.search(u, i0, n, self.hosts.__getitem__)
        if i < n:
            return i
        h = Host(n, self._domain(n), list(self.cap))
        if not _admits(h, u, self.rules, None):
            return -1
        self.hosts.append(h)
        self.show(n, h)
        return n

    def placement(self, count: int) -> Placement:
        """The placement on ``count`` hosts: what ``place`` gives for that count."""
        hosts = self.hosts[:count] + [Host(i, self._domain(i), list(self.cap))
                                      for i in range(len(self.hosts), count)]
        if self._latest is None:  # (unit, host) latest host first; no host: latest of all
            self._latest = sorted(((k, i if i >= 0 else math.inf) for k, i in enumerate(self.at)),
                                  key=lambda t: -t[1])
        beyond = sorted(k for k, _ in itertools.takewhile(lambda t: t[1] >= count, self._latest))
        unplaced: dict[str, int] = {}
        for k in beyond:  # in the order of the units, as place() leaves them
            for name, n in self.units[k].members.items():
                unplaced[name] = unplaced.get(name, 0) + n
        return Placement(self.keys, self.cap, hosts, unplaced)

    @property
    def needed(self) -> int:
        """The hosts the first fit opened."""
        return len(self.hosts)


class Leftovers(_Index):
    """The leftovers of one placement's hosts, indexed once: :meth:`lose` re-places a failure's
    VMs as :func:`advisor.recommend.placement.lose` does (first fit onto the hosts that are left,
    in order), copying only the hosts that take a VM instead of every survivor per failure."""

    def __init__(self, p: Placement, profiles, rules: dict[str, Rule]) -> None:
        super().__init__(len(p.resources), rules)
        self.p = p
        self.demand = {name: d for name, d, _ in profiles}
        for i, h in enumerate(p.hosts):
            self.show(i, h)
            for key in h.owners.items():
                self.owned.setdefault(key, []).append(i)

    def lose(self, lost: list[int]) -> dict[str, int]:
        """Workload -> VMs left over once the VMs of the hosts at ``lost`` are re-placed."""
        p, rules, hosts = self.p, self.rules, self.p.hosts
        gone = set(lost)
        moved: dict[str, int] = {}
        for i in sorted(gone):  # in the order of the hosts, as lose() takes them (the fullest come first)
            for name, n in hosts[i].vms.items():
                if n and not (rules.get(name) and rules[name].replicated):
                    moved[name] = moved.get(name, 0) + n
        units = _units(p.capacity, p.resources, [(n, self.demand[n], k) for n, k in moved.items()], rules)
        for i in gone:
            self.hide(i)
        took: dict[int, Host] = {}  # copies of the hosts that took a VM
        came: list[tuple[tuple[str, str], int]] = []
        left: dict[str, int] = {}
        start: dict[tuple, int] = {}
        host_at = lambda i: took.get(i) or hosts[i]  # noqa: E731
        for u in units:
            key = u.shape
            i = self.search(u, start.get(key, 0), len(hosts), host_at, gone)
            start[key] = i
            if i == len(hosts):
                for name, n in u.members.items():
                    left[name] = left.get(name, 0) + n
                continue
            if i not in took:
                h = hosts[i]
                took[i] = Host(h.index, h.domain, list(h.free), dict(h.vms), dict(h.groups), dict(h.owners))
            came += [(k, i) for k in self.put(i, took[i], u)]
        for k, i in came:  # as it was before the failure
            self.owned[k].remove(i)
        for i in gone | set(took):
            self.show(i, hosts[i])
        return left


def survives(p: Placement, profiles, rules: dict[str, Rule], survive) -> str | None:
    """The first failure to survive (:func:`advisor.recommend.placement.failures`) after which some
    VM has no host (its label), or None: each failure's VMs re-placed by
    :func:`advisor.recommend.placement.lose`, or from :data:`INDEXED_FROM` failures on by
    :meth:`Leftovers.lose` on the indexed leftovers (the same result)."""
    out = failures(p, survive)
    if len(out) < INDEXED_FROM:  # a few failures (whole domains): indexing costs more than it saves
        return next((label for label, lost in out if lose(p, lost, profiles, rules)), None)
    left = Leftovers(p, profiles, rules)
    return next((label for label, lost in out if left.lose(lost)), None)


def applies(rules: dict[str, Rule], domains) -> bool:
    """Whether :class:`FirstFit` gives ``place``'s placement: no per-domain cap couples the hosts."""
    return not (domains and any(r.per_domain is not None for r in rules.values()))



#: while set (:func:`growing`), where :func:`first_fit` keeps the last first fit it made
_GROWN: ContextVar[dict | None] = ContextVar("first_fit_grown", default=None)


@contextmanager
def growing(kept: dict) -> Iterator[None]:
    """Within it, :func:`first_fit` of the units of the last one it made (kept in ``kept``) and one
    unit more, last in the order, grows that one in place instead of placing every unit again: the
    room's steps (:mod:`advisor.recommend.room`), each one VM more of a workload whose VMs come
    last. The placements the earlier one gave change with it: a caller keeps none of them, and only
    the first first fit made within it is kept (a later one in the same step is made afresh)."""
    kept["open"] = True
    token = _GROWN.set(kept)
    try:
        yield
    finally:
        _GROWN.reset(token)


def first_fit(capacity: dict[str, float], profiles, rules: dict[str, Rule], domains) -> FirstFit:
    """``FirstFit(capacity, profiles, rules, domains)``; under :func:`growing`, the last one grown by
    its one unit more when these units are its units and that one (the same first fit: each unit is
    placed in order on what the earlier ones left)."""
    kept = _GROWN.get()
    if kept is None or not kept.pop("open", False):
        return FirstFit(capacity, profiles, rules, domains)
    same = (dict(capacity), dict(rules), list(domains))
    last: FirstFit | None = kept.get("first fit")
    if last is not None and kept.get("of") == same:
        units = _units(last.cap, last.keys, profiles, rules)
        if len(units) == len(last.units) + 1 and all(
                a.shape == b.shape for a, b in zip(units[:-1], last.units, strict=True)):
            last.extend(units[-1])
            return last
    kept["first fit"], kept["of"] = FirstFit(capacity, profiles, rules, domains), same
    return kept["first fit"]
