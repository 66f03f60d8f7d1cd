"""Automatic load balancing (VMware DRS) vs a human expert: hottest host and migrations (doc 004 ch. 7).

Data: chapter 7 (testbed c7-TB1: three VMware ESXi 5.5 hosts, 24 logical cores each, 12 telecom
VMs in active/passive pairs). Five test cases, each at three loads per VM and three DRS
migration thresholds (levels 1, 3, 5; Section 7.3.2), plus the migrations a human expert made.
Factor mapping, explicit: ``test_case`` -> ``event`` (Section 7.3.2): 1 ``load_shift`` (one VM's
load doubled), 2 ``two_load_shifts`` (two VMs on two hosts tripled), 3 ``host_added`` (an empty
host joins two loaded ones), 4 ``failover`` (an active VM stops, its passive twin takes the
load), 5 ``maintenance`` (host 3 is evacuated; it idles at 4 % afterwards and is left out of
the averages); ``drs_threshold`` -> ``drs_level``; ``balancer`` drs | human_expert. Where a
level made no migration (the 0-count rows of Tables 7.1-7.9) the hosts stay in the state before
DRS was turned on (load shift, or "same load" in test cases 3 and 5): such points cite the
CPU rows of that state and the 0-count row (the curators' notes of Tables 7.2, 7.4, 7.8 say so).

``drs_peak_cpu`` (60 points: 5 events x 3 loads x levels 1, 3, 5 and the expert): CPU of the
hottest host after the balancer acted, Tables 7.2, 7.4, 7.6, 7.8, 7.10. Work does not vanish
when VMs move, so the cluster's mean host CPU after the event is set by the load, and a balancer
only decides how far the hottest host sits above it::

    peak = mean_host_cpu * exp(r[event, balancer, level]),   r >= 0 (peak >= mean)

``r`` is the mean log imbalance of the cell over the three loads; across levels 1, 3, 5 of one
event it is made non-increasing (scikit-learn IsotonicRegression, weighted by points): a more
aggressive threshold tolerates less imbalance (Section 7.1.1). Levels 2 and 4 are interpolated.
The documents show no consistent effect of the load on how well DRS balanced (Section 7.4:
level 5 balanced test case 1 at 300 and 500 req/s but not at 700), so the load enters only
through ``mean_host_cpu``. Bounded to [mean_host_cpu, 100].

``drs_migrations`` (55 points: the 45 DRS cells of Tables 7.1, 7.3, 7.5, 7.7, 7.9 and 10 expert
totals from the tables and Sections 7.4.1-7.4.4; the per-direction rows are parts of these
totals and skipped): vMotions per event. Scale: the moves the event calls for, from Section
7.3.2: 1 shifted VM (load_shift), 2 (two_load_shifts, failover), every VM of the evacuated host
(maintenance: ``vms_per_host``) and a fair share for the new host (host_added:
``vms_per_host * hosts / (hosts + 1)``)::

    migrations = needed_moves(event, vms_per_host, hosts) * m[event, balancer, level]

``m`` is the cell's mean of migrations / needed moves, non-decreasing in the level (isotonic;
a lower threshold can only trigger more moves); maintenance moves are mandatory at every level
(Section 7.5). Many cells hold zeros (23 of the 45 DRS cases did nothing, row c7-S7.5-02), so the
interval is the 10th-90th percentile of a Poisson count with the predicted mean, not a log
interval; a median absolute *percentage* error is undefined on such targets.

The options' order (both): every event was measured with the same options on one testbed, so a
cell (event, option) is partially pooled towards its event's mean plus the option's effect averaged
over the other events (:func:`partial_pool`, strength a quarter of one load's evidence): where a
cell's own loads cannot order two options (equal counts, equal CPU at the other loads), the order
the other events measured decides. An evacuation's moves are mandatory at every level and keep their
own means; a count that is zero at every load stays zero (the option never moved a VM for it). A count
pools only where its own mean ties with another option's of the same event: a cell's mean count over
its loads is its estimate, and shrinking every cell moved exact repeats (held out, MdAPE 2.3 % against
the nearest neighbour's 0 %; the order kept is the same, 195 of 203 option pairs).

Query (both): ``event`` (load_shift|two_load_shifts|host_added|failover|maintenance; default
load_shift), ``balancer`` (drs|human_expert; ``expert``, ``manual`` accepted; default drs),
``drs_level`` (1-5, default 3, VMware's default, row c7-S7.1.1-04; ignored for the expert).
``drs_peak_cpu`` also ``mean_host_cpu`` (%, the cluster's mean host CPU after the event,
required); result %. ``drs_migrations`` also ``vms_per_host`` and ``hosts`` (before the event;
default the test's: 4 and 3, for host_added 6 and 2); result migrations per event.
Extrapolated: levels 2 and 4 (never tested), mean host CPU outside the measured range, another
VM or host count than the test's for host_added and maintenance, and an event the balancer has no
points for: it takes the balancer's pooled cell (the mean over the events it was seen on; for an
evacuation, every VM of the host moves, Section 7.5). All on VMware ESXi 5.5 DRS. No calibration keys.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from advisor.models.base import TrainingPoint
from advisor.models.family import Family, check_levels, column, point
from knowledge.infra.errors import InputError

DOC = "004"
EVENTS = {"1": "load_shift", "2": "two_load_shifts", "3": "host_added", "4": "failover", "5": "maintenance"}
CPU_TABLES = ("Table 7.2", "Table 7.4", "Table 7.6", "Table 7.8", "Table 7.10")
COUNT_TABLES = ("Table 7.1", "Table 7.3", "Table 7.5", "Table 7.7", "Table 7.9")
EXPERT_SECTIONS = ("Section 7.4.1", "Section 7.4.2", "Section 7.4.3", "Section 7.4.4")
LEVELS = (1.0, 3.0, 5.0)             # tested thresholds (Section 7.3.2, rows c7-S7.3.2-33..35)
MAINTENANCE_HOST = "Host 3"          # evacuated in test case 5 (Table 7.9)
#: rows giving hosts and VMs per host at the start of each test case (Section 7.3.2)
SETUP_ROWS = {"1": ("c7-S7.3.2-02", "c7-S7.3.2-03"), "2": ("c7-S7.3.2-10", "c7-S7.3.2-11"),
              "3": ("c7-S7.3.2-18", "c7-S7.3.2-19"), "4": ("c7-S7.3.2-23", "c7-S7.3.2-24"),
              "5": ("c7-S7.3.2-28", "c7-S7.3.2-29")}
#: VMs whose load changes in the event (Section 7.3.2); None: set by the VM and host counts
SHIFTED_VMS = {"load_shift": 1.0, "two_load_shifts": 2.0, "failover": 2.0, "host_added": None, "maintenance": None}
BALANCERS = {"drs": "drs", "human_expert": "human_expert", "expert": "human_expert", "manual": "human_expert"}


def needed_moves(event: np.ndarray, vms_per_host: np.ndarray, hosts: np.ndarray) -> np.ndarray:
    """Migrations an event calls for: the shifted VMs, every VM of an evacuated host, or the new
    host's fair share of the VMs."""
    shifted = np.array([SHIFTED_VMS[e] if SHIFTED_VMS[e] is not None else np.nan for e in event], dtype=float)
    return np.select([event == "maintenance", event == "host_added"],
                     [vms_per_host, vms_per_host * hosts / (hosts + 1.0)], shifted)


