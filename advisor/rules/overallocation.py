"""Rules: vCPU over-allocation and automatic load balancing (doc 004 chapters 3, 5-8)."""

from __future__ import annotations

from advisor.rules.conditions import (
    ABOVE_LITTLE,
    OVERALLOCATION,
    cpu_heavy,
    realtime_service,
    shared,
    telecom_like,
    writes,
)
from advisor.rules.conditions import rule as _r
from advisor.rules.core import Effect, Rule

RULES: list[Rule] = [
    # ---------------------------------------------------------------- vcpu_overallocation
    _r("oa.heavy-migration-low-ratio", "vcpu_overallocation", "cluster", "safety",
       "Heavily loaded VMs that must live-migrate are not run under medium or massive over-allocation: "
       "downtime grows to several seconds and requests fail; migrate only with little over-allocation.",
       lambda c: c.any(lambda w: w.live_migration and w.heavily_loaded),
       Effect(scores={"little": 1.0, "none": 0.5},
              exclude={k: "heavily loaded VMs must live-migrate, which medium or massive over-allocation "
                          "makes unsafe (seconds of downtime, failed requests)" for k in ABOVE_LITTLE}),
       ["004:c8-C2", "004:c3-C06"]),
    _r("oa.moderate-ceiling", "vcpu_overallocation", "cluster", "measured",
       "Some extra vCPUs keep all cores usable after migrations, but at most about two vCPUs per core as "
       "the hypervisor counts them (hardware threads): 2.5x and 5x cost clearly more hypervisor CPU.",
       lambda c: True,
       Effect(scores={"moderate": 2.0, "little": 1.5, "none": 0.5, "medium": -1.0, "massive": -2.0}),
       ["004:c6-C1", "004:c3-C02"], ["004:c6-S6.5-04", "004:c3-S3.3-06"]),
    _r("oa.peak-rate-no-massive", "vcpu_overallocation", "cluster", "measured",
       "Hosts that must reach the highest request rate avoid massive over-allocation: at 5x the CPU "
       "ceiling (82 %) came at 5600 req/s, at 2.5x only at 6125 req/s.",
       # CPU-heavy workloads only: the thesis' 5600/6125 req/s were a host's total telecom load,
       # not comparable with another application's per-VM request rate
       lambda c: c.any(cpu_heavy),
       Effect(scores={"massive": -2.0, "medium": -0.5}),
       ["004:c6-C2"]),
    _r("oa.light-migration-massive-ok", "vcpu_overallocation", "cluster", "measured",
       "VMs that migrate but carry little load tolerate massive over-allocation: beyond a moderate "
       "level extra vCPUs no longer worsen downtime or migration time, and leave room for arrivals.",
       lambda c: c.any(lambda w: w.live_migration) and not c.any(lambda w: w.heavily_loaded)
       and not c.any(lambda w: w.cpu_intensity == "medium"),
       Effect(scores={"medium": 1.5, "massive": 1.5}),
       ["004:c8-C1", "004:c8-C3"]),
    _r("oa.migration-time", "vcpu_overallocation", "cluster", "measured",
       "Live-migration time stretches with load, and any over-allocation raises its absolute value.",
       lambda c: c.any(lambda w: w.live_migration),
       Effect(scores={"none": 0.3}, warnings=("any over-allocation lengthens live migrations; schedule "
                                              "them at low load",)),
       ["004:c8-C4"]),
    _r("oa.write-latency-distributed", "vcpu_overallocation", "cluster", "measured",
       "Write-latency sensitive applications on a shared distributed store: more VMs with fewer vCPUs "
       "each and no over-allocation issued more writes.",
       lambda c: shared(c, "distributed") and c.any(lambda w: writes(w) and w.io.intensity != "low"),
       Effect(scores={"none": 1.0}),
       ["004:c6-C3"]),
    _r("oa.realtime-no-massive", "vcpu_overallocation", "cluster", "safety",
       "Hard real-time VMs need their budget every period: their vCPUs are pinned and not over-allocated, "
       "and hosts running them stay at most moderately over-allocated.",
       lambda c: c.any(lambda w: w.realtime is not None),
       Effect(exclude={"medium": "real-time VMs share the hosts; keep at most about 2 vCPUs per core",
                       "massive": "real-time VMs share the hosts; keep at most about 2 vCPUs per core"},
              warnings=("pin real-time VMs' vCPUs to physical cores and never over-allocate them (one core may "
                        "serve several real-time VMs through their budgets)",)),
       ["004:c11-C08", "004:c3-C02"]),
    # ---------------------------------------------------------------- live migration safety
    _r("lb.no-heavy-migration", "load_balancing", "cluster", "safety",
       "Automatic balancing must not move heavily loaded VMs on hosts over-allocated beyond the little "
       "level: their downtime grows to seconds and requests fail.",
       lambda c: c.any(lambda w: w.heavily_loaded and w.live_migration)
       and (c.facts.overallocation_per_thread or 1.0) > OVERALLOCATION["little"] + 1e-9,
       Effect(exclude={lvl: "would migrate heavily loaded VMs on hosts over-allocated beyond the little level"
                       for lvl in ("level 5 (aggressive)", "level 3 (default)")},
              warnings=("exclude heavily loaded VMs from automatic migration (per-VM automation level), or "
                        "migrate them only after their load drops",)),
       ["004:c8-C2", "004:c3-C06"]),
    _r("lb.level5", "load_balancing", "cluster", "measured",
       "For CPU-heavy services the aggressive DRS threshold (level 5) matched the expert in 7 of 15 "
       "cases; levels 1 and 3 mostly did nothing. Watch for back-and-forth moves.",
       lambda c: c.any(lambda w: cpu_heavy(w) or telecom_like(w)),
       Effect(scores={"level 5 (aggressive)": 2.0, "level 3 (default)": -0.5, "level 1 (conservative)": -1.0,
                      "manual (expert plan)": 1.0}),
       ["004:c7-C1"]),
    _r("lb.realtime-few-migrations", "load_balancing", "cluster", "measured",
       "Real-time services suffer from every migration: the aggressive level moves VMs most often and "
       "ping-pongs, so requests fail; prefer planned (expert) moves.",
       lambda c: c.any(lambda w: realtime_service(w) and w.live_migration),
       Effect(scores={"level 5 (aggressive)": -1.5, "manual (expert plan)": 1.0}),
       ["004:c3-C03"]),
    _r("lb.hot-spots", "load_balancing", "cluster", "measured",
       "Hot spots after load shifts or a failed server are not fixed by DRS at levels 1 and 3 (no move "
       "in 23 of 45 cases); have an operator or level 5 act.",
       lambda c: c.any(lambda w: w.live_migration),
       Effect(scores={"level 1 (conservative)": -1.0, "level 3 (default)": -1.0, "manual (expert plan)": 0.5}),
       ["004:c7-C2"]),
    _r("lb.ping-pong", "load_balancing", "cluster", "measured",
       "When VMs on different hosts get busy together DRS ping-pongs without lowering the hot hosts; an "
       "expert plan evened them out.",
       lambda c: sum(w.vms for w in c.workloads if w.heavily_loaded) >= 2,
       Effect(scores={"manual (expert plan)": 1.0}, warnings=("watch for back-and-forth migrations of VMs "
                                                              "that get busy at the same time",)),
       ["004:c7-C3"]),
    _r("lb.maintenance", "load_balancing", "cluster", "measured",
       "Putting a host into maintenance mode is safe with DRS at any threshold.",
       lambda c: c.scenario.hosts.reserve > 0, Effect(), ["004:c7-C4"]),
    _r("lb.new-host", "load_balancing", "cluster", "measured",
       "After adding an empty host check the result: at level 3 DRS left hosts uneven.",
       lambda c: True, Effect(scores={"level 3 (default)": -0.3}), ["004:c7-C5"]),
]
