"""The indexed first fit (#30) places exactly as the plain one (#32): on random estates with every
kind of constraint (anti-affinity per workload and per group, replicas, affinity groups, doc 003's
sequential-I/O owners, failure domains, failures to survive), the placement on each count and the
constrained count are those of the host-by-host first fit (:func:`advisor.recommend.placement.place`
on every probe)."""

from __future__ import annotations

import math
import random
from types import SimpleNamespace

import pytest

from advisor.recommend import first_fit, placement, placement_count
from advisor.recommend.first_fit import FirstFit, Leftovers, applies
from advisor.recommend.placement import place, rules_of
from advisor.scenario.model import FailureDomain, Survive

CAP = {"cpu_allocation": 32.0, "ram": 100.0, "disk_iops": 1000.0}


def estate(rng: random.Random):
    """(workloads, profiles, exclusive names, domains) of a random estate with constraints."""
    workloads, profiles = [], []
    for i in range(rng.randint(1, 40)):
        anti = rng.choice([False] * 6 + [True, "g1", "g2"])
        vms, rf = rng.choice([1, 1, 2, 3, 5, 8]), rng.choice([None, None, None, 2, 3])
        together = rng.choice([False] * 8 + [True, "a1"]) if not (anti or rf) or rng.random() < 0.05 else False
        shape = rng.choice([(1.0, 4.0, 0.0), (2.0, 8.0, 0.0), (4.0, 16.0, 100.0), (8.0, 30.0, 0.0),
                            (rng.uniform(0.1, 9), rng.uniform(0.5, 40), rng.choice([0.0, rng.uniform(1, 300)]))])
        if together:  # an affinity group that fits a host
            shape, vms = (0.5, 2.0, 0.0), min(vms, 3)
        workloads.append(SimpleNamespace(name=f"w{i}", vms=vms, anti_affinity=anti, affinity=together,
                                         replication_factor=rf))
        profiles.append((f"w{i}", dict(zip(CAP, shape, strict=True)), vms))
    exclusive = frozenset(w.name for w in workloads if rng.random() < 0.3)
    domains = [FailureDomain(f"rack-{c}", 2) for c in "abc"[:rng.choice([0, 0, 0, 2, 3])]]
    return workloads, profiles, exclusive if len(exclusive) > 1 else frozenset(), domains


def estates(seed: int, n: int):
    """``n`` random estates with their rules: (rng, profiles, rules, domains)."""
    rng = random.Random(seed)
    for _ in range(n):
        workloads, profiles, exclusive, domains = estate(rng)
        yield rng, profiles, rules_of(workloads, len(domains), exclusive), domains


def _state(p):
    return [vars(h) for h in p.hosts], p.unplaced


@pytest.mark.timeout(120)
def test_first_fit_on_every_count_is_the_plain_first_fit():
    checked = 0
    for rng, profiles, rules, domains in estates(30, 150):
        if not applies(rules, domains):
            continue
        fit = FirstFit(CAP, profiles, rules, domains)
        for count in sorted({1, 2, fit.needed - 1, fit.needed, fit.needed + 2, rng.randint(1, fit.needed + 3)}):
            if count >= 1:
                assert _state(fit.placement(count)) == _state(place(CAP, profiles, rules, domains, count))
                checked += 1
    assert checked > 300


@pytest.mark.timeout(120)
def test_constrained_count_is_that_of_the_plain_first_fit_on_each_probe(monkeypatch):
    outcomes, indexed = set(), 0
    for rng, profiles, rules, domains in estates(32, 120):
        survive = rng.choice([None, None, Survive(hosts=1), Survive(domains=1) if domains else None])
        start = rng.randint(1, 4)
        indexed += applies(rules, domains)
        fast = placement_count.constrained_count(CAP, profiles, rules, domains, survive, start)
        with monkeypatch.context() as m:
            m.setattr(placement_count, "placer",
                      lambda c, p, r, d: lambda n: place(c, p, r, d, n))
            m.setattr(first_fit, "INDEXED_FROM", math.inf)  # every failure re-placed by placement.lose
            plain = placement_count.constrained_count(CAP, profiles, rules, domains, survive, start)
        assert (fast is None) == (plain is None)
        if fast is not None and plain is not None:
            assert (fast.by_constraints, fast.by_survival, fast.binding) == \
                (plain.by_constraints, plain.by_survival, plain.binding)
            assert _state(fast.placement) == _state(plain.placement)
        outcomes.add(fast.binding if fast is not None else "none")
    assert indexed > 40 and {"none", "resources", "survive 1 hosts", "survive 1 domains"} <= outcomes
    assert any("sequential_io" in o for o in outcomes) and any("affinity" in o for o in outcomes)


