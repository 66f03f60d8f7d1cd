"""The headroom under the placement constraints: how many more VMs of a workload the active hosts
really still place when the scenario declares anti-affinity, affinity, replicas, sequential-I/O
pairs, failures to survive or an HA policy (:func:`advisor.recommend.placement_plan.declared`).

The resources' headroom (:func:`advisor.recommend.host_count.headroom`: whole VMs of the profile
in the leftovers of the unconstrained placement) is an upper bound; under the constraints the room
for ``w`` is the most ``k`` up to it such that every step, 1 to ``k`` VMs more of ``w``, still
places on the active hosts by the host count's own constrained search
(:func:`advisor.recommend.placed_count.placed_active`). Every step, not only the ``k``-th: the
hosts that search needs are not monotone in the VMs (replicas over failure domains with a host to
survive: 7, 8, 9, 8, 9 hosts for 16 to 20 more), so a ``k`` that places says nothing of ``k - 1``.
The room is then a function of the design and the active hosts alone, whatever was searched
before, and it grows with the hosts (:mod:`advisor.optimize.settle` relies on both). An
anti-affinity group bounds it first: its VMs never share a host, so the group holds at most one VM
a host. The steps are searched once per design and kept in the advice's memo, so counts that share
a design (the optimizer's rows) share them. Each step is a search (its first fit grows the last
step's by the one VM more when that VM comes last in the placement order,
:func:`advisor.recommend.first_fit.growing`), so a workload is searched one VM at a time only as
far as the least share of a workload's VMs (that workload's room is exact: the optimizer's
headroom figure, :func:`least_share`) or :data:`STEPS` VMs more, whichever is more; a room that
reaches that limit is a lower bound, and the advice says so (:func:`at_least`; its
sentence and figure say "at least").

Each search places every workload, and each workload takes several, so the work grows with the square
of the workloads: beyond :data:`SEARCHED_WORKLOADS` workloads (an estate) the room is the resources'
bounded by the anti-affinity groups, and the advice says so (:func:`unsearched`). So is it in an
advice computed under :func:`bounded`, when its caller reads no room (the optimizer's count of
hosts a design's growth needs).
"""

from __future__ import annotations

import copy
import dataclasses
from bisect import bisect_right
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from advisor.recommend.base import EngineContext
from advisor.recommend.host_demand import Budgets, pin_vm_demand, vm_demand

#: the most workloads whose room the constrained search finds (100 took ~5 s of CPU, 300 ~50 s)
SEARCHED_WORKLOADS = 24
#: beyond the least share, the most VMs more of a workload whose steps the advice searches (each
#: step is a constrained search: 791 more VMs under "survive 2 hosts" took 18 s of CPU)
STEPS = 128
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


def constrained_room(ctx: EngineContext, active: int, budgets: Budgets,
                     room: dict[str, int]) -> tuple[dict[str, int], list[str]]:
    """(workload name -> the VMs more of it ``active`` hosts place under the constraints, each at
    most its resources' ``room``; the workloads whose figure is a lower bound) (see the module doc):
    the least share of a workload's VMs exact, each other workload searched as far as that share or
    :data:`STEPS` VMs more, whichever is more. A workload that reaches that limit, and whose next
    step is known to fit (one more search, so that the answer does not depend on the memo), has room
    for at least the VMs given (:func:`at_least` says so)."""
    got, cut = _rooms(ctx, active, budgets, room, STEPS)
    by_name = {w.name: w for w in ctx.scenario.workloads}  # cut short unless the next step is known not to fit
    return got, [n for n in cut if _steps_that_fit(ctx, budgets, by_name[n], active, got[n] + 1) > got[n]]


def least_share(ctx: EngineContext, active: int, budgets: Budgets, room: dict[str, int]) -> dict[str, int]:
    """:func:`constrained_room` searched no further than the least share (the optimizer's headroom
    figure): the least share's workload exact, every other at least that share of its VMs."""
    return _rooms(ctx, active, budgets, room, 0)[0]


