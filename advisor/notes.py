"""Document notes on the advice (issue 28): a recommendation whose figures or citations rest on a
measurement row that a document note concerns (``knowledge/data/<doc>/notes.csv``, where the
document disagrees with itself) carries that note, so card and report show which reading the
advice took. A figure that names its rows (``rows``: ``"002:F6-08"``) carries the keys of its own
notes (``notes``: ``["002_...:N-01"]``); the recommendation carries the notes themselves
(:attr:`advisor.recommend.base.Recommendation.notes`)."""

from __future__ import annotations

from collections.abc import Iterable


def note_key(note) -> str:
    """``document:id`` of a note (a :class:`knowledge.store.NoteRow`)."""
    return f"{note.document}:{note.id}"


class NoteIndex:
    """The knowledge base's notes by the measurement rows they concern."""

    def __init__(self, kb):
        notes_by_row = getattr(kb, "notes_by_row", None)  # a knowledge base without notes has none
        self.by_row = notes_by_row() if notes_by_row is not None else {}
        self.docs = sorted({doc for doc, _ in self.by_row})

    def _doc(self, prefix: str) -> str:
        return next((d for d in self.docs if d.startswith(prefix)), prefix)

    def for_rows(self, rows: Iterable[tuple[str, str]]) -> list:
        """The notes concerning any of ``rows`` ((document, id) pairs), each once, in row order."""
        out: dict[str, object] = {}
        for row in rows:
            for n in self.by_row.get(row, ()):
                out.setdefault(note_key(n), n)
        return list(out.values())

    def figure_rows(self, fig: dict) -> list[tuple[str, str]]:
        """The (document, id) rows a figure names (``rows``: ``"doc:id"`` with a document prefix)."""
        out = []
        for ref in fig.get("rows") or ():
            doc, sep, key = str(ref).partition(":")
            if sep:
                out.append((self._doc(doc), key))
        return out


def citation_rows(citations: Iterable[dict]) -> list[tuple[str, str]]:
    """(document, id) of every row a recommendation cites (a model citation lists ids joined by ", ")."""
    return [(c["document"], key.strip()) for c in citations for key in str(c.get("id", "")).split(",")
            if key.strip()]


def attach(rec, index: NoteIndex) -> None:
    """Give ``rec`` the notes of the rows its figures and citations rest on, and each figure that
    names its rows the keys of its notes (chosen option and alternatives)."""
    if not index.by_row:
        return
    rows = citation_rows(rec.citations)
    for figs in (rec.expected, *(a.expected for a in rec.alternatives)):
        for fig in figs.values():
            if fig.get("rows"):
                own = index.for_rows(index.figure_rows(fig))
                if own:
                    fig["notes"] = [note_key(n) for n in own]
                rows += index.figure_rows(fig)
    rec.notes = [{"key": note_key(n), "document": n.document, "locator": n.locator, "id": n.id,
                  "rows": list(n.rows), "text": n.text, "reading": n.reading} for n in index.for_rows(rows)]
