"""What the estate runs and measured today, as far as its sources say: the hypervisor, vCPUs per
core, cache modes, pinning, the hosts' and VMs' CPU and memory usage at export time
(:class:`EstateToday`, the base of :class:`advisor.inventory.Inventory`), and :func:`today_rows`, the
same facts as labelled text for the CLI and the GUI."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from knowledge.inventory.model import OVER_COLLECTION, VM, Estate, Host

#: QEMU's cache mode when a disk names none (libvirt leaves it to the hypervisor)
DEFAULT_CACHE = "writeback"
#: when usage read from an export was taken, unless a collector says it averaged it (``measured_at``)
EXPORT_TIME = "export time (a snapshot of the current usage, not a peak)"


@dataclass
class Measured:
    """A CPU busy share (0-1 of each vCPU) and where it comes from."""

    share: float
    vms: int            # VMs measured (0: the estate-wide figure of the hosts)
    of: int             # powered-on VMs it stands for
    source: str         # what was read, for the scenario and the summary
    #: busy share per percentile key (p50, p95, peak) over a collection, where every VM measured has them
    percentiles: dict[str, float] | None = None
    #: the estate's figure standing in for VMs none of which was measured: an assumption, not a measurement
    assumed: bool = False
    #: of ``vms``, those in ``percentiles`` at their own (or their hosts') share: the collector gave them none
    flat: int = 0
    #: where the VMs' collectors give different percentiles (Live Optics a peak, Nutanix p50/p95/peak): per set
    #: of keys given (``"p50, p95, peak"``), how many VMs and their names; empty when all give the same
    given: dict[str, tuple[int, list[str]]] = field(default_factory=dict)

    @property
    def level(self) -> str:
        from advisor.recommend.load import level_of

        return level_of(self.share)


@dataclass
class Spread:
    """The hosts' CPU usage % spread over the VMs on them: per VM (by id) its busy share and where it
    comes from, and what could not be spread."""

    share: dict[int, float] = field(default_factory=dict)
    source: dict[int, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def add(self, other: Spread) -> None:
        self.share.update(other.share)
        self.source.update(other.source)
        self.warnings += other.warnings


def vm_sizes(vms: list[VM]) -> list[tuple[int, float, int]]:
    """``(vcpus, ram_mib, count)`` of the VMs whose source gives both vCPUs and RAM."""
    return [(v.vcpus, v.ram_mib, v.count) for v in vms if v.vcpus is not None and v.ram_mib is not None]


def cache_counts(vms: list[VM]) -> Counter:
    """Virtual disks per cache mode (a disk naming none counts as :data:`DEFAULT_CACHE`)."""
    caches: Counter = Counter()
    for v in vms:
        for m in v.cache_modes:
            caches[m if m != "default" else DEFAULT_CACHE] += v.count
    return caches


class EstateToday:
    """The estate's VMs taken in (``vms``) and what they and their hosts measured today."""

    estate: Estate
    vms: list[VM]

    def _host_index(self) -> dict[str, Host]:
        out: dict[str, Host] = {}
        for h in self.estate.hosts:
            out[h.name] = h
            for a in h.aliases:
                out.setdefault(a, h)
        return out

    def _mean_mhz(self) -> float | None:
        """The hosts' clock, MHz, weighted by their cores (None when no host gives it)."""
        pairs = [(h.ghz * 1000.0, h.cores or h.logical_cpus or 1) for h in self.estate.hosts if h.ghz]
        return sum(m * c for m, c in pairs) / sum(c for _m, c in pairs) if pairs else None

    def vm_busy_share(self, vm: VM, hosts: dict[str, Host] | None = None, mean_mhz: float | None = None
                      ) -> float | None:
        """Share (0-1) of each vCPU ``vm`` kept busy when the export was taken: a per-VM CPU
        usage %, else its CPU use in MHz (RVTools vCPU 'Overall') over its vCPUs at its host's
        clock (or the hosts' mean clock, else the VM's 'Max' MHz). None: not measured or off."""
        if vm.powered_on is False or vm.template or not vm.vcpus:
            return None
        if vm.cpu_usage_pct is not None:
            return min(1.0, max(0.0, vm.cpu_usage_pct / 100.0))
        if vm.cpu_usage_mhz is None:
            return None
        host = (hosts if hosts is not None else self._host_index()).get(vm.host)
        mhz = host.ghz * 1000.0 if host is not None and host.ghz else mean_mhz
        denominator = vm.vcpus * mhz if mhz else vm.cpu_max_mhz
        return min(1.0, max(0.0, vm.cpu_usage_mhz / denominator)) if denominator else None

    def _spread(self) -> Spread:
        """The hosts' CPU usage % over the VMs on them (cached): per file of hosts, the busy MHz of its
        hosts that report it over the MHz of the powered-on vCPUs on them, so that one export's hosts
        never stand for another's VMs; over every powered-on VM when the VMs mostly name no such host."""
        if not hasattr(self, "_spread_cache"):
            hosts = [h for h in self.estate.hosts if h.cpu_usage_pct is not None and h.cores and h.ghz]
            on = [v for v in self.vms if v.powered_on is not False and v.vcpus and not v.template]
            names = {n for h in hosts for n in (h.name, *h.aliases)}
            placed = [v for v in on if v.host in names]
            out = Spread()
            if hosts and _vcpus(placed) < 0.5 * _vcpus(on):
                out.add(self._spread_over(hosts, on, _busy_mhz(hosts) * len(self.estate.hosts) / len(hosts)))
            elif hosts:
                for file in dict.fromkeys(h.source for h in hosts):
                    mine = [h for h in hosts if h.source == file]
                    names = {n for h in mine for n in (h.name, *h.aliases)}
                    out.add(self._spread_over(mine, [v for v in on if v.host in names], _busy_mhz(mine)))
            self._spread_cache = out
        return self._spread_cache

    def _spread_over(self, hosts: list[Host], vms: list[VM], busy_mhz: float) -> Spread:
        """``busy_mhz`` of ``hosts`` spread over the vCPUs of ``vms``; none, with a warning, when
        those vCPUs could not keep the hosts that busy (the export lists only part of what runs there)."""
        by_name, mean = self._host_index(), self._mean_mhz() or 1.0
        vcpu_mhz = sum((v.vcpus or 0) * v.count * ((by_name[v.host].ghz or 0.0) * 1000.0 if v.host in by_name and
                                                   by_name[v.host].ghz else mean) for v in vms)
        if vcpu_mhz <= 0:
            return Spread()
        n = sum(v.count for v in vms)
        if busy_mhz > vcpu_mhz:
            if all(self.vm_busy_share(v, by_name, mean) is not None for v in vms):
                return Spread()  # every VM has its own measurement: the hosts' figure is not needed
            return Spread(warnings=[
                f"the hosts' CPU usage % ({len(hosts)} hosts of {Path(hosts[0].source).name}) is more than the "
                f"{_vcpus(vms):,} vCPUs of the {n} powered-on VMs listed on them can keep busy (it would put them at "
                f"{100.0 * busy_mhz / vcpu_mhz:.0f} %): the export lists only part of what runs there, so no VM's "
                "CPU busy share is derived from it (the VMs without their own CPU usage keep an assumed CPU "
                "intensity)"])
        usage = ", ".join(sorted({h.usage_from or "vHost" for h in hosts}))
        text = f"the hosts' CPU usage % ({usage}) over the vCPUs of the {n} powered-on VMs on them"
        return Spread({id(v): busy_mhz / vcpu_mhz for v in vms}, {id(v): text for v in vms})

    def cpu_warnings(self) -> list[str]:
        """What the summary must say about the CPU figures (a hosts' usage the listed VMs cannot explain)."""
        return list(self._spread().warnings)

    def measured_cpu(self, vms: list[VM]) -> Measured | None:
        """The busy share of ``vms`` (vCPU-weighted): each VM's own measurement where the export has
        one, else the hosts' CPU usage % spread over the VMs on them. ``vms`` none of which is
        measured either way get the estate's figure, marked as assumed."""
        hosts, mean = self._host_index(), self._mean_mhz()
        spread = self._spread()
        on = [v for v in vms if v.powered_on is not False and v.vcpus and not v.template]
        own: list[tuple[VM, float]] = []
        by_host: list[tuple[VM, float]] = []
        for v in on:
            x = self.vm_busy_share(v, hosts, mean)
            if x is not None:
                own.append((v, x))
            elif id(v) in spread.share:
                by_host.append((v, spread.share[id(v)]))
        n_on = sum(v.count for v in on)
        measured = own + by_host
        if measured:
            vcpus = sum((v.vcpus or 0) * v.count for v, _x in measured)
            share = sum((v.vcpus or 0) * v.count * x for v, x in measured) / vcpus
            n = sum(v.count for v, _x in measured)
            pcts = self._percentiles(measured)
            return Measured(share, n if own else 0, n_on, _measured_text(own, by_host, spread, n, n_on),
                            percentiles=pcts, flat=sum(v.count for v, _x in measured if not v.cpu_pcts) if pcts else 0,
                            given=_given([v for v, _x in measured]) if pcts else {})
        if vms is not self.vms:
            whole = self._estate_cpu()
            if whole is not None:
                return Measured(whole.share, 0, n_on, "none of these VMs was measured" + (" (powered off)" if not on
                                                                                          else "")
                                + f": the estate's figure, assumed ({whole.source})", assumed=True)
        return None

    def _percentiles(self, measured: list[tuple[VM, float]]) -> dict[str, float] | None:
        """The vCPU-weighted busy share per percentile key of the ``measured`` VMs (``(VM, share)``) whose
        collector gives percentiles over its collection (every key any of them gives: a VM without one is
        read at its own figures by :func:`~advisor.scenario.model.share_at`, a Live Optics VM's peak for
        any percentile, and :attr:`Measured.given` says which), the other measured VMs added at their own
        share (their own measurement or their hosts') as constant busy cores, as a group partly covered by
        series is sized (:func:`advisor.inventory.series.without_series`); a VM measured by none takes the
        group's figure. None: no VM gives percentiles."""
        from advisor.scenario.model import percentile_of, share_at

        given = [v for v, _x in measured if v.cpu_pcts]
        keys = set().union(*(set(v.cpu_pcts or {}) for v in given))
        weight = sum((v.vcpus or 0) * v.count for v in given)
        if not keys or weight <= 0:
            return None

        def at(v: VM, k: str) -> float:
            pcts = v.cpu_pcts or {}
            return pcts[k] if k in pcts else float(share_at(pcts, percentile_of(k) or 0.0) or 0.0)

        busy = {k: sum((v.vcpus or 0) * v.count * at(v, k) for v in given) / 100.0 for k in keys}
        for v, x in measured:
            if not v.cpu_pcts:
                weight += (v.vcpus or 0) * v.count
                busy = {k: b + (v.vcpus or 0) * v.count * x for k, b in busy.items()}
        return {k: round(busy[k] / weight, 4) for k in sorted(keys)}

    def _estate_cpu(self) -> Measured | None:
        if not hasattr(self, "_estate_cpu_cache"):
            self._estate_cpu_cache = self.measured_cpu(self.vms)
        return self._estate_cpu_cache

    def hypervisor_today(self) -> str:
        hv = Counter(h.hypervisor for h in self.estate.hosts if h.hypervisor)
        if hv:
            name = hv.most_common(1)[0][0]
            if name and name[0].isdigit():
                name = f"VMware ESXi {name}"
            return name
        plat = Counter(v.platform for v in self.vms).most_common(1)
        return {"vmware": "VMware ESXi", "libvirt": "KVM (libvirt)", "proxmox": "Proxmox VE (KVM)",
                "openstack": "unknown (OpenStack Nova; the export does not name the hypervisor: add `openstack "
                             "hypervisor list --long -f json`)"}.get(plat[0][0], "") if plat else ""

    def today(self) -> dict[str, Any]:
        """What the estate runs today, as far as the sources say."""
        out: dict[str, Any] = {}
        hv = self.hypervisor_today()
        if hv:
            out["hypervisor"] = hv
        if self.estate.hosts:
            out["hosts"] = len(self.estate.hosts)
        on = [v for v in self.vms if v.powered_on is not False]
        on_sizes = vm_sizes(on)
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
        out.update(self.measured_today())
        caches = cache_counts(self.vms)
        if caches:
            out["cache_modes"] = dict(caches.most_common())  # per virtual disk
        pinned = [v for v in self.vms if v.pinned is not None]
        if pinned:
            out["pinned_vms"] = sum(v.count for v in pinned if v.pinned)
        backing = Counter(s for v in self.vms for s in v.storage)
        if backing:
            out["disk_backing"] = dict(backing.most_common())
        if self.estate.shared_storage:
            out["shared_storage"] = list(self.estate.shared_storage)
        return out

    def measured_today(self) -> dict[str, Any]:
        """What the estate measured at export time: the hosts' CPU and memory usage (weighted by
        their capacity), the cores and GiB that makes busy, and the VMs' own CPU measurements."""
        out: dict[str, Any] = {}
        cpu = [h for h in self.estate.hosts if h.cpu_usage_pct is not None]
        if cpu:
            weights = [(h.cores or h.logical_cpus or 1) * (h.ghz or 1.0) for h in cpu]
            out["host_cpu_usage_pct"] = round(sum((h.cpu_usage_pct or 0.0) * w for h, w in zip(cpu, weights, strict=True))
                                              / sum(weights), 1)
            if all(h.cores for h in cpu):
                out["busy_cores"] = round(sum((h.cpu_usage_pct or 0.0) / 100.0 * (h.cores or 0) for h in cpu), 1)
                out["busy_ghz"] = round(sum((h.cpu_usage_pct or 0.0) / 100.0 * (h.cores or 0) * (h.ghz or 0.0) for h in cpu), 1)
            out["cpu_usage_hosts"] = len(cpu)
        mem = [h for h in self.estate.hosts if h.mem_usage_pct is not None and h.ram_mib]
        if mem:
            ram = sum(h.ram_mib or 0.0 for h in mem)
            used = sum((h.mem_usage_pct or 0.0) / 100.0 * (h.ram_mib or 0.0) for h in mem)
            out["host_mem_usage_pct"] = round(100.0 * used / ram, 1)
            out["ram_in_use_gib"] = round(used / 1024.0, 1)
            out["mem_usage_hosts"] = len(mem)
        whole = self._estate_cpu()
        if whole is not None:
            out["vcpu_busy_pct"] = round(100.0 * whole.share, 1)
            out["vcpu_busy_from"] = whole.source
        consumed = [v for v in self.vms if v.mem_consumed_mib and v.powered_on is not False]
        if consumed:
            out["ram_consumed_gib"] = round(sum((v.mem_consumed_mib or 0.0) * v.count for v in consumed) / 1024.0, 1)
            out["ram_consumed_vms"] = sum(v.count for v in consumed)
            froms = Counter(v.mem_from or "a memory-in-use column" for v in consumed for _ in range(v.count))
            out["ram_consumed_from"] = ", ".join(f"{k} ({c} VMs)" if len(froms) > 1 else k for k, c in froms.items())
        ready = [v.cpu_ready_pct for v in self.vms if v.cpu_ready_pct is not None and v.powered_on is not False]
        if ready:
            out["cpu_ready_pct_max"] = round(max(ready), 2)
        if cpu or whole is not None:
            out["measured_at"] = self._measured_at(cpu)
        return out

    def _measured_at(self, hosts: list[Host]) -> str:
        """When the usage figures were taken: at export time, or as a collector's averages over its
        collection (Live Optics, Nutanix Collector performance sheets), said for the VMs' CPU and the
        hosts' usage apart when they differ."""
        def when(froms: list[str]) -> str:
            averaged = sum(OVER_COLLECTION in f for f in froms)
            return "" if not froms else "export time" if not averaged else OVER_COLLECTION if averaged == len(
                froms) else f"partly {OVER_COLLECTION}, partly export time"

        vms = when([v.cpu_from for v in self.vms if v.cpu_usage_pct is not None])
        on_hosts = when([h.usage_from for h in hosts])
        if {vms, on_hosts} <= {"", "export time"}:
            return EXPORT_TIME
        if not vms or not on_hosts or vms == on_hosts:
            return f"{vms or on_hosts} (not a peak)"
        return f"the VMs' CPU: {vms}; the hosts' usage: {on_hosts} (not a peak)"


