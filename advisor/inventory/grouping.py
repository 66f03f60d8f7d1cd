"""Grouping an estate's VMs into workload groups (``auto``, ``size``, ``name-prefix``,
``cluster``), the user's edits (rename, merge, split) and what each group adds up to
(:class:`Profile`)."""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from advisor.inventory.today import EstateToday, Measured, cache_counts, vm_sizes
from advisor.scenario import DEFAULT_DISK_GB
from knowledge.infra.errors import InputError
from knowledge.inventory.model import VM, Estate

#: ways of grouping (the CLI's --group-by)
GROUP_BY = ("auto", "size", "name-prefix", "cluster")
#: ways of splitting one group
SPLIT_BY = ("size", "name-prefix", "cluster", "power", "half")
#: groups ``auto`` aims at (it only merges groups of equal vCPU count)
AUTO_MAX_GROUPS = 12


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
    application: str = ""
    cache_disks: int = 0                 # virtual disks whose cache mode is known
    cpu: Measured | None = None          # the CPU usage measured for these VMs (or the estate's)
    ram_consumed_gib: float | None = None  # mean per measured VM (vMemory Consumed)
    ram_measured_vms: int = 0

    @property
    def vcpu_total(self) -> int:
        """vCPUs the scenario plans for this group."""
        return self.vms * self.vcpus

    @property
    def mixed_vcpus(self) -> bool:
        return self.vcpu_range[0] != self.vcpu_range[1]

    def today_text(self) -> str:
        """What these VMs run with today, each count saying what it counts (disks or VMs); the
        CLI's group table and the GUI's import dialog show this text."""
        parts = []
        if self.cache_today:
            single = "(" not in self.cache_today
            n = self.cache_disks
            parts.append(f"cache {self.cache_today}" + (f" ({n} disk{'s' if n != 1 else ''})" if single else ""))
        if self.pinned:
            parts.append(f"{self.pinned} VM{'s' if self.pinned != 1 else ''} pinned")
        if self.powered_off:
            parts.append(f"{self.powered_off} VM{'s' if self.powered_off != 1 else ''} off")
        if self.mixed_vcpus:
            parts.append(f"vCPUs {self.vcpu_range[0]}-{self.vcpu_range[1]}")
        if self.unsized:
            parts.append(f"{self.unsized} VM{'s' if self.unsized != 1 else ''} without size (assumed)")
        if self.cpu is not None:
            pcts = ", ".join(f"{k} {100.0 * x:.1f} %" for k, x in (self.cpu.percentiles or {}).items())
            parts.append(f"CPU {100.0 * self.cpu.share:.1f} % busy" + (f" ({pcts})" if pcts else "")
                         + (" (assumed: the estate's figure; none of these VMs measured)" if self.cpu.assumed
                            else " (measured)"))
        return "; ".join(parts)


def _slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-._")
    return s or "group"


def num_text(x: float) -> str:
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



