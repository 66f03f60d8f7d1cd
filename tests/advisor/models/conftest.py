"""Fixtures: the real knowledge base (``kb_path``/``kb`` shared with tests/knowledge) and trained families."""

from __future__ import annotations

import pytest

from knowledge.store import KnowledgeBase
from tests.knowledge.conftest import kb, kb_path  # noqa: F401 - fixtures re-used here


@pytest.fixture(scope="session")
def session_kb(kb_path):  # noqa: F811 - the fixture above
    base = KnowledgeBase(kb_path)
    yield base
    base.close()


@pytest.fixture(scope="session")
def trained(session_kb):
    """name -> trained family (fitted directly, bypassing the caches)."""
    from advisor.models import FAMILIES

    return {name: info.factory(session_kb).fit() for name, info in FAMILIES.items()}
