"""Percentile sizing from utilisation series (read by :mod:`knowledge.series`): per workload group the
p50/p95/p99/peak of its summed series, and the CPU busy share each group is sized on.

Peaks that coincide are not the sum of each VM's own percentile: the hosts are sized on the chosen
percentile of the **summed** series of every VM measured (busy cores = CPU % x vCPUs, summed per
sampling step). Each group's share of that is its own summed-series percentile scaled by the
estate's coincidence factor (the estate's percentile over the sum of the groups' percentiles), so
the groups' busy cores add up to the estate's percentile exactly. Memory is reported, not sized on:
RAM is a hard limit, sized on the VMs' allocation.

A VM's missing step is filled with that VM's median (the number filled is reported). A trend fitted
to the daily means of the summed CPU (log-linear least squares, with its 90 % interval) can seed the
growth section, labelled as fitted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from advisor.scenario.fields import BY_PATH
from advisor.scenario.model import level_of, share_at
from advisor.scenario.model import percentile_key as label
from advisor.scenario.percentiles import SUMMED
from knowledge.series import SeriesStore

#: the percentile sized on when neither the scenario nor the command line says (the field table's default)
DEFAULT_PERCENTILE = int(BY_PATH["preferences.sizing_percentile"].default)
#: the percentiles every workload states (100: the peak)
STATED = (50, 95, 99, 100)
#: the percentiles stored in each workload's ``cpu_busy_percentiles`` (with the one sized on), so that
#: ``preferences.sizing_percentile`` changed in the file reads an exact share: every 5th from p50 to
#: p95, p99 and the peak (any other is interpolated, and the advice says so)
STORED = (*range(50, 100, 5), 99, 100)
#: VMs reduced at a time (a block of 1,000 VMs x 30 days of 5-minute steps is 35 MB)
ROWS_AT_ONCE = 1000
#: days of series a trend is fitted on at all, days it needs to be usable for a yearly rate (fewer: it is
#: shown with a note and not offered to seed the growth section), and the interval level it states
TREND_MIN_DAYS = 7
TREND_USABLE_DAYS = 90
TREND_LEVEL = 0.9


def percentile_table(mat: np.ndarray, qs: tuple[float, ...]) -> np.ndarray:
    """Per row of ``mat`` (NaN: no sample) the percentiles ``qs`` (linear interpolation, as
    ``numpy.percentile``); NaN for a row without samples."""
    s = np.sort(mat, axis=1)  # NaN last
    n = (~np.isnan(mat)).sum(axis=1)
    out = np.full((len(mat), len(qs)), np.nan)
    has = n > 0
    if not has.any():
        return out
    s, n = (s, n) if has.all() else (s[has], n[has])  # the rows with samples, copied once
    for j, q in enumerate(qs):
        pos = q / 100.0 * (n - 1)
        lo = np.floor(pos).astype(np.int64)
        hi = np.minimum(lo + 1, n - 1)
        a = np.take_along_axis(s, lo[:, None], axis=1)[:, 0]
        b = np.take_along_axis(s, hi[:, None], axis=1)[:, 0]
        out[has, j] = a + (b - a) * (pos - lo)
    return out


@dataclass
class Reduced:
    """One set of VMs reduced: the summed busy-core series and each VM's own percentiles."""

    cores: np.ndarray                 # busy cores summed per step
    ram_gib: np.ndarray | None        # memory in use summed per step (None: no memory series)
    own: np.ndarray                   # per VM measured: percentiles (qs) of its own busy cores
    vcpus: float                      # vCPUs of the VMs measured
    vms: int                          # VMs measured
    filled: int                       # missing steps filled with the VM's median


