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
from collections.abc import Callable, Iterable, Sequence
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
from advisor.recommend.placed_count import placed_active
from advisor.recommend.placement_plan import declared
from advisor.recommend.room import least_share
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
    #: rows whose ``headroom`` is still the resources' upper bound (a scenario with placement
    #: constraints): row -> the search of its exact figure (:meth:`settle`)
    pending: dict[int, PendingRoom] = field(default_factory=dict)

    def __len__(self) -> int:
        return int(self.host.size)

    @property
    def designs_per_row(self) -> int:
        return int(np.prod([len(m) for m in self.modes])) if self.modes else 1

    @property
    def size(self) -> int:
        """Candidate designs: rows x the product of the cache modes tried per workload."""
        return len(self) * self.designs_per_row

    def settle(self, rows: Iterable[int] | None = None) -> None:
        """The exact headroom of ``rows`` (default: every row) in place of their upper bound, in
        row order (the rows of a design share its searches)."""
        todo = sorted(self.pending if rows is None else {int(r) for r in rows if int(r) in self.pending})
        for r in todo:
            self.headroom[r] = self.pending.pop(r)()

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
        out.pending = {**self.pending, **{k + len(self): v for k, v in other.pending.items()}}
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
    placed = placed_active(ctx, budgets)  # placement constraints, failures and HA admission (#32)
    return _Placement(placed.active, placed.packing, placed.problems, budgets, ctx)


class _Implicit:
    """What :func:`cache_mode.requested_io` reads of a recommendation: a mode's figures."""

    def __init__(self, expected: dict):
        self.expected = expected


def evaluate_hosts(scenario: Scenario, catalogue: Catalogue, dims: Dimensions, hosts: Sequence[HostModel], kb,
                   *, counts: int = 6, explicit_counts: Sequence[int] | None = None,
                   calibration: Calibration | None = None, progress: ProgressCallback | None = None,
                   cancel: CancelToken | None = None) -> Table:
    """The :class:`Table` of the space's designs on ``hosts`` (see the module doc)."""
    ev = _Evaluator(scenario, catalogue, dims, hosts, kb, calibration)
    # --- 1. scenarios and placements per host model, storage option and level -----------------------
    host_counts = ev.host_counts(counts, explicit_counts)
    report(progress, 0.1, "placing the VMs on each host model")
    check(cancel)
    # --- 2. model figures per host model, storage option and count (batched) ------------------------
    cells = [(u, n) for u in range(len(ev.units)) for n in host_counts[ev.units[u][0]]]
    cell_out = ev.cell_figures(cells)
    report(progress, 0.45, "migration downtime per hypervisor")
    check(cancel)
    downtime = ev.downtimes()
    report(progress, 0.55, "checking every configuration")
    check(cancel)
    # --- 3. every configuration --------------------------------------------------------------------
    rows = _Rows.empty(len(scenario.workloads))
    for ci, (u, n) in enumerate(cells):
        if ci % 8 == 0:
            check(cancel)
            report(progress, 0.55 + 0.45 * ci / max(len(cells), 1), "checking every configuration")
        ev.cell_rows(u, n, cell_out[(u, n)], downtime, rows)
    ev.fill(rows)
    report(progress, 1.0, "evaluated")
    return ev.table


def _budgets_of(sc: Scenario, facts: Facts):
    return host_count.Budgets.of(r.id for r in evaluate(host_count.DECISION, RuleContext(sc, facts), ["plan"]).fired)


@dataclass
class _Rows:
    """The columns of the table as they are filled, one configuration (row) at a time."""

    rows: dict[str, list]
    mode_ok: list[list]
    mode_ex: list[list]
    thr: list[list]
    cost_memo: dict[tuple, tuple] = field(default_factory=dict)
    storage_index: dict[StorageOption, int] = field(default_factory=dict)
    pending: dict[int, PendingRoom] = field(default_factory=dict)

    @classmethod
    def empty(cls, workloads: int) -> _Rows:
        return cls({k: [] for k in ("host", "storage", "active", "hv", "level", "reason", "capex", "opex",
                                    "total", "kwh", "headroom", "host_cpu", "boot")},
                   [[] for _ in range(workloads)], [[] for _ in range(workloads)], [[] for _ in range(workloads)])


@dataclass(frozen=True)
class _Cell:
    """One (host model, storage option, active count) and what holds for all its configurations."""

    hi: int
    h: HostModel
    s: StorageOption
    sc: Scenario
    n: int
    si: int
    out: dict
    hv_excl: Any
    offered: Any
    host_cpu: float


