"""``capadvisor kb``: query, export and check the knowledge base of the five documents."""

from __future__ import annotations

import argparse
import csv
import io
import sys
from pathlib import Path

from knowledge.infra import jsonout
from knowledge.infra.errors import InputError

BASE_COLUMNS = ("document", "id", "locator", "metric", "value", "unit", "kind", "subject", "baseline",
                "qualifier", "value_low", "value_high", "value_si", "testbed", "note")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("kb", help="query, export and check the knowledge base",
                       description="The knowledge base: every measurement the five documents state, "
                                   "with document, locator (table/section/figure), unit and factors.")
    p.add_argument("--kb", type=Path, help="use this compiled knowledge base file instead of the shipped one")
    ksub = p.add_subparsers(dest="kb_command", metavar="ACTION", required=True)

    q = ksub.add_parser("query", help="measurements matching criteria, as a readable table")
    q.add_argument("--metric", "-m", help="metric name, e.g. throughput, downtime")
    q.add_argument("--document", "-d", help="document id or a unique prefix (e.g. 001)")
    q.add_argument("--locator", "-l", help="e.g. 'Table 5' or 'Section 5.4.1'")
    q.add_argument("--kind", "-k", help="absolute, ratio, percent_change, threshold, spec")
    q.add_argument("--where", "-w", action="append", default=[], metavar="FACTOR=LEVEL",
                   help="factor condition, repeatable (e.g. --where cache_mode=writeback)")
    q.add_argument("--format", choices=("text", "json", "csv"), default="text")
    q.set_defaults(func=cmd_query)

    e = ksub.add_parser("export", help="every measurement, one per row, one column per factor")
    e.add_argument("--format", choices=("csv", "json"), default="csv")
    e.add_argument("-o", "--output", type=Path, help="write to this file (default: standard output)")
    e.set_defaults(func=cmd_export)

    s = ksub.add_parser("stats", help="counts per document and per metric")
    s.add_argument("--format", choices=("text", "json"), default="text")
    s.set_defaults(func=cmd_stats)

    t = ksub.add_parser("testbeds", help="the machines and software of each experiment")
    t.add_argument("--document", "-d")
    t.add_argument("--format", choices=("text", "json"), default="text")
    t.set_defaults(func=cmd_testbeds)

    c = ksub.add_parser("conclusions", help="the documents' conclusions that drive the rules")
    c.add_argument("--decision")
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.set_defaults(func=cmd_conclusions)

    n = ksub.add_parser("notes", help="where the documents disagree with themselves, and which reading the advice uses",
                        description="Every inconsistency found in the five documents: document, locator, the "
                                    "measurement rows it concerns, what disagrees and which reading the advice uses.")
    n.add_argument("--document", "-d", help="only this document (id or a unique prefix, e.g. 004)")
    n.add_argument("--format", choices=("text", "json"), default="text")
    n.set_defaults(func=cmd_notes)

    v = ksub.add_parser("validate", help="check the curated data files (knowledge/data)")
    v.set_defaults(func=cmd_validate)

    b = ksub.add_parser("build", help="compile the curated data into a knowledge base file")
    b.add_argument("output", type=Path)
    b.set_defaults(func=cmd_build)


def _open(args):
    from knowledge.store import KnowledgeBase

    return KnowledgeBase.open(args.kb)


def parse_where(items: list[str]) -> dict[str, str]:
    """``["a=b", "c=d"]`` -> ``{"a": "b", "c": "d"}``; a malformed item is an input error."""
    out = {}
    for item in items:
        name, sep, level = item.partition("=")
        if not sep or not name.strip() or not level.strip():
            raise InputError(f"--where {item!r}: expected FACTOR=LEVEL")
        out[name.strip()] = level.strip()
    return out


def _records(rows, factor_names: list[str]) -> list[dict]:
    out = []
    for r in rows:
        rec = {"document": r.document, "id": r.key, "locator": r.locator, "metric": r.metric,
               "value": r.value, "unit": r.unit, "kind": r.kind, "subject": r.subject,
               "baseline": r.baseline, "qualifier": r.qualifier, "value_low": r.value_low,
               "value_high": r.value_high, "value_si": r.value_si, "testbed": r.testbed,
               "note": r.note}
        for f in factor_names:
            rec[f] = r.factors.get(f)
        out.append(rec)
    return out


