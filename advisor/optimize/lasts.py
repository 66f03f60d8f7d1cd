"""Whether the best design of a search lasts the scenario's growth (#31): a search for today's
demand on a scenario with a ``growth`` section says in which year its best design runs out, and
how to search for one that lasts the horizon (``capadvisor optimize --horizon``; the GUI's *Last
the growth horizon*)."""

from __future__ import annotations

from advisor.optimize.space import Design, design_scenario
from advisor.scenario import Scenario
from knowledge.costs import Catalogue

#: how the note begins (the GUI picks it out of a search's notes)
GROWS = "the scenario grows"


def growth_note(scenario: Scenario, catalogue: Catalogue, design: Design | None, kb, how: str) -> str | None:
    """The note for a search of ``scenario`` for today (None without growth or without a best
    ``design``): the year the design runs out and where (advising the design's scenario, as
    ``--write-scenario`` writes it), or that it lasts the horizon. ``how``: how to search for a
    design that lasts (``--horizon``)."""
    from advisor.engine import advise

    g = scenario.growth
    if g is None or design is None:
        return None
    tl = advise(design_scenario(scenario, catalogue, design), kb=kb).timeline
    out = tl.runs_out if tl is not None else None
    if out is None:
        return f"{GROWS}; the best design for today lasts its {g.horizon_years}-year horizon"
    return (f"{GROWS}: the best design for today runs out in year {out['year']} "
            f"({out['resource'].replace('_', ' ')}) of its {g.horizon_years}-year horizon; {how} searches one "
            "that lasts")
