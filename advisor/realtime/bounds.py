"""The thesis' prediction model (section 11.8.2) and the no-overhead period bound (section 11.7).

Three straight lines in the plane (``T_VM``, max ``R_i / T_i``):

* **left bound** (Equation (7)): ``(C_VM - X) / T_VM >= U`` with ``C_VM = s T_VM`` gives
  ``T_VM >= X / (s - U)``; to the left the VM's useful share is below the task set's utilization;
* **lower bound** (Equation (8)): ``R_1 / T_1 >= (2 (T_VM - C_VM) + X + C_1) / T_1``, a line with slope
  ``2 (1 - s) / T_1`` (per time unit) and offset ``(C_1 + X) / T_1``, for the highest-priority task;
* **schedulability limit**: the horizontal line at 1.

Schedulable periods can only lie between the left bound and the point where the lower bound crosses 1,
``T_VM = (T_1 - C_1 - X) / (2 (1 - s))``; if that point lies left of the left bound, no period works.
With constrained deadlines, ``D_1`` takes the place of ``T_1`` (the bound holds for ``R_1 / D_1``).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class PredictionBounds:
    """The three lines of section 11.8.2 for one share and overhead (times in task-set units)."""

    share: float
    overhead: float
    utilization: float
    reference_task: str
    reference_deadline: float
    reference_wcet: float
    left_bound: float | None
    lower_bound_slope: float
    lower_bound_offset: float
    upper_limit: float
    schedulability_limit: float = 1.0

    @property
    def predicted_interval(self) -> tuple[float, float] | None:
        """``(left bound, upper limit)``, the only place schedulable periods can be; ``None`` if empty."""
        if self.left_bound is None or self.upper_limit < self.left_bound:
            return None
        return (self.left_bound, self.upper_limit)

    def lower_bound(self, vm_period: float) -> float:
        """Equation (8) at ``vm_period``: a lower bound on max ``R_i / D_i`` (dimensionless)."""
        return self.lower_bound_slope * vm_period + self.lower_bound_offset

    def useful_share(self, vm_period: float) -> float:
        """Left side of Equation (7), ``(s T_VM - X) / T_VM`` (dimensionless)."""
        return (self.share * vm_period - self.overhead) / vm_period

    def to_dict(self) -> dict:
        out = asdict(self)
        out["predicted_interval"] = list(self.predicted_interval) if self.predicted_interval else None
        return out


def prediction_bounds(share: float, overhead: float, utilization: float, reference_task: str,
                      reference_deadline: float, reference_wcet: float) -> PredictionBounds:
    """The prediction model for share ``s = C_VM / T_VM``, overhead ``X`` and utilization ``U``;
    the reference task is the highest-priority one (``T_1``/``D_1`` and ``C_1``, time units)."""
    s, x, u = share, overhead, utilization
    if s > u:
        left = x / (s - u)
    elif s >= 1 and x == 0 and u <= 1:
        left = 0.0
    else:
        left = None
    slope = 2 * (1 - s) / reference_deadline
    offset = (reference_wcet + x) / reference_deadline
    upper = math.inf if s >= 1 else (reference_deadline - reference_wcet - x) / (2 * (1 - s))
    return PredictionBounds(s, x, u, reference_task, reference_deadline, reference_wcet, left, slope,
                            offset, upper)


def no_overhead_period_bound(share: float) -> float:
    """Upper bound on ``T_VM / T_1`` without overhead (section 11.7, Figure 11.2): the VM may wait
    ``2 (T_VM - C_VM)`` before it runs, which must stay below ``T_1``: ``T_VM / T_1 < 1 / (2 (1 - s))``."""
    return math.inf if share >= 1 else 1.0 / (2.0 * (1.0 - share))
