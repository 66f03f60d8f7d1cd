"""``request_response_time``: mean response time (ms) of a request-serving VM vs its load per vCPU
and the hypervisor (doc 004 chapter 5).

Data: chapter 5 ran the thesis' telecom application (an active VM serving requests, its passive
twin on the other host; testbed c5-TB0: two HP DL380 G6, 8 cores / 16 threads, Section 5.3) on
KVM, VMware ESXi 5.0 and XenServer at offered loads of 500-5,300 req/s (rows c5-S5.3.2.1-11..15)
with VMs of 6, 12 and 16 vCPUs, and reported the mean response time:

* at the light load of the live-migration tests, before the migration (Figure 5.11, rows
  c5-F5.11-01/04/07: KVM and VMware about 1 ms, XenServer about 4 ms; the migrated 6-vCPU VM
  served 100 req/s, row c5-S5.3.2.2-04);
* at the peak of the load sweeps (Figures 5.8 and 5.9: KVM about 25 ms with a 16-vCPU VM, row
  c5-F5.8-02, and 20 ms with 12 vCPUs, c5-F5.9-02; XenServer 26 ms with 12 vCPUs, c5-F5.9-01;
  VMware about 20 ms at its peak, Section 5.6, row c5-S5.6-05, taken with the 12-vCPU VM). KVM and
  VMware peaked at the highest offered load, 5,300 req/s (row c5-S5.3.2.1-15); XenServer could not
  sustain it and its peak is read at 4,300 req/s, the highest load its application survived (rows
  c5-F5.2-02, c5-F5.8-01). One active VM served the whole load in the 12- and 16-vCPU runs.

Factor mapping, explicit: ``load_per_vcpu`` = the active VM's req/s over its vCPUs (100 / 6,
5,300 / 16, 5,300 / 12, 4,300 / 12); ``hypervisor`` kvm | vmware esxi | xenserver (Xen = XenServer).
Model (7 points)::

    log R = a[hypervisor] + b * log(load_per_vcpu),   b >= 0

Requests queue for the vCPUs, so the response time can only grow with the load each vCPU serves;
each hypervisor adds its own cost per request (XenServer about 4x at light load, Figure 5.11). The
peak points are the most loaded state each run reached, so between the light and the peak load
the figure interpolates and beyond the peak it extrapolates (flagged). Other applications: the
documents measured response times only for this telecom application and Cassandra (Table 9.2,
``container_latency``); nothing here transfers to another application. No calibration keys.

Query: ``hypervisor``, ``load_per_vcpu`` (req/s per vCPU, > 0). Result: ms. Extrapolated: a load
per vCPU outside 16.7-442 req/s. Below the lightest load measured the interval is the monotone
bound: from 0 (the documents give no floor) up to the figure at that load with its band's upper end.
"""

from __future__ import annotations

import numpy as np

from advisor.models.base import TrainingPoint
from advisor.models.family import Family, check_levels, column, point, positive
from advisor.models.learners import FREE, POSITIVE, LogLinearLearner, one_hot

DOC = "004"
HYPERVISORS = ("kvm", "vmware esxi", "xenserver")
ALIASES = {"xen": "xenserver", "vmware": "vmware esxi", "esxi": "vmware esxi"}
#: row -> (hypervisor, row of the active VM's load, row of its vCPUs) (see the module doc)
POINTS = {
    "c5-F5.11-01": ("kvm", "c5-S5.3.2.2-04", "c5-S5.3.2.2-02"),
    "c5-F5.11-04": ("vmware esxi", "c5-S5.3.2.2-04", "c5-S5.3.2.2-02"),
    "c5-F5.11-07": ("xenserver", "c5-S5.3.2.2-04", "c5-S5.3.2.2-02"),
    "c5-F5.8-02": ("kvm", "c5-S5.3.2.1-15", "c5-S5.3.2.1-03"),
    "c5-F5.9-02": ("kvm", "c5-S5.3.2.1-15", "c5-S5.3.2.1-02"),
    "c5-F5.9-01": ("xenserver", "c5-F5.8-01", "c5-S5.3.2.1-02"),
    "c5-S5.6-05": ("vmware esxi", "c5-S5.3.2.1-15", "c5-S5.3.2.1-02"),
}


class RequestResponseTime(Family):
    """Mean response time (ms) of the thesis' request-serving VM vs load per vCPU and hypervisor."""

    name = "request_response_time"
    unit = "ms"
    feature_names = ("hypervisor", "load_per_vcpu")
    description = ("Mean response time (ms) of a request-serving VM (doc 004's telecom application) vs its "
                   "load per vCPU and the hypervisor (KVM, VMware ESXi, XenServer); doc 004 chapter 5, "
                   "Figures 5.8, 5.9, 5.11 and Section 5.6 (7 points); non-decreasing in the load.")

    def _collect(self, kb) -> list[TrainingPoint]:
        pts = []
        for key, (hv, load_row, vcpu_row) in POINTS.items():
            r = kb.get(DOC, key)
            load, vcpus = kb.get(DOC, load_row), kb.get(DOC, vcpu_row)
            pts.append(point(r, {"hypervisor": hv, "load_per_vcpu": load.value / vcpus.value}, also=(load, vcpus)))
        return pts

    def _features(self, cols, n):
        hv = column(cols, "hypervisor", n, numeric=False, family=self.name)
        hv = np.array([ALIASES.get(h, h) for h in hv], dtype=object).astype(str)
        check_levels(self.name, hypervisor=(hv, HYPERVISORS + tuple(ALIASES)))
        load = positive(column(cols, "load_per_vcpu", n, family=self.name), "load_per_vcpu", self.name, "req/s")
        return hv, load

    @staticmethod
    def _design(hv, load):
        return np.column_stack([one_hot(hv, HYPERVISORS), np.log(load)])

    def _fit_core(self, points):
        cols, n = self._point_columns(points)
        hv, load = self._features(cols, n)
        y = np.array([p.target for p in points], dtype=float)
        model = LogLinearLearner([FREE] * len(HYPERVISORS) + [POSITIVE], alpha=1e-3)(self._design(hv, load), y)
        return {"model": model, "range": (float(load.min()), float(load.max())), "seen": tuple(sorted(set(hv)))}

    def _predict_core(self, core, cols, n):
        hv, load = self._features(cols, n)
        mean = core["model"].predict(self._design(hv, load))
        lo, hi = core["range"]
        return mean, (load < lo * 0.999) | (load > hi * 1.001) | ~np.isin(hv, core["seen"])

    def _bounds(self, low, high, cols, n):
        """Below the lightest load measured, the response time is at most the figure at that load (it
        never falls as the load rises), whose interval is an interpolation's; the documents bound it
        from below by nothing: ``[0, figure at the lightest load x its band's upper end]``."""
        low, high = super()._bounds(low, high, cols, n)
        hv, load = self._features(cols, n)
        lightest = self._core["range"][0]
        below = load < lightest * 0.999
        if not below.any():
            return low, high
        unseen = ~np.isin(hv, self._core["seen"])
        edge = self._core["model"].predict(self._design(hv, np.full(n, lightest))) * np.exp(
            np.where(unseen, self._ext_hi, self._log_hi))
        return np.where(below, self.lower_bound, low), np.where(below, edge, high)