def reduce_rows(store: SeriesStore, rows: np.ndarray, vcpus: np.ndarray, ram_gib: np.ndarray, counts: np.ndarray,
                qs: tuple[float, ...]) -> Reduced:
    """Reduce the VMs ``rows`` of ``store`` (their vCPUs, RAM and the VMs each stands for) a block at a time."""
    cores = np.zeros(store.steps)
    ram = np.zeros(store.steps) if "mem_pct" in store.metrics else None
    own, filled, n_vms, n_vcpus = [], 0, 0, 0.0
    for start in range(0, len(rows), ROWS_AT_ONCE):
        part = slice(start, start + ROWS_AT_ONCE)
        cpu = store.matrix("cpu_pct", rows[part])
        measured = ~np.isnan(cpu).all(axis=1)
        if not measured.any():
            continue
        cpu = cpu[measured]
        weight = (vcpus[part][measured] * counts[part][measured] / 100.0).astype(np.float32)
        table = percentile_table(cpu, (50.0, *qs))
        own.append(table[:, 1:] * weight[:, None])
        gaps = np.isnan(cpu)
        filled += int(gaps.sum())
        if filled:
            cpu = np.where(gaps, table[:, :1].astype(np.float32), cpu)
        cores += weight @ cpu
        n_vms += int(counts[part][measured].sum())
        n_vcpus += float((vcpus[part][measured] * counts[part][measured]).sum())
        if ram is not None:
            mem = store.matrix("mem_pct", rows[part])[measured]
            med = np.nanmedian(np.where(np.isnan(mem).all(axis=1, keepdims=True), 0.0, mem), axis=1)
            mem = np.where(np.isnan(mem), med[:, None].astype(np.float32), mem)
            ram += (ram_gib[part][measured] * counts[part][measured] / 100.0).astype(np.float32) @ mem
    return Reduced(cores, ram, np.concatenate(own) if own else np.zeros((0, len(qs))), n_vcpus, n_vms, filled)


