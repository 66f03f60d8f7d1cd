"""The facts no estate export carries, filled with explicit, marked assumptions: the workloads'
defaults (each use listed in the workload's ``assumed``), the hosts the estate does not describe
(listed in ``estate.assumed``), the assumed values as rows for display, and which marks a user's
edit removes (:func:`marks_after_edit`)."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from advisor.inventory.grouping import Group, Grouping, Profile, num_text
from advisor.inventory.today import Measured
from advisor.scenario import DEFAULT_DISK_GB
from knowledge.inventory.model import Host

#: defaults for what no estate export says; each use is listed in the workload's ``assumed``
ASSUMED_WORKLOAD = {
    "cpu_intensity": "medium",
    "io.pattern": "mixed",
    "io.read_share": 0.5,
    "io.intensity": "medium",
    "io.block_size_kib": 4.0,
    "data_loss_tolerance": "seconds",
}
#: virtual disk per VM when the source gives none, GB (also advisor.scenario's default)
ASSUMED_DISK_GB = DEFAULT_DISK_GB
#: host hardware assumed when the estate has no host description
ASSUMED_HOST = {"sockets": 2, "cores_per_socket": 16, "threads_per_core": 2, "ghz": 2.4, "ram_gib": 512.0}
ASSUMED_NIC_GBPS = 10.0
#: (when the sources say nothing of the disks, as many as hold today's VMs on today's hosts)
ASSUMED_DISKS = [{"kind": "ssd", "count": 2, "size_gb": 1920.0}]
#: at most this many assumed disks per host (the scenario's bound); beyond, each is larger
MAX_ASSUMED_DISKS = 1000


def _host_key(h: Host) -> tuple:
    return (h.sockets or 1, h.cores_per_socket or h.logical_cpus, h.threads_per_core or 1,
            round(h.ghz or 0, 1), round((h.ram_mib or 0) / 1024))


def _described_hosts(described: list[Host], need_threads: int, need_ram: float
                     ) -> tuple[dict[str, Any], float, list[str], str]:
    """CPU mapping, RAM (GiB), fields assumed and a note from the hosts the sources describe: the
    most common configuration, or the largest when the most common is too small for some VMs."""
    assumed: list[str] = []
    note = ""
    kinds = Counter(_host_key(h) for h in described)
    (sockets, per, threads, ghz, ram), _n = kinds.most_common(1)[0]
    if len(kinds) > 1:
        note = f"{len(kinds)} host configurations today; the scenario plans the most common one"
    if per * sockets * threads < need_threads or (ram and ram < need_ram):
        sockets, per, threads, ghz, ram = max(kinds, key=lambda k: (k[0] * k[1] * k[2], k[4]))
        note = "the largest host configuration of today (the most common one is too small for some VMs)"
    model = Counter(h.cpu_model for h in described if h.cpu_model).most_common(1)
    cpu: dict[str, Any] = {"model": model[0][0] if model else "", "sockets": sockets, "cores_per_socket": per,
                           "threads_per_core": threads}
    if not any(h.cores for h in described):
        assumed += ["hosts.cpu.sockets", "hosts.cpu.threads_per_core"]  # only the thread count is known
    if not any(h.threads_per_core for h in described):
        assumed.append("hosts.cpu.threads_per_core")
    if ghz:
        cpu["ghz"] = ghz
    else:
        cpu["ghz"] = ASSUMED_HOST["ghz"]
        assumed.append("hosts.cpu.ghz")
    if not ram:
        ram = ASSUMED_HOST["ram_gib"]
        assumed.append("hosts.ram_gib")
    return cpu, ram, assumed, note


def _storage(inv: Grouping, count: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The scenario's local disks and shared stores: the stores the estate names (capacity when
    known); local disks assumed, as many as hold today's VMs on today's hosts when no store does."""
    capacity = inv.estate.extra.get("shared_capacity_tb") or {}
    shared = []
    for k in inv.estate.shared_storage:
        store: dict[str, Any] = {"kind": k, "network_gbps": ASSUMED_NIC_GBPS}
        if capacity.get(k):
            store["capacity_tb"] = round(capacity[k], 3)
        shared.append(store)
    disks: list[dict[str, Any]] = [dict(d) for d in ASSUMED_DISKS]
    if not shared:
        per_host = inv.scenario_totals()["disk_gb"] / max(count, 1) / 0.9
        need = math.ceil(per_host / float(disks[0]["size_gb"]))
        if need > MAX_ASSUMED_DISKS:  # never more disks than a scenario may have: larger ones instead
            disks[0]["size_gb"] = float(min(1e6, math.ceil(per_host / MAX_ASSUMED_DISKS)))
            need = MAX_ASSUMED_DISKS
        disks[0]["count"] = max(int(disks[0]["count"]), need)
    return disks, shared


