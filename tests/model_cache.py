"""Trained models for the processes a test starts: the families are trained once per test session
(in memory, by digest) and written into the test's own model cache, so a ``capadvisor`` process or an
optimizer worker the test starts loads them (data-only files, checked like any cache) instead of
training every family again. What the process computes is the same: the cache holds the very
families it would fit."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path


def warm(kb_path: Path) -> Path:
    """Fill the current user cache directory (the test's) with the trained families of ``kb_path``;
    return the cache folder."""
    from advisor import models
    from knowledge.store import KnowledgeBase

    with KnowledgeBase(kb_path) as kb:
        for name, fam in models.train_all(kb).items():
            models._store(kb, name, fam)  # noqa: SLF001 - the cache's own writer, as get_family uses it
        return models.cache_dir(kb)


@contextmanager
def fresh_memory():
    """The in-memory trained families cleared for the block (it trains or loads them again) and put back
    after it, so that the tests after it do not train every family once more."""
    from advisor import models

    with models._lock:  # noqa: SLF001 - the registry's own memory
        kept = dict(models._memory)  # noqa: SLF001
    models.clear_memory_cache()
    try:
        yield
    finally:
        models.clear_memory_cache()
        with models._lock:  # noqa: SLF001
            models._memory.update(kept)  # noqa: SLF001
