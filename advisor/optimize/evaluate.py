"""Every design of a space evaluated with the engine's own functions, factorised by what each
figure depends on, and held as numpy arrays.

A design's verdict is what advising its scenario (:func:`advisor.optimize.space.design_scenario`)
would say; no figure is re-modelled here, each comes from the function the engine itself calls,
evaluated once for the dimensions it depends on and broadcast over the others:

==========================================  ==================================================
figure (engine function)                    depends on
==========================================  ==================================================
VM placement, fewest active hosts, problems host model, storage (local or shared), level,
(``host_count`` internals, ``pack``)        the budgets its rules fire
headroom (``host_count.headroom``)          ... and the active count
rule exclusions (``rules.evaluate``)        host model, storage, count, hypervisor, level
                                            (the facts each decision sees when it runs)
boot time, throughput per VM and mode,      host model, storage option, active count
containers or VMs, response time            (models batched: :mod:`advisor.optimize.batch`)
(``targets``, ``cache_mode``, ``hypervisor``)
migration downtime per level                host model, hypervisor
(``vcpu_overallocation.recommend``)
targets without cache mode                  host model, storage, count, hypervisor, level
(``targets.evaluate``)
cost (:func:`advisor.cost.price`)           host model, storage option, count, hypervisor
==========================================  ==================================================

Cache modes are chosen per workload and enter only that workload's throughput targets and
exclusions: each configuration (host model, storage option, count, hypervisor, level) keeps a
mask of the allowed modes per workload, so the designs of a configuration are the product of
those masks (counted, never listed). The rows of a :class:`Table` follow the enumeration order of
the designs (host model, storage option, count, hypervisor, level, then cache modes).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from advisor.calibration import Calibration, documents_only
from advisor.cost import BACKEND_KIND, DesignFacts, busy_share, image_tb, price
from advisor.optimize.batch import BatchedModels, run_batched
from advisor.optimize.space import LEVELS, Dimensions, StorageOption, host_scenario
from advisor.progress import CancelToken, ProgressCallback, check, report
from advisor.recommend import cache_mode, host_count, hypervisor, storage_backend, vcpu_overallocation
from advisor.recommend import targets as tg
from advisor.recommend.base import EngineContext
from advisor.recommend.vcpu_overallocation import per_core
from advisor.rules import CACHE, HV, OVERALLOCATION, Facts, RuleContext, evaluate
from advisor.scenario import Scenario
from knowledge.costs import Catalogue, HostModel

#: why a configuration's designs are discarded
OK, PLACEMENT, EXCLUDED, TARGET = 0, 1, 2, 3
REASONS = {PLACEMENT: "a hard limit (too few hosts, or a VM larger than a host)",
           EXCLUDED: "a rule excludes one of its choices", TARGET: "a target is missed"}
#: targets whose figure does not depend on the cache mode (checked per configuration)
NOT_BY_MODE = tuple(n for n in ("max_host_cpu_pct", "max_boot_time_s", "max_response_time_ms",
                                "max_migration_downtime_ms"))


@dataclass
class Table:
    """The configurations of a space (rows) with their verdicts and figures (see the module doc)."""

    host_names: list[str]
    storage_options: list[StorageOption]
    hypervisors: tuple[str, ...]
    levels: tuple[str, ...]
    workloads: list[str]
    modes: list[tuple[str, ...]]
    reserve: int
    host: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    storage: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    active: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    hv: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    level: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    reason: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    capex: np.ndarray = field(default_factory=lambda: np.zeros(0))
    opex: np.ndarray = field(default_factory=lambda: np.zeros(0))
    total: np.ndarray = field(default_factory=lambda: np.zeros(0))
    kwh: np.ndarray = field(default_factory=lambda: np.zeros(0))
    headroom: np.ndarray = field(default_factory=lambda: np.zeros(0))
    host_cpu: np.ndarray = field(default_factory=lambda: np.zeros(0))
    boot: np.ndarray = field(default_factory=lambda: np.zeros(0))
    #: per workload: (rows, modes) allowed (not excluded, its targets met), excluded, throughput MB/s
    mode_ok: list[np.ndarray] = field(default_factory=list)
    mode_excluded: list[np.ndarray] = field(default_factory=list)
    throughput: list[np.ndarray] = field(default_factory=list)
    #: per host model: the active counts searched
    counts: dict[str, list[int]] = field(default_factory=dict)
    #: the first target a row misses, for messages (row -> text)
    missed: dict[int, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return int(self.host.size)

    @property
    def designs_per_row(self) -> int:
        return int(np.prod([len(m) for m in self.modes])) if self.modes else 1

    @property
    def size(self) -> int:
        """Candidate designs: rows x the product of the cache modes tried per workload."""
        return len(self) * self.designs_per_row

    def concat(self, other: Table) -> Table:
        """This table followed by ``other`` (of other host models, same dimensions)."""
        out = copy.copy(self)
        h0 = len(self.host_names)
        s0 = len(self.storage_options)
        out.host_names = self.host_names + other.host_names
        out.storage_options = self.storage_options + other.storage_options
        for name in ("active", "hv", "level", "reason", "capex", "opex", "total", "kwh", "headroom", "host_cpu",
                     "boot"):
            setattr(out, name, np.concatenate([getattr(self, name), getattr(other, name)]))
        out.host = np.concatenate([self.host, other.host + h0])
        out.storage = np.concatenate([self.storage, other.storage + s0])
        for name in ("mode_ok", "mode_excluded", "throughput"):
            setattr(out, name, [np.concatenate([a, b]) for a, b in zip(getattr(self, name), getattr(other, name),
                                                                        strict=True)])
        out.counts = {**self.counts, **other.counts}
        out.missed = {**self.missed, **{k + len(self): v for k, v in other.missed.items()}}
        out.notes = list(dict.fromkeys(self.notes + other.notes))
        return out


def _facts(sc: Scenario, active: int, hv: str | None = None, level: str | None = None,
           backend: str | None = None) -> Facts:
    f = Facts.of(sc, active)
    f.hypervisor = hv
    if level is not None:
        f.overallocation_per_thread = OVERALLOCATION[level]
        f.overallocation_ratio = per_core(OVERALLOCATION[level], sc.hosts.cpu.threads_per_core)
    f.storage_backend = backend
    return f


@dataclass
class _Placement:
    active: int
    packing: Any
    problems: list[str]
    budgets: Any
    ctx: EngineContext


def _placement(ctx: EngineContext, budgets) -> _Placement:
    """The fewest active hosts that place every VM whole, as :func:`host_count.recommend` finds
    them before the targets (pooled bound, first-fit placement, the hosts live migration needs),
    and the hard limits no count meets."""
    sc = ctx.scenario
    need, cap, total = host_count._needed(ctx, budgets)
    packing = host_count._pack(ctx, cap, budgets)
    pooled = host_count.pooled_hosts(ctx, cap, budgets)
    problems = [k for k in host_count.HARD if not math.isfinite(need[k])]
    problems += host_count._oversize(ctx, cap, packing, budgets)
    active = max(pooled, packing.hosts, max(1, budgets.min_hosts - sc.hosts.reserve))
    return _Placement(active, packing, problems, budgets, ctx)


class _Implicit:
    """What :func:`cache_mode.requested_io` reads of a recommendation: a mode's figures."""

    def __init__(self, expected: dict):
        self.expected = expected


