"""The host count's card shows the placement under constraints as a table (#32): one row per host
with its failure domain and VMs per workload; a card without constraints has none."""

from __future__ import annotations

from advisor.engine import advise
from knowledge.store import KnowledgeBase
from tests.advisor.test_placement_constraints import DOMAINS, cassandra, scenario
from ui.panels.qt_recommendations import RecommendationCard


def test_host_count_card_shows_the_placement_table(qtbot, kb_file):
    with KnowledgeBase.open(kb_file) as kb:
        advice = advise(scenario([cassandra(replication_factor=3)], domains=DOMAINS), kb=kb)
        plain = advise(scenario([cassandra()]), kb=kb)
    card = RecommendationCard(advice.find("host_count"))
    qtbot.addWidget(card)
    t = card.placement_table
    assert t is not None and t.accessibleName() == "Placement"
    rows = [tuple(t.item(i, j).text() for j in range(3)) for i in range(t.rowCount())]
    placed = advice.find("host_count").details["placement_by_host"]
    assert len(rows) == len(placed)
    assert rows[:3] == [("host-1", "rack-a", "cassandra 1"), ("host-2", "rack-b", "cassandra 1"),
                        ("host-3", "rack-c", "cassandra 1")]
    assert "binding: replication factor" in t.accessibleDescription()
    bare = RecommendationCard(plain.find("host_count"))
    qtbot.addWidget(bare)
    assert bare.placement_table is None
