"""From today's estate to a scenario: VMs grouped into workload groups, hosts described, the
facts the exports do not carry filled with explicit, marked assumptions.

:class:`Inventory` holds an :class:`~knowledge.inventory.model.Estate` (read by
:mod:`knowledge.inventory`) and its grouping. The user may regroup (``auto``, ``size``,
``name-prefix``, ``cluster``), merge, split and rename groups; :meth:`Inventory.to_scenario`
then writes the scenario mapping, which :func:`advisor.scenario.parse_scenario` accepts.

Rules that keep the scenario honest:

- A group's VM count and RAM are the sums of its VMs (RAM per VM is the group mean), so the
  scenario's VM and RAM totals equal the estate's. Groups built here never mix vCPU counts, so
  the vCPU total is the estate's too; a merge the user asks for that mixes them sizes the group
  at the rounded mean and says how far the total moved.
- Fields no export carries (CPU and I/O intensity, I/O pattern, data loss tolerance, live
  migration) get defaults listed in the workload's ``assumed``; hosts the estate does not
  describe are assumed likewise and listed in ``estate.assumed``.
- What runs today (hypervisor, cache modes, pinning, vCPUs per core, host count) is kept in
  ``estate.today`` and each workload's ``today``; :func:`today_vs_advised` sets it next to the
  advice.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from knowledge.infra.errors import InputError
from knowledge.inventory.model import VM, Estate, Host

#: ways of grouping (the CLI's --group-by)
GROUP_BY = ("auto", "size", "name-prefix", "cluster")
#: ways of splitting one group
SPLIT_BY = ("size", "name-prefix", "cluster", "power", "half")
#: groups ``auto`` aims at (it only merges groups of equal vCPU count)
AUTO_MAX_GROUPS = 12

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
ASSUMED_DISK_GB = 20.0
#: host hardware assumed when the estate has no host description
ASSUMED_HOST = {"sockets": 2, "cores_per_socket": 16, "threads_per_core": 2, "ghz": 2.4, "ram_gib": 512.0}
ASSUMED_NIC_GBPS = 10.0
ASSUMED_DISKS = [{"kind": "ssd", "count": 2, "size_gb": 1920.0}]

#: QEMU's cache mode when a disk names none (libvirt leaves it to the hypervisor)
DEFAULT_CACHE = "writeback"


@dataclass
class Group:
    """A workload group: indices into :attr:`Inventory.vms`."""

    name: str
    members: list[int]
    note: str = ""


@dataclass
class Profile:
    """What a group's VMs add up to, and the per-VM figures written into the scenario."""

    vms: int
    vcpus: int
    ram_gib: float
    disk_gb: float | None
    used_gb: float | None
    vcpu_total_today: int
    ram_total_gib: float
    vcpu_range: tuple[int, int]
    ram_range_gib: tuple[float, float]
    powered_off: int
    containers: int
    unsized: int
    cache_today: str | None
    pinned: int
    clusters: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    platform: str = ""
    os: str = ""

    @property
    def vcpu_total(self) -> int:
        """vCPUs the scenario plans for this group."""
        return self.vms * self.vcpus

    @property
    def mixed_vcpus(self) -> bool:
        return self.vcpu_range[0] != self.vcpu_range[1]


def _sizes(vms: list[VM]) -> list[tuple[int, float, int]]:
    """``(vcpus, ram_mib, count)`` of the VMs whose source gives both vCPUs and RAM."""
    return [(v.vcpus, v.ram_mib, v.count) for v in vms if v.vcpus is not None and v.ram_mib is not None]


def _slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-._")
    return s or "group"


def _num(x: float) -> str:
    return f"{x:.0f}" if abs(x - round(x)) < 1e-9 else f"{x:.3g}"


def _bucket_125(x: float | None) -> float | None:
    """The 1-2-5 series step at or above ``x`` (10, 20, 50, 100, ...)."""
    if not x or x <= 0:
        return None
    exp = math.floor(math.log10(x))
    for m in (1, 2, 5, 10):
        step = m * 10 ** exp
        if x <= step * 1.0000001:
            return float(step)
    return float(10 ** (exp + 1))


def _ram_bucket(gib: float) -> float:
    """Power-of-two GiB at or above ``gib`` (0.5, 1, 2, 4, ...)."""
    return 2.0 ** math.ceil(math.log2(max(gib, 0.25)))


def name_prefix(name: str) -> str:
    """The role part of a VM name: domain dropped, trailing numbers and separators removed
    (``web-01.example.org`` -> ``web``, ``D-CUSTOM-01`` -> ``d-custom``, ``wadfs1`` -> ``wadfs``)."""
    base = name.strip().lower().split(".")[0]
    prev = None
    while prev != base:
        prev = base
        base = re.sub(r"[-_ ]*\d+[a-z]?$", "", base).rstrip("-_ ")
    return base or name.strip().lower()


