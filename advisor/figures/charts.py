"""Chart data from an :class:`~advisor.engine.Advice`: the recommenders' own functions swept over
one input (so the recommended curve passes through the card's figure), model sweeps
(:func:`advisor.models.sweep.sweep`), the models' training points (the measured rows), the real-time
analysis and the user's site measurements.

No decisions are made here: every builder asks the engine and arranges its answers as a
:class:`~advisor.figures.spec.ChartSpec`, with :class:`~advisor.figures.spec.Mark` s where the
advice sits (the numbers its cards show). Builders run in workers (numpy only, no Qt). ``inputs``
carries what-if values (:data:`advisor.figures.whatif.INPUTS`); missing ones come from the advice.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from advisor.figures import timeline_chart  # noqa: F401 (its builder registers before CHARTS is made)
from advisor.figures.prose import fmt_value
from advisor.figures.registry import builders, builds
from advisor.figures.spec import ChartSpec, Curve, Line, Mark, Points, Region

BOOT_STYLES = {"io": "solid", "cpu": "dash", "idle": "dot"}
#: how the models' level names read in a legend (the storage backends as the cards name them)
LEVEL_LABELS = {"vmware esxi": "VMware ESXi", "docker": "Docker", "native": "native (no hypervisor)",
                "kvm": "KVM", "xen": "Xen", "xenserver": "XenServer", "gsiftp": "GridFTP (gsiftp)"}


def level_label(level: str) -> str:
    """A model's level name as the legend shows it (``nfs_root`` -> ``NFS root file system``,
    ``vmware esxi`` -> ``VMware ESXi``); a readable name comes back as it is."""
    from advisor.recommend.catalog import choice_label

    return LEVEL_LABELS.get(level.lower()) or choice_label("storage_backend", level)


def chosen(advice, decision: str, scope: str | None = None):
    """The Recommendation for ``decision`` (at ``scope``, else the first of any scope), or None."""
    return advice.first(decision, scope) if advice is not None else None


def _tip(p) -> str:
    return f"{p.document[:3]} {p.locator} ({p.key})"


def _sweep(kb, family, vary, values, fixed, alternatives=None):
    from advisor.models.sweep import remembered  # a what-if step mostly asks what it asked before

    return remembered(kb, family, vary, values, fixed, alternatives)


def _curves(preds: dict, x: np.ndarray, highlight: str | None, style: str = "solid", bands: bool = True,
            suffix: str = "") -> list[Curve]:
    out = []
    for name, p in preds.items():
        hi = highlight is not None and name.lower() == str(highlight).lower()
        out.append(Curve(level_label(name) + suffix, x, np.asarray(p.mean), np.asarray(p.low) if bands or hi else None,
                         np.asarray(p.high) if bands or hi else None, hi, style, color_key=name,
                         extrapolated=np.asarray(p.extrapolated)))
    return out


def _points_by(fam, feature: str, x_feature: str, keep: Callable | None = None, symbol: str = "o",
               suffix: str = " measured") -> list[Points]:
    groups: dict[str, list] = {}
    for p in fam.training_points():
        if feature not in p.features or x_feature not in p.features:
            continue
        if keep is not None and not keep(p):
            continue
        try:
            float(p.features[x_feature])
        except (TypeError, ValueError):
            continue
        groups.setdefault(str(p.features[feature]), []).append(p)
    return [Points(f"{level_label(k)}{suffix}", np.array([float(p.features[x_feature]) for p in ps]),
                   np.array([p.target for p in ps]), [_tip(p) for p in ps], color_key=k, symbol=symbol)
            for k, ps in groups.items()]


def _drawn_or_not(what: str, choice: str | None, drawn: list[str]) -> str:
    """The caption's sentence on the recommended ``what``, saying so when the chart has no curve
    of it (the documents measured other options than the one chosen)."""
    if not choice:
        return f"No {what} recommended yet."
    if any(d.lower() == choice.lower() for d in drawn):
        return f"Recommended {what}: {level_label(choice)} (the emphasised curve)."
    return (f"Recommended {what}: {level_label(choice)}, which this study did not measure; the curves show the "
            f"options it did ({', '.join(level_label(d) for d in drawn)}) for comparison.")


def _levels(fam, feature: str) -> list[str]:
    seen: list[str] = []
    for p in fam.training_points():
        v = p.features.get(feature)
        if v is not None and str(v) not in seen:
            seen.append(str(v))
    return seen


def _first_workload(scenario, want: Callable | None = None):
    for w in scenario.workloads if scenario else []:
        if want is None or want(w):
            return w
    return None


# --- the charts ------------------------------------------------------------------------------
def _waiting(key: str, title: str) -> ChartSpec:
    return ChartSpec(key, title, "", "", "", "", empty_reason="Waiting for the advice…")


def cache_workload(scenario):
    """The workload the cache-mode chart shows: the first with more than low I/O (else the first)."""
    return _first_workload(scenario, lambda w: w.io.intensity != "low") or _first_workload(scenario)


@builds("cache_mode")
def cache_mode_chart(kb, scenario, advice, inputs: dict) -> ChartSpec:
    """Expected throughput per VM (MB/s) per KVM cache mode vs VMs per host for one workload: the
    cache-mode recommender's own figure (its operation mix, the disks' cap, the site calibration),
    so the recommended curve passes through the card's figure at the advice's VMs per host."""
    from advisor.models import get_family
    from advisor.recommend.cache_mode import MODELLED, UNMEASURED, operations, per_vm_throughput

    if advice is None:
        return _waiting("cache_mode", "Throughput per VM by cache mode")
    scenario = advice.scenario
    fam = get_family("cache_mode_throughput", kb)
    w = cache_workload(scenario)
    rec = advice.find("cache_mode", f"workload:{w.name}") if w else None
    advised = float(advice.facts.vms_per_host) if advice.facts else 1.0
    vph = float(inputs.get("vms_per_host") or advised)
    x = np.union1d(np.linspace(1, max(4.0, vph * 1.5, advised * 1.2), 60), [advised, vph])
    batch = per_vm_throughput(advice.context(kb), [w] * len(x), x) if w else None
    if batch is None:
        return ChartSpec("cache_mode", "Throughput per VM by cache mode", "", "", "", "",
                         empty_reason="No chart: the cache-mode model is not available")
    figs, pred = batch
    ops = operations(w)
    op = max(ops, key=lambda t: t[1])[0]
    mix = " + ".join(f"{share:.0%} {o.replace('_', ' ')}" for o, share in ops)
    modes = list(MODELLED) + ([rec.choice] if rec and rec.choice in UNMEASURED else [])
    spec = ChartSpec("cache_mode", f"Throughput per VM by cache mode ({w.name})", "VMs per host", "VMs",
                     "throughput per VM", pred.unit,
                     caption=f"Solid: the expected throughput per VM of workload '{w.name}' ({mix} of its bytes) on "
                             f"this cluster's hosts, as the advice computes it; dashed: the model for "
                             f"{op.replace('_', ' ')} on the documents' testbed (one 7200 rpm disk), whose "
                             f"measurements are the points: Postmark's requests are whole files (50.5 or 200 KB), "
                             f"Bonnie++'s 1 MiB; {w.io.block_size_kib:g} KiB requests move "
                             f"{'fewer' if w.io.block_size_kib < 50 else 'as many or more'} bytes per operation. "
                             f"Chosen: {rec.choice if rec else '-'}.")
    for mode in modes:
        cols = [np.array([f[mode]["throughput_per_vm"][k] for f in figs], dtype=float) for k in ("value", "low", "high")]
        extrap = np.array([bool(f[mode]["throughput_per_vm"].get("extrapolated")) for f in figs])
        name = f"{mode} (estimated)" if mode in UNMEASURED else mode
        spec.curves.append(Curve(name, x, cols[0], cols[1], cols[2], bool(rec and rec.choice == mode), "solid",
                                 color_key=mode, extrapolated=extrap))
    # the model for the main operation on the documents' testbed, so the measured points can be read
    workloads = [lv for lv in _levels(fam, "workload")
                 if any(p.features.get("operation") == op and p.features.get("workload") == lv
                        for p in fam.training_points())]
    bench = workloads[0] if workloads else "bonnie"
    testbed = next((p.features for p in fam.training_points() if "host_ram_gib" in p.features), None)
    if testbed is not None:
        on_testbed = {"operation": op, "workload": bench, "host_ram_gib": testbed["host_ram_gib"],
                      "vm_ram_gib": testbed.get("vm_ram_gib", 1.0)}
        dashed = _curves(_sweep(kb, fam.name, "vms_per_host", x, on_testbed, ("cache_mode", list(MODELLED))),
                         x, None, style="dash", bands=False,
                         suffix=f" on the {testbed['host_ram_gib']:g} GiB testbed")
        for c in dashed:
            c.in_legend = False  # one legend entry says what the dashes are; the legend stays small
        spec.curves += dashed
        spec.style_notes = {"solid": "solid: this cluster's hosts",
                            "dash": f"dashed: the documents' {testbed['host_ram_gib']:g} GiB testbed (points: measured)"}
    spec.points = _points_by(fam, "cache_mode", "vms_per_host",
                             lambda p: p.features.get("operation") == op and p.features.get("workload") == bench)
    spec.log_y = True  # the scenario's figures (on its own disks) and the testbed's measurements lie orders apart
    label = f"{fmt_value(vph, 3)} VMs/host"  # as the card states it (3 digits: not "16.33")
    if vph == advised and rec is not None and "throughput_per_vm" in rec.expected:
        spec.mark(Mark(label, advised, rec.expected["throughput_per_vm"].value, "cache_mode", rec.scope,
                       "throughput_per_vm"))
    else:
        spec.mark(Mark(label, vph))
    return spec


@builds("boot_time")
def boot_chart(kb, scenario, advice, inputs: dict) -> ChartSpec:
    """VM boot time (s) vs concurrent loaded VMs, per storage backend and neighbour load."""
    from advisor.models import get_family

    fam = get_family("boot_time", kb)
    x = np.linspace(0, 16, 49)
    rec = chosen(advice, "storage_backend")
    backends = _levels(fam, "storage_backend")
    spec = ChartSpec("boot_time", "VM boot time vs loaded neighbours", "concurrent loaded VMs", "VMs",
                     "boot time", fam.unit, log_y=True,
                     caption="Neighbours I/O-loaded: solid lines, circles; CPU-loaded: dashed, triangles; idle: "
                             f"dotted, squares. Chosen backend: "
                             f"{level_label(rec.choice) if rec else '-'}.")
    # on the scenario's storage, as the recommender reads it: its disks against the testbed's, its link
    hardware: dict[str, float] = {}
    if rec is not None and rec.details.get("local_disk_speedup"):
        hardware["disk_speedup"] = float(rec.details["local_disk_speedup"])
    links = [s.network_gbps for s in scenario.hosts.shared_storage if s.kind in ("nfs", "iscsi")] if scenario else []
    if links:
        hardware["server_link_gbps"] = float(max(links))
        spec.caption += f" Storage link {max(links):g} Gb/s; the documents' testbed had 1 Gb/s."
    stores = rec.details.get("store_speedup") if rec is not None else None
    if stores:  # the shared store's disks (the chosen backend's, else NFS file's) against doc 002's store
        speed = stores.get(rec.choice if rec is not None else "", stores.get("nfs_file", min(stores.values())))
        hardware["store_speedup"] = float(speed)
        spec.caption += f" Store disks {float(speed):.3g}x the testbed's store."
    for load, style in BOOT_STYLES.items():
        preds = _sweep(kb, fam.name, "concurrent_vms", x, {"neighbour_load": load, **hardware},
                       ("storage_backend", backends))
        curves = _curves(preds, x, rec.choice if rec and load == "io" else None, style, bands=False,
                         suffix="" if load == "io" else f" ({load})")
        for c in curves:
            c.in_legend = load == "io"
        spec.curves += curves
    symbols = {"io": "o", "cpu": "t", "idle": "s"}
    groups: dict[str, list] = {}
    for p in fam.training_points():
        if "storage_backend" in p.features and "concurrent_vms" in p.features:
            groups.setdefault(str(p.features["storage_backend"]), []).append(p)
    for backend, ps in groups.items():
        spec.points.append(Points(f"{level_label(backend)} measured", np.array([float(p.features["concurrent_vms"]) for p in ps]),
                                  np.array([p.target for p in ps]),
                                  [f"{_tip(p)}, {p.features.get('neighbour_load')}-loaded neighbours" for p in ps],
                                  color_key=backend,
                                  symbol=[symbols.get(str(p.features.get("neighbour_load")), "o") for p in ps]))
    spec.legend = "tl"
    return spec


@builds("cpu_utilization")
def cpu_chart(kb, scenario, advice, inputs: dict) -> ChartSpec:
    """Host CPU utilization (%) vs request load per hypervisor, and natively."""
    from advisor.models import get_family

    fam = get_family("cpu_utilization", kb)
    loads = [float(p.features["load"]) for p in fam.training_points()  # the Cassandra rates (tps)
             if "load" in p.features and p.features.get("workload") in ("mix", "read", "write")]
    lo, hi = (min(loads), max(loads)) if loads else (1e4, 8e4)
    x = np.linspace(lo * 0.5, hi * 1.1, 60)
    hyps = _levels(fam, "hypervisor")
    rec = chosen(advice, "hypervisor", "cluster")
    spec = ChartSpec("cpu_utilization", "CPU utilization vs load per hypervisor and native", "request load",
                     "req/s", "CPU utilization", fam.unit,
                     caption="Cassandra-like mixed workload, replication factor 3 (thesis chapter 9). "
                             + _drawn_or_not("hypervisor", rec.choice if rec else None, hyps))
    spec.curves = _curves(_sweep(kb, fam.name, "load", x, {"workload": "mix", "replication_factor": 3},
                                 ("hypervisor", hyps)), x, rec.choice if rec else None)
    spec.legend = "tl"
    spec.y_range = (0.0, 110.0)
    spec.points = _points_by(fam, "hypervisor", "load", lambda p: p.features.get("workload") == "mix")
    spec.lines.append(Line("100 % CPU", 100.0, "y", kind="limit"))
    if inputs.get("load_total"):
        spec.lines.append(Line("your load", float(inputs["load_total"]), "x", kind="marker"))
    return spec


def _overalloc(kb, family: str, title: str, y_label: str, scenario, advice, inputs: dict,
               cases: dict[str, dict], figure: str = "", marked: str = "") -> ChartSpec:
    """A chapter 8 family against vCPUs per physical core of the scenario's hosts; the model is read
    at the thesis' ratio per hardware thread and the measured points are placed accordingly. The
    case ``marked`` is the one the recommender reads its figure ``figure`` at: the mark sits on it."""
    from advisor.models import get_family
    from advisor.recommend.vcpu_overallocation import model_ratio

    fam = get_family(family, kb)
    threads = int(scenario.hosts.cpu.threads_per_core) if scenario else 1
    x = np.linspace(1.0, 6.0 * threads, 60)
    rec = chosen(advice, "vcpu_overallocation", "cluster")
    hypervisor = (advice.facts.hypervisor if advice is not None and advice.facts else None) or "VMware ESXi"
    smt = f"; {threads} threads per core: the thesis' ratios count hardware threads" if threads > 1 else ""
    spec = ChartSpec(family, title, "vCPU over-allocation", "vCPUs per core", y_label, fam.unit,
                     caption=f"Thesis chapter 8 (VMware ESXi){smt}. Recommended: {rec.choice if rec else '-'}"
                             + (f" ({rec.value:g} vCPUs per core)" if rec and rec.value else ""))
    ratio = inputs.get("overallocation") or (rec.value if rec else None)
    if rec is not None and rec.value:
        x = np.union1d(x, [rec.value])
    for name, fixed in cases.items():
        preds = _sweep(kb, fam.name, "overallocation_ratio", model_ratio(x, threads),
                       {"hypervisor": hypervisor, **fixed})  # the recommender's query
        curve = _curves(preds, x, None)[0]
        if scenario is not None and figure:  # on the scenario's hosts, as the card's figure
            _to_scenario(kb, curve, scenario, advice, figure, model_ratio(x, threads), {"hypervisor": hypervisor,
                                                                                       **fixed})
        curve.name = curve.color_key = name
        curve.highlight = name == marked
        spec.curves.append(curve)
        pts = [p for p in fam.training_points()  # the measured points at any load
               if all(p.features.get(k) == v for k, v in fixed.items() if k in p.features and k != "load")]
        if pts:
            spec.points.append(Points(f"{name} measured", np.array([float(p.features["overallocation_ratio"])
                                                                     for p in pts]) * threads,
                                      np.array([p.target for p in pts]), [_tip(p) for p in pts], color_key=name))
    if ratio:
        fig = rec.expected.get(figure) if rec is not None and figure else None
        on_card = fig is not None and rec is not None and rec.value == float(ratio) and marked in cases
        spec.mark(Mark(f"{float(ratio):g} vCPUs/core", float(ratio), fig.value if fig is not None and on_card
                       else None,
                       "vcpu_overallocation", "cluster", figure if on_card else ""))
    return spec


def _to_scenario(kb, curve: Curve, scenario, advice, figure: str, ratios, fixed: dict) -> None:
    """A chapter 8 curve moved onto the scenario's hosts the way the recommender moves its figure
    (:func:`advisor.recommend.vcpu_overallocation.to_scenario`)."""
    from advisor.hardware import Hardware
    from advisor.recommend.vcpu_overallocation import to_scenario

    hw = Hardware(scenario, advice.calibration if advice is not None else None)
    migrating = [w for w in scenario.workloads if w.live_migration]
    for attr in ("mean", "low", "high"):
        values = getattr(curve, attr)
        if values is not None:
            setattr(curve, attr, to_scenario(hw, migrating, figure, values)[0])


@builds("overallocation_overhead")
def overhead_chart(kb, scenario, advice, inputs: dict) -> ChartSpec:
    """Host CPU utilization (%) vs vCPU over-allocation at the request load per host the card reads
    (the scenario's, when its workloads state one; else the thesis' test load)."""
    rec = chosen(advice, "vcpu_overallocation", "cluster")
    fig = rec.expected.get("thesis_host_cpu") if rec is not None else None
    load = ((fig.get("load_rps_per_host") if fig is not None else None)
            or (rec.details.get("load_rps_per_host") if rec is not None else None))
    name = f"host CPU at {float(load):,.0f} req/s per host" if load else "host CPU at the test load"
    return _overalloc(kb, "overallocation_overhead", "CPU overhead vs over-allocation", "host CPU",
                      scenario, advice, inputs, {name: {"load": float(load)} if load else {}},
                      "thesis_host_cpu", name)


@builds("migration_downtime")
def downtime_chart(kb, scenario, advice, inputs: dict) -> ChartSpec:
    """Live-migration downtime (s) vs vCPU over-allocation, for the thesis' light- and heavy-load tests."""
    from advisor.recommend.vcpu_overallocation import downtime_inputs

    rec = chosen(advice, "vcpu_overallocation", "cluster")
    tests = rec.details.get("migration_tests") if rec is not None else None
    light, heavy = "light-load tests (x.1)", "heavy-load tests (x.2)"
    sc = advice.scenario if advice is not None else scenario
    nic = float(sc.hosts.nic_gbps) if sc is not None else 10.0
    migrating = [w for w in sc.workloads if w.live_migration] if sc is not None else []
    cases = {light: downtime_inputs([], False, nic), heavy: downtime_inputs([], True, nic)}
    marked = {"light": light, "heavy": heavy}.get(tests or "", "")
    if marked:  # the card's own query: the migrating VMs' stated request rate, when they state one
        cases[marked] = downtime_inputs(migrating, tests == "heavy", nic)
    spec = _overalloc(kb, "migration_downtime", "Migration downtime vs over-allocation", "downtime", scenario,
                      advice, inputs, cases, "migration_downtime", marked)
    spec.legend = "tl"  # the measured points of the massive level sit at the top right
    return spec


