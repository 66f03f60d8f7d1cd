"""Cards and the report show what each figure rests on (issue 23): the basis and the hardware figures."""

from __future__ import annotations

from pathlib import Path

from advisor.engine import advise
from knowledge.store import KnowledgeBase
from ui.panels.qt_recommendations import RecommendationCard, basis_text
from ui.report import report_html

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "scenario.yaml"


def test_card_and_report_show_the_basis_and_the_hardware(qtbot, kb_file):
    with KnowledgeBase.open(kb_file) as kb:
        advice = advise(EXAMPLE, kb=kb)
    rec = advice.find("cache_mode", "workload:web")
    card = RecommendationCard(rec)
    qtbot.addWidget(card)
    text = card.basis_label.text()
    assert "Basis: <b>scenario hardware (per-kind defaults)</b>" in text
    assert "SSD" in text and "50,000 IOPS" in text and "(per-kind default)" in text and "10 Gb/s (declared)" in text
    assert "doc 001 TB1" in card.basis_label.toolTip()  # the testbed the ratios come from
    # a card whose figures rest on two bases says which is which
    two = basis_text({"a": {"value": 1, "basis": "documents", "hardware": []},
                      "b": {"value": 2, "basis": "scenario hardware (declared)", "hardware": ["host NIC: 10 Gb/s (declared)"]}})
    assert "<b>scenario hardware (declared)</b> (b) — on host NIC: 10 Gb/s (declared)" in two
    assert "<b>documents</b> (a)" in two
    page = report_html("r", advice, {})
    assert "scenario hardware (per-kind defaults)" in page and "50,000 IOPS each (per-kind default)" in page
