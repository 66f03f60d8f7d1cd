"""CPU utilization and latency per virtualization platform under load (doc 004, ch. 5, 7, 9).

Data: document 004 Table 9.2 (a three-node Cassandra cluster on bare metal, in one VMware ESXi
VM per host, or in one Docker container per host; cassandra-stress mixed, read and write loads at
a fixed rate each: mix 80k, read 60k, write 20k tps over the cluster; replication factor 1, 2
or 3; testbed c9-TB1, 16 cores per server). Factor mapping from chapter 9's curators:
``tps_limit`` (the offered cassandra-stress rate) is the family's ``load``; ``hypervisor`` levels
are native, Docker, VMware ESXi; ``replication_factor`` stays as is. The CPU families add
the chapter 7 hosts before each event (VMware ESXi 5.5, four telecom VMs per host at one rate:
300, 500, 600 or 700 req/s per VM, three hosts; the "same load" rows of Tables 7.2, 7.4, 7.8
and 7.10, 36 points, e.g. c7-T7.2-01/05/09; testbed c7-TB1, 12 cores; test case 3's hosts ran
six VMs and are left out): the only rows where one platform ran the same work at several
loads, repeated in four test cases, and they show an idle floor (27, 38, 49 % -> about 10 % at
zero load).

``cpu_utilization`` and ``container_cpu`` (63 points; the same model in two vocabularies)::

    x  = r[hypervisor] * (cores_testbed / cores) * (floor[platform]
                          + load * exp(a[platform] + b[workload] + g * log(RF)))
    u  = x / (1 + (x / U) ** 8) ** (1 / 8)                     (%, smooth ceiling U <= 100)

CPU time is an idle floor plus work done, so utilization is linear in the offered load with an
intercept where the data shows one: VMware ESXi's floor is fitted (Table 7.2 pins it, about 8 %;
Table 9.2 alone gives a similar 11 %), native and Docker have none (chapter 5: the bare-metal
target's CPU rises in proportion to the load). More replicas write more copies (``g >= 0``;
the telecom rows have no replication factor). The ceiling ``U`` is fitted (about 82 %): Table
9.2's VMware mix runs at RF 2 and 3 sit at 86 and 84 % however much more work RF 3 asks, the
level at which doc 004 Section 6.4 could not raise the load any further (row c6-S6.4-08, 82 %);
without it the model predicted 105 % for c9-139 (84 % measured). Monotone non-decreasing in
load by construction, never above 100 %. ``physical_cores`` (optional) rescales the demand by
the testbed's cores over the host's (16 for the Cassandra workloads, 12 for telecom).

KVM and XenServer have no Table 9.2 runs: their demand is VMware ESXi's times the chapter 5
ratio to VMware (``r``): the geometric mean of the two same-load comparisons chapter 5 gives,
the source hosts before a live migration (Figure 5.12, rows c5-F5.12-01/06/12: KVM 26 %, VMware
20 %, XenServer 34 %) and the 6-core peak (Figure 5.4, row c5-F5.4-02: XenServer 20 % above KVM,
VMware and the bare-metal target, which are alike); KVM about 1.14, XenServer about 1.43 (Section
5.6, row c5-S5.6-01: XenServer has the highest CPU use, about 80 % at most). Xen is taken as
XenServer. These are flagged extrapolated.

``container_latency`` fits the client mean latency (ms) of the Table 9.2 runs::

    latency = exp(a[platform] + b[workload] + (g + d[platform, workload]) * log(RF)),   g, d >= 0

Replication costs latency very differently per platform and workload: VMware's mixed load goes
from 1.9 to 5.45 ms between RF 1 and 3 (rows c9-087, c9-141), its reads and writes and every
bare-metal and Docker run far less, so each platform x workload pair adds its own replication
slope ``d`` to the shared one ``g``, shrunk towards it (ridge :data:`LATENCY_SLOPE_RIDGE` on the
slopes, the levels free): leave-one-out error 5.5 % against 7.2 % for a free slope per pair and
15 % for one shared slope; held out (a replication factor's Docker and VMware runs left out)
the intervals are a third narrower and cover the same runs.

Query (CPU): ``hypervisor`` (native|docker|vmware esxi|kvm|xenserver|xen) or, for
``container_cpu``, ``platform`` (native|vm|docker; vm = VMware ESXi); ``workload``
(mix|read|write|telecom; default mix); ``load`` (>= 0: cassandra-stress tps over the cluster,
or req/s per VM for telecom; default the workload's measured rate: 80k, 60k, 20k, 500);
``replication_factor`` (>= 1, default 3; not used for telecom); ``physical_cores`` (> 0,
default the workload's testbed). Latency: ``platform``, ``workload`` (mix|read|write),
``replication_factor``. Extrapolated: a load outside the range measured *for that workload*
(Table 9.2 ran each Cassandra workload at one rate only, so any other rate is flagged), a
replication factor outside those the platform ran the workload at (1-3), another core count, a
hypervisor without runs. A query extrapolated only in its replication factor gets the band of each
factor's Cassandra runs predicted by the model fitted without them (never narrower than the
interpolation band): it over-predicts a factor from the others by up to a quarter and under-predicts
by a tenth, where the doubled interpolation band was symmetric (held out, Table 9.2's RF 1 runs within);
any other extrapolation keeps the doubled band. ``container_latency`` the same (held out, its RF 1 and
RF 3 intervals 1.1 -> 0.65 and 3.5 -> 1.4 of the value wide, every run still inside). Calibration
(CPU): ``native_cpu_percent`` measured at ``native_load`` on the site's bare metal replaces the
documents' native figure; the documents' platform-vs-native and load ratios are kept (at the
testbed's core count, as the site figure already holds the site's cores).
"""

