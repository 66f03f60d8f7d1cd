"""Document notes (issue 28): every inconsistency of the five documents is curated in
``knowledge/data/<doc>/notes*.csv``, validated like the measurements, compiled into the knowledge
base and listed by ``capadvisor kb notes``. Real curated data, real SQLite file."""

from __future__ import annotations

import pytest

from knowledge import build, curated
from knowledge.store import KnowledgeBase

pytestmark = pytest.mark.timeout(120)

MINI_NOTES = """id,locator,rows,text,reading
N-01,Table 1,T1-01;T1-02,the text ranks the two cells the other way round,the table's values
"""


def test_every_document_has_notes_each_on_existing_rows():
    cur = curated.load()
    by_doc: dict[str, int] = {}
    ids = {(m.document, m.key) for m in cur.measurements}
    for n in cur.notes:
        by_doc[n.document] = by_doc.get(n.document, 0) + 1
        assert n.text and n.reading and n.locator, n
        assert all((n.document, r) in ids for r in n.rows), n
    assert set(by_doc) == {d.id for d in cur.documents}
    assert all(count >= 4 for count in by_doc.values()), by_doc


def test_the_known_inconsistencies_are_notes_with_their_numbers():
    """The four examples of the issue, each on the document's own rows and numbers."""
    notes = {(n.document[:3], n.id): n for n in curated.load().notes}
    text = {k: f"{n.text} {n.reading}" for k, n in notes.items()}
    factor = next(n for k, n in notes.items() if k[0] == "002" and "F6-09" in n.rows)
    assert "26.7" in factor.text and "30" in factor.text
    wt = next(n for k, n in notes.items() if k[0] == "001" and "T1-02" in n.rows and "T1-03" in n.rows)
    assert "5.41" in wt.text and "3.98" in wt.text
    xen = next(n for k, n in notes.items() if k[0] == "004" and "c5-F5.11-09" in n.rows)
    assert all(v in xen.text for v in ("4 ms", "280 ms", "300 ms", "0.3 s"))
    loaded = next(n for k, n in notes.items() if k[0] == "004" and n.locator == "Table 8.2")
    assert "Section 8.4.1" in loaded.text and "c8-083" in loaded.rows
    assert len(text) >= 25


def test_a_note_on_a_missing_row_or_without_reading_is_reported_with_file_and_line(mini_data):
    path = mini_data / "001_59d3b1dfbc4dd7d1" / "notes.csv"
    path.write_text(MINI_NOTES)
    assert [n.rows for n in curated.load(mini_data).notes] == [("T1-01", "T1-02")]
    path.write_text(MINI_NOTES.replace("T1-02,", "T9-99,").replace(",the table's values", ","))
    with pytest.raises(curated.CurationError) as info:
        curated.load(mini_data)
    problems = info.value.problems
    assert any("notes.csv:2: rows: 'T9-99' is not a measurement id" in p for p in problems), problems
    assert any("notes.csv:2: reading is empty" in p for p in problems), problems


def test_the_knowledge_base_holds_the_notes_and_finds_them_by_row(tmp_path):
    path = tmp_path / "kb.sqlite"
    cur = build.build(path)
    with KnowledgeBase(path) as kb:
        notes = kb.notes()
        assert len(notes) == len(cur.notes) >= 25
        assert kb.stats()["notes"] == len(notes)
        doc2 = kb.notes("002")
        assert doc2 and all(n.document.startswith("002") for n in doc2)
        by_row = kb.notes_by_row()
        doc = kb.resolve_document("002")
        assert any("26.7" in n.text for n in by_row[(doc, "F6-08")])
        d = notes[0].to_dict()
        assert {"document", "locator", "text", "rows", "reading", "id"} <= set(d)
