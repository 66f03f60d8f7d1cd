"""What the advice says of the workloads given as totals (``total_vcpus``, ``total_ram_gib``,
``total_storage_tb``): the reader (:mod:`advisor.scenario.reader`) sizes each as typical VMs; the
host count card says how many."""

from __future__ import annotations

from advisor.scenario.model import Scenario


def totals_text(sc: Scenario) -> str:
    """What the advice says of the workloads given as totals (empty when none is)."""
    parts = []
    for w in sc.workloads:
        if w.from_totals:
            given = ", ".join(f"{num(value)} {label}" for label, value in (
                ("vCPUs", w.total_vcpus), ("GiB RAM", w.total_ram_gib), ("TB", w.total_storage_tb))
                if value is not None)
            parts.append(f"{w.name} (totals: {given}) is sized as {w.vms:,} typical VMs of {w.vcpus} vCPU / "
                         f"{w.ram_gib:g} GiB" + (f" / {num(w.io.disk_gb or 0)} GB disk" if w.total_storage_tb else ""))
    return ("Given as totals: " + "; ".join(parts) + ".") if parts else ""


def num(x: float) -> str:
    """A figure of the text: thousands separated, at most 4 significant digits below 1000."""
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.4g}"