def _isotonic(levels: list[float], values: list[float], weights: list[float], increasing: bool):
    """(x, y) knots of a weighted isotonic fit over levels (scikit-learn IsotonicRegression)."""
    from sklearn.isotonic import IsotonicRegression

    iso = IsotonicRegression(increasing=increasing, out_of_bounds="clip")
    iso.fit(np.asarray(levels, float), np.asarray(values, float), sample_weight=np.asarray(weights, float))
    return np.asarray(iso.X_thresholds_, float), np.asarray(iso.y_thresholds_, float)


#: how many loads' worth of evidence the shared option effect counts as, against a cell's own mean
POOL_STRENGTH = 0.25


def partial_pool(event: np.ndarray, option: np.ndarray, value: np.ndarray, strength: float = POOL_STRENGTH,
                 alone: tuple[str, ...] = (), keep_zero: bool = False,
                 ties_only: bool = False) -> dict[tuple[str, str], tuple[float, float]]:
    """(event, option) -> (pooled value, points). Every event is measured with the same options (DRS
    levels 1, 3, 5 and the expert) on one testbed: an option's effect (its cells' difference from
    their event's mean, averaged over the events) is shared, and a cell measured at ``n`` loads
    keeps ``n / (n + POOL_STRENGTH)`` of its own deviation from ``event mean + shared effect``. A
    cell whose own loads cannot order two options (equal counts, equal CPU) takes the order the
    other events measured; a load left out of the cell shrinks it towards the shared effect. The
    events in ``alone`` keep their own means and lend no effect (an evacuation's moves are
    mandatory at every level); with ``keep_zero`` a cell that is zero at every load stays zero (a
    threshold the event never crossed: the option never moves a VM for it). With ``ties_only`` only
    the cells whose own mean ties with another option's of the same event are pooled, the others keep
    their own mean (a count's mean over its loads is its estimate; only a tie needs the other events)."""
    raw = {}
    for e, o in dict.fromkeys(zip(event.tolist(), option.tolist(), strict=True)):
        sel = (event == e) & (option == o)
        raw[(e, o)] = (float(value[sel].mean()), float(sel.sum()))
    own = {k for k in raw if k[0] in alone or (keep_zero and not np.any(value[(event == k[0]) & (option == k[1])]))}
    level = {e: float(np.mean([v for (ee, _), (v, _) in raw.items() if ee == e])) for e in set(event.tolist())}
    effect: dict[str, list[float]] = {}
    for (e, o), (v, _) in raw.items():
        if e not in alone:
            effect.setdefault(o, []).append(v - level[e])
    shared = {o: float(np.mean(d)) for o, d in effect.items()}
    if ties_only:
        own |= {(e, o) for (e, o), (v, _) in raw.items()
                if sum(1 for (ee, _), (vv, _) in raw.items() if ee == e and abs(vv - v) <= 1e-9) == 1}
    out = {}
    for (e, o), (v, n) in raw.items():
        prior = level[e] + shared.get(o, 0.0)
        out[(e, o)] = (v, n) if (e, o) in own else (prior + n / (n + strength) * (v - prior), n)
    return out


