"""Where the test data kept out of the repository is found: third-party files that only a fetched
snapshot holds may never be committed (workplace rule), so a checkout reads them from outside itself.

In order: ``$CAPADVISOR_PUBLISHED`` (a folder), the fixture folder's own ``local/`` (a developer's
copy, ignored by git), then ``shared/published/`` beside the checkout or one level further up
(``../shared/published/`` of the main checkout, ``../../shared/published/`` of a worktree under
``wt/``): CI and every developer machine have it. The caller checks the file's sha256 against SOURCES.md.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def folders(local: Path) -> list[Path]:
    """The folders a kept-out file of the fixture folder whose ``local/`` is ``local`` may be in."""
    env = os.environ.get("CAPADVISOR_PUBLISHED")
    shared = [up / "shared" / "published" for up in (ROOT.parent, ROOT.parent.parent)]
    return ([Path(env)] if env else []) + [local] + shared


def find(name: str, local: Path) -> Path | None:
    """The kept-out file ``name``, or None when no folder holds it."""
    return next((d / name for d in folders(local) if (d / name).is_file()), None)
