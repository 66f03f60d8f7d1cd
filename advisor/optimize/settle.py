"""Which rows of a search's table the ranking reads the exact headroom of.

Under placement constraints a row's headroom waits as its upper bound, the resources' room
(:meth:`advisor.optimize.evaluate.Table.settle`): the exact figure takes a constrained search per
workload. The ranking of :func:`advisor.optimize.search.select` is settled here as if every row
were exact, by settling only the rows whose exact figure can change it:

- **the best and the cheapest**: among the rows tied on the objective (on the total), those whose
  bound reaches the most exact headroom of the tie (the headroom is the first tie key);
- **the Pareto front of cost against headroom**: walking the costs upwards, the rows of a cost
  whose bound beats the most headroom of every cheaper row and reaches the most of their cost;
  any other row can neither join the front nor raise the bar for a dearer one;
- **a front against another figure**: the rows of a cost that may lead it (its best figure,
  beating every cheaper row's) when several share that figure: the headroom breaks their tie.

A bound is the resources' room, lowered to the exact figure of its placement on its most hosts (the
room grows with the hosts: :mod:`advisor.recommend.room` counts the steps that each fit). An exact
figure is never above its bound, so each of these is what the exhaustive ranking gives;
:func:`unsettled` names the rows left out, which the front then leaves out too.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from advisor.optimize.evaluate import Table


def settle_ranked(table: Table, idx: np.ndarray, objective: np.ndarray, figure: np.ndarray, by_headroom: bool,
                  larger_better: bool) -> None:
    """Settle the rows among the feasible ``idx`` whose exact headroom the ranking reads (see the
    module doc): ``objective`` and ``figure`` per row; ``by_headroom`` when the figure is the headroom."""
    if not table.pending or not idx.size:
        return
    tops = _Tops(table)
    for primary in (objective, table.total):
        values = primary[idx]
        _settle_most(table, idx[values == values.min()], -math.inf, tops)
    if by_headroom:
        bar = -math.inf  # the most exact headroom of the cheaper rows
        for group in _by_cost(table, idx):
            _settle_most(table, group, bar, tops)
            bar = max([bar, *(float(table.headroom[r]) for r in group if int(r) not in table.pending)])
        return
    good = np.where(np.isnan(figure), np.nan, -figure if larger_better else figure)
    bar = math.inf  # the best figure of the cheaper rows (smaller is better)
    for group in _by_cost(table, idx[~np.isnan(good[idx])]):
        least = float(good[group].min())
        if least < bar - 1e-12:
            _settle_most(table, group[good[group] == least], -math.inf, tops)
        bar = min(bar, least)


def unsettled(table: Table, figure: np.ndarray) -> np.ndarray:
    """``figure`` (the headroom) without the rows left unsettled (NaN: off the front)."""
    if not table.pending:
        return figure
    out = figure.copy()
    out[list(table.pending)] = np.nan
    return out


def _by_cost(table: Table, idx: np.ndarray) -> Iterator[np.ndarray]:
    """The rows of ``idx`` in groups of equal total cost, the cheapest first (none when ``idx`` is
    empty, e.g. no row has the figure)."""
    if not idx.size:
        return
    ordered = idx[np.argsort(table.total[idx], kind="stable")]
    costs = table.total[ordered]
    starts = np.flatnonzero(np.concatenate([[True], costs[1:] != costs[:-1]]))
    yield from np.split(ordered, starts[1:])


class _Tops:
    """Per placement, the exact headroom on the most hosts any of its rows has: the room grows with
    the hosts, so it bounds the placement's other rows too."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.top: dict[int, int] = {}  # placement -> the row with its most hosts
        for r, job in table.pending.items():
            t = self.top.get(id(job.p))
            if t is None or job.active > table.pending[t].active:
                self.top[id(job.p)] = r

    def tighten(self, r: int) -> None:
        """Row ``r``'s bound lowered to its placement's figure on the most hosts (settled for it)."""
        job = self.table.pending.get(r)
        if job is None:
            return
        top = self.top[id(job.p)]
        self.table.settle([top])
        if r in self.table.pending:
            self.table.headroom[r] = min(self.table.headroom[r], self.table.headroom[top])


def _settle_most(table: Table, rows: np.ndarray, floor: float, tops: _Tops) -> None:
    """Settle the rows of ``rows`` that may hold their most headroom, when it is above ``floor``:
    those whose bound reaches the most exact figure found among them (largest bound first)."""
    h = table.headroom
    most = max((float(h[r]) for r in rows if int(r) not in table.pending), default=-math.inf)
    for r in rows:
        if int(r) in table.pending and float(h[r]) > floor and float(h[r]) >= most:
            tops.tighten(int(r))
    most = max((float(h[r]) for r in rows if int(r) not in table.pending), default=-math.inf)
    waiting = sorted((int(r) for r in rows if int(r) in table.pending), key=lambda r: (-float(h[r]), r))
    for r in waiting:
        if float(h[r]) < most or float(h[r]) <= floor:
            break
        table.settle([r])
        most = max(most, float(h[r]))