class Inventory:
    """An estate and its workload groups (the model the CLI prints and the GUI edits)."""

    def __init__(self, estate: Estate, group_by: str = "auto", include_powered_off: bool = True,
                 name: str = ""):
        self.estate = estate
        self.include_powered_off = include_powered_off
        self.vms: list[VM] = [v for v in estate.vms if not v.template and (include_powered_off or v.powered_on
                                                                            is not False)]
        self.name = name or self._default_name()
        self.group_by = "auto"
        self.groups: list[Group] = []
        self.regroup(group_by)

    # --- grouping --------------------------------------------------------------------------
    def set_include_powered_off(self, include: bool) -> None:
        """Take powered-off VMs in or leave them out, and group again the same way."""
        self.include_powered_off = include
        self.vms = [v for v in self.estate.vms if not v.template and (include or v.powered_on is not False)]
        self.regroup(self.group_by)

    def _default_name(self) -> str:
        files = [Path(s.path).stem for s in self.estate.sources]
        return f"estate from {', '.join(files[:3])}{' ...' if len(files) > 3 else ''}" if files else "estate"

    def regroup(self, group_by: str) -> None:
        """Group every VM again (``auto``, ``size``, ``name-prefix`` or ``cluster``)."""
        if group_by not in GROUP_BY:
            raise InputError(f"--group-by {group_by!r}: choose one of {', '.join(GROUP_BY)}")
        self.group_by = group_by
        self.groups = self._group(list(range(len(self.vms))), group_by)
        self._unique_names()

    def _key_label(self, i: int, mode: str) -> tuple[tuple, str]:
        vm = self.vms[i]
        if vm.vcpus is None or vm.ram_mib is None:
            return ("unsized",), "unsized"
        ct = "ct-" if vm.container else ""
        cpu = f"{vm.vcpus}vcpu"
        if mode == "size":
            disk = _bucket_125(vm.disk_gb)
            label = f"{ct}{cpu}-{_num(vm.ram_mib / 1024)}g" + (f"-{_num(disk)}gb" if disk else "")
            return (vm.container, vm.vcpus, round(vm.ram_mib), disk), label
        if mode == "auto":
            if vm.group:
                return (vm.container, "group", vm.group, vm.vcpus), f"{ct}{vm.group}"
            ram = _ram_bucket(vm.ram_mib / 1024)
            disk = _bucket_125(vm.disk_gb)
            label = f"{ct}{cpu}-{_num(ram)}g" + (f"-{_num(disk)}gb" if disk else "")
            return (vm.container, vm.vcpus, ram, disk), label
        if mode == "name-prefix":
            p = name_prefix(vm.name)
            return (vm.container, p, vm.vcpus), f"{ct}{p}"
        where = vm.cluster or vm.host or "unplaced"
        return (vm.container, where, vm.vcpus), f"{ct}{where}"

    def _group(self, members: list[int], mode: str) -> list[Group]:
        buckets: dict[tuple, list[int]] = {}
        labels: dict[tuple, str] = {}
        for i in members:
            key, label = self._key_label(i, mode)
            buckets.setdefault(key, []).append(i)
            labels.setdefault(key, label)
        if mode == "name-prefix":  # prefixes of one VM go to 'other', per vCPU count
            merged: dict[tuple, list[int]] = {}
            for key, idx in buckets.items():
                if key != ("unsized",) and sum(self.vms[i].count for i in idx) == 1:
                    vm = self.vms[idx[0]]
                    k2 = (vm.container, "~other", vm.vcpus)
                    merged.setdefault(k2, []).extend(idx)
                    labels[k2] = ("ct-" if vm.container else "") + "other"
                else:
                    merged.setdefault(key, []).extend(idx)
            buckets = merged
        groups = []
        for key, idx in buckets.items():
            label = labels[key]
            cpus = {self.vms[i].vcpus for i in idx}
            if mode in ("name-prefix", "cluster") or (mode == "auto" and "group" in key):
                siblings = [k for k in buckets if k[:-1] == key[:-1]]
                if len(siblings) > 1 and len(cpus) == 1:
                    label = f"{label}-{next(iter(cpus))}vcpu"
            groups.append(Group(label, sorted(idx)))
        if mode == "auto":
            groups = self._merge_small(groups)
        groups.sort(key=lambda g: (-self.profile(g).vms, g.name))
        return groups

    def _merge_small(self, groups: list[Group]) -> list[Group]:
        """Merge the smallest groups into the most similar group of equal vCPU count until at
        most :data:`AUTO_MAX_GROUPS` remain (or no such pair is left)."""
        stats: dict[int, list] = {}  # id(group) -> [vms, ram_total_gib, disk_total_gb, disk_vms, cpu key]
        for g in groups:
            vms = [self.vms[i] for i in g.members]
            sizes = _sizes(vms)
            if len(sizes) < len(vms):
                continue  # the unsized group stays as it is
            stats[id(g)] = [sum(v.count for v in vms), sum(r * k for _c, r, k in sizes) / 1024,
                            sum((v.disk_gb or 0) * v.count for v in vms), sum(v.count for v in vms if v.disk_gb),
                            (vms[0].vcpus, vms[0].container)]

        def vec(g: Group) -> tuple[float, float]:
            n, ram, disk, dn, _k = stats[id(g)]
            return math.log2(max(ram / n, 0.25)), math.log10(max(disk / dn if dn else ASSUMED_DISK_GB, 1.0))

        changed: set[int] = set()
        while len(groups) > AUTO_MAX_GROUPS:
            for small in sorted((g for g in groups if id(g) in stats), key=lambda g: (stats[id(g)][0], g.name)):
                key = stats[id(small)][4]
                mates = [g for g in groups if g is not small and id(g) in stats and stats[id(g)][4] == key]
                if not mates:
                    continue
                a = vec(small)
                best = min(mates, key=lambda g: (abs(vec(g)[0] - a[0]) + abs(vec(g)[1] - a[1]), g.name))
                best.members = sorted(best.members + small.members)
                sb, ss = stats[id(best)], stats.pop(id(small))
                for k in range(4):
                    sb[k] += ss[k]
                groups.remove(small)
                changed.add(id(best))
                break
            else:
                break
        for g in groups:
            if id(g) in changed:
                g.name = self._size_label(g)
        return groups

    def _size_label(self, g: Group) -> str:
        p = self.profile(g)
        ct = "ct-" if p.containers == p.vms and p.vms else ""
        lo, hi = p.ram_range_gib
        ram = f"{_num(lo)}g" if abs(hi - lo) < 1e-9 else f"{_num(lo)}-{_num(hi)}g"
        return f"{ct}{p.vcpus}vcpu-{ram}"

    def _unique_names(self) -> None:
        seen: Counter = Counter()
        for g in self.groups:
            g.name = _slug(g.name)
            seen[g.name] += 1
        used: set[str] = set()
        for g in self.groups:
            if seen[g.name] > 1 or g.name in used:
                n = 2
                while f"{g.name}-{n}" in used or seen.get(f"{g.name}-{n}"):
                    n += 1
                g.name = f"{g.name}-{n}"
            used.add(g.name)

    # --- editing -----------------------------------------------------------------------------
    def _check(self, index: int) -> Group:
        if not 0 <= index < len(self.groups):
            raise InputError(f"no group #{index + 1} (there are {len(self.groups)})")
        return self.groups[index]

    def rename(self, index: int, name: str) -> None:
        g = self._check(index)
        name = name.strip()
        if not name:
            raise InputError("a group needs a name")
        if any(o.name == name for j, o in enumerate(self.groups) if j != index):
            raise InputError(f"another group is already called {name!r}")
        g.name = name

    def merge(self, indices: list[int], name: str | None = None) -> int:
        """Merge groups into the first of them; returns its new index."""
        idx = sorted(set(indices))
        if len(idx) < 2:
            raise InputError("choose at least two groups to merge")
        groups = [self._check(i) for i in idx]
        first = groups[0]
        for g in groups[1:]:
            first.members = sorted(first.members + g.members)
        for g in groups[1:]:
            self.groups.remove(g)
        first.name = name.strip() if name and name.strip() else first.name
        p = self.profile(first)
        first.note = (f"mixes {p.vcpu_range[0]}-{p.vcpu_range[1]} vCPUs: planned at {p.vcpus} per VM "
                      f"({p.vcpu_total} vCPUs vs {p.vcpu_total_today} today)") if p.mixed_vcpus else ""
        self._unique_names()
        return self.groups.index(first)

    def split(self, index: int, by: str = "size") -> list[int]:
        """Split one group by ``size``, ``name-prefix``, ``cluster``, ``power`` (on/off) or
        ``half`` (the larger half by RAM apart); returns the new groups' indices."""
        if by not in SPLIT_BY:
            raise InputError(f"split by {by!r}: choose one of {', '.join(SPLIT_BY)}")
        g = self._check(index)
        if by == "power":
            parts = [[i for i in g.members if self.vms[i].powered_on is not False],
                     [i for i in g.members if self.vms[i].powered_on is False]]
            new = [Group(f"{g.name}-on", parts[0]), Group(f"{g.name}-off", parts[1])]
        elif by == "half":
            order = sorted(g.members, key=lambda i: (self.vms[i].ram_mib or 0, self.vms[i].disk_gb or 0,
                                                     self.vms[i].name))
            cut = len(order) // 2
            new = [Group(f"{g.name}-small", sorted(order[:cut])), Group(f"{g.name}-large", sorted(order[cut:]))]
        else:
            new = self._group(g.members, "size" if by == "size" else by)
        new = [n for n in new if n.members]
        if len(new) < 2:
            raise InputError(f"group {g.name!r}: its VMs are all alike by {by}; nothing to split")
        pos = self.groups.index(g)
        self.groups[pos:pos + 1] = new
        self._unique_names()
        return list(range(pos, pos + len(new)))

    # --- figures -------------------------------------------------------------------------------
    def profile(self, g: Group) -> Profile:
        vms = [self.vms[i] for i in g.members]
        sizes = _sizes(vms)
        n = sum(v.count for v in vms)
        ns = sum(k for _c, _r, k in sizes)
        cpu_total = sum(c * k for c, _r, k in sizes)
        ram_total = sum(r * k for _c, r, k in sizes) / 1024
        disks = [(v.disk_gb, v.count) for v in vms if v.disk_gb is not None and v.disk_gb > 0]
        used = [(v.used_gb, v.count) for v in vms if v.used_gb is not None and v.used_gb > 0]
        caches = Counter(m if m != "default" else DEFAULT_CACHE for v in vms for m in v.cache_modes)
        cache = None
        if caches:
            cache = caches.most_common(1)[0][0] if len(caches) == 1 else \
                ", ".join(f"{m} ({c})" for m, c in caches.most_common())
        vcpus = max(1, round(cpu_total / ns)) if ns else 1
        ram = ram_total / ns if ns else 1.0
        oses = Counter(v.os for v in vms if v.os)
        return Profile(
            vms=n, vcpus=vcpus, ram_gib=ram,
            disk_gb=sum(d * c for d, c in disks) / sum(c for _, c in disks) if disks else None,
            used_gb=sum(d * c for d, c in used) / sum(c for _, c in used) if used else None,
            vcpu_total_today=cpu_total, ram_total_gib=ram_total,
            vcpu_range=(min((c for c, _r, _k in sizes), default=1), max((c for c, _r, _k in sizes), default=1)),
            ram_range_gib=(min((r / 1024 for _c, r, _k in sizes), default=0.0),
                           max((r / 1024 for _c, r, _k in sizes), default=0.0)),
            powered_off=sum(v.count for v in vms if v.powered_on is False),
            containers=sum(v.count for v in vms if v.container), unsized=n - ns,
            cache_today=cache, pinned=sum(v.count for v in vms if v.pinned),
            clusters=sorted({v.cluster or v.host for v in vms if v.cluster or v.host})[:8],
            examples=[v.name for v in vms[:4]], platform=Counter(v.platform for v in vms).most_common(1)[0][0]
            if vms else "", os=oses.most_common(1)[0][0] if oses else "")

    def source_totals(self) -> dict[str, float]:
        """VMs, vCPUs and RAM (GiB) of the VMs imported, summed from the estate."""
        sizes = _sizes(self.vms)
        return {"vms": sum(v.count for v in self.vms), "vcpus": sum(c * k for c, _r, k in sizes),
                "ram_gib": sum(r * k for _c, r, k in sizes) / 1024,
                "disk_gb": sum((v.disk_gb or 0) * v.count for v in self.vms)}

    def scenario_totals(self) -> dict[str, float]:
        """The same totals as the grouped scenario plans them."""
        ps = [self.profile(g) for g in self.groups]
        return {"vms": sum(p.vms for p in ps), "vcpus": sum(p.vcpu_total for p in ps),
                "ram_gib": sum(p.vms * p.ram_gib for p in ps),
                "disk_gb": sum(p.vms * (p.disk_gb or 0) for p in ps)}

    # --- today ---------------------------------------------------------------------------------
    def hypervisor_today(self) -> str:
        hv = Counter(h.hypervisor for h in self.estate.hosts if h.hypervisor)
        if hv:
            name = hv.most_common(1)[0][0]
            if name and name[0].isdigit():
                name = f"VMware ESXi {name}"
            return name
        plat = Counter(v.platform for v in self.vms).most_common(1)
        return {"vmware": "VMware ESXi", "libvirt": "KVM (libvirt)", "proxmox": "Proxmox VE (KVM)",
                "openstack": "OpenStack (Nova)"}.get(plat[0][0], "") if plat else ""

    def today(self) -> dict[str, Any]:
        """What the estate runs today, as far as the sources say."""
        out: dict[str, Any] = {}
        hv = self.hypervisor_today()
        if hv:
            out["hypervisor"] = hv
        if self.estate.hosts:
            out["hosts"] = len(self.estate.hosts)
        on = [v for v in self.vms if v.powered_on is not False]
        on_sizes = _sizes(on)
        sized = bool(on) and len(on_sizes) == len(on)
        vcpus_on = sum(c * k for c, _r, k in on_sizes)
        cores = [h.cores or 0 for h in self.estate.hosts]
        if not sized:
            pass
        elif self.estate.hosts and all(cores):
            out["vcpus_per_core"] = round(vcpus_on / sum(cores), 2)
        else:
            threads = [h.logical_cpus or ((h.cores or 0) * (h.threads_per_core or 1)) for h in self.estate.hosts]
            if self.estate.hosts and all(threads):
                out["vcpus_per_thread"] = round(vcpus_on / sum(threads), 2)
        rams = [h.ram_mib or 0.0 for h in self.estate.hosts]
        if sized and self.estate.hosts and all(rams):
            out["ram_allocated_per_host_ram"] = round(sum(r * k for _c, r, k in on_sizes) / sum(rams), 2)
        usage = [h.cpu_usage_pct for h in self.estate.hosts if h.cpu_usage_pct is not None]
        if usage:
            out["host_cpu_usage_pct"] = round(sum(usage) / len(usage), 1)
        caches = Counter(m if m != "default" else DEFAULT_CACHE for v in self.vms for m in v.cache_modes)
        if caches:
            out["cache_modes"] = dict(caches.most_common())
        pinned = [v for v in self.vms if v.pinned is not None]
        if pinned:
            out["pinned_vms"] = sum(v.count for v in pinned if v.pinned)
        backing = Counter(s for v in self.vms for s in v.storage)
        if backing:
            out["disk_backing"] = dict(backing.most_common())
        if self.estate.shared_storage:
            out["shared_storage"] = list(self.estate.shared_storage)
        return out

    # --- the scenario -----------------------------------------------------------------------------
    def _host_profile(self) -> tuple[dict, list[str], str]:
        """The scenario's hosts mapping, the host fields assumed, and a note."""
        hosts = self.estate.hosts
        assumed: list[str] = []
        need_threads = max((self.profile(g).vcpus for g in self.groups), default=1)
        need_ram = max((self.profile(g).ram_gib for g in self.groups), default=1.0)
        described = [h for h in hosts if h.cores or h.logical_cpus]
        note = ""
        if described:
            def key(h: Host) -> tuple:
                return (h.sockets or 1, h.cores_per_socket or h.logical_cpus, h.threads_per_core or 1,
                        round(h.ghz or 0, 1), round((h.ram_mib or 0) / 1024))
            kinds = Counter(key(h) for h in described)
            (sockets, per, threads, ghz, ram), _n = kinds.most_common(1)[0]
            if len(kinds) > 1:
                note = f"{len(kinds)} host configurations today; the scenario plans the most common one"
            if per * sockets * threads < need_threads or (ram and ram < need_ram):
                sockets, per, threads, ghz, ram = max(kinds, key=lambda k: (k[0] * k[1] * k[2], k[4]))
                note = "the largest host configuration of today (the most common one is too small for some VMs)"
            model = Counter(h.cpu_model for h in described if h.cpu_model).most_common(1)
            cpu = {"model": model[0][0] if model else "", "sockets": sockets, "cores_per_socket": per,
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
            count = len(hosts)
        else:
            cpu = {"sockets": ASSUMED_HOST["sockets"], "cores_per_socket": ASSUMED_HOST["cores_per_socket"],
                   "threads_per_core": ASSUMED_HOST["threads_per_core"], "ghz": ASSUMED_HOST["ghz"]}
            ram = ASSUMED_HOST["ram_gib"]
            total_ram = self.scenario_totals()["ram_gib"]
            count = max(2, math.ceil(total_ram / (ram * 0.8)))
            assumed += ["hosts.count", "hosts.cpu", "hosts.ram_gib"]
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
        reserve = 1 if count > 2 else 0
        out = {"count": count, "reserve": reserve, "cpu": cpu, "ram_gib": float(ram), "disks": ASSUMED_DISKS,
               "nic_gbps": ASSUMED_NIC_GBPS,
               "shared_storage": [{"kind": k, "network_gbps": ASSUMED_NIC_GBPS} for k in self.estate.shared_storage]}
        assumed += ["hosts.reserve", "hosts.disks", "hosts.nic_gbps"]
        if not self.estate.shared_storage:
            assumed.append("hosts.shared_storage")
        else:
            assumed.append("hosts.shared_storage.network_gbps")
        return out, sorted(set(assumed)), note

    def workload(self, g: Group) -> dict[str, Any]:
        """The scenario mapping of one group, with its assumptions and today's settings."""
        p = self.profile(g)
        assumed = list(ASSUMED_WORKLOAD)
        disk = p.disk_gb
        io: dict[str, Any] = {"pattern": ASSUMED_WORKLOAD["io.pattern"], "read_share": ASSUMED_WORKLOAD["io.read_share"],
                              "intensity": ASSUMED_WORKLOAD["io.intensity"],
                              "block_size_kib": ASSUMED_WORKLOAD["io.block_size_kib"]}
        if disk:
            io["disk_gb"] = round(disk, 2)
        else:
            io["disk_gb"] = ASSUMED_DISK_GB
            assumed.append("io.disk_gb")
        if p.used_gb:
            io["footprint_gb"] = round(min(p.used_gb, io["disk_gb"]), 2)
        migrating = p.platform in ("vmware", "proxmox") and not p.containers
        w: dict[str, Any] = {
            "name": g.name, "vms": p.vms, "vcpus": p.vcpus, "ram_gib": round(p.ram_gib, 6),
            "cpu_intensity": ASSUMED_WORKLOAD["cpu_intensity"], "io": io,
            "live_migration": migrating, "data_loss_tolerance": ASSUMED_WORKLOAD["data_loss_tolerance"],
            "containerizable": bool(p.containers)}
        assumed.append("live_migration")
        if not p.containers:
            assumed.append("containerizable")
        if p.unsized:
            assumed += ["vcpus", "ram_gib"]
        if p.os:
            w["application"] = p.os
        w["assumed"] = sorted(assumed)
        today: dict[str, Any] = {}
        if p.cache_today:
            today["cache"] = p.cache_today
        if p.pinned:
            today["pinned_vms"] = p.pinned
        if p.powered_off:
            today["powered_off"] = p.powered_off
        if p.mixed_vcpus:
            today["vcpus"] = f"{p.vcpu_range[0]}-{p.vcpu_range[1]} ({p.vcpu_total_today} in all)"
        if p.clusters:
            today["placed_on"] = ", ".join(p.clusters)
        if today:
            w["today"] = today
        return w

    def to_scenario(self, name: str | None = None) -> dict[str, Any]:
        """The scenario mapping (``advisor.scenario.parse_scenario`` accepts it)."""
        if not self.groups:
            raise InputError("no VMs to plan: every VM found is a template" +
                             ("" if self.include_powered_off else " or powered off"))
        hosts, host_assumed, note = self._host_profile()
        found = self.estate.counts()
        totals = self.source_totals()
        estate: dict[str, Any] = {
            "sources": [{"file": s.path, "format": s.format, "vms": s.vms, "hosts": s.hosts} for s in self.estate.sources],
            "found": found,
            "imported": {"vms": totals["vms"], "vcpus": totals["vcpus"], "ram_gib": round(totals["ram_gib"], 3),
                         "powered_off_included": self.include_powered_off},
            "group_by": self.group_by,
            "today": self.today(),
            "assumed": host_assumed,
        }
        notes = [n for n in [note] + list(self.estate.warnings) + [f"{Path(s.path).name}: {x}" for s in
                                                                     self.estate.sources for x in s.notes] if n]
        if notes:
            estate["notes"] = notes
        return {"version": 1, "name": name or self.name, "hosts": hosts,
                "workloads": [self.workload(g) for g in self.groups], "estate": estate}

    def assumptions(self) -> list[tuple[str, str]]:
        """``(field, value)`` for every assumed value of the scenario, for display: the workloads'
        defaults (``varies`` where groups differ) and the hosts' assumed fields."""
        data = self.to_scenario()
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

    def summary(self) -> dict[str, Any]:
        """Found, groups and totals, JSON-ready (the CLI's ``--format json`` and the GUI's labels)."""
        groups = []
        for g in self.groups:
            p = self.profile(g)
            groups.append({"name": g.name, "vms": p.vms, "vcpus": p.vcpus, "ram_gib": round(p.ram_gib, 3),
                           "disk_gb": round(p.disk_gb, 1) if p.disk_gb else None,
                           "vcpus_today": f"{p.vcpu_range[0]}" if not p.mixed_vcpus else
                           f"{p.vcpu_range[0]}-{p.vcpu_range[1]}",
                           "ram_gib_today": [round(p.ram_range_gib[0], 3), round(p.ram_range_gib[1], 3)],
                           "powered_off": p.powered_off, "cache_today": p.cache_today, "pinned": p.pinned,
                           "examples": p.examples, "note": g.note})
        return {"found": self.estate.counts(), "group_by": self.group_by, "groups": groups,
                "totals": {"source": self.source_totals(), "scenario": self.scenario_totals()},
                "today": self.today(), "warnings": list(self.estate.warnings),
                "sources": [{"file": s.path, "format": s.format, "vms": s.vms, "hosts": s.hosts, "notes": s.notes}
                            for s in self.estate.sources]}


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
                    out.append(f"{x['count']} x {x['kind']} {_num(float(x['size_gb']))} GB")
                elif "network_gbps" in x:
                    out.append(f"{x.get('kind', '')} over {_num(float(x['network_gbps']))} Gb/s")
                else:
                    out.append(" ".join(f"{k}={v}" for k, v in x.items()))
            return ", ".join(out)
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, float):
        return _num(value)
    return str(value)