def host_mapping(inv: Grouping) -> tuple[dict, list[str], str]:
    """The scenario's hosts mapping, the host fields assumed, and a note."""
    hosts = inv.estate.hosts
    need_threads = max((inv.profile(g).vcpus for g in inv.groups), default=1)
    need_ram = max((inv.profile(g).ram_gib for g in inv.groups), default=1.0)
    described = [h for h in hosts if h.cores or h.logical_cpus]
    if described:
        cpu, ram, assumed, note = _described_hosts(described, need_threads, need_ram)
        count = len(hosts)
    else:
        cpu = {"sockets": ASSUMED_HOST["sockets"], "cores_per_socket": ASSUMED_HOST["cores_per_socket"],
               "threads_per_core": ASSUMED_HOST["threads_per_core"], "ghz": ASSUMED_HOST["ghz"]}
        ram = ASSUMED_HOST["ram_gib"]
        assumed = ["hosts.cpu", "hosts.ram_gib"]
        if hosts:  # named (e.g. OpenStack's Host column) but not described
            count = len(hosts)
            note = f"the sources name {len(hosts)} host(s) but not their hardware: CPU and RAM are assumed"
        else:
            count = min(100_000, max(2, math.ceil(inv.scenario_totals()["ram_gib"] / (ram * 0.8))))
            assumed.append("hosts.count")
            note = "the sources describe no hosts: hardware and count are assumed"
    threads_total = cpu["sockets"] * cpu["cores_per_socket"] * cpu["threads_per_core"]
    if threads_total < need_threads:  # never write a scenario the parser must refuse
        cpu["cores_per_socket"] = math.ceil(need_threads / (cpu["sockets"] * cpu["threads_per_core"]))
        assumed.append("hosts.cpu.cores_per_socket")
    if ram < need_ram:
        ram = float(2 ** math.ceil(math.log2(need_ram)))
        assumed.append("hosts.ram_gib")
    model = cpu.get("model", "").lower()
    cpu["virtualization"] = "vmx" if "intel" in model else "svm" if "amd" in model else "unknown"
    count = max(1, count)
    disks, shared = _storage(inv, count)
    out = {"count": count, "reserve": 1 if count > 2 else 0, "cpu": cpu, "ram_gib": float(ram), "disks": disks,
           "nic_gbps": ASSUMED_NIC_GBPS, "shared_storage": shared}
    assumed += ["hosts.reserve", "hosts.disks", "hosts.nic_gbps"]
    assumed.append("hosts.shared_storage.network_gbps" if inv.estate.shared_storage else "hosts.shared_storage")
    return out, sorted(set(assumed)), note