def _given(vms: list[VM]) -> dict[str, tuple[int, list[str]]]:
    """The VMs of ``vms`` with a collector's percentiles, by the set of keys given (sorted by percentile):
    how many and their names, where the sets differ (:attr:`Measured.given`)."""
    from advisor.scenario.model import percentile_of

    out: dict[str, tuple[int, list[str]]] = {}
    for v in vms:
        if v.cpu_pcts:
            keys = ", ".join(sorted(v.cpu_pcts, key=lambda k: percentile_of(k) or 0.0))
            n, names = out.get(keys, (0, []))
            out[keys] = (n + v.count, [*names, v.name])
    return out if len(out) > 1 else {}


def _what_measured(vm: VM) -> str:
    """The column a VM's own CPU measurement was read from."""
    if vm.cpu_usage_pct is not None:
        return vm.cpu_from or "its per-VM CPU usage %"
    return "vCPU tab 'Overall' MHz over its vCPUs at the host's clock"


def _n_vms(n: int) -> str:
    return f"{n} VM" if n == 1 else f"{n} VMs"


def _vcpus(vms: list[VM]) -> int:
    return sum((v.vcpus or 0) * v.count for v in vms)


def _busy_mhz(hosts: list[Host]) -> float:
    return sum((h.cpu_usage_pct or 0.0) / 100.0 * (h.cores or 0) * (h.ghz or 0.0) * 1000.0 for h in hosts)


