"""The two ends of every ratio transfer: the documents' testbeds and the scenario's hardware.

The documents measured on their own machines (a 4 GB host with one 7200 rpm disk, 1 Gb/s
links, ...). What carries over to another machine is a *ratio*: mode against mode, n VMs
against one, guest against native, protocol against protocol. A figure for the scenario is the
documents' figure times ``target / testbed`` for the hardware figure it depends on (random IOPS,
streaming MB/s, link rate, CPU capacity), where the target is, per figure:

* the scenario's declared figure (a disk group's ``iops`` / ``mb_s``, ``nic_gbps``, a shared
  store's ``network_gbps`` and ``iops``, the CPU's cores and ``ghz``); a host figure that an
  imported estate only assumed (listed under ``estate.assumed``: no export carried it, the
  import filled in a default) counts as a default, not as declared (source ``assumed``,
  basis "scenario hardware (per-kind defaults)");
* else a site's measured figure for that kind of disk (``--site``; see advisor/calibration.py);
* else the per-kind defaults below (datasheet-typical figures, an assumption, overridable per disk);
* or the probe's measurement when "Use this machine" filled the host (a disk with ``source: probe``).

The transfer is the identity on a testbed: its disks count at the same per-kind defaults
(no document states its disk's IOPS or MB/s), so a scenario with the testbed's hardware gets the
documents' numbers back, with basis ``documents``. :func:`basis_of` names the basis of a figure
from the hardware figures it rests on; :func:`stamp` writes it (and those figures, readable)
into an expected figure. Page-cache effects do not transfer by a ratio (they depend on RAM, not
on the disk): the families carry them through their own features (RAM per VM, working set).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from advisor.expected import ExpectedFigure, as_figure

#: the basis strings of expected figures (plus ``site:<name>``)
DOCUMENTS = "documents"
DEFAULTS = "scenario hardware (per-kind defaults)"
DECLARED = "scenario hardware (declared)"
PROBE = "probe"
BASES = (DOCUMENTS, DEFAULTS, DECLARED, PROBE)


def assumed_host_fields(scenario) -> frozenset[str]:
    """The host fields an imported estate only assumed (``estate.assumed``: ``hosts.nic_gbps``,
    ``hosts.disks``, ``hosts.cpu.ghz`` ...): no export carried them, the import filled in defaults."""
    estate = getattr(scenario, "estate", None)
    marks = estate.get("assumed") if isinstance(estate, dict) else None
    return frozenset(m for m in marks or () if isinstance(m, str) and m.startswith("hosts."))


def valid_basis(basis: object) -> bool:
    """Whether ``basis`` is one of the basis strings (``site:<name>`` with a name)."""
    return isinstance(basis, str) and (basis in BASES or (basis.startswith("site:") and len(basis) > 5))


@dataclass(frozen=True)
class KindDefaults:
    """Per-disk figures assumed for a kind of disk whose figures the scenario does not give."""

    iops: float  # random 4 KiB operations per second, the lower of reads and writes
    mb_s: float  # sequential MB/s (10^6 B/s)
    source: str  # where the numbers come from


#: shared-storage kind behind each image backend (local_disk has none); here, below the
#: recommenders, so that the hardware model needs nothing of advisor.recommend
SHARED_KIND = {"nfs_file": "nfs", "nfs_root": "nfs", "iscsi": "iscsi", "distributed": "distributed"}

#: per-kind defaults (an assumption: typical datasheet figures of current enterprise devices,
#: overridable per disk group with ``iops`` and ``mb_s``); docs/scenarios.md "Per-kind disk defaults"
PER_KIND = {
    "hdd": KindDefaults(150.0, 150.0, "7200 rpm SATA/SAS drive: about 8.5 ms average seek plus 4.2 ms half a "
                                      "rotation gives 80-200 random IOPS; 150-250 MB/s sustained on the outer "
                                      "tracks (datasheet-typical)"),
    "ssd": KindDefaults(50_000.0, 500.0, "SATA enterprise SSD: 50,000-100,000 random 4 KiB IOPS (steady-state "
                                         "writes at the low end); 500-550 MB/s, the 6 Gb/s SATA line rate "
                                         "(datasheet-typical)"),
    "nvme": KindDefaults(300_000.0, 2000.0, "PCIe 3.0 x4 NVMe SSD: 200,000-800,000 random 4 KiB IOPS (steady-state "
                                            "writes at the low end); 2,000-3,500 MB/s (datasheet-typical)"),
}
MB_S_PER_GBPS = 125.0  # a link of 1 Gb/s moves at most 125 MB/s


@dataclass(frozen=True)
class Testbed:
    """The hardware a family's measurements were taken on (as far as the transfer needs it):
    ``document`` and ``testbed`` name the row of ``capadvisor kb testbeds``."""

    document: str
    testbed: str
    description: str
    disk_kind: str | None = None
    disks: int = 0
    link_gbps: float | None = None
    ghz: float | None = None
    cores: float | None = None
    vm_ram_gib: float | None = None

    def need(self, name: str) -> float:
        """A figure a transfer needs (``cores``, ``ghz``, ``link_gbps``, ``vm_ram_gib``): a testbed
        entry without it is a data error, named here."""
        value = getattr(self, name)
        if value is None:
            raise ValueError(f"testbed {self.testbed} of document {self.document} states no {name}")
        return float(value)

    @property
    def disk_iops(self) -> float:
        """Random IOPS of the testbed's disks together (per-kind defaults: no document states them)."""
        return PER_KIND[self.disk_kind].iops * self.disks if self.disk_kind else math.nan

    @property
    def disk_mb_s(self) -> float:
        """Sequential MB/s of the testbed's disks together (per-kind defaults)."""
        return PER_KIND[self.disk_kind].mb_s * self.disks if self.disk_kind else math.nan

    def describe(self) -> str:
        """One line: document, testbed id and the figures the transfer divides by."""
        parts = [self.description]
        if self.disk_kind:
            parts.append(f"{self.disks} x {self.disk_kind.upper()} taken at {PER_KIND[self.disk_kind].iops:,.0f} IOPS "
                         f"and {PER_KIND[self.disk_kind].mb_s:,.0f} MB/s each")
        if self.link_gbps:
            parts.append(f"{self.link_gbps:g} Gb/s link")
        if self.cores:
            parts.append(f"{self.cores:g} cores" + (f" at {self.ghz:g} GHz" if self.ghz else ""))
        if self.vm_ram_gib:
            parts.append(f"{self.vm_ram_gib:g} GiB per VM")
        return f"doc {self.document} {self.testbed}: " + ", ".join(parts)