def import_inventory(paths, group_by: str = "auto", include_powered_off: bool = True, progress=None,
                     cancel=None) -> Inventory:
    """Read the files and group their VMs (the worker the GUI runs; the CLI calls it too)."""
    from advisor.progress import check, report
    from knowledge.inventory import read_inventory

    estate = read_inventory(paths, progress=(lambda f, m: report(progress, 0.9 * f, m)) if progress else None,
                            cancel=cancel)
    check(cancel)
    report(progress, 0.92, "grouping the VMs")
    inv = Inventory(estate, group_by, include_powered_off)
    report(progress, 1.0, f"{len(inv.vms)} VMs in {len(inv.groups)} groups")
    return inv


# --- today next to the advice ----------------------------------------------------------------
def _because(rationale: str, choice: str) -> str:
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+", rationale or "") if s.strip()]
    if not sentences:
        return ""
    first = sentences[0]
    pick = sentences[1] if len(sentences) > 1 and (choice.lower() in first.lower() or ":" in first[:40]) else first
    return pick.rstrip(".")


def _same(a: str, b: str) -> bool:
    return a.strip().lower() == b.strip().lower()


def today_vs_advised(scenario, recommendations) -> list[dict[str, Any]]:
    """``[{decision, scope, today, advised, because, differs}]`` for each decision on which the
    scenario records today's setting. ``scenario`` is a Scenario (or mapping); ``recommendations``
    the engine's Recommendation objects or their dicts."""
    if isinstance(scenario, dict):
        from advisor.scenario import parse_scenario

        scenario = parse_scenario(scenario)
    estate = getattr(scenario, "estate", None) or {}
    today = estate.get("today") or {}
    recs = [r if isinstance(r, dict) else r.to_dict() for r in recommendations]

    def find(decision: str, scope: str = "cluster") -> dict | None:
        return next((r for r in recs if r.get("decision") == decision and r.get("scope") == scope), None)

    out: list[dict[str, Any]] = []

    def add(decision: str, scope: str, now: str, compare: str | None = None) -> None:
        r = find(decision, scope)
        if r is None or not now:
            return
        advised = str(r.get("choice", ""))
        out.append({"decision": decision, "scope": scope, "today": now, "advised": advised,
                    "because": _because(str(r.get("rationale", "")), advised),
                    "differs": not _same(compare if compare is not None else now, advised)})

    if today.get("hypervisor"):
        hv = str(today["hypervisor"])
        r = find("hypervisor")
        same = r is not None and str(r.get("choice", "")).split()[0].lower() in hv.lower()
        add("hypervisor", "cluster", hv, str(r.get("choice")) if same and r else hv)
    ratio = today.get("vcpus_per_core")
    per_thread = today.get("vcpus_per_thread")
    parts = []
    if ratio is not None or per_thread is not None:
        parts.append(f"{ratio:g} vCPUs per core" if ratio is not None else f"{per_thread:g} vCPUs per hardware thread")
    if today.get("pinned_vms"):
        parts.append(f"{today['pinned_vms']} VM(s) with pinned vCPUs")
    if parts:
        now = "; ".join(parts)
        r = find("vcpu_overallocation")
        value = r.get("value") if r else None
        differs_cmp = None
        if r is not None and ratio is not None and value:
            differs_cmp = str(r.get("choice")) if abs(float(ratio) - float(value)) <= 0.25 * float(value) else now
        add("vcpu_overallocation", "cluster", now, differs_cmp)
        if out and out[-1]["decision"] == "vcpu_overallocation" and value:
            out[-1]["advised"] = f"{out[-1]['advised']} (up to {float(value):g} vCPUs per core)"
    if today.get("hosts"):
        add("host_count", "cluster", f"{today['hosts']} hosts", str(today["hosts"]))
    for w in scenario.workloads:
        t = getattr(w, "today", None) or {}
        if t.get("cache"):
            add("cache_mode", f"workload:{w.name}", str(t["cache"]))
    return out


