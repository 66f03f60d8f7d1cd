"""CPU utilization and latency per virtualization platform under Cassandra load (doc 004, ch. 9).

Three families share the rows of document 004 Table 9.2 (a three-node Cassandra cluster on bare
metal, in one VMware ESXi VM per host, or in one Docker container per host; cassandra-stress
mixed, read and write loads at a fixed rate each; replication factor 1, 2 or 3; testbed c9-TB1,
16 cores per server). Factor mapping from chapter 9's curators: ``tps_limit`` (the offered
cassandra-stress rate, transactions per second over the whole cluster) is the family's ``load``;
``hypervisor`` levels are native, Docker, VMware ESXi; ``replication_factor`` stays as is.

``cpu_utilization`` (27 points)::

    cpu% = min(100, load * exp(a[hypervisor] + b[workload] + g * log(RF))),   g >= 0

CPU time is work done, so utilization is proportional to the offered load below saturation
(monotone non-decreasing in load by construction; the exponent of the load cannot be fitted: in
Table 9.2 each workload ran at one rate only, mix 80k, read 60k, write 20k tps). More replicas
write more copies (``g >= 0``). ``physical_cores`` (optional) rescales by 16 / cores, the
testbed's 16 cores per server. KVM, XenServer and Xen have no Table 9.2 runs: they take VMware's
coefficients (chapter 5, Section 5.6: KVM and VMware close to native), flagged extrapolated.

``container_cpu`` is the same model asked in the container vocabulary (``platform``:
native|vm|docker, ``vm`` = VMware ESXi; ``load`` defaults to the workload's Table 9.2 rate) and
``container_latency`` fits the client mean latency (ms) of the same runs::

    latency = exp(a[platform] + b[workload] + g * log(RF)),   g >= 0

Extrapolated: load outside 20k-80k tps, replication factor outside 1-3, another core count, a
platform without runs. Calibration (``cpu_utilization``, ``container_cpu``): ``native_cpu_percent``
measured at ``native_load`` (tps) on the site's bare metal replaces the documents' native cost per
transaction; the platform-vs-native ratio of the documents is kept.
"""

from __future__ import annotations

import re

import numpy as np

from advisor.models.base import TrainingPoint
from advisor.models.family import Family, column, point
from advisor.models.learners import FREE, POSITIVE, LogLinearLearner, one_hot
from knowledge.errors import InputError

DOC = "004"
TABLE = "Table 9.2"
TESTBED = "c9-TB1"
HYPERVISORS = ("native", "docker", "vmware esxi")
ANALOGS = {"kvm": "vmware esxi", "xenserver": "vmware esxi", "xen": "vmware esxi"}
PLATFORMS = {"native": "native", "docker": "docker", "vm": "vmware esxi"}
WORKLOADS = ("mix", "read", "write")
TESTBED_CORES = 16.0


def testbed_cores(kb) -> float:
    """Cores per server of the chapter 9 testbed (c9-TB1, ``16 per server``)."""
    for tb in kb.testbeds(DOC):
        if tb.id == TESTBED:
            m = re.search(r"\d+", tb.cores)
            if m:
                return float(m.group())
    return TESTBED_CORES