from __future__ import annotations

import re

import numpy as np

from advisor.models import conformal
from advisor.models.base import TrainingPoint
from advisor.models.family import Family, column, point, positive
from advisor.models.learners import FREE, POSITIVE, LogLinearLearner, LogNonlinearLearner, one_hot
from knowledge.infra.errors import InputError

DOC = "004"
TABLE = "Table 9.2"
TESTBED = "c9-TB1"
TELECOM_TABLE, TELECOM_TESTBED = "Table 7.2", "c7-TB1"
#: the chapter 7 tables whose "same load" hosts ran four telecom VMs each at one rate (test cases 1,
#: 2, 4, 5; test case 3's two hosts ran six VMs each before the empty host joined)
TELECOM_TABLES = ("Table 7.2", "Table 7.4", "Table 7.8", "Table 7.10")
HYPERVISORS = ("native", "docker", "vmware esxi")
#: ridge on container_latency's replication slopes (the shared one and each pair's addition)
LATENCY_SLOPE_RIDGE = 0.05
ANALOGS = ("kvm", "xenserver")
ALIASES = {"xen": "xenserver", "vmware": "vmware esxi", "esxi": "vmware esxi"}
PLATFORMS = {"native": "native", "docker": "docker", "vm": "vmware esxi"}
CASSANDRA = ("mix", "read", "write")
WORKLOADS = (*CASSANDRA, "telecom")
DEFAULT_LOAD = {"mix": 80000.0, "read": 60000.0, "write": 20000.0, "telecom": 500.0}
TESTBED_CORES = {"mix": 16.0, "read": 16.0, "write": 16.0, "telecom": 12.0}
LOAD_UNIT = 1e4    # loads enter the model in 10^4 (conditioning only)
CEILING_SHARPNESS = 8.0
#: chapter 5, rows for the hypervisor ratios to VMware ESXi (see the module doc)
CH5_SOURCE_BEFORE = {"kvm": "c5-F5.12-01", "vmware esxi": "c5-F5.12-06", "xenserver": "c5-F5.12-12"}
CH5_PEAK_ROW = "c5-F5.4-02"         # XenServer +20 % over KVM, VMware and native (6 cores)
CH5_CONCLUSION_ROW = "c5-S5.6-01"   # XenServer has the highest CPU use (cited)
DEFAULT_FACTORS = {"native": 1.0, "docker": 1.0, "vmware esxi": 1.0,
                   "kvm": float(np.sqrt(26 / 20 * 1.0)), "xenserver": float(np.sqrt(34 / 20 * 1.2))}


def testbed_cores(kb, testbed: str = TESTBED, default: float = 16.0) -> float:
    """Cores per server of a doc 004 testbed (the first number of its ``cores`` field)."""
    for tb in kb.testbeds(DOC):
        if tb.id == testbed:
            m = re.search(r"\d+", tb.cores)
            if m:
                return float(m.group())
    return default