@builds("image_transfer")
def transfer_chart(kb, scenario, advice, inputs: dict) -> ChartSpec:
    """Image transfer time (s) vs image size (GB) per protocol, with the link-rate limit."""
    from advisor.models import get_family

    fam = get_family("image_transfer_time", kb)
    from advisor.recommend.image_transfer import floor_seconds

    if advice is not None:
        scenario = advice.scenario
    link = nic = float(scenario.hosts.nic_gbps) if scenario else 1.0
    query = {"link_gbps": link}
    if advice is not None:  # the rate the recommender moves images at: the NIC or slower disks
        from advisor.recommend.image_transfer import path_gbps, transfer_inputs

        link = path_gbps(advice.context(kb))[0]
        query = transfer_inputs(advice.context(kb))
    path = f"Link {nic:g} Gb/s" + (f", the hosts' disks write {link * 125:,.0f} MB/s" if link < nic else "")
    advised = max((w.image_size_gb for w in scenario.workloads), default=10.0) if scenario else 10.0
    size = float(inputs.get("image_gb") or advised)  # the recommender's image: the largest
    x = np.linspace(0.5, max(20.0, size * 1.5), 60)
    rec = chosen(advice, "image_transfer")
    protocols = ["scp", "gsiftp"]
    choice = rec.choice if rec else ""
    hi = "gsiftp" if "gridftp" in choice.lower() or "gsiftp" in choice.lower() else (
        "scp" if "scp" in choice.lower() else None)
    spec = ChartSpec("image_transfer", "Image transfer time vs image size", "image size", "GB", "transfer time",
                     fam.unit, caption=f"{path}; the dashed line is the fastest any protocol can "
                                       f"move the image. Recommended: {choice or '-'}.")
    spec.curves = _curves(_sweep(kb, fam.name, "image_size_gb", x, query, ("protocol", protocols)),
                          x, hi)
    spec.legend = "tl"
    spec.lines.append(Line(f"line-rate limit ({link:.3g} Gb/s)", 0.0, "y", slope=floor_seconds(1.0, link),
                           kind="bound"))
    spec.mark(Mark("image size", size))
    return spec


