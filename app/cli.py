"""The ``capadvisor`` command line.

Each sub-command lives in :mod:`app.commands` as a module with ``register(subparsers)``, imported
here by name (so import-linter and a frozen build see every command, and a broken one fails at
once); heavy imports happen inside the command, so ``--help`` and ``--version`` are instant.
With no sub-command the GUI starts. Parsing and running are :mod:`app.entry`'s, which the
``capadvisor-gui`` entry point uses without this module (issue #30).
"""

from __future__ import annotations

import argparse
from types import ModuleType

from app import entry
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

EXIT_OK, EXIT_ERROR, EXIT_USAGE = entry.EXIT_OK, entry.EXIT_ERROR, entry.EXIT_USAGE
#: the ``capadvisor-gui`` entry point (:func:`app.entry.gui_main`), under the name it had here
gui_main = entry.gui_main


def build_parser(commands: tuple[ModuleType, ...] = COMMANDS) -> argparse.ArgumentParser:
    """The full argument parser with every sub-command registered (or those of ``commands``)."""
    return entry.build_parser(commands)


def main(argv: list[str] | None = None, commands: tuple[ModuleType, ...] = COMMANDS) -> int:
    """Run the CLI (the sub-commands of ``commands``); return the process exit code."""
    return entry.run(argv, commands)
