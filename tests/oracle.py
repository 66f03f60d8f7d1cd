"""Checks of a fast algorithm against brute force (marked ``oracle``) search the full space in CI
(``CI=true``, which CI sets) and a smaller one elsewhere, so that the suite stays quick on a developer's
machine while CI keeps the whole check."""

from __future__ import annotations

import os

#: the full brute-force spaces (CI), else smaller ones
FULL = os.environ.get("CI") == "true"


def size(full: int, small: int) -> int:
    """``full`` in CI, ``small`` elsewhere."""
    return full if FULL else small
