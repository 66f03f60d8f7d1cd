"""``capadvisor gui``: the desktop application (also what ``capadvisor`` alone starts)."""

from __future__ import annotations

import argparse
from pathlib import Path

DEFAULT_SIZE = "1280x800"


def default_args() -> argparse.Namespace:
    """``capadvisor gui`` without options, as the parser would give it (a test holds the two equal):
    the launcher starts without building the parser."""
    return argparse.Namespace(command="gui", scenario=None, screenshots=None, size=DEFAULT_SIZE, font_pt=None,
                              kb=None, func=cmd_gui, checks_dirs_itself=True)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "gui", help="start the desktop application (the default without a command)",
        description="The desktop application: edit a scenario, see the recommendations with their "
                    "measurements, plots, what-if sliders, real-time calculator, knowledge-base browser, "
                    "imports, comparison, report export and workshop mode. With --screenshots, render "
                    "every view to DIR/<view>.png and exit (works without a display).",
        epilog="Without a display: QT_QPA_PLATFORM=offscreen capadvisor gui --screenshots DIR, "
               "or xvfb-run capadvisor gui.")
    p.add_argument("--scenario", type=Path, metavar="FILE", help="open this scenario file (YAML, TOML, JSON)")
    p.add_argument("--screenshots", type=Path, metavar="DIR",
                   help="render every view (each tab, the report preview, workshop mode) to DIR/<view>.png "
                        "and exit 0")
    p.add_argument("--size", default=DEFAULT_SIZE, metavar="WxH",
                   help=f"window size in pixels for --screenshots (default {DEFAULT_SIZE})")
    p.add_argument("--font-pt", type=float, default=None, metavar="PT",
                   help="base font size in points for this run (e.g. 16 to check large fonts; default: the "
                        "preferences')")
    p.add_argument("--kb", type=Path, help="use this compiled knowledge base file instead of the shipped one")
    # the user's directories are checked by the GUI once its window is painted (app.gui.warn_unwritable_dirs)
    p.set_defaults(func=cmd_gui, checks_dirs_itself=True)


def cmd_gui(args) -> int:
    from app.gui import parse_size, run

    size = parse_size(args.size)
    if args.font_pt is not None and not 6.0 <= args.font_pt <= 40.0:
        from knowledge.infra.errors import InputError

        raise InputError(f"--font-pt {args.font_pt:g}: between 6 and 40 points")
    return run(scenario=args.scenario, screenshots=args.screenshots, size=size, kb_path=args.kb,
               font_pt=args.font_pt)