def realtime_chart(taskset, share: float, overhead: float, policy: str = "rm", chosen_period: float | None = None,
                   result=None, n: int = 400, speed_scale: float | None = None) -> ChartSpec:
    """max R_i/D_i vs T_VM for a task set at a share, with the schedulability limit, the thesis'
    bounds and the feasible intervals shaded (times in the task set's unit); ``speed_scale`` as in
    :func:`advisor.realtime.analyze` (WCETs measured on another core speed)."""
    from advisor.realtime import analyze, ratio_curve

    if result is None:
        result = analyze(taskset, share=share, overhead=overhead, policy=policy, speed_scale=speed_scale)
    unit = taskset.unit
    b = result.bounds
    t_min = min(t.period for t in taskset.tasks)
    top = max([iv[1] for iv in result.feasible_intervals] + [t_min] + ([chosen_period] if chosen_period else []))
    if b is not None and b.upper_limit and math.isfinite(b.upper_limit):
        top = max(top, b.upper_limit)
    x = np.linspace(top * 0.004, top * 1.25, n)
    if chosen_period:
        x = np.union1d(x, [chosen_period])
    y = np.asarray(ratio_curve(taskset, x, share, overhead, policy, speed_scale=speed_scale), dtype=float)
    y = np.where(np.isfinite(y), y, np.nan)
    spec = ChartSpec("realtime", f"Real-time schedulability at share {share:.3g}", "VM period T_VM", unit,
                     "max R_i / D_i", "ratio",
                     caption=f"Tasks meet their deadlines where the curve is at or below 1 (shaded). "
                             f"Overhead X = {overhead:g} {unit}; policy {policy.upper()}"
                             + (f"; WCETs scaled by {speed_scale:.3g} for this core speed" if speed_scale else "")
                             + ".")
    spec.curves = [Curve("max R_i/D_i", x, y, highlight=True, color_key="curve")]
    spec.y_range = (0.0, 2.5)
    spec.lines.append(Line("schedulability limit", 1.0, "y", kind="limit"))
    if b is not None:
        spec.lines.append(Line("lower bound (Eq. 8)", b.lower_bound_offset, "y", slope=b.lower_bound_slope,
                               kind="bound"))
        if b.left_bound is not None and math.isfinite(b.left_bound):
            spec.lines.append(Line("left bound", b.left_bound, "x", kind="bound"))
        if math.isfinite(b.upper_limit):
            spec.lines.append(Line("upper limit", b.upper_limit, "x", kind="bound"))
    spec.regions = [Region(a, e, "feasible") for a, e in result.feasible_intervals]
    period = chosen_period or result.max_period
    if period:
        spec.mark(Mark(f"T_VM = {period:.4g} {unit}", float(period)))
    return spec