#: the testbed of each family (and of the testbed figures some decisions show), from
#: ``capadvisor kb testbeds``
TESTBEDS = {
    "cache_mode_throughput": Testbed("001", "TB1", "one KVM host, 4 GB RAM", "hdd", 1, ghz=3.0, cores=2),
    "boot_time": Testbed("002", "TB-BOOT", "Xen blades, one SCSI disk each, shared storage over 1 Gb/s", "hdd", 1,
                         link_gbps=1.0, ghz=2.4, cores=4),
    # doc 002's storage server: a blade on an HP EVA 8100 SAN whose disks the document does not
    # state; it kept up with the sixteen I/O-heavy VMs that filled its 1 Gb/s link (rows F8-02,
    # F8-03: network-bound, its CPU at 33 %), each of which alone kept a testbed disk busy (F7-01):
    # taken at sixteen testbed disks, the least that is consistent with that
    "boot_store": Testbed("002", "TB-STORE", "storage server on a SAN, taken at the sixteen testbed disks its "
                          "sixteen I/O-heavy VMs kept busy", "hdd", 16, link_gbps=1.0),
    "image_transfer_time": Testbed("000", "TB-PROP", "image repository to one host over Gigabit Ethernet", "hdd", 1,
                                   link_gbps=1.0, ghz=2.83, cores=4),
    "block_size_throughput": Testbed("003", "TB1", "Xen host, guests on partitions of one SATA disk", "hdd", 1,
                                     ghz=2.4, cores=4),
    "doc003_testbed": Testbed("003", "TB1", "Xen host, guests on partitions of one SATA disk", "hdd", 1,
                              ghz=2.4, cores=4),
    "distributed_throughput": Testbed("004", "c4-tb2", "24 storage nodes of 16 HDDs, 1 Gb/s node links", "hdd", 16,
                                      link_gbps=1.0),
    "overallocation_overhead": Testbed("004", "c8-TB1", "two ESXi hosts of 12 cores at 2.0 GHz, 10 Gb/s",
                                       link_gbps=10.0, ghz=2.0, cores=12, vm_ram_gib=14.0),
    "migration": Testbed("004", "c8-TB1", "two ESXi hosts of 12 cores at 2.0 GHz, 10 Gb/s, 14 GB per VM",
                         link_gbps=10.0, ghz=2.0, cores=12, vm_ram_gib=14.0),
    "container_cpu": Testbed("004", "c9-TB1", "three HP DL380 G7 servers of 16 cores (clock not stated)", cores=16),
}


