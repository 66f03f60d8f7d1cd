"""Running the CLI on hostile input the way a user does, but bounded: a separate process under a
2 GiB address-space limit (``RLIMIT_AS``) and a wall-clock timeout. An input that makes the
program allocate without bound ends in a MemoryError (a traceback: the test fails), one that
makes it loop ends in the timeout; neither takes the machine with it."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass

#: the address space every hostile run gets (issue #34: "checked under a 2 GB address-space limit")
ADDRESS_SPACE = 2 * 1024**3
_MAIN = "import sys; from app.cli import main; sys.exit(main(sys.argv[1:]))"


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def traceback(self) -> bool:
        return "Traceback (most recent call last)" in self.err or "MemoryError" in self.err


def _limit() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def run_capped(*argv: str, timeout: float = 120, cwd=None) -> Run:
    """``capadvisor ARGV`` in a child process under :data:`ADDRESS_SPACE`; a timeout fails."""
    env = {**os.environ, "PYTHONFAULTHANDLER": "0"}
    try:
        p = subprocess.run([sys.executable, "-c", _MAIN, *map(str, argv)], capture_output=True, text=True,
                           timeout=timeout, preexec_fn=_limit, env=env, cwd=cwd, errors="replace")
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"capadvisor {' '.join(map(str, argv))[:200]}: still running after {timeout} s") from exc
    return Run(p.returncode, p.stdout, p.stderr)