def format_today(rows: list[dict[str, Any]]) -> list[str]:
    """One line per decision: ``cache_mode (web): today writeback; advised none, because ...``."""
    lines = []
    for r in rows:
        scope = "" if r["scope"] == "cluster" else f" ({r['scope'].split(':', 1)[1]})"
        mark = "" if r["differs"] else " (unchanged)"
        because = f", because {r['because'][0].lower()}{r['because'][1:]}" if r["because"] else ""
        lines.append(f"{r['decision'].replace('_', ' ')}{scope}: today {r['today']}; advised {r['advised']}"
                     f"{mark}{because}")
    return lines


#: the fields a coarse ``hosts.cpu`` mark stands for (a user declaring one of them declares only that one)
_CPU_FIELDS = ("sockets", "cores_per_socket", "threads_per_core", "ghz")


def marks_after_edit(data: dict[str, Any], path: tuple[str | int, ...]) -> dict[tuple[str | int, ...], list[str]]:
    """The ``assumed`` lists that change when a user sets the value at ``path`` (a scenario data
    path such as ``("hosts", "nic_gbps")`` or ``("workloads", 0, "io", "pattern")``): the value is
    declared now, so its mark goes (and any mark below it). A coarse mark above it stays, since the
    rest is still assumed (``hosts.disks`` when one disk field is edited), except ``hosts.cpu``,
    which splits into its other fields. Returns ``{path of the list: new list}`` (empty: no change)."""
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
    if not isinstance(marks, list) or not marks:
        return {}
    kept: list[str] = []
    for m in marks:
        if m == field_ or m.startswith(field_ + "."):
            continue  # declared now
        if m == "hosts.cpu" and field_.startswith("hosts.cpu."):
            kept += [f"hosts.cpu.{f}" for f in _CPU_FIELDS if f"hosts.cpu.{f}" != field_ and f"hosts.cpu.{f}" not in marks]
            continue
        kept.append(m)
    return {} if kept == marks else {where: kept}


