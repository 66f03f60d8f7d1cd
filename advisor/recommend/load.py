"""How busy a workload keeps the hosts' cores, and the I/O it asks: read by the host count, the
targets, the storage backend and load balancing (here, so that none of them needs another's module)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from advisor.hardware import TESTBEDS
from advisor.scenario.model import LEVEL_BOUNDS, level_of  # noqa: F401 (declared with the scenario)

if TYPE_CHECKING:
    from advisor.recommend.base import EngineContext

#: busy share of a vCPU per CPU intensity
BUSY = {"low": 0.2, "medium": 0.5, "high": 0.9}


def measured_share(w) -> float | None:
    """The measured ``cpu_busy_share`` of ``w`` (an imported estate) while ``cpu_intensity`` is still
    the level it falls in, else None (the intensity's share stands)."""
    measured = getattr(w, "cpu_busy_share", None)
    if measured is not None and level_of(measured) == w.cpu_intensity:
        return float(measured)
    return None


def busy_share(w) -> float:
    """Share of each vCPU of ``w`` kept busy: the measured ``cpu_busy_share`` (an imported estate)
    while ``cpu_intensity`` is still the level it falls in (a user who changes the intensity
    overrides the measurement), else the intensity's share; real-time vCPUs are pinned: wholly."""
    if w.realtime is not None:
        return 1.0
    measured = measured_share(w)
    return measured if measured is not None else BUSY[w.cpu_intensity]


def busy_cores(w) -> float:
    """Cores one VM of ``w`` keeps busy: vCPUs (on average: a totals workload's VMs hold its vCPU
    total exactly) x :func:`busy_share`."""
    return w.mean_vcpus * busy_share(w)


#: VMs per host behind the telecom CPU rows of doc 004 Table 7.2 (test case 1's start)
TELECOM_VMS_ROW = ("004", "c7-S7.3.2-03")
#: the scenario's hypervisor -> the cpu_utilization family's level
HV_LEVEL = {"VMware ESXi": "vmware esxi", "KVM": "kvm", "XenServer": "xenserver", "Xen": "xen"}


def load_driven(w) -> bool:
    """Whether ``w``'s CPU comes from its request load: the thesis' telecom application with a
    stated ``request_load_rps`` (the only application the documents measured CPU against load for)."""
    return w.realtime is None and bool(w.request_load_rps) and w.application.strip().lower() == "telecom"


def busy_cores_at(ctx: EngineContext, w, idle_share: bool = True, bound: str = "value") -> float:
    """Cores one VM of ``w`` keeps busy in ``ctx``: for a load-driven workload (:func:`load_driven`)
    the CPU its request load costs on the chosen hypervisor (``cpu_utilization``, telecom: a host of
    the testbed's cores at the load of four such VMs, row c7-S7.3.2-03; CPU time is work done) and,
    with ``idle_share``, its quarter of that host's idle floor (:func:`telecom_idle_pct` without),
    else :func:`busy_cores`. ``bound`` ``low``/``high``: at the ends of the model's interval."""
    if not load_driven(w):
        return busy_cores(w)
    hv = HV_LEVEL.get(ctx.facts.hypervisor or "VMware ESXi", "vmware esxi")
    key = ("busy_cores_at", hv, float(w.request_load_rps), idle_share)
    memo = ctx.chosen.setdefault("_memo", {})
    if key not in memo:
        doc, row = TELECOM_VMS_ROW
        per_host = float(ctx.kb.get(ctx.kb.resolve_document(doc), row).value)
        # one VM at L costs what a testbed host of four VMs at L/4 costs above its idle floor, plus
        # its quarter of that floor: the host-level ceiling of the model stays out of one VM's share
        load = float(w.request_load_rps)
        pred = ctx.models.predict("cpu_utilization", [{"hypervisor": hv, "workload": "telecom", "load": q}
                                                      for q in (load / per_host, 0.0)], calibrate=False)
        if pred is None:
            memo[key] = None
        else:
            from advisor.models.cpu import TESTBED_CORES

            idle = float(pred.mean[1])
            share = idle / per_host if idle_share else 0.0
            memo[key] = {b: (float(getattr(pred, a)[0]) * float(pred.mean[0] - idle) / max(float(pred.mean[0]), 1e-9)
                             + share) / 100.0 * TESTBED_CORES["telecom"]
                         for b, a in (("value", "mean"), ("low", "low"), ("high", "high"))}
            memo[("telecom_idle", hv)] = idle
    value = memo[key]
    return busy_cores(w) if value is None else min(float(value[bound]), float(w.vcpus))


def telecom_idle_pct(ctx: EngineContext) -> float:
    """Host CPU (%) of a testbed host whose telecom VMs serve no request (the idle floor of
    ``cpu_utilization``, telecom, on the chosen hypervisor); 0 without the model."""
    hv = HV_LEVEL.get(ctx.facts.hypervisor or "VMware ESXi", "vmware esxi")
    memo = ctx.chosen.setdefault("_memo", {})
    if ("telecom_idle", hv) not in memo:
        pred = ctx.models.predict("cpu_utilization", [{"hypervisor": hv, "workload": "telecom", "load": 0.0}],
                                  calibrate=False)
        memo[("telecom_idle", hv)] = 0.0 if pred is None else float(pred.mean[0])
    return float(memo[("telecom_idle", hv)])


# --- the one busy-core model of the host count and the over-allocation card -----------------------
#: the thesis' hosts (doc 004 c7-TB1 = c8-TB1: 12 cores at 2.0 GHz, VMware ESXi): the telecom CPU
#: per request was measured on them, and the busy shares per CPU intensity are read on a core of
#: the same clock
CPU_TESTBED = TESTBEDS["overallocation_overhead"]


def request_cores(ctx: EngineContext, rps: float, bound: str = "value") -> float | None:
    """Testbed cores one VM serving ``rps`` requests per second keeps busy, without any idle floor:
    the thesis' telecom CPU per request (``cpu_utilization``, telecom, the chosen hypervisor; the
    only application the documents measured CPU against load for), read as :func:`busy_cores_at`
    reads it (a testbed host of four VMs at a quarter of the load each). None without the model."""
    from advisor.models.cpu import TESTBED_CORES

    hv = HV_LEVEL.get(ctx.facts.hypervisor or "VMware ESXi", "vmware esxi")
    key = ("request_cores", hv, float(rps))
    memo = ctx.chosen.setdefault("_memo", {})
    if key not in memo:
        doc, row = TELECOM_VMS_ROW
        per_host = float(ctx.kb.get(ctx.kb.resolve_document(doc), row).value)
        pred = ctx.models.predict("cpu_utilization", [{"hypervisor": hv, "workload": "telecom", "load": q}
                                                      for q in (rps / per_host, 0.0)], calibrate=False)
        memo[key] = None if pred is None else {
            b: float(getattr(pred, a)[0]) * float(pred.mean[0] - pred.mean[1]) / max(float(pred.mean[0]), 1e-9)
            / 100.0 * TESTBED_CORES["telecom"]
            for b, a in (("value", "mean"), ("low", "low"), ("high", "high"))}
    value = memo[key]
    return None if value is None else float(value[bound])


#: the chapter 7 balancing tests' VMs (doc 004 Section 7.3.1: 10 vCPUs each): their CPU per request
#: is the ``cpu_utilization`` family's (:func:`busy_cores_at`)
CH7_VCPUS_ROW = ("004", "c7-S7.3.1-15")


def overallocation_request_cores(ctx: EngineContext, w, bound: str = "value") -> float | None:
    """Testbed cores one telecom VM of ``w`` keeps busy at its request load when its VMs are smaller
    than the chapter 7 balancing tests' (:data:`CH7_VCPUS_ROW`): the thesis' over-allocation tests
    (``overallocation_overhead``, doc 004 Sections 8.3.3 and 8.4.1: five VMs per host on a pool of
    20 vCPUs, CPU in proportion to the load, more vCPUs per VM costing more for the same work) at
    the level a VM of its vCPUs was (vCPUs x 5 / 20: 5 vCPUs is little, 1.25). The chapter 8 setup
    (10 VMs of 5 vCPUs at 1,000-1,900 req/s) ran on 2 hosts at 50-68 % CPU, which this cost gives
    back; chapter 7's VMs cost about 1.6x more per request, and larger VMs keep that cost. None
    for larger VMs or without the model."""
    doc, row = CH7_VCPUS_ROW
    if w.vcpus >= float(ctx.kb.get(ctx.kb.resolve_document(doc), row).value):
        return None
    hv = ctx.facts.hypervisor or "VMware ESXi"
    rps = float(w.request_load_rps)
    key = ("overallocation_request_cores", hv, int(w.vcpus), rps)
    memo = ctx.chosen.setdefault("_memo", {})
    if key not in memo:
        from advisor.models.migration import chapter8_config

        cfg = chapter8_config(ctx.kb)
        ratio = cfg["ratio"]["little"] * w.vcpus / CH8_LITTLE_VCPUS
        pred = ctx.models.predict("overallocation_overhead", [{"overallocation_ratio": ratio, "load": rps,
                                                               "hypervisor": hv}], calibrate=False)
        memo[key] = None if pred is None else {
            b: float(getattr(pred, a)[0]) / 100.0 * CPU_TESTBED.need("cores")
            for b, a in (("value", "mean"), ("low", "low"), ("high", "high"))}
    value = memo[key]
    return None if value is None else float(value[bound])


#: vCPUs of a chapter 8 VM at the little level (doc 004 Table 8.2, Section 8.3.3)
CH8_LITTLE_VCPUS = 5.0


def demand_ghz(ctx: EngineContext, w, bound: str = "value") -> float:
    """Core-GHz one VM of ``w`` keeps busy on the scenario's hosts: the one busy-core model of the
    host count (its CPU load and ``host_cpu_utilization``, the ``max_host_cpu_pct`` target) and of
    the over-allocation card's ``host_cpu_utilization``.

    * a VM of the thesis' telecom application with a request load (:func:`load_driven`): what that
      load costs on the thesis' hosts at the chosen over-allocation level
      (:func:`overallocation_request_cores`), before the level is chosen the chapter 7 cost with its
      share of the hosts' idle floor (:func:`busy_cores_at`);
    * any other VM: its own share (:func:`busy_share` of each vCPU, read on a core of the thesis'
      2.0 GHz, :data:`CPU_TESTBED`: a medium VM of 2 vCPUs asks 2 x 0.5 x 2.0 = 2 core-GHz; a share
      measured on an imported estate's hosts, which the imported scenario's hosts are, on the
      scenario's own clock), or,
      when larger, what its stated ``request_load_rps`` costs at the thesis' CPU per request
      (:func:`request_cores`);
    * real-time vCPUs are pinned: each takes a whole core at any clock.

    Testbed cores count at the testbed's clock (core-GHz); at most the VM's vCPUs on the scenario's
    cores (a VM never keeps more cores busy than it has)."""
    ghz = max(float(ctx.scenario.hosts.cpu.ghz), 1e-9)
    ref = CPU_TESTBED.need("ghz")
    if w.realtime is not None:
        return w.vcpus * ghz
    if load_driven(w):
        cores = overallocation_request_cores(ctx, w, bound)
        own = (busy_cores_at(ctx, w, bound=bound) if cores is None else cores) * ref
    else:
        own = busy_share(w) * w.mean_vcpus * (ghz if measured_share(w) is not None else ref)
        if w.request_load_rps:
            cores = request_cores(ctx, float(w.request_load_rps), bound)
            if cores is not None:
                own = max(own, cores * ref)
    return min(own, w.vcpus * ghz)


def vm_busy_cores(ctx: EngineContext, w, bound: str = "value") -> float:
    """Cores of the scenario's hosts one VM of ``w`` keeps busy: :func:`demand_ghz` over the clock."""
    return demand_ghz(ctx, w, bound) / max(float(ctx.scenario.hosts.cpu.ghz), 1e-9)


def host_cpu_pct(ctx: EngineContext, active: int, bound: str = "value") -> float:
    """Host CPU (%) on the busiest of ``active`` hosts by :func:`vm_busy_cores`: the VMs' busy cores
    spread evenly, or one whole VM when it is larger; at most 100 % (a host's cores deliver no more:
    :func:`host_cpu_demand_pct` is what its VMs ask). The host count's ``host_cpu_utilization``,
    which the over-allocation card shows for its chosen level too."""
    return min(100.0, host_cpu_demand_pct(ctx, active, bound))


def host_cpu_demand_pct(ctx: EngineContext, active: int, bound: str = "value") -> float:
    """What the VMs of the busiest of ``active`` hosts ask of its cores, % (above 100: more than the
    host delivers, the host runs saturated)."""
    cores = max(ctx.scenario.hosts.cpu.cores, 1)
    total, largest = ctx.once(("host_cpu_pct", bound, ctx.facts.hypervisor), lambda: _busy_cores(ctx, bound))
    return 100.0 * max(total / (max(active, 1) * cores), largest / cores)


def _busy_cores(ctx: EngineContext, bound: str) -> tuple[float, float]:
    """(busy cores of every VM together, of the busiest VM) by :func:`vm_busy_cores`: they depend
    on the scenario and the chosen hypervisor, not on the host count the callers try."""
    busy = [(vm_busy_cores(ctx, w, bound), w.vms) for w in ctx.scenario.workloads]
    return sum(b * n for b, n in busy), max((b for b, _ in busy), default=0.0)


def request_driven(ctx: EngineContext) -> bool:
    """Whether some workload's busy cores come from its request load (then the host CPU figure has
    the model's interval)."""
    return any(demand_ghz(ctx, w, "low") != demand_ghz(ctx, w, "high") for w in ctx.scenario.workloads)


#: random IOPS a VM asks per I/O intensity when the workload does not state ``io.iops``
IOPS_PER_VM = {"low": 50.0, "medium": 200.0, "high": 1000.0}


def vm_iops(w) -> float:
    """IOPS one VM of ``w`` asks: its ``io.iops``, else the figure of its I/O intensity."""
    return w.io.iops if w.io.iops is not None else IOPS_PER_VM[w.io.intensity]
