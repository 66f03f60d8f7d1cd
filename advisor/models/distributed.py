"""Distributed storage: throughput per client VM and recovery time after a node loss (doc 004 ch. 4).

Data: chapter 4 compares four configurations on one testbed (c4-tb0: 24 storage nodes with a
1 Gb/s NIC each, rows c4-S4.3.1-03 and c4-S4.3.1-13; 256 concurrent client threads, row
c4-S4.5.1-02; 1 MB files). Factor mapping, explicit: ``storage_system`` = Compuverde
Unstructured (multicast lookup, object interface, clients talk to the nodes directly),
Compuverde Structured (multicast, NFS/CIFS through gateways), Swift (DHT, object, proxies),
Gluster (DHT, NFS/CIFS, proxies); ``replication_factor`` from each configuration's spec row
(Sections 4.3.1.1-4.3.1.4, rows c4-S4.3.1.1-01, c4-S4.3.1.2-01, c4-S4.3.1.3-01,
c4-S4.3.1.4-01: 3, 2, 3, 2).

``distributed_throughput`` (12 points): the read and write data rates of Figures 4.6(a, b) and
4.7(a, b) (MB/s at 256 clients; Compuverde with and without its node cache, which the family
treats as two measurements of one configuration: Sections 4.4.1, 4.7 find the cache changes
little). The physics: every byte a client writes crosses the storage nodes' NICs ``RF`` times,
every byte read once, so the store cannot move more than its network bound::

    B = node_count * node_link / (RF if write else 1)          (3000 MB/s read, 1000 or 1500 write)
    log(T / B) = a[storage_system] + d * [write]                (efficiency, clipped to <= 1)
    per-VM throughput = T / concurrent_vms

The bound carries RF and the node count (leave-one-out error 6 % with it, 17 % fitting the
raw rates with the same coefficients; tests/benchmarks/bench_models.py measures the model
against the family mean and nearest neighbour). Per-VM throughput can only fall as VMs are
added, and never exceeds the store's network bound shared by the VMs (nor ``host_link_gbps``
when given). The file-operation rates (ops/s) and the SPECsfs2008 IOPS and response-time
ranges (Figure 4.8: 4 and 2 rows, achieved = requested up to 4000 IOPS) are too few for a
family and are not modelled here.

``distributed_recovery_time`` (4 points): Table 4.2, time to recreate the copies lost when one
storage node is reformatted, two runs per configuration (rows c4-T4.2-01..08; the runs are
replicates, so each configuration is one point, the geometric mean of its two runs, citing
both rows). Skipped as restatements: Section 4.5.3 rows c4-S4.5.3-02/03/05/06 and the speedups
c4-S4.5.3-04/07. Model: the configuration's own time; a configuration left out (as in
leave-one-out) takes the geometric mean of the others with its lookup method (multicast or
DHT, the cause the document names), flagged extrapolated. Node count: Compuverde heals
many-to-many between storage nodes (Section 4.5.3), so with the same data per node its time
scales by ``23 / (node_count - 1)``; Swift and Gluster heal through rsync and, for Gluster, the
proxies (Section 4.5.3): their time is kept, the conservative choice. The documents do not say
how much data the nodes held, so the data volume cannot be scaled.

Query (both): ``storage_system`` (compuverde_unstructured|compuverde_structured|swift|gluster;
spaces accepted, ``openstack swift`` = swift, ``glusterfs`` = gluster), ``node_count`` (default
24). Throughput also: ``operation`` (read|write), ``replication_factor`` (default: the
configuration's, 3 or 2), ``node_link_gbps`` (storage node NIC, Gb/s, default 1),
``concurrent_vms`` (VMs sharing the store, default 256), ``host_link_gbps`` (optional cap per
VM, Gb/s). Results: MB/s (10^6 B/s) per VM; s. Extrapolated: node count other than 24, another
node link, RF other than the configuration's (Gluster supports at most 2, row c4-S4.3.1.2-02),
fewer than 256 concurrent VMs (the store's rate rises with clients, Section 4.4, so fewer VMs
may not reach it), or a configuration without its own points: it takes the mean log efficiency of
the configurations that have points; its interval is the physical range, from nothing up to the
network bound (efficiency 1): a 90 % conformal band for a new configuration needs at least 19
configurations to calibrate on, the documents measured four. No calibration keys: the site
benchmarks the importers read (fio, bonnie++, ...) measure a host's disks, not a distributed store.
"""