@dataclass(frozen=True)
class HwFigure:
    """One hardware figure a number rests on: what, how much, and where it comes from
    (``declared``, ``assumed`` (an imported estate's default), ``defaults``, ``probe`` or
    ``site:<name>``)."""

    what: str
    value: float
    unit: str
    source: str

    def label(self) -> str:
        src = {"declared": "declared", "defaults": "per-kind default", "probe": "probe",
               "assumed": "assumed by the import"}.get(self.source, self.source)
        return f"{self.what}: {_num(self.value)} {self.unit} ({src})"


def kind_name(kind: str) -> str:
    return {"nvme": "NVMe"}.get(kind, kind.upper())


def store_name(kind: str) -> str:
    return {"nfs": "NFS store", "iscsi": "iSCSI store", "distributed": "distributed store"}.get(kind, f"{kind} store")


def _num(x: float) -> str:
    """A readable number: thousands separated, four significant digits below 1000."""
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.4g}"


def basis_of(figures: Iterable[HwFigure], same_as_testbed: bool = False) -> str:
    """The basis of a figure resting on ``figures``: ``documents`` when it rests on none or the
    hardware equals the testbed's, else the weakest source among them (a site's figures, then
    the probe, then per-kind defaults, then declared figures)."""
    sources = {f.source for f in figures}
    if not sources or same_as_testbed:
        return DOCUMENTS
    site = sorted(s for s in sources if s.startswith("site:"))
    if site:
        return site[0]
    if "probe" in sources:
        return PROBE
    if "defaults" in sources or "assumed" in sources:
        return DEFAULTS
    return DECLARED


#: weakest first: the basis a decision shows when its figures rest on several
_ORDER = (PROBE, DEFAULTS, DECLARED, DOCUMENTS)


def summary_basis(bases: Iterable[str | None]) -> str:
    """One basis for several figures: a site's if any, else the weakest of the others
    (probe, per-kind defaults, declared, documents); ``documents`` for none."""
    found = [b for b in bases if b is not None and valid_basis(b)]
    site = sorted(b for b in found if b.startswith("site:"))
    if site:
        return site[0]
    return next((b for b in _ORDER if b in found), DOCUMENTS)


def stamp(fig: ExpectedFigure, figures: Iterable[HwFigure], testbed: Testbed | None = None,
          same_as_testbed: bool = False) -> ExpectedFigure:
    """Write ``basis`` and the ``hardware`` labels (and the ``testbed`` line) into ``fig``."""
    figures = list(dict.fromkeys(figures))
    fig.basis = basis_of(figures, same_as_testbed)
    fig.hardware = [f.label() for f in figures]
    if testbed is not None:
        fig.testbed = testbed.describe()
    return fig