@builds("realtime")
def realtime_scenario_chart(kb, scenario, advice, inputs: dict) -> ChartSpec:
    """The real-time chart for the first workload with a task set, at the share, core speed and
    overhead the vm_period_budget recommendation was analysed at (a what-if ``share`` replaces the
    share; the advised period is then not marked)."""
    from advisor.recommend.vm_period_budget import analysis_inputs

    empty = ChartSpec("realtime", "Real-time schedulability", "VM period T_VM", "ms", "max R_i / D_i", "ratio",
                      empty_reason="No workload has a real-time task set (add one in the Real-time tab).")
    if advice is None:
        return _waiting("realtime", "Real-time schedulability") if _first_workload(
            scenario, lambda w: w.realtime is not None and w.realtime.tasks) else empty
    w = _first_workload(advice.scenario, lambda w: w.realtime is not None and w.realtime.tasks)
    rec = advice.find("vm_period_budget", f"workload:{w.name}") if w else None
    if w is None or rec is None:
        return empty
    ts, share, overhead, speed = analysis_inputs(rec, w)
    what_if = inputs.get("share")
    if what_if and abs(float(what_if) - share) < 1e-9:
        what_if = None  # the advised share itself
    if what_if:
        share = max(float(what_if), ts.scaled(speed).utilization if speed else ts.utilization)
    spec = realtime_chart(ts, share, overhead, chosen_period=None if what_if or rec.value is None else rec.value,
                          speed_scale=speed)
    if not what_if and spec.marks and rec.value is not None:
        mark = spec.marks[-1]
        mark.decision, mark.scope, mark.figure = "vm_period_budget", rec.scope, "period"
    spec.title += f" — {w.name}"
    return spec


