"""The placement under constraints (#32) as plain values for the report templates and the GUI's
placement table: one row per host (host, failure domain, VMs per workload), the counts and the
binding constraint, and the HA admission policy's reserve."""

from __future__ import annotations

#: the placement table's columns (report and GUI)
COLUMNS = ("host", "domain", "VMs")


def placement_data(advice) -> dict | None:
    """None when the host count placed under no constraint."""
    rec = advice.find("host_count")
    return placement_of((rec.details or {}) if rec is not None else {})


def placement_of(details: dict) -> dict | None:
    """:func:`placement_data` of the host count's ``details``."""
    hosts = details.get("placement_by_host")
    if not hosts:
        return None
    c = details.get("constraints") or {}
    headline = (f"{len(hosts)} active hosts under the constraints (unconstrained packing: "
                f"{c.get('hosts_unconstrained')}); binding: {c.get('binding', '').replace('_', ' ')}")
    ha = details.get("ha")
    ha_text = ""
    if ha:
        ha_text = (f"HA admission ({ha['policy']}, tolerating {ha['tolerate_hosts']} host failure(s)): "
                   f"{ha['hosts']} hosts, {ha['reserved_hosts']} more than the placement; plain "
                   f"N+{ha['tolerate_hosts']}: {ha['n_plus_hosts']}")
        if ha["policy"] == "slot":
            ha_text += (f"; slot {ha['slot_size']['cpu_allocation']:g} cores / {ha['slot_size']['ram']:g} GiB, "
                        f"{ha['slots_per_host']} slots per host")
    rows = [{"host": h["host"], "domain": h["domain"] or "—", "vms": _vms_text(h) or "(spare)"} for h in hosts]
    return {"headline": headline, "ha": ha_text, "rows": rows}


def _vms_text(host: dict) -> str:
    """A host's VMs per workload, a workload of several VM shapes with its shapes there:
    ``erp 35 (16 of 4 vCPU, 19 of 3), web 2``."""
    shapes = host.get("vm_shapes") or {}
    return ", ".join(f"{w} {n}" + (" (" + ", ".join(f"{k} of {v}" + (" vCPU" if i == 0 else "")
                                                     for i, (k, v) in enumerate(shapes[w])) + ")"
                                   if w in shapes else "")
                     for w, n in host["vms"].items())
