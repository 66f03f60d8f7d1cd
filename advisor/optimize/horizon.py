"""The design that lasts a scenario's growth at least cost over its horizon (``capadvisor optimize
--horizon``; the GUI's *Last the growth horizon*; #31).

Two steps:

1. **The configurations that can hold the last year.** The space is searched on the most
   demanding year as a scenario without growth (:func:`advisor.growth.horizon_scenario`). That
   scenario holds whole vCPUs a VM and the largest total of each resource in any year, so its
   host counts are too many where RAM grows faster than CPU: it only names the configurations
   (host model, storage, hypervisor, over-allocation level, cache modes) that meet every hard
   limit and target with the last year's demand.
2. **Each configuration as its advice with the growth judges it.** Its design scenario (the
   growth kept) is advised without a host count; the most hosts its timeline needs in any year
   (each year's own constrained count) is the count it is judged at, then one or two hosts more
   when that count still misses something: no hard limit missed in any year (``runs_out`` none),
   no choice a rule excludes, every target met. Its cost is its timeline's: the hosts' capex
   (and the storage bought as the disks grow) plus each year's opex at that year's load, summed
   over the horizon's years. The best is the least of that cost (or the fewest hosts, or the
   least energy today), ties as the search breaks them.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import numpy as np

from advisor.optimize.evaluate import OK
from advisor.optimize.reference import judge_advice
from advisor.optimize.search import (
    FIGURES,
    Candidate,
    OptimizeResult,
    _candidate,
    best_of,
    optimize,
    pareto_front,
    representatives,
)
from advisor.optimize.space import Design, design_scenario
from advisor.progress import CancelToken, ProgressCallback, check, report
from advisor.recommend.room import bounded
from advisor.scenario import Scenario
from knowledge.costs import Catalogue

#: how the note of a horizon search begins (the GUI shows it under the best design)
LASTS = "sized for the growth horizon"
#: hosts tried above the most a configuration's timeline needs in a year, before it is dropped
EXTRA_HOSTS = 2


def optimize_horizon(scenario: Scenario, catalogue: Catalogue, kb, *, objective: str = "cost",
                     figure: str = "headroom", options=None, workers: int | None = None,
                     progress: ProgressCallback | None = None, cancel: CancelToken | None = None) -> OptimizeResult:
    """Search the design of ``scenario`` (with a ``growth`` section) that lasts its horizon (see the
    module doc). The result's costs are over the horizon's years (``years``), its counts of designs
    those of the last year's search."""
    from advisor.growth import horizon_scenario

    start = time.perf_counter()
    g = scenario.growth
    searched = horizon_scenario(scenario)  # raises for a scenario without growth
    # a host count the scenario fixes is judged over the years (lasting), not on the last year's whole vCPUs
    searched.preferences.fixed.pop("host_count", None)
    assert g is not None
    result = optimize(searched, catalogue, kb, objective=objective, figure=figure, options=options,
                      workers=workers, keep_table=True, exact_headroom=False,  # its configurations only
                      progress=None if progress is None else lambda f, m: progress(0.5 * f, m), cancel=cancel)
    configs = _configurations(result)
    kept: list[Candidate] = []
    for i, (design, ceiling) in enumerate(configs):
        check(cancel)
        report(progress, 0.5 + 0.5 * i / max(len(configs), 1),
               f"each configuration over the {g.horizon_years}-year horizon ({i + 1} of {len(configs)})")
        c = lasting(scenario, catalogue, design, kb, ceiling)
        if c is not None:
            kept.append(c)
    _replace(result, kept, objective, figure, g.horizon_years)
    result.notes.insert(0, f"{LASTS}: the search of {searched.name}{_searched_vms(scenario, searched)} found "
                           f"{len(configs):,} configurations (host model, storage, hypervisor, level, cache modes) "
                           f"that hold that year; each was advised with its growth at the fewest hosts that hold "
                           f"every year (no hard limit or target missed in any year): {len(kept):,} last. They are "
                           f"ranked by their cost over the {g.horizon_years}-year horizon, capex plus each year's "
                           "opex at that year's load (their timeline's cumulative cost), not by the last year's "
                           "load every year; opex per year is the mean of the years; energy per year, headroom and "
                           "busiest host CPU are today's")
    result.elapsed_s = time.perf_counter() - start
    report(progress, 1.0, f"{len(kept):,} lasting designs compared")
    return result