@builds("site")
def site_chart(kb, scenario, advice, inputs: dict, userdb=None, site: str = "") -> ChartSpec:
    """A site's imported throughput results (MB/s) against the documents' testbed measurements."""
    spec = ChartSpec("site", "Your site against the documents' testbeds", "source", "", "throughput", "MB/s",
                     caption="Each column: the measurements of one document (grey) or of a site (coloured).")
    units = kb.units()

    def mb_s(value_si):
        return value_si / 1e6

    cols: list[tuple[str, list[float], list[str]]] = []
    for doc in kb.documents():
        rows = [r for r in kb.measurements(metric="throughput", document=doc.id)
                if r.kind == "absolute" and units.get(r.unit, ("", 0))[0] == units.get("MB/s", ("", 0))[0]]
        if rows:
            cols.append((f"doc {doc.id[:3]}", [mb_s(r.value_si) for r in rows],
                         [f"{r.document[:3]} {r.locator} ({r.key}) {r.subject}" for r in rows]))
    sites = [s.name for s in userdb.sites()] if userdb is not None else []
    byte_rate = units.get("MB/s", ("", 0))[0]
    for name in sites:
        # only byte rates: PostMark's files/s or sysbench's events/s are throughputs too, but not in MB/s
        ms = [m for m in userdb.site_measurements(name, "throughput")
              if m.value_si and units.get(m.unit, ("", 0))[0] == byte_rate]
        if ms:
            cols.append((f"site {name}", [mb_s(m.value_si) for m in ms],
                         [f"{name}: {m.tool} {m.subject} {'; '.join(f'{k}={v}' for k, v in m.factors.items())}"
                          for m in ms]))
    rng = np.random.default_rng(7)
    for i, (label, values, tips) in enumerate(cols):
        jitter = rng.uniform(-0.18, 0.18, len(values))
        is_site = label.startswith("site ")
        spec.points.append(Points(label, i + jitter, np.array(values), tips,
                                  color_key=label if is_site else "documents", symbol="o",
                                  highlight=is_site and label == f"site {site}"))
    spec.x_ticks = [(i, c[0]) for i, c in enumerate(cols)]
    spec.log_y = True
    if not sites:
        spec.caption = ("No site yet: import fio, bonnie++, sysbench, PostMark or IOzone output in "
                        "Sites & imports to see your hardware here.")
    return spec


