"""What a design costs: capex and opex over the catalogue's years, from the user's own prices
(:mod:`knowledge.costs`; nothing here invents a price).

A design is priced from a few facts (:class:`DesignFacts`): the host model and how many hosts are
bought (active + reserve), the hypervisor, the image storage (backend and storage product) and the
VM images it holds, and the CPU load of the active hosts (power follows it when the host model
states ``idle_w``). :func:`price` returns a :class:`DesignCost` with one line per item:

* hosts: ``price`` x hosts (capex), ``support_per_year`` x hosts (opex);
* shared storage (images not on local disks): an array, ``base_price`` + ``price_per_tb`` x TB, or
  nodes, ``price_per_node`` x max(``min_nodes``, ceil(TB x ``copies`` / ``tb_per_node``)); TB is the
  VMs' virtual disks over the 90 % of a store that is usable (the host count's figure); its
  ``support_per_year`` (per array or node) is opex;
* licences for the hypervisor and for the storage kind, all that apply, summed: per socket
  (sockets of every host), per core (cores of every CPU, at least ``min_cores_per_cpu`` each), per
  host, per cluster (once) or per storage node; ``price`` is capex, ``per_year`` opex;
* power: the hosts' draw (``power_w``; with ``idle_w`` the draw of an active host is idle + (full -
  idle) x its average CPU load, a reserve host idles) and the storage's, x 8760 h x PUE x the
  price per kWh, per year;
* rack space: height units x the price per U and year.

``total`` = capex + years x opex per year. :func:`advice_cost` prices an advice's design and every
alternative on its cards that changes the bill (hypervisor: licences and the CPU it costs; over-
allocation and storage: the host count the engine's own sizing gives with that choice; host count).
"""

from __future__ import annotations

import copy
import dataclasses
import math
from dataclasses import dataclass, field

from knowledge.costs import Catalogue, HostModel, Licence, StorageProduct

HOURS_PER_YEAR = 8760.0
#: share of a store's capacity usable for images (advisor.recommend.host_demand.DISK_USABLE)
USABLE_SHARE = 0.9
#: the storage kind an image backend needs (None: local disks, no shared storage)
BACKEND_KIND = {"local_disk": None, "nfs_file": "nfs", "nfs_root": "nfs", "iscsi": "iscsi",
                "distributed": "distributed"}


@dataclass(frozen=True)
class DesignFacts:
    """What a design's cost depends on."""

    host: HostModel | None
    hosts: int
    active: int
    busy_share: float
    hypervisor: str | None
    backend: str | None
    storage: StorageProduct | None
    image_tb: float


@dataclass
class CostLine:
    """One item of the bill: what, how many, capex, opex per year."""

    category: str  # hosts | storage | licence | power | rack
    name: str
    quantity: float
    unit: str
    capex: float
    opex_per_year: float
    note: str = ""
    example: bool = False

    def to_dict(self) -> dict:
        out = {"category": self.category, "name": self.name, "quantity": _round(self.quantity, 3),
               "unit": self.unit, "capex": _money(self.capex), "opex_per_year": _money(self.opex_per_year)}
        if self.note:
            out["note"] = self.note
        if self.example:
            out["example"] = True
        return out


@dataclass
class CostDelta:
    """An alternative on a card priced against the advised design."""

    decision: str
    scope: str
    choice: str
    hosts: int | None
    capex_delta: float
    opex_per_year_delta: float
    total_delta: float
    licences_per_year_delta: float
    text: str
    excluded: bool = False
    cpu_change_pct: float | None = None

    def to_dict(self) -> dict:
        out = {"decision": self.decision, "scope": self.scope, "choice": self.choice, "hosts": self.hosts,
               "capex_delta": _money(self.capex_delta), "opex_per_year_delta": _money(self.opex_per_year_delta),
               "total_delta": _money(self.total_delta),
               "licences_per_year_delta": _money(self.licences_per_year_delta), "excluded": self.excluded,
               "text": self.text}
        if self.cpu_change_pct is not None:
            out["cpu_change_pct"] = _round(self.cpu_change_pct, 2)
        return out