# --- the scenario file -----------------------------------------------------------------------
def scenario_yaml(data: dict[str, Any]) -> str:
    """The scenario as YAML with a header and an ``# assumed`` comment on every line whose value
    is an assumption (the ``assumed`` lists say the same for programs)."""
    import yaml

    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)
    host_assumed = set((data.get("estate") or {}).get("assumed", []))
    workloads = data.get("workloads", [])
    out: list[str] = []
    section = ""
    sub = ""
    w_index = -1
    for line in text.splitlines():
        top = re.match(r"^([a-z_]+):", line)
        if top:
            section, sub = top.group(1), ""
        comment = ""
        if section == "hosts":
            m = re.match(r"^  ([a-z_]+):", line)
            if m:
                sub = m.group(1)
                if f"hosts.{sub}" in host_assumed:
                    comment = "assumed"
            m2 = re.match(r"^    ([a-z_]+):", line)
            if m2 and sub == "cpu" and (f"hosts.cpu.{m2.group(1)}" in host_assumed or "hosts.cpu" in host_assumed):
                comment = "assumed"
        elif section == "workloads":
            if line.startswith("- "):
                w_index += 1
                sub = ""
            assumed = set(workloads[w_index].get("assumed", [])) if 0 <= w_index < len(workloads) else set()
            m = re.match(r"^(?:- |  )([a-z_]+):", line)
            if m:
                sub = m.group(1)
                if sub in assumed and sub != "assumed":
                    comment = "assumed"
            m2 = re.match(r"^    ([a-z_]+):", line)
            if m2 and sub == "io" and f"io.{m2.group(1)}" in assumed:
                comment = "assumed"
        out.append(f"{line}  # {comment}" if comment else line)
    sources = ", ".join(Path(s["file"]).name for s in (data.get("estate") or {}).get("sources", []))
    header = [
        "# Capacity Advisor scenario imported from today's estate"
        + (f" ({sources})" if sources else "") + " by `capadvisor inventory`.",
        "# Values marked '# assumed' (and listed under each workload's 'assumed' and estate.assumed) are",
        "# defaults, not facts from the export: check them before trusting the advice.",
        "# 'today' and estate.today record what runs now (cache modes, pinning, vCPUs per core, hosts).",
        "# Units: RAM GiB, disk GB, links Gb/s, CPU GHz.",
    ]
    return "\n".join(header + out) + "\n"


def write_scenario(data: dict[str, Any], path: Path | str) -> None:
    """Write the imported scenario atomically (YAML with comments, or JSON/TOML by suffix)."""
    from advisor.scenario import _format_of, dumps, parse_scenario
    from knowledge.infra.atomic import write_text_atomic

    path = Path(path)
    fmt = _format_of(path)
    scenario = parse_scenario(data, str(path))  # never write what advise would refuse
    text = scenario_yaml(data) if fmt == "yaml" else dumps(scenario, fmt)
    write_text_atomic(path, text)
