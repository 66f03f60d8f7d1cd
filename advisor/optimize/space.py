"""The design space: what ``capadvisor optimize`` enumerates, and a design as a scenario.

A :class:`Design` is one choice of every dimension: a host model of the cost catalogue, a
hypervisor, a vCPU over-allocation level, an image storage option (a backend, and for shared
backends the catalogue's storage product), a cache mode per workload and a number of active
hosts (the scenario's reserve is added). :func:`design_scenario` turns it into a scenario whose
``preferences`` fix every choice (``hypervisor`` and ``fixed``): advising that scenario evaluates
exactly that design, which is what the brute-force check and the GUI's "load this design" do.

The dimensions a scenario already fixes (``preferences.hypervisor``, ``preferences.fixed``) are
not searched: the space keeps the scenario's choice.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from advisor.cost import BACKEND_KIND
from advisor.scenario import FIXABLE, HYPERVISORS, SHARED_KINDS, Scenario, SharedStorage
from knowledge.costs import Catalogue, HostModel
from knowledge.infra.errors import InputError

LEVELS = FIXABLE["vcpu_overallocation"]
BACKENDS = FIXABLE["storage_backend"]
CACHE_MODES = FIXABLE["cache_mode"]
#: the backends of each shared storage kind
KIND_BACKENDS = {"nfs": ("nfs_file", "nfs_root"), "iscsi": ("iscsi",), "distributed": ("distributed",)}


@dataclass(frozen=True, order=True)
class StorageOption:
    """Where images live: a backend and, for a shared one, the catalogue's storage product."""

    backend: str
    product: str | None = None

    def label(self) -> str:
        return self.backend if self.product is None else f"{self.backend} on {self.product}"

    def text(self) -> str:
        """The option in the cards' words (``NFS, image files on store-a``), for people."""
        from advisor.recommend.catalog import choice_label

        shown = choice_label("storage_backend", self.backend)
        return shown if self.product is None else f"{shown} on {self.product}"


@dataclass(frozen=True)
class Design:
    """One candidate design (see the module doc)."""

    host_model: str
    hypervisor: str
    level: str
    storage: StorageOption
    cache_modes: tuple[str, ...]
    active: int

    def to_dict(self, scenario: Scenario) -> dict:
        return {"host_model": self.host_model, "hypervisor": self.hypervisor, "vcpu_overallocation": self.level,
                "storage_backend": self.storage.backend, "storage_product": self.storage.product,
                "cache_modes": {w.name: m for w, m in zip(scenario.workloads, self.cache_modes, strict=True)},
                "active_hosts": self.active, "hosts": self.active + scenario.hosts.reserve}


@dataclass
class SpaceOptions:
    """What to enumerate; None: everything the catalogue and the scenario allow."""

    host_models: Sequence[str] | None = None
    hypervisors: Sequence[str] | None = None
    levels: Sequence[str] | None = None
    backends: Sequence[str] | None = None
    cache_modes: Sequence[str] | None = None
    #: how many active host counts per host model, from the fewest that places the VMs with the
    #: most favourable level and storage
    host_counts: int = 6
    #: explicit active host counts (instead of ``host_counts`` from the fewest)
    counts: Sequence[int] | None = None


@dataclass
class Dimensions:
    """The resolved dimensions of a space (host counts are resolved per host model later)."""

    hosts: list[HostModel]
    hypervisors: tuple[str, ...]
    levels: tuple[str, ...]
    storage: dict[str, list[StorageOption]]  # host model -> its storage options
    cache_modes: list[tuple[str, ...]]  # per workload
    fixed_active: int | None = None
    notes: list[str] = field(default_factory=list)


def _pick(given: Sequence[str] | None, allowed: Sequence[str], what: str) -> tuple[str, ...]:
    if given is None:
        return tuple(allowed)
    bad = [g for g in given if g not in allowed]
    if bad:
        raise InputError(f"unknown {what}: {', '.join(bad)} (known: {', '.join(allowed)})")
    if not given:
        raise InputError(f"no {what} to search")
    return tuple(dict.fromkeys(given))