@dataclass
class DesignCost:
    """The bill of one design (see the module doc)."""

    catalogue: str
    currency: str
    years: float
    lines: list[CostLine] = field(default_factory=list)
    design: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    alternatives: list[CostDelta] = field(default_factory=list)
    complete: bool = True

    @property
    def capex(self) -> float:
        return _money(sum(line.capex for line in self.lines))

    @property
    def opex_per_year(self) -> float:
        return _money(sum(line.opex_per_year for line in self.lines))

    @property
    def total(self) -> float:
        """Capex + years x opex per year."""
        return _money(self.capex + self.years * self.opex_per_year)

    def of(self, category: str) -> tuple[float, float]:
        """(capex, opex per year) of one category of lines."""
        lines = [line for line in self.lines if line.category == category]
        return _money(sum(x.capex for x in lines)), _money(sum(x.opex_per_year for x in lines))

    @property
    def examples(self) -> bool:
        """Whether some price is an example's placeholder."""
        return any(line.example for line in self.lines)

    def headline(self) -> str:
        """One line: ``412,000 EUR over 5 years (capex 310,000, opex 20,400 per year)``."""
        return (f"{money(self.total, self.currency)} over {self.years:g} years (capex {money(self.capex)}, "
                f"opex {money(self.opex_per_year)} per year)" + (" — example prices" if self.examples else ""))

    def to_dict(self) -> dict:
        return {"catalogue": self.catalogue, "currency": self.currency, "years": _round(self.years, 3),
                "design": dict(self.design), "complete": self.complete,
                "capex": self.capex, "opex_per_year": self.opex_per_year, "total": self.total,
                "by_category": {c: {"capex": self.of(c)[0], "opex_per_year": self.of(c)[1]}
                                for c in dict.fromkeys(line.category for line in self.lines)},
                "lines": [line.to_dict() for line in self.lines], "examples": self.examples,
                "alternatives": [a.to_dict() for a in self.alternatives], "notes": list(self.notes)}


def _money(x: float) -> float:
    return round(float(x) + 0.0, 2)


def _round(x: float, digits: int) -> float:
    return float(f"{x:.{digits + 6}g}") if isinstance(x, float) else x


def money(x: float, currency: str = "") -> str:
    """``12,345 EUR`` (whole units; cents only below 100)."""
    text = f"{x:,.0f}" if abs(x) >= 100 or float(x).is_integer() else f"{x:,.2f}"
    return f"{text} {currency}".rstrip()


def signed(x: float, currency: str = "") -> str:
    """``+1,200 EUR`` / ``-300 EUR`` / ``±0 EUR``."""
    if abs(x) < 0.005:
        return f"±0 {currency}".rstrip()
    return ("+" if x > 0 else "-") + money(abs(x), currency)


# --- the rules of the bill ---------------------------------------------------------------------
def storage_nodes(product: StorageProduct, image_tb: float) -> int:
    """Nodes of a node-priced store holding ``image_tb`` TB of images (1 for an array)."""
    if not product.per_node:
        return 1
    raw = image_tb / USABLE_SHARE * product.copies
    return max(product.min_nodes, math.ceil(raw / float(product.tb_per_node or 1.0) - 1e-9))


def licence_units(lic: Licence, host: HostModel | None, hosts: int, nodes: int) -> tuple[float, str, str]:
    """(units, unit name, how they were counted) of licence ``lic`` for ``hosts`` hosts of ``host``
    and ``nodes`` storage nodes."""
    if lic.per == "cluster":
        return 1.0, "cluster", ""
    if lic.per == "node":
        return float(nodes), "nodes", ""
    if lic.per == "host":
        return float(hosts), "hosts", ""
    if host is None:
        return 0.0, lic.per + "s", "no host model: not counted"
    if lic.per == "socket":
        return float(hosts * host.cpu.sockets), "sockets", f"{hosts} hosts x {host.cpu.sockets} sockets"
    counted = max(host.cpu.cores_per_socket, lic.min_cores_per_cpu)
    note = f"{hosts} hosts x {host.cpu.sockets} CPUs x {counted} cores"
    if counted > host.cpu.cores_per_socket:
        note += f" (the minimum of {lic.min_cores_per_cpu} per CPU; the CPU has {host.cpu.cores_per_socket})"
    return float(hosts * host.cpu.sockets * counted), "cores", note


def host_watts(host: HostModel, active: int, reserve: int, busy_share: float) -> float:
    """Average draw of the hosts, W: active hosts at their CPU load, reserve hosts idle (with
    ``idle_w``; else every host at ``power_w``)."""
    if host.idle_w is None:
        return host.power_w * (active + reserve)
    load = min(max(busy_share, 0.0), 1.0)
    return active * (host.idle_w + (host.power_w - host.idle_w) * load) + reserve * host.idle_w


