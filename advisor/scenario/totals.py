"""Workloads given as totals (``total_vcpus``, ``total_ram_gib``, ``total_storage_tb``): how the
reader (:mod:`advisor.scenario.reader`) sizes each as VMs (:func:`size_totals`) and what the
advice says of them (:func:`totals_text`; the host count card says it).

**Sizing.** Every total is kept exactly and no VM is larger than the typical VM (``vcpus`` /
``ram_gib``, default 4 vCPU / 16 GiB): the VMs get ``v`` whole vCPUs (1 to the typical VM's), as
many VMs as the vCPU total needs at ``v`` and at least as many as the RAM total needs of typical
VMs. The VM count is that of the binding total at the typical VM when the fewest whole vCPUs a VM
that hold the vCPU total come within 1 % of it; the vCPU total is then spread over those VMs in
whole vCPUs, some VMs one vCPU fewer (401 vCPUs: 101 VMs, 98 of 4 vCPU and 3 of 3, exactly 401;
``fewer``), so one vCPU more does not change the VMs fourfold. Else ``v`` is the one whose vCPUs
come nearest the total (exact when it divides it; the most vCPUs per VM among equals). RAM and
storage are shared evenly, so their totals are exact (without a RAM total a VM has the typical VM's
RAM per vCPU). 2,000 vCPUs and 16,384 GiB are 2,000 VMs of 1 vCPU / 8.19 GiB (1,024 typical VMs
would hold 4,096 vCPUs); 400 vCPUs and 2,048 GiB are 200 VMs of 2 vCPU / 10.24 GiB. Only when even
one vCPU a VM is more than the vCPU total (many VMs' RAM, few vCPUs) do the VMs hold more vCPUs than
asked, and the text says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from advisor.scenario.model import Scenario


@dataclass(frozen=True)
class Sized:
    """A workload given as totals as the VMs it is sized as (``disk_gb``: None without a storage
    total), and the typical VM they are at most."""

    vms: int
    vcpus: int
    ram_gib: float
    disk_gb: float | None
    typical_vcpus: int
    typical_ram_gib: float
    fewer: int = 0  # VMs of one vCPU fewer than ``vcpus`` (the vCPU total spread exactly)


def size_totals(total_vcpus: int | None, total_ram_gib: float | None, total_storage_tb: float | None,
                vcpus: int, ram_gib: float) -> Sized:
    """The VMs that hold the totals exactly, none larger than the typical VM of ``vcpus`` /
    ``ram_gib`` (see the module doc; a storage total alone is refused by the reader)."""
    by_ram = max(1, math.ceil(total_ram_gib / ram_gib - 1e-9)) if total_ram_gib is not None else 1
    fewer = 0
    if total_vcpus is None:
        n, v = by_ram, vcpus
    else:
        n, v = _vcpu_split(total_vcpus, by_ram, vcpus)
        fewer = min(max(n * v - total_vcpus, 0), n - 1) if v > 1 else 0
    # without a RAM total a VM keeps the typical VM's RAM per vCPU
    ram = total_ram_gib / n if total_ram_gib is not None else ram_gib * v / max(vcpus, 1)
    return Sized(n, v, ram, total_storage_tb * 1000.0 / n if total_storage_tb is not None else None, vcpus, ram_gib,
                 fewer)


#: how far above the total (a share of it) the whole vCPUs of the typical count may reach for that count
#: to be kept; the VMs then spread the total exactly, some one vCPU fewer (#31 review 3)
SURPLUS_SHARE = 0.01


def _vcpu_split(total_vcpus: int, by_ram: int, vcpus: int) -> tuple[int, int]:
    """(VMs, vCPUs a VM) for a vCPU total: the VMs the binding total needs at the typical shape
    (``n0``), with the whole vCPUs a VM that hold the total, when that is within
    :data:`SURPLUS_SHARE` of it (the caller spreads the total over them exactly). So 400 / 401 / 402
    vCPUs are 100 / 101 / 101 VMs of at most 4 (not 401 VMs of 1 because 401 is prime). Else (few
    vCPUs for many VMs' RAM) the split whose whole vCPUs come nearest the total."""
    n0 = max(by_ram, math.ceil(total_vcpus / max(vcpus, 1) - 1e-9))
    v0 = max(1, math.ceil(total_vcpus / n0 - 1e-9))
    if n0 * v0 - total_vcpus <= SURPLUS_SHARE * total_vcpus:
        return n0, v0

    def count(per_vm: int) -> int:
        return max(by_ram, math.ceil(total_vcpus / per_vm - 1e-9))

    v = min(range(1, max(vcpus, 1) + 1), key=lambda per_vm: (count(per_vm) * per_vm - total_vcpus, -per_vm))
    return count(v), v


def totals_text(sc: Scenario) -> str:
    """What the advice says of the workloads given as totals (empty when none is)."""
    parts = []
    for w in sc.workloads:
        if w.from_totals:
            given = ", ".join(f"{num(value)} {label}" for label, value in (
                ("vCPUs", w.total_vcpus), ("GiB RAM", w.total_ram_gib), ("TB", w.total_storage_tb))
                if value is not None)
            typical = w.typical or (w.vcpus, w.ram_gib)
            held = w.all_vcpus
            fewer = f" ({w.fewer_vcpu_vms:,} of them {w.vcpus - 1})" if w.fewer_vcpu_vms else ""
            text = (f"{w.name} (totals: {given}) is sized as {w.vms:,} VMs of {w.vcpus} vCPU{fewer} / "
                    f"{num(w.ram_gib)} GiB"
                    + (f" / {num(w.io.disk_gb or 0)} GB disk" if w.total_storage_tb else "")
                    + f" (none larger than the typical VM of {typical[0]} vCPU / {num(typical[1])} GiB; "
                    + ("each total exact" if w.total_vcpus is None or held == w.total_vcpus else
                       f"{held:,} vCPUs: one whole vCPU a VM at least" if w.vcpus == 1 else
                       f"{held:,} vCPUs, {held - w.total_vcpus:,} more than the total: "
                       f"whole vCPUs a VM") + ")")
            parts.append(text)
    return ("Given as totals: " + "; ".join(parts) + ".") if parts else ""


def num(x: float) -> str:
    """A figure of the text: thousands separated, at most 4 significant digits below 1000."""
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.4g}"
