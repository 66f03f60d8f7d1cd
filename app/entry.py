"""Running a command line: the parser of the given sub-command modules, the user's directories
checked, errors turned into exit codes. :func:`app.cli.main` runs it with every command;
:func:`gui_main` (the ``capadvisor-gui`` entry point) with the gui command only: the window's
start-up neither imports the other commands nor builds their options (issue #30)."""

from __future__ import annotations

import argparse
import os
import sys
from types import ModuleType

from app import __version__

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


def build_parser(commands: tuple[ModuleType, ...]) -> argparse.ArgumentParser:
    """The argument parser with the sub-commands of ``commands`` registered."""
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
    """Entry point of ``capadvisor-gui``: the same options as ``capadvisor gui``."""
    from app.commands import gui

    args = sys.argv[1:] if argv is None else list(argv)
    if not args:  # the launcher's usual start: nothing to parse (building the parser is ~3 ms, issue #30)
        return execute(gui.default_args())
    return run(["gui", *args], (gui,))


def run(argv: list[str] | None, commands: tuple[ModuleType, ...]) -> int:
    """Run the command line ``argv`` (default: the process's) with the sub-commands of ``commands``;
    return the process exit code."""
    args_list = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(commands)
    if not args_list:
        args_list = ["gui"]
    _refuse_misread_values(parser, args_list)
    args = parser.parse_args(args_list)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    return execute(args)


def _refuse_misread_values(parser: argparse.ArgumentParser, args_list: list[str]) -> None:
    """Values argparse would misread, refused here naming the option, with the usage's exit code:
    ``--share=--`` (argparse takes the ``--`` for the end of the options and hands the option an
    empty list: a traceback further on, or a default taken silently) and an empty file name
    (``-o ''``: ``Path('')`` is the current folder, "cannot write .: Device or resource busy")."""
    known, paths = _options(parser)
    for i, token in enumerate(args_list):
        if token == "--":  # the end of the options: what follows is not an option
            return
        option, sep, value = token.partition("=")
        if sep and value == "--" and option in known:  # an unknown one: argparse's own message names it
            parser.error(f"argument {option}: '--' is not a value (it ends the options); give the value itself")
        if (sep and not value and option in paths) or (
                not sep and token in paths and i + 1 < len(args_list) and not args_list[i + 1].strip()):
            parser.error(f"argument {option}: no file name given (it is empty)")


def _options(parser: argparse.ArgumentParser) -> tuple[set[str], set[str]]:
    """(the long options, the options that take a file or folder name) of ``parser`` and of its
    sub-commands, in one walk."""
    from pathlib import Path

    known: set[str] = set()
    paths: set[str] = set()
    for action in parser._actions:
        known.update(o for o in action.option_strings if o.startswith("--"))
        if action.type is Path:
            paths.update(action.option_strings)
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                k, p = _options(sub)
                known |= k
                paths |= p
    return known, paths


def execute(args: argparse.Namespace) -> int:
    """Run the parsed command ``args`` (its ``func``): the user's directories checked first (unless
    the command does it itself, ``checks_dirs_itself``), the umask owner-only while it runs, errors
    turned into exit codes."""
    from app.startup import say_user_dir_problems
    from knowledge.infra.errors import UserFacingError

    # files and folders the program creates (user database, caches, settings, exports) are the
    # user's own: owner-only permissions, whatever the shell's umask; restored for in-process callers
    old_umask = os.umask(0o077) if hasattr(os, "umask") else None
    try:
        if not getattr(args, "checks_dirs_itself", False):  # the GUI: once its window is up (issue #30)
            say_user_dir_problems()  # first; commands that only read still work
        return int(args.func(args) or 0)
    except UserFacingError as exc:
        if getattr(args, "checks_dirs_itself", False):
            say_user_dir_problems()  # its window, which would say them, never came
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