def price(cat: Catalogue, d: DesignFacts) -> DesignCost:
    """The bill of design ``d`` with the prices of ``cat`` (see the module doc)."""
    out = DesignCost(catalogue=cat.name, currency=cat.currency, years=cat.years)
    out.design = {"host_model": d.host.name if d.host else None, "hosts": d.hosts, "active_hosts": d.active,
                  "hypervisor": d.hypervisor, "storage_backend": d.backend,
                  "storage_product": d.storage.name if d.storage else None, "image_tb": _round(d.image_tb, 4)}
    kwh = cat.power.pue * HOURS_PER_YEAR / 1000.0 * cat.power.price_per_kwh  # per W of draw and year
    rack = cat.rack_price_per_unit_per_year
    watts, units = 0.0, 0.0
    h = d.host
    if h is not None:
        out.lines.append(CostLine("hosts", h.name, d.hosts, "hosts", d.hosts * h.price, d.hosts * h.support_per_year,
                                  h.describe(), h.example))
        watts += host_watts(h, d.active, d.hosts - d.active, d.busy_share)
        units += d.hosts * h.rack_units
    else:
        out.complete = False
    kind = BACKEND_KIND.get(d.backend or "", None)
    nodes = 0
    if kind is not None:
        s = d.storage
        if s is None:
            out.complete = False
            out.notes.append(f"no {kind} storage in the cost catalogue: the image storage is not priced")
        else:
            tb = d.image_tb / USABLE_SHARE
            nodes = storage_nodes(s, d.image_tb)
            if s.per_node:
                capex = s.base_price + nodes * float(s.price_per_node or 0.0)
                note = (f"{nodes} nodes: {d.image_tb:.3g} TB of images at {USABLE_SHARE:.0%} usable x {s.copies} "
                        f"copies over {s.tb_per_node:g} TB per node (at least {s.min_nodes})")
                out.lines.append(CostLine("storage", s.name, nodes, "nodes", capex, nodes * s.support_per_year,
                                          note, s.example))
                watts += nodes * s.power_w
                units += nodes * s.rack_units
            else:
                capex = s.base_price + tb * float(s.price_per_tb or 0.0)
                note = f"{d.image_tb:.3g} TB of images at {USABLE_SHARE:.0%} usable"
                out.lines.append(CostLine("storage", s.name, tb, "TB", capex, s.support_per_year, note, s.example))
                watts += s.power_w
                units += s.rack_units
    if d.hypervisor is not None:
        lics = cat.licences_for(d.hypervisor, kind)
        if not any(lic.hypervisor == d.hypervisor for lic in lics):
            out.notes.append(f"no licence for {d.hypervisor} in the cost catalogue: none counted")
        for lic in lics:
            n, unit, note = licence_units(lic, h, d.hosts, nodes)
            out.lines.append(CostLine("licence", lic.name, n, unit, n * lic.price, n * lic.per_year, note, lic.example))
    if watts:
        out.lines.append(CostLine("power", "power", watts * HOURS_PER_YEAR / 1000.0 * cat.power.pue, "kWh per year", 0.0,
                                  watts * kwh, f"{watts:,.0f} W on average x PUE {cat.power.pue:g} at "
                                               f"{cat.power.price_per_kwh:g} {cat.currency} per kWh",
                                  False))
    if rack and units:
        out.lines.append(CostLine("rack", "rack space", units, "U", 0.0, units * rack,
                                  f"{rack:g} {cat.currency} per U and year"))
    return out


def totals(cat: Catalogue, d: DesignFacts) -> tuple[float, float, float, float]:
    """(capex, opex per year, total, energy kWh per year) of design ``d``."""
    bill = price(cat, d)
    kwh = sum(line.quantity for line in bill.lines if line.category == "power")
    return bill.capex, bill.opex_per_year, bill.total, kwh


# --- matching a scenario onto the catalogue ---------------------------------------------------------
def match_host(cat: Catalogue, hosts) -> HostModel | None:
    """The catalogue's host model of the scenario's ``hosts``: the one ``hosts.model`` names, else the
    first with the same CPUs, cores per CPU and RAM (preferring one with the same disks and NIC)."""
    name = getattr(hosts, "model", None)
    if name:
        return cat.host(name)
    same = [h for h in cat.hosts if h.cpu.sockets == hosts.cpu.sockets
            and h.cpu.cores_per_socket == hosts.cpu.cores_per_socket and abs(h.ram_gib - hosts.ram_gib) < 1e-6]

    def disks(x) -> list:
        return sorted((d.kind, d.count, float(d.size_gb)) for d in x.disks)

    exact = [h for h in same if disks(h) == disks(hosts) and abs(h.nic_gbps - hosts.nic_gbps) < 1e-6]
    found = exact or same
    return found[0] if found else None


