"""Trained models for the processes a test starts: the families are trained once per test session
(in memory, by digest) and written into the test's own model cache, so a ``capadvisor`` process or an
optimizer worker the test starts loads them (data-only files, checked like any cache) instead of
training every family again. What the process computes is the same: the cache holds the very
families it would fit."""

from __future__ import annotations

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
