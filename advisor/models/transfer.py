"""``image_transfer_time``: time to move a VM image vs size, protocol and link rate (docs 000, 002).

Data: the knowledge base holds no absolute image transfer time. Document 000 (Nimbus and
OpenNebula, 1 Gb/s Ethernet, row S4.1-12; raw images of 3 to 21 GB in steps of 3, rows S4.3-01/02) gives only
the protocol *ratio*: GridFTP (gsiftp) cuts the transfer time by 46 % against SCP (Figure 3,
row F3-02; restated in the introduction, I-02, skipped) and moves data nearly twice as fast
(Figure 3, row F3-01). Document 002 times boots, not transfers (its 1 GB image size is the only
related figure). The two Figure 3 rows are the training points, as SCP-to-GridFTP time ratios
(1 / (1 - 0.46) = 1.85 and 2.0).

Model (physics plus the measured ratio)::

    t = image_size * 8 / rate * f[protocol],   f[gsiftp] = 1,   f[scp] = geomean(ratios)
    rate = min(link_gbps * GOODPUT, disk_mb_s * 8 / 1000)

GridFTP streams the image as TCP payload, so the most it moves over the link is the TCP goodput:
each 1500-byte Ethernet frame carries 1448 bytes of data (IPv4 and TCP headers with timestamps,
52 bytes) and costs 1538 bytes of line time (preamble, header, FCS, inter-frame gap, 38 bytes):
``GOODPUT`` = 0.941, about 117.7 MB/s on 1 Gb/s (GridFTP's own block headers, 17 bytes per 64 KiB
block, are negligible). That is why neither protocol reaches line rate (doc 000 Figure 3(b)): the
GridFTP figure sits 6 % above the line-rate floor, SCP's at its measured ratio above GridFTP's. The
image is written to the destination host's disk: where that writes slower than the goodput
(``disk_mb_s``, sequential MB/s), the disk sets the rate (no TCP framing on it). The documents
give no absolute transfer time, so nothing narrows the GridFTP figure further; a site
calibration replaces it with a measured rate.

The physical floor ``size / min(link rate, disk rate)`` (a 1 Gb/s link moves at most 125 MB/s)
is a hard lower bound of the mean and the interval.

Query: ``image_size_gb`` (GB, 10^9 B), ``protocol`` (scp|gsiftp; gridftp is accepted for
gsiftp), ``link_gbps`` (default 1), ``disk_mb_s`` (optional: the destination disk's sequential
write rate, MB/s; default not given, the disk keeps up). Result: transfer time, s. Extrapolated: size outside the
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


#: TCP payload per Ethernet frame over its line time at a 1500-byte MTU (see the module doc)
GOODPUT = (1500.0 - 52.0) / (1500.0 + 38.0)


def link_floor_s(size_gb: np.ndarray, link_gbps: np.ndarray) -> np.ndarray:
    """Shortest possible transfer time, s: size (GB) x 8 bit/B / link rate (Gb/s)."""
    return size_gb * 8.0 / link_gbps


def _disk_gbps(disk_mb_s: np.ndarray) -> np.ndarray:
    """The destination disk's write rate in Gb/s (infinite when not given)."""
    return np.where(np.isnan(disk_mb_s), np.inf, disk_mb_s * 8.0 / 1000.0)


class ImageTransferTime(Family):
    """Image transfer time (s) per protocol vs image size and link rate (doc 000 ratios + physics)."""

    name = "image_transfer_time"
    unit = "s"
    feature_names = ("image_size_gb", "protocol", "link_gbps", "disk_mb_s")
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
        disk = column(cols, "disk_mb_s", n, np.nan, family=self.name)
        bad = sorted(set(proto) - set(ALIASES))
        if bad:
            raise InputError(f"{self.name}: no measurements for protocol(s) {', '.join(bad)}; "
                             f"the documents compare {', '.join(PROTOCOLS)} (gridftp = gsiftp)")
        if np.any(size <= 0) or np.any(link <= 0) or np.any(disk <= 0):
            raise InputError(f"{self.name}: image_size_gb, link_gbps and disk_mb_s must be > 0")
        proto = np.where(proto == "gridftp", "gsiftp", proto)
        return size, proto, link, disk

    def floor_s(self, cols, n) -> np.ndarray:
        """The physical floor of every query, s: the image over the slower of link and disk."""
        size, _, link, disk = self._features(cols, n)
        return link_floor_s(size, np.minimum(link, _disk_gbps(disk)))

    def _predict_core(self, core, cols, n):
        size, proto, link, disk = self._features(cols, n)
        factor = np.where(proto == "scp", core["factor"]["scp"], core["factor"]["gsiftp"])
        mean = link_floor_s(size, np.minimum(link * GOODPUT, _disk_gbps(disk))) * factor
        lo, hi = core["size_range"]
        extrap = (size < lo) | (size > hi) | ~np.isclose(link, core["link"])
        return mean, extrap

    def _calibrate(self, mean, cols, n, calibration):
        if "scp_mb_s" not in calibration:
            return mean, "documents"
        size, proto, _, _ = self._features(cols, n)
        t_scp = size * 1000.0 / float(calibration["scp_mb_s"])
        t = np.where(proto == "scp", t_scp, t_scp / self._core["factor"]["scp"])
        return np.maximum(t, self.floor_s(cols, n)), f"site:{calibration.get('site', 'site')}"

    def _bounds(self, low, high, cols, n):
        floor = self.floor_s(cols, n)
        return np.maximum(low, floor), np.maximum(high, floor)

    def predict_columns(self, columns, n, calibration=None):
        """Vectorised predict; the mean never drops below the link-rate floor."""
        pred = super().predict_columns(columns, n, calibration)
        if n == 0:
            return pred
        floor = self.floor_s(columns, n)
        if np.all(pred.mean >= floor):
            return pred
        from dataclasses import replace

        mean = np.maximum(pred.mean, floor)
        return replace(pred, mean=mean, low=np.minimum(pred.low, mean), high=np.maximum(pred.high, mean))
