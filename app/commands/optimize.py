"""``capadvisor optimize SCENARIO``: the cheapest design that meets the targets, and the Pareto
front of cost against headroom (or another figure)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from knowledge.infra import jsonout

#: the most host counts per host model --host-counts may ask for
MAX_HOST_COUNTS = 100


def _names(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def register(sub: argparse._SubParsersAction) -> None:
    from_ = "comma-separated; default: all"
    p = sub.add_parser(
        "optimize", help="search the cheapest design that meets the targets, and the cost/headroom Pareto front",
        description="Enumerate the designs of a scenario: the cost catalogue's host models x hypervisor x vCPU "
                    "over-allocation level x image storage (local disks, or the catalogue's NFS, iSCSI and "
                    "distributed storage) x cache mode per workload x host count; predict each with the models, "
                    "discard those that break a hard limit, take a choice a rule excludes, or miss a target "
                    "(preferences.targets); print the best by --objective and the Pareto front of cost against "
                    "--figure. Prices come from --catalogue or the stored catalogue (capadvisor costs).")
    p.add_argument("scenario", type=Path, metavar="SCENARIO", help="scenario file (.yaml, .yml, .toml, .json)")
    p.add_argument("--catalogue", type=Path, metavar="FILE", help="cost catalogue (default: the stored one)")
    p.add_argument("--objective", choices=("cost", "hosts", "power"), default="cost",
                   help="what the best design minimises: cost (capex + years x opex), hosts, or power "
                        "(energy per year); default cost")
    p.add_argument("--figure", choices=("headroom", "host_cpu", "boot_time", "throughput"), default="headroom",
                   help="the performance figure of the Pareto front against cost (default headroom: how much "
                        "every workload could still grow, %% of its VMs)")
    p.add_argument("--host-models", type=_names, metavar="NAMES", help=f"host models to try ({from_})")
    p.add_argument("--hypervisors", type=_names, metavar="NAMES", help=f"hypervisors to try ({from_})")
    p.add_argument("--levels", type=_names, metavar="NAMES", help=f"over-allocation levels to try ({from_})")
    p.add_argument("--backends", type=_names, metavar="NAMES", help=f"storage backends to try ({from_})")
    p.add_argument("--cache-modes", type=_names, metavar="NAMES", help=f"cache modes to try per workload ({from_})")
    p.add_argument("--host-counts", type=int, default=6, metavar="N",
                   help="active host counts per host model, from the fewest that places the VMs (default 6)")
    p.add_argument("--horizon", action="store_true",
                   help="size for the scenario's growth (its growth section): the design that lasts every year "
                        "of growth.horizon_years at least cost over the horizon (capex plus each year's opex at that year's "
                        "load; the configurations come from a search of the most demanding year)")
    p.add_argument("--workers", type=int, metavar="N",
                   help="local processes (default: several for large spaces, else 1)")
    p.add_argument("--format", choices=("json", "text"), default="json", help="output format (default json)")
    p.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here (atomically) instead of stdout")
    p.add_argument("--write-scenario", type=Path, metavar="FILE",
                   help="write the best design as a scenario file (every choice fixed in its preferences)")
    p.add_argument("--kb", type=Path, help="use this compiled knowledge base file instead of the shipped one")
    p.set_defaults(func=cmd_optimize)


def _progress():
    if not sys.stderr.isatty():
        return None
    last = [-1]

    def show(fraction: float, message: str) -> None:
        pct = int(fraction * 100)
        if pct != last[0]:
            last[0] = pct
            print(f"\r{pct:3d}% {message[:60]:60s}", end="", file=sys.stderr, flush=True)
    return show


def cmd_optimize(args) -> int:
    from advisor.optimize import SpaceOptions, design_scenario, optimize
    from advisor.scenario import load_scenario, save_scenario
    from app.commands.costs import catalogue_for
    from knowledge.infra.errors import InputError
    from knowledge.store import KnowledgeBase

    if not 1 <= args.host_counts <= MAX_HOST_COUNTS:
        raise InputError(f"--host-counts must be from 1 to {MAX_HOST_COUNTS}")
    if args.workers is not None and args.workers < 1:
        raise InputError("--workers must be at least 1")
    scenario = load_scenario(args.scenario)
    catalogue = catalogue_for(args)
    if catalogue is None:
        raise InputError("no cost catalogue: give --catalogue FILE or store one (capadvisor costs import FILE; "
                         "capadvisor costs example --import for placeholder prices)")
    options = SpaceOptions(host_models=args.host_models, hypervisors=args.hypervisors, levels=args.levels,
                           backends=args.backends, cache_modes=args.cache_modes, host_counts=args.host_counts)
    show = _progress()
    with KnowledgeBase.open(args.kb) as kb:
        if args.horizon:
            from advisor.optimize.horizon import optimize_horizon

            result = optimize_horizon(scenario, catalogue, kb, objective=args.objective, figure=args.figure,
                                      options=options, workers=args.workers, progress=show)
        else:
            result = optimize(scenario, catalogue, kb, objective=args.objective, figure=args.figure,
                              options=options, workers=args.workers, progress=show)
    if show is not None:
        print(file=sys.stderr)
    if not args.horizon and scenario.growth is not None and result.best is not None:
        from advisor.optimize.lasts import growth_note

        with KnowledgeBase.open(args.kb) as kb:
            note = growth_note(scenario, catalogue, result.best.design, kb, "--horizon")
        if note:
            result.notes.insert(0, note)
    text = jsonout.dumps(result.to_dict(), indent=2) + "\n" if args.format == "json" else text_report(result)
    if args.output:
        from knowledge.infra.atomic import write_text_atomic

        write_text_atomic(args.output, text)
        print(f"wrote the search of {result.size:,} designs to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    if args.write_scenario and result.best is not None:
        save_scenario(design_scenario(scenario, catalogue, result.best.design), args.write_scenario)
        print(f"wrote the best design as a scenario to {args.write_scenario}", file=sys.stderr)
    print(f"searched {result.size:,} designs ({result.rows:,} configurations) in {result.elapsed_s:.2f} s"
          + (f" with {result.workers} processes" if result.workers > 1 else ""), file=sys.stderr)
    return 0 if result.best is not None else 1


def text_report(result) -> str:
    from advisor.cost import money
    from advisor.optimize.search import FIGURES
    from app.textfmt import table

    cur = result.currency
    lines = [f"{result.scenario.name}: {result.size:,} designs, {result.feasible:,} meet every target and hard limit "
             f"(prices: {result.catalogue}; {result.years:g} years)"]
    for reason, n in result.discarded.items():
        if n:
            lines.append(f"  discarded {n:,}: {reason}")
    b = result.best
    if b is not None:
        d = b.design
        lines += ["", f"Best by {result.objective}: {d.host_model} x {b.hosts} hosts ({d.active} active), {d.hypervisor}, "
                      f"{d.level} over-allocation, {d.storage.label()}, cache "
                      + ", ".join(f"{w}={m}" for w, m in zip([w.name for w in result.scenario.workloads], d.cache_modes,
                                                              strict=True)),
                  f"  {money(b.total, cur)} over {result.years:g} years (capex {money(b.capex)}, opex "
                  f"{money(b.opex_per_year)} per year); {b.kwh_per_year:,.0f} kWh per year; headroom "
                  f"{b.headroom_pct:.0f} %; busiest host CPU {b.host_cpu_pct:.0f} %"]
    c = result.cheapest
    if c is not None and b is not None and c is not b and c.design != b.design:
        lines.append(f"Cheapest: {c.design.host_model} x {c.hosts} hosts, {c.design.hypervisor}, {c.design.level} "
                     f"over-allocation, {c.design.storage.label()}: {money(c.total, cur)} over {result.years:g} years")
    label, unit, _ = FIGURES[result.figure]
    if result.pareto:
        rows = []
        for c in result.pareto:
            f = c.figure(result.figure)
            rows.append((money(c.total, cur), "" if f is None else f"{f:.4g}", c.hosts, c.design.host_model,
                         c.design.hypervisor, c.design.level, c.design.storage.label()))
        lines += ["", f"Pareto front: cost against {label} ({unit})",
                  table(("total", label, "hosts", "host model", "hypervisor", "level", "storage"), rows)]
    lines += [""] + [f"note: {n}" for n in result.notes]
    return "\n".join(lines).rstrip() + "\n"
