"""The documents' conclusions as rules: condition, effect, citation.

Every conclusion of the five documents that bears on a decision is encoded here as a
:class:`Rule` (``RULES``). A rule has a condition (a predicate on a :class:`RuleContext`: the
scenario, one workload for per-workload decisions, and the derived :class:`Facts`), an
effect (score deltas per choice, hard exclusions with a reason, warnings) and citations:
the conclusions it encodes (``"001:C1"``, resolved through the knowledge base to the
conclusion's locator and its evidence rows) and any extra measurement rows
(``"004:c6-S6.4-08"``).

Kinds order conflicts: ``safety`` rules exclude choices and always win; ``preference`` rules
carry what the user asked for; ``measured`` rules rest on the documents' measurements and
weigh more than ``guideline`` rules (advice the documents give or cite without measuring).
:func:`evaluate` applies the rules of one decision and returns an :class:`Outcome` with the
scores, exclusions, warnings, fired rules and the conflicts between them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from advisor.scenario import Scenario, Workload

KIND_ORDER = {"safety": 0, "preference": 1, "measured": 2, "guideline": 3}


@dataclass
class Facts:
    """Quantities derived from the scenario and from decisions already taken.

    ``vms_per_host`` counts all VMs over the active hosts (planned minus reserve, or the
    recommended count once known); ``page_cache_per_vm_gib`` is the host RAM left after the
    guests' RAM, divided by the VMs on the host; ``io_heavy_*`` count VMs of high I/O intensity.
    """

    active_hosts: int = 1
    vms_per_host: float = 1.0
    page_cache_per_vm_gib: float = 0.0
    io_heavy_vms: int = 0
    io_heavy_vms_per_host: float = 0.0
    cpu_heavy_vms_per_host: float = 0.0
    hypervisor: str | None = None
    overallocation_ratio: float | None = None  # vCPUs per physical core
    overallocation_per_thread: float | None = None  # vCPUs per hardware thread: the thesis' unit
    storage_backend: str | None = None

    @classmethod
    def of(cls, scenario: Scenario, active_hosts: int | None = None) -> Facts:
        """Facts of ``scenario`` on ``active_hosts`` (default: planned hosts minus the reserve)."""
        facts = cls()
        facts.set_hosts(scenario, active_hosts or scenario.hosts.count - scenario.hosts.reserve)
        return facts

    def set_hosts(self, scenario: Scenario, active_hosts: int) -> None:
        """Recompute the per-host quantities for ``active_hosts`` hosts carrying the VMs."""
        n = max(1, int(active_hosts))
        self.active_hosts = n
        vms = scenario.total_vms
        self.vms_per_host = max(1.0, vms / n)
        guest_ram = sum(w.vms * w.ram_gib for w in scenario.workloads) / n
        self.page_cache_per_vm_gib = max(scenario.hosts.ram_gib - guest_ram, 0.0) / self.vms_per_host
        self.io_heavy_vms = sum(w.vms for w in scenario.workloads if w.io.intensity == "high")
        self.io_heavy_vms_per_host = self.io_heavy_vms / n
        self.cpu_heavy_vms_per_host = sum(w.vms for w in scenario.workloads if w.cpu_intensity == "high") / n


@dataclass
class RuleContext:
    """What a condition sees: the scenario, the workload (per-workload decisions) and facts."""

    scenario: Scenario
    facts: Facts
    workload: Workload | None = None

    @property
    def w(self) -> Workload:
        assert self.workload is not None
        return self.workload

    @property
    def workloads(self) -> list[Workload]:
        return self.scenario.workloads

    def any(self, pred: Callable[[Workload], bool]) -> bool:
        """True when some workload satisfies ``pred``."""
        return any(pred(w) for w in self.scenario.workloads)


@dataclass(frozen=True)
class Effect:
    """Score deltas per choice, hard exclusions (choice -> reason) and warnings."""

    scores: dict[str, float] = field(default_factory=dict)
    exclude: dict[str, str] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rule:
    """One conclusion (or safety constraint) as a rule."""

    id: str
    decision: str
    scope: str  # "cluster" or "workload"
    kind: str  # safety | preference | measured | guideline
    text: str  # the rule in the project's words
    condition: Callable[[RuleContext], bool]
    effect: Effect | Callable[[RuleContext], Effect]
    conclusions: tuple[str, ...] = ()  # "doc:conclusion-id"
    evidence: tuple[str, ...] = ()  # extra "doc:measurement-key"

    def effect_for(self, ctx: RuleContext) -> Effect:
        return self.effect(ctx) if callable(self.effect) else self.effect

    def favourite(self, ctx: RuleContext) -> str | None:
        """The choice this rule pushes most (largest positive delta), if any."""
        eff = self.effect_for(ctx)
        best = max(eff.scores.items(), key=lambda kv: kv[1], default=None)
        return best[0] if best and best[1] > 0 else None


@dataclass
class Outcome:
    """The rules of one decision applied to one context."""

    scores: dict[str, float]
    excluded: dict[str, list[tuple[Rule, str]]]
    warnings: list[str]
    fired: list[Rule]
    ctx: RuleContext

    def conflicts(self, winner: str) -> list[str]:
        """Sentences naming the fired rules whose favourite lost, and why it lost (rules that lost
        the same way are named together)."""
        groups: dict[tuple, list[str]] = {}
        for rule in self.fired:
            fav = rule.favourite(self.ctx)
            if fav is None or fav == winner:
                continue
            scores = rule.effect_for(self.ctx).scores
            if scores.get(winner, float("-inf")) >= scores[fav] - 1e-12:
                continue  # the rule rates the winner as high as its favourite: no conflict
            if fav in self.excluded:
                by = self.excluded[fav][0]
                key = (fav, f"{by[0].id} ({by[0].kind}) excludes it: {by[1]}")
            else:
                backers = [r.id for r in self.fired if r.favourite(self.ctx) == winner]
                key = (fav, f"outweighed by {', '.join(backers)}" if backers else "outweighed by the expected "
                                                                                  "performance")
            groups.setdefault(key, []).append(f"{rule.id} ({rule.kind})" if fav not in self.excluded else rule.id)
        out = []
        for (fav, why), ids in groups.items():
            verb = "favours" if len(ids) == 1 else "favour"
            joiner = "; " if fav not in self.excluded else ", but "
            out.append(f"{', '.join(ids)} {verb} {fav}{joiner}{why}")
        return out


def evaluate(decision: str, ctx: RuleContext, choices: Iterable[str],
             rules: Iterable[Rule] | None = None) -> Outcome:
    """Apply every rule of ``decision`` whose condition holds in ``ctx`` to ``choices``."""
    choices = list(choices)
    scores = dict.fromkeys(choices, 0.0)
    excluded: dict[str, list[tuple[Rule, str]]] = {}
    warnings: list[str] = []
    fired: list[Rule] = []
    scope = "workload" if ctx.workload is not None else "cluster"
    candidates = _by_decision(decision) if rules is None else sorted(
        (r for r in rules if r.decision == decision), key=lambda r: KIND_ORDER[r.kind])
    for rule in candidates:
        if rule.scope != scope or not rule.condition(ctx):
            continue
        eff = rule.effect_for(ctx)
        fired.append(rule)
        for choice, delta in eff.scores.items():
            if choice in scores:
                scores[choice] += delta
        for choice, reason in eff.exclude.items():
            if choice in scores:
                excluded.setdefault(choice, []).append((rule, reason))
        warnings += [f"{w} [{rule.id}]" for w in eff.warnings]
    return Outcome(scores, excluded, warnings, fired, ctx)


_INDEX: dict[str, list[Rule]] = {}


def _by_decision(decision: str) -> list[Rule]:
    """The rules of ``decision`` in kind order (safety first), indexed once."""
    if not _INDEX or sum(map(len, _INDEX.values())) != len(RULES):
        _INDEX.clear()
        for r in sorted(RULES, key=lambda r: KIND_ORDER[r.kind]):
            _INDEX.setdefault(r.decision, []).append(r)
    return _INDEX.get(decision, [])


def rules_for(decision: str) -> list[Rule]:
    """The rules of one decision, in table order."""
    return [r for r in RULES if r.decision == decision]


# --- helpers for conditions ----------------------------------------------------------------
def _writes(w: Workload) -> bool:
    return w.io.read_share < 0.95


def _any_writes(w: Workload) -> bool:
    """The workload writes at all (what data-integrity rules need)."""
    return w.io.read_share < 1.0


def _io_heavy(w: Workload) -> bool:
    return w.io.intensity == "high"


def _cpu_heavy(w: Workload) -> bool:
    return w.cpu_intensity == "high"


def _db(w: Workload) -> bool:
    return any(k in w.application.lower() for k in ("cassandra", "database", "nosql", "db"))


def _telecom(w: Workload) -> bool:
    return "telecom" in w.application.lower()


def _telecom_like(w: Workload) -> bool:
    """Like the thesis' telecom application: that application, or a CPU-heavy real-time service."""
    return _telecom(w) or (w.realtime is not None and _cpu_heavy(w))


