"""Work that grew with the square of the workloads (issue 19, point 10): the first fit of the host
count, the headroom per workload, rules that ask about every workload for each workload, and
per-workload aggregates in the cache-mode figures. Counted (calls), never timed."""

from __future__ import annotations

import random

import pytest

from advisor.recommend import packing
from advisor.recommend.packing import HostGroup, _fits, pack
from advisor.rules.core import RuleContext


def _reference_first_fit(cap, items, limit=None):
    """The plain first fit: every open group scanned from the start for every item (every item
    placed: ``limit``, where the fast one gives up on an order that cannot win, is ignored)."""
    groups: list[HostGroup] = []
    for name, d, n in items:
        j = 0
        while n > 0 and j < len(groups):
            g = groups[j]
            f = packing._fits(g.free, d)
            if f <= 0:
                j += 1
                continue
            full, rest = divmod(n, f)
            if full >= g.count:
                g.free = [a - f * x for a, x in zip(g.free, d, strict=True)]
                g.vms = {**g.vms, name: g.vms.get(name, 0) + f}
                n -= f * g.count
                j += 1
                continue
            split = []
            if full:
                split.append(HostGroup(full, [a - f * x for a, x in zip(g.free, d, strict=True)],
                                       {**g.vms, name: g.vms.get(name, 0) + f}))
            if rest:
                split.append(HostGroup(1, [a - rest * x for a, x in zip(g.free, d, strict=True)],
                                       {**g.vms, name: g.vms.get(name, 0) + rest}))
            untouched = g.count - full - (1 if rest else 0)
            if untouched:
                split.append(HostGroup(untouched, g.free, g.vms))
            groups[j:j + 1] = split
            n = 0
        if n > 0:
            f0 = _fits(cap, d)
            full, rest = divmod(n, f0)
            if full:
                groups.append(HostGroup(full, [a - f0 * x for a, x in zip(cap, d, strict=True)], {name: f0}))
            if rest:
                groups.append(HostGroup(1, [a - rest * x for a, x in zip(cap, d, strict=True)], {name: rest}))
    return groups


def _profiles(rng, n):
    return [(f"w{i}", {"cpu": rng.choice([0.5, 1, 2, 4, 8, 40]), "ram": rng.choice([0, 1, 2, 8, 64]),
                       "net": rng.choice([0, 0.1, 1, 3])}, rng.randint(0, 40)) for i in range(n)]


def test_the_blocked_first_fit_places_exactly_like_the_plain_one(monkeypatch):
    rng = random.Random(4)
    cap = {"cpu": 32.0, "ram": 256.0, "net": 10.0}
    for _ in range(150):
        prof = _profiles(rng, rng.randint(1, 120))
        fast = pack(cap, prof)
        monkeypatch.setattr(packing, "_first_fit", _reference_first_fit)
        plain = pack(cap, prof)
        monkeypatch.undo()
        assert [(g.count, g.free, g.vms) for g in fast.groups] == [(g.count, g.free, g.vms) for g in plain.groups]
        assert (fast.hosts, fast.order, fast.unplaced) == (plain.hosts, plain.order, plain.unplaced)


def test_the_first_fit_skips_blocks_that_cannot_take_a_vm(monkeypatch):
    calls = []
    real = packing._fits

    def counting(free, d):
        calls.append(1)
        return real(free, d)

    rng = random.Random(7)
    # 2,000 profiles, largest first: the early hosts fill up and are skipped block by block
    prof = sorted(((f"w{i}", {"cpu": rng.choice([1, 2, 4, 8, 16]), "ram": rng.choice([2, 8, 32, 64])}, 3)
                   for i in range(2000)), key=lambda p: -max(p[1]["cpu"] / 64, p[1]["ram"] / 512))
    items = [(name, [d["cpu"], d["ram"]], n) for name, d, n in prof]
    monkeypatch.setattr(packing, "_fits", counting)
    packing._first_fit([64.0, 512.0], items)
    blocked = len(calls)
    calls.clear()
    _reference_first_fit([64.0, 512.0], items)
    assert blocked * 2 < len(calls), (blocked, len(calls))  # 0.35 M against 0.85 M here


def test_headroom_is_computed_once_per_distinct_demand(monkeypatch):
    from advisor.engine import advise
    from tests.advisor.test_engine import BASE

    data = {**BASE, "workloads": [{"name": f"w{i}", "vms": 1 + i % 3, "vcpus": 1 + i % 2, "ram_gib": 2}
                                  for i in range(300)]}
    data["hosts"] = {**BASE["hosts"], "count": 60, "reserve": 0}
    calls = []
    real = packing.Packing.fits
    monkeypatch.setattr(packing.Packing, "fits", lambda self, *a: (calls.append(1), real(self, *a))[1])
    advice = advise(data)
    assert advice.find("host_count") is not None
    calls_per_headroom = len(calls)
    assert calls_per_headroom <= 40, calls_per_headroom  # 2 distinct demands, a few host counts tried


SEEN: list[str] = []


def _write_heavy(w) -> bool:  # a predicate of its argument only, as the rule tables write them
    SEEN.append(w.name)
    return w.io.read_share <= 0.3


