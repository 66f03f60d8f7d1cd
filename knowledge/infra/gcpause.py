"""Python's cyclic garbage collector paused while one large piece of work builds many objects.

The collector runs after every 700 new container objects and, now and then, walks *every* live
object: while an advice of 10,000 workloads is built (millions of dicts and lists, nearly all of
them alive until the end) those walks took half the run time, more the larger the heap. Reference
counting still frees everything that is not in a reference cycle; cycles made meanwhile are
collected when the collector runs again after the work.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic collector for the ``with`` block; re-enable it afterwards only if it was
    enabled when the block began (nested and concurrent uses leave it as the outermost found it;
    at worst it runs during part of a block)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