def chapter5_factors(kb) -> tuple[dict[str, float], list[tuple[str, str]]]:
    """CPU of KVM and XenServer relative to VMware ESXi for the same work (doc 004 chapter 5):
    the geometric mean of Figure 5.12 (source hosts before migration) and Figure 5.4 (the 6-core
    peak, XenServer +20 %, the others alike). Returns (hypervisor -> factor, citations)."""
    before = {h: kb.get(DOC, key) for h, key in CH5_SOURCE_BEFORE.items()}
    peak = kb.get(DOC, CH5_PEAK_ROW)
    conclusion = kb.get(DOC, CH5_CONCLUSION_ROW)
    base = before["vmware esxi"].value
    at_peak = {"kvm": 1.0, "xenserver": 1.0 + peak.value / 100.0}
    factors = {"native": 1.0, "docker": 1.0, "vmware esxi": 1.0}
    for h in ANALOGS:
        factors[h] = float(np.sqrt(before[h].value / base * at_peak[h]))
    cites = [(r.document, r.locator) for r in (*before.values(), peak, conclusion)]
    return factors, cites


def log_cpu(coef: np.ndarray, data: dict) -> np.ndarray:
    """log of the module doc's CPU utilization (%) for ``data``.

    ``coef`` = [floor_vmware, a_native, a_docker, a_vmware, b_read, b_write, b_telecom, g, U];
    ``data``: platform index ``h``, workload index ``w`` (mix, read, write, telecom), ``lrf``
    (log RF, 0 for telecom), ``load`` (in 10^4), ``scale`` (testbed cores / cores), ``r``
    (hypervisor factor).
    """
    floor = np.array([0.0, 0.0, coef[0]])[data["h"]]
    a = coef[1:4][data["h"]]
    b = np.r_[0.0, coef[4:7]][data["w"]]
    x = data["r"] * data["scale"] * (floor + data["load"] * np.exp(a + b + coef[7] * data["lrf"]))
    with np.errstate(divide="ignore"):
        log_x = np.log(x)
    # log(x / (1 + (x / U) ** P) ** (1 / P)), stable for any x (0 -> -inf, huge -> log U)
    p = CEILING_SHARPNESS
    return log_x - np.logaddexp(0.0, p * (log_x - np.log(coef[8]))) / p


class _Chapter9(Family):
    """Common part: the platform vocabulary and the workload and replication-factor features."""

    vocabulary = "hypervisor"  # query feature naming the platform: hypervisor or platform
    workloads: tuple[str, ...] = WORKLOADS

    def __init__(self, kb=None, points=None):
        self._rf_band: tuple[float, float] | None = None  # the band of a replication factor never run
        super().__init__(kb, points)

    def _extrapolation(self, core, cols, n) -> tuple[np.ndarray, np.ndarray]:
        """(a replication factor the platform never ran the workload at, any other extrapolation)."""
        raise NotImplementedError

    def _interval_from(self, pts):
        """The family's bands, and the band of a replication factor never run: each replication factor's
        Cassandra runs predicted by the model fitted without them (never narrower than the interpolation
        band; None with fewer than two factors or too few residuals)."""
        inner, outer = super()._interval_from(pts)
        folds: dict[float, list[int]] = {}
        for i, p in enumerate(pts):
            if p.features.get("workload") != "telecom":
                folds.setdefault(float(p.features["replication_factor"]), []).append(i)
        r = conformal.held_out_residuals(pts, list(folds.values()), self._fit_core, self.predict_points)
        rf = conformal.band(r) if len(folds) > 1 and len(r) >= conformal.finite_quantile_n() else None
        self._rf_band = None if rf is None else (min(rf[0], inner[0]), max(rf[1], inner[1]))
        return inner, outer

    def _relative_interval(self, cols, n, extrap=None):
        """A query extrapolated only in its replication factor gets the replication-factor band
        (:meth:`_interval_from`); any other extrapolation the family's extrapolation band."""
        lo, hi = super()._relative_interval(cols, n, extrap)
        if self._rf_band is None or extrap is None:
            return lo, hi
        rf_out, other = self._extrapolation(self._core, cols, n)
        only = rf_out & ~other
        return np.where(only, np.exp(self._rf_band[0]), lo), np.where(only, np.exp(self._rf_band[1]), hi)

    def _platform(self, cols, n):
        """(Table 9.2 platform level, hypervisor level for the chapter 5 factor, True where analog)."""
        raw = column(cols, self.vocabulary, n, numeric=False, family=self.name)
        if self.vocabulary == "platform":
            bad = sorted(set(raw) - set(PLATFORMS))
            if bad:
                raise InputError(f"{self.name}: unknown platform(s) {', '.join(bad)}; one of "
                                 f"{', '.join(PLATFORMS)}")
            plat = _lookup_str(PLATFORMS, raw)
            return plat, plat, np.zeros(n, bool)
        hyp = _lookup_str({**{h: h for h in (*HYPERVISORS, *ANALOGS)}, **ALIASES}, raw)
        bad = sorted(set(raw[hyp == ""]))
        if bad:
            raise InputError(f"{self.name}: unknown hypervisor(s) {', '.join(bad)}; one of native, Docker, "
                             f"VMware ESXi, KVM, XenServer, Xen")
        analog = np.isin(hyp, ANALOGS)
        return np.where(analog, "vmware esxi", hyp), hyp, analog

    def _workload(self, cols, n):
        wl = column(cols, "workload", n, "mix", numeric=False, family=self.name)
        bad = sorted(set(wl) - set(self.workloads))
        if bad:
            raise InputError(f"{self.name}: unknown workload(s) {', '.join(bad)}; one of {', '.join(self.workloads)}")
        rf = column(cols, "replication_factor", n, 3.0, family=self.name)
        if np.any(rf < 1):
            raise InputError(f"{self.name}: replication_factor must be >= 1, got {float(rf.min()):g}")
        return wl, rf


