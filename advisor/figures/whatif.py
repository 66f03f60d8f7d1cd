"""What-if inputs: which inputs a workshop moves, where they start (the advice's own numbers), how
they change a scenario for a new advice, and what the charts read at them.

An input is of one of three kinds: a *scenario* input changes the scenario (VMs, planned hosts,
image size, real-time share): the advice is recomputed for it and it can be applied to the
scenario; a *chart* input only moves the charts' readings (over-allocation, request load); a
*derived* input follows the what-if advice (the VMs per host of its hosts) and has no slider.

A front end keeps one :class:`WhatIf` per open scenario (every view of it shares it): it draws
the charts of an input with :func:`advisor.figures.charts.build_charts` (fast: model sweeps
only) and asks for a new advice on :meth:`WhatIf.scenario_data`.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass

import numpy as np

from advisor.growth import RATES
from advisor.scenario.fields import TOTALS, TYPICAL_RAM_GIB, TYPICAL_VCPUS
from advisor.scenario.totals import size_totals

#: the growth rates of a growth section (and of a workload's own), as the scenario spells them
RATE_KEYS = tuple(f"{r}_pct_per_year" for r in RATES)
RATE_LABELS = {"cpu": "CPU", "ram": "RAM", "storage": "storage"}


@dataclass(frozen=True)
class Input:
    """One what-if input: its label and unit, the range a slider offers and the charts it moves."""

    name: str
    label: str
    unit: str
    minimum: float
    maximum: float
    step: float
    charts: tuple[str, ...]
    #: ``scenario`` (changes the scenario), ``chart`` (moves readings only) or ``derived``
    kind: str = "chart"
    tip: str = ""


#: the inputs, in the order a front end lists them
INPUTS: dict[str, Input] = {i.name: i for i in (
    Input("vms", "VMs (all groups)", "VMs", 1.0, 200.0, 1.0, (), "scenario",
          "Every workload group grows or shrinks in proportion; the host count follows"),
    Input("hosts", "Hosts planned", "hosts", 1.0, 32.0, 1.0, (), "scenario",
          "The hosts the cluster has (the advice says whether they suffice)"),
    Input("image_gb", "Image size", "GB", 0.5, 50.0, 0.5, ("image_transfer",), "scenario",
          "The size of every VM image to propagate"),
    Input("share", "Real-time VM share", "of a core", 0.05, 1.0, 0.01, ("realtime",), "scenario",
          "The share of a core each real-time VM gets (never below its tasks' utilization)"),
    Input("overallocation", "Over-allocation", "vCPUs/core", 1.0, 6.0, 0.25,
          ("overallocation_overhead", "migration_downtime"), "chart",
          "Read the CPU overhead and migration downtime at another ratio"),
    Input("load_total", "Request load", "req/s", 5000.0, 100000.0, 1000.0, ("cpu_utilization",), "chart",
          "Read the host CPU at another request rate"),
    Input("growth_shift", "Growth rates, shifted by", "%/year", -100.0, 100.0, 1.0, ("timeline",), "scenario",
          "Added to every growth rate of the scenario (CPU, RAM and storage; the growth section's and each "
          "workload's own, so a workload that grows faster keeps growing faster); a rate never drops below 0 "
          "by it. 0: the scenario's rates. A scenario without growth gets a 5-year horizon"),
    Input("vms_per_host", "VMs per host", "VMs", 1.0, 64.0, 1.0, ("cache_mode",), "derived",
          "The VMs per host of the what-if advice's hosts"),
)}


def inputs_of(kind: str) -> tuple[str, ...]:
    """The names of the inputs of ``kind`` (``scenario``, ``chart`` or ``derived``), in order."""
    return tuple(n for n, i in INPUTS.items() if i.kind == kind)

#: what each chart reads at its input: chart key -> (input, text before the readings)
READINGS = (("cache_mode", "vms_per_host", "per VM at {x:g} VMs/host"),
            ("overallocation_overhead", "overallocation", "CPU overhead at {x:g}:1"),
            ("migration_downtime", "overallocation", "migration downtime at {x:g}:1"),
            ("image_transfer", "image_gb", "to move {x:g} GB"))


def default_inputs(advice, scenario=None) -> dict[str, float]:
    """The inputs where the advice is: its VMs per host (on the recommended hosts), its
    over-allocation ratio, the real-time share it analysed, the largest image, a mid load."""
    scenario = advice.scenario if advice is not None else scenario
    out: dict[str, float] = {"load_total": 40000.0}
    if scenario is None:
        return out
    out["vms"] = float(scenario.total_vms)
    out["hosts"] = float(scenario.hosts.count)
    if advice is not None and advice.facts is not None:
        out["vms_per_host"] = float(advice.facts.vms_per_host)
    else:
        out["vms_per_host"] = max(1.0, scenario.total_vms / max(1, scenario.hosts.count - scenario.hosts.reserve))
    rec = advice.find("vcpu_overallocation") if advice is not None else None
    out["overallocation"] = float(rec.value) if rec is not None and rec.value else 1.5
    rt = next((w for w in scenario.workloads if w.realtime and w.realtime.tasks), None)
    if rt is not None:
        share = None
        rt_rec = advice.find("vm_period_budget", f"workload:{rt.name}") if advice is not None else None
        if rt_rec is not None and "share" in rt_rec.expected:
            share = rt_rec.expected["share"].value
        out["share"] = float(share or rt.realtime.share or min(1.0, rt.realtime.utilization * 1.5))
    else:
        out["share"] = 0.5
    out["image_gb"] = float(max((w.image_size_gb for w in scenario.workloads), default=10.0))
    out["growth_shift"] = 0.0
    return out


def apply_inputs(data: dict, inputs: dict) -> dict:
    """The scenario data with the what-if inputs applied: every workload group scaled so that all
    groups together have ``vms`` VMs (each at least one), ``hosts`` planned hosts (or hosts to
    carry ``vms_per_host``), every image at ``image_gb``, every real-time VM at ``share`` (never
    below its task utilization), every growth rate shifted by ``growth_shift`` (:func:`shift_growth`)."""
    out = copy.deepcopy(data)
    if inputs.get("vms"):
        scale_vms(out, int(round(float(inputs["vms"]))))
    total = sum(group_vms(w) for w in out.get("workloads", []) if isinstance(w, dict))
    hosts = out.setdefault("hosts", {})
    if inputs.get("hosts"):
        hosts["count"] = max(1, int(round(float(inputs["hosts"]))))
    elif inputs.get("vms_per_host"):
        hosts["count"] = max(1, math.ceil(total / float(inputs["vms_per_host"]))) + int(hosts.get("reserve", 0))
    if "growth_shift" in inputs:
        shift_growth(out, float(inputs["growth_shift"]))
    for w in out.get("workloads", []):
        if inputs.get("image_gb"):
            w["image_gb"] = float(inputs["image_gb"])
        if inputs.get("share") and w.get("realtime") and w["realtime"].get("tasks"):
            u = sum(t["wcet"] / t["period"] for t in w["realtime"]["tasks"])
            w["realtime"]["share"] = max(float(inputs["share"]), round(u + 0.005, 3))
    return out


def _shifted(rate: float, shift: float) -> float:
    """A growth rate moved by ``shift`` points, never below 0 by it (a shrinking rate stays as it was)."""
    return max(rate + shift, min(rate, 0.0))


def shift_growth(data: dict, shift: float) -> None:
    """Add ``shift`` %/year to every growth rate of scenario ``data`` (in place): the growth section's
    (made when there is none) and each workload's own, so their differences stay (:func:`_shifted`)."""
    raw = data.get("growth")
    growth: dict = dict(raw) if isinstance(raw, dict) else {}
    for key in RATE_KEYS:
        growth[key] = _shifted(_float(growth.get(key)), shift)
    data["growth"] = growth
    for w in data.get("workloads", []):
        own = w.get("growth") if isinstance(w, dict) else None
        if isinstance(own, dict):
            w["growth"] = {k: _shifted(_float(v), shift) if k in RATE_KEYS and v is not None else v
                           for k, v in own.items()}