@pytest.mark.timeout(120)
def test_the_leftovers_re_place_a_failure_as_the_plain_first_fit_does():
    checked = 0
    for rng, profiles, rules, domains in estates(31, 100):
        p = place(CAP, profiles, rules, domains, rng.randint(1, 30))
        left = Leftovers(p, profiles, rules)
        for _ in range(8):
            lost = rng.sample(range(len(p.hosts)), rng.randint(1, min(3, len(p.hosts))))  # any order
            before = [vars(h) for h in p.hosts]
            assert left.lose(lost) == placement.lose(p, lost, profiles, rules), lost
            assert [vars(h) for h in p.hosts] == before  # the placement itself is left as it was
            checked += bool(placement.lose(p, lost, profiles, rules)) + 1
    assert checked > 900


def test_sequential_io_owners_each_get_their_own_hosts_and_share_them_with_others():
    workloads = [SimpleNamespace(name=n, vms=2, anti_affinity=False, affinity=False, replication_factor=None)
                 for n in ("s1", "s2", "web")]
    profiles = [(w.name, {"cpu_allocation": 1.0, "ram": 1.0, "disk_iops": 0.0}, 2) for w in workloads]
    rules = rules_of(workloads, 0, frozenset({"s1", "s2"}))
    fit = FirstFit(CAP, profiles, rules, [])
    assert [h.to_dict()["vms"] for h in fit.placement(fit.needed).hosts] == [{"s1": 2, "web": 2}, {"s2": 2}]
    assert fit.placement(1).unplaced == {"s2": 2}


@pytest.mark.timeout(120)
def test_the_count_of_a_large_sequential_estate_is_near_linear(monkeypatch):
    """#30: 10,000 groups with doc 003's sequential-I/O owners took 132 s (2 M admission checks at 1,000
    groups, one host-by-host first fit per probe). Counted, not timed: the checks per VM stay a few."""

    rng = random.Random(19)
    workloads = [SimpleNamespace(name=f"w{i}", vms=rng.choice([1, 1, 2, 3]), anti_affinity=False, affinity=False,
                                 replication_factor=None) for i in range(2000)]
    profiles = [(w.name, {"cpu_allocation": rng.choice([0.5, 1.0, 2.0, 4.0]), "ram": rng.choice([2.0, 4.0, 8.0]),
                          "disk_iops": 0.0}, w.vms) for w in workloads]
    rules = rules_of(workloads, 0, frozenset(w.name for w in workloads if rng.random() < 0.2))
    calls = {"n": 0}
    real = first_fit._admits

    def counted(*a):
        calls["n"] += 1
        return real(*a)

    monkeypatch.setattr(first_fit, "_admits", counted)
    monkeypatch.setattr(placement, "_admits", counted)
    got = placement_count.constrained_count(CAP, profiles, rules, [], Survive(hosts=1), 1)
    vms = sum(w.vms for w in workloads)
    assert got is not None and got.binding.startswith("survive") and got.by_constraints >= 350
    assert calls["n"] < 10 * vms  # 7,101 for 3,545 VMs; one first fit per probe and plain survival: 4.7 M


@pytest.mark.timeout(120)
def test_a_first_fit_grown_by_one_vm_at_a_time_is_the_one_made_afresh():
    # the room's steps (advisor.recommend.room): one VM more of a workload each; under growing() the
    # last first fit grows by its one unit more when that unit comes last, else it is made afresh.
    # Either way each step's placement on every count is that of a first fit of all its units.
    grown, steps = 0, 0
    for rng, profiles, rules, domains in estates(34, 80):
        if not applies(rules, domains):
            continue
        kept: dict = {}
        last = None
        pick = rng.randrange(len(profiles))
        name, demand, vms = profiles[pick]
        for more in range(1, 12):
            step = [*profiles[:pick], (name, demand, vms + more), *profiles[pick + 1:]]
            with first_fit.growing(kept):
                fit = first_fit.first_fit(CAP, step, rules, domains)
                grown, steps, last = grown + (fit is last), steps + 1, fit
                fresh = FirstFit(CAP, step, rules, domains)
                assert fit.at == fresh.at
                for count in sorted({1, fresh.needed - 1, fresh.needed, fresh.needed + 1}):
                    if count >= 1:
                        assert _state(fit.placement(count)) == _state(fresh.placement(count))
    assert steps > 300 and grown > 30  # the steps of a workload whose VMs come last grew the last one in place
