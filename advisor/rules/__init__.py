"""The documents' conclusions as rules: condition, effect, citation.

Every conclusion of the five documents that bears on a decision is encoded here as a
:class:`Rule` (``RULES``). A rule has a condition (a predicate on a :class:`RuleContext`: the
scenario, one workload for per-workload decisions, and the derived :class:`Facts`), an
effect (score deltas per choice, hard exclusions with a reason, warnings) and citations:
the conclusions it encodes (``"001:C1"``, resolved through the knowledge base to the
conclusion's locator and its evidence rows) and any extra measurement rows
(``"004:c6-S6.4-08"``).

Kinds order conflicts: ``safety`` rules exclude choices and always win; ``preference`` rules
carry what the user asked for; ``measured`` rules rest on the documents' measurements and
weigh more than ``guideline`` rules (advice the documents give or cite without measuring).
:func:`evaluate` applies the rules of one decision and returns an :class:`Outcome` with the
scores, exclusions, warnings, fired rules and the conflicts between them.

Layout: :mod:`advisor.rules.core` holds the machinery (facts, contexts, effects, rules,
:func:`evaluate`), :mod:`advisor.rules.conditions` what conditions test and the choices the
tables name, and one table module per group of decisions: :mod:`~advisor.rules.cache`,
:mod:`~advisor.rules.hypervisors`, :mod:`~advisor.rules.overallocation`,
:mod:`~advisor.rules.storage`, :mod:`~advisor.rules.placement` and
:mod:`~advisor.rules.capacity`; ``RULES`` is all of them, in that order.
"""

from __future__ import annotations

from advisor.rules import cache, capacity, hypervisors, overallocation, placement, storage
from advisor.rules.conditions import (
    CACHE,
    DP_FILE,
    DP_FILE_SIZED,
    DP_OUTER,
    DP_SIZED,
    HOST_CACHED,
    HV,
    OVERALLOCATION,
    oversized,
)
from advisor.rules.core import (
    KIND_ORDER,
    RULES,
    Effect,
    Facts,
    Outcome,
    Rule,
    RuleContext,
    evaluate,
    referenced_conclusions,
    rules_for,
)

RULES.extend([*cache.RULES, *hypervisors.RULES, *overallocation.RULES, *storage.RULES, *placement.RULES,
              *capacity.RULES])

__all__ = ["CACHE", "DP_FILE", "DP_FILE_SIZED", "DP_OUTER", "DP_SIZED", "HOST_CACHED", "HV", "KIND_ORDER",
           "OVERALLOCATION", "RULES", "Effect", "Facts", "Outcome", "Rule", "RuleContext", "evaluate", "oversized",
           "referenced_conclusions", "rules_for"]