def at_least(names: list[str]) -> str:
    """The caveat for the workloads whose room :func:`constrained_room` gives as a lower bound ("" if none)."""
    if not names:
        return ""
    return (f"room for more VMs is searched under the constraints one VM at a time, as far as the least share of a "
            f"workload's VMs or {STEPS} VMs more, whichever is more: {', '.join(names)} "
            f"{'has' if len(names) == 1 else 'have'} room for at least the VMs given")


def _rooms(ctx: EngineContext, active: int, budgets: Budgets, room: dict[str, int],
           steps: int) -> tuple[dict[str, int], list[str]]:
    """(workload -> VMs more, the workloads whose search stopped at its limit, not at a step that
    does not fit nor at the resources' room): the least share
    first (each workload searched no further than the least so far), then each workload as far as
    that share or ``steps`` VMs more, whichever is more."""
    bounds = {w.name: max(min(room.get(w.name, 0), _group_bound(ctx, w, active)), 0) for w in ctx.scenario.workloads}
    if unsearched(ctx.scenario) or _BOUNDED.get():
        return bounds, []
    least = (1 << 62, 1)  # (VMs more, VMs) of the least share so far
    for w in sorted(ctx.scenario.workloads, key=lambda w: bounds[w.name] / max(w.vms, 1)):
        vms = max(w.vms, 1)
        k = _steps_that_fit(ctx, budgets, w, active, min(bounds[w.name], -(-least[0] * vms // least[1])))
        if k * least[1] < least[0] * vms:
            least = (k, vms)
    out, short = {}, []
    for w in ctx.scenario.workloads:
        hi = min(bounds[w.name], max(steps, -(-least[0] * max(w.vms, 1) // least[1])))
        out[w.name] = _steps_that_fit(ctx, budgets, w, active, hi)
        if out[w.name] == hi < bounds[w.name]:
            short.append(w.name)
    return out, short


def _steps_that_fit(ctx: EngineContext, budgets: Budgets, w, active: int, hi: int) -> int:
    """The most ``k <= hi`` such that each step, 1 to ``k`` VMs more of ``w``, places on ``active``
    hosts: the steps' most hosts needed so far (a monotone list, kept per design) grow as far as
    ``hi`` or the first step that needs more than ``active``."""
    most = _most(ctx, budgets, w)  # most[k]: the most hosts any of the steps 0..k needs
    while len(most) <= hi and most[-1] <= active:
        most.append(max(most[-1], _needs(ctx, budgets, w, len(most))))
    return bisect_right(most, active, 0, min(hi + 1, len(most))) - 1


def _most(ctx: EngineContext, budgets: Budgets, w) -> list[int]:
    """The most hosts the steps 0..k of ``w`` need, per k searched so far in this design (0 more
    needs none of its own: the row's hosts place the scenario)."""
    return ctx.memo.setdefault(("room steps",) + _design(ctx, budgets, w), [0])


def _design(ctx: EngineContext, budgets: Budgets, w) -> tuple:
    """What a search of ``w``'s steps depends on beside the scenario: ``ctx``'s facts and ``budgets``."""
    f = ctx.facts
    return (w.name, f.overallocation_ratio, f.storage_backend, f.hypervisor, budgets)


def _known(ctx: EngineContext, budgets: Budgets, w) -> dict[int, int]:
    """The searches of ``w`` done so far in this design: VMs more -> active hosts needed."""
    return ctx.memo.setdefault(("room",) + _design(ctx, budgets, w), {})


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
        from advisor.recommend.first_fit import growing

        with growing(ctx.memo.setdefault(("room first fit",) + _design(ctx, budgets, w), {})):
            placed = placed_active(pctx, budgets)
        known[more] = 1 << 62 if placed.problems else placed.active
    return known[more]