class _Chapter7(Family):
    """Shared: event, balancer and level columns; cell fits isotonic in the level."""

    #: isotonic direction of the cell values across DRS levels
    increasing = True
    #: :func:`partial_pool`'s strength (0: every cell its own mean), its events alone, its zero cells kept
    pool_strength = POOL_STRENGTH
    pool_alone: tuple[str, ...] = ()
    pool_keep_zero = False
    pool_ties_only = False

    def _common(self, cols, n):
        event = column(cols, "event", n, "load_shift", numeric=False, family=self.name)
        raw = column(cols, "balancer", n, "drs", numeric=False, family=self.name)
        check_levels(self.name, event=(event, tuple(EVENTS.values())), balancer=(raw, tuple(BALANCERS)))
        balancer = np.array([BALANCERS[b] for b in raw], dtype=object).astype(str)
        level = column(cols, "drs_level", n, 3.0, family=self.name)
        if np.any((level < 1) | (level > 5)):
            raise InputError(f"{self.name}: drs_level must be between 1 (conservative) and 5 (aggressive)")
        return event, balancer, level

    def _fit_cells(self, event, balancer, level, value) -> dict:
        """{"expert": event -> value, "drs": event -> (level knots, value knots)}: each cell's mean
        over the loads, partially pooled towards its event's level plus the option's effect shared
        by every event (:func:`partial_pool`), then isotonic across the DRS levels."""
        option = np.where(balancer == "human_expert", "expert", np.char.add("drs ", level.astype(str)))
        cell = partial_pool(event, option, value, self.pool_strength, self.pool_alone, self.pool_keep_zero,
                            self.pool_ties_only)
        expert, drs = {}, {}
        for e in sorted(set(event)):
            if (e, "expert") in cell:
                expert[e] = cell[(e, "expert")][0]
            lv, vals, wts = [], [], []
            for lvl in sorted(set(level[(event == e) & (balancer == "drs")])):
                v, n = cell[(e, f"drs {lvl}")]
                lv.append(lvl)
                vals.append(v)
                wts.append(n)
            if lv:
                drs[e] = _isotonic(lv, vals, wts, self.increasing)
        return {"expert": expert, "drs": drs}

    @staticmethod
    def _cell_values(cells, event, balancer, level):
        """The cell value of every query; NaN where its event has no points for its balancer."""
        out = np.full(len(event), np.nan)
        for e, (x, y) in cells["drs"].items():
            s = (event == e) & (balancer == "drs")
            out[s] = np.interp(level[s], x, y)
        for e, v in cells["expert"].items():
            out[(event == e) & (balancer == "human_expert")] = v
        return out

    @staticmethod
    def _pooled(cells, balancer, level) -> np.ndarray:
        """A cell without points takes the balancer's pooled value: the mean of its cells over the
        events that have them (at the query's level for DRS); NaN when the balancer has none."""
        drs = [np.interp(level, x, y) for x, y in cells["drs"].values()]
        expert = list(cells["expert"].values())
        pooled_drs = np.mean(drs, axis=0) if drs else np.full(len(level), np.nan)
        pooled_expert = float(np.mean(expert)) if expert else np.nan
        return np.where(balancer == "drs", pooled_drs, pooled_expert)

    def _n_params(self) -> int:
        return sum(len(x) for x, _ in self._core["cells"]["drs"].values()) + len(self._core["cells"]["expert"])


