"""``image_transfer_time``: time to move a VM image vs size, protocol and link rate (docs 000, 002).

Data: the knowledge base holds no absolute image transfer time. Document 000 (Nimbus and
OpenNebula, 1 Gb/s Ethernet, row S4.1-12; raw images of 3 to 21 GB in steps of 3, rows S4.3-01/02) gives only
the protocol *ratio*: GridFTP (gsiftp) cuts the transfer time by 46 % against SCP (Figure 3,
row F3-02; restated in the introduction, I-02, skipped) and moves data nearly twice as fast
(Figure 3, row F3-01). Document 002 times boots, not transfers (its 1 GB image size is the only
related figure). The two Figure 3 rows are the training points, as SCP-to-GridFTP time ratios
(1 / (1 - 0.46) = 1.85 and 2.0).

Model (physics plus the measured ratio)::

    t = image_size * 8 / link_gbps * f[protocol],   f[gsiftp] = 1,   f[scp] = geomean(ratios)

The physical floor ``size / link rate`` (a 1 Gb/s link moves at most 125 MB/s) is a hard lower
bound of the mean and the interval. The documents do not say how close GridFTP came to the
link rate: the family assumes it saturates the link, which makes every figure optimistic; a site
calibration replaces that assumption with a measured rate.

Query: ``image_size_gb`` (GB, 10^9 B), ``protocol`` (scp|gsiftp; gridftp is accepted for
gsiftp), ``link_gbps`` (default 1). Result: transfer time, s. Extrapolated: size outside the
measured 3-21 GB (row S4.3-01's range), or a link other than the measured 1 Gb/s (SCP's encryption becomes
CPU-bound on faster links). Calibration: ``scp_mb_s`` (the site's measured SCP copy rate, MB/s)
gives ``t_scp = size / rate`` and ``t_gsiftp = t_scp / ratio``, never below the link floor.
"""

from __future__ import annotations

import numpy as np

from advisor.models.base import TrainingPoint
from advisor.models.family import Family, column, point
from knowledge.infra.errors import InputError

DOC = "000"
PROTOCOLS = ("scp", "gsiftp")
ALIASES = {"gridftp": "gsiftp", "gsiftp": "gsiftp", "scp": "scp"}
SIZE_RANGE_ROWS = ("S4.3-01", "S4.3-02")  # the swept sizes (3-21 GB), step between sizes
LINK_ROW = "S4.1-12"


def link_floor_s(size_gb: np.ndarray, link_gbps: np.ndarray) -> np.ndarray:
    """Shortest possible transfer time, s: size (GB) x 8 bit/B / link rate (Gb/s)."""
    return size_gb * 8.0 / link_gbps


class ImageTransferTime(Family):
    """Image transfer time (s) per protocol vs image size and link rate (doc 000 ratios + physics)."""

    name = "image_transfer_time"
    unit = "s"
    feature_names = ("image_size_gb", "protocol", "link_gbps")
    description = ("Image transfer time (s) vs image size, protocol (scp|gsiftp) and link rate: link-rate "
                   "floor times the measured SCP/GridFTP ratio (doc 000 Figure 3, 2 ratio points; no "
                   "absolute transfer time in the knowledge base).")

    def _collect(self, kb) -> list[TrainingPoint]:
        pts = []
        for r in kb.measurements(document=DOC, locator="Figure 3"):
            if r.factors.get("protocol") != "gsiftp" or r.baseline != "protocol=scp":
                continue
            if r.metric == "transfer_time" and r.kind == "percent_change":
                ratio = 1.0 / (1.0 + r.value / 100.0)
            elif r.metric == "throughput" and r.kind == "ratio":
                ratio = r.value
            else:
                continue
            pts.append(point(r, {"protocol": "scp", "relative_to": "gsiftp"}, ratio))
        sizes, step = kb.get(DOC, SIZE_RANGE_ROWS[0]), kb.get(DOC, SIZE_RANGE_ROWS[1])
        # the row states the swept range (3 to 21 GB in steps of 3): its ends, else the step and the value
        low, high = sizes.value_low, sizes.value_high
        self._size_range = (float(low) if low is not None else step.value,
                            float(high) if high is not None else sizes.value)
        self._link = kb.get(DOC, LINK_ROW).value
        return pts

    def __init__(self, kb=None, points=None):
        self._size_range, self._link = (3.0, 12.0), 1.0
        super().__init__(kb, points)

    def _fit_core(self, points):
        ratios = np.array([p.target for p in points], dtype=float)
        return {"factor": {"gsiftp": 1.0, "scp": float(np.exp(np.log(ratios).mean()))},
                "size_range": self._size_range, "link": self._link, "n": len(points)}

    def _n_params(self) -> int:
        return 1

    def predict_points(self, core, points):
        """Training points are SCP/GridFTP time ratios: the fitted ratio for each."""
        return np.full(len(points), core["factor"]["scp"])

    def _features(self, cols, n):
        size = column(cols, "image_size_gb", n, family=self.name)
        proto = column(cols, "protocol", n, numeric=False, family=self.name)
        link = column(cols, "link_gbps", n, 1.0, family=self.name)
        bad = sorted(set(proto) - set(ALIASES))
        if bad:
            raise InputError(f"{self.name}: no measurements for protocol(s) {', '.join(bad)}; "
                             f"the documents compare {', '.join(PROTOCOLS)} (gridftp = gsiftp)")
        if np.any(size <= 0) or np.any(link <= 0):
            raise InputError(f"{self.name}: image_size_gb and link_gbps must be > 0")
        proto = np.where(proto == "gridftp", "gsiftp", proto)
        return size, proto, link

    def _predict_core(self, core, cols, n):
        size, proto, link = self._features(cols, n)
        factor = np.where(proto == "scp", core["factor"]["scp"], core["factor"]["gsiftp"])
        mean = link_floor_s(size, link) * factor
        lo, hi = core["size_range"]
        extrap = (size < lo) | (size > hi) | ~np.isclose(link, core["link"])
        return mean, extrap

    def _calibrate(self, mean, cols, n, calibration):
        if "scp_mb_s" not in calibration:
            return mean, "documents"
        size, proto, link = self._features(cols, n)
        t_scp = size * 1000.0 / float(calibration["scp_mb_s"])
        t = np.where(proto == "scp", t_scp, t_scp / self._core["factor"]["scp"])
        return np.maximum(t, link_floor_s(size, link)), f"site:{calibration.get('site', 'site')}"

    def _bounds(self, low, high, cols, n):
        size, _, link = self._features(cols, n)
        floor = link_floor_s(size, link)
        return np.maximum(low, floor), np.maximum(high, floor)

    def predict_columns(self, columns, n, calibration=None):
        """Vectorised predict; the mean never drops below the link-rate floor."""
        pred = super().predict_columns(columns, n, calibration)
        if n == 0:
            return pred
        size, _, link = self._features(columns, n)
        floor = link_floor_s(size, link)
        if np.all(pred.mean >= floor):
            return pred
        from dataclasses import replace

        mean = np.maximum(pred.mean, floor)
        return replace(pred, mean=mean, low=np.minimum(pred.low, mean), high=np.maximum(pred.high, mean))
