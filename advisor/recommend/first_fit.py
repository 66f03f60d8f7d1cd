"""First fit of the placement's units onto an open-ended row of hosts, indexed (#30: 10,000
workload groups, every one of them under doc 003's sequential-I/O rule, took 132 s).

:func:`advisor.recommend.placement.place` puts each unit (largest first) on the first of ``count``
hosts that admits it. Without a per-domain cap (no failure domains, or no anti-affine or replicated
workload), whether host i admits a unit depends only on what hosts 0..i hold, so the placement on
``count`` hosts is the first ``count`` hosts of one first fit onto as many hosts as it needs, and the
units that fit on none of them are those it put on a later host (or that no host takes).
:class:`FirstFit` runs that first fit once; :meth:`FirstFit.placement` gives the placement on any
count, the same as ``place`` (``tests/advisor/test_first_fit.py`` compares them on random
estates with every kind of constraint).

The first host that admits a unit is found in a tree of the hosts' free capacity (per resource the
most any host below a node keeps free: a subtree without room is skipped whole), O(log hosts) per
unit instead of a scan. Sequential-I/O workloads (one owner per host) search a second tree that
holds only the hosts no such workload owns yet, besides the few hosts their own VMs hold. Every
host the trees offer is still checked by the placement's own ``_admits``.
"""

from __future__ import annotations

from advisor.recommend.placement import EPS, Host, Placement, Rule, Unit, _admits, _put, _units

NEG = float("-inf")


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


class FirstFit:
    """One first fit of the units onto as many hosts as they need (see the module text)."""

    def __init__(self, capacity: dict[str, float], profiles, rules: dict[str, Rule], domains) -> None:
        self.keys = tuple(capacity)
        self.cap = [float(capacity[k]) for k in self.keys]
        self.rules, self.domains = rules, domains
        self.units = _units(self.cap, self.keys, profiles, rules)
        self.hosts: list[Host] = []
        self.at: list[int] = []  # per unit: the host it went to, -1 when no host takes it
        self.tree = _Tree(len(self.keys))
        sets = sorted({r.exclusive for r in rules.values() if r.exclusive is not None})
        self.unowned = {s: _Tree(len(self.keys)) for s in sets}  # per exclusive set: hosts nobody owns
        self.owned: dict[tuple[str, str], list[int]] = {}  # (set, workload) -> hosts it owns
        self._run()

    def _domain(self, i: int) -> str:
        names = [d.name for d in self.domains] or [""]
        return names[i % len(names)]

    def _run(self) -> None:
        start: dict[tuple, int] = {}  # per unit shape: hosts before this index took no more of it
        for u in self.units:
            key = (tuple(u.demand), tuple(u.members.items()))
            i0 = start.get(key, 0)
            i = self._find(u, i0) if i0 >= 0 else -1
            if i >= 0:
                self._put(i, u)
            start[key] = i  # -1: no host, not even an empty one, takes this shape
            self.at.append(i)

    def _exclusive(self, u: Unit) -> tuple[str, str] | None:
        """(set, workload) when exactly one of the unit's workloads is in an exclusive set."""
        found = [(r.exclusive, name) for name in u.members
                 if (r := self.rules.get(name)) is not None and r.exclusive is not None]
        return found[0] if len(found) == 1 else None

    def _find(self, u: Unit, i0: int) -> int:
        """The first host from ``i0`` that admits ``u`` (a new one after the last), -1 if none does."""
        need = [(d, x, EPS * max(1.0, x)) for d, x in enumerate(u.demand) if x > 0] or [(0, -1e300, 0.0)]
        hosts, n, best = self.hosts, len(self.hosts), len(self.hosts)
        tree, ex = self.tree, self._exclusive(u)
        if ex is not None:
            tree = self.unowned[ex[0]]
            for i in self.owned.get(ex, ()):
                if i0 <= i < best and _admits(hosts[i], u, self.rules, None):
                    best = i
        i = tree.first(i0, need, best)
        while i < best:
            if _admits(hosts[i], u, self.rules, None):
                return i
            i = tree.first(i + 1, need, best)
        if best < n:
            return best
        h = Host(n, self._domain(n), list(self.cap))
        if not _admits(h, u, self.rules, None):
            return -1
        hosts.append(h)
        every = range(len(self.keys))
        self.tree.set(n, h.free, every)
        for t in self.unowned.values():
            t.set(n, h.free, every)
        return n

    def _put(self, i: int, u: Unit) -> None:
        h = self.hosts[i]
        before = dict(h.owners)
        _put(h, u, self.rules, None)
        dims = [d for d, x in enumerate(u.demand) if x != 0]
        self.tree.set(i, h.free, dims)
        gone = [NEG] * len(self.keys)
        for s, t in self.unowned.items():
            if s not in h.owners:
                t.set(i, h.free, dims)
            elif s not in before:
                t.set(i, gone, range(len(self.keys)))
        for s, name in h.owners.items():
            if before.get(s) != name:
                self.owned.setdefault((s, name), []).append(i)

    def placement(self, count: int) -> Placement:
        """The placement on ``count`` hosts: what ``place`` gives for that count."""
        hosts = self.hosts[:count] + [Host(i, self._domain(i), list(self.cap))
                                      for i in range(len(self.hosts), count)]
        unplaced: dict[str, int] = {}
        for u, i in zip(self.units, self.at, strict=True):
            if i < 0 or i >= count:
                for name, n in u.members.items():
                    unplaced[name] = unplaced.get(name, 0) + n
        return Placement(self.keys, self.cap, hosts, unplaced)

    @property
    def needed(self) -> int:
        """The hosts the first fit opened."""
        return len(self.hosts)


def applies(rules: dict[str, Rule], domains) -> bool:
    """Whether :class:`FirstFit` gives ``place``'s placement: no per-domain cap couples the hosts."""
    return not (domains and any(r.per_domain is not None for r in rules.values()))