def _today_of(p: Profile) -> dict[str, Any]:
    """A group's ``today``: what its VMs run with and measured now."""
    today: dict[str, Any] = {}
    if p.cpu is not None:
        today["cpu_busy_pct"] = round(100.0 * p.cpu.share, 1)
        today["cpu_measured"] = p.cpu.source
        if p.cpu.percentiles:
            today["cpu_busy_pct_percentiles"] = {k: round(100.0 * x, 2) for k, x in p.cpu.percentiles.items()}
            if p.cpu.flat:  # VMs the collector gave no figures: at their own share (Measured.flat)
                today["cpu_own_share_vms"] = p.cpu.flat
            if p.cpu.given:  # collectors giving different percentiles: VMs per set of keys (Measured.given)
                today["cpu_percentiles_given"] = {k: n for k, (n, _names) in p.cpu.given.items()}
    if p.ram_consumed_gib is not None:
        today["ram_consumed_gib_per_vm"] = round(p.ram_consumed_gib, 2)
    if p.cache_today:
        today["cache"] = p.cache_today
        today["cache_disks"] = p.cache_disks
    if p.pinned:
        today["pinned_vms"] = p.pinned
    if p.powered_off:
        today["powered_off"] = p.powered_off
    if p.mixed_vcpus:
        today["vcpus"] = f"{p.vcpu_range[0]}-{p.vcpu_range[1]} ({p.vcpu_total_today} in all)"
    if p.clusters:
        today["placed_on"] = ", ".join(p.clusters)
    return today


def _kept(gb: float) -> float:
    """``gb`` to two decimals, or to six when two would make it 0 (a 1 MiB disk is 0.001049 GB)."""
    return round(gb, 2) or round(gb, 6) or 1e-6


def workload_mapping(inv: Grouping, g: Group) -> dict[str, Any]:
    """The scenario mapping of one group, with its assumptions and today's settings."""
    p = inv.profile(g)
    assumed = list(ASSUMED_WORKLOAD)
    disk = p.disk_gb
    io: dict[str, Any] = {"pattern": ASSUMED_WORKLOAD["io.pattern"], "read_share": ASSUMED_WORKLOAD["io.read_share"],
                          "intensity": ASSUMED_WORKLOAD["io.intensity"],
                          "block_size_kib": ASSUMED_WORKLOAD["io.block_size_kib"]}
    if disk:
        io["disk_gb"] = _kept(disk)
    else:
        io["disk_gb"] = ASSUMED_DISK_GB
        assumed.append("io.disk_gb")
    if p.used_gb:
        io["footprint_gb"] = min(_kept(p.used_gb), io["disk_gb"])
    migrating = p.platform in ("vmware", "proxmox") and not p.containers
    w: dict[str, Any] = {
        "name": g.name, "vms": p.vms, "vcpus": p.vcpus, "ram_gib": round(p.ram_gib, 6),
        "cpu_intensity": ASSUMED_WORKLOAD["cpu_intensity"], "io": io,
        "live_migration": migrating, "data_loss_tolerance": ASSUMED_WORKLOAD["data_loss_tolerance"],
        "containerizable": bool(p.containers)}
    if p.cpu is not None and p.cpu.assumed:  # the estate's figure for VMs none of which was measured
        w["cpu_intensity"] = p.cpu.level
    elif p.cpu is not None:  # the estate measured it: derived, not assumed
        _measured_cpu(w, p.cpu, inv.sizing_percentile)
        assumed.remove("cpu_intensity")
    assumed.append("live_migration")
    if not p.containers:
        assumed.append("containerizable")
    if p.unsized:
        assumed += ["vcpus", "ram_gib"]
    if p.application:
        w["application"] = p.application
    w["assumed"] = sorted(assumed)
    today = _today_of(p)
    if today:
        w["today"] = today
    return w


def _measured_cpu(w: dict[str, Any], cpu: Measured, percentile: float | None) -> None:
    """A group's measured CPU: its busy share (with percentiles over a collection: the share at the
    sizing percentile, as the scenario reader takes it) and the intensity that share falls in."""
    from advisor.inventory.series import DEFAULT_PERCENTILE
    from advisor.scenario.model import level_of, share_at

    share = cpu.share
    w["measured"] = ["cpu_busy_share", "cpu_intensity"]
    if cpu.percentiles:
        w["cpu_busy_percentiles"] = dict(cpu.percentiles)
        w["measured"].append("cpu_busy_percentiles")
        share = share_at(cpu.percentiles, DEFAULT_PERCENTILE if percentile is None else percentile) or share
    w["cpu_intensity"] = level_of(share)
    w["cpu_busy_share"] = round(share, 4)


