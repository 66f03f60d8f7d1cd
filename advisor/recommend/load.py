"""How busy a workload keeps the hosts' cores: read by the host count, the targets and load
balancing (here, so that none of them needs another's module)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from advisor.recommend.base import EngineContext

#: busy share of a vCPU per CPU intensity
BUSY = {"low": 0.2, "medium": 0.5, "high": 0.9}
#: a measured busy share falls in the level whose share is nearest: below 0.35 low, below 0.7 medium
LEVEL_BOUNDS = (("low", 0.35), ("medium", 0.7), ("high", 1.0))


def level_of(share: float) -> str:
    """The CPU intensity a measured busy share (0-1) falls in."""
    return next((name for name, top in LEVEL_BOUNDS if share < top), "high")


def busy_share(w) -> float:
    """Share of each vCPU of ``w`` kept busy: the measured ``cpu_busy_share`` (an imported estate)
    while ``cpu_intensity`` is still the level it falls in (a user who changes the intensity
    overrides the measurement), else the intensity's share; real-time vCPUs are pinned: wholly."""
    if w.realtime is not None:
        return 1.0
    measured = getattr(w, "cpu_busy_share", None)
    if measured is not None and level_of(measured) == w.cpu_intensity:
        return float(measured)
    return BUSY[w.cpu_intensity]


def busy_cores(w) -> float:
    """Cores one VM of ``w`` keeps busy: vCPUs x :func:`busy_share`."""
    return w.vcpus * busy_share(w)


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