def _searched_vms(scenario: Scenario, searched: Scenario) -> str:
    """The VMs the last year's search holds, beside the timeline's count of that year when they
    differ (storage growing fastest: the timeline counts more, smaller VMs; the search holds as many
    as CPU or RAM asks, each disk grown), so the note never states a second count for the timeline's."""
    from advisor.growth import timeline_vms

    year = scenario.growth.horizon_years if scenario.growth is not None else 0
    placed, held = timeline_vms(scenario, year), searched.total_vms
    if placed == held:
        return f" ({held:,} VMs, as the timeline counts year {year})"
    return (f": its demand, which the timeline counts as {placed:,} VMs, searched as {held:,} larger VMs (as many as "
            f"its CPU or RAM asks, each VM's disk grown to hold the storage),")


def _configurations(result: OptimizeResult) -> list[tuple[Design, int]]:
    """The configurations of the last year's search that meet everything there, each once (the
    design at its fewest hosts, with its cache modes as the search picks them), in the search's
    order of cost, with that fewest count of hosts (reserve included)."""
    table = result.table
    if table is None or not len(table):
        return []
    feasible, picks, values = representatives(table)
    idx = np.flatnonzero(feasible)
    out: dict[Design, tuple[float, int, Design]] = {}
    for i in idx[np.argsort(table.total[idx], kind="stable")]:
        d = _candidate(table, int(i), picks, values).design
        key = dataclasses.replace(d, active=0)
        if key not in out or d.active < out[key][2].active:
            out[key] = (float(table.total[i]), int(i), d)
    ranked = sorted(out.values(), key=lambda t: (t[0], t[1]))
    return [(d, d.active + table.reserve) for _, _, d in ranked]


def lasting(scenario: Scenario, catalogue: Catalogue, design: Design, kb, ceiling: int = 0) -> Candidate | None:
    """``design``'s configuration at the fewest hosts that last every year of ``scenario``'s growth,
    priced over the horizon (its timeline's cumulative cost), or None when none of the counts
    tried lasts (the most hosts the timeline needs in a year, then :data:`EXTRA_HOSTS` more, at
    least up to ``ceiling``: the count the last year's search found; only the scenario's own count
    when it fixes one, ``preferences.fixed.host_count``)."""
    from advisor.engine import advise, hosts_to_last

    pinned = scenario.preferences.fixed.get("host_count")
    if pinned is not None:
        counts = range(int(pinned), int(pinned) + 1)
    else:
        sc = design_scenario(scenario, catalogue, design)
        sc.preferences.fixed.pop("host_count", None)
        with bounded():  # only its timeline's hosts are read, not its room
            need = hosts_to_last(sc, kb)
        if need is None:
            return None
        counts = range(need, max(need + EXTRA_HOSTS, ceiling) + 1)
    reserve = scenario.hosts.reserve
    for hosts in counts:
        d = dataclasses.replace(design, active=hosts - reserve)
        dsc = design_scenario(scenario, catalogue, d)
        advice = advise(dsc, kb=kb, catalogue=catalogue)
        reason, c = judge_advice(advice, dsc, d, kb)
        tl = advice.timeline
        if reason == OK and c is not None and tl is not None and tl.runs_out is None:
            return _over_horizon(c, tl)
    return None


def _over_horizon(c: Candidate, tl) -> Candidate:
    """``c`` with its costs over the timeline's horizon: capex of every year (the hosts, and storage
    bought later), opex the mean of years 1 to the horizon, total the cumulative."""
    capex = sum(y.cost["capex"] for y in tl.years)
    years = tl.years[1:]
    opex = sum(y.cost["opex"] for y in years) / len(years) if years else 0.0
    return dataclasses.replace(c, capex=capex, opex_per_year=opex, total=tl.years[-1].cost["cumulative"])


def _replace(result: OptimizeResult, kept: list[Candidate], objective: str, figure: str, horizon: int) -> None:
    """The result's best, cheapest and Pareto front from the lasting candidates, its costs over the
    ``horizon`` years, and per host model the active counts they last at (``space``'s
    ``lasting_active_hosts``); the last year's table is dropped (its costs are of that year's load)."""
    result.years, result.table = float(horizon), None
    # the counts compared (space's active_host_counts are the last year's search, whole vCPUs a VM)
    result.space["lasting_active_hosts"] = {h: sorted({c.design.active for c in kept if c.design.host_model == h})
                                            for h in result.space.get("host_models", [])}
    result.best = best_of(kept, objective)
    result.cheapest = best_of(kept, "cost")
    result.pareto = []
    if not kept:
        result.notes.append("no configuration lasts every year of the horizon at the counts tried; widen the space "
                            "(--host-counts, more host models) or relax the targets")
        return
    cost = np.array([c.total for c in kept])
    fig = np.array([np.nan if c.figure(figure) is None else c.figure(figure) for c in kept], dtype=float)
    keys: list[Any] = [np.array([-c.headroom_pct for c in kept])]
    front = pareto_front(cost, fig, FIGURES[figure][2], keys)
    result.pareto = [kept[int(j)] for j in front]