def test_rules_that_ask_about_every_workload_ask_once():
    from advisor.rules.core import Facts
    from advisor.scenario import parse_scenario
    from tests.advisor.test_engine import BASE

    sc = parse_scenario({**BASE, "workloads": [{"name": f"w{i}", "vms": 1, "vcpus": 1, "ram_gib": 1,
                                                "io": {"read_share": 0.2 + 0.6 * (i % 2)}} for i in range(50)]})
    memo: dict = {}
    SEEN.clear()
    contexts = [RuleContext(sc, Facts.of(sc), w, memo=memo) for w in sc.workloads]
    assert all(c.any(_write_heavy) for c in contexts)
    assert SEEN == ["w0"]  # the first workload satisfies it; then remembered for the other 49
    limit = 0.5
    captured = [c.any(lambda w, lim=limit: w.io.read_share > lim) for c in contexts]
    assert all(captured)
    per_context = [c.any(lambda w, c=c: w is c.w) for c in contexts]  # depends on the context: not shared
    assert all(per_context)
    assert RuleContext(sc, Facts.of(sc), None).any(_write_heavy)  # without a memo it still answers


def test_once_keys_name_what_the_value_depends_on():
    from advisor.recommend.base import EngineContext

    ctx = EngineContext(scenario=None, kb=None, models=None, cites=None, facts=None)
    n = []
    assert ctx.once(("x", 1), lambda: n.append(1) or 10) == 10
    assert ctx.once(("x", 1), lambda: n.append(1) or 20) == 10
    assert ctx.once(("x", 2), lambda: n.append(1) or 30) == 30
    assert len(n) == 2


def test_the_collector_is_paused_while_advising_and_restored_after():
    """The cyclic collector's walks over every live object took half the time of a 10,000-workload
    advice (knowledge.infra.gcpause); it is paused during advise and enabled again afterwards,
    also after an error, and left alone when the caller had paused it."""
    import gc

    from advisor.engine import advise
    from knowledge.infra.errors import InputError
    from knowledge.infra.gcpause import paused_gc
    from tests.advisor.test_engine import BASE

    seen = []
    assert gc.isenabled()
    advise(BASE, progress=lambda fraction, message: seen.append(gc.isenabled()))
    assert seen and not any(seen)
    assert gc.isenabled()
    with pytest.raises(InputError):
        advise({**BASE, "hosts": {**BASE["hosts"], "count": -1}})
    assert gc.isenabled()
    with paused_gc():
        with paused_gc():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block leaves it as it found it
    assert gc.isenabled()
    gc.disable()
    try:
        advise(BASE)
        assert not gc.isenabled()  # the caller's choice stands
    finally:
        gc.enable()


def test_the_headroom_of_a_packing_counts_like_the_plain_sum_over_its_groups():
    rng = random.Random(11)
    cap = {"cpu": 32.0, "ram": 256.0, "net": 10.0}
    for _ in range(60):
        packing = pack(cap, _profiles(rng, rng.randint(1, 60)))
        for _ in range(5):
            demand = {"cpu": rng.choice([0, 0.3, 1, 3]), "ram": rng.choice([0, 0.5, 7]), "net": rng.choice([0, 0.01, 2])}
            extra = rng.randint(-1, 3)
            d = [demand[k] for k in packing.resources]
            plain = sum(g.count * _fits(g.free, d) for g in packing.groups) + max(0, extra) * _fits(packing.capacity, d)
            assert packing.fits(demand, extra) == plain


def test_the_orders_rank_the_profiles_as_sorting_by_their_key_tuples():
    """pack's orders (#30: sorted as arrays) are the sorts by (key, position) of the shares: largest
    dominant share, largest sum, one resource's share then the dominant one; ties in the order given."""
    rng = random.Random(11)
    for _ in range(200):
        cap = {"cpu": rng.choice([0.0, 16.0, 32.0]), "ram": 256.0, "net": rng.choice([0.0, 10.0])}
        prof = [(f"w{i}", {k: rng.choice([0.0, 0.5, 1, 2, 8, 1 / 3]) for k in cap}, rng.randint(1, 3))
                for i in range(rng.randint(1, 60))]
        keys, c = tuple(cap), [cap[k] for k in cap]
        table = packing._Table(keys, c, prof)
        kept = [d for _, d, _ in prof if not any(x > 0 and x > cap[k] * (1 + packing.EPS) for k, x in d.items())]
        assert table.names == [name for name, d, _ in prof if d in kept]
        shares = [[d[k] / cap[k] if cap[k] > 0 else 0.0 for k in keys] for d in kept]
        expect = {"dominant": lambda i, s=shares: (-max(s[i]), i), "sum": lambda i, s=shares: (-sum(s[i]), i)}
        for j, k in enumerate(keys):
            expect[k] = lambda i, j=j, s=shares: (-s[i][j], -max(s[i]), i)
        for order, key in expect.items():
            ranked = table.ranked(order)
            if ranked is None:
                assert order in keys and not any(s[keys.index(order)] for s in shares)
                continue
            assert ranked.tolist() == sorted(range(len(kept)), key=key), order
