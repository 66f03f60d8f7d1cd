"""Percentile sizing from utilisation series (read by :mod:`knowledge.series`): per workload group the
p50/p95/p99/peak of its summed series, and the CPU busy share each group is sized on.

Peaks that coincide are not the sum of each VM's own percentile: the hosts are sized on the chosen
percentile of the **summed** series of every VM measured (busy cores = CPU % x vCPUs, summed per
sampling step). Each group's share of that is its own summed-series percentile scaled by the
estate's coincidence factor (the estate's percentile over the sum of the groups' percentiles), so
the groups' busy cores add up to the estate's percentile exactly. Memory is reported, not sized on:
RAM is a hard limit, sized on the VMs' allocation.

A group only part of whose VMs have series is sized on the covered VMs' summed series plus the
others' own figure (their measured busy share, else the estate's or the assumed intensity's), added as
constant busy cores, and the summary says so. A VM's missing step is filled with that VM's median (the
number filled is reported; a VM covering less than :data:`MIN_COVERAGE` of the steps is left out of the
percentiles instead, and one below :data:`WARN_COVERAGE` is named in a warning). Memory % is over the
RAM of the VMs with a memory series. A trend fitted
to the daily means of the summed CPU (log-linear least squares, with its 90 % interval) can seed the
growth section, labelled as fitted: a usable one (:data:`TREND_USABLE_DAYS`) is written to
``growth.cpu_pct_per_year`` (:func:`seed_growth`).
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
#: a VM whose CPU series covers less than this share of the steps is left out of the percentiles (filled
#: with its median, its "p95" would be made up) and sized like a VM without series; below
#: :data:`WARN_COVERAGE` it is kept, with a warning naming it and its coverage
MIN_COVERAGE = 0.25
WARN_COVERAGE = 0.9
#: series shorter than this (s) or with fewer steps than this make a percentile nearly their maximum and
#: say nothing of a week's load: a warning says so
SHORT_SPAN_S = 86400
FEW_STEPS = 20
#: the VMs a warning names (the rest are counted)
NAMED = 5
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
    filled: int                       # missing VM-steps (one per VM and step) filled with the VM's median
    ram_measured: float = 0.0         # GiB of RAM of the VMs with a memory series
    covered: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))  # per row: in the percentiles
    coverage: list[tuple[int, int]] = field(default_factory=list)  # (row, steps with a sample) below WARN_COVERAGE


def reduce_rows(store: SeriesStore, rows: np.ndarray, vcpus: np.ndarray, ram_gib: np.ndarray, counts: np.ndarray,
                qs: tuple[float, ...]) -> Reduced:
    """Reduce the VMs ``rows`` of ``store`` (their vCPUs, RAM and the VMs each stands for) a block at a time;
    a VM covering less than :data:`MIN_COVERAGE` of the steps is left out (not ``covered``)."""
    out = Reduced(np.zeros(store.steps), np.zeros(store.steps) if "mem_pct" in store.metrics else None,
                  np.zeros((0, len(qs))), 0.0, 0, 0, covered=np.zeros(len(rows), dtype=bool))
    own = []
    for start in range(0, len(rows), ROWS_AT_ONCE):
        part = slice(start, start + ROWS_AT_ONCE)
        cpu = store.matrix("cpu_pct", rows[part])
        have = (~np.isnan(cpu)).sum(axis=1)
        measured = (have > 0) & (have >= MIN_COVERAGE * store.steps)
        out.coverage += [(int(r), int(n)) for r, n in zip(rows[part], have, strict=True)
                         if 0 < n < WARN_COVERAGE * store.steps]
        out.covered[part] = measured
        if not measured.any():
            continue
        cpu = cpu[measured]
        weight = (vcpus[part][measured] * counts[part][measured] / 100.0).astype(np.float32)
        table = percentile_table(cpu, (50.0, *qs))
        own.append(table[:, 1:] * weight[:, None])
        gaps = np.isnan(cpu)
        out.filled += int(gaps.sum())
        if gaps.any():
            cpu = np.where(gaps, table[:, :1].astype(np.float32), cpu)
        out.cores += weight @ cpu
        out.vms += int(counts[part][measured].sum())
        out.vcpus += float((vcpus[part][measured] * counts[part][measured]).sum())
        if out.ram_gib is not None:
            _add_memory(out, store.matrix("mem_pct", rows[part])[measured], (ram_gib[part] * counts[part])[measured])
    if own:
        out.own = np.concatenate(own)
    return out


def _add_memory(out: Reduced, mem: np.ndarray, ram: np.ndarray) -> None:
    """Add the memory in use of VMs with a memory series (gaps: the VM's median) to ``out``; a VM
    without one adds neither memory nor RAM (its RAM would halve the group's %)."""
    has = ~np.isnan(mem).all(axis=1)
    if not has.any():
        return
    mem, ram = mem[has], ram[has]
    med = np.nanmedian(mem, axis=1)
    mem = np.where(np.isnan(mem), med[:, None].astype(np.float32), mem)
    assert out.ram_gib is not None
    out.ram_gib += (ram / 100.0).astype(np.float32) @ mem
    out.ram_measured += float(ram.sum())


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
    #: the group's powered-on VMs without series (or left out of it), sized on their own figure:
    #: ``vms``, ``busy_pct`` (% of their vCPUs), ``busy_cores`` (added to the group's), ``source``, ``assumed``
    without: dict[str, Any] | None = None

    def share_at(self, percentile: float) -> float:
        """The busy share sized on at ``percentile``."""
        return float(share_at(self.shares, percentile) or 0.0)

    def today(self) -> dict[str, Any]:
        """The group's measured series for its ``today``."""
        out: dict[str, Any] = {"cpu_busy_pct": dict(self.cpu_pct), "vms_measured": self.vms}
        if self.mem_pct is not None:
            out["mem_busy_pct"] = dict(self.mem_pct)
        if self.filled:
            out["vm_steps_filled"] = self.filled  # one per VM and step: a step 2 VMs miss counts 2
        if self.without:
            out["without_series"] = dict(self.without)
        return out


@dataclass
class SeriesSizing:
    """The series of an inventory reduced per group at one percentile (see the module doc)."""

    store: SeriesStore
    percentile: float = DEFAULT_PERCENTILE
    groups: dict[str, GroupSeries] = field(default_factory=dict)
    estate: dict[str, Any] = field(default_factory=dict)
    #: what the series cannot say (VMs left out or partly covered, too short a span, most VMs unmeasured)
    warnings: list[str] = field(default_factory=list)

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
        self.groups, self.warnings = {}, []
        coverage: list[tuple[int, int]] = []
        for g in inv.groups:
            vms = [inv.vms[i] for i in g.members]
            rows = np.array([row_of[id(v)] for v in vms], dtype=np.int64)
            found = self._series_group(inv, vms, rows, coverage)
            if found is not None:
                self.groups[g.name], cores = found
                total += cores
        self._coverage_warnings(coverage)
        self._scale(total)
        self._span_warnings(inv)
        if self.warnings:
            self.estate["warnings"] = list(self.warnings)

    def _series_group(self, inv, vms: list, rows: np.ndarray, coverage: list) -> tuple[GroupSeries, np.ndarray] | None:
        """A group's summed series and its percentiles, its VMs without series added at their own
        figure (None: none of its VMs has a series)."""
        qs = self.qs
        red = reduce_rows(self.store, rows, np.array([v.vcpus or 0 for v in vms], dtype=np.float64),
                          np.array([(v.ram_mib or 0) / 1024 for v in vms], dtype=np.float64),
                          np.array([v.count for v in vms], dtype=np.float64), qs)
        coverage += red.coverage
        if not red.vms or red.vcpus <= 0:
            return None
        cpu = np.array(_pcts(red.cores, qs))
        shown = [(i, label(q)) for i, q in enumerate(qs) if label(q) in self.shown]
        mem_pcts = _pcts(red.ram_gib, qs) if red.ram_gib is not None and red.ram_measured else None
        mem = {k: round(float(100 * mem_pcts[i] / red.ram_measured), 2) for i, k in shown} if mem_pcts else None
        without = without_series(inv, [v for v, c in zip(vms, red.covered, strict=True) if not c], self.percentile)
        extra = without["busy_cores"] if without else 0.0
        gs = GroupSeries(red.vms, sum(v.count for v in vms), red.vcpus + (without["vcpus"] if without else 0.0),
                         {k: round(float(100 * cpu[i] / red.vcpus), 2) for i, k in shown},
                         mem, red.own.sum(axis=0) + extra, cpu + extra, filled=red.filled, without=without)
        return gs, red.cores + extra

    def _coverage_warnings(self, coverage: list[tuple[int, int]]) -> None:
        """Name the VMs left out of the percentiles, and those whose series has gaps filled with their median."""
        steps = self.store.steps
        for left, what in ((True, "left out of the percentiles (filled with its median, its p95 would be made up) "
                                  "and sized like a VM without series"),
                           (False, "the rest filled with each VM's median")):
            hit = [(r, n) for r, n in coverage if (n < MIN_COVERAGE * steps) == left]
            if not hit:
                continue
            named = "; ".join(f"{self.store.names[r]}: {n:,} of {steps:,} steps ({100 * n / steps:.3g} %)"
                              for r, n in hit[:NAMED])
            more = f" and {len(hit) - NAMED} more" if len(hit) > NAMED else ""
            limit = f"under {100 * MIN_COVERAGE:g} %" if left else f"under {100 * WARN_COVERAGE:g} %"
            self.warnings.append(f"{len(hit)} VM(s) with series covering {limit} of the steps, {what}: {named}{more}")

    def _span_warnings(self, inv) -> None:
        """Too short a span, or most powered-on VMs without series: say so."""
        e = self.estate
        if not e:
            return
        span = self.store.steps * (self.store.interval or 0.0)
        if self.store.steps and (span < SHORT_SPAN_S or self.store.steps < FEW_STEPS):
            self.warnings.append(f"the series span only {self.store.steps:,} steps ({_duration(span)}): a percentile "
                                 "of so few samples is nearly their maximum and says nothing of a day's or a week's "
                                 "load; give at least a day of series (better a week or more)")
        on = [v for v in inv.vms if v.powered_on is not False and not v.template]
        measured = set(self.store.rows_with("cpu_pct").tolist()) if "cpu_pct" in self.store.metrics else set()
        row_of = {id(v): i for i, v in enumerate(inv.estate.vms)}
        left = [v for v in on if row_of[id(v)] not in measured]
        if left:
            names = ", ".join(v.name for v in left[:NAMED]) + (f" and {len(left) - NAMED} more" if len(left) > NAMED
                                                                 else "")
            self.warnings.append(f"{sum(v.count for v in left)} of the {sum(v.count for v in on)} powered-on VMs have "
                                 f"no series ({names}): they are sized on their own measured or assumed figure "
                                 "(see each group's line)")

    def _scale(self, total: np.ndarray) -> None:
        """The estate's summed series, and each group's shares scaled to it percentile by percentile."""
        qs = self.qs
        self.estate = {"percentile": self.percentile, "vms": sum(g.vms for g in self.groups.values()),
                       "files": [{"file": f.path, "format": f.format, "vms": f.vms, "samples": f.samples,
                                  "metrics": f.metrics, "notes": f.notes,
                                  "warnings": f.warnings} for f in self.store.files]} if self.groups else {}
        without = [gs.without for gs in self.groups.values() if gs.without]
        if without:
            self.estate["without_series"] = {
                "groups": sorted(n for n, gs in self.groups.items() if gs.without),
                "vms": sum(x["vms"] for x in without), "busy_cores": round(sum(x["busy_cores"] for x in without), 2),
                "basis": "the VMs of partly measured groups that have no series, at their own measured (else "
                         "assumed) busy share, added as constant busy cores"}
        if not self.groups:
            return
        est = np.array(_pcts(total, qs))
        groups_sum = np.sum([gs.cores for gs in self.groups.values()], axis=0)
        own_sum = np.sum([gs.own_cores for gs in self.groups.values()], axis=0)
        factor = np.where(groups_sum > 0, est / np.where(groups_sum > 0, groups_sum, 1.0), 1.0)
        for gs in self.groups.values():
            gs.shares = {label(q): round(float(min(1.0, max(0.0, c * f / gs.vcpus))), 4)
                         for q, c, f in zip(qs, gs.cores, factor, strict=True)}
        k = qs.index(float(self.percentile))
        self.estate.update({
            "basis": SUMMED, "series_vms": sum(g.vms for g in self.groups.values()),
            "busy_cores": {label(q): round(float(c), 2) for q, c in zip(qs, est, strict=True) if label(q) in self.shown},
            "sum_of_vm_percentiles_cores": round(float(own_sum[k]), 2),
            "sum_of_group_percentiles_cores": round(float(groups_sum[k]), 2),
            "coincidence_factor": round(float(factor[k]), 4), "steps": int(self.store.steps),
            "interval_s": self.store.interval, "days": round(self.store.steps * (self.store.interval or 0) / 86400, 1), "trend": fit_trend(total - sum(gs.without["busy_cores"] for gs in self.groups.values() if gs.without),
                                self.store.interval or 0.0)})

    def text(self) -> str:
        """What the sizing used, in one sentence."""
        e = self.estate
        if not e:
            return "no series joined a planned VM"
        p = label(self.percentile)
        parts = []
        if e.get("basis") == SUMMED:
            parts.append(f"CPU sized on the {p} of the summed series of {_vms(e['series_vms'])}: {e['busy_cores'][p]:g} "
                         f"busy cores (the sum of each VM's own {p} would be {e['sum_of_vm_percentiles_cores']:g}; "
                         "peaks that do not coincide are not added up)")
        if e.get("without_series"):
            x = e["without_series"]
            parts.append(f"{_vms(x['vms'])} of partly measured groups ({', '.join(x['groups'][:NAMED])}"
                         f"{', ...' if len(x['groups']) > NAMED else ''}) without series: sized on their own measured "
                         f"or assumed busy share, {x['busy_cores']:g} busy cores (included above)")
        return "; ".join(parts)


def without_series(inv, vms: list, percentile: float) -> dict[str, Any] | None:
    """The powered-on VMs of ``vms`` (a group's VMs without series) at their own figure: their measured
    busy share (:meth:`~advisor.inventory.today.EstateToday.measured_cpu`: their own, the hosts', else the
    estate's, assumed), else the assumed CPU intensity's; None when there is none."""
    on = [v for v in vms if v.powered_on is not False and not v.template and v.vcpus]
    if not on:
        return None
    vcpus = float(sum((v.vcpus or 0) * v.count for v in on))
    m = inv.measured_cpu(on)
    if m is not None:
        share = (share_at(m.percentiles, percentile) if m.percentiles else None) or m.share
        source, assumed = m.source, m.assumed
    else:
        from advisor.recommend.load import BUSY

        level = str(BY_PATH["workloads.cpu_intensity"].default)  # what the import assumes (ASSUMED_WORKLOAD)
        share, source, assumed = BUSY[level], f"none measured: the assumed cpu_intensity {level}", True
    share = float(share)
    return {"vms": sum(v.count for v in on), "vcpus": vcpus, "busy_pct": round(100 * share, 2),
            "busy_cores": round(share * vcpus, 4), "source": source, "assumed": assumed}


def _vms(n: int) -> str:
    return f"{n} VM" if n == 1 else f"{n} VMs"


def _duration(seconds: float) -> str:
    """``seconds`` as minutes, hours or days."""
    if seconds < 3600:
        return f"{seconds / 60:.3g} minutes"
    return f"{seconds / 3600:.3g} hours" if seconds < 86400 else f"{seconds / 86400:.3g} days"


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

    rate = yearly(fit.slope)
    out = {"cpu_pct_per_year": rate, "low": yearly(fit.slope - t * fit.stderr),
           "high": yearly(fit.slope + t * fit.stderr), "level": TREND_LEVEL, "days": days,
           "basis": "fitted: log-linear least squares on the daily means of the summed CPU series",
           "usable": days >= TREND_USABLE_DAYS}
    f = BY_PATH["growth.cpu_pct_per_year"]
    lo, hi = float(f.minimum if f.minimum is not None else -90), float(f.maximum if f.maximum is not None else 1000)
    if out["usable"] and lo <= rate <= hi:
        out["seeds"] = "growth.cpu_pct_per_year"
    if not out["usable"]:
        out["note"] = (f"{days} days are too short to fit a yearly trend (at least {TREND_USABLE_DAYS} needed): "
                       "not usable to seed the growth section; give longer series or set the growth rates")
    return out


def trend_text(t: dict[str, Any]) -> str:
    """The fitted trend in one line (the CLI's summary and the import dialog)."""
    head = (f"trend (fitted, {t['days']} days): CPU {t['cpu_pct_per_year']:+g} % per year "
            f"({100 * t['level']:g} % interval {t['low']:+g} to {t['high']:+g}); ")
    if not t.get("usable", True):
        return head + t["note"]
    if t.get("seeds"):
        return head + f"seeds {t['seeds']} (marked fitted in the scenario: a trend of the past, check it)"
    return head + "outside the growth rates a scenario takes: not used"


def seed_growth(out: dict[str, Any], trend: dict[str, Any] | None) -> None:
    """A fitted trend that ``seeds`` (:func:`fit_trend`) sets the scenario's ``growth.cpu_pct_per_year``
    (RAM and storage growth are not fitted)."""
    if trend and trend.get("seeds"):
        out.setdefault("growth", {})["cpu_pct_per_year"] = trend["cpu_pct_per_year"]


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
                        [v.ram_mib or 0 for v in vms], cancel=cancel, ips=_join_ips(vms))
    sizing = SeriesSizing(store, DEFAULT_PERCENTILE if percentile is None else percentile)
    sizing.compute(inv)
    return sizing


def _join_ips(vms) -> list[str]:
    """Each VM's IP addresses a series may join on: a powered-off VM or a template keeps only those no
    running VM gives (a stale clone's or an old VM's address is the running VM's series)."""
    from knowledge.series import ip_list

    def live(v) -> bool:
        return v.powered_on is not False and not v.template

    running = {ip for v in vms if live(v) for ip in ip_list(v.ips)}
    return [v.ips or "" if live(v) else " ".join(ip for ip in ip_list(v.ips) if ip not in running) for v in vms]