class _Table92(Family):
    """Common part: rows of Table 9.2 for one metric, log-linear in platform, workload, RF."""

    metric = "cpu_utilization"
    unit = "%"
    upper_bound = 100.0
    per_load = True     # target proportional to load (cpu) or not (latency)
    vocabulary = "hypervisor"  # query feature naming the platform: hypervisor or platform

    def __init__(self, kb=None, points=None):
        self._cores = TESTBED_CORES
        super().__init__(kb, points)

    def _collect(self, kb) -> list[TrainingPoint]:
        self._cores = testbed_cores(kb)
        pts = []
        for r in kb.measurements(document=DOC, locator=TABLE, metric=self.metric):
            f = r.factors
            hyp = f["hypervisor"].lower()
            feats = {"workload": f["workload"], "replication_factor": float(f["replication_factor"]),
                     "load": float(f["tps_limit"])}
            feats[self.vocabulary] = hyp if self.vocabulary == "hypervisor" else \
                {v: k for k, v in PLATFORMS.items()}[hyp]
            pts.append(point(r, feats))
        return pts

    def _platform(self, cols, n):
        """(hypervisor level of Table 9.2, True where it is an analog)."""
        raw = column(cols, self.vocabulary, n, numeric=False, family=self.name)
        if self.vocabulary == "platform":
            bad = sorted(set(raw) - set(PLATFORMS))
            if bad:
                raise InputError(f"{self.name}: unknown platform(s) {', '.join(bad)}; one of "
                                 f"{', '.join(PLATFORMS)}")
            return np.vectorize(PLATFORMS.get, otypes=[object])(raw).astype(str), np.zeros(n, bool)
        bad = sorted(set(raw) - set(HYPERVISORS) - set(ANALOGS))
        if bad:
            raise InputError(f"{self.name}: unknown hypervisor(s) {', '.join(bad)}; one of native, Docker, "
                             f"VMware ESXi, KVM, XenServer, Xen")
        analog = np.isin(raw, list(ANALOGS))
        return np.where(analog, "vmware esxi", raw), analog

    def _features(self, cols, n):
        hyp, analog = self._platform(cols, n)
        wl = column(cols, "workload", n, "mix", numeric=False, family=self.name)
        bad = sorted(set(wl) - set(WORKLOADS))
        if bad:
            raise InputError(f"{self.name}: unknown workload(s) {', '.join(bad)}; one of {', '.join(WORKLOADS)}")
        rf = column(cols, "replication_factor", n, 3.0, family=self.name)
        default_load = np.select([wl == "mix", wl == "read"], [80000.0, 60000.0], 20000.0)
        load = column(cols, "load", n, np.nan, family=self.name)
        load = np.where(np.isnan(load), default_load, load)
        cores = column(cols, "physical_cores", n, self._cores, family=self.name)
        if np.any(rf < 1) or np.any(load < 0) or np.any(cores <= 0):
            raise InputError(f"{self.name}: replication_factor >= 1, load >= 0 and physical_cores > 0 required")
        return hyp, analog, wl, rf, load, cores

    @staticmethod
    def _design(hyp, wl, rf):
        return np.column_stack([one_hot(hyp, HYPERVISORS), one_hot(wl, WORKLOADS), np.log(rf)])

    def _fit_core(self, points):
        cols, n = self._point_columns(points)
        hyp, _, wl, rf, load, _ = self._features(cols, n)
        y = np.array([p.target for p in points])
        target = y / load if self.per_load else y
        model = LogLinearLearner([FREE] * 6 + [POSITIVE], alpha=1e-3)(self._design(hyp, wl, rf), target)
        return {"model": model, "load_range": (float(load.min()), float(load.max())),
                "rf_range": (float(rf.min()), float(rf.max())), "seen": tuple(sorted(set(hyp)))}

    def _predict_core(self, core, cols, n):
        hyp, analog, wl, rf, load, cores = self._features(cols, n)
        mean = core["model"].predict(self._design(hyp, wl, rf))
        extrap = analog | ~np.isin(hyp, core["seen"]) | (rf < core["rf_range"][0]) | (rf > core["rf_range"][1])
        if self.per_load:
            mean = mean * load * self._cores / cores
            lo, hi = core["load_range"]
            extrap |= (load < lo) | (load > hi) | ~np.isclose(cores, self._cores)
        return mean, extrap

    def _calibrate(self, mean, cols, n, calibration):
        if not self.per_load or "native_cpu_percent" not in calibration or "native_load" not in calibration:
            return mean, "documents"
        ref_cols = dict(cols)
        ref_cols[self.vocabulary] = "native"
        ref_cols["load"] = float(calibration["native_load"])
        ref_cols.pop("physical_cores", None)
        ref, _ = self._predict_core(self._core, ref_cols, n)
        scale = float(calibration["native_cpu_percent"]) / ref
        # the site's figure already holds its own cores: undo the documents' core rescaling
        _, _, _, _, _, cores = self._features(cols, n)
        return mean * scale * cores / self._cores, f"site:{calibration.get('site', 'site')}"


class CpuUtilization(_Table92):
    """Host CPU utilization (%) vs hypervisor and offered Cassandra load (doc 004 Table 9.2)."""

    name = "cpu_utilization"
    feature_names = ("hypervisor", "load", "workload", "replication_factor", "physical_cores")
    description = ("Server CPU utilization (%) vs hypervisor (native|Docker|VMware ESXi; KVM/Xen as VMware, "
                   "extrapolated) and offered load (cassandra-stress tps); doc 004 Table 9.2 (27 points); "
                   "proportional to load, bounded to [0, 100].")


class ContainerCpu(_Table92):
    """CPU utilization (%) per platform (native|vm|docker) and workload (doc 004 Table 9.2)."""

    name = "container_cpu"
    vocabulary = "platform"
    feature_names = ("platform", "workload", "load", "replication_factor", "physical_cores")
    description = ("Server CPU utilization (%) per platform (native|vm|docker) and Cassandra workload; "
                   "doc 004 Table 9.2 (27 points); load defaults to the table's rate per workload.")


class ContainerLatency(_Table92):
    """Client mean latency (ms) per platform and workload (doc 004 Table 9.2)."""

    name = "container_latency"
    unit = "ms"
    metric = "latency"
    vocabulary = "platform"
    per_load = False
    upper_bound = np.inf
    feature_names = ("platform", "workload", "replication_factor")
    description = ("Cassandra client mean latency (ms) per platform (native|vm|docker), workload and "
                   "replication factor at the Table 9.2 rates; doc 004 Table 9.2 (27 points).")
