"""Rules: Host count budgets and the real-time VM period and budget (docs 001, 002, 004)."""

from __future__ import annotations

from advisor.rules.conditions import (
    database,
    shared,
    slow_shared_link,
    telecom_like,
)
from advisor.rules.conditions import rule as _r
from advisor.rules.core import Effect, Rule

RULES: list[Rule] = [
    # ---------------------------------------------------------------- host_count (cluster)
    # The host_count recommender applies these through HOST_BUDGETS (what each fired rule reserves).
    _r("hc.cpu-ceiling", "host_count", "cluster", "measured",
       "Plan host CPU below the level at which the thesis' host could take no more load (82 %).",
       lambda c: True, Effect(), (), ["004:c6-S6.4-08"]),
    _r("hc.page-cache", "host_count", "cluster", "measured",
       "Budget host RAM for the page cache and limit guests per host: every added VM lowered throughput; "
       "I/O-heavy VMs are planned with 1 GiB of host page cache each (the doc 001 testbed's two-VM level), "
       "medium ones with half of it.",
       lambda c: c.any(lambda w: w.io.intensity != "low"), Effect(), ["001:C6"]),
    _r("hc.migration-headroom", "host_count", "cluster", "measured",
       "Hosts that send live migrations keep CPU headroom: source-host CPU climbed by up to 14 points "
       "during a migration.",
       lambda c: c.any(lambda w: w.live_migration), Effect(), ["004:c5-C4"]),
    _r("hc.migration-two-hosts", "host_count", "cluster", "safety",
       "A VM can only live-migrate to another host: plan at least two hosts.",
       lambda c: c.any(lambda w: w.live_migration), Effect()),
    _r("hc.nfs-link", "host_count", "cluster", "measured",
       "Plan on roughly 16 I/O-heavy VMs per 1 Gb/s NFS server link.",
       lambda c: shared(c, "nfs") and c.facts.io_heavy_vms > 0,
       lambda c: Effect(warnings=(
           f"{c.facts.io_heavy_vms} I/O-heavy VMs exceed the roughly 16 per Gb/s that the NFS server link "
           f"({slow_shared_link(c):g} Gb/s) serves: add links or servers",) if c.facts.io_heavy_vms
           > 16 * max(slow_shared_link(c), 0.1) else ()),
       ["002:C4"]),
    _r("hc.load-shifts", "host_count", "cluster", "measured",
       "Size for load shifts: three hosts could not carry 700 req/s per 10-vCPU VM when two VMs tripled "
       "their traffic; 600 req/s was the usable level.",
       lambda c: c.any(lambda w: telecom_like(w)),
       Effect(warnings=("size telecom-like VMs for load shifts: plan the per-VM load at about 6/7 of the level "
                        "the hosts just carry (600 of 700 req/s in the thesis)",)), ["004:c7-C6"]),
    _r("hc.static-memory", "host_count", "cluster", "measured",
       "Where a read-heavy and a write-heavy workload share hosts, keep their memory split statically: "
       "over-committed RAM lets one evict the other's page cache.",
       lambda c: c.scenario.preferences.ram_overcommit > 1.0
       and c.any(lambda w: w.io.read_share >= 0.7 and w.io.intensity != "low")
       and c.any(lambda w: w.io.read_share <= 0.3 and w.io.intensity != "low"),
       Effect(warnings=("RAM over-commit lets the write-heavy VMs evict the read-heavy ones' page cache: give "
                        "them fixed, not over-committed, memory",)),
       ["003:C8"]),
    _r("hc.multi-cluster-cpu", "host_count", "cluster", "measured",
       "Reserve roughly 10 extra CPU points for several co-located database clusters, more on VMs.",
       lambda c: sum(1 for w in c.workloads if database(w)) >= 2,
       Effect(), ["004:c10-C3"]),
    # ---------------------------------------------------------------- vm_period_budget (per workload)
    _r("rt.response-time-test", "vm_period_budget", "workload", "measured",
       "Derive T_VM and C_VM with the response-time test including the worst-case VM gap 2(T_VM-C_VM); "
       "accept them only if every task meets its deadline.",
       lambda c: c.w.realtime is not None, Effect(), ["004:c11-C01", "004:c11-C02", "004:c11-C05"]),
    _r("rt.period-bound", "vm_period_budget", "workload", "measured",
       "Keep T_VM below T_1/(2(1-share)), T_1 the shortest task period.",
       lambda c: c.w.realtime is not None, Effect(), ["004:c11-C03"]),
    _r("rt.share-headroom", "vm_period_budget", "workload", "measured",
       "Never give the VM a share equal to the task utilization, and avoid shares only slightly above it.",
       lambda c: c.w.realtime is not None, Effect(), ["004:c11-C04"]),
    _r("rt.overhead", "vm_period_budget", "workload", "measured",
       "With a switching overhead X search T_VM between the bounds of section 11.8.2; raise the share to "
       "about twice the task utilization when the overhead grows.",
       lambda c: c.w.realtime is not None and c.w.realtime.overhead > 0, Effect(),
       ["004:c11-C06", "004:c11-C07"]),
    _r("rt.single-vcpu", "vm_period_budget", "workload", "measured",
       "Prefer many single-vCPU real-time VMs (RMS guarantee up to 69.3 %) over multi-vCPU VMs with "
       "global scheduling (53.2 % for two, 37.5 % for many processors).",
       lambda c: c.w.realtime is not None and c.w.vcpus > 1,
       Effect(warnings=("run the task set in single-vCPU VMs, or pin tasks to vCPUs",)), ["004:c11-C08"]),
]
