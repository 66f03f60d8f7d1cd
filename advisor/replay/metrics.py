"""What the replay says about the intervals and the rankings: the share of measured values inside
the intervals and how wide those are, zero-width echoes, the option pairs the advice orders as the
document does, and the coverage per figure next to the nominal level."""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterable, Sequence
from typing import Any

#: advisor.replay.results.CaseResult / ExperimentResult (named so, not imported: results imports this module)
CaseResult = Any
ExperimentResult = Any

#: two measured values closer than this (relative) are "about the same": the pair has no order
ORDER_TOLERANCE = 0.05


def width(case: CaseResult) -> float | None:
    """``(high - low) / |value|`` of the case's expected figure (None without a figure or a value)."""
    x = case.expected
    if not x or not x.get("value"):
        return None
    return (float(x["high"]) - float(x["low"])) / abs(float(x["value"]))


def median_width(cases: Iterable[CaseResult]) -> float | None:
    """The median relative interval width over ``cases`` (None without any)."""
    ws = [w for w in (width(c) for c in cases) if w is not None]
    return round(statistics.median(ws), 4) if ws else None


def zero_width_echoes(cases: Iterable[CaseResult]) -> list[str]:
    """Cases counted within on a figure that is the document's own number (labelled measured on the
    document's testbed): an echo, not a prediction (held out they are never within)."""
    return [c.case.id for c in cases if c.within and c.expected and c.expected.get("measured_on")]


def zero_width_points(cases: Iterable[CaseResult]) -> list[str]:
    """Cases counted within on an interval of zero width (a computed figure that is exact, such as a
    response-time analysis or a count of none, or an echo)."""
    return [c.case.id for c in cases
            if c.within and c.expected and float(c.expected["high"]) == float(c.expected["low"])]


def _pair_key(c: CaseResult) -> str:
    """Cases of one experiment compared as options: same scenario, figure, key and comparison."""
    k = c.case
    return json.dumps([k.scenario, k.decision, k.scope, k.figure, k.key, k.relative_to, k.compare],
                      sort_keys=True, default=str)


def order_pairs(experiments: Iterable[ExperimentResult]) -> tuple[int, int, list[str]]:
    """(option pairs, pairs the advice orders as the document, the pairs it flips): inside one
    experiment, two cases on the same scenario and figure for different options whose measured
    values differ by more than :data:`ORDER_TOLERANCE`."""
    total = kept = 0
    flipped: list[str] = []
    for r in experiments:
        groups: dict[str, list[CaseResult]] = {}
        for c in r.cases:
            if c.expected is not None:
                groups.setdefault(_pair_key(c), []).append(c)
        for cases in groups.values():
            for i, a in enumerate(cases):
                for b in cases[i + 1:]:
                    if a.case.choice == b.case.choice:
                        continue
                    ma, mb = a.measured.value, b.measured.value
                    if abs(ma - mb) <= ORDER_TOLERANCE * max(abs(ma), abs(mb)):
                        continue
                    total += 1
                    ea, eb = float(a.expected["value"]), float(b.expected["value"])
                    if (ea - eb) * (ma - mb) > 0:
                        kept += 1
                    else:
                        flipped.append(f"{a.case.id} vs {b.case.id}")
    return total, kept, flipped


def by_figure(experiments: Sequence[ExperimentResult], level: float) -> dict[str, dict]:
    """Per ``decision/figure``: values, values inside the interval, their share next to the nominal
    ``level``, and the median width."""
    groups: dict[str, list[CaseResult]] = {}
    for r in experiments:
        for c in r.cases:
            groups.setdefault(f"{c.case.decision}/{c.case.figure}", []).append(c)
    return {name: {"values": len(cs), "within": sum(c.within for c in cs),
                   "coverage": round(sum(c.within for c in cs) / len(cs), 4), "nominal": level,
                   "median_width": median_width(cs)} for name, cs in sorted(groups.items())}