from __future__ import annotations

import numpy as np

from advisor.models.base import TrainingPoint
from advisor.models.conformal import EXTRAPOLATION_FACTOR
from advisor.models.family import Family, column, point
from advisor.models.learners import FREE, LogLinearLearner, one_hot
from knowledge.infra.errors import InputError

DOC = "004"
SYSTEMS = ("compuverde_unstructured", "compuverde_structured", "swift", "gluster")
LOOKUP = {"compuverde_unstructured": "multicast", "compuverde_structured": "multicast",
          "swift": "dht", "gluster": "dht"}
ALIASES = {"openstack_swift": "swift", "openstack's_swift": "swift", "glusterfs": "gluster"}
RF_ROWS = {"compuverde_unstructured": "c4-S4.3.1.1-01", "compuverde_structured": "c4-S4.3.1.2-01",
           "swift": "c4-S4.3.1.3-01", "gluster": "c4-S4.3.1.4-01"}
NODES_ROW, LINK_ROW, CLIENTS_ROW = "c4-S4.3.1-03", "c4-S4.3.1-13", "c4-S4.5.1-02"
THROUGHPUT_FIGURES = ("Figure 4.6a", "Figure 4.6b", "Figure 4.7a", "Figure 4.7b")
RECOVERY_TABLE = "Table 4.2"
MANY_TO_MANY = ("compuverde_unstructured", "compuverde_structured")
OPERATIONS = ("read", "write")


def system_of(level: str) -> str:
    """The family's ``storage_system`` level for a knowledge-base level or a query value."""
    s = str(level).strip().lower().replace(" ", "_").replace("-", "_")
    return ALIASES.get(s, s)


def network_bound_mb_s(operation: np.ndarray, nodes: np.ndarray, link_gbps: np.ndarray,
                       rf: np.ndarray) -> np.ndarray:
    """Most data (MB/s) the storage nodes' NICs can carry: all NICs for reads, 1/RF for writes."""
    total = nodes * link_gbps * 1000.0 / 8.0
    return np.where(operation == "write", total / rf, total)


def _systems(cols, n, name):
    raw = column(cols, "storage_system", n, numeric=False, family=name)
    sys_ = np.array([system_of(s) for s in raw], dtype=object).astype(str)
    bad = sorted(set(sys_) - set(SYSTEMS))
    if bad:
        raise InputError(f"{name}: no measurements for storage system(s) {', '.join(bad)}; known: "
                         f"{', '.join(SYSTEMS)}")
    return sys_


class _Chapter4(Family):
    """Shared: the testbed figures (node count, node link, RF per configuration) read from rows."""

    def __init__(self, kb=None, points=None):
        self._testbed = {"nodes": 24.0, "link_gbps": 1.0, "clients": 256.0,
                         "rf": {"compuverde_unstructured": 3.0, "compuverde_structured": 2.0,
                                "swift": 3.0, "gluster": 2.0}}
        self._spec_cites: list[tuple[str, str]] = []
        super().__init__(kb, points)

    def _read_testbed(self, kb) -> None:
        nodes, link, clients = (kb.get(DOC, k) for k in (NODES_ROW, LINK_ROW, CLIENTS_ROW))
        rf_rows = {s: kb.get(DOC, k) for s, k in RF_ROWS.items()}
        self._testbed = {"nodes": nodes.value, "link_gbps": link.value_si * 8 / 1e9, "clients": clients.value,
                         "rf": {s: r.value for s, r in rf_rows.items()}}
        self._spec_cites = [(r.document, r.locator) for r in (nodes, link, clients, *rf_rows.values())]

    def citations(self):
        return tuple(dict.fromkeys(super().citations() + tuple(self._spec_cites)))

    def _nodes(self, cols, n):
        nodes = column(cols, "node_count", n, self._testbed["nodes"], family=self.name)
        if np.any(nodes < 2):
            raise InputError(f"{self.name}: node_count must be >= 2 (a lost copy needs another node)")
        return nodes


