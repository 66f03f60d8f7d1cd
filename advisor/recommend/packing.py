"""Placing whole VMs on identical hosts: deterministic first-fit decreasing (the bin-packer of
``host_count``).

A VM cannot be split over hosts, so the active host count (before the N+x reserve) is that of a
placement of whole VMs (:func:`pack`): first-fit decreasing over the VMs of all workloads, largest
dominant share (its largest demand / capacity ratio) first, where a VM fits a host only when it
fits in every resource at once (a few other decreasing orders are tried too and the fewest hosts
kept). VMs of one profile are placed in bulk and identical hosts kept as one group, and the search
for the first host a VM fits skips blocks of hosts that cannot take it (:class:`_Groups`), so an
estate of thousands of workloads places in near-linear time. Pure: no engine context, only
capacities and per-VM demands.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

#: relative tolerance of the fit tests (floating-point sums of demands)
EPS = 1e-9


@dataclass
class HostGroup:
    """``count`` identical hosts, each holding ``vms`` (workload -> VMs per host) and keeping
    ``free`` (per resource, in the order of the capacity mapping) unused."""

    count: int
    free: list[float]
    vms: dict[str, int] = field(default_factory=dict)


@dataclass
class Packing:
    """A placement of whole VMs: host groups in first-fit order, and the workloads none of whose
    VMs fits an empty host (name -> resources it exceeds)."""

    resources: tuple[str, ...]
    capacity: list[float]
    groups: list[HostGroup]
    unplaced: dict[str, list[str]]
    order: str = "dominant"
    #: the groups' leftovers and counts as arrays (made by the first :meth:`fits`; groups stay as placed)
    _arrays: tuple | None = field(default=None, repr=False, compare=False)

    @functools.cached_property
    def hosts(self) -> int:
        return sum(g.count for g in self.groups)  # (the groups do not change once placed)

    def fits(self, demand: dict[str, float], extra_hosts: int = 0) -> int:
        """How many more whole VMs of ``demand`` fit into the leftovers (plus ``extra_hosts``
        empty hosts): :func:`_fits` of every group, in one array operation over the groups."""
        d = [demand[k] for k in self.resources]
        used = [j for j, x in enumerate(d) if x > 0]
        extra = max(0, extra_hosts) * _fits(self.capacity, d)
        if not used or not self.groups:
            return extra
        if self._arrays is None:
            self._arrays = (np.array([g.free for g in self.groups], dtype=float).reshape(len(self.groups), -1),
                            np.array([g.count for g in self.groups], dtype=np.int64))
        free, counts = self._arrays
        # the same floor(free / need + EPS) per resource as _fits, its least, none below 0
        each = np.floor(free[:, used] / np.array([d[j] for j in used]) + EPS).min(axis=1).clip(min=0)
        return int((counts * each.astype(np.int64)).sum()) + extra

    def placement(self) -> list[dict]:
        """JSON-ready: ``[{"hosts": n, "vms": {workload: VMs per host}}]``."""
        return [{"hosts": g.count, "vms": {k: v for k, v in g.vms.items() if v}} for g in self.groups]


def _fits(free: Sequence[float], d: Sequence[float]) -> int:
    """Whole VMs of per-VM demand ``d`` that fit into ``free`` (min over resources of
    floor(free / need); resources the VM does not use do not limit it)."""
    n = math.inf
    for f, x in zip(free, d, strict=True):
        if x > 0:
            q = math.floor(f / x + EPS)
            if q < n:
                n = q
                if n <= 0:
                    return 0
    return int(n) if math.isfinite(n) else 0


#: the decreasing orders :func:`pack` tries: by dominant share (largest demand / capacity ratio)
#: first, then by the sum of the shares, then by each resource's share alone
ORDERS = ("dominant", "sum", "cpu_allocation", "cpu_load", "ram", "disk_capacity", "disk_iops", "network")


def pack(capacity: dict[str, float], profiles: list[tuple[str, dict[str, float], int]],
         orders: tuple[str, ...] = ORDERS) -> Packing:
    """First-fit decreasing of whole VMs onto identical hosts of ``capacity``.

    ``profiles`` lists (workload name, per-VM demand, VMs). VMs are taken largest first (ties:
    the order given); each goes to the first open host where it fits in every resource, else to
    a new host. "Largest" is by dominant share (the VM's largest demand / capacity ratio); the
    other ``orders`` (sum of shares, one resource's share) are tried too and the placement with
    the fewest hosts kept (the earliest order on ties); the search stops once a placement reaches
    the pooled lower bound. VMs of one profile are identical, so they are placed in bulk: a host
    takes min over resources of floor(leftover / need) of them, and identical hosts are kept as
    one group — the same result as placing the VMs one by one.
    """
    keys = tuple(capacity)
    cap = [float(capacity[k]) for k in keys]
    table = _Table(keys, cap, profiles)
    best: np.ndarray | None = None
    best_order, best_count, tried = "", 0, set()
    for order in orders:
        ranked = table.ranked(order)
        if ranked is None:
            continue
        sequence = ranked.tobytes()
        if sequence in tried:
            continue
        tried.add(sequence)
        placed = _first_fit(cap, table.runs(ranked), best_count if best is not None else None)
        if placed is None:  # as many hosts as the best order's before every VM was placed: not kept
            continue
        count = sum(g.count for g in placed)
        if best is None or count < best_count:
            best, best_order, best_count = ranked, order, count
        if best_count <= table.bound:
            break
    groups = (_first_fit(cap, table.named(best)) or []) if best is not None and len(best) else []
    return Packing(keys, cap, groups, table.unplaced, best_order)


class _Table:
    """The profiles that place, as arrays (per-VM demand, shares of a host, VMs), for the
    decreasing orders of :func:`pack`: each order is a stable sort of one key column, the same
    order as sorting the profiles by that key with ties in the order given (#30: 10,000 workload
    groups sorted five ways). ``unplaced``: the profiles larger than an empty host; ``bound``: the
    pooled lower bound of the hosts."""

    def __init__(self, keys: tuple[str, ...], cap: list[float], profiles) -> None:
        self.keys = keys
        rows = np.array([[demand.get(k, 0.0) for k in keys] for _, demand, _ in profiles],
                        dtype=float).reshape(len(profiles), len(keys))
        capacity = np.array(cap, dtype=float)
        over = (rows > 0) & (rows > capacity * (1 + EPS))
        self.unplaced: dict[str, list[str]] = {
            profiles[i][0]: [k for k, o in zip(keys, over[i], strict=True) if o]
            for i in np.flatnonzero(over.any(axis=1)).tolist()}
        vms = np.array([n for _, _, n in profiles], dtype=object)
        keep = np.flatnonzero(~over.any(axis=1) & (vms > 0)).tolist() if len(profiles) else []
        self.names = [profiles[i][0] for i in keep]
        self.demand = rows[keep]
        self.vms = np.array([int(vms[i]) for i in keep], dtype=np.int64)
        self.tuples = list(map(tuple, self.demand.tolist()))
        self.shares = np.divide(self.demand, capacity, out=np.zeros_like(self.demand), where=capacity > 0)
        self.dominant = (self.shares.max(axis=1) if len(keys) else np.zeros(len(keep)))
        # per resource, the shares summed VM by VM in the order given (as a running Python sum)
        total = np.cumsum(self.shares * self.vms[:, None], axis=0)[-1].tolist() if keep else []
        self.bound = max(1, max((math.ceil(t - 1e-9) for t in total), default=1)) if keep else 0

    def ranked(self, order: str) -> np.ndarray | None:
        """The positions of the profiles in ``order`` (largest first), None when the order does not
        apply (a resource these hosts do not describe, or one no VM uses)."""
        if order == "dominant":
            return np.argsort(-self.dominant, kind="stable")
        if order == "sum":
            total = np.zeros(len(self.names))
            for j in range(len(self.keys)):  # left to right, as sum() adds a list
                total = total + self.shares[:, j]
            return np.argsort(-total, kind="stable")
        if order not in self.keys:
            return None
        column = self.shares[:, self.keys.index(order)]
        if not column.any():
            return None
        return np.lexsort((-self.dominant, -column))

    def runs(self, ranked: np.ndarray) -> list[tuple[None, tuple[float, ...], int]]:
        """The profiles in ``ranked`` order for counting hosts only: consecutive profiles of one
        demand merged into one (first fit places them one after the other on the same hosts whatever
        their names, so the host count is the same), without names."""
        if not len(ranked):
            return []
        rows = self.demand[ranked]
        starts = np.flatnonzero(np.concatenate(([True], (rows[1:] != rows[:-1]).any(axis=1))))
        vms = np.add.reduceat(self.vms[ranked], starts).tolist()
        tuples = self.tuples
        return [(None, tuples[p], n) for p, n in zip(ranked[starts].tolist(), vms, strict=True)]

    def named(self, ranked: np.ndarray) -> list[tuple[str, tuple[float, ...], int]]:
        """The profiles in ``ranked`` order: (name, per-VM demand, VMs)."""
        names, tuples, vms = self.names, self.tuples, self.vms.tolist()
        return [(names[p], tuples[p], vms[p]) for p in ranked.tolist()]


class _Block:
    """Consecutive host groups and an upper bound of each resource's leftover among them."""

    __slots__ = ("groups", "tops", "version", "pos", "moves")

    def __init__(self, groups: list[HostGroup], tops: list[float], pos: int):
        self.groups, self.tops, self.pos = groups, tops, pos
        self.version = 0  # changes when the block is halved (an index into it is stale)
        #: (index, shift) per group split into parts: the groups after it moved by ``shift``
        self.moves: list[tuple[int, int]] = []


class _Groups:
    """The host groups of a first fit, in order, in blocks of about :attr:`SIZE` that know an
    upper bound of each resource's leftover among their groups: the search for the first group a
    VM fits into skips every block where some resource is short in all groups.

    Leftovers only shrink as VMs are placed, and a group that is split keeps its place and at
    most its leftovers, so a group that cannot take a VM of demand ``d`` never can: each distinct
    demand keeps where its last search found room (:attr:`start`; a group split into parts since
    moves it by the parts added before it), and the next search for it starts there instead of at
    the first host. The bounds are made exact again only when a
    block passes them but holds no group that fits. With thousands of workloads (and groups)
    that keeps the placement near linear."""

    SIZE = 48

    def __init__(self, width: int):
        self.width = width
        self.blocks: list[_Block] = []
        #: demand -> (block, index, block version, splits seen) before which no group takes a VM of it
        self.start: dict[tuple, tuple[_Block, int, int, int]] = {}

    def _exact(self, blk: _Block) -> None:
        groups = blk.groups
        blk.tops = [max(g.free[k] for g in groups) for k in range(self.width)]

    def resume(self, key: tuple) -> tuple[int, int]:
        """(block, index) where the search for demand ``key`` starts."""
        where = self.start.get(key)
        if where is None:
            return 0, 0
        blk, i, version, seen = where
        if blk.version != version:
            return blk.pos, 0
        for at, shift in itertools.islice(blk.moves, seen, None):  # groups split since: the index moves
            if i > at:
                i += shift
        return blk.pos, i

    def fill(self, name: str | None, d: tuple[float, ...], need: list[tuple[int, float]], n: int) -> int:
        """``n`` VMs of demand ``d`` (``need``: the resources it uses, (index, demand)) onto the open
        groups, first fit, in bulk per group (``name`` None: counting only, the VMs not recorded);
        the VMs no open group takes."""
        blocks = self.blocks
        b, i = self.resume(d)
        while n > 0 and need:  # (as _fits: a VM that needs nothing "fits" nowhere)
            g = None  # the first group at or after (b, i) taking a VM of d
            while b < len(blocks):
                blk = blocks[b]
                tops = blk.tops
                for k, x in need:
                    if tops[k] / x + EPS < 1.0:
                        break
                else:
                    groups = blk.groups
                    whole, m = i == 0, len(groups)
                    while i < m:
                        free = groups[i].free
                        for k, x in need:
                            if free[k] / x + EPS < 1.0:
                                break
                        else:
                            g = groups[i]
                            break
                        i += 1
                    if g is not None:
                        break
                    if whole:  # the bounds let a VM in that no group takes: make them exact
                        self._exact(blk)
                b, i = b + 1, 0
            if g is None:
                break
            self.mark(d, b, i)  # every group before this one is too full for d
            n, i = self._take(b, i, g, name, d, n)
        if n > 0:  # no open group takes d: the search for it starts after them
            self.mark(d, len(blocks), 0)
        return n

    def _take(self, b: int, i: int, g: HostGroup, name: str | None, d, n: int) -> tuple[int, int]:
        """Group (b, i) takes what it can of ``n`` VMs of ``d``: (VMs left, index to go on from)."""
        f = _fits(g.free, d)
        full, rest = divmod(n, f)
        if full >= g.count:  # every host of the group takes f
            g.free = [a - f * x for a, x in zip(g.free, d, strict=True)]
            if name is not None:
                g.vms = {**g.vms, name: g.vms.get(name, 0) + f}
            return n - f * g.count, i + 1
        if g.count == 1:  # one host takes the rest: the group itself changes (as a split into one part)
            g.free = [a - rest * x for a, x in zip(g.free, d, strict=True)]
            if name is not None:
                g.vms = {**g.vms, name: g.vms.get(name, 0) + rest}
            return 0, i
        split = []
        if full:
            split.append(HostGroup(full, [a - f * x for a, x in zip(g.free, d, strict=True)],
                                   {**g.vms, name: g.vms.get(name, 0) + f} if name is not None else g.vms))
        if rest:
            split.append(HostGroup(1, [a - rest * x for a, x in zip(g.free, d, strict=True)],
                                   {**g.vms, name: g.vms.get(name, 0) + rest} if name is not None else g.vms))
        untouched = g.count - full - (1 if rest else 0)
        if untouched:
            split.append(HostGroup(untouched, g.free, g.vms))
        self.replace(b, i, split)
        return 0, i

    def mark(self, key: tuple, b: int, i: int) -> None:
        """No group before (b, i) takes a VM of demand ``key`` (nor ever will)."""
        if b < len(self.blocks):
            blk = self.blocks[b]
            self.start[key] = (blk, i, blk.version, len(blk.moves))
        elif self.blocks:
            blk = self.blocks[-1]
            self.start[key] = (blk, len(blk.groups), blk.version, len(blk.moves))

    def replace(self, b: int, i: int, parts: list[HostGroup]) -> None:
        """Group (b, i) split into ``parts`` (each with at most its leftovers: the bounds hold)."""
        blk = self.blocks[b]
        groups = blk.groups
        groups[i:i + 1] = parts
        if len(parts) != 1:
            blk.moves.append((i, len(parts) - 1))
        if len(groups) > 2 * self.SIZE:
            half = len(groups) // 2
            blk.groups, rest = groups[:half], groups[half:]
            blk.version += 1
            self.blocks.insert(b + 1, _Block(rest, [], b + 1))
            for k in range(b + 2, len(self.blocks)):
                self.blocks[k].pos = k
            self._exact(blk)
            self._exact(self.blocks[b + 1])

    def append(self, g: HostGroup) -> None:
        if not self.blocks or len(self.blocks[-1].groups) >= self.SIZE:
            self.blocks.append(_Block([g], list(g.free), len(self.blocks)))
            return
        blk = self.blocks[-1]
        blk.groups.append(g)
        blk.tops = [max(a, f) for a, f in zip(blk.tops, g.free, strict=True)]

    def all(self) -> list[HostGroup]:
        return [g for blk in self.blocks for g in blk.groups]


def _first_fit(cap: list[float], items: Sequence[tuple[str | None, Sequence[float], int]], limit: int | None = None
               ) -> list[HostGroup] | None:
    """First fit of ``items`` (name, per-VM demand, VMs) in the order given, in bulk per item (a
    name of None: counting only); None once it opens ``limit`` hosts with VMs still to place (it
    cannot end below ``limit``)."""
    groups = _Groups(len(cap))
    opened = 0
    needs: dict[tuple, list[tuple[int, float]]] = {}  # per demand: the resources it uses
    for name, demand, n in items:
        d = tuple(demand)
        need = needs.get(d)
        if need is None:
            need = needs[d] = [(k, x) for k, x in enumerate(d) if x > 0]
        n = groups.fill(name, d, need, n)
        if n > 0:
            f0 = _fits(cap, d)
            full, rest = divmod(n, f0)
            if full:
                groups.append(HostGroup(full, [a - f0 * x for a, x in zip(cap, d, strict=True)],
                                        {name: f0} if name is not None else {}))
            if rest:
                groups.append(HostGroup(1, [a - rest * x for a, x in zip(cap, d, strict=True)],
                                        {name: rest} if name is not None else {}))
            opened += full + (1 if rest else 0)
            if limit is not None and opened >= limit:
                return None
    return groups.all()


def balance(capacity: dict[str, float], profiles: list[tuple[str, dict[str, float], int]], hosts: int) -> Packing:
    """Whole VMs spread over ``hosts`` identical hosts (more than a first fit needs: the hosts a
    target adds): largest dominant share first, each VM onto the host whose largest share is the
    lowest (worst fit), where it fits in every resource if any host has room. The plan's per-host
    figures (soft limits, page cache, the busiest host's I/O-heavy VMs) read this placement, so
    they describe the hosts the advice recommends."""
    keys = tuple(capacity)
    cap = [float(capacity[k]) for k in keys]
    items = []
    for i, (name, demand, n) in enumerate(profiles):
        d = [float(demand.get(k, 0.0)) for k in keys]
        shares = [x / c if c > 0 else 0.0 for x, c in zip(d, cap, strict=True)]
        if n > 0:
            items.append((-max(shares, default=0.0), i, name, d, int(n)))
    items.sort()
    hosts = max(1, hosts)
    used = [[0.0] * len(keys) for _ in range(hosts)]
    vms: list[dict[str, int]] = [{} for _ in range(hosts)]
    heap = [(0.0, h) for h in range(hosts)]
    for _, _, name, d, n in items:
        for _ in range(n):
            skipped, h = [], None
            while heap:
                top, j = heapq.heappop(heap)
                if all(u + x <= c * (1 + EPS) for u, x, c in zip(used[j], d, cap, strict=True)):
                    h = (top, j)
                    break
                skipped.append((top, j))
            if h is None:  # no host has room: the least loaded takes it (a soft excess, reported)
                skipped.sort()
                h = skipped.pop(0)
            for s in skipped:
                heapq.heappush(heap, s)
            j = h[1]
            used[j] = [u + x for u, x in zip(used[j], d, strict=True)]
            vms[j][name] = vms[j].get(name, 0) + 1
            heapq.heappush(heap, (max((u / c for u, c in zip(used[j], cap, strict=True) if c > 0), default=0.0), j))
    groups: dict[tuple, HostGroup] = {}
    for j in range(hosts):
        key = tuple(sorted(vms[j].items()))
        if key in groups:
            groups[key].count += 1
        else:
            groups[key] = HostGroup(1, [c - u for c, u in zip(cap, used[j], strict=True)], vms[j])
    return Packing(keys, cap, list(groups.values()), {}, "balanced")
