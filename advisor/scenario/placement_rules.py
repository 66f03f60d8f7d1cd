"""Placement constraints that contradict each other (#32 follow-ups): refused when the scenario is
read, naming the field, instead of a general "no host count places every VM" in the advice.

An affinity unit (a workload with ``affinity: true``, or every workload of one affinity group) is
placed on one host, so it cannot also hold

* two VMs of a workload with ``anti_affinity: true`` (no two of its VMs share a host);
* two VMs of one anti-affinity group (at most one VM of the group per host);
* two VMs of a workload with ``replication_factor`` > 1 (its replicas never share a host);
* more RAM than a host has (the engine's usable RAM is smaller still: a unit between the two is
  named by the advice's warning).
"""

from __future__ import annotations

from advisor.scenario.model import Hosts, Workload
from knowledge.infra.reader import Problems
from knowledge.infra.reader import num as _num


def _units(workloads: list[Workload]) -> dict[str, list[int]]:
    """Affinity unit -> indices of its workloads (a workload's own unit is keyed by its index)."""
    units: dict[str, list[int]] = {}
    for i, w in enumerate(workloads):
        if w.affinity:
            units.setdefault(w.affinity if isinstance(w.affinity, str) else f"\0{i}", []).append(i)
    return units


def _own(workloads: list[Workload], i: int, what: str, pr: Problems) -> None:
    """A workload whose own constraints keep the VMs the unit puts together apart."""
    w = workloads[i]
    if w.vms < 2:
        return
    if w.anti_affinity is True:
        pr.add(f"workloads[{i}].affinity", f"{what} keeps the {w.vms} VMs of {w.name!r} on one host, but "
                                           f"workloads[{i}].anti_affinity: true puts each on a host of its own")
    rf = w.replication_factor or 0
    if rf > 1:
        pr.add(f"workloads[{i}].affinity", f"{what} keeps the {w.vms} VMs of {w.name!r} on one host, but "
                                           f"workloads[{i}].replication_factor {rf} keeps its replicas on "
                                           f"different hosts")


def _groups(workloads: list[Workload], members: list[int], what: str, pr: Problems) -> None:
    """Two or more VMs of one anti-affinity group inside the unit."""
    anti: dict[str, list[int]] = {}
    for i in members:
        g = workloads[i].anti_affinity
        if isinstance(g, str) and g:
            anti.setdefault(g, []).append(i)
    for g, ids in anti.items():
        vms = sum(workloads[i].vms for i in ids)
        if vms > 1:
            names = ", ".join(f"workloads[{i}] ({workloads[i].name})" for i in ids)
            pr.add(f"workloads[{ids[0]}].affinity", f"{what} keeps {vms} VMs of anti-affinity group {g!r} on one "
                                                    f"host ({names}), but that group allows one VM per host")


def check_constraints(workloads: list[Workload], hosts: Hosts, overcommit: float | None, pr: Problems) -> None:
    """Every affinity unit that contradicts an anti-affinity, a replication factor or a host's RAM
    (times ``overcommit``, ``preferences.ram_overcommit``; None: no hosts given, no RAM check)."""
    for key, members in _units(workloads).items():
        what = "affinity: true" if key.startswith("\0") else f"affinity group {key!r}"
        for i in members:
            _own(workloads, i, what, pr)
        _groups(workloads, members, what, pr)
        vms = sum(workloads[i].vms for i in members)
        ram = sum(workloads[i].vms * workloads[i].ram_gib for i in members)
        if overcommit is not None and vms > 1 and ram > hosts.ram_gib * overcommit:
            over = f" at RAM over-commit {overcommit:g}x (preferences.ram_overcommit)" if overcommit != 1 else ""
            pr.add(f"workloads[{members[0]}].affinity",
                   f"{what} keeps {vms} VMs with {_num(ram)} GiB of RAM together on one host, more than a host's "
                   f"{_num(hosts.ram_gib)} GiB (hosts.ram_gib){over}")
