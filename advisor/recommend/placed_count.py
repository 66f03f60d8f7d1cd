"""The fewest active hosts that place every VM whole under the scenario's constraints, before the
targets: the host count's own steps (pooled bound, first-fit placement, the hosts live migration
needs, the placement constraints, failures to survive and HA admission of
:func:`advisor.recommend.placement_plan.constrain`) and the hard limits no count meets. The
optimizer reads it per design and the growth timeline per year (one search, one number)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from advisor.recommend.base import EngineContext
from advisor.recommend.host_demand import HARD, Budgets, _needed, _pack, placement_profiles, pooled_hosts
from advisor.recommend.host_limits import _oversize
from advisor.recommend.packing import Packing
from advisor.recommend.placement_plan import Constrained, constrain


@dataclass
class Placed:
    """The active hosts the placement needs, the unconstrained packing, the hard limits no count
    meets, the constrained placement (None: no constraint declared) and the per-host capacity."""

    active: int
    packing: Packing
    problems: list[str]
    constrained: Constrained | None
    cap: dict[str, float]

    @property
    def binding(self) -> str:
        """What sets the count: a constraint when it raises the count over the resources' packing, else ''."""
        c = self.constrained
        return c.binding if c is not None and c.active > c.unconstrained else ""


def placed_active(ctx: EngineContext, budgets: Budgets) -> Placed:
    """The fewest active hosts that place every VM whole (see the module doc)."""
    sc = ctx.scenario
    need, cap, _ = _needed(ctx, budgets)
    profiles = placement_profiles(ctx, cap, budgets)
    packing = _pack(ctx, cap, budgets, profiles)
    problems = [k for k in HARD if not math.isfinite(need[k])]
    problems += _oversize(ctx, cap, packing, budgets)
    active = max(pooled_hosts(ctx, cap, budgets, profiles), packing.hosts, max(1, budgets.min_hosts - sc.hosts.reserve))
    constrained = None if problems else constrain(ctx, cap, budgets, packing.hosts, profiles)  # constraints (#32)
    if constrained is not None:
        active, problems = max(active, constrained.active), problems + constrained.problems
    return Placed(active, packing, problems, constrained, cap)
