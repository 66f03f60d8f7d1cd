"""Rules: Virtual disk placement, CPU governor and I/O request size (docs 002, 003, 004)."""

from __future__ import annotations

from advisor.rules.conditions import (
    DP_FILE,
    DP_FILE_SIZED,
    DP_OUTER,
    DP_SIZED,
    database,
    images_on_local_spindles,
    neighbour_cores_busy,
    oversized,
    telecom_like,
)
from advisor.rules.conditions import rule as _r
from advisor.rules.core import Effect, Rule

RULES: list[Rule] = [
    # ---------------------------------------------------------------- disk_placement (per workload)
    _r("dp.thin", "disk_placement", "workload", "measured",
       "Size virtual disks close to the data footprint: an oversized disk scattered data and cut "
       "throughput from 2.1 to 1.3 MB/s.",
       lambda c: True,
       lambda c: Effect(scores={DP_SIZED: 2.0, DP_FILE_SIZED: 2.0, DP_FILE: -1.0} if oversized(c.w)
                        else {DP_SIZED: 0.5, DP_FILE_SIZED: 0.5}),
       ["003:C1"]),
    _r("dp.partition-outer", "disk_placement", "workload", "measured",
       "Prefer partition-backed over file-backed virtual disks; put sequentially read disks in the outer "
       "zone.", lambda c: True,
       lambda c: Effect(scores={DP_OUTER: 2.5 if c.w.io.pattern == "sequential" else 0.0, DP_FILE: -1.0,
                                DP_FILE_SIZED: -1.0}),
       ["003:C2"]),
    _r("dp.adjacent", "disk_placement", "workload", "measured",
       "Two virtual disks on one spindle with simultaneous I/O: place them next to each other.",
       lambda c: c.w.vms >= 2 and images_on_local_spindles(c),
       Effect(warnings=("place virtual disks with simultaneous I/O next to each other on the spindle",)),
       ["003:C3"]),
    _r("dp.no-sequential-pairs", "disk_placement", "workload", "measured",
       "Do not pair sequential-I/O VMs on one host: about 18 % longer run time and 24 % less bandwidth; "
       "random mixes interfere little.",
       lambda c: c.w.io.pattern == "sequential" and c.w.io.intensity != "low",
       Effect(warnings=("spread sequential-I/O VMs over hosts (anti-affinity)",)), ["003:C5"]),
    _r("dp.split-cache", "disk_placement", "workload", "measured",
       "A read-heavy and a write-heavy workload competing for page cache run better in separate VMs "
       "with statically split memory.",
       lambda c: c.w.io.read_share >= 0.7 and c.any(lambda o: o.io.read_share <= 0.3 and o.io.intensity != "low"),
       Effect(warnings=("keep read-heavy and write-heavy workloads in separate VMs with fixed RAM",)),
       ["003:C8"]),
    _r("dp.cpu-neighbours", "disk_placement", "workload", "measured",
       "CPU-heavy neighbours may share hosts with VMs being provisioned; disk-heavy ones may not.",
       lambda c: c.w.io.intensity == "high",
       Effect(warnings=("keep VM provisioning away from hosts with disk-heavy neighbours",)), ["002:C5"]),
    _r("dp.split-large-vms", "disk_placement", "workload", "measured",
       "A telecom-like service replies faster as two 6-core VMs than as one 12- or 16-core VM.",
       lambda c: telecom_like(c.w) and c.w.vcpus >= 12,
       Effect(warnings=("split the service into VMs of about 6 vCPUs",)), ["004:c5-C5"]),
    _r("dp.stacked-read-clusters", "disk_placement", "workload", "measured",
       "Do not stack many VM-based read-heavy database clusters on the same hosts: read latency rose up "
       "to about 60 % with four clusters.",
       lambda c: database(c.w) and c.w.io.read_share >= 0.6 and c.w.vms >= 2,
       Effect(warnings=("spread read-heavy database VMs over hosts",)), ["004:c10-C2"]),
    # ---------------------------------------------------------------- cpu_governor (cluster)
    _r("gov.io-bound-performance", "cpu_governor", "cluster", "measured",
       "I/O-bound VMs with frequency scaling and no busy neighbour core: ondemand drops the clock (1400 vs 2400 "
       "MHz) and serves fewer requests (4756 vs about 5166/s); use the performance governor.",
       lambda c: c.any(lambda w: w.io.intensity != "low") and c.scenario.hosts.cpu.frequency_scaling is not False
       and not neighbour_cores_busy(c.facts),
       Effect(scores={"performance": 2.0, "ondemand": -1.0}), ["003:C4"]),
    # ---------------------------------------------------------------- io_block_size (per workload)
    _r("bs.locality", "io_block_size", "workload", "measured",
       "Large requests when reads have spatial locality; small (4 KB) requests for purely random reads, "
       "which large requests slow sharply; mixed access: a middle size (measured up to 256 KB).",
       lambda c: True,
       lambda c: Effect(scores={"random": {"4 KiB": 2.0, "1 MiB": -1.0}, "mixed": {"64 KiB": 2.0, "1 MiB": -0.5},
                                "sequential": {"1 MiB": 2.0, "4 KiB": -0.5}}[c.w.io.pattern]),
       ["003:C6"]),
    _r("bs.xen-sequential", "io_block_size", "workload", "measured",
       "Sequential I/O in a Xen VM: 1 MB requests close the 32 % bandwidth gap to bare metal.",
       lambda c: c.w.io.pattern == "sequential",
       Effect(scores={"1 MiB": 1.0}), ["003:C7"]),
]
