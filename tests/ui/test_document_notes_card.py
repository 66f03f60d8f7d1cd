"""Issue 28: a card whose figures rest on a row a document note concerns shows the note (where the
document disagrees with itself, and which reading the advice uses). Real engine, real widgets."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.engine import advise
from knowledge.store import KnowledgeBase
from ui.panels.qt_recommendations import RecommendationCard

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "scenario.yaml"

pytestmark = pytest.mark.timeout(300)


def test_the_card_shows_each_document_note_in_full(qtbot, kb_file):
    with KnowledgeBase.open(kb_file) as kb:
        advice = advise(EXAMPLE, kb=kb)
    rec = advice.find("storage_backend", "cluster")
    assert rec.notes
    card = RecommendationCard(rec)
    qtbot.addWidget(card)
    text = card.notes_label.text()
    assert "Document notes on these figures" in text and "26.7" in text and "Reading used:" in text
    assert text.count("•") == len(rec.notes)
    assert card.notes_label.accessibleName().startswith(f"{len(rec.notes)} document note")
    rec.notes = []
    bare = RecommendationCard(rec)
    qtbot.addWidget(bare)
    assert bare.notes_label is None
