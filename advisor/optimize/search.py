"""The cheapest design that meets the targets, and the Pareto front of cost against a
performance figure.

:func:`optimize` evaluates the space (:mod:`advisor.optimize.evaluate`; in local processes, one
host model at a time, when the space is large), discards every design that breaks a hard limit,
takes a choice a rule excludes or misses a target (hard or soft, including a workload's
implicit I/O request), and returns the best of the rest by the objective (``cost``: capex + years
x opex; ``hosts``; ``power``: energy per year) and the Pareto front of cost against ``figure``
(``headroom``: the least growth every workload still fits, % of its VMs; ``host_cpu``: busiest
host's CPU; ``boot_time``; ``throughput``: the lowest throughput per VM over the workloads).

Ties are broken the same way everywhere (the brute-force check relies on it): objective, then
more headroom, then higher throughput per VM workload by workload, then the order in which the
space enumerates designs. Within a configuration each workload takes its allowed cache mode with
the highest throughput.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from advisor.calibration import Calibration
from advisor.optimize.evaluate import EXCLUDED, OK, PLACEMENT, REASONS, TARGET, Table, evaluate_hosts
from advisor.optimize.settle import settle_ranked, unsettled
from advisor.optimize.space import Design, SpaceOptions, dimensions
from advisor.progress import Cancelled, CancelToken, ProgressCallback, check, report
from advisor.scenario import Scenario
from knowledge.costs import Catalogue
from knowledge.infra.errors import InputError

OBJECTIVES = ("cost", "hosts", "power")
#: figure -> (label, unit, True when larger is better)
FIGURES = {"headroom": ("headroom", "% more VMs", True), "host_cpu": ("busiest host's CPU", "%", False),
           "boot_time": ("boot time", "s", False), "throughput": ("lowest throughput per VM", "MB/s", True)}
#: from this many configurations (rows) on, ``workers=None`` evaluates in local processes
AUTO_PROCESS_ROWS = 20000
#: the most configurations one search takes (about 1 ms each: a minute and some hundred MB); a larger
#: space is refused up front with its size and what narrows it
MAX_CONFIGURATIONS = 60_000


@dataclass
class Candidate:
    """A design with its cost and figures."""

    design: Design
    hosts: int
    capex: float
    opex_per_year: float
    total: float
    kwh_per_year: float
    headroom_pct: float
    host_cpu_pct: float
    boot_time_s: float | None
    throughput_mb_s: dict[str, float | None]

    @property
    def min_throughput(self) -> float | None:
        vals = [v for v in self.throughput_mb_s.values() if v is not None]
        return min(vals) if vals else None

    def figure(self, name: str) -> float | None:
        return {"headroom": self.headroom_pct, "host_cpu": self.host_cpu_pct, "boot_time": self.boot_time_s,
                "throughput": self.min_throughput}[name]

    def to_dict(self, scenario: Scenario) -> dict:
        out = self.design.to_dict(scenario)
        out.update({"hosts": self.hosts, "cost": {"capex": self.capex, "opex_per_year": self.opex_per_year,
                                                  "total": self.total},
                    "energy_kwh_per_year": round(self.kwh_per_year, 1), "headroom_pct": round(self.headroom_pct, 2),
                    "host_cpu_pct": round(self.host_cpu_pct, 2),
                    "boot_time_s": None if self.boot_time_s is None else round(self.boot_time_s, 3),
                    "throughput_mb_s": {k: None if v is None else round(v, 4) for k, v in self.throughput_mb_s.items()}})
        return out


@dataclass
class OptimizeResult:
    """What :func:`optimize` found (see the module doc)."""

    scenario: Scenario
    catalogue: str
    currency: str
    years: float
    objective: str
    figure: str
    size: int
    rows: int
    feasible: int
    discarded: dict[str, int]
    best: Candidate | None
    pareto: list[Candidate]
    elapsed_s: float
    workers: int
    space: dict
    notes: list[str] = field(default_factory=list)
    table: Table | None = None
    #: the cheapest design that meets every target (capex + years x opex), whatever the objective
    cheapest: Candidate | None = None

    def to_dict(self) -> dict:
        sc = self.scenario
        return {"scenario": sc.name, "catalogue": self.catalogue, "currency": self.currency, "years": self.years,
                "objective": self.objective, "figure": self.figure, "figure_unit": FIGURES[self.figure][1],
                "space": self.space, "designs": self.size, "configurations": self.rows, "feasible": self.feasible,
                "discarded": dict(self.discarded),
                "best": self.best.to_dict(sc) if self.best is not None else None,
                "cheapest": self.cheapest.to_dict(sc) if self.cheapest is not None else None,
                "pareto": [c.to_dict(sc) for c in self.pareto],
                "elapsed_s": round(self.elapsed_s, 3),
                "designs_per_s": round(self.size / self.elapsed_s) if self.elapsed_s > 0 else None,
                "workers": self.workers, "notes": list(self.notes)}


# --- picking from a table ----------------------------------------------------------------------------
def representatives(table: Table) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """(feasible rows mask, per workload the chosen mode index per row, per workload its throughput):
    each workload's allowed mode with the highest throughput (the first on ties)."""
    feasible = table.reason == OK
    picks, values = [], []
    for ok, tp in zip(table.mode_ok, table.throughput, strict=True):
        feasible &= ok.any(axis=1)
        score = np.where(ok, np.nan_to_num(tp, nan=-1e300), -np.inf)
        pick = np.argmax(score, axis=1)
        picks.append(pick)
        values.append(tp[np.arange(len(pick)), pick] if len(pick) else np.zeros(0))
    return feasible, picks, values


