"""HA admission control as the platform applies it (#32, ``preferences.ha``): the active hosts its
policy needs for the VMs and the capacity it reserves, against plain N+x.

* ``slot`` (vSphere HA "host failures cluster tolerates"): the slot is the largest CPU and the
  largest memory reservation of any VM (a VM reserves what it is allocated: its cores of CPU
  allocation and its RAM with the 2 % overhead); a host holds min over the two of
  floor(host capacity / slot) slots; every powered-on VM takes one slot; the cluster must hold all
  VMs' slots after its ``tolerate_hosts`` hosts fail: hosts = ceil(VMs / slots per host) +
  tolerate. One large VM makes every slot large: the reserve is ``tolerate`` hosts of slots, and
  the small VMs strand the rest of their slots.
* ``percentage``: a share of the cluster's CPU and RAM is kept free (tolerate / hosts): hosts =
  the pooled need per resource + tolerate (rounded up), the reserve is tolerate hosts' worth.
* ``failover_hosts``: dedicated idle hosts: the placement's hosts + tolerate.
"""

from __future__ import annotations

import math

#: the resources admission control reserves (vSphere: CPU and memory reservations)
RESERVED = ("cpu_allocation", "ram")


def slot_size(profiles) -> dict[str, float]:
    """The largest reservation of any VM, per resource."""
    return {k: max((float(d.get(k, 0.0)) for _, d, n in profiles if n > 0), default=0.0) for k in RESERVED}


def slots_per_host(capacity: dict[str, float], slot: dict[str, float]) -> int:
    """Slots one host holds: min over the resources of floor(capacity / slot)."""
    per = [math.floor(capacity[k] / slot[k] + 1e-9) for k in RESERVED if slot[k] > 0]
    return int(min(per)) if per else 0


def admission(policy: str, tolerate: int, capacity: dict[str, float], profiles, placed: int) -> dict:
    """The hosts ``policy`` needs (``hosts``), what it reserves and the hosts plain N+tolerate
    (``placed`` + tolerate) would have: JSON-ready."""
    vms = sum(int(n) for _, _, n in profiles)
    out: dict = {"policy": policy, "tolerate_hosts": tolerate, "n_plus_hosts": placed + tolerate}
    if policy == "slot":
        slot = slot_size(profiles)
        per = slots_per_host(capacity, slot)
        hosts = (math.ceil(vms / per) + tolerate) if per else None
        out.update({"slot_size": {k: round(v, 4) for k, v in slot.items()}, "slots_per_host": per,
                    "slots_needed": vms, "failover_slots": tolerate * per,
                    "failover_capacity": {k: round(tolerate * per * slot[k], 4) for k in RESERVED}})
    elif policy == "percentage":
        pooled = max((sum(float(d.get(k, 0.0)) * n for _, d, n in profiles) / capacity[k] for k in RESERVED
                      if capacity.get(k, 0) > 0), default=0.0)
        hosts = max(1, math.ceil(pooled - 1e-9)) + tolerate
        out["reserved_percent"] = round(100.0 * tolerate / hosts, 2)
        out["reserved"] = {k: round(tolerate * capacity[k], 4) for k in RESERVED}
    else:  # failover_hosts
        hosts = placed + tolerate
        out["reserved"] = {k: round(tolerate * capacity[k], 4) for k in RESERVED}
    out["hosts"] = hosts
    out["reserved_hosts"] = None if hosts is None else max(0, hosts - placed)
    out["active_hosts"] = None if hosts is None else max(placed, hosts - tolerate)
    return out
