"""Fixtures of the advisor tests: the advice of a scenario, computed once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.engine import advise
from knowledge.store import KnowledgeBase
from tests.knowledge.conftest import kb_path  # noqa: F401 - the session's compiled knowledge base


@pytest.fixture(scope="session")
def session_kb(kb_path):  # noqa: F811
    with KnowledgeBase(kb_path) as kb:
        yield kb


@pytest.fixture(scope="session")
def advice_of(session_kb):
    """scenario path or mapping -> Advice (memoised per path)."""
    cache: dict = {}

    def get(scenario):
        key = str(scenario) if isinstance(scenario, Path) else None
        if key is not None and key in cache:
            return cache[key]
        advice = advise(scenario, kb=session_kb)
        if key is not None:
            cache[key] = advice
        return advice

    return get