def basis_groups(expected) -> list[tuple[str, list[str], list[str], list[str]]]:
    """The expected figures of one choice grouped by basis, for cards and reports:
    ``[(basis, figure names, hardware labels, testbed lines)]``, the weakest basis first."""
    groups: dict[str, tuple[list[str], list[str], list[str]]] = {}
    for name, given in expected.items():
        fig = as_figure(given)
        basis = fig.basis
        if basis is None or not valid_basis(basis):
            continue
        names, hw, beds = groups.setdefault(basis, ([], [], []))
        names.append(name)
        hw += [h for h in fig.hardware or [] if h not in hw]
        if fig.testbed and fig.testbed not in beds:
            beds.append(fig.testbed)
    rank = {b: i for i, b in enumerate(_ORDER)}
    order = sorted(groups, key=lambda b: (not b.startswith("site:"), rank.get(b, -1)))
    return [(b, *groups[b]) for b in order]


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


@dataclass
class Device:
    """What the VMs of one host share for their images: random IOPS, sequential MB/s (after
    every link on the way), and the hardware figures these rest on."""

    iops: float
    mb_s: float
    figures: list[HwFigure] = field(default_factory=list)
    description: str = ""
    link_mb_s: float = math.inf  # the part of mb_s that is a link (inf: local disks)