#: every chart of :data:`advisor.figures.registry.CHARTS`: key -> builder(kb, scenario, advice, inputs)
CHARTS: dict[str, Callable] = builders()


def build_charts(kb, scenario, advice, inputs: dict | None = None, keys=None, userdb_path=None, site: str = "",
                 progress=None, cancel=None) -> dict[str, ChartSpec]:
    """Every chart of :data:`CHARTS` (or ``keys``); a chart whose data fails is returned empty with the
    reason, so one missing model never blanks the others."""
    from advisor.progress import check, report

    inputs = dict(inputs or {})
    out = {}
    keys = list(keys or CHARTS)
    for i, key in enumerate(keys):
        check(cancel)
        report(progress, i / len(keys), f"chart {key}")
        if key == "site":
            from knowledge.userdb import UserDatabase

            with UserDatabase(userdb_path) as db:
                out[key] = safe_chart(key, kb, scenario, advice, inputs, userdb=db, site=site)
        else:
            out[key] = safe_chart(key, kb, scenario, advice, inputs)
    return out


#: curves whose typical values lie further apart than this factor are drawn on a log axis (else
#: the small ones lie flat on the zero line)
SQUASHED = 30.0


def log_if_squashed(spec: ChartSpec) -> ChartSpec:
    """``spec`` with a logarithmic y axis when its curves' typical (median) values lie more than
    :data:`SQUASHED` apart and every value is positive (and it has no fixed range): the small
    curves then keep their shape. One curve rising from near zero is not squashed."""
    if spec.log_y or spec.y_range is not None or len(spec.curves) < 2:
        return spec
    means = [np.asarray(c.mean, dtype=float) for c in spec.curves]
    values = np.concatenate(means)
    values = values[np.isfinite(values)]
    medians = [float(np.nanmedian(m)) for m in means if np.isfinite(m).any()]
    if values.size and np.all(values > 0) and min(medians) > 0 and max(medians) / min(medians) > SQUASHED:
        spec.log_y = True
    return spec


def safe_chart(key: str, kb, scenario, advice, inputs: dict, **extra) -> ChartSpec:
    """Chart ``key`` of :data:`CHARTS`; when its data cannot be had (a missing model, an input the
    model refuses: the families' InputError, a UserFacingError) an empty chart saying why, so one
    problem never blanks the others. A programming error (KeyError, ValueError, ...) in a chart
    builder is not a reason a user can act on: it propagates and is reported as the bug it is."""
    from knowledge.infra.errors import UserFacingError

    try:
        return log_if_squashed(CHARTS[key](kb, scenario, advice, inputs, **extra))
    except (UserFacingError, ImportError) as exc:
        return ChartSpec(key, key.replace("_", " ").capitalize(), "", "", "", "",
                         empty_reason=f"No chart: {exc}")