def objective_values(table: Table, objective: str) -> np.ndarray:
    if objective == "cost":
        return table.total
    if objective == "hosts":
        return (table.active + table.reserve).astype(float)
    return table.kwh


def figure_values(table: Table, figure: str, values: list[np.ndarray]) -> np.ndarray:
    if figure == "headroom":
        return table.headroom
    if figure == "host_cpu":
        return table.host_cpu
    if figure == "boot_time":
        return table.boot
    if not values:
        return np.full(len(table), np.nan)
    return np.min(np.vstack(values), axis=0)


def tie_keys(headroom: np.ndarray, values: list[np.ndarray]) -> list[np.ndarray]:
    """The tie-breaking keys after the objective, most significant first (all minimised)."""
    return [-headroom, *[np.nan_to_num(-v, nan=np.inf) for v in values]]


def order(primary: np.ndarray, keys: list[np.ndarray]) -> np.ndarray:
    """Indices sorted by ``primary``, then ``keys``, then index (stable)."""
    return np.lexsort([np.arange(len(primary)), *reversed(keys), primary])


def pareto_front(x: np.ndarray, y: np.ndarray, larger_better: bool, keys: list[np.ndarray]) -> np.ndarray:
    """Indices of the points not dominated in (smaller ``x``, better ``y``): sorted by x, then the
    better y, then ``keys``; a point stays when its y beats every cheaper point's. Points without a
    y are left out."""
    good = np.where(np.isnan(y), np.nan, -y if larger_better else y)
    idx = np.flatnonzero(~np.isnan(good))
    if idx.size == 0:
        return idx
    ordered = idx[order(x[idx], [good[idx], *[k[idx] for k in keys]])]
    best = np.minimum.accumulate(good[ordered])
    prev = np.concatenate([[np.inf], best[:-1]])
    return ordered[good[ordered] < prev - 1e-12]


def _candidate(table: Table, i: int, picks: list[np.ndarray], values: list[np.ndarray]) -> Candidate:
    modes = tuple(table.modes[w][int(picks[w][i])] for w in range(len(table.modes)))
    d = Design(table.host_names[int(table.host[i])], table.hypervisors[int(table.hv[i])],
               table.levels[int(table.level[i])], table.storage_options[int(table.storage[i])], modes,
               int(table.active[i]))
    boot = float(table.boot[i])
    return Candidate(d, int(table.active[i]) + table.reserve, float(table.capex[i]), float(table.opex[i]),
                     float(table.total[i]), float(table.kwh[i]), float(table.headroom[i]), float(table.host_cpu[i]),
                     None if math.isnan(boot) else boot,
                     {table.workloads[w]: (None if math.isnan(float(values[w][i])) else float(values[w][i]))
                      for w in range(len(table.modes))})


def discarded(table: Table) -> tuple[int, dict[str, int]]:
    """(feasible designs, discarded designs by reason)."""
    per_row = table.designs_per_row
    out = {REASONS[r]: int(np.sum(table.reason == r)) * per_row for r in (PLACEMENT, EXCLUDED, TARGET)}
    ok = table.reason == OK
    not_excluded = np.ones(len(table), dtype=np.int64)
    allowed = np.ones(len(table), dtype=np.int64)
    for ok_w, ex_w in zip(table.mode_ok, table.mode_excluded, strict=True):
        not_excluded *= (~ex_w).sum(axis=1)
        allowed *= ok_w.sum(axis=1)
    out[REASONS[EXCLUDED]] += int(np.sum((per_row - not_excluded)[ok]))
    out[REASONS[TARGET]] += int(np.sum((not_excluded - allowed)[ok]))
    return int(np.sum(allowed[ok])), out


# --- the search ------------------------------------------------------------------------------------------
def _worker_init(event) -> None:
    global _CANCEL_EVENT
    _CANCEL_EVENT = event


_CANCEL_EVENT = None


