"""What the plan delivers where the hosts fall short, for the host count: VMs no host fits, shared
storage against its stated capacity, link and IOPS (cluster-wide; more hosts do not make the
storage faster), soft limits on the busiest host (CPU load, IOPS, storage traffic: slow, not
impossible; a warning with the expected host CPU, the share of the IOPS or MB/s each VM gets and
the boot time there) and the page cache left for I/O-intensive VMs (doc 001 C6).
"""

from __future__ import annotations

from advisor.hardware import SHARED_KIND
from advisor.recommend.base import EngineContext, figure
from advisor.recommend.host_demand import (
    CPU_CEILING_ROW,
    DISK_USABLE,
    EPS,
    LABELS,
    MB_S_PER_GBPS,
    NIC_USABLE,
    NO_BUDGETS,
    PAGE_CACHE_GIB,
    SOFT,
    UNITS,
    VM_RAM_OVERHEAD,
    Budgets,
    _disk_gb,
    _iops,
    _num,
    hypervisor_reserve_gib,
    planned_cpu_percent,
    shape_demands,
)
from advisor.recommend.load import host_cpu_demand_pct, request_driven
from advisor.recommend.packing import Packing
from advisor.statements import statement


def _oversize(ctx: EngineContext, cap: dict[str, float], packing: Packing, budgets: Budgets = NO_BUDGETS
              ) -> list[str]:
    """One message per workload whose VM fits no host, naming the resources and figures."""
    cap_note = {"cpu_allocation": "physical cores",
                "cpu_load": f"{budgets.cpu_ceiling(planned_cpu_percent(ctx.scenario)):g} % of its "
                            "physical cores",
                "ram": "host RAM less the hypervisor's 0.5 GiB + 3 %"
                       + (f", over-committed {ctx.scenario.preferences.ram_overcommit:g}x"
                          if ctx.scenario.preferences.ram_overcommit != 1 else ""),
                "disk_capacity": f"{DISK_USABLE * 100:.0f} % of its local disks", "disk_iops": "its local disks",
                "network": f"{NIC_USABLE * 100:.0f} % of its NIC"}
    out = []
    shapes = _shapes(ctx, budgets) if packing.unplaced else {}
    for key, resources in packing.unplaced.items():
        name, d, _ = shapes[key]
        parts = [f"{LABELS[k]} {_num(d[k])} {UNITS[k]} against {_num(cap[k])} {UNITS[k]} per host ({cap_note[k]})"
                 for k in resources if cap[k] > 0]  # resources the hosts lack entirely are reported apart
        if parts:
            out.append(f"one VM of workload {name!r} does not fit on any host, whatever the host count: "
                       + "; ".join(parts))
    return list(dict.fromkeys(out))


def _shapes(ctx: EngineContext, budgets: Budgets) -> dict[str, tuple]:
    """Placement name -> (its workload's name, per-VM demand, the workload) of every VM shape
    (:func:`advisor.recommend.host_demand.shape_demands`)."""
    return {key: (w.name, d, w) for w in ctx.scenario.workloads for key, d, _ in shape_demands(ctx, w, budgets)}



# --- shared storage, cluster-wide -------------------------------------------------------------
def _shared_capacity(ctx: EngineContext) -> str:
    """A warning when the images on shared storage exceed its stated capacity, else ''."""
    backend = ctx.facts.storage_backend or "local_disk"
    kind = SHARED_KIND.get(backend)
    caps = [s.capacity_tb for s in ctx.scenario.hosts.shared_storage if s.kind == kind and s.capacity_tb]
    if not caps:
        return ""
    need_gb = sum(w.vms * _disk_gb(w) for w in ctx.scenario.workloads)
    if need_gb <= max(caps) * 1000 * DISK_USABLE:
        return ""
    return (f"the virtual disks need {need_gb / 1000:.3g} TB but the {kind} storage offers {max(caps):g} TB "
            f"({DISK_USABLE:.0%} usable)")


