"""The host count's card (the GUI's advice panel) states a room whose constrained search stopped at
its limit as a lower bound, in its figure and in its rationale ("at least 128 more web VMs"), as the
reports do (tests/app/test_cli_room_at_least.py)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel

from advisor.engine import advise
from advisor.recommend.room import STEPS
from advisor.scenario import load_scenario
from knowledge.store import KnowledgeBase
from tests.app.test_cli_room_at_least import SCENARIO
from ui.panels.qt_recommendations import RecommendationCard

pytestmark = pytest.mark.timeout(300)


def test_the_card_says_at_least_in_the_figure_and_the_rationale(qtbot, kb_file):
    with KnowledgeBase.open(kb_file) as kb:
        advice = advise(load_scenario(SCENARIO), kb=kb)
    card = RecommendationCard(advice.find("host_count"))
    qtbot.addWidget(card)
    texts = [label.text() for label in card.findChildren(QLabel)]
    assert any(f"headroom web: <b>at least {STEPS}</b> more VMs" in t for t in texts)
    assert any(f"for at least {STEPS} more web VMs" in t for t in texts)