class Hardware:
    """The scenario's hardware with the source of every figure (see the module doc).

    ``calibration`` is the :class:`advisor.calibration.Calibration` of the run (site figures for
    the disks of the kind the site measured)."""

    def __init__(self, scenario, calibration=None):
        self.scenario = scenario
        self.calibration = calibration
        self.assumed = assumed_host_fields(scenario)

    def source(self, *fields: str) -> str:
        """``assumed`` when an imported estate only assumed one of the host ``fields`` (or a field
        above it: ``hosts.cpu`` covers ``hosts.cpu.ghz``), else ``declared``."""
        hit = any(f == a or f.startswith(a + ".") for f in fields for a in self.assumed)
        return "assumed" if hit else "declared"

    # --- disks ---------------------------------------------------------------------------------
    def _declared_source(self, d) -> str:
        return "probe" if getattr(d, "source", None) == "probe" else self.source("hosts.disks")

    def disk_iops(self, d, reads_only: bool = False) -> HwFigure:
        """Random IOPS of one disk of group ``d``."""
        return self._disk(d, d.iops, "IOPS", "disk_iops", PER_KIND[d.kind].iops, reads_only)

    def disk_mb_s(self, d, reads_only: bool = False) -> HwFigure:
        """Sequential MB/s of one disk of group ``d``."""
        return self._disk(d, d.mb_s, "MB/s", "disk_mb_s", PER_KIND[d.kind].mb_s, reads_only)

    def _disk(self, d, given, unit: str, site_figure: str, default: float, reads_only: bool) -> HwFigure:
        """A disk figure: ``given`` in the scenario, else the site's for that kind of disk, else ``default``."""
        what = f"{kind_name(d.kind)} disk"
        if given:
            return HwFigure(what, float(given), unit, self._declared_source(d))
        cal = self.calibration
        site = getattr(cal, site_figure)(d.kind, reads_only) if cal is not None else None
        if site:
            return HwFigure(what, float(site), unit, f"site:{cal.site}")
        return HwFigure(what, default, unit, "defaults")

    def local(self, reads_only: bool = False) -> Device | None:
        """One host's local disks together (None without local disks)."""
        disks = self.scenario.hosts.disks
        if not disks:
            return None
        figs, iops, mb_s, parts = [], 0.0, 0.0, []
        for d in disks:
            fi, fm = self.disk_iops(d, reads_only), self.disk_mb_s(d, reads_only)
            figs += [HwFigure(f"{d.count} x {fi.what} per host", fi.value, f"{fi.unit} each", fi.source),
                     HwFigure(f"{d.count} x {fm.what} per host", fm.value, f"{fm.unit} each", fm.source)]
            iops += fi.value * d.count
            mb_s += fm.value * d.count
            parts.append(f"{d.count} x {kind_name(d.kind)}")
        return Device(iops, mb_s, figs, "local " + " + ".join(parts) + " per host")

    # --- links and CPU ----------------------------------------------------------------------
    def nic(self) -> HwFigure:
        return HwFigure("host NIC", float(self.scenario.hosts.nic_gbps), "Gb/s", self.source("hosts.nic_gbps"))

    def store_link(self, kind: str) -> HwFigure | None:
        offers = [s for s in self.scenario.hosts.shared_storage if s.kind == kind]
        if not offers:
            return None
        return HwFigure(f"{store_name(kind)} link", max(float(s.network_gbps) for s in offers), "Gb/s",
                        self.source("hosts.shared_storage.network_gbps"))

    def cores(self) -> HwFigure:
        return HwFigure("physical cores per host", float(self.scenario.hosts.cpu.cores), "cores",
                        self.source("hosts.cpu.sockets", "hosts.cpu.cores_per_socket"))

    def ghz(self) -> HwFigure:
        return HwFigure("CPU clock", float(self.scenario.hosts.cpu.ghz), "GHz", self.source("hosts.cpu.ghz"))

    # --- the device behind the VMs ----------------------------------------------------------
    def store(self, kind: str, reads_only: bool = False) -> Device | None:
        """A shared store of ``kind`` as a whole: its stated IOPS, else disks like the hosts'
        (as many as its capacity holds at the hosts' disk size, else as many as one host has),
        and its link (the store's devices never deliver more than the link moves)."""
        link = self.store_link(kind)
        if link is None:
            return None
        link_mb_s = link.value * MB_S_PER_GBPS
        disks = self.store_disks(kind, reads_only)
        if disks is None:  # nothing to go by: the link alone, as the NFS testbeds (disk-less hosts)
            return Device(math.inf, link_mb_s, [link], f"{kind} storage over {link.value:g} Gb/s", link_mb_s)
        what = (f"{kind} storage ({disks.description}, {link.value:g} Gb/s)" if math.isinf(disks.mb_s) else
                f"{kind} storage over {link.value:g} Gb/s, {disks.description}")
        return Device(disks.iops, min(disks.mb_s, link_mb_s), [*disks.figures, link], what, link_mb_s)

    def store_disks(self, kind: str, reads_only: bool = False, sized_only: bool = False) -> Device | None:
        """The devices of a shared store of ``kind`` without its link: its stated IOPS (MB/s
        unbounded), else disks like the hosts' (as many as its capacity holds at the hosts' disk
        size, else as many as one host has; with ``sized_only`` None then: a store that states
        neither its IOPS nor its capacity says nothing of its disks); None without such a store
        or when nothing tells its disks."""
        offers = [s for s in self.scenario.hosts.shared_storage if s.kind == kind]
        if not offers:
            return None
        s = max(offers, key=lambda o: o.network_gbps)
        if s.iops:
            iops_fig = HwFigure(f"{store_name(kind)}", float(s.iops), "IOPS", self.source("hosts.shared_storage.iops"))
            return Device(iops_fig.value, math.inf, [iops_fig], f"{s.iops:,.0f} IOPS")
        disks = self.scenario.hosts.disks
        like = max(disks, key=lambda d: PER_KIND[d.kind].iops) if disks else None
        sized = bool(s.capacity_tb and like is not None and like.size_gb)
        if like is None or (sized_only and not sized):
            return None
        count = max(1, round(s.capacity_tb * 1000.0 / like.size_gb)) if sized else like.count
        fi, fm = self.disk_iops(like, reads_only), self.disk_mb_s(like, reads_only)
        # the store is assumed to be built of disks like the hosts' (said in ``what``); each disk's
        # figures keep their own source: declared on the hosts' disks, a site's, the probe's or per-kind
        what = f"{store_name(kind)}, {count} x {fi.what} like the hosts' (assumed)"
        figs = [HwFigure(what, fi.value, "IOPS each", fi.source), HwFigure(what, fm.value, "MB/s each", fm.source)]
        return Device(fi.value * count, fm.value * count, figs, f"{count} x {like.kind.upper()} like the hosts' assumed")

    def behind_vms(self, backend: str | None, vms_per_host: float, total_vms: float,
                   reads_only: bool = False) -> Device | None:
        """What the VMs of one host share for their images with ``backend``: the local disks,
        or the host's share of the shared store (its VMs' share of the cluster's), through the
        host's NIC."""
        kind = SHARED_KIND.get(backend or "local_disk")
        if kind is None:
            return self.local(reads_only)
        store = self.store(kind, reads_only)
        if store is None:
            return self.local(reads_only)
        share = min(1.0, max(vms_per_host, 1.0) / max(total_vms, 1.0))
        nic = self.nic()
        nic_mb_s = nic.value * MB_S_PER_GBPS
        mb_s = min(store.mb_s * share, nic_mb_s)
        return Device(store.iops * share, mb_s, [*store.figures, nic],
                      f"{store.description}; this host's share {share:.3g}, through its {nic.value:g} Gb/s NIC",
                      min(store.link_mb_s * share, nic_mb_s))