def _shared_load(ctx: EngineContext, total: dict[str, float]) -> tuple[dict, list[str], dict]:
    """When images live on shared storage: the cluster's storage traffic (MB/s) against the
    storage's link (``network_gbps`` x 125 MB/s) and its total IOPS against the storage's
    ``iops`` when stated. Returns expected figures, warnings and details; more hosts do not
    help, so none of this changes the host count."""
    kind = SHARED_KIND.get(ctx.facts.storage_backend or "local_disk")
    offers = [s for s in ctx.scenario.hosts.shared_storage if s.kind == kind] if kind else []
    if not offers:
        return {}, [], {}
    link_gbps = max(s.network_gbps for s in offers)
    link = link_gbps * MB_S_PER_GBPS
    traffic = total["network"]
    iops = sum(w.vms * _iops(w) for w in ctx.scenario.workloads)
    stated = [s.iops for s in offers if s.iops]
    expected = {"shared_storage_throughput": figure(traffic, "MB/s"),
                "shared_storage_network_utilization": figure(100.0 * traffic / link, "%")}
    details = {"kind": kind, "throughput_mb_s": round(traffic, 3), "link_mb_s": round(link, 3),
               "iops": round(iops, 3)}
    fix = "more hosts do not help: use a faster storage network or more storage nodes"
    warnings = []
    if traffic > link * (1 + EPS):
        warnings.append(f"the VMs' storage traffic, {traffic:,.0f} MB/s in total, exceeds the {kind} storage's "
                        f"{link_gbps:g} Gb/s link ({link:,.0f} MB/s), {100 * traffic / link:.0f} % of it; {fix}")
    if stated:
        limit = max(stated)
        expected["shared_storage_iops_utilization"] = figure(100.0 * iops / limit, "%")
        details["iops_limit"] = round(limit, 3)
        if iops > limit * (1 + EPS):
            warnings.append(f"the VMs need {iops:,.0f} IOPS in total but the {kind} storage offers {limit:,.0f} "
                            f"IOPS, {100 * iops / limit:.0f} % of it; more hosts do not help: use faster storage "
                            f"or more storage nodes")
    return expected, warnings, details


# --- soft limits: what the plan delivers where the hosts fall short -----------------------------
def _per_host_load(ctx: EngineContext, packing: Packing, budgets: Budgets) -> dict[str, float]:
    """The busiest placed host's uncapped demand per soft resource (what its VMs ask)."""
    demand = {key: d for key, (_, d, _) in _shapes(ctx, budgets).items()}
    out = dict.fromkeys(SOFT, 0.0)
    for g in packing.groups:
        for k in SOFT:
            out[k] = max(out[k], sum(n * demand[key][k] for key, n in g.vms.items()))
    return out