def match_storage(cat: Catalogue, scenario, backend: str | None) -> StorageProduct | None:
    """The catalogue's storage product for ``backend``: the one the scenario's shared storage entry
    of that kind names (``model``), else the first of that kind."""
    kind = BACKEND_KIND.get(backend or "", None)
    if kind is None:
        return None
    for s in scenario.hosts.shared_storage:
        name = getattr(s, "model", None)
        if s.kind == kind and name:
            return cat.storage_product(name)
    return next((s for s in cat.storage if s.kind == kind), None)


def image_tb(scenario) -> float:
    """TB of virtual disks of all the scenario's VMs."""
    return sum(w.vms * w.disk_size_gb for w in scenario.workloads) / 1000.0


def busy_share(ctx, active: int) -> float:
    """Average CPU busy share of ``active`` hosts of the scenario of the engine's ``ctx``: busy cores
    as the host count and the growth timeline count them (:func:`advisor.recommend.load.vm_busy_cores`,
    on the hosts' clock), so every bill's power and a flat timeline's agree (#31 review 3 finding 5)."""
    from advisor.recommend.load import vm_busy_cores

    scenario = ctx.scenario
    busy = sum(vm_busy_cores(ctx, w) * w.vms for w in scenario.workloads)
    return min(1.0, busy / max(active * scenario.hosts.cpu.cores, 1))


# --- the cost of an advice ----------------------------------------------------------------------------
def advice_cost(advice, cat: Catalogue, ctx, hosts: int | None = None, resize: bool = True) -> DesignCost:
    """The advised design's bill and the alternatives on its cards that change it, in the engine's
    context ``ctx`` of the advice (the engine's own, or :meth:`advisor.engine.Advice.context`).
    With ``resize`` the over-allocation and storage alternatives are re-sized by the engine's host
    count; without it (a what-if stays fast) they keep the advised count. ``hosts`` prices that
    many hosts instead of the advised count (a what-if prices the hosts planned)."""
    sc = advice.scenario
    hc = advice.find("host_count")
    hv = advice.first("hypervisor", "cluster")
    sb = advice.find("storage_backend")
    backend = sb.choice if sb is not None and sb.choice not in ("infeasible", "none declared") else None
    host = match_host(cat, sc.hosts)
    reserve = sc.hosts.reserve
    if hc is None or hc.value is None:
        out = DesignCost(cat.name, cat.currency, cat.years, complete=False)
        out.notes.append("no feasible host count: the design is not priced")
        return out
    hosts = int(hc.value) if hosts is None else max(int(hosts), reserve + 1)
    active = hosts - reserve
    hypervisor = hv.choice if hv is not None else None

    def facts(n_active: int, hypervisor=hypervisor, backend=backend) -> DesignFacts:
        return DesignFacts(host, n_active + reserve, n_active, busy_share(ctx, n_active), hypervisor, backend,
                           match_storage(cat, sc, backend), image_tb(sc))

    out = price(cat, facts(active))
    if host is None:
        out.notes.insert(0, f"no host model in the cost catalogue matches the scenario's hosts ({sc.hosts.cpu.sockets}x "
                            f"{sc.hosts.cpu.cores_per_socket} cores, {sc.hosts.ram_gib:g} GiB"
                            + (f", model {sc.hosts.model!r}" if getattr(sc.hosts, "model", None) else "")
                            + "): hosts, their power and per-CPU licences are not priced")
    lic = _licences_per_year(out)
    cur = cat.currency
    deltas: list[CostDelta] = []
    if hv is not None:
        cpu = {c: figs["cpu_cost_vs_native"].value if "cpu_cost_vs_native" in figs else None
               for c, figs in ((hv.choice, hv.expected), *((a.choice, a.expected) for a in hv.alternatives))}
        for a in hv.alternatives:
            alt = price(cat, facts(active, hypervisor=a.choice))
            change = None
            mine, theirs = cpu[hv.choice], cpu[a.choice]
            if isinstance(theirs, int | float) and isinstance(mine, int | float) and mine:
                change = 100.0 * (theirs / mine - 1.0)
            d_lic = _licences_per_year(alt) - lic
            d_up = alt.of("licence")[0] - out.of("licence")[0]
            text = f"{a.choice}: {signed(d_lic, cur)} per year in licences"
            if abs(d_up) >= 0.005:
                text += f" ({signed(d_up, cur)} up front)"
            if change is not None:
                text += f" for {abs(change):.0f} % {'less' if change < 0 else 'more'} CPU" if abs(change) >= 0.5 \
                    else " for the same CPU"
            deltas.append(_delta(out, alt, "hypervisor", hv.scope, a.choice, hosts, text, a.excluded, change, d_lic))
    resized = _resize(advice, ctx.kb) if resize else None
    for decision in ("vcpu_overallocation", "storage_backend"):
        rec = advice.find(decision)
        if rec is None:
            continue
        for a in rec.alternatives:
            n = resized(decision, a.choice) if resized is not None else active
            alt_backend = a.choice if decision == "storage_backend" else backend
            if n is None:
                deltas.append(CostDelta(decision, rec.scope, a.choice, None, 0.0, 0.0, 0.0, 0.0,
                                        f"{a.choice}: no host count meets the hard limits", a.excluded))
                continue
            alt = price(cat, facts(n, backend=alt_backend))
            deltas.append(_delta(out, alt, decision, rec.scope, a.choice, n + reserve,
                                 f"{a.choice}: {_hosts_text(n + reserve, hosts)}, {_money_text(out, alt, cur)}",
                                 a.excluded))
    for a in hc.alternatives:
        try:
            n_hosts = int(a.choice)
        except ValueError:
            continue
        alt = price(cat, facts(max(n_hosts - reserve, 1)))
        deltas.append(_delta(out, alt, "host_count", hc.scope, a.choice, n_hosts,
                             f"{n_hosts} hosts: {_money_text(out, alt, cur)}", a.excluded))
    out.alternatives = deltas
    return out