def same_disks(device: Device | None, testbed: Testbed) -> bool:
    """Whether ``device`` delivers what the testbed's disks do (IOPS and MB/s)."""
    return device is not None and close(device.iops, testbed.disk_iops) and close(device.mb_s, testbed.disk_mb_s)


# --- transfers of figures the families give on their testbed's hardware ---------------------------
def cpu_capacity(hw: Hardware, testbed: Testbed) -> tuple[float, list[HwFigure], bool]:
    """(testbed CPU capacity / the scenario host's, the figures it rests on, whether equal):
    capacity is physical cores x clock, or cores alone when the testbed's clock is not stated.
    A CPU utilization for the same work transfers by this factor."""
    cores, ghz = hw.cores(), hw.ghz()
    if testbed.ghz:
        factor = (testbed.need("cores") * testbed.ghz) / max(cores.value * ghz.value, 1e-9)
        return factor, [cores, ghz], close(factor, 1.0)
    factor = testbed.need("cores") / max(cores.value, 1e-9)
    return factor, [cores], close(factor, 1.0)


def migration_scale(hw: Hardware, testbed: Testbed, vm_ram_gib: float) -> tuple[float, list[HwFigure], bool]:
    """(scenario / testbed transfer rate of migrating a VM's memory, the figures, whether equal):
    a live migration copies the VM's RAM over the host link, so its copy part scales with
    RAM / link rate (the rest of the migration time, set-up and the hypervisor's work, does not)."""
    nic = hw.nic()
    ram = HwFigure("RAM of the migrating VM", float(vm_ram_gib), "GiB", "declared")
    k = (vm_ram_gib / testbed.need("vm_ram_gib")) * (testbed.need("link_gbps") / max(nic.value, 1e-9))
    return k, [nic, ram], close(k, 1.0)


def transfer_migration_time(seconds, testbed: Testbed, k: float):
    """A migration time (s; a number or an array) measured on ``testbed`` on hardware that copies
    memory ``k`` times as long: the copy part (the testbed VM's RAM over its link) times ``k``,
    the rest as measured."""
    import numpy as np

    seconds = np.asarray(seconds, dtype=float)
    copy = np.minimum(testbed.need("vm_ram_gib") * 2**30 * 8 / 1e9 / testbed.need("link_gbps"),
                      seconds)  # never beyond the time
    out = seconds - copy + copy * k
    return float(out) if out.ndim == 0 else out