def evaluate_hosts(scenario: Scenario, catalogue: Catalogue, dims: Dimensions, hosts: Sequence[HostModel], kb,
                   *, counts: int = 6, explicit_counts: Sequence[int] | None = None,
                   calibration: Calibration | None = None, progress: ProgressCallback | None = None,
                   cancel: CancelToken | None = None) -> Table:
    """The :class:`Table` of the space's designs on ``hosts`` (see the module doc)."""
    from advisor.engine import citation_index

    cal = calibration or documents_only()
    models = BatchedModels(kb, cal.family_dict())
    cites = citation_index(kb)
    reserve = scenario.hosts.reserve
    table = Table([h.name for h in hosts], [], dims.hypervisors, dims.levels, [w.name for w in scenario.workloads],
                  list(dims.cache_modes), reserve)
    targets = scenario.preferences.targets

    def context(sc: Scenario, facts: Facts, chosen: dict | None = None) -> EngineContext:
        return EngineContext(scenario=sc, kb=kb, models=models, cites=cites, facts=facts, calibration=cal,
                             chosen=dict(chosen or {}))

    # --- 1. scenarios and placements per host model, storage option and level -----------------------
    units: list[tuple[int, HostModel, StorageOption, Scenario]] = []
    for hi, h in enumerate(hosts):
        for s in dims.storage[h.name]:
            units.append((hi, h, s, host_scenario(scenario, h, catalogue, s)))
    place_memo: dict[tuple, _Placement] = {}

    def placement(hi: int, s: StorageOption, sc: Scenario, level: str, budgets, hv: str | None) -> _Placement:
        key = (hi, BACKEND_KIND[s.backend] is None, level, budgets, hv)
        if key not in place_memo:
            ctx = context(sc, _facts(sc, 1, hv, level, s.backend))
            place_memo[key] = _placement(ctx, budgets)
        return place_memo[key]

    def budgets_of(sc: Scenario, facts: Facts):
        return host_count.Budgets.of(r.id for r in evaluate(host_count.DECISION, RuleContext(sc, facts), ["plan"]).fired)

    lows: dict[int, int] = {}
    for hi, _h, s, sc in units:
        for level in dims.levels:
            f = _facts(sc, max(sc.hosts.count - reserve, 1), None, level, s.backend)
            p = placement(hi, s, sc, level, budgets_of(sc, f), None)
            lows[hi] = min(lows.get(hi, p.active), p.active)
    host_counts: dict[int, list[int]] = {}
    for hi, h in enumerate(hosts):
        if dims.fixed_active is not None:
            host_counts[hi] = [dims.fixed_active]
        elif explicit_counts is not None:
            host_counts[hi] = sorted({int(n) for n in explicit_counts if n >= 1})
        else:
            host_counts[hi] = list(range(lows.get(hi, 1), lows.get(hi, 1) + max(1, counts)))
        table.counts[h.name] = host_counts[hi]
    report(progress, 0.1, "placing the VMs on each host model")
    check(cancel)

    # --- 2. model figures per host model, storage option and count (batched) ------------------------
    cells = [(u, n) for u in range(len(units)) for n in host_counts[units[u][0]]]
    migrating = [w for w in scenario.workloads if w.live_migration]

    def cell_task(u: int, n: int) -> Callable[[], dict]:
        def run() -> dict:
            _hi, _h, s, sc = units[u]
            out: dict[str, Any] = {}
            chosen: dict[str, Any] = {}
            if any(w.containerizable for w in sc.workloads):  # containers or VMs, as the engine decides
                cctx = context(sc, _facts(sc, n))
                hypervisor._containers(cctx, "KVM")
                chosen["containers"] = cctx.chosen.get("containers", {})
            out["chosen"] = chosen
            tctx = context(sc, _facts(sc, n, None, None, s.backend), chosen)
            out["boot"] = tg.boot_time_s(tctx, n) if any(t.name == "max_boot_time_s" for t in targets) else None
            batch = cache_mode.per_vm_throughput(tctx, sc.workloads)
            out["figs"] = batch[0] if batch is not None else None
            return out
        return run

    cell_out = dict(zip(cells, run_batched(models, [cell_task(u, n) for u, n in cells]), strict=True))
    report(progress, 0.45, "migration downtime per hypervisor")
    check(cancel)

    def downtime_task(u: int, hv: str) -> Callable[[], dict[str, float]]:
        def run() -> dict[str, float]:
            if not migrating:
                return {}
            _hi, _h, _s, sc = units[u]
            ctx = context(sc, _facts(sc, max(sc.hosts.count - reserve, 1), hv))
            rec = vcpu_overallocation.recommend(ctx)[0]
            figs = {rec.choice: rec.expected, **{a.choice: a.expected for a in rec.alternatives}}
            if not all("migration_downtime" in figs.get(k, {}) for k in OVERALLOCATION):
                return {}
            return {k: float(figs[k]["migration_downtime"].value) for k in OVERALLOCATION}
        return run

    first_unit: dict[int, int] = {}
    for u, (hi, *_rest) in enumerate(units):
        first_unit.setdefault(hi, u)
    down_keys = [(hi, hv) for hi in first_unit for hv in dims.hypervisors]
    downtime = dict(zip(down_keys, run_batched(models, [downtime_task(first_unit[hi], hv) for hi, hv in down_keys]),
                        strict=True))
    report(progress, 0.55, "checking every configuration")
    check(cancel)

    # --- 3. every configuration --------------------------------------------------------------------
    rows: dict[str, list] = {k: [] for k in ("host", "storage", "active", "hv", "level", "reason", "capex", "opex",
                                             "total", "kwh", "headroom", "host_cpu", "boot")}
    mode_ok: list[list] = [[] for _ in scenario.workloads]
    mode_ex: list[list] = [[] for _ in scenario.workloads]
    thr: list[list] = [[] for _ in scenario.workloads]
    mode_index = [{m: i for i, m in enumerate(ms)} for ms in dims.cache_modes]
    throughput_targets = [t for t in targets if t.name == "min_throughput_mb_s"]
    other_targets = tuple(n for n in NOT_BY_MODE if any(t.name == n for t in targets))
    cost_memo: dict[tuple, tuple] = {}
    storage_index: dict[StorageOption, int] = {}
    for ci, (u, n) in enumerate(cells):
        if ci % 8 == 0:
            check(cancel)
            report(progress, 0.55 + 0.45 * ci / max(len(cells), 1), "checking every configuration")
        hi, h, s, sc = units[u]
        si = storage_index.setdefault(s, len(storage_index))
        cell = cell_out[(u, n)]
        figs = cell["figs"]
        hv_excl = evaluate(hypervisor.DECISION, RuleContext(sc, _facts(sc, n)), HV).excluded
        offered = storage_backend._offered(context(sc, _facts(sc, n)))
        tctx = context(sc, _facts(sc, n, None, None, s.backend), cell["chosen"])
        host_cpu = tg.host_cpu_pct(tctx, n)
        for hv in dims.hypervisors:
            lv_excl = evaluate(vcpu_overallocation.DECISION, RuleContext(sc, _facts(sc, n, hv)), list(LEVELS)).excluded
            key = (hi, si, n, hv)
            if key not in cost_memo:
                bill = price(catalogue, DesignFacts(h, n + reserve, n, busy_share(sc, n), hv, s.backend,
                                                    catalogue.storage_product(s.product) if s.product else None,
                                                    image_tb(sc)))
                kwh = sum(line.quantity for line in bill.lines if line.category == "power")
                cost_memo[key] = (bill.capex, bill.opex_per_year, bill.total, kwh)
            capex, opex, total, kwh = cost_memo[key]
            for level in dims.levels:
                f = _facts(sc, n, hv, level, s.backend)
                budgets = budgets_of(sc, f)
                p = placement(hi, s, sc, level, budgets, hv)
                sb_excl = evaluate(storage_backend.DECISION, RuleContext(sc, f), list(storage_backend.BACKENDS)).excluded
                reason, missed = OK, ""
                if p.problems or n < p.active:
                    reason = PLACEMENT
                elif hv in hv_excl or level in lv_excl or s.backend in sb_excl or s.backend in offered:
                    reason = EXCLUDED
                chosen = dict(cell["chosen"])
                if level in downtime[(hi, hv)]:
                    chosen["migration_downtime_s"] = downtime[(hi, hv)][level]
                dctx = context(sc, f, chosen)
                if reason == OK and other_targets:
                    results = tg.evaluate(dctx, n, names=other_targets, cpu_points=host_count._migration_points(budgets))
                    lost = tg.missed(results)
                    if lost:
                        reason, missed = TARGET, lost[0].text()
                room = host_count.headroom(p.ctx, n, p.packing, budgets) if reason != PLACEMENT else {}
                rows["host"].append(hi)
                rows["storage"].append(si)
                rows["active"].append(n)
                rows["hv"].append(dims.hypervisors.index(hv))
                rows["level"].append(dims.levels.index(level))
                rows["reason"].append(reason)
                rows["capex"].append(capex)
                rows["opex"].append(opex)
                rows["total"].append(total)
                rows["kwh"].append(kwh)
                rows["host_cpu"].append(host_cpu)
                rows["boot"].append(np.nan if cell["boot"] is None else cell["boot"])
                rows["headroom"].append(min((100.0 * room.get(w.name, 0) / max(w.vms, 1) for w in sc.workloads),
                                            default=0.0) if room else 0.0)
                if missed:
                    table.missed[len(rows["host"]) - 1] = missed
                for wi, w in enumerate(sc.workloads):
                    modes = dims.cache_modes[wi]
                    excl = evaluate(cache_mode.DECISION, RuleContext(sc, f, w), CACHE).excluded
                    ok = np.ones(len(modes), dtype=bool)
                    ex = np.array([m in excl for m in modes], dtype=bool)
                    tp = np.full(len(modes), np.nan)
                    for m in modes:
                        j = mode_index[wi][m]
                        if figs is None:
                            continue
                        mf = figs[wi][m]
                        tp[j] = mf["throughput_per_vm"].value
                        for t in throughput_targets:
                            if w in tg._scopes(dctx, t, t.name) and not (t.workload is None and
                                                                         tg._own_target(dctx, t.name, w)):
                                ok[j] &= bool(t.met_by(tp[j]))
                        asked = cache_mode.requested_io(w, _Implicit(mf))  # type: ignore[arg-type]
                        if asked is not None:
                            for r in tg.implicit_targets([_ImplicitRec(w.name, asked, m)]):
                                ok[j] &= r.met is not False
                    mode_ok[wi].append(ok & ~ex)
                    mode_ex[wi].append(ex)
                    thr[wi].append(tp)
    for name, values in rows.items():
        dtype = int if name in ("host", "storage", "active", "hv", "level", "reason") else float
        setattr(table, name, np.asarray(values, dtype=dtype))
    widths = [len(ms) for ms in dims.cache_modes]
    table.mode_ok = [np.asarray(v, dtype=bool).reshape(-1, widths[i]) for i, v in enumerate(mode_ok)]
    table.mode_excluded = [np.asarray(v, dtype=bool).reshape(-1, widths[i]) for i, v in enumerate(mode_ex)]
    table.throughput = [np.asarray(v, dtype=float).reshape(-1, widths[i]) for i, v in enumerate(thr)]
    table.storage_options = sorted(storage_index, key=storage_index.__getitem__)
    table.notes = list(dims.notes)
    report(progress, 1.0, "evaluated")
    return table


@dataclass
class _ImplicitRec:
    """A cache-mode recommendation as :func:`cache_mode.implicit_targets` reads it."""

    wname: str
    asked: dict
    choice: str = ""
    decision: str = cache_mode.DECISION

    @property
    def scope(self) -> str:
        return f"workload:{self.wname}"

    @property
    def details(self) -> dict:
        return {"requested_io": self.asked}