class _CpuModel(_Chapter9):
    """Table 9.2 and chapter 7 CPU utilization: idle floor + load, smooth ceiling (module doc)."""

    unit = "%"
    upper_bound = 100.0

    def __init__(self, kb=None, points=None):
        self._cores = dict(TESTBED_CORES)
        self._factors = dict(DEFAULT_FACTORS)
        self._ch5_cites: list[tuple[str, str]] = []
        super().__init__(kb, points)

    def _collect(self, kb) -> list[TrainingPoint]:
        cass, tele = testbed_cores(kb, TESTBED, 16.0), testbed_cores(kb, TELECOM_TESTBED, 12.0)
        self._cores = {w: cass for w in CASSANDRA} | {"telecom": tele}
        self._factors, self._ch5_cites = chapter5_factors(kb)
        pts = []
        for r in kb.measurements(document=DOC, locator=TABLE, metric="cpu_utilization"):
            f = r.factors
            feats = {"workload": f["workload"], "replication_factor": float(f["replication_factor"]),
                     "load": float(f["tps_limit"])}
            pts.append(point(r, self._name_platform(feats, f["hypervisor"].lower())))
        for r in (r for loc in TELECOM_TABLES for r in kb.measurements(document=DOC, locator=loc,
                                                                          metric="cpu_utilization")):
            f = r.factors
            if f.get("phase") != "same_load":  # before the load shift: every VM at the same rate
                continue
            feats = {"workload": "telecom", "replication_factor": 1.0, "load": float(f["load"])}
            pts.append(point(r, self._name_platform(feats, f["hypervisor"].lower())))
        return pts

    def _name_platform(self, feats: dict, hypervisor: str) -> dict:
        if self.vocabulary == "hypervisor":
            return {"hypervisor": hypervisor, **feats}
        return {"platform": {v: k for k, v in PLATFORMS.items()}[hypervisor], **feats}

    def citations(self):
        extra = tuple(self._ch5_cites) if self.vocabulary == "hypervisor" else ()
        return tuple(dict.fromkeys(super().citations() + extra))

    def _features(self, cols, n, *, at_testbed: bool = False):
        """The model's ``data`` plus (platform, hypervisor, analog, workload, rf, load, cores)."""
        plat, hyp, analog = self._platform(cols, n)
        wl, rf = self._workload(cols, n)
        load = column(cols, "load", n, np.nan, family=self.name)
        load = np.where(np.isnan(load), _lookup(DEFAULT_LOAD, wl), load)
        positive(load, "load", self.name, "tps", allow_zero=True)
        base_cores = _lookup(self._cores, wl)
        cores = base_cores if at_testbed else column(cols, "physical_cores", n, np.nan, family=self.name)
        cores = np.where(np.isnan(cores), base_cores, cores)
        positive(cores, "physical_cores", self.name)
        data = {"h": _index(HYPERVISORS, plat), "w": _index(WORKLOADS, wl),
                "lrf": np.where(wl == "telecom", 0.0, np.log(rf)), "load": load / LOAD_UNIT,
                "scale": base_cores / cores, "r": _lookup(self._factors, hyp)}
        return data, (plat, hyp, analog, wl, rf, load, cores)

    def _fit_core(self, points):
        cols, n = self._point_columns(points)
        data, (plat, _, _, wl, rf, load, _) = self._features(cols, n)
        y = np.array([p.target for p in points], dtype=float)
        # start from the cost per unit of load seen in the data: per platform on mix, per workload
        # relative to mix (the telecom rows' req/s are far smaller numbers than Cassandra's tps)
        cost = np.log(y / np.maximum(data["load"], 1e-9))
        mix = wl == "mix"
        a0 = [float(np.median(cost[mix & (plat == h)])) if np.any(mix & (plat == h)) else float(np.median(cost))
              for h in HYPERVISORS]
        base = float(np.median(cost[mix])) if mix.any() else float(np.median(cost))
        b0 = [float(np.median(cost[wl == w])) - base if np.any(wl == w) else 0.0 for w in WORKLOADS[1:]]
        x0 = np.r_[5.0, a0, b0, 0.4, 95.0]
        lower = np.r_[0.0, -np.inf, -np.inf, -np.inf, -np.inf, -np.inf, -np.inf, 0.0, 50.0]
        upper = np.r_[50.0, np.inf, np.inf, np.inf, np.inf, np.inf, np.inf, 3.0, 100.0]
        model = LogNonlinearLearner(log_cpu, x0, lower, upper)(data, y)
        loads = {w: (float(load[wl == w].min()), float(load[wl == w].max())) for w in set(wl)}
        # replication factors per platform and workload: a platform's level at an RF it never ran at
        # rests on the other platforms' replication slope (a table left out: an extrapolation)
        cell = _cell(plat, wl)
        rfs = {c: (float(rf[cell == c].min()), float(rf[cell == c].max())) for c in set(cell)}
        return {"model": model, "load_range": loads, "rf_range": rfs, "seen": tuple(sorted(set(plat)))}

    def _predict_core(self, core, cols, n):
        data, _ = self._features(cols, n)
        rf_out, other = self._extrapolation(core, cols, n)
        return core["model"].predict(data), rf_out | other

    def _extrapolation(self, core, cols, n) -> tuple[np.ndarray, np.ndarray]:
        """(a replication factor the platform never ran the workload at, any other extrapolation:
        another load, core count, platform or an analog hypervisor) per query."""
        _, (plat, _, analog, wl, rf, load, cores) = self._features(cols, n)
        l_lo, l_hi = _ranges(core["load_range"], wl)
        r_lo, r_hi = _ranges(core["rf_range"], _cell(plat, wl))
        rf_out = (wl != "telecom") & ((rf < r_lo) | (rf > r_hi))
        other = (analog | ~np.isin(plat, core["seen"]) | (load < l_lo * (1 - 1e-9)) | (load > l_hi * (1 + 1e-9))
                 | ~np.isclose(cores, _lookup(self._cores, wl)))
        return rf_out, other

    def _calibrate(self, mean, cols, n, calibration):
        if "native_cpu_percent" not in calibration or "native_load" not in calibration:
            return mean, "documents"
        # both at the testbed's cores: the site's figure already holds the site's cores
        plain = {k: v for k, v in cols.items() if k != "physical_cores"}
        ref_cols = {**plain, self.vocabulary: "native", "load": float(calibration["native_load"])}
        query = self._core["model"].predict(self._features(plain, n, at_testbed=True)[0])
        ref = self._core["model"].predict(self._features(ref_cols, n, at_testbed=True)[0])
        scaled = float(calibration["native_cpu_percent"]) * query / np.maximum(ref, 1e-12)
        return scaled, f"site:{calibration.get('site', 'site')}"


