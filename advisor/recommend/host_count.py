"""``host_count``: how many hosts the workloads need, the bottleneck, and the headroom.

Hosts needed (active, before the N+x reserve) is the largest of:

* ``cpu_allocation``: vCPUs over physical cores through the chosen over-allocation ratio
  (vCPUs per physical core; hardware threads are not counted as cores; real-time VMs' vCPUs
  are pinned 1:1);
* ``cpu_load``: busy cores (vCPUs x a busy share per CPU intensity: low 0.2, medium 0.5,
  high 0.9 — an assumption) over physical cores x the planned utilization ceiling
  (``preferences.max_host_cpu_percent``, default 80 %, near the 82 % ceiling of doc 004 ch. 6);
* ``ram``: guest RAM (+ 2 % overhead per VM) over host RAM less the hypervisor's share
  (max(4 GiB, 5 %)), times ``preferences.ram_overcommit`` (1.0 = no over-commit);
* ``disk_capacity`` and ``disk_iops`` on local disks (when images stay local): virtual disk
  sizes against 90 % of the local capacity; IOPS per VM (given, or 50/200/1000 by I/O
  intensity) against the disks' IOPS (site figures when calibrated, else per-kind defaults:
  HDD 150, SSD 50,000, NVMe 300,000 per disk);
* ``network``: shared-storage traffic (IOPS x block size) over 70 % of the host NIC.

``utilization_<resource>`` is the share (%) of the *usable* capacity (80 % CPU ceiling, 90 % of
the disks, 70 % of the NIC) the workloads take on the recommended active hosts. Images on shared
storage are checked against its stated capacity (a warning, not a host count).

Then the reserve is added. Headroom: for each workload profile, how many more VMs of it fit on
the recommended active hosts before any resource runs out.
"""

from __future__ import annotations

import math

from advisor.recommend.base import Alternative, EngineContext, Recommendation, figure
from advisor.rules import evaluate

DECISION = "host_count"
BUSY = {"low": 0.2, "medium": 0.5, "high": 0.9}
IOPS_PER_VM = {"low": 50.0, "medium": 200.0, "high": 1000.0}
DISK_IOPS = {"hdd": 150.0, "ssd": 50_000.0, "nvme": 300_000.0}
VM_RAM_OVERHEAD = 0.02
NIC_USABLE = 0.7
DISK_USABLE = 0.9


def host_capacity(ctx: EngineContext) -> dict[str, float]:
    """What one host offers, per resource, in the units of :func:`demand`."""
    sc = ctx.scenario
    h = sc.hosts
    ram = (h.ram_gib - max(4.0, 0.05 * h.ram_gib)) * sc.preferences.ram_overcommit
    iops = 0.0
    site_iops = getattr(ctx.calibration, "rand_iops", None) if ctx.calibration else None
    for d in h.disks:
        per = d.iops or (site_iops if site_iops and d.kind != "hdd" else None) or DISK_IOPS[d.kind]
        iops += per * d.count
    return {"cpu_allocation": float(h.cpu.cores),
            "cpu_load": h.cpu.cores * sc.preferences.max_host_cpu_percent / 100.0,
            "ram": max(ram, 0.1), "disk_capacity": sum(d.size_gb * d.count for d in h.disks) * DISK_USABLE,
            "disk_iops": iops, "network": h.nic_gbps * 125.0 * NIC_USABLE}


def vm_demand(ctx: EngineContext, w) -> dict[str, float]:
    """One VM of workload ``w``: cores allocated (vCPUs / over-allocation ratio; real-time vCPUs
    pinned 1:1), busy cores, GiB RAM, GB disk, IOPS, MB/s of storage traffic."""
    ratio = ctx.facts.overallocation_ratio or 1.0
    local = (ctx.facts.storage_backend or "local_disk") == "local_disk"
    iops = w.io.iops if w.io.iops is not None else IOPS_PER_VM[w.io.intensity]
    disk = w.io.disk_gb or w.image_gb or w.io.footprint_gb or 20.0
    rt = w.realtime is not None
    return {"cpu_allocation": float(w.vcpus) if rt else w.vcpus / ratio,
            "cpu_load": w.vcpus * (1.0 if rt else BUSY[w.cpu_intensity]),
            "ram": w.ram_gib * (1 + VM_RAM_OVERHEAD), "disk_capacity": disk if local else 0.0,
            "disk_iops": iops if local else 0.0,
            "network": 0.0 if local else iops * w.io.block_size_kib * 1024 / 1e6}


def _needed(ctx: EngineContext) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    cap = host_capacity(ctx)
    total = dict.fromkeys(cap, 0.0)
    for w in ctx.scenario.workloads:
        for k, v in vm_demand(ctx, w).items():
            total[k] += v * w.vms
    need = {}
    for k in cap:
        need[k] = total[k] / cap[k] if cap[k] > 0 else (math.inf if total[k] > 0 else 0.0)
    return need, cap, total


UNITS = {"cpu_allocation": "cores", "cpu_load": "cores", "ram": "GiB", "disk_capacity": "GB",
         "disk_iops": "IOPS", "network": "MB/s"}


def headroom(ctx: EngineContext, active: int) -> dict[str, int]:
    """Workload name -> how many more VMs of its profile fit on ``active`` hosts."""
    need, cap, total = _needed(ctx)
    free = {k: active * cap[k] - total[k] for k in cap}
    out = {}
    for w in ctx.scenario.workloads:
        d = vm_demand(ctx, w)
        fits = [math.inf]
        for k in cap:
            if d[k] > 0:
                fits.append(math.floor(free[k] / d[k] + 1e-9))
        n = min(fits)
        out[w.name] = max(0, int(n)) if math.isfinite(n) else 0
    return out


