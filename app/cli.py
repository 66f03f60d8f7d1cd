"""The ``capadvisor`` command line.

Each sub-command lives in :mod:`app.commands` as a module with ``register(subparsers)``, imported
here by name (so import-linter and a frozen build see every command, and a broken one fails at
once); heavy imports happen inside the command, so ``--help`` and ``--version`` are instant.
With no sub-command the GUI starts.
"""

from __future__ import annotations

import argparse
import os
import sys
from types import ModuleType

from app import __version__
from app.commands import (
    advise,
    bench_plan,
    costs,
    export_config,
    gui,
    importer,
    inventory,
    kb,
    optimize,
    probe,
    replay,
    rt,
    sites,
)

#: the sub-command modules, in the order --help lists them
COMMANDS: tuple[ModuleType, ...] = (gui, advise, inventory, kb, rt, probe, importer, sites, replay, export_config,
                                    bench_plan, costs, optimize)

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


def build_parser(commands: tuple[ModuleType, ...] = COMMANDS) -> argparse.ArgumentParser:
    """The full argument parser with every sub-command registered (or those of ``commands``)."""
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
    for module in commands:
        module.register(sub)
    return parser


def gui_main(argv: list[str] | None = None) -> int:
    """Entry point of ``capadvisor-gui``: the same options as ``capadvisor gui`` (only its parser is
    built: the window's start-up does not wait for the other commands' options, issue #30)."""
    args = sys.argv[1:] if argv is None else list(argv)
    return main(["gui", *args], commands=(gui,))


def main(argv: list[str] | None = None, commands: tuple[ModuleType, ...] = COMMANDS) -> int:
    """Run the CLI (the sub-commands of ``commands``); return the process exit code."""
    from knowledge.infra.errors import UserFacingError

    args_list = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(commands)
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
