"""The design at one glance: the headline decisions of an Advice (the catalogue's ``headline``)
with the choice and the main expected figures, as the what-if banner, a design summary or a
report's first table show them."""

from __future__ import annotations

from dataclasses import dataclass

from advisor.figures.text import figure_text
from advisor.recommend import catalog


@dataclass(frozen=True)
class SummaryItem:
    """One headline recommendation: decision, title, scope, choice text, value and figures."""

    decision: str
    title: str
    scope: str
    choice: str
    value: float | None
    figures: tuple[str, ...]


def summary(advice, every_scope: bool = False, figures: int = 2) -> list[SummaryItem]:
    """The headline decisions of ``advice`` in engine order: the cluster recommendation (or the
    first workload's) of each, or every scope with ``every_scope``; ``figures`` expected figures
    each, as text."""
    out = []
    for name in catalog.headline():
        recs = advice.of(name) if every_scope else [r for r in [advice.first(name, "cluster")] if r is not None]
        for r in recs:
            figs = tuple(figure_text(k, v) for k, v in list(r.expected.items())[:figures])
            out.append(SummaryItem(name, catalog.title(name), r.scope, catalog.choice_text(name, r.choice, r.value),
                                   r.value, figs))
    return out