def _write_csv(records: list[dict], columns: list[str], fh) -> None:
    writer = csv.DictWriter(fh, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for rec in records:
        writer.writerow({k: ("" if v is None else v) for k, v in rec.items()})


def cmd_query(args) -> int:
    from app.textfmt import fmt_number, table

    with _open(args) as kb:
        rows = kb.measurements(metric=args.metric, document=args.document, locator=args.locator,
                               kind=args.kind, where=parse_where(args.where))
        if args.format == "json":
            names = sorted({f for r in rows for f in r.factors})
            sys.stdout.write(jsonout.dumps(_records(rows, names), indent=2))
            print()
        elif args.format == "csv":
            names = sorted({f for r in rows for f in r.factors})
            _write_csv(_records(rows, names), [*BASE_COLUMNS, *names], sys.stdout)
        else:
            if not rows:
                print("no measurement matches")
                return 0
            body = []
            for r in rows:
                q = "" if r.qualifier == "=" else r.qualifier
                rng = (f" [{fmt_number(r.value_low)}-{fmt_number(r.value_high)}]"
                       if r.value_low is not None else "")
                body.append((r.document[:3], r.locator, r.metric, f"{q}{fmt_number(r.value, 6)}{rng}",
                             r.unit, r.kind, "; ".join(f"{k}={v}" for k, v in r.factors.items()),
                             r.subject))
            print(table(("doc", "locator", "metric", "value", "unit", "kind", "factors", "subject"), body))
            print(f"\n{len(rows)} measurement(s)")
    return 0


def cmd_export(args) -> int:
    with _open(args) as kb:
        rows = kb.all_measurements()
        names = kb.factor_names()
        records = _records(rows, names)
    buf = io.StringIO()
    if args.format == "json":
        buf.write(jsonout.dumps(records, indent=1))
        buf.write("\n")
    else:
        _write_csv(records, [*BASE_COLUMNS, *names], buf)
    if args.output:
        from knowledge.infra.atomic import write_text_atomic

        write_text_atomic(args.output, buf.getvalue())
        print(f"wrote {len(records)} measurements to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(buf.getvalue())
    return 0


def cmd_stats(args) -> int:
    from app.textfmt import table

    with _open(args) as kb:
        stats = kb.stats()
        docs = {d.id: d.short for d in kb.documents()}
    if args.format == "json":
        sys.stdout.write(jsonout.dumps(stats, indent=2))
        print()
        return 0
    print(f"{stats['measurements']} measurements, {stats['testbeds']} testbeds, "
          f"{stats['conclusions']} conclusions\n")
    print(table(("document", "measurements", "about"),
                [(d, n, docs.get(d, "")) for d, n in stats["per_document"].items()]))
    print()
    print(table(("metric", "measurements"), list(stats["per_metric"].items())))
    print()
    print(table(("kind", "measurements"), list(stats["per_kind"].items())))
    return 0


def cmd_testbeds(args) -> int:
    from dataclasses import asdict

    from app.textfmt import table

    with _open(args) as kb:
        rows = kb.testbeds(args.document)
    if args.format == "json":
        sys.stdout.write(jsonout.dumps([asdict(r) for r in rows], indent=2))
        print()
        return 0
    print(table(("document", "id", "locator", "cpu", "cores", "ram", "disks", "nic", "hypervisor"),
                [(r.document[:3], r.id, r.locator, r.cpu, r.cores, r.ram, r.disks, r.nic,
                  f"{r.hypervisor} {r.hypervisor_version}".strip()) for r in rows]))
    return 0


def cmd_conclusions(args) -> int:
    from dataclasses import asdict

    with _open(args) as kb:
        rows = kb.conclusions(args.decision)
    if args.format == "json":
        sys.stdout.write(jsonout.dumps([asdict(r) for r in rows], indent=2))
        print()
        return 0
    for r in rows:
        print(f"[{r.decision}] {r.document[:3]} {r.locator} ({r.id})")
        print(f"    if   {r.condition}")
        print(f"    then {r.recommendation}")
        if r.evidence:
            print(f"    evidence: {', '.join(r.evidence)}")
    return 0


def cmd_notes(args) -> int:
    """``kb notes``: the document notes, readable or as a JSON list of objects."""
    import textwrap

    with _open(args) as kb:
        notes = kb.notes(args.document)
        short = {d.id: d.short for d in kb.documents()}
    if args.format == "json":
        sys.stdout.write(jsonout.dumps([n.to_dict() for n in notes], indent=2))
        print()
        return 0
    if not notes:
        print("no document notes")
        return 0
    for n in notes:
        print(f"{n.document[:3]} {n.locator} [{n.id}] ({short.get(n.document, '')})")
        if n.rows:
            print(textwrap.fill(", ".join(n.rows), 100, initial_indent="    rows:    ",
                                subsequent_indent=" " * 13))
        print(textwrap.fill(n.text, 100, initial_indent="    issue:   ", subsequent_indent=" " * 13))
        print(textwrap.fill(n.reading, 100, initial_indent="    reading: ", subsequent_indent=" " * 13))
        print()
    print(f"{len(notes)} note(s)")
    return 0


def cmd_validate(args) -> int:
    from knowledge import curated

    try:
        cur = curated.load()
    except curated.CurationError as exc:
        print(exc)
        return 1
    print(f"ok: {len(cur.measurements)} measurements, {len(cur.testbeds)} testbeds, "
          f"{len(cur.conclusions)} conclusions, {len(cur.notes)} notes from {len(cur.documents)} documents")
    return 0


def cmd_build(args) -> int:
    from knowledge import build, curated

    try:
        cur = build.build(args.output)
    except curated.CurationError as exc:
        print(exc)
        return 1
    print(f"wrote {args.output}: {len(cur.measurements)} measurements")
    return 0
