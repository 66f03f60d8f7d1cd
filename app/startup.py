"""Start-up checks run by the CLI and the GUI before they do any work.

The program only ever writes to the user's directories (data, cache, config; see
:mod:`knowledge.infra.paths`); the bundled knowledge base is read-only. When one of those
directories cannot be written, the user gets a clear message naming it and the
environment variable that moves it, instead of a traceback deep inside a save.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from knowledge.infra import paths

#: (what the directory holds, environment variable that overrides it, function giving its path)
USER_DIRS: tuple[tuple[str, str, Callable[[], Path]], ...] = (
    ("user data directory (sites, imports, projects)", "CAPADVISOR_DATA_DIR", paths.user_data_dir),
    ("cache directory (compiled knowledge base, model cache)", "CAPADVISOR_CACHE_DIR", paths.user_cache_dir),
    ("settings directory", "CAPADVISOR_CONFIG_DIR", paths.user_config_dir),
)


def _problem(directory: Path) -> str | None:
    """Why ``directory`` cannot be created or written to, or None when it can."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot be created ({exc.strerror or exc})"
    if not directory.is_dir():
        return "is not a directory"
    try:
        fd, name = tempfile.mkstemp(prefix=".capadvisor-write-test-", dir=directory)
    except OSError as exc:
        return f"is not writable ({exc.strerror or exc})"
    os.close(fd)
    try:
        os.unlink(name)
    except OSError as exc:
        return f"does not let files be removed ({exc.strerror or exc})"
    return None


def check_user_dirs() -> list[str]:
    """Problems with the user's data, cache and settings directories, one sentence each.

    Each directory is created when missing and a temporary file is written to it and removed.
    An empty list means everything the program writes has a place to go.
    """
    problems = []
    for label, env, where in USER_DIRS:
        try:
            directory = where()
        except Exception as exc:  # noqa: BLE001 - e.g. no home directory at all
            problems.append(f"the {label} cannot be determined ({exc}); set {env} to a writable directory")
            continue
        why = _problem(directory)
        if why:
            problems.append(f"the {label} {directory} {why}; set {env} to a writable directory")
    return problems


def say_user_dir_problems() -> str | None:
    """:func:`check_user_dirs`, its problems said on stderr (:func:`user_dirs_message`), as every
    command says them before it runs (the GUI once its window is painted); returns the message, or
    None when all is well."""
    problems = check_user_dirs()
    if not problems:
        return None
    message = user_dirs_message(problems)
    print(message, file=sys.stderr)
    return message


def user_dirs_message(problems: list[str]) -> str:
    """The start-up message for :func:`check_user_dirs` problems (several lines, no trailing newline)."""
    lines = ["Capacity Advisor cannot save its files:"]
    lines += [f"  - {p}" for p in problems]
    lines.append("The knowledge base can still be read, but imports, sites, projects and settings "
                 "cannot be kept until this is fixed.")
    return "\n".join(lines)