def _licences_per_year(bill: DesignCost) -> float:
    return bill.of("licence")[1]


def _hosts_text(n: int, base: int) -> str:
    return f"{n} hosts ({n - base:+d})" if n != base else f"{n} hosts (same)"


def _money_text(base: DesignCost, alt: DesignCost, cur: str) -> str:
    return (f"{signed(alt.total - base.total, cur)} over {base.years:g} years ({signed(alt.capex - base.capex)} up "
            f"front, {signed(alt.opex_per_year - base.opex_per_year)} per year)")


def _delta(base: DesignCost, alt: DesignCost, decision: str, scope: str, choice: str, hosts: int, text: str,
           excluded: bool, cpu_change: float | None = None, d_lic: float | None = None) -> CostDelta:
    return CostDelta(decision, scope, choice, hosts, _money(alt.capex - base.capex),
                     _money(alt.opex_per_year - base.opex_per_year), _money(alt.total - base.total),
                     _money(d_lic if d_lic is not None else _licences_per_year(alt) - _licences_per_year(base)),
                     text, excluded, cpu_change)


def _resize(advice, kb):
    """A function (decision, choice) -> active hosts the engine's host count gives when that one
    choice replaces the advised one (None when no count meets the hard limits)."""
    from advisor.recommend import host_count
    from advisor.recommend.vcpu_overallocation import per_core
    from advisor.rules import OVERALLOCATION

    base = advice.context(kb)
    memo: dict[tuple[str, str], int | None] = {}

    def resized(decision: str, choice: str) -> int | None:
        if (decision, choice) in memo:
            return memo[(decision, choice)]
        facts = dataclasses.replace(base.facts)
        if decision == "vcpu_overallocation" and choice in OVERALLOCATION:
            facts.overallocation_per_thread = OVERALLOCATION[choice]
            facts.overallocation_ratio = per_core(OVERALLOCATION[choice], advice.scenario.hosts.cpu.threads_per_core)
        elif decision == "storage_backend":
            facts.storage_backend = choice
        ctx = dataclasses.replace(base, facts=facts, chosen=copy.deepcopy(base.chosen))
        hosts = host_count.hosts_needed(ctx)  # the count alone, not the card's headroom and figures
        memo[(decision, choice)] = None if hosts is None else hosts - advice.scenario.hosts.reserve
        return memo[(decision, choice)]

    return resized
