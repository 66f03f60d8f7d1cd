"""The rule machinery: facts, contexts, effects, rules, and :func:`evaluate`."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from advisor.scenario import Scenario, Workload

#: every rule of the tables, in table order (filled by advisor.rules)
RULES: list = []

KIND_ORDER = {"safety": 0, "preference": 1, "measured": 2, "guideline": 3}


@dataclass
class Facts:
    """Quantities derived from the scenario and from decisions already taken.

    ``vms_per_host`` counts all VMs over the active hosts (planned minus reserve, or the
    recommended count once known); ``page_cache_per_vm_gib`` is the host RAM left after the
    guests' RAM, divided by the VMs on the host; ``io_heavy_*`` count VMs of high I/O intensity.
    """

    active_hosts: int = 1
    vms_per_host: float = 1.0
    page_cache_per_vm_gib: float = 0.0
    io_heavy_vms: int = 0
    io_heavy_vms_per_host: float = 0.0
    cpu_heavy_vms_per_host: float = 0.0
    hypervisor: str | None = None
    overallocation_ratio: float | None = None  # vCPUs per physical core
    overallocation_per_thread: float | None = None  # vCPUs per hardware thread: the thesis' unit
    storage_backend: str | None = None

    @classmethod
    def of(cls, scenario: Scenario, active_hosts: int | None = None) -> Facts:
        """Facts of ``scenario`` on ``active_hosts`` (default: planned hosts minus the reserve)."""
        facts = cls()
        facts.set_hosts(scenario, active_hosts or scenario.hosts.count - scenario.hosts.reserve)
        return facts

    def set_hosts(self, scenario: Scenario, active_hosts: int) -> None:
        """Recompute the per-host quantities for ``active_hosts`` hosts carrying the VMs."""
        n = max(1, int(active_hosts))
        self.active_hosts = n
        vms = scenario.total_vms
        self.vms_per_host = max(1.0, vms / n)
        guest_ram = sum(w.vms * w.ram_gib for w in scenario.workloads) / n
        self.page_cache_per_vm_gib = max(scenario.hosts.ram_gib - guest_ram, 0.0) / self.vms_per_host
        self.io_heavy_vms = sum(w.vms for w in scenario.workloads if w.io.intensity == "high")
        self.io_heavy_vms_per_host = self.io_heavy_vms / n
        self.cpu_heavy_vms_per_host = sum(w.vms for w in scenario.workloads if w.cpu_intensity == "high") / n


@dataclass
class RuleContext:
    """What a condition sees: the scenario, the workload (per-workload decisions) and facts."""

    scenario: Scenario
    facts: Facts
    workload: Workload | None = None
    memo: dict | None = field(default=None, repr=False, compare=False)

    @property
    def w(self) -> Workload:
        assert self.workload is not None
        return self.workload

    @property
    def workloads(self) -> list[Workload]:
        return self.scenario.workloads

    def any(self, pred: Callable[[Workload], bool]) -> bool:
        """True when some workload satisfies ``pred`` (remembered per advice in ``memo`` when the
        predicate depends on nothing but its argument: a per-workload rule asking about every
        workload would otherwise cost workloads squared)."""
        key = _pred_key(pred)
        if self.memo is None or key is None:
            return any(pred(w) for w in self.scenario.workloads)
        key = ("rule_ctx.any", key)
        if key not in self.memo:
            self.memo[key] = any(pred(w) for w in self.scenario.workloads)
        return self.memo[key]


def _pred_key(pred: Callable) -> tuple | None:
    """A key for a predicate that depends only on its argument and on hashable closure values
    (None otherwise): its code and those values."""
    code = getattr(pred, "__code__", None)
    if code is None:
        return None
    try:
        cells = tuple(c.cell_contents for c in (pred.__closure__ or ()))
        key = (code, cells, pred.__defaults__)
        hash(key)
    except (TypeError, ValueError):  # an unhashable closure value (a context, a list): not remembered
        return None
    return key


@dataclass(frozen=True)
class Effect:
    """Score deltas per choice, hard exclusions (choice -> reason) and warnings."""

    scores: dict[str, float] = field(default_factory=dict)
    exclude: dict[str, str] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rule:
    """One conclusion (or safety constraint) as a rule."""

    id: str
    decision: str
    scope: str  # "cluster" or "workload"
    kind: str  # safety | preference | measured | guideline
    text: str  # the rule in the project's words
    condition: Callable[[RuleContext], bool]
    effect: Effect | Callable[[RuleContext], Effect]
    conclusions: tuple[str, ...] = ()  # "doc:conclusion-id"
    evidence: tuple[str, ...] = ()  # extra "doc:measurement-key"

    def effect_for(self, ctx: RuleContext) -> Effect:
        return self.effect(ctx) if callable(self.effect) else self.effect

    def favourite(self, ctx: RuleContext) -> str | None:
        """The choice this rule pushes most (largest positive delta), if any."""
        eff = self.effect_for(ctx)
        best = max(eff.scores.items(), key=lambda kv: kv[1], default=None)
        return best[0] if best and best[1] > 0 else None


@dataclass
class Outcome:
    """The rules of one decision applied to one context."""

    scores: dict[str, float]
    excluded: dict[str, list[tuple[Rule, str]]]
    warnings: list[str]
    fired: list[Rule]
    ctx: RuleContext

    def key(self) -> tuple:
        """Everything :func:`~advisor.recommend.base.decide` reads of this outcome, hashable: the
        scores, the exclusions (rule id and reason), the warnings and each fired rule with its
        effect here. Outcomes of equal keys (of one decision, in one context) decide alike: a
        per-workload recommender builds one recommendation per key, not one per workload profile."""
        effects = []
        for rule in self.fired:
            eff = rule.effect_for(self.ctx)
            effects.append((rule.id, tuple(eff.scores.items()), tuple(eff.exclude.items()), eff.warnings))
        return (tuple(self.scores.items()), tuple(effects), tuple(self.warnings),
                tuple((c, tuple((rule.id, why) for rule, why in by)) for c, by in self.excluded.items()))

    def conflicts(self, winner: str) -> list[str]:
        """Sentences naming the fired rules whose favourite lost, and why it lost (rules that lost
        the same way are named together)."""
        groups: dict[tuple, list[str]] = {}
        for rule in self.fired:
            fav = rule.favourite(self.ctx)
            if fav is None or fav == winner:
                continue
            scores = rule.effect_for(self.ctx).scores
            if scores.get(winner, float("-inf")) >= scores[fav] - 1e-12:
                continue  # the rule rates the winner as high as its favourite: no conflict
            if fav in self.excluded:
                by = self.excluded[fav][0]
                key = (fav, f"{by[0].id} ({by[0].kind}) excludes it: {by[1]}")
            else:
                backers = [r.id for r in self.fired if r.favourite(self.ctx) == winner]
                key = (fav, f"outweighed by {', '.join(backers)}" if backers else "outweighed by the expected "
                                                                                  "performance")
            groups.setdefault(key, []).append(f"{rule.id} ({rule.kind})" if fav not in self.excluded else rule.id)
        out = []
        for (fav, why), ids in groups.items():
            verb = "favours" if len(ids) == 1 else "favour"
            joiner = "; " if fav not in self.excluded else ", but "
            out.append(f"{', '.join(ids)} {verb} {fav}{joiner}{why}")
        return out


def evaluate(decision: str, ctx: RuleContext, choices: Iterable[str],
             rules: Iterable[Rule] | None = None) -> Outcome:
    """Apply every rule of ``decision`` whose condition holds in ``ctx`` to ``choices``."""
    choices = list(choices)
    scores = dict.fromkeys(choices, 0.0)
    excluded: dict[str, list[tuple[Rule, str]]] = {}
    warnings: list[str] = []
    fired: list[Rule] = []
    scope = "workload" if ctx.workload is not None else "cluster"
    candidates = _by_decision(decision) if rules is None else sorted(
        (r for r in rules if r.decision == decision), key=lambda r: KIND_ORDER[r.kind])
    for rule in candidates:
        if rule.scope != scope or not rule.condition(ctx):
            continue
        eff = rule.effect_for(ctx)
        fired.append(rule)
        for choice, delta in eff.scores.items():
            if choice in scores:
                scores[choice] += delta
        for choice, reason in eff.exclude.items():
            if choice in scores:
                excluded.setdefault(choice, []).append((rule, reason))
        warnings += [f"{w} [{rule.id}]" for w in eff.warnings]
    return Outcome(scores, excluded, warnings, fired, ctx)


_INDEX: dict[str, list[Rule]] = {}


def _by_decision(decision: str) -> list[Rule]:
    """The rules of ``decision`` in kind order (safety first), indexed once."""
    if not _INDEX or sum(map(len, _INDEX.values())) != len(RULES):
        _INDEX.clear()
        for r in sorted(RULES, key=lambda r: KIND_ORDER[r.kind]):
            _INDEX.setdefault(r.decision, []).append(r)
    return _INDEX.get(decision, [])


def rules_for(decision: str) -> list[Rule]:
    """The rules of one decision, in table order."""
    return [r for r in RULES if r.decision == decision]


def referenced_conclusions() -> set[str]:
    """Every ``doc:conclusion`` some rule encodes."""
    return {ref for r in RULES for ref in r.conclusions}