def growth_rates(data: dict) -> list[tuple[str, dict[str, float]]]:
    """The growth rates of scenario ``data``: ``("", section's)`` first, then each workload's own
    (``(name, {resource: rate})``, only the rates it sets)."""
    raw = data.get("growth")
    growth: dict = raw if isinstance(raw, dict) else {}
    out = [("", {r: _float(growth.get(f"{r}_pct_per_year")) for r in RATES})]
    for w in data.get("workloads", []):
        own = w.get("growth") if isinstance(w, dict) else None
        if isinstance(own, dict):
            mine = {r: _float(own[f"{r}_pct_per_year"]) for r in RATES if own.get(f"{r}_pct_per_year") is not None}
            if mine:
                out.append((str(w.get("name", "?")), mine))
    return out


def growth_note(data: dict, shift: float, most: int = 3) -> str:
    """What the growth slider sets: ``CPU 20, RAM 25, storage 30 %/year; web: CPU 40, RAM 40`` (the
    rates of ``data`` shifted by ``shift``; at most ``most`` workloads named)."""
    shifted = copy.deepcopy(data)
    shift_growth(shifted, shift)
    (_section, rates), *own = growth_rates(shifted)

    def text(rates: dict[str, float]) -> str:
        return ", ".join(f"{RATE_LABELS[r]} {_num(v)}" for r, v in rates.items())

    out = text(rates) + " %/year" + "".join(f"; {name}: {text(mine)}" for name, mine in own[:most])
    return out + (f"; {len(own) - most} more workloads with rates of their own" if len(own) > most else "")