class _EventToken(CancelToken):
    def __init__(self, event) -> None:
        super().__init__()
        self._shared = event

    @property
    def cancelled(self) -> bool:
        return self._shared is not None and self._shared.is_set()

    def raise_if_cancelled(self) -> None:
        if self.cancelled:
            raise Cancelled()


def _evaluate_chunk(args) -> Table:
    """One host model in a worker process (opens the knowledge base by its path)."""
    from knowledge.store import KnowledgeBase

    scenario, catalogue, dims, host_names, kb_path, counts, explicit, calibration = args
    hosts = [catalogue.host(n) for n in host_names]
    with KnowledgeBase.open(Path(kb_path)) as kb:
        table = evaluate_hosts(scenario, catalogue, dims, hosts, kb, counts=counts, explicit_counts=explicit,
                               calibration=calibration, cancel=_EventToken(_CANCEL_EVENT))
        table.settle()  # its searches need this process's knowledge base
        return table


def _estimate_rows(dims, options: SpaceOptions) -> int:
    counts = 1 if dims.fixed_active is not None else len(options.counts) if options.counts else options.host_counts
    return sum(len(dims.storage[h.name]) for h in dims.hosts) * counts * len(dims.hypervisors) * len(dims.levels)


def _check_size(rows: int, dims, options: SpaceOptions) -> None:
    """Refuse a space of more than :data:`MAX_CONFIGURATIONS` configurations before searching it,
    saying how large it is and what narrows it."""
    if rows <= MAX_CONFIGURATIONS:
        return
    counts = 1 if dims.fixed_active is not None else len(options.counts) if options.counts else options.host_counts
    storage = sum(len(dims.storage[h.name]) for h in dims.hosts)
    raise InputError(f"the design space has about {rows:,} configurations ({len(dims.hosts)} host models with "
                     f"{storage} storage options in all x {counts} host counts x {len(dims.hypervisors)} hypervisors "
                     f"x {len(dims.levels)} over-allocation levels), more than the {MAX_CONFIGURATIONS:,} one search "
                     "takes (about a minute); narrow it with --host-models, --host-counts, --hypervisors, --levels or "
                     "--backends")


def optimize(scenario: Scenario, catalogue: Catalogue, kb=None, *, objective: str = "cost", figure: str = "headroom",
             options: SpaceOptions | None = None, calibration: Calibration | None = None,
             workers: int | None = None, progress: ProgressCallback | None = None,
             cancel: CancelToken | None = None, keep_table: bool = False,
             exact_headroom: bool = True) -> OptimizeResult:
    """Search the design space of ``scenario`` with the prices of ``catalogue`` (see the module doc).

    ``workers``: processes to evaluate the host models in (1: this process; None: local processes
    when the space has more than :data:`AUTO_PROCESS_ROWS` configurations and the machine more than
    one CPU). ``keep_table``: the result keeps the evaluated table (its headroom exact in every row).
    ``exact_headroom`` False leaves the headroom under placement constraints at its upper bound, in
    the table and the ranking (for a caller that ranks the designs by other means: ``--horizon``).
    Raises :class:`~advisor.progress.Cancelled` when ``cancel`` is set,
    :class:`~knowledge.infra.errors.InputError` for an unknown objective or figure or an empty space.
    """
    if objective not in OBJECTIVES:
        raise InputError(f"unknown objective {objective!r} (known: {', '.join(OBJECTIVES)})")
    if figure not in FIGURES:
        raise InputError(f"unknown figure {figure!r} (known: {', '.join(FIGURES)})")
    start = time.perf_counter()
    options = options or SpaceOptions()
    dims = dimensions(scenario, catalogue, options)
    own_kb = kb is None
    if own_kb:
        from knowledge.store import KnowledgeBase

        kb = KnowledgeBase.open()
    try:
        rows = _estimate_rows(dims, options)
        _check_size(rows, dims, options)
        cpus = os.cpu_count() or 1
        if workers is None:
            workers = min(cpus, len(dims.hosts)) if rows > AUTO_PROCESS_ROWS and cpus > 1 else 1
        workers = max(1, min(int(workers), len(dims.hosts), cpus))  # never more processes than CPUs
        report(progress, 0.01, f"searching {len(dims.hosts)} host models, about {rows:,} configurations"
                               + (f" in {workers} processes" if workers > 1 else ""))
        if workers == 1:
            table = evaluate_hosts(scenario, catalogue, dims, dims.hosts, kb, counts=options.host_counts,
                                   explicit_counts=options.counts, calibration=calibration, progress=progress,
                                   cancel=cancel)
        else:
            table = _in_processes(scenario, catalogue, dims, options, kb, calibration, workers, progress, cancel)
        check(cancel)
        if keep_table and exact_headroom:
            table.settle()
        result = select(table, scenario, catalogue, objective, figure, exact_headroom)
        result.elapsed_s = time.perf_counter() - start
        result.workers = workers
        result.space = {"host_models": [h.name for h in dims.hosts], "hypervisors": list(dims.hypervisors),
                        "vcpu_overallocation": list(dims.levels),
                        "storage": {h: [s.label() for s in opts] for h, opts in dims.storage.items()},
                        "cache_modes": {w.name: list(m) for w, m in zip(scenario.workloads, dims.cache_modes,
                                                                        strict=True)},
                        "active_host_counts": table.counts}
        if not keep_table:
            result.table = None
        report(progress, 1.0, f"{result.size:,} designs searched")
        return result
    finally:
        if own_kb:
            kb.close()