class CpuUtilization(_CpuModel):
    """Host CPU utilization (%) vs hypervisor and offered load (doc 004 Tables 9.2 and 7.2, ch. 5)."""

    name = "cpu_utilization"
    feature_names = ("hypervisor", "load", "workload", "replication_factor", "physical_cores")
    description = ("Server CPU utilization (%) vs hypervisor (native|Docker|VMware ESXi measured; KVM and "
                   "XenServer through chapter 5's ratios to VMware, extrapolated) and offered load: an idle floor "
                   "plus load, below a fitted ceiling; doc 004 Table 9.2 and the chapter 7 same-load hosts (63 points).")


class ContainerCpu(_CpuModel):
    """CPU utilization (%) per platform (native|vm|docker) and workload (doc 004 Tables 9.2, 7.2)."""

    name = "container_cpu"
    vocabulary = "platform"
    feature_names = ("platform", "workload", "load", "replication_factor", "physical_cores")
    description = ("Server CPU utilization (%) per platform (native|vm|docker) and Cassandra workload; "
                   "doc 004 Table 9.2 and chapter 7 (63 points); load defaults to the table's rate per workload.")


class ContainerLatency(_Chapter9):
    """Client mean latency (ms) per platform and workload (doc 004 Table 9.2)."""

    name = "container_latency"
    unit = "ms"
    vocabulary = "platform"
    workloads = CASSANDRA
    feature_names = ("platform", "workload", "replication_factor")
    description = ("Cassandra client mean latency (ms) per platform (native|vm|docker), workload and "
                   "replication factor (a replication slope per platform and workload) at the Table 9.2 "
                   "rates; doc 004 Table 9.2 (27 points).")

    def _collect(self, kb) -> list[TrainingPoint]:
        pts = []
        for r in kb.measurements(document=DOC, locator=TABLE, metric="latency"):
            f = r.factors
            plat = {v: k for k, v in PLATFORMS.items()}[f["hypervisor"].lower()]
            pts.append(point(r, {"platform": plat, "workload": f["workload"],
                                 "replication_factor": float(f["replication_factor"])}))
        return pts

    @staticmethod
    def _design(plat, wl, rf):
        cells = [f"{p}/{w}" for p in HYPERVISORS for w in CASSANDRA]
        return np.column_stack([one_hot(plat, HYPERVISORS), one_hot(wl, CASSANDRA), np.log(rf)[:, None],
                                one_hot(np.char.add(np.char.add(plat, "/"), wl), cells) * np.log(rf)[:, None]])

    def _fit_core(self, points):
        cols, n = self._point_columns(points)
        plat, _, _ = self._platform(cols, n)
        wl, rf = self._workload(cols, n)
        y = np.array([p.target for p in points], dtype=float)
        signs = [FREE] * (len(HYPERVISORS) + len(CASSANDRA)) + [POSITIVE] * (1 + len(HYPERVISORS) * len(CASSANDRA))
        model = LogLinearLearner(signs, alpha=LATENCY_SLOPE_RIDGE, penalize_free=False)(self._design(plat, wl, rf), y)
        cell = _cell(plat, wl)  # each platform and workload has its own replication slope
        rfs = {c: (float(rf[cell == c].min()), float(rf[cell == c].max())) for c in set(cell)}
        return {"model": model, "rf_range": rfs, "seen": tuple(sorted(set(plat)))}

    def _predict_core(self, core, cols, n):
        plat, _, _ = self._platform(cols, n)
        wl, rf = self._workload(cols, n)
        rf_out, other = self._extrapolation(core, cols, n)
        return core["model"].predict(self._design(plat, wl, rf)), rf_out | other

    def _extrapolation(self, core, cols, n) -> tuple[np.ndarray, np.ndarray]:
        """(a replication factor the platform never ran the workload at, a platform without runs)."""
        plat, _, _ = self._platform(cols, n)
        wl, rf = self._workload(cols, n)
        lo, hi = _ranges(core["rf_range"], _cell(plat, wl))
        return (rf < lo) | (rf > hi), ~np.isin(plat, core["seen"])