class Grouping(EstateToday):
    """An estate and its workload groups: grouping, the user's edits and the groups' figures."""

    def __init__(self, estate: Estate, group_by: str = "auto", include_powered_off: bool = True,
                 name: str = ""):
        self.estate = estate
        self.include_powered_off = include_powered_off
        self.vms: list[VM] = [v for v in estate.vms if not v.template and (include_powered_off or v.powered_on
                                                                            is not False)]
        self.name = name or self._default_name()
        #: the percentile of the VMs' own CPU statistics the groups are sized on (None: the scenario's default)
        self.sizing_percentile: float | None = None
        self.group_by = "auto"
        self.groups: list[Group] = []
        self.regroup(group_by)

    # --- grouping --------------------------------------------------------------------------
    def set_include_powered_off(self, include: bool) -> None:
        """Take powered-off VMs in or leave them out, and group again the same way."""
        self.include_powered_off = include
        self.__dict__.pop("_estate_cpu_cache", None)
        self.__dict__.pop("_spread_cache", None)
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
            label = f"{ct}{cpu}-{num_text(vm.ram_mib / 1024)}g" + (f"-{num_text(disk)}gb" if disk else "")
            return (vm.container, vm.vcpus, round(vm.ram_mib), disk), label
        if mode == "auto":
            if vm.group:
                return (vm.container, "group", vm.group, vm.vcpus), f"{ct}{vm.group}"
            ram = _ram_bucket(vm.ram_mib / 1024)
            disk = _bucket_125(vm.disk_gb)
            label = f"{ct}{cpu}-{num_text(ram)}g" + (f"-{num_text(disk)}gb" if disk else "")
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
        if mode in ("auto", "size"):
            for g in groups:  # named by what the group holds, not by the bounds it was bucketed in
                if not (mode == "auto" and self.vms[g.members[0]].group) and g.name != "unsized":
                    g.name = self._size_label(g)
        groups.sort(key=lambda g: (-self.profile(g).vms, g.name))
        return groups

    def _merge_small(self, groups: list[Group]) -> list[Group]:
        """Merge the smallest groups into the most similar group of equal vCPU count until at
        most :data:`AUTO_MAX_GROUPS` remain (or no such pair is left)."""
        stats: dict[int, list] = {}  # id(group) -> [vms, ram_total_gib, disk_total_gb, disk_vms, cpu key]
        for g in groups:
            vms = [self.vms[i] for i in g.members]
            sizes = vm_sizes(vms)
            if len(sizes) < len(vms):
                continue  # the unsized group stays as it is
            stats[id(g)] = [sum(v.count for v in vms), sum(r * k for _c, r, k in sizes) / 1024,
                            sum((v.disk_gb or 0) * v.count for v in vms), sum(v.count for v in vms if v.disk_gb),
                            (vms[0].vcpus, vms[0].container)]

        def vec(g: Group) -> tuple[float, float]:
            n, ram, disk, dn, _k = stats[id(g)]
            return math.log2(max(ram / n, 0.25)), math.log10(max(disk / dn if dn else DEFAULT_DISK_GB, 1.0))

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
        return groups

    def _size_label(self, g: Group) -> str:
        """``4vcpu-8g-120gb``, ``4vcpu-12-24g-75-540gb``: vCPUs, the RAM and the disk sizes the
        group's VMs actually have (a range where they differ)."""
        p = self.profile(g)
        vms = [self.vms[i] for i in g.members]
        ct = "ct-" if p.containers == p.vms and p.vms else ""
        lo, hi = p.ram_range_gib
        ram = f"{num_text(lo)}g" if abs(hi - lo) < 1e-9 else f"{num_text(lo)}-{num_text(hi)}g"
        disks = [round(v.disk_gb) for v in vms if v.disk_gb]
        disk = ""
        if disks:
            dlo, dhi = min(disks), max(disks)
            disk = f"-{dlo}gb" if dlo == dhi else f"-{dlo}-{dhi}gb"
        cpu = f"{p.vcpu_range[0]}-{p.vcpu_range[1]}" if p.mixed_vcpus else f"{p.vcpus}"
        return f"{ct}{cpu}vcpu-{ram}{disk}"

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
        sizes = vm_sizes(vms)
        n = sum(v.count for v in vms)
        ns = sum(k for _c, _r, k in sizes)
        cpu_total = sum(c * k for c, _r, k in sizes)
        ram_total = sum(r * k for _c, r, k in sizes) / 1024
        disks = [(v.disk_gb, v.count) for v in vms if v.disk_gb is not None and v.disk_gb > 0]
        used = [(v.used_gb, v.count) for v in vms if v.used_gb is not None and v.used_gb > 0]
        caches = cache_counts(vms)
        cache = None
        if caches:
            cache = caches.most_common(1)[0][0] if len(caches) == 1 else \
                ", ".join(f"{m} ({c} disk{'s' if c != 1 else ''})" for m, c in caches.most_common())
        apps = Counter(v.application for v in vms if v.application)
        consumed = [(v.mem_consumed_mib, v.count) for v in vms if v.mem_consumed_mib and v.powered_on is not False]
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
            if vms else "", os=oses.most_common(1)[0][0] if oses else "",
            application=apps.most_common(1)[0][0] if apps else "", cache_disks=sum(caches.values()),
            cpu=self.measured_cpu(vms),
            ram_consumed_gib=sum(c * k for c, k in consumed) / 1024 / sum(k for _c, k in consumed) if consumed else None,
            ram_measured_vms=sum(k for _c, k in consumed))

    def source_totals(self) -> dict[str, float]:
        """VMs, vCPUs and RAM (GiB) of the VMs imported, summed from the estate."""
        sizes = vm_sizes(self.vms)
        return {"vms": sum(v.count for v in self.vms), "vcpus": sum(c * k for c, _r, k in sizes),
                "ram_gib": sum(r * k for _c, r, k in sizes) / 1024,
                "disk_gb": sum((v.disk_gb or 0) * v.count for v in self.vms)}

    def scenario_totals(self) -> dict[str, float]:
        """The same totals as the grouped scenario plans them."""
        ps = [self.profile(g) for g in self.groups]
        return {"vms": sum(p.vms for p in ps), "vcpus": sum(p.vcpu_total for p in ps),
                "ram_gib": sum(p.vms * p.ram_gib for p in ps),
                "disk_gb": sum(p.vms * (p.disk_gb or 0) for p in ps)}