def _soft_limits(ctx: EngineContext, packing: Packing, cap: dict[str, float], budgets: Budgets,
                 active: int) -> tuple[dict, list[str], dict]:
    """Soft limits the busiest host exceeds: details, warnings with the expected consequence, and
    expected figures (host CPU; the share of IOPS or MB/s each VM gets)."""
    from advisor.recommend import targets as tg

    load = _per_host_load(ctx, packing, budgets)
    details, warnings, figs = {}, [], {}
    sc = ctx.scenario
    ceiling = budgets.cpu_ceiling(planned_cpu_percent(sc))
    cpu_pct = tg.host_cpu_pct(ctx, active)
    asked = host_cpu_demand_pct(ctx, active)
    note = (f"busy cores on the busiest of {active} active hosts (CPU intensity and request load, in core-GHz "
            f"over the hosts' {sc.hosts.cpu.ghz:g} GHz), before the live-migration reserve"
            + (f"; its VMs ask {asked:.0f} % of its cores, a host delivers at most 100 %" if asked > 100.0 else ""))
    if request_driven(ctx):  # the per-request cost's interval (CPU from request loads)
        figs["host_cpu_utilization"] = figure(cpu_pct, "% of host", tg.host_cpu_pct(ctx, active, bound="low"),
                                              tg.host_cpu_pct(ctx, active, bound="high"), note=note)
    else:
        figs["host_cpu_utilization"] = figure(cpu_pct, "% of host", note=note)
    for k in SOFT:
        if cap[k] <= 0 or load[k] <= cap[k] * (1 + EPS):
            continue
        share = cap[k] / load[k]
        details[k] = {"demand_per_host": round(load[k], 3), "usable_per_host": round(cap[k], 3),
                      "unit": UNITS[k], "share_delivered": round(share, 4)}
        if k == "cpu_load":
            peak = statement(ctx.kb, "about {n} %", [CPU_CEILING_ROW], "value")
            warnings.append(f"host CPU is expected at about {cpu_pct:.0f} % on the busiest host"
                            + (f" (its VMs ask {asked:.0f} % of its cores: saturated)" if asked > 100.0 else "")
                            + f", above the planned "
                            f"{ceiling:g} %: requests queue and response times grow (doc 004 Section 6.4 could not "
                            f"raise the load beyond {peak.text} host CPU); more or larger hosts, or fewer vCPUs "
                            "per VM, bring it down")
            details[k]["statements"] = [peak.to_dict()]
        elif k == "disk_iops":
            boot = tg.boot_time_s(ctx, active)
            figs["iops_share_per_vm"] = figure(100.0 * share, "% of the IOPS asked")
            warnings.append(f"the VMs of the busiest host ask {_num(load[k])} IOPS of local disks that deliver "
                            f"{_num(cap[k])}: each gets about {100 * share:.0f} % of its rate"
                            + (f"; a VM boot there takes about {boot:.0f} s" if boot is not None else "")
                            + " (see the storage and cache-mode figures); shared storage or faster disks help")
        else:
            figs["network_share_per_vm"] = figure(100.0 * share, "% of the MB/s asked")
            warnings.append(f"the VMs of the busiest host move {_num(load[k])} MB/s of storage traffic over "
                            f"{_num(cap[k])} MB/s of usable NIC: each gets about {100 * share:.0f} % of it; a faster "
                            "NIC helps")
    return details, warnings, figs


def _page_cache(ctx: EngineContext, packing: Packing, budgets: Budgets) -> tuple[dict, list[str]]:
    """Host RAM left for the page cache per VM on the busiest host against the doc 001 budget."""
    if not budgets.page_cache:
        return {}, []
    sc = ctx.scenario
    by_name = {key: w for key, (_, _, w) in _shapes(ctx, budgets).items()}
    usable = sc.hosts.ram_gib - hypervisor_reserve_gib(sc.hosts.ram_gib)
    worst, planned_total = None, 0.0
    for g in packing.groups:
        vms = sum(g.vms.values())
        if not vms:
            continue
        guests = sum(n * by_name[name].ram_gib * (1 + VM_RAM_OVERHEAD) for name, n in g.vms.items())
        want = sum(n * PAGE_CACHE_GIB[by_name[name].io.intensity] for name, n in g.vms.items())
        left = max(usable - guests, 0.0)
        if want > 0 and (worst is None or left / want < worst[0] / max(worst[1], 1e-9)):
            worst = (left, want, vms)
        planned_total += want * g.count
    if worst is None:
        return {}, []
    left, want, vms = worst
    details = {"planned_gib": round(want, 3), "available_gib": round(left, 3), "vms": vms}
    if left + EPS >= want:
        return details, []
    return details, [f"the busiest host keeps about {left:.2g} GiB of page cache for its I/O-intensive VMs against the "
                     f"{want:.2g} GiB the doc 001 budget plans (1 GiB per I/O-heavy VM, 0.5 per medium one): cached "
                     "modes serve fewer reads from memory (see the cache-mode figures); more host RAM or fewer VMs per "
                     "host restore it"]