def _in_processes(scenario, catalogue, dims, options, kb, calibration, workers, progress, cancel) -> Table:
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    event = ctx.Event()
    names = [h.name for h in dims.hosts]
    jobs = {}
    tables: dict[str, Table] = {}
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_init,
                             initargs=(event,)) as pool:
        for n in names:
            jobs[pool.submit(_evaluate_chunk, (scenario, catalogue, dims, [n], str(kb.path), options.host_counts,
                                               options.counts, calibration))] = n
        pending = set(jobs)
        try:
            while pending:
                done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for f in done:
                    tables[jobs[f]] = f.result()
                report(progress, 0.05 + 0.9 * len(tables) / len(names),
                       f"{len(tables)} of {len(names)} host models evaluated")
                if cancel is not None and cancel.cancelled:
                    event.set()
                    for f in pending:
                        f.cancel()
                    raise Cancelled()
        except BaseException:
            event.set()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    table = tables[names[0]]
    for n in names[1:]:
        table = table.concat(tables[n])
    return table


def select(table: Table, scenario: Scenario, catalogue: Catalogue, objective: str = "cost",
           figure: str = "headroom", exact_headroom: bool = True) -> OptimizeResult:
    """The best design and the Pareto front of an evaluated table, ranked as if its headroom were
    exact in every row (:mod:`advisor.optimize.settle`; with ``exact_headroom`` False, on the
    table's figures as they are)."""
    feasible_rows, picks, values = representatives(table)
    n_feasible, lost = discarded(table)
    idx = np.flatnonzero(feasible_rows)
    best = cheapest = None
    pareto: list[Candidate] = []
    notes = list(table.notes)
    if idx.size:
        obj = objective_values(table, objective)
        fig = figure_values(table, figure, values)
        if exact_headroom:
            settle_ranked(table, idx, obj, fig, figure == "headroom", FIGURES[figure][2])
            if figure == "headroom":
                fig = unsettled(table, fig)
        keys = tie_keys(table.headroom, values)
        pick = idx[order(obj[idx], [k[idx] for k in keys])[0]]
        cheap = idx[order(table.total[idx], [k[idx] for k in keys])[0]]
        front = pareto_front(table.total[idx], fig[idx], FIGURES[figure][2], [k[idx] for k in keys])
        if exact_headroom:
            table.settle([pick, cheap, *idx[front]])  # the figures shown
        best = _candidate(table, int(pick), picks, values)
        cheapest = best if int(cheap) == int(pick) else _candidate(table, int(cheap), picks, values)
        pareto = [_candidate(table, int(idx[j]), picks, values) for j in front]
        if not pareto:
            notes.append(f"no design has a {FIGURES[figure][0]} figure: no Pareto front")
    else:
        missed = sorted(set(table.missed.values()))[:3]
        notes.append("no design meets every target and hard limit" + (f" (e.g. {'; '.join(missed)})" if missed else "")
                     + "; widen the space (--host-counts, more host models) or relax the targets")
    for h, counts in table.counts.items():
        rows = np.flatnonzero(feasible_rows & (table.host == table.host_names.index(h)))
        if counts and rows.size and int(table.active[rows].max()) == max(counts) and \
                int(table.active[rows].min()) == max(counts):
            notes.append(f"{h}: only the largest host count searched ({max(counts)}) meets the targets: more hosts "
                         "may be cheaper per unit of headroom (--host-counts)")
    return OptimizeResult(scenario, catalogue.name, catalogue.currency, catalogue.years, objective, figure,
                          table.size, len(table), n_feasible, lost, best, pareto, 0.0, 1, {}, notes, table, cheapest)


def best_of(candidates: Sequence[Candidate], objective: str) -> Candidate | None:
    """The best of explicit candidates by the same order (used by the brute-force check)."""
    if not candidates:
        return None
    key = {"cost": lambda c: c.total, "hosts": lambda c: float(c.hosts), "power": lambda c: c.kwh_per_year}[objective]
    return min(candidates, key=lambda c: (key(c), -c.headroom_pct,
                                          *[-(v if v is not None else -math.inf) for v in c.throughput_mb_s.values()]))
