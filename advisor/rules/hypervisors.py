"""Rules: Hypervisor and, per containerizable workload, containers or VMs (docs 000, 003, 004)."""

from __future__ import annotations

from advisor.rules.conditions import (
    cpu_heavy,
    database,
    io_heavy,
    telecom_like,
    writes,
)
from advisor.rules.conditions import rule as _r
from advisor.rules.core import Effect, Rule

RULES: list[Rule] = [
    # ---------------------------------------------------------------- hypervisor (cluster)
    _r("hv.open-source-only", "hypervisor", "cluster", "preference",
       "Open-source only: VMware ESXi is proprietary.",
       lambda c: c.scenario.preferences.open_source_only,
       Effect(exclude={"VMware ESXi": "proprietary, and the scenario asks for open source only"})),
    _r("hv.needs-hw-virtualization", "hypervisor", "cluster", "safety",
       "Without hardware virtualization extensions (vmx/svm) only Xen paravirtualization runs guests.",
       lambda c: c.scenario.hosts.cpu.virtualization == "none",
       Effect(exclude={"KVM": "needs vmx/svm CPU extensions, which the hosts lack",
                       "VMware ESXi": "needs vmx/svm CPU extensions, which the hosts lack",
                       "XenServer": "HVM guests need vmx/svm CPU extensions"}, scores={"Xen": 1.0}),
       (), ["000:S3-01"]),
    _r("hv.cpu-heavy-kvm-vmware", "hypervisor", "cluster", "measured",
       "CPU-heavy (telecom-like) services: KVM or VMware ESXi; XenServer burned up to about 80 % host "
       "CPU, replied slowest and could not carry the top load.",
       lambda c: c.any(lambda w: cpu_heavy(w) or telecom_like(w)),
       Effect(scores={"KVM": 2.0, "VMware ESXi": 2.0, "XenServer": -2.0, "Xen": -1.0}),
       ["004:c5-C1", "004:c3-C05"]),
    _r("hv.shared-storage-writes", "hypervisor", "cluster", "measured",
       "Heavy writers on shared storage: VMware ESXi wrote the most to shared storage at every core "
       "count, KVM the least.",
       lambda c: bool(c.scenario.hosts.shared_storage) and c.any(lambda w: io_heavy(w) and writes(w)),
       Effect(scores={"KVM": 1.0, "VMware ESXi": -1.0}),
       ["004:c5-C2"]),
    _r("hv.migration-downtime", "hypervisor", "cluster", "measured",
       "Live migration under load: XenServer paused shortest (0.3 s), KVM under a second, vMotion about "
       "3 s; plan about 2 minutes per migration with any of them.",
       lambda c: c.any(lambda w: w.live_migration),
       Effect(scores={"XenServer": 1.0, "KVM": 0.8, "VMware ESXi": -0.5}),
       ["004:c5-C3"]),
    _r("hv.migration-source-load", "hypervisor", "cluster", "measured",
       "During a live migration source-host CPU climbs by about 6 to 14 points (lowest absolute level "
       "with KVM, highest with XenServer, which also doubled disk writes).",
       lambda c: c.any(lambda w: w.live_migration),
       Effect(scores={"KVM": 0.5, "XenServer": -0.5},
              warnings=("keep about 14 points of CPU headroom on hosts that send live migrations (the host "
                        "count plans it)",)),
       ["004:c5-C4"]),
    _r("hv.read-heavy-db", "hypervisor", "cluster", "measured",
       "Read-heavy databases cost noticeably more CPU and latency on VMware ESXi than on bare metal "
       "or Docker.",
       lambda c: c.any(lambda w: database(w) and w.io.read_share >= 0.6),
       Effect(scores={"VMware ESXi": -0.5}),
       ["004:c9-C3"]),
    _r("hv.old-kvm-vs-xen", "hypervisor", "cluster", "guideline",
       "Data-heavy guests on KVM 83-era stacks wrote and re-read far slower than on Xen 3.4; a recent "
       "KVM (2.6.32.24 era and later) writes about three times faster and is close to Xen with the "
       "cache off. The newer finding supersedes the older one for current releases.",
       lambda c: c.any(io_heavy),
       Effect(scores={"KVM": 0.3},
              warnings=("run a recent KVM release; KVM 83-era stacks wrote far slower than Xen",)),
       ["000:C-04", "000:C-06"]),
    _r("hv.xen-first-writes", "hypervisor", "cluster", "measured",
       "Xen paravirtualized guests lose speed on first-time writes and reads of new files (83 % and "
       "71 % of native); rewrites and re-reads stay near native.",
       lambda c: c.any(lambda w: w.io.intensity != "low"),
       Effect(scores={"Xen": -0.3, "XenServer": -0.3}),
       ["000:C-07"]),
    _r("hv.esxi-start-time", "hypervisor", "cluster", "guideline",
       "Where servers are created and started often (scale-out), VMware ESXi took longer to create and "
       "start a server than KVM and Xen.",
       lambda c: c.scenario.preferences.frequent_provisioning, Effect(scores={"VMware ESXi": -0.5}),
       ["004:c3-C07"]),
    _r("hv.xen-blktap2", "hypervisor", "cluster", "guideline",
       "Upgrading Xen 3.4 to 4.0 with blktap2 brought no disk gains: weigh features, not speed.",
       lambda c: True, Effect(), ["000:C-08"]),
    _r("hv.xen-sequential-small", "hypervisor", "cluster", "measured",
       "Sequential large-file I/O with small requests inside a Xen VM loses about 32 % bandwidth "
       "against bare metal; 1 MB requests close the gap.",
       lambda c: c.any(lambda w: w.io.pattern == "sequential" and w.io.block_size_kib < 1024),
       Effect(scores={"Xen": -0.5, "XenServer": -0.5}),
       ["003:C7"]),
    # ---------------------------------------------------------------- containers (per workload)
    _r("ct.cassandra-containers", "hypervisor", "workload", "measured",
       "Containerizable Cassandra: Docker containers match bare-metal throughput and latency with "
       "little extra CPU; VMs cost up to about 30 points more CPU and 16-29 % lower peak rate.",
       lambda c: c.w.containerizable and database(c.w),
       Effect(scores={"Docker": 3.0}),
       ["004:c9-C1", "004:c3-C04"]),
    _r("ct.stacked-clusters", "hypervisor", "workload", "measured",
       "Several database clusters on the same hosts: containers keep higher peak rates, lower CPU and "
       "far smaller latency growth than VMs as clusters are added.",
       lambda c: c.w.containerizable and database(c.w) and c.facts.vms_per_host >= 2,
       Effect(scores={"Docker": 1.0}),
       ["004:c10-C1", "004:c10-C2"]),
    _r("ct.containerizable", "hypervisor", "workload", "measured",
       "Workloads that could run as containers avoid the hypervisor's CPU overhead as containers.",
       lambda c: c.w.containerizable,
       Effect(scores={"Docker": 1.0}),
       ["004:c9-C1"]),
    _r("ct.isolation", "hypervisor", "workload", "safety",
       "Databases whose data must not be lost stay in hypervisor VMs: containers share the host kernel, "
       "so one kernel fault reaches every container's data; containers nested inside VMs combine the "
       "isolation with container efficiency.",
       lambda c: c.w.containerizable and database(c.w) and c.w.data_loss_tolerance == "none",
       Effect(scores={"VM": 1.0},
              exclude={"Docker": "bare containers share the host kernel, and this database tolerates no data "
                                 "loss (nest the containers inside VMs instead)"},
              warnings=("to keep container efficiency, run the containers inside VMs",)),
       ["004:c9-C2"]),
    _r("ct.preference", "hypervisor", "workload", "preference",
       "The scenario prefers containers where possible.",
       lambda c: c.w.containerizable and c.scenario.preferences.container_friendly,
       Effect(scores={"Docker": 1.0})),
    _r("ct.not-containerizable", "hypervisor", "workload", "safety",
       "A workload not marked containerizable runs in VMs.",
       lambda c: not c.w.containerizable,
       Effect(exclude={"Docker": "the workload is not marked containerizable"})),
]