class DrsPeakCpu(_Chapter7):
    """CPU (%) of the hottest host after DRS or an expert rebalanced, vs event and level (doc 004 ch. 7)."""

    name = "drs_peak_cpu"
    unit = "%"
    upper_bound = 100.0
    increasing = False
    feature_names = ("mean_host_cpu", "event", "balancer", "drs_level")
    description = ("CPU (%) of the hottest host after VMware DRS (levels 1-5) or a human expert rebalanced, vs "
                   "the cluster's mean host CPU and the event; doc 004 Tables 7.2-7.10 (60 points); "
                   "non-increasing in the DRS level, bounded to [mean, 100].")

    def _collect(self, kb) -> list[TrainingPoint]:
        cpu: dict[tuple, list] = {}
        for loc in CPU_TABLES:
            for r in kb.measurements(document=DOC, locator=loc, metric="cpu_utilization"):
                f = r.factors
                key = (f["test_case"], float(f["load"]), f["phase"], f.get("drs_threshold"))
                cpu.setdefault(key, []).append(r)
        zero = {}
        for loc in COUNT_TABLES:
            for r in kb.measurements(document=DOC, locator=loc, metric="migration_count"):
                f = r.factors
                if f.get("balancer") == "drs" and "migration_direction" not in f:
                    zero[(f["test_case"], float(f["load"]), float(f["drs_threshold"]))] = r
        pts = []
        for tc, load in sorted({(k[0], k[1]) for k in cpu}):
            event = EVENTS[tc]
            before = cpu.get((tc, load, "load_shift", None)) or cpu[(tc, load, "same_load", None)]
            for lvl in LEVELS:
                rows = cpu.get((tc, load, "after_drs_migration", str(int(lvl)))) or \
                    cpu.get((tc, load, "after_drs_migration", None))
                also: tuple = ()
                if rows is None:
                    count = zero[(tc, load, lvl)]
                    if count.value != 0:
                        raise ValueError(f"{count.key}: DRS migrated but no CPU row after it")
                    rows, also = before, (count,)
                pts.append(self._point(rows, also, {"event": event, "balancer": "drs", "drs_level": lvl}, tc))
            expert = cpu[(tc, load, "after_expert_migration", None)]
            pts.append(self._point(expert, (), {"event": event, "balancer": "human_expert", "drs_level": 3.0}, tc))
        return pts

    @staticmethod
    def _point(rows, also, feats, tc) -> TrainingPoint:
        active = [r for r in rows if not (tc == "5" and r.factors["host"] == MAINTENANCE_HOST)]
        hottest = max(active, key=lambda r: r.value)
        others = tuple(r for r in rows if r is not hottest) + tuple(also)
        feats = {**feats, "mean_host_cpu": float(np.mean([r.value for r in active]))}
        return point(hottest, feats, hottest.value, also=others)

    def _features(self, cols, n):
        event, balancer, level = self._common(cols, n)
        mean_cpu = column(cols, "mean_host_cpu", n, family=self.name)
        if np.any((mean_cpu <= 0) | (mean_cpu > 100)):
            raise InputError(f"{self.name}: mean_host_cpu must be in (0, 100] %")
        return event, balancer, level, mean_cpu

    def _fit_core(self, points):
        cols, n = self._point_columns(points)
        event, balancer, level, mean_cpu = self._features(cols, n)
        log_imbalance = np.log(np.array([p.target for p in points]) / mean_cpu)
        return {"cells": self._fit_cells(event, balancer, level, log_imbalance),
                "cpu_range": (float(mean_cpu.min()), float(mean_cpu.max()))}

    def _predict_core(self, core, cols, n):
        event, balancer, level, mean_cpu = self._features(cols, n)
        r = self._cell_values(core["cells"], event, balancer, level)
        missing = np.isnan(r)  # an event the balancer was never seen on: its pooled imbalance
        r = np.maximum(np.where(missing, self._pooled(core["cells"], balancer, level), r), 0.0)
        lo, hi = core["cpu_range"]
        extrap = (((balancer == "drs") & ~np.isin(level, LEVELS)) | (mean_cpu < lo * 0.999) | (mean_cpu > hi * 1.001)
                  | missing)
        return mean_cpu * np.exp(np.nan_to_num(r)), extrap

    def _bounds(self, low, high, cols, n):
        """The hottest host is never below the mean host, nor above 100 %."""
        mean_cpu = column(cols, "mean_host_cpu", n, family=self.name)
        return np.clip(low, mean_cpu, 100.0), np.clip(high, mean_cpu, 100.0)


