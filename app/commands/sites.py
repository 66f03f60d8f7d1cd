"""``capadvisor sites``: list, show, compare and delete the sites whose benchmarks were imported."""

from __future__ import annotations

import argparse
import sys

from knowledge.infra import jsonout
from knowledge.infra.errors import InputError

#: figure name -> (label, unit) for text output
LABELS = {"seq_read_mib_s": ("sequential read", "MiB/s"), "seq_write_mib_s": ("sequential write", "MiB/s"),
          "rand_read_iops": ("random read", "IOPS"), "rand_write_iops": ("random write", "IOPS"),
          "rand_read_mib_s": ("random read", "MiB/s"), "rand_write_mib_s": ("random write", "MiB/s"),
          "cpu_events_per_s": ("CPU (sysbench)", "events/s")}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sites", help="list, show, compare and delete sites with imported benchmarks",
                       description="A site (a customer, a lab) holds the benchmark files imported with "
                                   "'capadvisor import --site NAME'. Its native figures (sequential and random "
                                   "throughput, IOPS, CPU speed) calibrate the advice.")
    ssub = p.add_subparsers(dest="sites_command", metavar="ACTION", required=True)
    ls = ssub.add_parser("list", help="every site with its imports and measurements")
    ls.add_argument("--format", choices=("text", "json"), default="text")
    ls.set_defaults(func=cmd_list)
    sh = ssub.add_parser("show", help="a site's figures, where each comes from, and its imports")
    sh.add_argument("name")
    sh.add_argument("--format", choices=("text", "json"), default="text")
    sh.set_defaults(func=cmd_show)
    cp = ssub.add_parser("compare", help="two sites' figures side by side (ratio B / A)")
    cp.add_argument("a")
    cp.add_argument("b")
    cp.add_argument("--format", choices=("text", "json"), default="text")
    cp.set_defaults(func=cmd_compare)
    de = ssub.add_parser("delete", help="delete a site with all its imports")
    de.add_argument("name")
    de.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    de.set_defaults(func=cmd_delete)
    ri = ssub.add_parser("remove-import", help="remove one imported file (and its measurements) from a site",
                         description="Remove one imported benchmark file from a site, with its measurements; "
                                     "the site's other imports stay. The ids are in 'capadvisor sites show SITE'.")
    ri.add_argument("site")
    ri.add_argument("import_id", type=int, metavar="IMPORT_ID")
    ri.set_defaults(func=cmd_remove_import)


def _db():
    from knowledge.userdb import UserDatabase

    return UserDatabase()


def cmd_list(args) -> int:
    from dataclasses import asdict

    from app.textfmt import table

    with _db() as db:
        sites = db.sites()
    if args.format == "json":
        sys.stdout.write(jsonout.dumps([asdict(s) for s in sites], indent=2))
        print()
        return 0
    if not sites:
        print("no sites yet: capadvisor import FILE... --site NAME")
        return 0
    print(table(("site", "imports", "measurements"), [(s.name, s.imports, s.measurements) for s in sites]))
    return 0


def cmd_show(args) -> int:
    from dataclasses import asdict

    from app.textfmt import fmt_number, table
    from knowledge.sites import summarize_site

    with _db() as db:
        summary = summarize_site(db, args.name)
        imports = db.imports(args.name)
    if args.format == "json":
        sys.stdout.write(jsonout.dumps({"summary": summary.as_dict(), "imports": [asdict(i) for i in imports]}, indent=2))
        print()
        return 0
    print(f"site {summary.site}\n")
    rows = []
    for name, value in summary.figures().items():
        label, unit = LABELS[name]
        src = summary.sources.get(name)
        rows.append((label, fmt_number(value, 5) if value is not None else "-", unit,
                     f"{src.tool}: {src.subject} ({src.path})" if src else ""))
    print(table(("figure", "value", "unit", "from"), rows))
    print()
    print(table(("import", "tool", "version", "file"), [(i.id, i.tool, i.tool_version, i.path) for i in imports]))
    return 0


def cmd_compare(args) -> int:
    from app.textfmt import fmt_number, table
    from knowledge.sites import compare_sites

    with _db() as db:
        cmp = compare_sites(db, args.a, args.b)
    if args.format == "json":
        sys.stdout.write(jsonout.dumps(cmp.as_dict(), indent=2))
        print()
        return 0
    rows = []
    for name, ratio in cmp.ratios.items():
        label, unit = LABELS[name]
        va, vb = getattr(cmp.a, name), getattr(cmp.b, name)
        rows.append((f"{label} ({unit})", fmt_number(va, 5) or "-", fmt_number(vb, 5) or "-",
                     fmt_number(ratio, 3) if ratio is not None else "-"))
    print(table(("figure", args.a, args.b, f"{args.b} / {args.a}"), rows))
    return 0


def cmd_delete(args) -> int:
    with _db() as db:
        site = db.site(args.name)
        if not args.yes:
            if not sys.stdin.isatty():
                raise InputError(f"deleting site {args.name!r} ({site.imports} imports, {site.measurements} "
                                 "measurements) needs --yes when not run interactively")
            answer = input(f"delete site {args.name!r} with {site.imports} imports and {site.measurements} "
                           "measurements? [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                print("not deleted")
                return 1
        removed = db.delete_site(args.name)
    print(f"deleted site {args.name!r} ({removed} measurements)")
    return 0


def cmd_remove_import(args) -> int:
    with _db() as db:
        rec, removed = db.delete_import(args.site, args.import_id)
    print(f"removed import {rec.id} ({rec.tool}: {rec.path}) from site {args.site!r} ({removed} measurements)")
    return 0