class _Evaluator:
    """The state one :func:`evaluate_hosts` call shares between its steps: the models, the scenario
    of every (host model, storage option) unit, the placements found, the table being filled."""

    def __init__(self, scenario: Scenario, catalogue: Catalogue, dims: Dimensions, hosts: Sequence[HostModel], kb,
                 calibration: Calibration | None):
        from advisor.engine import citation_index

        self.scenario, self.catalogue, self.dims, self.hosts, self.kb = scenario, catalogue, dims, hosts, kb
        self.cal = calibration or documents_only()
        self.models = BatchedModels(kb, self.cal.family_dict())
        self.cites = citation_index(kb)
        self.reserve = scenario.hosts.reserve
        self.table = Table([h.name for h in hosts], [], dims.hypervisors, dims.levels,
                           [w.name for w in scenario.workloads], list(dims.cache_modes), self.reserve)
        self.targets = scenario.preferences.targets
        self.units: list[tuple[int, HostModel, StorageOption, Scenario]] = []
        for hi, h in enumerate(hosts):
            for s in dims.storage[h.name]:
                self.units.append((hi, h, s, host_scenario(scenario, h, catalogue, s)))
        self.place_memo: dict[tuple, _Placement] = {}
        self.mode_index = [{m: i for i, m in enumerate(ms)} for ms in dims.cache_modes]
        self.throughput_targets = [t for t in self.targets if t.name == "min_throughput_mb_s"]
        self.other_targets = tuple(n for n in NOT_BY_MODE if any(t.name == n for t in self.targets))

    def context(self, sc: Scenario, facts: Facts, chosen: dict | None = None) -> EngineContext:
        return EngineContext(scenario=sc, kb=self.kb, models=self.models, cites=self.cites, facts=facts,
                             calibration=self.cal, chosen=dict(chosen or {}))

    def placement(self, hi: int, s: StorageOption, sc: Scenario, level: str, budgets, hv: str | None) -> _Placement:
        key = (hi, BACKEND_KIND[s.backend] is None, level, budgets, hv)
        if key not in self.place_memo:
            ctx = self.context(sc, _facts(sc, 1, hv, level, s.backend))
            self.place_memo[key] = _placement(ctx, budgets)
        return self.place_memo[key]

    def host_counts(self, counts: int, explicit_counts: Sequence[int] | None) -> dict[int, list[int]]:
        """The active counts searched per host model: the fixed one, the explicit ones, or ``counts``
        from the fewest that place every VM on any of its storage options and levels."""
        dims, reserve = self.dims, self.reserve
        lows: dict[int, int] = {}
        for hi, _h, s, sc in self.units:
            for level in dims.levels:
                f = _facts(sc, max(sc.hosts.count - reserve, 1), None, level, s.backend)
                p = self.placement(hi, s, sc, level, _budgets_of(sc, f), None)
                lows[hi] = min(lows.get(hi, p.active), p.active)
        host_counts: dict[int, list[int]] = {}
        for hi, h in enumerate(self.hosts):
            if dims.fixed_active is not None:
                host_counts[hi] = [dims.fixed_active]
            elif explicit_counts is not None:
                host_counts[hi] = sorted({int(n) for n in explicit_counts if n >= 1})
            else:
                host_counts[hi] = list(range(lows.get(hi, 1), lows.get(hi, 1) + max(1, counts)))
            self.table.counts[h.name] = host_counts[hi]
        return host_counts

    def cell_figures(self, cells: list[tuple[int, int]]) -> dict[tuple[int, int], dict]:
        """Per (unit, count): the containers choice, the boot time and the throughput figures per VM
        and cache mode, the models batched over all cells."""
        return dict(zip(cells, run_batched(self.models, [self._cell_task(u, n) for u, n in cells]), strict=True))

    def _cell_task(self, u: int, n: int) -> Callable[[], dict]:
        def run() -> dict:
            _hi, _h, s, sc = self.units[u]
            out: dict[str, Any] = {}
            chosen: dict[str, Any] = {}
            if any(w.containerizable for w in sc.workloads):  # containers or VMs, as the engine decides
                cctx = self.context(sc, _facts(sc, n))
                hypervisor._containers(cctx, "KVM")
                chosen["containers"] = cctx.chosen.get("containers", {})
            out["chosen"] = chosen
            tctx = self.context(sc, _facts(sc, n, None, None, s.backend), chosen)
            out["boot"] = tg.boot_time_s(tctx, n) if any(t.name == "max_boot_time_s" for t in self.targets) else None
            batch = cache_mode.per_vm_throughput(tctx, sc.workloads)
            out["figs"] = batch[0] if batch is not None else None
            return out
        return run

    def downtimes(self) -> dict[tuple[int, str], dict[str, float]]:
        """Per (host model, hypervisor): the migration downtime of each over-allocation level (empty
        without live migration or without a figure for every level), the models batched."""
        first_unit: dict[int, int] = {}
        for u, (hi, *_rest) in enumerate(self.units):
            first_unit.setdefault(hi, u)
        down_keys = [(hi, hv) for hi in first_unit for hv in self.dims.hypervisors]
        return dict(zip(down_keys, run_batched(self.models, [self._downtime_task(first_unit[hi], hv)
                                                             for hi, hv in down_keys]), strict=True))

    def _downtime_task(self, u: int, hv: str) -> Callable[[], dict[str, float]]:
        migrating = [w for w in self.scenario.workloads if w.live_migration]

        def run() -> dict[str, float]:
            if not migrating:
                return {}
            _hi, _h, _s, sc = self.units[u]
            ctx = self.context(sc, _facts(sc, max(sc.hosts.count - self.reserve, 1), hv))
            rec = vcpu_overallocation.recommend(ctx)[0]
            figs = {rec.choice: rec.expected, **{a.choice: a.expected for a in rec.alternatives}}
            if not all("migration_downtime" in figs.get(k, {}) for k in OVERALLOCATION):
                return {}
            return {k: float(figs[k]["migration_downtime"].value) for k in OVERALLOCATION}
        return run

    def cell_rows(self, u: int, n: int, cell_out: dict, downtime: dict, rows: _Rows) -> None:
        """The rows of one (unit, count): every hypervisor and level."""
        hi, h, s, sc = self.units[u]
        si = rows.storage_index.setdefault(s, len(rows.storage_index))
        hv_excl = evaluate(hypervisor.DECISION, RuleContext(sc, _facts(sc, n)), HV).excluded
        offered = storage_backend._offered(self.context(sc, _facts(sc, n)))
        tctx = self.context(sc, _facts(sc, n, None, None, s.backend), cell_out["chosen"])
        c = _Cell(hi, h, s, sc, n, si, cell_out, hv_excl, offered, tg.host_cpu_pct(tctx, n))
        for hv in self.dims.hypervisors:
            lv_excl = evaluate(vcpu_overallocation.DECISION, RuleContext(sc, _facts(sc, n, hv)), list(LEVELS)).excluded
            cost = self._cost(c, hv, rows.cost_memo)
            for level in self.dims.levels:
                self._row(c, hv, level, lv_excl, cost, downtime[(hi, hv)], rows)

    def _cost(self, c: _Cell, hv: str, memo: dict[tuple, tuple]) -> tuple:
        """``(capex, opex per year, total, kWh per year)`` of the design's bill, priced once per
        (host model, storage option, count, hypervisor)."""
        key = (c.hi, c.si, c.n, hv)
        if key not in memo:
            s, sc, catalogue = c.s, c.sc, self.catalogue
            # the busy cores the host count and the advice's cost card count (#31 review 3 finding 6)
            ctx = self.context(sc, _facts(sc, c.n, hv, None, s.backend), dict(c.out["chosen"]))
            bill = price(catalogue, DesignFacts(c.h, c.n + self.reserve, c.n, busy_share(ctx, c.n), hv, s.backend,
                                                catalogue.storage_product(s.product) if s.product else None,
                                                image_tb(sc)))
            kwh = sum(line.quantity for line in bill.lines if line.category == "power")
            memo[key] = (bill.capex, bill.opex_per_year, bill.total, kwh)
        return memo[key]

    def _row(self, c: _Cell, hv: str, level: str, lv_excl, cost: tuple, downtime: dict[str, float],
             rows: _Rows) -> None:
        """One configuration: its verdict (placement, exclusions, targets without cache mode), its
        figures, and per workload the cache modes allowed."""
        sc, n, s = c.sc, c.n, c.s
        f = _facts(sc, n, hv, level, s.backend)
        budgets = _budgets_of(sc, f)
        p = self.placement(c.hi, s, sc, level, budgets, hv)
        sb_excl = evaluate(storage_backend.DECISION, RuleContext(sc, f), list(storage_backend.BACKENDS)).excluded
        reason, missed = OK, ""
        if p.problems or n < p.active:
            reason = PLACEMENT
        elif hv in c.hv_excl or level in lv_excl or s.backend in sb_excl or s.backend in c.offered:
            reason = EXCLUDED
        chosen = dict(c.out["chosen"])
        if level in downtime:
            chosen["migration_downtime_s"] = downtime[level]
        dctx = self.context(sc, f, chosen)
        if reason == OK and self.other_targets:
            results = tg.evaluate(dctx, n, names=self.other_targets, cpu_points=host_count._migration_points(budgets))
            lost = tg.missed(results)
            if lost:
                reason, missed = TARGET, lost[0].text()
        capex, opex, total, kwh = cost
        values = {"host": c.hi, "storage": c.si, "active": n, "hv": self.dims.hypervisors.index(hv),
                  "level": self.dims.levels.index(level), "reason": reason, "capex": capex, "opex": opex,
                  "total": total, "kwh": kwh, "host_cpu": c.host_cpu,
                  "boot": np.nan if c.out["boot"] is None else c.out["boot"],
                  "headroom": self._headroom(sc, p, n, rows) if reason != PLACEMENT else 0.0}
        for name, value in values.items():
            rows.rows[name].append(value)
        if missed:
            self.table.missed[len(rows.rows["host"]) - 1] = missed
        for wi, w in enumerate(sc.workloads):
            self._modes(wi, w, sc, f, dctx, c.out["figs"], rows)

    def _headroom(self, sc: Scenario, p: _Placement, n: int, rows: _Rows) -> float:
        """The headroom of the row being added on ``n`` active hosts (:func:`host_count.headroom`, %
        of each workload's VMs, the least). Under placement constraints it is the resources' room
        (its upper bound) until the ranking reads the row (:meth:`Table.settle`): the constrained
        search is the optimizer's dearest step, and most rows' order never depends on it."""
        room = host_count.resources_room(p.ctx, n, p.packing, p.budgets)
        if not declared(p.ctx.scenario):
            return headroom_pct(sc, room)
        rows.pending[len(rows.rows["host"])] = PendingRoom(sc, p, n, room)
        return headroom_pct(sc, {k: max(v, 0) for k, v in room.items()})

    def _modes(self, wi: int, w, sc: Scenario, f: Facts, dctx: EngineContext, figs, rows: _Rows) -> None:
        """Workload ``wi``'s cache modes in one configuration: excluded, throughput per VM, allowed
        (not excluded, its throughput targets and the implicit ones met)."""
        modes = self.dims.cache_modes[wi]
        excl = evaluate(cache_mode.DECISION, RuleContext(sc, f, w), CACHE).excluded
        ok = np.ones(len(modes), dtype=bool)
        ex = np.array([m in excl for m in modes], dtype=bool)
        tp = np.full(len(modes), np.nan)
        for m in modes:
            j = self.mode_index[wi][m]
            if figs is None:
                continue
            mf = figs[wi][m]
            tp[j] = mf["throughput_per_vm"].value
            for t in self.throughput_targets:
                if w in tg._scopes(dctx, t, t.name) and not (t.workload is None and
                                                             tg._own_target(dctx, t.name, w)):
                    ok[j] &= bool(t.met_by(tp[j]))
            asked = cache_mode.requested_io(w, _Implicit(mf))  # type: ignore[arg-type]
            if asked is not None:
                for r in tg.implicit_targets([_ImplicitRec(w.name, asked, m)]):
                    ok[j] &= r.met is not False
        rows.mode_ok[wi].append(ok & ~ex)
        rows.mode_ex[wi].append(ex)
        rows.thr[wi].append(tp)

    def fill(self, rows: _Rows) -> None:
        """The table's arrays from the rows."""
        table, dims = self.table, self.dims
        for name, values in rows.rows.items():
            dtype = int if name in ("host", "storage", "active", "hv", "level", "reason") else float
            setattr(table, name, np.asarray(values, dtype=dtype))
        widths = [len(ms) for ms in dims.cache_modes]
        table.mode_ok = [np.asarray(v, dtype=bool).reshape(-1, widths[i]) for i, v in enumerate(rows.mode_ok)]
        table.mode_excluded = [np.asarray(v, dtype=bool).reshape(-1, widths[i]) for i, v in enumerate(rows.mode_ex)]
        table.throughput = [np.asarray(v, dtype=float).reshape(-1, widths[i]) for i, v in enumerate(rows.thr)]
        table.storage_options = sorted(rows.storage_index, key=rows.storage_index.__getitem__)
        table.pending = rows.pending
        table.notes = list(dims.notes)


@dataclass(frozen=True)
class PendingRoom:
    """The search of a row's exact headroom: its placement ``p`` on ``active`` hosts, ``room`` the
    resources' (the rows of one placement share their searches, and their room grows with the hosts)."""

    sc: Scenario
    p: _Placement
    active: int
    room: dict[str, int]

    def __call__(self) -> float:
        return headroom_pct(self.sc, least_share(self.p.ctx, self.active, self.p.budgets, self.room))


def headroom_pct(sc: Scenario, room: dict[str, int]) -> float:
    """The headroom figure of a room (workload -> VMs more): the least over the workloads, % of its VMs."""
    return min((100.0 * room.get(w.name, 0) / max(w.vms, 1) for w in sc.workloads), default=0.0) if room else 0.0


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
