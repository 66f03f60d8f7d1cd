"""``container_overhead``: peak transaction rate of a platform relative to bare metal (doc 004 ch. 9, 10).

Data: the knowledge base has absolute peak rates for the mixed load only (chapter 9, Section
9.4.1: native and Docker 200k tps, VMware ESXi 160k tps; rows c9-069..071) and, per workload,
how much more Docker sustains than VMware (chapter 10, Section 10.4.1: +25 % mix, +19 % write,
+40 % read; rows c10-019..021). Training points, as peak tps relative to native (1 = native):

* docker/mix = c9-070 / c9-069 = 1.0;  vm/mix = c9-071 / c9-069 = 0.8
* vm/w = 1 / (1 + c10-0xx / 100) for w in mix, write, read, read against Docker; Docker counts as
  native there, as chapter 9 measured for the mixed load (these points also cite c9-069/070).

Skipped as restatements: c10-040..042 (Section 10.5 summary) and c3-S3.3-07..09 (chapter 3).

Model: the geometric mean of the points of each (platform, workload) cell; a cell without points
takes the geometric mean of its platform (flagged extrapolated); native is 100 % by definition,
with no interval (low = high = 100 %; calibrated, the site's own ``native_tps``). With five
points and two platforms a lookup is all the data supports (no curve to fit).

Query: ``platform`` (native|vm|docker), ``workload`` (mix|read|write; default mix), ``clusters``
(optional, accepted and ignored: chapter 10's cluster counts move latency and CPU, not the peak
rate). Result: peak transactions per second relative to native, %. Calibration: ``native_tps``
(the site's bare-metal peak rate) turns the result into tps (unit ``tps``, basis ``site:<name>``).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from advisor.models.base import TrainingPoint
from advisor.models.family import Family, check_levels, column, point

DOC = "004"
PLATFORMS = ("native", "vm", "docker")
WORKLOADS = ("mix", "read", "write")
CH9 = {"native": "c9-069", "docker": "c9-070", "vm": "c9-071"}
CH10_DOCKER_OVER_VM = ("c10-019", "c10-020", "c10-021")
#: share of reads in each workload the thesis measured (chapter 9: the mixed load is 3 reads to 1
#: write, Section 9.3.2.1, row c9-033: 75 %; read and write loads are pure)
READ_SHARE = {"write": 0.0, "mix": 0.75, "read": 1.0}


def workload_of(read_share: float) -> str:
    """The measured workload (Table 9.2's row) nearest to a workload's read share: 0.75 is the mix,
    not the read-only load (a 75/25 workload gets the Mix row's latency, 5.45 ms for VMs at RF 3)."""
    return min(WORKLOADS, key=lambda w: (abs(READ_SHARE[w] - float(read_share)), WORKLOADS.index(w)))


class ContainerOverhead(Family):
    """Peak transaction rate (% of native) per platform and workload (doc 004 ch. 9, 10)."""

    name = "container_overhead"
    unit = "%"
    upper_bound = 1.0  # (relative rate) no platform outruns bare metal
    #: a prediction is in % of native, the training targets are fractions of it
    target_scale = 100.0
    feature_names = ("platform", "workload", "clusters")
    description = ("Peak Cassandra transaction rate relative to bare metal (%) per platform (native|vm|docker) "
                   "and workload; doc 004 Sections 9.4.1 and 10.4.1 (5 points); with a site's native_tps, tps.")

    def _collect(self, kb) -> list[TrainingPoint]:
        native, docker, vm = (kb.get(DOC, CH9[k]) for k in ("native", "docker", "vm"))
        pts = [point(docker, {"platform": "docker", "workload": "mix"}, docker.value / native.value, also=(native,)),
               point(vm, {"platform": "vm", "workload": "mix"}, vm.value / native.value, also=(native,))]
        for key in CH10_DOCKER_OVER_VM:
            r = kb.get(DOC, key)
            pts.append(point(r, {"platform": "vm", "workload": r.factors["workload"]},
                             1.0 / (1.0 + r.value / 100.0), also=(docker, native)))
        return pts

    def _features(self, cols, n):
        plat = column(cols, "platform", n, numeric=False, family=self.name)
        wl = column(cols, "workload", n, "mix", numeric=False, family=self.name)
        check_levels(self.name, platform=(plat, PLATFORMS), workload=(wl, WORKLOADS))
        return plat, wl

    def _fit_core(self, points):
        cells: dict[tuple[str, str], list[float]] = {}
        for p in points:
            cells.setdefault((p.features["platform"], p.features["workload"]), []).append(np.log(p.target))
        per_platform: dict[str, list[float]] = {}
        for (plat, _), logs in cells.items():
            per_platform.setdefault(plat, []).extend(logs)
        return {"cell": {k: float(np.exp(np.mean(v))) for k, v in cells.items()},
                "platform": {k: float(np.exp(np.mean(v))) for k, v in per_platform.items()}}

    def _n_params(self) -> int:
        return len(self._core["cell"])

    def _predict_core(self, core, cols, n):
        plat, wl = self._features(cols, n)
        mean = np.ones(n)
        extrap = np.zeros(n, dtype=bool)
        for p in PLATFORMS[1:]:
            for w in WORKLOADS:
                sel = (plat == p) & (wl == w)
                if (p, w) in core["cell"]:
                    mean[sel] = core["cell"][(p, w)]
                else:
                    mean[sel] = core["platform"].get(p, 1.0)
                    extrap |= sel
        return mean, extrap

    def _relative_interval(self, cols, n, extrap=None):
        """The fitted interval, except native: exactly itself (the reference of the ratio)."""
        lo, hi = super()._relative_interval(cols, n, extrap)
        native = self._features(cols, n)[0] == "native"
        return np.where(native, 1.0, lo), np.where(native, 1.0, hi)

    def predict_points(self, core, points):
        """Relative rates (1 = native) for training points."""
        cols, n = self._point_columns(points)
        return self._predict_core(core, cols, n)[0]

    def predict_columns(self, columns, n, calibration=None):
        """Vectorised predict; % of native, or tps when calibrated with ``native_tps``."""
        calibration = self._check_calibration(calibration)
        pred = super().predict_columns(columns, n, None)
        pct = self.target_scale
        pred = replace(pred, mean=pred.mean * pct, low=pred.low * pct, high=pred.high * pct)
        if calibration and "native_tps" in calibration:
            k = float(calibration["native_tps"]) / pct
            pred = replace(pred, mean=pred.mean * k, low=pred.low * k, high=pred.high * k, unit="tps",
                           basis=f"site:{calibration.get('site', 'site')}")
        return pred