def _measured_text(own: list[tuple[VM, float]], by_host: list[tuple[VM, float]], spread: Spread, n: int,
                   n_on: int) -> str:
    """Where a group's busy share comes from: the columns its VMs were measured by, the hosts'."""
    parts = []
    if own:
        what = sorted({_what_measured(v) for v, _x in own})
        parts.append(", ".join(what) + (f" ({_n_vms(sum(v.count for v, _x in own))})" if by_host else ""))
    froms: Counter = Counter()
    for v, _x in by_host:
        froms[spread.source[id(v)]] += v.count
    parts += [f"{k} ({_n_vms(c)})" if own or len(froms) > 1 else k for k, c in froms.items()]
    return "; ".join(parts) + f" ({n} of {n_on} powered-on VMs measured)"


def today_rows(today: dict[str, Any]) -> list[tuple[str, str]]:
    """``(label, text)`` for each fact of ``estate.today``, each saying what it counts (VMs,
    disks, hosts) and, for measurements, when they were taken (the CLI and the GUI show these)."""
    rows: list[tuple[str, str]] = []
    t = today

    def n(x: float) -> str:
        return f"{x:,.1f}".rstrip("0").rstrip(".") if isinstance(x, float) else f"{x:,}"

    if t.get("hypervisor"):
        rows.append(("hypervisor", str(t["hypervisor"])))
    if t.get("hosts"):
        rows.append(("hosts", n(t["hosts"])))
    if t.get("vcpus_per_core") is not None:
        rows.append(("vCPUs per physical core", f"{n(t['vcpus_per_core'])} (vCPUs of the powered-on VMs over the "
                                                "hosts' cores)"))
    elif t.get("vcpus_per_thread") is not None:
        rows.append(("vCPUs per hardware thread", n(t["vcpus_per_thread"])))
    if t.get("ram_allocated_per_host_ram") is not None:
        rows.append(("RAM allocated / host RAM", f"{n(t['ram_allocated_per_host_ram'])} (powered-on VMs)"))
    measured = []
    if t.get("host_cpu_usage_pct") is not None:
        extra = [f"{n(t['busy_cores'])} busy cores"] if t.get("busy_cores") is not None else []
        extra.append(f"{t.get('cpu_usage_hosts', '?')} hosts")
        measured.append(f"hosts' CPU {n(t['host_cpu_usage_pct'])} % ({', '.join(extra)})")
    if t.get("host_mem_usage_pct") is not None:
        measured.append(f"hosts' memory {n(t['host_mem_usage_pct'])} % ({n(t.get('ram_in_use_gib', 0.0))} GiB in use, "
                        f"{t.get('mem_usage_hosts', '?')} hosts)")
    if t.get("vcpu_busy_pct") is not None:
        measured.append(f"VMs' vCPUs {n(t['vcpu_busy_pct'])} % busy (from {t.get('vcpu_busy_from', '?')})")
    if t.get("ram_consumed_gib") is not None:
        measured.append(f"VMs consume {n(t['ram_consumed_gib'])} GiB of RAM ({t.get('ram_consumed_vms', '?')} VMs, "
                        f"{t.get('ram_consumed_from', 'vMemory Consumed')})")
    if t.get("cpu_ready_pct_max") is not None:
        measured.append(f"highest CPU ready {n(t['cpu_ready_pct_max'])} %")
    if measured and t.get("measured_at", EXPORT_TIME) == EXPORT_TIME:
        rows.append(("measured at export time", "; ".join(measured) + " (a snapshot of the moment the export was "
                                                                   "taken, not a peak)"))
    elif measured:
        rows.append(("measured", "; ".join(measured) + f" ({t['measured_at']})"))
    if t.get("cache_modes"):
        rows.append(("disk cache modes (per virtual disk)", ", ".join(f"{k} {v}" for k, v in
                                                                       t["cache_modes"].items())))
    if t.get("pinned_vms") is not None:
        rows.append(("VMs with pinned vCPUs", n(t["pinned_vms"])))
    if t.get("disk_backing"):
        rows.append(("disk backing (per virtual disk)", ", ".join(f"{k} {v}" for k, v in t["disk_backing"].items())))
    if t.get("shared_storage"):
        rows.append(("shared storage", ", ".join(t["shared_storage"])))
    return rows