class DistributedThroughput(_Chapter4):
    """Read/write throughput per VM (MB/s) of a distributed store vs RF and nodes (doc 004 ch. 4)."""

    name = "distributed_throughput"
    unit = "MB/s"
    feature_names = ("storage_system", "operation", "replication_factor", "node_count", "node_link_gbps",
                     "concurrent_vms", "host_link_gbps")
    description = ("Read/write throughput per VM (MB/s) of a distributed store vs storage system, replication "
                   "factor and node count: efficiency times the storage nodes' network bound (1/RF for "
                   "writes), shared by the VMs; doc 004 Figures 4.6, 4.7 (12 points).")

    def _collect(self, kb) -> list[TrainingPoint]:
        self._read_testbed(kb)
        tb = self._testbed
        pts = []
        for loc in THROUGHPUT_FIGURES:
            for r in kb.measurements(document=DOC, locator=loc, metric="throughput", kind="absolute"):
                f = r.factors
                s = system_of(f["storage_system"])
                feats = {"storage_system": s, "operation": f["operation"], "replication_factor": tb["rf"][s],
                         "node_count": tb["nodes"], "node_link_gbps": tb["link_gbps"],
                         "concurrent_vms": tb["clients"],
                         "storage_node_cache": f.get("storage_node_cache", "no_caching")}
                pts.append(point(r, feats, r.value / tb["clients"]))
        return pts

    def _features(self, cols, n):
        sys_ = _systems(cols, n, self.name)
        op = column(cols, "operation", n, numeric=False, family=self.name)
        bad = sorted(set(op) - set(OPERATIONS))
        if bad:
            raise InputError(f"{self.name}: unknown operation(s) {', '.join(bad)}; one of read, write")
        tested_rf = np.array([self._testbed["rf"][s] for s in sys_], dtype=float)
        rf = column(cols, "replication_factor", n, np.nan, family=self.name)
        rf = np.where(np.isnan(rf), tested_rf, rf)
        nodes = self._nodes(cols, n)
        link = column(cols, "node_link_gbps", n, self._testbed["link_gbps"], family=self.name)
        vms = column(cols, "concurrent_vms", n, self._testbed["clients"], family=self.name)
        cap = column(cols, "host_link_gbps", n, np.nan, family=self.name)
        if np.any(rf < 1) or np.any(link <= 0) or np.any(vms < 1) or np.any(cap <= 0):
            raise InputError(f"{self.name}: replication_factor and concurrent_vms must be >= 1, links > 0 Gb/s")
        if np.any(rf > nodes):
            raise InputError(f"{self.name}: replication_factor cannot exceed node_count")
        return sys_, op, rf, tested_rf, nodes, link, vms, cap

    @staticmethod
    def _design(sys_, op):
        return np.column_stack([one_hot(sys_, SYSTEMS), (op == "write").astype(float)])

    def _fit_core(self, points):
        cols, n = self._point_columns(points)
        sys_, op, rf, _, nodes, link, vms, _ = self._features(cols, n)
        aggregate = np.array([p.target for p in points]) * vms
        efficiency = aggregate / network_bound_mb_s(op, nodes, link, rf)
        model = LogLinearLearner([FREE] * (len(SYSTEMS) + 1), alpha=1e-4)(self._design(sys_, op), efficiency)
        seen = tuple(sorted(set(sys_)))
        # a system without points takes the seen systems' mean log efficiency (shrinkage to the pool)
        pooled = float(np.mean([model.coef[SYSTEMS.index(s)] for s in seen]))
        for k, s in enumerate(SYSTEMS):
            if s not in seen:
                model.coef[k] = pooled
        return {"model": model, "seen": seen}

    def _relative_interval(self, cols, n, extrap=None):
        """A configuration without points: the physical range, from nothing up to the network bound
        (:meth:`_bounds`): a 90 % conformal band for a new configuration needs at least 19 others
        (the ``ceil((k + 1) x 0.95)``-th of ``k`` residuals), the documents measured four. Any other
        extrapolation: the calibrated band widened (the module doc of advisor.models.conformal)."""
        unseen = ~np.isin(_systems(cols, n, self.name), self._core["seen"])
        ext = np.zeros(n, dtype=bool) if extrap is None else np.asarray(extrap, dtype=bool)
        widen = np.where(ext, EXTRAPOLATION_FACTOR, 1.0)
        return (np.where(unseen, 0.0, np.exp(self._log_lo * widen)),
                np.where(unseen, np.inf, np.exp(self._log_hi * widen)))

    def _predict_core(self, core, cols, n):
        sys_, op, rf, tested_rf, nodes, link, vms, cap = self._features(cols, n)
        bound = network_bound_mb_s(op, nodes, link, rf)
        efficiency = np.minimum(core["model"].predict(self._design(sys_, op)), 1.0)
        mean = efficiency * bound / vms
        mean = np.where(np.isnan(cap), mean, np.minimum(mean, np.nan_to_num(cap) * 125.0))
        tb = self._testbed
        extrap = (~np.isin(sys_, core["seen"]) | ~np.isclose(nodes, tb["nodes"]) | ~np.isclose(link, tb["link_gbps"])
                  | ~np.isclose(rf, tested_rf) | (vms < tb["clients"]))
        return mean, extrap

    def _bounds(self, low, high, cols, n):
        """Never above the network bound shared by the VMs (nor the VM's host link)."""
        _, op, rf, _, nodes, link, vms, cap = self._features(cols, n)
        top = network_bound_mb_s(op, nodes, link, rf) / vms
        top = np.where(np.isnan(cap), top, np.minimum(top, np.nan_to_num(cap) * 125.0))
        return np.clip(low, 0.0, top), np.clip(high, 0.0, top)


