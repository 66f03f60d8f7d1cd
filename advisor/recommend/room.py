"""The headroom under the placement constraints: how many more VMs of a workload the active hosts
really still place when the scenario declares anti-affinity, affinity, replicas, sequential-I/O
pairs, failures to survive or an HA policy (:func:`advisor.recommend.placement_plan.declared`).

The resources' headroom (:func:`advisor.recommend.host_count.headroom`: whole VMs of the profile
in the leftovers of the unconstrained placement) is an upper bound; under the constraints the room
for ``w`` is the most ``k`` up to it for which the host count's own constrained search
(:func:`advisor.recommend.placed_count.placed_active`) places the VMs with ``k`` more of ``w`` on
the active hosts, found by bisection (the hosts it needs grow with ``k``). An anti-affinity group
bounds it first: its VMs never share a host, so the group holds at most one VM a host. Each search
is kept in the advice's memo and brackets the next bisection, so counts that share a design (the
optimizer's rows) share them.

Each search places every workload, and each workload takes several, so the work grows with the square
of the workloads: beyond :data:`SEARCHED_WORKLOADS` workloads (an estate) the room is the resources'
bounded by the anti-affinity groups, and the advice says so (:func:`unsearched`). So is it in an
advice computed under :func:`bounded`, when its caller reads no room (the optimizer's count of
hosts a design's growth needs).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from advisor.recommend.base import EngineContext
from advisor.recommend.host_demand import Budgets, pin_vm_demand, vm_demand

#: the most workloads whose room the constrained search finds (100 took ~5 s of CPU, 300 ~50 s)
SEARCHED_WORKLOADS = 24
#: True while the room is not searched whatever the scenario (:func:`bounded`)
_BOUNDED: ContextVar[bool] = ContextVar("room_bounded", default=False)


@contextmanager
def bounded() -> Iterator[None]:
    """Within it, the room is the resources' bounded by anti-affinity, never searched under the
    constraints: for an advice whose room nobody reads (the rest of the advice is unchanged)."""
    token = _BOUNDED.set(True)
    try:
        yield
    finally:
        _BOUNDED.reset(token)


def unsearched(sc) -> str:
    """The caveat when the room is not searched under the constraints ("" when it is)."""
    n = len(sc.workloads)
    if n <= SEARCHED_WORKLOADS:
        return ""
    return (f"room for more VMs counts the hosts' resources and the anti-affinity groups only: the placement "
            f"constraints are searched for it in scenarios of up to {SEARCHED_WORKLOADS} workloads (this one has "
            f"{n:,}), so it is an upper bound")


def constrained_room(ctx: EngineContext, active: int, budgets: Budgets, room: dict[str, int]) -> dict[str, int]:
    """Workload name -> the VMs more of it ``active`` hosts place under the constraints, each at
    most its resources' ``room`` (see the module doc)."""
    out = {}
    searched = not unsearched(ctx.scenario) and not _BOUNDED.get()
    for w in ctx.scenario.workloads:
        hi = min(room.get(w.name, 0), _group_bound(ctx, w, active))
        if not searched:
            out[w.name] = max(hi, 0)
            continue
        known = _known(ctx, budgets, w)  # VMs more -> the hosts they need, from earlier searches
        lo = max((k for k, n in known.items() if n <= active and k <= hi), default=0)
        if hi > lo and _needs(ctx, budgets, w, hi) > active:
            hi = min(k for k, n in known.items() if n > active and k > lo)
            while lo < hi - 1:  # _needs(lo) <= active < _needs(hi)
                mid = (lo + hi) // 2
                if _needs(ctx, budgets, w, mid) <= active:
                    lo = mid
                else:
                    hi = mid
            hi = lo
        out[w.name] = max(hi, 0)
    return out


def _known(ctx: EngineContext, budgets: Budgets, w) -> dict[int, int]:
    """The searches of ``w`` done so far in this design (``ctx``'s facts and ``budgets``): VMs more
    -> active hosts needed (the hosts grow with the VMs, so they bracket the next answer)."""
    f = ctx.facts
    return ctx.memo.setdefault(("room", w.name, f.overallocation_ratio, f.storage_backend, f.hypervisor, budgets),
                               {})


def _group_bound(ctx: EngineContext, w, active: int) -> int:
    """The VMs more of ``w`` its anti-affinity group leaves room for on ``active`` hosts (one VM of
    the group a host); no bound without anti-affinity."""
    if w.anti_affinity is True:
        return max(active - w.vms, 0)
    if isinstance(w.anti_affinity, str) and w.anti_affinity:
        group = sum(x.vms for x in ctx.scenario.workloads if x.anti_affinity == w.anti_affinity)
        return max(active - group, 0)
    return 1 << 62


def _needs(ctx: EngineContext, budgets: Budgets, w, more: int) -> int:
    """The active hosts the constrained search needs with ``more`` VMs of ``w`` (a very large
    number when no count places them), kept in :func:`_known`."""
    from advisor.recommend.placed_count import placed_active

    known = _known(ctx, budgets, w)
    if more not in known:
        sc = copy.copy(ctx.scenario)
        sc.workloads = [copy.copy(x) for x in ctx.scenario.workloads]
        pctx = dataclasses.replace(ctx, scenario=sc, memo={})
        for x, y in zip(ctx.scenario.workloads, sc.workloads, strict=True):
            pin_vm_demand(pctx, y, vm_demand(ctx, x, budgets))
            if x is w:
                y.vms = x.vms + more
        placed = placed_active(pctx, budgets)
        known[more] = 1 << 62 if placed.problems else placed.active
    return known[more]