def _shared_capacity(ctx: EngineContext) -> str:
    """A warning when the images on shared storage exceed its stated capacity, else ''."""
    backend = ctx.facts.storage_backend or "local_disk"
    kind = {"nfs_file": "nfs", "nfs_root": "nfs", "iscsi": "iscsi", "distributed": "distributed"}.get(backend)
    caps = [s.capacity_tb for s in ctx.scenario.hosts.shared_storage if s.kind == kind and s.capacity_tb]
    if not caps:
        return ""
    need_gb = sum(w.vms * (w.io.disk_gb or w.image_gb or w.io.footprint_gb or 20.0) for w in ctx.scenario.workloads)
    if need_gb <= max(caps) * 1000 * DISK_USABLE:
        return ""
    return (f"the virtual disks need {need_gb / 1000:.3g} TB but the {kind} storage offers {max(caps):g} TB "
            f"({DISK_USABLE:.0%} usable)")


def recommend(ctx: EngineContext) -> list[Recommendation]:
    """The host count (choice and ``value``), with per-resource needs, bottleneck and headroom;
    updates ``ctx.facts`` to the recommended active hosts."""
    sc = ctx.scenario
    need, cap, total = _needed(ctx)
    bottleneck = max(need, key=lambda k: need[k])
    if not math.isfinite(need[bottleneck]):
        active = sc.hosts.count - sc.hosts.reserve
        infeasible = f"the hosts have no {bottleneck.replace('_', ' ')} for the workloads"
    else:
        active = max(1, math.ceil(need[bottleneck] - 1e-9))
        infeasible = ""
    hosts = active + sc.hosts.reserve
    outcome = evaluate(DECISION, ctx.rule_ctx(), [str(hosts)])
    room = headroom(ctx, active)
    expected = {"hosts": figure(hosts, "hosts"), "active_hosts": figure(active, "hosts"),
                "reserve_hosts": figure(sc.hosts.reserve, "hosts")}
    for k, v in need.items():
        if math.isfinite(v):
            expected[f"hosts_for_{k}"] = figure(v, "hosts")
            expected[f"utilization_{k}"] = figure(100.0 * v / active, "% of usable")
    ratio = ctx.facts.overallocation_ratio or 1.0
    planned = sc.hosts.count
    shared_warning = _shared_capacity(ctx)
    alternatives = []
    if planned != hosts:
        p_active = planned - sc.hosts.reserve
        why = (f"too few: {bottleneck.replace('_', ' ')} needs {need[bottleneck]:.2f} active hosts"
               if planned < hosts else f"{planned - hosts} more than needed; utilization of "
               f"{bottleneck.replace('_', ' ')} would be {100 * need[bottleneck] / max(p_active, 1):.0f} %")
        alternatives.append(Alternative(str(planned), -1.0, {"hosts": figure(planned, "hosts")},
                                        f"the planned count: {why}"))
    alternatives.append(Alternative(str(hosts + 1), -0.5, {"hosts": figure(hosts + 1, "hosts")},
                                    "one more host than the workloads and the reserve need"))
    rationale = (f"{hosts} hosts: {active} active for the workloads plus {sc.hosts.reserve} kept free "
                 f"(N+{sc.hosts.reserve}). The bottleneck is {bottleneck.replace('_', ' ')} "
                 f"({need[bottleneck]:.2f} hosts' worth). CPU counts physical cores ({sc.hosts.cpu.cores} per "
                 f"host, threads not counted) at {ratio:g} vCPUs per core; RAM is "
                 f"{'not over-committed' if sc.preferences.ram_overcommit == 1 else f'over-committed {sc.preferences.ram_overcommit:g}x'}."
                 + (f" {infeasible}." if infeasible else ""))
    text = " ".join(r.text for r in outcome.fired)
    rec = Recommendation(
        decision=DECISION, scope="cluster", choice=str(hosts), value=float(hosts), alternatives=alternatives,
        expected=expected, confidence=0.8 if not infeasible else 0.2, rationale=f"{rationale} {text}".strip(),
        citations=ctx.cites.for_rules(outcome.fired), rules=[r.id for r in outcome.fired],
        warnings=list(dict.fromkeys(outcome.warnings)) + [w for w in (infeasible, shared_warning) if w])
    rec.details = {"bottleneck": bottleneck, "hosts_needed": {k: round(v, 3) for k, v in need.items()
                                                              if math.isfinite(v)},
                   "per_host_capacity": {k: round(v, 3) for k, v in cap.items()},
                   "demand": {k: round(v, 3) for k, v in total.items()}, "units": UNITS,
                   "headroom_vms": room, "reserve": sc.hosts.reserve,
                   "assumptions": ["vCPUs count against physical cores, not hardware threads",
                                   "busy share per vCPU: low 0.2, medium 0.5, high 0.9",
                                   "IOPS per VM when not given: low 50, medium 200, high 1000",
                                   "per-disk IOPS when not given or calibrated: HDD 150, SSD 50000, NVMe 300000",
                                   "hypervisor keeps max(4 GiB, 5 %) of host RAM; 2 % RAM overhead per VM",
                                   "90 % of local disk capacity and 70 % of the NIC are usable"]}
    ctx.chosen["host_count"] = hosts
    ctx.facts.set_hosts(sc, active)
    return [rec]