class DrsMigrations(_Chapter7):
    """vMotions per event made by DRS (levels 1-5) or a human expert (doc 004 ch. 7)."""

    name = "drs_migrations"
    unit = "migrations"
    pool_alone = ("maintenance",)
    pool_keep_zero = True
    pool_ties_only = True  # a count's own mean stands; only options tied on it take the other events' order
    feature_names = ("event", "balancer", "drs_level", "vms_per_host", "hosts")
    description = ("Live migrations per event (load shift, host added, failover, maintenance) made by VMware DRS "
                   "(levels 1-5) or a human expert; doc 004 Tables 7.1-7.9 (55 points); non-decreasing in the "
                   "DRS level; Poisson interval.")

    def __init__(self, kb=None, points=None):
        self._setup = {"1": (3.0, 4.0), "2": (3.0, 4.0), "3": (2.0, 6.0), "4": (3.0, 4.0), "5": (3.0, 4.0)}
        self._setup_cites: list[tuple[str, str]] = []
        super().__init__(kb, points)

    def citations(self):
        return tuple(dict.fromkeys(super().citations() + tuple(self._setup_cites)))

    def _collect(self, kb) -> list[TrainingPoint]:
        setup_rows = {tc: (kb.get(DOC, h), kb.get(DOC, v)) for tc, (h, v) in SETUP_ROWS.items()}
        self._setup = {tc: (h.value, v.value) for tc, (h, v) in setup_rows.items()}
        self._setup_cites = list(dict.fromkeys((r.document, r.locator) for rows in setup_rows.values() for r in rows))
        pts = []
        for loc in COUNT_TABLES + EXPERT_SECTIONS:
            for r in kb.measurements(document=DOC, locator=loc, metric="migration_count"):
                f = r.factors
                if "migration_direction" in f or f.get("balancer") not in ("drs", "human_expert"):
                    continue
                tc = f["test_case"]
                hosts, vms = self._setup[tc]
                feats = {"event": EVENTS[tc], "balancer": f["balancer"],
                         "drs_level": float(f.get("drs_threshold", 3.0)), "vms_per_host": vms, "hosts": hosts}
                loads = [f["load"]] if "load" in f else self._loads_of(kb, tc, r)
                for load in loads:
                    p = point(r, feats)
                    pts.append(p if len(loads) == 1 else replace(p, key=f"{r.key}@{load}"))
        return pts

    @staticmethod
    def _loads_of(kb, tc, row) -> list[str]:
        """Loads a load-less expert row covers: those of its test case without an expert total."""
        done = {r.factors.get("load") for loc in COUNT_TABLES + EXPERT_SECTIONS
                for r in kb.measurements(document=DOC, locator=loc, metric="migration_count")
                if r.factors.get("test_case") == tc and r.factors.get("balancer") == "human_expert"
                and "migration_direction" not in r.factors and r.key != row.key}
        drs = {r.factors["load"] for loc in COUNT_TABLES
               for r in kb.measurements(document=DOC, locator=loc, metric="migration_count")
               if r.factors.get("test_case") == tc and r.factors.get("balancer") == "drs"}
        return sorted(drs - done)

    def _features(self, cols, n):
        event, balancer, level = self._common(cols, n)
        default_hosts = np.where(event == "host_added", self._setup["3"][0], self._setup["1"][0])
        default_vms = np.where(event == "host_added", self._setup["3"][1], self._setup["1"][1])
        hosts = column(cols, "hosts", n, np.nan, family=self.name)
        vms = column(cols, "vms_per_host", n, np.nan, family=self.name)
        hosts = np.where(np.isnan(hosts), default_hosts, hosts)
        vms = np.where(np.isnan(vms), default_vms, vms)
        if np.any(hosts < 1) or np.any(vms < 0):
            raise InputError(f"{self.name}: hosts must be >= 1 and vms_per_host >= 0")
        return event, balancer, level, vms, hosts, default_vms, default_hosts

    def _fit_core(self, points):
        cols, n = self._point_columns(points)
        event, balancer, level, vms, hosts, _, _ = self._features(cols, n)
        share = np.array([p.target for p in points]) / needed_moves(event, vms, hosts)
        return {"cells": self._fit_cells(event, balancer, level, share)}

    def _predict_core(self, core, cols, n):
        event, balancer, level, vms, hosts, dvms, dhosts = self._features(cols, n)
        m = self._cell_values(core["cells"], event, balancer, level)
        missing = np.isnan(m)  # never seen: an evacuation moves every VM of the host (Section 7.5), else pooled
        m = np.where(missing, np.where(event == "maintenance", 1.0, self._pooled(core["cells"], balancer, level)), m)
        scaled = np.isin(event, ("host_added", "maintenance"))
        extrap = (((balancer == "drs") & ~np.isin(level, LEVELS)) | missing
                  | (scaled & (~np.isclose(vms, dvms) | ~np.isclose(hosts, dhosts))))
        return needed_moves(event, vms, hosts) * np.nan_to_num(m), extrap

    def _interval_from(self, pts):
        return (0.0, 0.0), (0.0, 0.0)  # counts: Poisson percentiles in predict_columns, not log residuals

    def predict_columns(self, columns, n, calibration=None):
        """Vectorised predict; the interval is the 5th-95th percentile of a Poisson count (90 %)."""
        pred = super().predict_columns(columns, n, calibration)
        if n == 0:
            return pred
        low, high = poisson_interval(pred.mean)
        return replace(pred, low=np.minimum(low, pred.mean), high=np.maximum(high, pred.mean))


def poisson_interval(mean: np.ndarray, lo: float = 0.05, hi: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """5th and 95th percentiles of Poisson counts with the given means (numpy only)."""
    mean = np.asarray(mean, float)
    kmax = int(np.ceil(mean.max() + 10 * np.sqrt(mean.max()) + 10)) if mean.size else 0
    k = np.arange(kmax + 1, dtype=float)
    log_fact = np.concatenate([[0.0], np.cumsum(np.log(k[1:]))])
    with np.errstate(divide="ignore", invalid="ignore"):
        logpmf = k[None, :] * np.log(mean[:, None]) - mean[:, None] - log_fact[None, :]
    pmf = np.where(mean[:, None] > 0, np.exp(logpmf), (k[None, :] == 0).astype(float))
    cdf = np.cumsum(pmf, axis=1)
    return (np.argmax(cdf >= lo, axis=1).astype(float), np.argmax(cdf >= hi, axis=1).astype(float))