def dimensions(scenario: Scenario, catalogue: Catalogue, options: SpaceOptions | None = None) -> Dimensions:
    """The dimensions of the space for ``scenario`` and ``catalogue`` (see the module doc)."""
    options = options or SpaceOptions()
    if not catalogue.hosts:
        raise InputError("the cost catalogue has no host models: the design space needs at least one "
                         "(capadvisor costs import FILE)")
    names = [h.name for h in catalogue.hosts]
    hosts = [h for n in _pick(options.host_models, names, "host model") if (h := catalogue.host(n)) is not None]
    prefs = scenario.preferences
    notes = []
    hvs = _pick(options.hypervisors, HYPERVISORS, "hypervisor")
    if prefs.hypervisor:
        hvs = (prefs.hypervisor,)
        notes.append(f"hypervisor fixed by the scenario: {prefs.hypervisor}")
    levels = _pick(options.levels, LEVELS, "over-allocation level")
    backends = _pick(options.backends, BACKENDS, "storage backend")
    modes = _pick(options.cache_modes, CACHE_MODES, "cache mode")
    for key, label in (("vcpu_overallocation", "over-allocation level"), ("storage_backend", "storage backend")):
        if prefs.fixed.get(key):
            notes.append(f"{label} fixed by the scenario: {prefs.fixed[key]}")
    if prefs.fixed.get("vcpu_overallocation"):
        levels = (prefs.fixed["vcpu_overallocation"],)
    if prefs.fixed.get("storage_backend"):
        backends = (prefs.fixed["storage_backend"],)
    cache = []
    for w in scenario.workloads:
        pin = prefs.pinned("cache_mode", w.name)
        cache.append((pin,) if pin else modes)
    storage: dict[str, list[StorageOption]] = {}
    for h in hosts:
        opts = []
        for b in backends:
            kind = BACKEND_KIND[b]
            if kind is None:
                if h.disks:
                    opts.append(StorageOption(b))
                continue
            opts += [StorageOption(b, s.name) for s in catalogue.storage if s.kind == kind]
        storage[h.name] = opts
    if not any(storage.values()):
        raise InputError("no image storage to search: the host models have no local disks and the cost catalogue "
                         "offers no shared storage for the backends asked")
    fixed_hosts = prefs.fixed.get("host_count")
    fixed_active = fixed_hosts - scenario.hosts.reserve if fixed_hosts else None
    if fixed_active is not None:
        notes.append(f"host count fixed by the scenario: {fixed_hosts}")
    return Dimensions(hosts, hvs, levels, storage, cache, fixed_active, notes)


def host_scenario(scenario: Scenario, host: HostModel, catalogue: Catalogue,
                  storage: StorageOption | None = None) -> Scenario:
    """``scenario`` on ``host``'s hardware, with the catalogue's shared storage on offer (one entry
    per kind: ``storage``'s product for its kind, else the kind's first product). Preferences kept."""
    sc = copy.deepcopy(scenario)
    h = sc.hosts
    h.model = host.name
    h.cpu = replace(host.cpu, frequency_scaling=h.cpu.frequency_scaling)  # one Cpu type: the host model's
    h.ram_gib, h.nic_gbps = host.ram_gib, host.nic_gbps
    h.disks = [replace(d, source="declared" if d.iops or d.mb_s else None) for d in host.disks]
    offers = []
    for kind in SHARED_KINDS:
        products = [s for s in catalogue.storage if s.kind == kind]
        if not products:
            continue
        chosen = next((s for s in products if storage is not None and s.name == storage.product), products[0])
        offers.append(SharedStorage(kind=kind, network_gbps=chosen.network_gbps, iops=chosen.iops, model=chosen.name))
    h.shared_storage = offers
    return sc


def design_scenario(scenario: Scenario, catalogue: Catalogue, design: Design) -> Scenario:
    """The scenario of ``design``: ``scenario`` on the design's host model and storage with every
    choice fixed in its preferences (``hypervisor`` and ``fixed``) and the design's host count."""
    host = catalogue.host(design.host_model)
    if host is None:
        raise InputError(f"the cost catalogue has no host model {design.host_model!r}")
    sc = host_scenario(scenario, host, catalogue, design.storage)
    sc.hosts.count = design.active + sc.hosts.reserve
    sc.preferences.hypervisor = design.hypervisor
    fixed: dict[str, Any] = dict(sc.preferences.fixed)
    fixed.update(vcpu_overallocation=design.level, storage_backend=design.storage.backend,
                 host_count=design.active + sc.hosts.reserve,
                 cache_mode={w.name: m for w, m in zip(sc.workloads, design.cache_modes, strict=True)})
    sc.preferences.fixed = fixed
    return sc


def design_from_dict(data: dict, scenario: Scenario) -> Design:
    """The inverse of :meth:`Design.to_dict`."""
    modes = data.get("cache_modes") or {}
    return Design(str(data["host_model"]), str(data["hypervisor"]), str(data["vcpu_overallocation"]),
                  StorageOption(str(data["storage_backend"]), data.get("storage_product")),
                  tuple(str(modes[w.name]) for w in scenario.workloads), int(data["active_hosts"]))