def _realtime_service(w: Workload) -> bool:
    """A service whose requests suffer from every pause: real-time tasks or a telecom application."""
    return w.realtime is not None or _telecom(w)


def _shared(ctx: RuleContext, kind: str) -> bool:
    return any(s.kind == kind for s in ctx.scenario.hosts.shared_storage)


def _slow_shared_link(ctx: RuleContext) -> float:
    links = [s.network_gbps for s in ctx.scenario.hosts.shared_storage if s.kind in ("nfs", "iscsi")]
    return min(links) if links else 0.0


def _r(id, decision, scope, kind, text, condition, effect, conclusions=(), evidence=()) -> Rule:
    return Rule(id, decision, scope, kind, text, condition, effect, tuple(conclusions), tuple(evidence))


HV = ("KVM", "VMware ESXi", "XenServer", "Xen")
CACHE = ("writeback", "writethrough", "none", "directsync", "unsafe")
#: modes that keep guest data in the host page cache (not migration-safe)
HOST_CACHED = ("writeback", "writethrough", "unsafe")

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
       lambda c: c.w.data_loss_tolerance == "none" and _any_writes(c.w),
       Effect(scores={"writethrough": 2.0, "directsync": 1.5},
              exclude={"writeback": "buffers writes in host RAM: a host crash loses them, and this "
                                    "workload tolerates no data loss",
                       "unsafe": "ignores guest flushes: a host crash loses data",
                       "none": "reports a write done once it is in the disk's volatile write cache: doc 001 "
                               "says none does not provide total data integrity, and this workload tolerates "
                               "no data loss"}),
       ["001:C3", "001:C1"]),
    _r("cache.migration-and-no-loss", "cache_mode", "workload", "safety",
       "A workload that must live-migrate and may lose no data needs a mode that both bypasses the host "
       "page cache and completes writes only on stable storage: directsync (write-through semantics without "
       "the host cache). The documents did not measure it: its figures are estimated from none and "
       "writethrough.",
       lambda c: c.w.live_migration and c.w.data_loss_tolerance == "none" and _any_writes(c.w),
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
       lambda c: c.w.data_loss_tolerance == "seconds" and _writes(c.w),
       Effect(scores={"none": 1.5, "writethrough": -0.5}),
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
       lambda c: _io_heavy(c.w) and c.w.io.read_share <= 0.5,
       Effect(scores={"none": 1.0, "writethrough": -1.0}),
       ["000:C-05"]),
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
       lambda c: c.any(lambda w: _cpu_heavy(w) or _telecom_like(w)),
       Effect(scores={"KVM": 2.0, "VMware ESXi": 2.0, "XenServer": -2.0, "Xen": -1.0}),
       ["004:c5-C1", "004:c3-C05"]),
    _r("hv.shared-storage-writes", "hypervisor", "cluster", "measured",
       "Heavy writers on shared storage: VMware ESXi wrote the most to shared storage at every core "
       "count, KVM the least.",
       lambda c: bool(c.scenario.hosts.shared_storage) and c.any(lambda w: _io_heavy(w) and _writes(w)),
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
       lambda c: c.any(lambda w: _db(w) and w.io.read_share >= 0.6),
       Effect(scores={"VMware ESXi": -0.5}),
       ["004:c9-C3"]),
    _r("hv.old-kvm-vs-xen", "hypervisor", "cluster", "guideline",
       "Data-heavy guests on KVM 83-era stacks wrote and re-read far slower than on Xen 3.4; a recent "
       "KVM (2.6.32.24 era and later) writes about three times faster and is close to Xen with the "
       "cache off. The newer finding supersedes the older one for current releases.",
       lambda c: c.any(_io_heavy),
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
       lambda c: c.w.containerizable and _db(c.w),
       Effect(scores={"Docker": 3.0}),
       ["004:c9-C1", "004:c3-C04"]),
    _r("ct.stacked-clusters", "hypervisor", "workload", "measured",
       "Several database clusters on the same hosts: containers keep higher peak rates, lower CPU and "
       "far smaller latency growth than VMs as clusters are added.",
       lambda c: c.w.containerizable and _db(c.w) and c.facts.vms_per_host >= 2,
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
       lambda c: c.w.containerizable and _db(c.w) and c.w.data_loss_tolerance == "none",
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

#: vCPU over-allocation levels: name -> vCPUs per hardware thread (logical CPU), the thesis' unit
#: (chapters 6 and 8 allocate 25, 50 and 100 vCPUs to a pool of 20 logical CPUs of hosts with two
#: 6-core hyper-threaded CPUs, Sections 6.3.1 and 8.3.1, and call them "cores": little 1.25, medium
#: 2.5, massive 5; chapter 6 also ran 2). Per physical core: times the threads per core.
OVERALLOCATION = {"none": 1.0, "little": 1.25, "moderate": 2.0, "medium": 2.5, "massive": 5.0}
_ABOVE_LITTLE = ("moderate", "medium", "massive")
#: disk_placement choices
DP_SIZED = "partition-backed, sized to the footprint"
DP_OUTER = "partition-backed, outer zone, sized to the footprint"
DP_FILE = "file-backed image"
DP_FILE_SIZED = "image file, sized to the footprint"

RULES += [
    # ---------------------------------------------------------------- vcpu_overallocation
    _r("oa.heavy-migration-low-ratio", "vcpu_overallocation", "cluster", "safety",
       "Heavily loaded VMs that must live-migrate are not run under medium or massive over-allocation: "
       "downtime grows to several seconds and requests fail; migrate only with little over-allocation.",
       lambda c: c.any(lambda w: w.live_migration and w.heavily_loaded),
       Effect(scores={"little": 1.0, "none": 0.5},
              exclude={k: "heavily loaded VMs must live-migrate, which medium or massive over-allocation "
                          "makes unsafe (seconds of downtime, failed requests)" for k in _ABOVE_LITTLE}),
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
       lambda c: c.any(_cpu_heavy),
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
       lambda c: _shared(c, "distributed") and c.any(lambda w: _writes(w) and w.io.intensity != "low"),
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
       lambda c: c.any(lambda w: _cpu_heavy(w) or _telecom_like(w)),
       Effect(scores={"level 5 (aggressive)": 2.0, "level 3 (default)": -0.5, "level 1 (conservative)": -1.0,
                      "manual (expert plan)": 1.0}),
       ["004:c7-C1"]),
    _r("lb.realtime-few-migrations", "load_balancing", "cluster", "measured",
       "Real-time services suffer from every migration: the aggressive level moves VMs most often and "
       "ping-pongs, so requests fail; prefer planned (expert) moves.",
       lambda c: c.any(lambda w: _realtime_service(w) and w.live_migration),
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
    # ---------------------------------------------------------------- storage_backend (cluster)
    _r("sb.local-disk-io-heavy", "storage_backend", "cluster", "measured",
       "VMs writing heavily next to each other: one I/O-heavy neighbour already keeps a local disk about "
       "90 % busy and slows boot 3x (15x with three); use shared storage or a fast array.",
       lambda c: c.facts.io_heavy_vms_per_host >= 1,
       lambda c: Effect(scores={"local_disk": (-2.0 if _single_slow_disk(c) else -0.5)
                                * min(c.facts.io_heavy_vms_per_host, 3.0) / 1.5}),
       ["002:C1"]),
    _r("sb.nfs-root-at-scale", "storage_backend", "cluster", "measured",
       "Avoid the guest root file system over NFS at scale: on a 1 Gb/s link it saturates the server "
       "network at about 4 I/O-heavy VMs and boot grows past 240 s; prefer NFS image files or iSCSI.",
       lambda c: _shared(c, "nfs") and c.facts.io_heavy_vms > 4 * max(_slow_shared_link(c), 1.0),
       Effect(scores={"nfs_root": -3.0, "nfs_file": 1.0, "iscsi": 0.5}),
       ["002:C2"]),
    _r("sb.nfs-file-vs-iscsi", "storage_backend", "cluster", "measured",
       "NFS image files booted about 20 s faster than iSCSI at low load; both scaled to 16 I/O-heavy VMs.",
       lambda c: _shared(c, "nfs") and _shared(c, "iscsi"),
       Effect(scores={"nfs_file": 0.5}),
       ["002:C3"]),
    _r("sb.link-capacity", "storage_backend", "cluster", "measured",
       "One NFS image server behind a 1 Gb/s link serves roughly 16 I/O-heavy VMs; the link, not the "
       "server CPU, is the limit.",
       lambda c: bool(c.scenario.hosts.shared_storage)
       and c.facts.io_heavy_vms > 16 * max(_slow_shared_link(c), 0.1),
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
       lambda c: _shared(c, "nfs"),
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
       lambda c: _shared(c, "distributed"),
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
    # ---------------------------------------------------------------- disk_placement (per workload)
    _r("dp.thin", "disk_placement", "workload", "measured",
       "Size virtual disks close to the data footprint: an oversized disk scattered data and cut "
       "throughput from 2.1 to 1.3 MB/s.",
       lambda c: True,
       lambda c: Effect(scores={DP_SIZED: 2.0, DP_FILE_SIZED: 2.0, DP_FILE: -1.0} if _oversized(c.w)
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
       lambda c: c.w.vms >= 2 and _images_on_local_spindles(c),
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
       lambda c: _telecom_like(c.w) and c.w.vcpus >= 12,
       Effect(warnings=("split the service into VMs of about 6 vCPUs",)), ["004:c5-C5"]),
    _r("dp.stacked-read-clusters", "disk_placement", "workload", "measured",
       "Do not stack many VM-based read-heavy database clusters on the same hosts: read latency rose up "
       "to about 60 % with four clusters.",
       lambda c: _db(c.w) and c.w.io.read_share >= 0.6 and c.w.vms >= 2,
       Effect(warnings=("spread read-heavy database VMs over hosts",)), ["004:c10-C2"]),
    # ---------------------------------------------------------------- cpu_governor (cluster)
    _r("gov.io-bound-performance", "cpu_governor", "cluster", "measured",
       "I/O-bound VMs on mostly idle hosts with frequency scaling: ondemand drops the clock (1400 vs 2400 "
       "MHz) and serves fewer requests (4756 vs about 5166/s); use the performance governor.",
       lambda c: c.any(lambda w: w.io.intensity != "low") and c.scenario.hosts.cpu.frequency_scaling is not False
       and c.facts.cpu_heavy_vms_per_host < c.scenario.hosts.cpu.cores / 2,
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
       lambda c: _shared(c, "nfs") and c.facts.io_heavy_vms > 0,
       lambda c: Effect(warnings=(
           f"{c.facts.io_heavy_vms} I/O-heavy VMs exceed the roughly 16 per Gb/s that the NFS server link "
           f"({_slow_shared_link(c):g} Gb/s) serves: add links or servers",) if c.facts.io_heavy_vms
           > 16 * max(_slow_shared_link(c), 0.1) else ()),
       ["002:C4"]),
    _r("hc.load-shifts", "host_count", "cluster", "measured",
       "Size for load shifts: three hosts could not carry 700 req/s per 10-vCPU VM when two VMs tripled "
       "their traffic; 600 req/s was the usable level.",
       lambda c: c.any(lambda w: _telecom_like(w)),
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
       lambda c: sum(1 for w in c.workloads if _db(w)) >= 2,
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


def _single_slow_disk(c: RuleContext) -> bool:
    disks = c.scenario.hosts.disks
    return not disks or (sum(d.count for d in disks) <= 1) or all(d.kind == "hdd" for d in disks)


def _images_on_local_spindles(c: RuleContext) -> bool:
    """Images on the hosts' own hard disks (where zones and seek distances exist)."""
    return c.facts.storage_backend in (None, "local_disk") and any(d.kind == "hdd" for d in c.scenario.hosts.disks)


def _oversized(w: Workload) -> bool:
    return bool(w.io.footprint_gb and w.io.disk_gb and w.io.disk_gb > 2 * w.io.footprint_gb)


def referenced_conclusions() -> set[str]:
    """Every ``doc:conclusion`` some rule encodes."""
    return {ref for r in RULES for ref in r.conclusions}
