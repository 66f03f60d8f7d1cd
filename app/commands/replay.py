"""``capadvisor replay``: the documents' own experiments replayed as scenarios, measured vs expected."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from knowledge.infra import jsonout


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay", help="replay the documents' experiments: measured vs the advice's expected figures",
        description="Run every experiment of the five documents that the knowledge base holds (each table, "
                    "figure series and worked example, written once as a scenario in resources/replay/) "
                    "through the advisor and list, per measured value, the document's number, the advice's "
                    "expected figure with its interval, and whether it lies within. Exits 1 when the in-sample "
                    "bar fails: fewer than 95 % of the experiments pass, or a setup a document ran gets no "
                    "host count.")
    p.add_argument("--document", action="append", metavar="ID",
                   help="only this document (id or prefix, e.g. 001; repeatable)")
    p.add_argument("--format", choices=("json", "md", "text"), default="text", help="output format (default text)")
    p.add_argument("--held-out", action="store_true",
                   help="leave each experiment out: refit the models without its rows before replaying it (the "
                        "headline: reported beside the in-sample replay)")
    p.add_argument("--suite", type=Path, metavar="DIR", help="folder of replay files (default: the program's resources/replay)")
    p.add_argument("-o", "--output", type=Path, metavar="FILE", help="write here (atomically) instead of stdout")
    p.add_argument("--kb", type=Path, help="use this compiled knowledge base file instead of the shipped one")
    p.set_defaults(func=cmd_replay)


def cmd_replay(args) -> int:
    from advisor import replay
    from knowledge.store import KnowledgeBase

    experiments = replay.load_suite(args.suite)
    setups = replay.load_setups(args.suite)
    not_experiments = replay.load_not_experiments(args.suite)
    with KnowledgeBase.open(args.kb) as kb:
        result = replay.run(experiments, kb, documents=args.document, held_out=args.held_out, setups=setups,
                            not_experiments=not_experiments)
        if args.held_out:  # held out is the headline; in-sample beside it
            result.other = replay.run(experiments, kb, documents=args.document).headline()
    if args.format == "json":
        text = jsonout.dumps(result.to_dict(), indent=2) + "\n"
    elif args.format == "md":
        text = replay.to_markdown(result)
    else:
        text = replay.to_text(result)
    if args.output:
        from knowledge.infra.atomic import write_text_atomic

        write_text_atomic(args.output, text)
        s = result.to_dict()["summary"]
        print(f"wrote {s['experiments']} experiments ({s['passed']} pass) to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    if args.held_out:  # leave-one-out errors are reported, not judged against the in-sample bar
        return 0
    return 0 if result.ok else 1
