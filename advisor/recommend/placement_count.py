"""The constrained host count (#32): the smallest count that places every VM under the placement
rules (:mod:`advisor.recommend.placement`) and still does after each failure to survive, by a
galloping search and bisection over the count.

Each probe is a placement on that many hosts. Where the hosts do not depend on each other (no
per-domain cap) every probe reads one first fit onto as many hosts as it needs
(:class:`advisor.recommend.first_fit.FirstFit`): the same placements as first fit on each count,
once instead of once per probe (#30).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from advisor.recommend.first_fit import applies, first_fit, survives
from advisor.recommend.placement import MAX_EXTRA, Placement, Rule, place


@dataclass
class Counted:
    """The constrained count: the placement, the count by the constraints alone and after the
    failures, and what bound it."""

    placement: Placement
    by_constraints: int
    by_survival: int
    binding: str


def placer(capacity, profiles, rules: dict[str, Rule], domains) -> Callable[[int], Placement]:
    """count -> the placement on that many hosts (what :func:`place` gives)."""
    if applies(rules, domains):
        return first_fit(capacity, profiles, rules, domains).placement
    return lambda n: place(capacity, profiles, rules, domains, n)


def _first_placing(put: Callable[[int], Placement], profiles, rules, start: int, survive=None) -> Placement | None:
    """The placement on the fewest hosts from ``start`` that places every VM (and survives): a
    galloping search (start, +1, +2, +4, ...) to the first count that does, then bisection down to
    the count after the last that did not (first fit almost always places on more hosts once it
    placed on fewer; the result is checked, never assumed)."""
    def ok(n: int) -> Placement | None:
        p = put(n)
        if p.unplaced or (survive is not None and survives(p, profiles, rules, survive) is not None):
            return None
        return p

    lo, step, found = max(1, start) - 1, 1, None  # lo: a count known not to do (or below start)
    n = max(1, start)
    while n <= max(1, start) + MAX_EXTRA:
        found = ok(n)
        if found is not None:
            break
        lo, n, step = n, n + step, step * 2
    if found is None:
        return None
    hi = n
    while hi - lo > 1:
        mid = (lo + hi) // 2
        p = ok(mid) if mid >= max(1, start) else None
        if p is not None:
            hi, found = mid, p
        else:
            lo = mid
    return found


def _lower(profiles, rules: dict[str, Rule], domains, start: int) -> int:
    """``start``, raised to the hosts the per-host and per-domain caps need at least."""
    lower = start
    held: dict[str, tuple[Rule, int]] = {}  # per constrained workload: its rule and VMs (every shape's)
    for name, _, n in profiles:
        r = rules.get(name)
        if r is not None:
            held[r.owner(name)] = (r, held.get(r.owner(name), (r, 0))[1] + n)
    for r, n in held.values():
        if r.per_host:
            lower = max(lower, math.ceil(n / r.per_host))
    if domains and any(r.per_domain for r in rules.values()):
        lower = max(lower, min(len(domains), max(math.ceil(n / r.per_domain) for r, n in held.values()
                                                 if r.per_domain)))
    return lower


def constrained_count(capacity: dict[str, float], profiles, rules: dict[str, Rule], domains, survive,
                      start: int, put: Callable[[int], Placement] | None = None) -> Counted | None:
    """The smallest count from ``start`` that places every VM under ``rules`` and still does after
    each failure ``survive`` names; None when no count up to ``start + MAX_EXTRA`` does. ``put``:
    the :func:`placer` of these arguments, when the caller made it already."""
    put = put or placer(capacity, profiles, rules, domains)
    first = _first_placing(put, profiles, rules, _lower(profiles, rules, domains, start))
    if first is None:
        return None
    by_constraints = len(first.hosts)
    final = first if survive is None or survives(first, profiles, rules, survive) is None else \
        _first_placing(put, profiles, rules, by_constraints + 1, survive)
    if final is None:
        return None
    kinds = sorted({k for r in rules.values() for k in r.kinds})
    if len(final.hosts) > by_constraints:
        binding = "survive " + ", ".join(f"{v} {k}" for k, v in vars(survive).items() if v)
    elif by_constraints > start:
        binding = ", ".join(kinds)
    else:
        binding = "resources"
    return Counted(final, by_constraints, len(final.hosts), binding)