def assumption_rows(data: dict[str, Any]) -> list[tuple[str, str]]:
    """``(field, value)`` for every assumed value of the scenario ``data``, for display: the
    workloads' defaults (``varies`` where groups differ) and the hosts' assumed fields."""
    values: dict[str, set] = {}
    for w in data["workloads"]:
        for f in w.get("assumed", []):
            v: Any = w
            for part in f.split("."):
                v = v.get(part) if isinstance(v, dict) else None
            values.setdefault(f, set()).add(json_text(v))
    rows = [(f, next(iter(v)) if len(v) == 1 else "varies by group") for f, v in sorted(values.items())]
    for f in data["estate"]["assumed"]:
        v = data
        for part in f.split("."):
            v = v.get(part) if isinstance(v, dict) else None
        rows.append((f, json_text(v)))
    return rows


def json_text(value: Any) -> str:
    """A scenario value as short text (``2 x ssd 1920 GB`` for disk lists)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        if not value:
            return "none"
        if all(isinstance(x, dict) for x in value):
            out = []
            for x in value:
                if {"kind", "count", "size_gb"} <= set(x):
                    out.append(f"{x['count']} x {x['kind']} {num_text(float(x['size_gb']))} GB")
                elif "network_gbps" in x:
                    out.append(f"{x.get('kind', '')} over {num_text(float(x['network_gbps']))} Gb/s")
                else:
                    out.append(" ".join(f"{k}={v}" for k, v in x.items()))
            return ", ".join(out)
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, float):
        return num_text(value)
    return str(value)



#: the fields a coarse ``hosts.cpu`` mark stands for (a user declaring one of them declares only that one)
_CPU_FIELDS = ("sockets", "cores_per_socket", "threads_per_core", "ghz")


def marks_after_edit(data: dict[str, Any], path: tuple[str | int, ...]) -> dict[tuple[str | int, ...], list[str]]:
    """The ``assumed`` lists that change when a user sets the value at ``path`` (a scenario data
    path such as ``("hosts", "nic_gbps")`` or ``("workloads", 0, "io", "pattern")``): the value is
    declared now, so its mark goes (and any mark below it). A coarse mark above it stays, since the
    rest is still assumed (``hosts.disks`` when one disk field is edited), except ``hosts.cpu``,
    which splits into its other fields. A workload field the import derived from the estate's
    measurements (its ``measured`` list, e.g. ``cpu_intensity``) loses that mark likewise.
    Returns ``{path of the list: new list}`` (empty: no change)."""
    if len(path) >= 2 and path[0] == "hosts" and isinstance(path[1], str):
        where: tuple[str | int, ...] = ("estate", "assumed")
        marks = (data.get("estate") or {}).get("assumed")
        field_ = ".".join([p for p in path if isinstance(p, str)][:3])
    elif len(path) >= 3 and path[0] == "workloads" and isinstance(path[1], int) and isinstance(path[2], str):
        workloads = data.get("workloads") or []
        where = ("workloads", path[1], "assumed")
        marks = workloads[path[1]].get("assumed") if path[1] < len(workloads) and isinstance(
            workloads[path[1]], dict) else None
        field_ = ".".join(p for p in path[2:4] if isinstance(p, str))
    else:
        return {}
    out: dict[tuple[str | int, ...], list[str]] = {}
    if where[0] == "workloads":  # a measured value the user sets is the user's now (its 'measured' mark goes)
        w = (data.get("workloads") or [])[path[1]] if isinstance(path[1], int) and path[1] < len(
            data.get("workloads") or []) else None
        measured = w.get("measured") if isinstance(w, dict) else None
        if isinstance(measured, list) and field_ in measured:
            out[("workloads", path[1], "measured")] = [m for m in measured if m != field_]
    if not isinstance(marks, list) or not marks:
        return out
    kept: list[str] = []
    for m in marks:
        if m == field_ or m.startswith(field_ + "."):
            continue  # declared now
        if m == "hosts.cpu" and field_.startswith("hosts.cpu."):
            kept += [f"hosts.cpu.{f}" for f in _CPU_FIELDS if f"hosts.cpu.{f}" != field_ and f"hosts.cpu.{f}" not in marks]
            continue
        kept.append(m)
    if kept != marks:
        out[where] = kept
    return out