def runs_out_phrase(timeline) -> str:
    """When the planned hosts of a growth timeline run out: ``year 4 (ram)``, or ``not within the
    5 years``; "" without a timeline."""
    if timeline is None or not timeline.years:
        return ""
    out = timeline.runs_out
    if out:
        return f"year {out['year']} ({str(out['resource']).replace('_', ' ')})"
    return f"not within the {timeline.years[-1].year} years"


def _sized(w: dict):
    """The VMs the reader sizes a group given as totals as (:func:`advisor.scenario.totals.size_totals`)."""
    return size_totals(w.get("total_vcpus"), w.get("total_ram_gib"), w.get("total_storage_tb"),
                       w.get("vcpus") or TYPICAL_VCPUS, w.get("ram_gib") or TYPICAL_RAM_GIB)


def group_vms(w: dict) -> int:
    """The VMs of one workload group of the scenario data: its ``vms``, or for a group given as
    totals the VMs the reader sizes them as (:func:`advisor.scenario.totals.size_totals`)."""
    if not any(w.get(k) is not None for k in TOTALS):
        return max(1, int(w.get("vms", 1)))
    return _sized(w).vms


def _scale_group(w: dict, n: int) -> None:
    """Give group ``w`` ``n`` VMs: set its ``vms``, or for a group given as totals (it has no
    ``vms``: its VMs follow from its totals) give it the totals of ``n`` VMs of the shape it is
    sized as, that shape as its typical VM, so the reader sizes exactly ``n`` VMs of it again
    (scaling the totals alone let the reader pick another shape: 600 vCPUs / 3,072 GiB are 200 VMs
    of 3 vCPU, not the 300 of 2 vCPU the slider asked)."""
    if not any(w.get(k) is not None for k in TOTALS):
        w["vms"] = n
        return
    sized = _sized(w)
    w["vcpus"], w["ram_gib"] = sized.vcpus, sized.ram_gib
    if w.get("total_vcpus") is not None:  # VMs of one vCPU fewer in proportion, as few as sizes n VMs
        most = n * sized.vcpus  # the vCPUs bind without a RAM total: more than n - 1 VMs' worth
        least = most - sized.vcpus + 1 if w.get("total_ram_gib") is None else 1
        w["total_vcpus"] = min(most, max(round(w["total_vcpus"] * n / sized.vms), least))
    if w.get("total_ram_gib") is not None:
        w["total_ram_gib"] = n * sized.ram_gib
    if w.get("total_storage_tb") is not None and sized.disk_gb is not None:
        w["total_storage_tb"] = n * sized.disk_gb / 1000.0


def scale_vms(data: dict, total: int) -> None:
    """Scale the VM counts of the workload groups of ``data`` (in place) to ``total`` VMs in all,
    in proportion, each group keeping at least one VM (largest remainders get the rounding). A
    group given as totals gets the totals of its share of VMs of the shape it is sized as (its VM
    count follows from them: the reader sizes them as that many VMs)."""
    groups = [w for w in data.get("workloads", []) if isinstance(w, dict)]
    now = [group_vms(w) for w in groups]
    if not groups or sum(now) == total:
        return
    total = max(total, len(groups))
    exact = [n * total / sum(now) for n in now]
    counts = [max(1, math.floor(x)) for x in exact]
    order = sorted(range(len(groups)), key=lambda i: exact[i] - math.floor(exact[i]), reverse=True)
    i = 0
    while sum(counts) < total:
        counts[order[i % len(order)]] += 1
        i += 1
    while sum(counts) > total:
        j = max((k for k in range(len(counts)) if counts[k] > 1), key=lambda k: counts[k] - exact[k])
        counts[j] -= 1
    for w, n in zip(groups, counts, strict=True):
        _scale_group(w, n)