def _pcts(series: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    return [float(x) for x in np.percentile(series, qs)] if len(series) else [math.nan] * len(qs)


@dataclass
class GroupSeries:
    """What a workload group's series say, and the shares it is sized on."""

    vms: int                           # VMs measured
    of: int                            # VMs of the group
    vcpus: float                       # vCPUs of the VMs measured
    cpu_pct: dict[str, float]          # p50/p95/p99/peak (and the chosen) of the summed series, % of its vCPUs
    mem_pct: dict[str, float] | None   # the same for memory, % of its RAM
    own_cores: np.ndarray              # per percentile: the sum of each VM's own percentile (busy cores)
    cores: np.ndarray                  # per percentile: the group's summed series (busy cores)
    shares: dict[str, float] = field(default_factory=dict)  # per percentile: the busy share sized on
    filled: int = 0
    basis: str = "summed series"       # or "sum of the VMs' peaks" (a collector without series)

    def share_at(self, percentile: float) -> float:
        """The busy share sized on at ``percentile`` (a peak-sized group: its peak)."""
        return float(share_at(self.shares, percentile) or 0.0)

    def today(self) -> dict[str, Any]:
        """The group's measured series for its ``today``."""
        out: dict[str, Any] = {"cpu_busy_pct": dict(self.cpu_pct), "vms_measured": self.vms}
        if self.basis != SUMMED:
            out["basis"] = self.basis
        if self.mem_pct is not None:
            out["mem_busy_pct"] = dict(self.mem_pct)
        if self.filled:
            out["steps_filled"] = self.filled
        return out


@dataclass
class SeriesSizing:
    """The series of an inventory reduced per group at one percentile (see the module doc)."""

    store: SeriesStore
    percentile: float = DEFAULT_PERCENTILE
    groups: dict[str, GroupSeries] = field(default_factory=dict)
    estate: dict[str, Any] = field(default_factory=dict)

    @property
    def qs(self) -> tuple[float, ...]:
        """Every percentile computed: stored, stated and the one sized on."""
        return tuple(sorted({*(float(q) for q in (*STORED, *STATED)), float(self.percentile)}))

    @property
    def shown(self) -> set[str]:
        """The keys of the percentiles stated (the summary, ``today``): p50/p95/p99/peak and the one sized on."""
        return {label(q) for q in (*STATED, self.percentile)}

    def compute(self, inv) -> None:
        """Reduce every group of ``inv`` (an :class:`~advisor.inventory.grouping.Grouping`)."""
        row_of = {id(v): i for i, v in enumerate(inv.estate.vms)}
        total = np.zeros(self.store.steps)
        self.groups = {}
        for g in inv.groups:
            vms = [inv.vms[i] for i in g.members]
            rows = np.array([row_of[id(v)] for v in vms], dtype=np.int64)
            found = self._series_group(vms, rows)
            if found is not None:
                self.groups[g.name], cores = found
                total += cores
                continue
            gs = self._summary_group(vms, rows)
            if gs is not None:
                self.groups[g.name] = gs
        self._scale(total)

    def _series_group(self, vms: list, rows: np.ndarray) -> tuple[GroupSeries, np.ndarray] | None:
        """A group's summed series and its percentiles (None: none of its VMs has a series)."""
        qs = self.qs
        red = reduce_rows(self.store, rows, np.array([v.vcpus or 0 for v in vms], dtype=np.float64),
                          np.array([(v.ram_mib or 0) / 1024 for v in vms], dtype=np.float64),
                          np.array([v.count for v in vms], dtype=np.float64), qs)
        if not red.vms or red.vcpus <= 0:
            return None
        cpu = np.array(_pcts(red.cores, qs))
        ram_total = sum((v.ram_mib or 0) / 1024 * v.count for v in vms)
        shown = [(i, label(q)) for i, q in enumerate(qs) if label(q) in self.shown]
        mem_pcts = _pcts(red.ram_gib, qs) if red.ram_gib is not None and ram_total else None
        mem = {k: round(float(100 * mem_pcts[i] / ram_total), 2) for i, k in shown} if mem_pcts else None
        return GroupSeries(red.vms, sum(v.count for v in vms), red.vcpus,
                           {k: round(float(100 * cpu[i] / red.vcpus), 2) for i, k in shown},
                           mem, red.own.sum(axis=0), cpu, filled=red.filled), red.cores

    def _summary_group(self, vms: list, rows: np.ndarray) -> GroupSeries | None:
        """A group whose VMs have only an average and a peak (Live Optics): sized on the sum of the
        peaks, an upper bound (None: no statistics either)."""
        stats = self.store.summary
        peak = stats.get("cpu_peak")
        if peak is None or np.isnan(peak[rows]).all():
            return None
        # a powered-off VM's row (0 % over the collection) is no measurement: it takes its group's figure
        ok = ~np.isnan(peak[rows]) & np.array([v.powered_on is not False for v in vms], dtype=bool)
        if not ok.any():
            return None
        weight = np.array([(v.vcpus or 0) * v.count for v in vms], dtype=np.float64)[ok]
        if weight.sum() <= 0:
            return None

        def pct(stat: str) -> float | None:
            col = stats.get(stat)
            if col is None or np.isnan(col[rows][ok]).any():
                return None
            return round(float((col[rows][ok] * weight).sum() / weight.sum()), 2)

        cpu = {k: x for k, x in (("mean", pct("cpu_mean")), ("peak", pct("cpu_peak"))) if x is not None}
        mem = {k: x for k, x in (("mean", pct("mem_mean")), ("peak", pct("mem_peak"))) if x is not None}
        n = int(np.array([v.count for v in vms])[ok].sum())
        return GroupSeries(n, sum(v.count for v in vms), float(weight.sum()), cpu, mem or None,
                           np.zeros(0), np.zeros(0), shares={"peak": round(cpu["peak"] / 100, 4)},
                           basis="sum of the VMs' peaks")

    def _scale(self, total: np.ndarray) -> None:
        """The estate's summed series, and each group's shares scaled to it percentile by percentile."""
        qs = self.qs
        summed = {n: gs for n, gs in self.groups.items() if gs.basis == SUMMED}
        peaks = {n: gs for n, gs in self.groups.items() if gs.basis != SUMMED}
        self.estate = {"percentile": self.percentile, "vms": sum(g.vms for g in self.groups.values()),
                       "files": [{"file": f.path, "format": f.format, "vms": f.vms, "samples": f.samples,
                                  "metrics": f.metrics, "notes": f.notes,
                                  "warnings": f.warnings} for f in self.store.files]} if self.groups else {}
        if peaks:
            self.estate["peak_sized"] = {"groups": sorted(peaks), "vms": sum(g.vms for g in peaks.values()),
                                         "busy_cores": round(sum(g.vcpus * g.shares["peak"] for g in peaks.values()), 2),
                                         "basis": "the sum of the VMs' peaks (the collector gives each VM's average "
                                                  "and peak, no series): an upper bound"}
        if self.store.host_summary:
            self.estate["hosts_measured"] = dict(self.store.host_summary)
        if not summed:
            return
        est = np.array(_pcts(total, qs))
        groups_sum = np.sum([gs.cores for gs in summed.values()], axis=0)
        own_sum = np.sum([gs.own_cores for gs in summed.values()], axis=0)
        factor = np.where(groups_sum > 0, est / np.where(groups_sum > 0, groups_sum, 1.0), 1.0)
        for gs in summed.values():
            gs.shares = {label(q): round(float(min(1.0, max(0.0, c * f / gs.vcpus))), 4)
                         for q, c, f in zip(qs, gs.cores, factor, strict=True)}
        k = qs.index(float(self.percentile))
        self.estate.update({
            "basis": SUMMED, "series_vms": sum(g.vms for g in summed.values()),
            "busy_cores": {label(q): round(float(c), 2) for q, c in zip(qs, est, strict=True) if label(q) in self.shown},
            "sum_of_vm_percentiles_cores": round(float(own_sum[k]), 2),
            "sum_of_group_percentiles_cores": round(float(groups_sum[k]), 2),
            "coincidence_factor": round(float(factor[k]), 4), "steps": int(self.store.steps),
            "interval_s": self.store.interval, "days": round(self.store.steps * (self.store.interval or 0) / 86400, 1), "trend": fit_trend(total, self.store.interval or 0.0)})

    def text(self) -> str:
        """What the sizing used, in one sentence."""
        e = self.estate
        if not e:
            return "no series joined a planned VM"
        p = label(self.percentile)
        parts = []
        if e.get("basis") == SUMMED:
            parts.append(f"CPU sized on the {p} of the summed series of {e['series_vms']} VMs: {e['busy_cores'][p]:g} "
                         f"busy cores (the sum of each VM's own {p} would be {e['sum_of_vm_percentiles_cores']:g}; "
                         "peaks that do not coincide are not added up)")
        if e.get("peak_sized"):
            x = e["peak_sized"]
            parts.append(f"{x['vms']} VMs with only an average and a peak sized on {x['basis']}: "
                         f"{x['busy_cores']:g} busy cores")
        return "; ".join(parts)


def fit_trend(cores: np.ndarray, interval_s: float) -> dict[str, Any] | None:
    """Compound growth per year of the summed CPU, fitted (log-linear least squares on the daily
    means) with its :data:`TREND_LEVEL` interval; None with less than :data:`TREND_MIN_DAYS` days, marked
    not ``usable`` (with a ``note``) with less than :data:`TREND_USABLE_DAYS`."""
    if interval_s <= 0 or not len(cores):
        return None
    per_day = int(round(86400 / interval_s))
    days = len(cores) // per_day if per_day else 0
    if days < TREND_MIN_DAYS:
        return None
    daily = cores[: days * per_day].reshape(days, per_day).mean(axis=1)
    if (daily <= 0).any():
        return None
    from scipy import stats

    fit = stats.linregress(np.arange(days, dtype=float), np.log(daily))
    t = stats.t.ppf(0.5 + TREND_LEVEL / 2, days - 2)

    def yearly(b: float) -> float:
        return round(100.0 * math.expm1(min(b * 365.0, 50.0)), 1)

    out = {"cpu_pct_per_year": yearly(fit.slope), "low": yearly(fit.slope - t * fit.stderr),
           "high": yearly(fit.slope + t * fit.stderr), "level": TREND_LEVEL, "days": days,
           "basis": "fitted: log-linear least squares on the daily means of the summed CPU series",
           "usable": days >= TREND_USABLE_DAYS}
    if not out["usable"]:
        out["note"] = (f"{days} days are too short to fit a yearly trend (at least {TREND_USABLE_DAYS} needed): "
                       "not usable to seed the growth section; give longer series or set the growth rates")
    return out


def apply_to_workload(w: dict[str, Any], gs: GroupSeries, percentile: float) -> None:
    """Write a group's series into its scenario mapping ``w``: the busy shares per percentile, the share
    and intensity sized on (measured, no longer assumed) and the series' percentiles under ``today``."""
    share = gs.share_at(percentile)
    w["cpu_busy_percentiles"] = dict(gs.shares)
    w["cpu_busy_share"] = share
    w["cpu_intensity"] = level_of(share)
    w["measured"] = sorted({*w.get("measured", []), "cpu_busy_percentiles", "cpu_busy_share", "cpu_intensity"})
    w["assumed"] = [a for a in w.get("assumed", []) if a not in ("cpu_intensity", "cpu_busy_share")]
    today = w.setdefault("today", {})
    today.pop("cpu_busy_pct", None)
    today.pop("cpu_measured", None)
    today["series"] = gs.today()


def read_for(inv, paths, percentile: float | None = None, cancel=None) -> SeriesSizing:
    """Read the series files ``paths`` joined to the estate of ``inv`` and reduce them per group."""
    from knowledge.series import read_series

    vms = inv.estate.vms
    store = read_series(paths, [v.name for v in vms], [v.vcpus or 0 for v in vms],
                        [v.ram_mib or 0 for v in vms], cancel=cancel)
    sizing = SeriesSizing(store, DEFAULT_PERCENTILE if percentile is None else percentile)
    sizing.compute(inv)
    return sizing
