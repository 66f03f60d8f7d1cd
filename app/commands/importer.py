"""``capadvisor import FILE...``: read site benchmark files (fio, bonnie++, sysbench, PostMark,
IOzone) into the user database, one transaction per file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from knowledge.infra import jsonout
from knowledge.infra.errors import InputError

DEFAULT_SITE = "default"
_plugin_failures: list | None = None


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "import", help="import benchmark result files of a site (fio, bonnie++, sysbench, PostMark, IOzone)",
        description="Read benchmark result files and store their measurements under a site. The format is "
                    "recognised from the content: fio JSON/json+/text, bonnie++ CSV/table, sysbench fileio/cpu, "
                    "PostMark verbose/terse, IOzone table/-R report. Each file is stored in one transaction; "
                    "a file already imported into the site (same content) is reported, not stored twice. "
                    "Exit status 2 if any file could not be imported.")
    p.add_argument("files", nargs="*", type=Path, metavar="FILE")
    p.add_argument("--site", default=DEFAULT_SITE, help=f"site (customer, lab) to store under [{DEFAULT_SITE}]")
    p.add_argument("--dry-run", action="store_true", help="parse and print, store nothing")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--tool", help="skip format detection and use this importer (see --list-importers)")
    p.add_argument("--list-importers", action="store_true", help="print the known importers and exit")
    p.set_defaults(func=cmd_import)


def load_plugins() -> list:
    """Register third-party importers (entry-point group capadvisor.importers) once per process."""
    global _plugin_failures
    if _plugin_failures is None:
        from app.plugins import load_entry_points
        from knowledge.importers.registry import ENTRY_POINT_GROUP, register

        _plugin_failures = load_entry_points(ENTRY_POINT_GROUP, register)
        for f in _plugin_failures:
            print(f"capadvisor: warning: importer plug-in {f.name} ({f.value}) not loaded: {f.error}",
                  file=sys.stderr)
    return _plugin_failures


def measurement_record(m) -> dict:
    """A site measurement as JSON: metric, value, unit, value_si, subject, factors (also flattened)."""
    rec = {"metric": m.metric, "value": m.value, "unit": m.unit, "value_si": m.value_si,
           "subject": m.subject, "factors": dict(m.factors)}
    for k, v in m.factors.items():
        rec.setdefault(k, v)
    return rec


def import_one(path: Path, site: str, db, dry_run: bool, tool: str | None) -> dict:
    """Parse (and unless ``dry_run`` store) one file; never raises for a bad file."""
    from knowledge.importers.registry import REGISTRY

    rec: dict = {"path": str(path)}
    try:
        parsed = REGISTRY.parse_file(path, tool)
    except InputError as exc:
        return {**rec, "status": "failed", "error": str(exc), "tool": None, "tool_version": None,
                "measurements": [], "warnings": []}
    rec.update(tool=parsed.tool, tool_version=parsed.tool_version, format=parsed.format,
               content_hash=parsed.content_hash, parameters=parsed.parameters,
               measurements=[measurement_record(m) for m in parsed.measurements], warnings=parsed.warnings)
    previous = db.find_import(site, parsed.content_hash) if db is not None else None
    if previous is not None:
        rec.update(status="duplicate", import_id=previous.id,
                   note=f"same content already imported into site {site!r} from {previous.path} "
                        f"(import {previous.id}); not stored again")
    elif dry_run:
        rec["status"] = "parsed"
    else:
        try:
            rec["import_id"] = db.add_import(site, path=str(path.resolve()), tool=parsed.tool,
                                             tool_version=parsed.tool_version, content_hash=parsed.content_hash,
                                             parameters={"format": parsed.format, **parsed.parameters},
                                             measurements=parsed.measurements, warnings=parsed.warnings)
            rec["status"] = "imported"
        except InputError as exc:
            rec.update(status="failed", error=str(exc))
    return rec


def cmd_import(args) -> int:
    from knowledge.importers.registry import REGISTRY
    from knowledge.infra.paths import user_db_path
    from knowledge.userdb import UserDatabase

    failures = load_plugins()
    if args.list_importers:
        for imp in REGISTRY.importers():
            print(f"{imp.name:12} priority {imp.priority:4}  {imp.label}")
        return 0
    if not args.files:
        raise InputError("no FILE given (capadvisor import FILE... [--site NAME])")
    site = args.site.strip()
    if not site:
        raise InputError("--site needs a name")
    if args.tool:
        REGISTRY.get(args.tool)
    db = None
    if not args.dry_run or user_db_path().exists():
        db = UserDatabase()
    try:
        results = [import_one(path, site, db, args.dry_run, args.tool) for path in args.files]
    finally:
        if db is not None:
            db.close()
    failed = [r for r in results if r["status"] == "failed"]
    if args.format == "json":
        sys.stdout.write(jsonout.dumps({"site": site, "dry_run": args.dry_run, "files": results,
                   "imported": sum(r["status"] == "imported" for r in results),
                   "duplicates": sum(r["status"] == "duplicate" for r in results), "failed": len(failed),
                   "plugin_failures": [f.__dict__ for f in failures]}, indent=2, default=str))
        print()
    else:
        _print_text(results, site, args.dry_run)
    for r in failed:
        print(f"capadvisor: error: {r['error']}", file=sys.stderr)
    return InputError.exit_code if failed else 0


def _print_text(results: list[dict], site: str, dry_run: bool) -> None:
    from app.textfmt import fmt_number, table

    for r in results:
        if r["status"] == "failed":
            print(f"{r['path']}: FAILED (see the error below)")
            continue
        what = {"imported": f"imported into site {site!r} (import {r.get('import_id')})",
                "duplicate": f"already imported into site {site!r} (import {r.get('import_id')}): not stored again",
                "parsed": "dry run: nothing stored"}[r["status"]]
        print(f"{r['path']}: {r['tool']} {r['tool_version']} ({r['format']}), "
              f"{len(r['measurements'])} measurement(s), {what}")
        for w in r["warnings"]:
            print(f"  warning: {w}")
        if r["measurements"]:
            rows = [(m["metric"], fmt_number(m["value"], 6), m["unit"],
                     "; ".join(f"{k}={v}" for k, v in m["factors"].items())) for m in r["measurements"]]
            print("  " + table(("metric", "value", "unit", "factors"), rows).replace("\n", "\n  "))
        print()
    if dry_run:
        print("dry run: nothing was stored")