def _cell(plat: np.ndarray, wl: np.ndarray) -> np.ndarray:
    """``platform/workload`` labels (the replication factors each ran at are kept per cell)."""
    return np.char.add(np.char.add(np.asarray(plat).astype(str), "/"), np.asarray(wl).astype(str))


def _lookup(table: dict[str, float], keys: np.ndarray) -> np.ndarray:
    """Vectorised dict lookup (missing -> NaN) through np.unique."""
    uniq, inv = np.unique(np.asarray(keys).astype(str), return_inverse=True)
    return np.array([table.get(u, np.nan) for u in uniq], dtype=float)[inv]


def _lookup_str(table: dict[str, str], keys: np.ndarray) -> np.ndarray:
    """Vectorised dict lookup of strings (missing -> "")."""
    uniq, inv = np.unique(np.asarray(keys).astype(str), return_inverse=True)
    return np.array([table.get(u, "") for u in uniq], dtype=object)[inv].astype(str)


def _index(levels: tuple[str, ...], keys: np.ndarray) -> np.ndarray:
    return _lookup({lv: float(i) for i, lv in enumerate(levels)}, keys).astype(int)


def _ranges(table: dict[str, tuple[float, float]], keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) arrays of a per-level range table (a level without one: an empty range)."""
    lo = _lookup({k: v[0] for k, v in table.items()}, keys)
    hi = _lookup({k: v[1] for k, v in table.items()}, keys)
    return np.where(np.isnan(lo), np.inf, lo), np.where(np.isnan(hi), -np.inf, hi)
