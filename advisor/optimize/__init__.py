"""Design-space search: the cheapest design that meets the targets, and the Pareto front of
cost against a performance figure (``capadvisor optimize``; the GUI's Optimize tab).

:mod:`.space` (the dimensions, a design as a scenario), :mod:`.evaluate` (every design with the
engine's own functions, factorised and batched), :mod:`.search` (selection, Pareto front, local
processes), :mod:`.reference` (one ``advise`` per design: the brute force the search is checked
against), :mod:`.chart` (the cost chart of a search, as plain data).
"""

from advisor.optimize.search import FIGURES, OBJECTIVES, Candidate, OptimizeResult, optimize
from advisor.optimize.space import Design, SpaceOptions, StorageOption, design_from_dict, design_scenario

__all__ = ["FIGURES", "OBJECTIVES", "Candidate", "Design", "OptimizeResult", "SpaceOptions", "StorageOption",
           "design_from_dict", "design_scenario", "optimize"]
