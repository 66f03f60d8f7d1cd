"""``capadvisor import FILE...``: read site benchmark files (fio, bonnie++, sysbench, PostMark,
IOzone) into the user database, one transaction per file, through the one site-import workflow
(:func:`knowledge.importers.workflow.import_files`) that the GUI's Sites tab uses too."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from knowledge.infra import jsonout
from knowledge.infra.errors import InputError

DEFAULT_SITE = "default"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "import", help="import benchmark result files of a site (fio, bonnie++, sysbench, PostMark, IOzone)",
        description="Read benchmark result files and store their measurements under a site. The format is "
                    "recognised from the content: fio JSON/json+/text, bonnie++ CSV/table, sysbench fileio/cpu, "
                    "PostMark verbose/terse, IOzone table/-R report/throughput mode. Each file is stored in one transaction; "
                    "a file already imported into the site (same content) is reported, not stored twice. "
                    "Exit status 2 if any file could not be read, 3 if the database could not store one "
                    "(locked, disk full, read-only, damaged).")
    p.add_argument("files", nargs="*", type=Path, metavar="FILE")
    p.add_argument("--site", default=DEFAULT_SITE, help=f"site (customer, lab) to store under [{DEFAULT_SITE}]")
    p.add_argument("--dry-run", action="store_true", help="parse and print, store nothing")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--tool", help="skip format detection and use this importer (see --list-importers)")
    p.add_argument("--list-importers", action="store_true", help="print the known importers and exit")
    p.set_defaults(func=cmd_import)


def load_plugins() -> list:
    """The importer plug-ins that failed to load (the registry loads its entry points itself)."""
    from knowledge.importers.registry import REGISTRY

    return REGISTRY.plugin_failures


def cmd_import(args) -> int:
    from knowledge.importers.registry import REGISTRY
    from knowledge.importers.workflow import import_files

    failures = REGISTRY.plugin_failures
    for f in failures:
        print(f"capadvisor: warning: importer plug-in {f.name} ({f.value}) not loaded: {f.error}",
              file=sys.stderr)
    if args.list_importers:
        for imp in REGISTRY.importers():
            print(f"{imp.name:12} priority {imp.priority:4}  {imp.label}")
        return 0
    if not args.files:
        raise InputError("no FILE given (capadvisor import FILE... [--site NAME])")
    if not args.site.strip():
        raise InputError("--site needs a name")
    batch = import_files(args.files, args.site, dry_run=args.dry_run, tool=args.tool)
    if args.format == "json":
        sys.stdout.write(jsonout.dumps(batch.to_dict(), indent=2, default=str))
        print()
    else:
        _print_text(batch)
    for r in batch.failed:
        print(f"capadvisor: error: {r.error}", file=sys.stderr)
    return batch.exit_code


def _print_text(batch) -> None:
    from app.textfmt import fmt_number, table

    site = batch.site
    for r in batch.files:
        if r.status == "failed":
            print(f"{r.path}: FAILED (see the error below)")
            continue
        what = {"imported": f"imported into site {site!r} (import {r.import_id})",
                "duplicate": f"already imported into site {site!r} (import {r.import_id}): not stored again",
                "parsed": "dry run: nothing stored"}[r.status]
        print(f"{r.path}: {r.tool} {r.tool_version} ({r.format}), {r.summary()}, "
              f"{len(r.measurements)} measurement(s), {what}")
        for w in r.warnings:
            print(f"  warning: {w}")
        if r.measurements:
            rows = [(m.metric, fmt_number(m.value, 6), m.unit,
                     "; ".join(f"{k}={v}" for k, v in m.factors.items())) for m in r.measurements]
            print("  " + table(("metric", "value", "unit", "factors"), rows).replace("\n", "\n  "))
        print()
    if batch.dry_run:
        print("dry run: nothing was stored")
    print(batch.summary())
