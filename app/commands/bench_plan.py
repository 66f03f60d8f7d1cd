"""``capadvisor bench-plan SCENARIO [--site NAME] [-o DIR]``: the smallest set of benchmark runs that
would calibrate the figures the advice depends on, a bounded run-all.sh and a README; with a site
that has imports, which figures are site-calibrated now and which still rest on the documents."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bench-plan", help="the benchmark runs that would calibrate this advice to a site (fio, sysbench, PostMark)",
        description="Ask the engine which figures of the scenario's advice a site's own benchmarks would calibrate, "
                    "and write the smallest set of runs that measures them: fio job files (direct I/O, the "
                    "workloads' request sizes and directions), sysbench fileio for figures no workload covers, "
                    "sysbench cpu, PostMark for small-file workloads, a run-all.sh that runs them in bounded time "
                    "and imports the results, a README for the site team and plan.json. With --site NAME and "
                    "imported results, it also says which figures are now calibrated to the site.")
    p.add_argument("scenario", type=Path, metavar="SCENARIO", help="scenario file (.yaml, .yml, .toml, .json)")
    p.add_argument("--site", metavar="NAME", help="site the results are imported under (default: site); if it "
                                                  "already has imports, show which figures they calibrate")
    p.add_argument("-o", "--output", type=Path, metavar="DIR", help="write the plan's files under DIR")
    p.add_argument("--site-db", type=Path, metavar="FILE", help="user database holding the site benchmarks")
    p.add_argument("--kb", type=Path, help="use this compiled knowledge base file instead of the shipped one")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="what to print: the plan and status as text, or plan.json (with the status)")
    p.set_defaults(func=cmd_bench_plan)


def site_status(scenario, kb, site: str, db_path: Path | None) -> dict | None:
    """The basis of every expected figure of the advice calibrated to ``site``, or None when the
    user database has no such site."""
    from advisor.benchplan import calibration_status
    from advisor.engine import advise
    from knowledge.infra.errors import InputError
    from knowledge.userdb import UserDatabase

    if db_path is not None and not db_path.exists():
        raise InputError(f"--site-db {db_path}: no such file")
    with UserDatabase(db_path) as db:
        if site not in {s.name for s in db.sites()}:
            return None
        advice = advise(scenario, kb=kb, site=site, userdb=db)
    status = calibration_status(advice)
    return {"site": site, "basis": advice.calibration.basis, "rejected": advice.calibration.rejected,
            "site_calibrated": [{**s.ref.to_dict(), "basis": s.basis} for s in status if s.on_site],
            "not_site_calibrated": [{**s.ref.to_dict(), "basis": s.basis} for s in status if not s.on_site]}


def cmd_bench_plan(args) -> int:
    from advisor.benchplan import make_plan
    from advisor.engine import advise
    from advisor.scenario import load_scenario
    from knowledge.infra import jsonout
    from knowledge.store import KnowledgeBase

    scenario = load_scenario(args.scenario)
    site = args.site or "site"
    with KnowledgeBase.open(args.kb) as kb:
        plan = make_plan(advise(scenario, kb=kb), kb=kb, site=site)
        status = site_status(scenario, kb, args.site, args.site_db) if args.site else None
    if args.output is not None:
        written = plan.write(args.output)
        print(f"wrote {len(written)} files under {args.output}: {len(plan.runs)} runs; run "
              f"{args.output / 'run-all.sh'} on a disk like the hosts' ({plan.deps.device or 'none declared'})",
              file=sys.stderr)
    if args.format == "json":
        sys.stdout.write(jsonout.dumps({**plan.to_dict(), "status": status}, indent=2) + "\n")
        return 0
    lines = [f"benchmark plan for {plan.scenario}: {len(plan.runs)} runs (device class {plan.deps.device or '-'})"]
    lines += [f"  {r.name:<28} {', '.join(r.measures) or '-':<34} {r.why}" for r in plan.runs]
    lines.append(f"{len(plan.deps.calibrated)} figures would be calibrated to the site, {len(plan.deps.depends)} more "
                 f"use its figures, {len(plan.deps.documents)} do not depend on the site (documents, scenario hardware)")
    if plan.deps.reason:
        lines.append(f"note: {plan.deps.reason}")
    if args.site and status is None:
        lines.append(f"site {args.site!r} has no imports yet: after run-all.sh, capadvisor import --site {args.site} "
                     "results/* and run this again to see what they calibrate")
    elif status is not None:
        lines.append(f"site {status['site']}: {len(status['site_calibrated'])} figures calibrated to the site, "
                     f"{len(status['not_site_calibrated'])} still on the documents or the scenario's hardware")
        if status["rejected"]:
            lines.append(f"  the site's figures were not used: {status['rejected']}")
        lines += [f"  site      {_ref(s)}" for s in status["site_calibrated"]]
        lines += [f"  not site  {_ref(s)}" for s in status["not_site_calibrated"]]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _ref(s: dict) -> str:
    where = "cluster" if s["scope"] == "cluster" else s["scope"].split(":", 1)[-1]
    return f"{s['decision']} ({where}): {s['figure']} [{s['basis']}]"