class DistributedRecoveryTime(_Chapter4):
    """Time (s) to recreate the copies lost with one storage node (doc 004 Table 4.2)."""

    name = "distributed_recovery_time"
    unit = "s"
    feature_names = ("storage_system", "node_count")
    description = ("Time (s) a distributed store needs to recreate the copies lost with one storage node, per "
                   "storage system; doc 004 Table 4.2 (4 configurations, 2 runs each); Compuverde's many-to-many "
                   "healing scaled by 23 / (node_count - 1).")

    def _collect(self, kb) -> list[TrainingPoint]:
        self._read_testbed(kb)
        self._spec_cites = self._spec_cites[:1]  # the node count; links, clients and RF play no part
        runs: dict[str, list] = {}
        for r in kb.measurements(document=DOC, locator=RECOVERY_TABLE, metric="recovery_time"):
            runs.setdefault(system_of(r.factors["storage_system"]), []).append(r)
        pts = []
        for s, rows in runs.items():
            t = float(np.exp(np.mean(np.log([r.value_si for r in rows]))))
            pts.append(point(rows[0], {"storage_system": s, "node_count": self._testbed["nodes"]}, t,
                             also=tuple(rows[1:])))
        return pts

    def _fit_core(self, points):
        cell = {p.features["storage_system"]: float(p.target) for p in points}
        by_lookup: dict[str, list[float]] = {}
        for s, t in cell.items():
            by_lookup.setdefault(LOOKUP[s], []).append(np.log(t))
        everything = [np.log(t) for t in cell.values()]
        return {"cell": cell, "lookup": {k: float(np.exp(np.mean(v))) for k, v in by_lookup.items()},
                "all": float(np.exp(np.mean(everything)))}

    def _n_params(self) -> int:
        return len(self._core["cell"])

    def _predict_core(self, core, cols, n):
        sys_ = _systems(cols, n, self.name)
        nodes = self._nodes(cols, n)
        mean = np.empty(n)
        extrap = ~np.isclose(nodes, self._testbed["nodes"])
        for i, s in enumerate(sys_):
            if s in core["cell"]:
                mean[i] = core["cell"][s]
            else:
                mean[i] = core["lookup"].get(LOOKUP[s], core["all"])
                extrap[i] = True
        scale = np.where(np.isin(sys_, MANY_TO_MANY), (self._testbed["nodes"] - 1.0) / (nodes - 1.0), 1.0)
        return mean * scale, extrap