class WhatIf:
    """The what-if state of one scenario: where the inputs start (:attr:`defaults`, from the
    scenario and its advice), where the user moved them (:attr:`inputs`), the scenario they make
    (:meth:`scenario_data`) and its advice (:meth:`follow`). Every view of the scenario (a tab, the
    workshop) reads and moves this one object."""

    def __init__(self) -> None:
        self.base: dict = {}
        self.defaults: dict[str, float] = {}
        self.inputs: dict[str, float] = {}
        self.advice = None  # the advice of scenario_data(), once computed
        self.started_from = None

    def start(self, data: dict, advice=None, scenario=None) -> None:
        """Start over from scenario ``data`` and its advice: every input at its default."""
        self.base = copy.deepcopy(data)
        self.defaults = default_inputs(advice, scenario)
        self.inputs = dict(self.defaults)
        self.advice = advice
        self.started_from = advice  # the advice the defaults are of (None: the scenario's alone)

    def rebase(self, data: dict, advice=None, scenario=None) -> None:
        """The scenario changed (an edit, undo): new defaults; inputs the user moved stay moved."""
        moved = self.moved()
        self.start(data, advice, scenario)
        for name, value in moved.items():
            if name in self.inputs:
                self.inputs[name] = value
        if moved:
            self.advice = None

    def bounds(self, name: str) -> tuple[float, float]:
        """The range input ``name`` may take for this scenario: at least one active host above
        the reserve, at least one VM per group, and room to grow to a few times the scenario."""
        spec = INPUTS[name]
        lo, hi = spec.minimum, spec.maximum
        raw_hosts = self.base.get("hosts")
        hosts: dict = raw_hosts if isinstance(raw_hosts, dict) else {}
        groups = [w for w in self.base.get("workloads", []) if isinstance(w, dict)]
        if name == "hosts":
            lo = float(_int(hosts.get("reserve"), 0) + 1)
            hi = max(hi, 3.0 * _int(hosts.get("count"), 1))
        elif name == "vms":
            lo = float(max(1, len(groups)))
            hi = max(hi, 4.0 * sum(_int(w.get("vms"), 1) for w in groups))
        elif name == "growth_shift":  # down to where every rate is 0
            lo = -max([0.0, *(v for _n, rates in growth_rates(self.base) for v in rates.values())])
        default = self.defaults.get(name)
        if default is not None:
            hi = max(hi, default * 1.5)
        return lo, hi

    def set(self, name: str, value: float) -> None:
        """Move input ``name`` (a scenario input invalidates the what-if advice); the value is
        kept within :meth:`bounds`."""
        if name not in INPUTS:
            raise KeyError(f"no what-if input {name!r}")
        lo, hi = self.bounds(name)
        value = min(max(float(value), lo), hi)
        self.inputs[name] = float(value)
        if INPUTS[name].kind == "scenario":
            self.advice = None

    def reset(self) -> None:
        """Every input back at its default (the scenario and its advice)."""
        self.inputs = dict(self.defaults)

    def moved(self, kind: str | None = "scenario") -> dict[str, float]:
        """The inputs (of ``kind``; every kind with None) away from their defaults."""
        return {n: v for n, v in self.inputs.items()
                if (kind is None or INPUTS[n].kind == kind) and not _same(v, self.defaults.get(n))}

    def scenario_data(self) -> dict:
        """The scenario with the moved scenario inputs applied (the base when none moved)."""
        return apply_inputs(self.base, self.moved())

    def follow(self, advice) -> None:
        """Take the advice of :meth:`scenario_data`: derived inputs follow its hosts."""
        self.advice = advice
        if advice is not None and advice.facts is not None:
            self.inputs["vms_per_host"] = float(advice.facts.vms_per_host)

    def describe(self) -> str:
        """What moved, for an undo step: ``VMs 56 -> 80, Hosts planned 6 -> 8``."""
        return ", ".join(f"{INPUTS[n].label} {_num(self.defaults.get(n))} -> {_num(v)}"
                         for n, v in self.moved().items())


def _int(v, default: int) -> int:
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


def _float(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return 0.0


def _same(a, b) -> bool:
    return b is not None and abs(float(a) - float(b)) <= 1e-9 * max(1.0, abs(float(b)))


def _num(v) -> str:
    return "?" if v is None else f"{float(v):g}"


def read_at(spec, x: float) -> list[tuple[str, float, str, bool]]:
    """(curve, value, unit, recommended) of every solid curve of ``spec`` at ``x``."""
    if spec is None or not spec.curves:
        return []
    return [(c.name, float(np.interp(x, c.x, c.mean)), spec.y_unit, c.highlight)
            for c in spec.curves if c.style == "solid"]


def readings(specs: dict, inputs: dict) -> list[tuple[str, list[tuple[str, float, str, bool]]]]:
    """(heading, readings) for each chart of :data:`READINGS` at its input's value."""
    out = []
    for key, name, heading in READINGS:
        x = inputs.get(name) or 0.0
        values = read_at(specs.get(key), x)
        if values:
            out.append((heading.format(x=float(f"{x:.3g}")), values))
    return out
