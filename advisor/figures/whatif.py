"""What-if inputs: which inputs a workshop moves, where they start (the advice's own numbers), how
they change a scenario for a new advice, and what the charts read at them.

A front end keeps a dict ``inputs`` (name -> value, names of :data:`INPUTS`); it draws the charts
of an input with :func:`advisor.figures.charts.build_charts` (fast: model sweeps only) and asks
for a new advice with :func:`apply_inputs` (the scenario data the engine then advises on).
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass

import numpy as np


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


#: the inputs, in the order a front end lists them
INPUTS: dict[str, Input] = {i.name: i for i in (
    Input("vms_per_host", "VMs per host", "VMs", 1.0, 16.0, 1.0, ("cache_mode",)),
    Input("overallocation", "Over-allocation", "vCPUs/core", 1.0, 6.0, 0.25,
          ("overallocation_overhead", "migration_downtime")),
    Input("share", "Real-time VM share", "of a core", 0.05, 1.0, 0.01, ("realtime",)),
    Input("image_gb", "Image size", "GB", 0.5, 50.0, 0.5, ("image_transfer",)),
    Input("load_total", "Request load", "req/s", 5000.0, 100000.0, 1000.0, ("cpu_utilization",)),
)}

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
            share = rt_rec.expected["share"]["value"]
        out["share"] = float(share or rt.realtime.share or min(1.0, rt.realtime.utilization * 1.5))
    else:
        out["share"] = 0.5
    out["image_gb"] = float(max((w.image_size_gb for w in scenario.workloads), default=10.0))
    return out


def apply_inputs(data: dict, inputs: dict) -> dict:
    """The scenario data with the what-if inputs applied: hosts to carry ``vms_per_host``, every
    image at ``image_gb``, every real-time VM at ``share`` (never below its task utilization)."""
    out = copy.deepcopy(data)
    total = sum(int(w.get("vms", 1)) for w in out.get("workloads", []))
    hosts = out.setdefault("hosts", {})
    if inputs.get("vms_per_host"):
        hosts["count"] = max(1, math.ceil(total / float(inputs["vms_per_host"]))) + int(hosts.get("reserve", 0))
    for w in out.get("workloads", []):
        if inputs.get("image_gb"):
            w["image_gb"] = float(inputs["image_gb"])
        if inputs.get("share") and w.get("realtime") and w["realtime"].get("tasks"):
            u = sum(t["wcet"] / t["period"] for t in w["realtime"]["tasks"])
            w["realtime"]["share"] = max(float(inputs["share"]), round(u + 0.005, 3))
    return out


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
            out.append((heading.format(x=x), values))
    return out
