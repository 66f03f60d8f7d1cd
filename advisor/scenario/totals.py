"""Workloads given as totals (``total_vcpus``, ``total_ram_gib``, ``total_storage_tb``): how the
reader (:mod:`advisor.scenario.reader`) sizes each as VMs (:func:`size_totals`) and what the
advice says of them (:func:`totals_text`; the host count card says it).

**Sizing.** The fewest VMs no larger than the typical VM (``vcpus`` / ``ram_gib``, default 4 vCPU /
16 GiB) that hold every total, as a sizing consultant counts them: as many as the binding total
needs of typical VMs (the vCPU total at the typical vCPUs, the RAM total at the typical RAM,
rounded up; the larger). The vCPU total is spread over those VMs in whole vCPUs, some VMs one vCPU
fewer (``fewer``), RAM and storage evenly, so every total is exact (without a RAM total a VM has
the typical VM's RAM per vCPU). The VM count is therefore a rounded-up ratio of the totals: it
never falls when a total grows and rises by one VM per typical VM's worth, never jumps with
divisibility. 400 / 401 / 402 vCPUs with 2,048 GiB are 128 VMs of 16 GiB each (RAM binds;
400: 16 of 4 vCPU and 112 of 3); 401 vCPUs with 1,600 GiB are 101 VMs of 4 vCPU, 3 of them 3;
2,000 vCPUs and 16,384 GiB are 1,024 VMs of 2 vCPU (48 of them 1) / 16 GiB. Only when even one
vCPU a VM is more than the vCPU total (many VMs' RAM, few vCPUs) do the VMs hold more vCPUs than
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


def _vcpu_split(total_vcpus: int, by_ram: int, vcpus: int) -> tuple[int, int]:
    """(VMs, vCPUs a VM) for a vCPU total: the fewest VMs no larger than the typical VM that hold
    both totals (``by_ram`` for the RAM total, the vCPU total at ``vcpus`` a VM), with the whole
    vCPUs a VM that hold the vCPU total over them (the caller spreads it exactly, some VMs one vCPU
    fewer). So the count never falls as a total grows: 400 / 401 / 402 vCPUs with 2,048 GiB are
    128 VMs each (RAM binds), 1,600 GiB 100 / 101 / 101 VMs."""
    n = max(by_ram, math.ceil(total_vcpus / max(vcpus, 1) - 1e-9))
    return n, max(1, math.ceil(total_vcpus / n - 1e-9))


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
            fewer = "".join(f" ({k:,} of them {v})" for k, v in w.vm_shapes[1:])
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
