"""Rules: Where VM images live and how they are moved (docs 000, 002, 004)."""

from __future__ import annotations

from advisor.rules.conditions import rule as _r
from advisor.rules.conditions import (
    shared,
    single_slow_disk,
    slow_shared_link,
)
from advisor.rules.core import Effect, Rule

RULES: list[Rule] = [
    # ---------------------------------------------------------------- storage_backend (cluster)
    _r("sb.local-disk-io-heavy", "storage_backend", "cluster", "measured",
       "VMs writing heavily next to each other: one I/O-heavy neighbour already keeps a local disk about "
       "90 % busy and slows boot 3x (15x with three); use shared storage or a fast array.",
       lambda c: c.facts.io_heavy_vms_per_host >= 1,
       lambda c: Effect(scores={"local_disk": (-2.0 if single_slow_disk(c) else -0.5)
                                * min(c.facts.io_heavy_vms_per_host, 3.0) / 1.5}),
       ["002:C1"]),
    _r("sb.nfs-root-at-scale", "storage_backend", "cluster", "measured",
       "Avoid the guest root file system over NFS at scale: on a 1 Gb/s link it saturates the server "
       "network at about 4 I/O-heavy VMs and boot grows past 240 s; prefer NFS image files or iSCSI.",
       lambda c: shared(c, "nfs") and c.facts.io_heavy_vms > 4 * max(slow_shared_link(c), 1.0),
       Effect(scores={"nfs_root": -3.0, "nfs_file": 1.0, "iscsi": 0.5}),
       ["002:C2"]),
    _r("sb.nfs-file-vs-iscsi", "storage_backend", "cluster", "measured",
       "NFS image files booted about 20 s faster than iSCSI at low load; both scaled to 16 I/O-heavy VMs.",
       lambda c: shared(c, "nfs") and shared(c, "iscsi"),
       Effect(scores={"nfs_file": 0.5}),
       ["002:C3"]),
    _r("sb.link-capacity", "storage_backend", "cluster", "measured",
       "One NFS image server behind a 1 Gb/s link serves roughly 16 I/O-heavy VMs; the link, not the "
       "server CPU, is the limit.",
       lambda c: bool(c.scenario.hosts.shared_storage)
       and c.facts.io_heavy_vms > 16 * max(slow_shared_link(c), 0.1),
       Effect(scores={"nfs_file": -1.0, "nfs_root": -1.0, "iscsi": -1.0},
              warnings=("more I/O-heavy VMs than about 16 per Gb/s of storage link: add links or servers",)),
       ["002:C4"]),
    _r("sb.cpu-neighbours", "storage_backend", "cluster", "measured",
       "CPU-bound neighbours barely affect VM start time; disk-heavy neighbours do.",
       lambda c: c.facts.io_heavy_vms == 0,
       Effect(scores={"local_disk": 1.0}),
       ["002:C5"]),
    _r("sb.nfs-loop-file", "storage_backend", "cluster", "measured",
       "NFS image files attached through a loop device gain from the host page cache and scale far "
       "better than NFS root.",
       lambda c: shared(c, "nfs"),
       Effect(scores={"nfs_file": 0.5, "nfs_root": -0.5},
              warnings=("loop devices for NFS image files need host RAM headroom",)),
       ["002:C6"]),
    _r("sb.migration-needs-shared", "storage_backend", "cluster", "safety",
       "VMs that must live-migrate keep their images on storage every host reaches, so that no disk files "
       "move during a migration.",
       lambda c: c.any(lambda w: w.live_migration) and bool(c.scenario.hosts.shared_storage),
       Effect(exclude={"local_disk": "VMs must live-migrate and shared storage is on offer: keep their images "
                                     "there so that a migration moves no files"}),
       ["004:c6-C4"]),
    _r("sb.migration-without-shared", "storage_backend", "cluster", "measured",
       "VMs that must live-migrate while no shared storage is on offer: every migration also copies the "
       "VM's disk (block migration), which takes far longer.",
       lambda c: c.any(lambda w: w.live_migration) and not c.scenario.hosts.shared_storage,
       Effect(warnings=("VMs must live-migrate but no shared storage is on offer: every migration also copies "
                        "the VM's disk (block migration); add NFS, iSCSI or distributed storage",)),
       ["004:c6-C4"]),
    _r("sb.distributed-design", "storage_backend", "cluster", "measured",
       "Distributed storage: multicast lookup (Compuverde) beat DHT designs (Swift, Gluster) in "
       "throughput and operations, with or without node caching; Gluster nodes stayed at or below 50 % "
       "CPU under load, and Compuverde rebuilt lost copies in 20 minutes against 10-18.5 hours.",
       lambda c: shared(c, "distributed"),
       Effect(warnings=("prefer a multicast-based distributed store and compare products with caching "
                        "off; check rebuild time after a node loss",)),
       ["004:c4-C01", "004:c4-C02", "004:c4-C03", "004:c4-C04", "004:c4-C05", "004:c3-C01"]),
    # ---------------------------------------------------------------- image_transfer
    _r("it.gridftp", "image_transfer", "cluster", "measured",
       "Large raw images over 1 GbE: GridFTP takes roughly half the time of SCP; neither reaches line rate.",
       # only Nimbus was measured with GridFTP (doc 000 Section 5.1): OpenNebula gets half the credit
       lambda c: True, Effect(scores={"Nimbus + GridFTP": 2.0, "OpenNebula + GridFTP": 1.0,
                                      "Nimbus + SCP": -0.5, "OpenNebula + SCP": -0.5}),
       ["000:C-01"]),
    _r("it.nimbus-overhead", "image_transfer", "cluster", "measured",
       "Elastic workloads or small images: Nimbus's set-up and tear-down overhead is several times "
       "smaller than OpenNebula's.",
       lambda c: True, Effect(scores={"Nimbus + GridFTP": 1.0, "Nimbus + SCP": 1.0}),
       ["000:C-02"]),
    _r("it.protocol-first", "image_transfer", "cluster", "measured",
       "With SCP the manager does not change the transfer part, only its fixed overhead: pick the "
       "protocol first.", lambda c: True, Effect(), ["000:C-03"]),
    _r("it.nfs-loop", "image_transfer", "cluster", "measured",
       "Images kept on NFS need no copy: attach the image file through a loop device.",
       lambda c: c.facts.storage_backend == "nfs_file",
       Effect(scores={"shared NFS image (no copy)": 4.0}), ["002:C6"]),
]
