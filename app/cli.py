"""The ``capadvisor`` command line.

Each sub-command lives in :mod:`app.commands` as a module with ``register(subparsers)``;
heavy imports happen inside the command, so ``--help`` and ``--version`` are instant.
With no sub-command the GUI starts.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from app import __version__

#: sub-command modules in app.commands, in the order --help lists them
COMMANDS = ("gui", "advise", "inventory", "kb", "rt", "probe", "importer", "sites", "replay", "export_config",
            "bench_plan", "costs", "optimize")

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="capadvisor",
        description=(
            "Capacity Advisor: how to build a virtualized cluster (hypervisor, KVM cache mode, "
            "vCPU over-allocation, storage backend, real-time VM period and budget, host count), "
            "with the measurements behind every recommendation. Without a command, the GUI starts."
        ),
    )
    parser.add_argument("--version", action="version", version=f"capadvisor {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"app.commands.{name}")
        except ModuleNotFoundError as exc:  # a command not built yet must not break the others
            if exc.name != f"app.commands.{name}":
                raise
            continue
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return the process exit code."""
    from knowledge.infra.errors import UserFacingError

    args_list = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    if not args_list:
        args_list = ["gui"]
    args = parser.parse_args(args_list)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    from app.startup import check_user_dirs, user_dirs_message

    # files and folders the program creates (user database, caches, settings, exports) are the
    # user's own: owner-only permissions, whatever the shell's umask; restored for in-process callers
    old_umask = os.umask(0o077) if hasattr(os, "umask") else None
    try:
        problems = check_user_dirs()
        if problems:  # say it first; commands that only read still work
            print(user_dirs_message(problems), file=sys.stderr)
        return int(args.func(args) or 0)
    except UserFacingError as exc:
        print(f"capadvisor: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("capadvisor: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    finally:
        if old_umask is not None:
            os.umask(old_umask)