# --- figures the engine computes from the scenario alone ------------------------------------------
def _hardware_parts(hw: Hardware, backend: str | None, into: dict | None = None) -> dict[str, list[HwFigure]]:
    """The hardware figures computed figures rest on, by kind (cpu, ghz, ram, disks, sizes, shared, nic)."""
    h = hw.scenario.hosts
    out = into if into is not None else {}
    out["cpu"] = [hw.cores()]
    out["ghz"] = [hw.ghz()]
    out["ram"] = [HwFigure("host RAM", float(h.ram_gib), "GiB", hw.source("hosts.ram_gib"))]
    local = hw.local()
    out["disks"] = local.figures if local is not None else []
    out["sizes"] = [HwFigure(f"{d.count} x {kind_name(d.kind)} disk per host", float(d.size_gb), "GB each",
                             hw.source("hosts.disks")) for d in h.disks]
    kind = SHARED_KIND.get(backend or "local_disk")
    link = hw.store_link(kind) if kind else None
    shared = [f for f in (link,) if f is not None]
    shared += [HwFigure(store_name(s.kind), float(s.iops), "IOPS", hw.source("hosts.shared_storage.iops"))
               for s in h.shared_storage if s.kind == kind and s.iops]
    out["shared"] = shared
    out["nic"] = [hw.nic()]
    return out


def _computed_inputs(hw: Hardware, decision: str, key: str, backend: str | None,
                     parts: dict[str, list[HwFigure]] | None = None) -> list[HwFigure]:
    """The hardware figures a figure computed from the scenario (no family) rests on (``parts``:
    the hardware's figures by kind, made here the first time, for the next figure of the same
    hardware and backend: the host count has a headroom figure per workload)."""
    if not parts:
        parts = _hardware_parts(hw, backend, parts)
    cpu, ghz, ram, disks, sizes, shared, nic = (parts[k] for k in ("cpu", "ghz", "ram", "disks", "sizes",
                                                                    "shared", "nic"))
    if decision == "vm_period_budget":
        return ghz
    if decision != "host_count":
        return cpu
    if "disk_iops" in key:
        return disks
    if "disk_capacity" in key:
        return sizes
    if "network" in key and not key.startswith("shared_storage"):
        return nic
    if key.startswith("shared_storage"):
        return shared
    if "ram" in key:
        return ram
    if "cpu_load" in key or key == "host_cpu_utilization":  # busy core-GHz over the hosts' clock
        return [*cpu, *ghz]
    if "cpu" in key:
        return cpu
    # the counts and the headroom rest on every resource the placement weighed
    local_images = backend in (None, "local_disk")
    return [*cpu, *ghz, *ram, *nic, *(disks + sizes if local_images else shared)]


def finish(rec, hw: Hardware, backend: str | None = None) -> None:
    """Give every expected figure of ``rec`` (and of its alternatives) a basis: figures the
    engine computed from the scenario (host count, real-time budgets) rest on the declared
    hardware (or a disk's per-kind defaults); then the recommendation's own ``basis`` is the
    summary of its figures'."""
    parts: dict[str, list[HwFigure]] = {}
    stamped: dict[tuple[int, ...], ExpectedFigure] = {}  # (many figures rest on the same hardware figures)
    for figs in (rec.expected, *(a.expected for a in rec.alternatives)):
        for key, fig in figs.items():
            if not valid_basis(fig.basis):
                inputs = _computed_inputs(hw, rec.decision, key, backend, parts)
                ids = tuple(map(id, inputs))
                if ids not in stamped:
                    stamped[ids] = stamp(ExpectedFigure(None), inputs)
                fig.basis, fig.hardware = stamped[ids].basis, list(stamped[ids].hardware or [])
                if fig.basis == DOCUMENTS:  # computed from the scenario, on no hardware figure
                    fig.basis = DECLARED
    rec.basis = summary_basis(f.basis for f in rec.expected.values())
