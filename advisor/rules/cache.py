"""Rules: KVM disk cache modes (doc 001; doc 000 C-05)."""

from __future__ import annotations

from advisor.rules.conditions import (
    HOST_CACHED,
    any_writes,
    io_heavy,
    writes,
)
from advisor.rules.conditions import rule as _r
from advisor.rules.core import Effect, Rule

RULES: list[Rule] = [
    # ---------------------------------------------------------------- cache_mode (per workload)
    _r("cache.migration-needs-none", "cache_mode", "workload", "safety",
       "VMs that must live-migrate bypass the host page cache: doc 001 names none the only one of its "
       "three modes compatible with migration (directsync, which it did not measure, also bypasses the "
       "host cache and is the other mode libvirt accepts as migration-safe).",
       lambda c: c.w.live_migration,
       Effect(scores={"none": 1.0}, exclude={m: "keeps guest data in the host page cache, which live migration "
                                                "does not carry over (doc 001 names none the only compatible "
                                                "mode)" for m in HOST_CACHED}),
       ["001:C7"]),
    _r("cache.no-loss-no-host-buffering", "cache_mode", "workload", "safety",
       "When no data may be lost on a host crash, a write must reach stable storage before the guest is told "
       "it is done: writeback and unsafe keep it in host RAM, and none only in the disk's volatile write "
       "cache (doc 001: none does not provide total data integrity); writethrough (or directsync) does.",
       lambda c: c.w.data_loss_tolerance == "none" and any_writes(c.w),
       Effect(scores={"writethrough": 2.0, "directsync": 1.5},
              exclude={"writeback": "buffers writes in host RAM: a host crash loses them, and this "
                                    "workload tolerates no data loss",
                       "unsafe": "a host crash loses even the writes the guest flushed, and this workload "
                                 "tolerates no data loss",
                       "none": "reports a write done once it is in the disk's volatile write cache: doc 001 "
                               "says none does not provide total data integrity, and this workload tolerates "
                               "no data loss"}),
       ["001:C3", "001:C1"]),
    _r("cache.migration-and-no-loss", "cache_mode", "workload", "safety",
       "A workload that must live-migrate and may lose no data needs a mode that both bypasses the host "
       "page cache and completes writes only on stable storage: directsync (write-through semantics without "
       "the host cache). The documents did not measure it: its figures are estimated from none and "
       "writethrough.",
       lambda c: c.w.live_migration and c.w.data_loss_tolerance == "none" and any_writes(c.w),
       Effect(scores={"directsync": 3.0},
              warnings=("directsync was not measured by the documents; benchmark it on the target storage",)),
       ["001:C7", "001:C3"]),
    _r("cache.unsafe-only-if-any-loss", "cache_mode", "workload", "safety",
       "Cache mode unsafe ignores guest flush requests; it is only acceptable for data that may be "
       "lost entirely (scratch or rebuildable VMs).",
       lambda c: c.w.data_loss_tolerance != "any",
       Effect(exclude={"unsafe": "ignores guest flushes; only for data that may be lost entirely"}),
       ["001:C3"]),
    _r("cache.unsafe-no-gain", "cache_mode", "workload", "guideline",
       "Unsafe was not measured: at best it performs like writeback, which honours guest flushes.",
       lambda c: True, Effect(scores={"unsafe": -0.5})),
    _r("cache.few-vms-writeback", "cache_mode", "workload", "measured",
       "With one to three guests per host and some loss of buffered writes acceptable, writeback gives "
       "by far the highest random and sequential write throughput.",
       lambda c: c.facts.vms_per_host <= 3.5 and c.w.data_loss_tolerance in ("seconds", "minutes", "any"),
       Effect(scores={"writeback": 3.0}),
       ["001:C1"]),
    _r("cache.many-vms-none", "cache_mode", "workload", "measured",
       "With about ten or more guests per host and under 1 GiB of host page cache per guest, none "
       "performs almost like writeback without host-side buffering.",
       # the gap closes because the host page cache per VM runs out (doc 001 Conclusions: more host
       # RAM widens it again), so the rule needs both many guests and little cache per guest: below
       # the 1 GiB per VM of the testbed's two-VM runs, where writeback still led clearly
       lambda c: c.facts.vms_per_host >= 10 and c.facts.page_cache_per_vm_gib < 1.0,
       Effect(scores={"none": 3.0, "writeback": -1.0}),
       ["001:C2", "001:C6"]),
    _r("cache.integrity-middle-ground", "cache_mode", "workload", "measured",
       "Writethrough keeps guest data safe but is the slowest mode, worst on random synchronous writes; "
       "none is the middle ground when full integrity is not mandatory.",
       lambda c: c.w.data_loss_tolerance == "seconds" and writes(c.w),
       Effect(scores={"none": 1.5, "writethrough": -0.5}),
       ["001:C3"]),
    _r("cache.any-loss-no-writethrough", "cache_mode", "workload", "measured",
       "Data that may be lost entirely gains nothing from writethrough's safety, and writethrough wrote "
       "slowest in every test; a buffering mode serves such writes faster.",
       lambda c: c.w.data_loss_tolerance == "any" and writes(c.w),
       Effect(scores={"writethrough": -1.0}),
       ["001:C3"]),
    _r("cache.writethrough-small-quiet", "cache_mode", "workload", "guideline",
       "A few guests per host with low I/O: writethrough reads through the host page cache like writeback "
       "and sends every write to the disk; its slow writes only scale badly with more guests and I/O.",
       lambda c: c.facts.vms_per_host <= 3.5 and c.w.io.intensity == "low",
       Effect(scores={"writethrough": 0.5}),
       ["001:C9"]),
    _r("cache.rewrite-none", "cache_mode", "workload", "measured",
       "Several guests rewriting blocks in place (read-modify-write) run faster with none than with "
       "writeback; writethrough is clearly last.",
       lambda c: c.facts.vms_per_host >= 2 and c.w.io.pattern in ("sequential", "mixed")
       and c.w.io.read_share <= 0.6,
       Effect(scores={"none": 1.0, "writethrough": -0.5}),
       ["001:C4"]),
    _r("cache.reads-avoid-none", "cache_mode", "workload", "measured",
       "Read-dominated (above all sequential-read) workloads on hosts with a large free page cache read "
       "several times faster through the host cache: avoid none.",
       lambda c: c.w.io.read_share >= 0.7 and c.facts.page_cache_per_vm_gib >= 1.0
       and c.facts.vms_per_host < 10,
       Effect(scores={"none": -1.5, "writeback": 1.0, "writethrough": 1.0}),
       ["001:C5"]),
    _r("cache.by-storage-type", "cache_mode", "workload", "guideline",
       "After the IBM best practice doc 001 cites: writethrough for local disks, none for images on "
       "remote NFS storage.",
       lambda c: c.facts.storage_backend is not None,
       lambda c: Effect(scores={"none": 0.5} if c.facts.storage_backend in ("nfs_file", "nfs_root", "iscsi",
                                                                             "distributed")
                        else {"writethrough": 0.5}),
       ["001:C8"]),
    _r("cache.heavy-writes-off", "cache_mode", "workload", "measured",
       "KVM guests doing heavy writes to raw images: turn the host cache off (none) instead of the "
       "default writethrough; write throughput approaches Xen at some guest CPU cost.",
       lambda c: io_heavy(c.w) and c.w.io.read_share <= 0.5,
       Effect(scores={"none": 1.0, "writethrough": -1.0}),
       ["000:C-05"]),
]
