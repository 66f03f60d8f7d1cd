"""``capadvisor advise SCENARIO``: cited recommendations for a scenario file."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from knowledge.infra import jsonout

#: formats written to a file only (-o): the workbook and the slide deck
BINARY_FORMATS = ("xlsx", "pptx")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "advise", help="recommend hypervisor, cache mode, over-allocation, storage, host count ...",
        description="Read a scenario (YAML, TOML or JSON; see resources/examples/) and recommend how to "
                    "build the cluster: every decision with its choice, alternatives, expected figures "
                    "with intervals, confidence, rationale and the documents' measurements it rests on. "
                    "With --site the predictions are calibrated to that site's imported benchmarks.")
    p.add_argument("scenario", type=Path, metavar="SCENARIO", help="scenario file (.yaml, .yml, .toml, .json)")
    p.add_argument("--site-db", type=Path, metavar="FILE",
                   help="user database holding the site benchmarks (default: your user database)")
    p.add_argument("--site", metavar="NAME", help="calibrate to this site's imported benchmarks")
    p.add_argument("--format", choices=("json", "md", "html", *BINARY_FORMATS), default="json",
                   help="output format (default json); xlsx: a workbook (design, bill of materials, placement, "
                        "decisions, targets, assumptions), pptx: a 16:9 slide deck with the charts; both need -o")
    p.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here (atomically) instead of stdout")
    p.add_argument("--kb", type=Path, help="use this compiled knowledge base file instead of the shipped one")
    p.add_argument("--catalogue", type=Path, metavar="FILE",
                   help="price the design with this cost catalogue (YAML; default: the one stored with "
                        "'capadvisor costs import'); the JSON gains 'cost'")
    p.add_argument("--no-catalogue", action="store_true", help="do not price the design")
    p.add_argument("--expand", action="store_true",
                   help="JSON of an estate (more than 200 workload groups): write every recommendation in full; "
                        "without it, one equal to an earlier one apart from its scope is written as "
                        "{decision, scope, choice, value, score, same_as: index of that earlier entry}")
    p.set_defaults(func=cmd_advise)


def _site_name(args, db) -> str | None:
    """--site, or the only site of an explicitly given --site-db."""
    from knowledge.infra.errors import InputError

    if args.site:
        return args.site
    if args.site_db is None:
        return None
    names = [s.name for s in db.sites()]
    if len(names) == 1:
        return names[0]
    raise InputError(f"{args.site_db} holds {len(names)} sites; choose one with --site "
                     f"({', '.join(names) or 'none'})")


def advice_for(args):
    """The advice for ``args.scenario``, calibrated with ``--site``/``--site-db`` when given (also
    used by ``export-config`` and ``bench-plan``)."""
    from advisor.engine import advise
    from advisor.scenario import load_scenario
    from knowledge.infra.errors import InputError
    from knowledge.store import KnowledgeBase

    scenario = load_scenario(args.scenario)
    db = None
    try:
        if args.site_db is not None or args.site:
            from knowledge.userdb import UserDatabase

            if args.site_db is not None and not args.site_db.exists():
                raise InputError(f"--site-db {args.site_db}: no such file")
            db = UserDatabase(args.site_db)
        site = _site_name(args, db) if db is not None else None
        catalogue = None
        if hasattr(args, "no_catalogue"):  # advise prices its design; export-config and bench-plan do not
            from app.commands.costs import catalogue_for

            catalogue = catalogue_for(args)
        with KnowledgeBase.open(args.kb) as kb:
            return advise(scenario, kb=kb, site=site, userdb=db, catalogue=catalogue)
    finally:
        if db is not None:
            db.close()


def json_text(data: dict, one_per_line: bool = False) -> str:
    """``data`` as indented JSON; with ``one_per_line`` (an estate) each recommendation is written
    on one line of its own (the indenting encoder is pure Python: at 10,000 workload groups it
    took seconds)."""
    if not one_per_line or not data.get("recommendations"):
        return jsonout.dumps(data, indent=2) + "\n"
    import os

    marker = f"recommendations-{os.urandom(16).hex()}"  # nothing in the data can hold it
    head, tail = jsonout.dumps({**data, "recommendations": marker}, indent=2).split(f'"{marker}"', 1)
    return "".join((head, "[\n    ", _entries(data["recommendations"]), "\n  ]", tail, "\n"))  # one copy of the text


#: where one recommendation ends and the next begins in the JSON of their list (each starts with
#: its decision); inside a string a quote is escaped, so only a dict after another in a list shows it
_NEXT = '}, {"decision": '


def _entries(recs: list[dict]) -> str:
    """Each recommendation's JSON (what jsonout.dumps writes of it), one per line (``,\\n`` and 4
    spaces between them). The list is written in one call of the C encoder and its entries parted
    at :data:`_NEXT` when it occurs exactly between them (one call per entry cost a third more at
    30,000 entries); else each entry is written on its own."""
    try:
        whole = json.dumps(recs, allow_nan=False)
        if whole.count(_NEXT) == len(recs) - 1:
            return whole[1:-1].replace(_NEXT, "},\n    " + _NEXT[3:])
    except ValueError:  # a non-finite number: jsonout writes it as null
        pass
    encode = json.JSONEncoder(allow_nan=False).encode  # what jsonout.dumps does, made once

    def line(rec: dict) -> str:
        try:
            return encode(rec)
        except ValueError:
            return jsonout.dumps(rec)

    return ",\n    ".join(line(r) for r in recs)


def cmd_advise(args) -> int:
    from knowledge.infra.gcpause import paused_gc

    with paused_gc():  # read, advise and write without the collector's walks (10,000 workloads: half the time)
        return _advise(args)


def _advise(args) -> int:
    if args.format in BINARY_FORMATS and args.output is None:
        from knowledge.infra.errors import InputError

        raise InputError(f"--format {args.format} writes a binary file: name it with -o FILE "
                         f"(e.g. -o design.{args.format})")
    advice = advice_for(args)
    if args.format in BINARY_FORMATS:
        return _write_deliverable(args, advice)
    today = None
    if advice.scenario.estate:  # an imported estate: today's settings next to the advice
        from advisor.inventory import today_vs_advised

        today = today_vs_advised(advice.scenario, advice.recommendations)
    if args.format == "json":
        data = advice.to_dict(expand=args.expand)
        if today is not None:
            data["today"] = today
        text = json_text(data, one_per_line=advice.estate_scale)
    elif args.format == "md":
        from advisor.render import to_markdown

        text = to_markdown(advice)  # with "Today vs advised" for an imported estate
    else:
        from advisor.render import to_html

        text = to_html(advice)
    if args.output:
        from knowledge.infra.atomic import write_text_atomic

        write_text_atomic(args.output, text)
        print(f"wrote {len(advice.recommendations)} recommendations to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _write_deliverable(args, advice) -> int:
    """The workbook (xlsx) or the slide deck (pptx) of ``advice``, written atomically to ``-o``."""
    data = advice.to_dict(expand=True)  # the one source of every number in the file
    if args.format == "xlsx":
        from advisor.deliverables.workbook import write_workbook

        write_workbook(args.output, data, advice.scenario)
    else:
        from app.commands.costs import catalogue_for
        from app.deliverables import write_slides

        write_slides(args.output, advice, data, args.kb, catalogue_for(args))
    print(f"wrote the {args.format} of {len(advice.recommendations)} recommendations to {args.output}",
          file=sys.stderr)
    return 0
