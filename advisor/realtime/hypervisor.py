"""Several VMs ``(T_VM, C_VM)`` on one physical core: the hypervisor level of thesis section 11.3.

Each VM is a periodic "task" of the hypervisor that must receive ``C_VM`` in every period ``T_VM``
(its deadline is the period), which is exactly the guarantee the analysis inside the VM assumed. The
overhead ``X`` of a VM's own start is already inside its ``C_VM``; when a VM is preempted by another
and resumed, the extra switch is not in the thesis' model, so ``preemption_cost`` (time units) can be
charged for every higher-priority VM job that may preempt it (fixed priorities only).

* ``"rm"``: rate-monotonic priorities, exact response-time test ``R_k = C_k + sum_{j<k}
  ceil(R_k / T_j) (C_j + preemption_cost) <= T_k``;
* ``"edf"``: EDF, exact for implicit deadlines: ``sum C_k / T_k <= 1``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from advisor.realtime.supply import REL_TOL
from knowledge.infra.errors import InputError


@dataclass(frozen=True)
class VmInterface:
    """A VM's guarantee: ``budget`` (``C_VM``) every ``period`` (``T_VM``), in one time unit."""

    name: str
    period: float
    budget: float

    @property
    def share(self) -> float:
        return self.budget / self.period


@dataclass(frozen=True)
class HypervisorResult:
    """Whether the VMs fit on one core; ``response_times`` per VM name (``None`` under EDF)."""

    policy: str
    schedulable: bool
    utilization: float
    response_times: dict[str, float | None] = field(default_factory=dict)
    reason: str | None = None

    def to_dict(self) -> dict:
        return {"policy": self.policy, "schedulable": self.schedulable, "utilization": self.utilization,
                "response_times": {k: (None if v is None or not math.isfinite(v) else v)
                                   for k, v in self.response_times.items()},
                "reason": self.reason}


def check_hypervisor(vms: Sequence[VmInterface], policy: str = "rm",
                     preemption_cost: float = 0.0) -> HypervisorResult:
    """Do the VMs fit on one core under ``policy`` (``"rm"`` or ``"edf"``)? Times in one unit."""
    if policy not in ("rm", "edf"):
        raise InputError(f"hypervisor policy {policy!r}: use rm or edf")
    if not vms:
        return HypervisorResult(policy, True, 0.0)
    for vm in vms:
        if not (vm.period > 0 and 0 < vm.budget <= vm.period):
            raise InputError(f"VM {vm.name!r}: need 0 < budget <= period, got {vm.budget!r} / {vm.period!r}")
    if preemption_cost < 0:
        raise InputError("preemption cost must be non-negative")
    util = math.fsum(vm.share for vm in vms)
    if policy == "edf":
        ok = util <= 1 + REL_TOL
        return HypervisorResult(policy, ok, util, {vm.name: None for vm in vms},
                                None if ok else f"utilization {util:.6g} exceeds 1")
    ordered = sorted(vms, key=lambda v: v.period)
    times: dict[str, float] = {}
    failed = None
    for k, vm in enumerate(ordered):
        hp = ordered[:k]
        r = vm.budget + math.fsum(v.budget + preemption_cost for v in hp)
        while True:
            nxt = vm.budget + math.fsum(
                math.ceil(r / v.period - REL_TOL) * (v.budget + preemption_cost) for v in hp)
            if nxt <= r * (1 + REL_TOL) or nxt > vm.period * (1 + REL_TOL):
                r = max(r, nxt)
                break
            r = nxt
        times[vm.name] = r if r <= vm.period * (1 + REL_TOL) else math.inf
        if failed is None and not math.isfinite(times[vm.name]):
            failed = vm.name
    ok = failed is None
    return HypervisorResult(policy, ok, util, {vm.name: times[vm.name] for vm in vms},
                            None if ok else f"VM {failed!r} does not get its budget within its period "
                                            f"under rate-monotonic priorities (utilization {util:.6g})")
