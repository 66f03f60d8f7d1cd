"""Fixtures: the real knowledge base, compiled once per session."""

from __future__ import annotations

from tests.advisor.models.conftest import session_kb  # noqa: F401 - fixtures re-used here
from tests.knowledge.conftest import kb_path  # noqa: F401
