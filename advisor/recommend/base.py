"""What every recommender shares: the result types, the engine context, model access,
citations, and :func:`decide`, which turns rule scores and model figures into a
:class:`Recommendation`.

Scores are dimensionless: a rule adds its deltas (about +-0.5 for a weak hint, +-3 for a
strong measured finding), a recommender adds model-based terms of at most a few points.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from advisor.expected import ExpectedFigure, as_figure, figures_to_dict, rounded
from advisor.hardware import summary_basis
from advisor.models.base import FamilyUnavailable, ModelFamily, Prediction
from advisor.rules import Facts, Outcome, Rule, RuleContext
from advisor.scenario import Scenario, Workload
from knowledge.infra.errors import UserFacingError

#: confidence labels: lower bound -> label
CONFIDENCE_LABELS = ((0.75, "high"), (0.5, "medium"), (0.0, "low"))


def figure(value: float, unit: str, low: float | None = None, high: float | None = None, **extra) -> ExpectedFigure:
    """A named expected figure: ``{value, low, high, unit}`` (low/high default to value); ``extra``
    sets the other attributes of :class:`~advisor.expected.ExpectedFigure` (``basis``,
    ``extrapolated``, ``level``, ...) or keys of its own (``source``, ``note``, ...)."""
    return ExpectedFigure.from_dict({"value": rounded(value), "low": rounded(value if low is None else low),
                                     "high": rounded(value if high is None else high), "unit": unit, **extra})


def typed(expected: dict[str, ExpectedFigure]) -> None:
    """Every figure of ``expected`` as an :class:`ExpectedFigure`, in place (a dict written the old way
    is converted; the mapping keeps its identity, which recommendations of equal profiles share)."""
    for name, fig in expected.items():
        if not isinstance(fig, ExpectedFigure):
            expected[name] = as_figure(fig)


@dataclass
class Alternative:
    """A choice that lost: its score, expected figures and why it lost."""

    choice: str
    score: float
    expected: dict[str, ExpectedFigure] = field(default_factory=dict)
    why_not: str = ""
    excluded: bool = False

    def __post_init__(self) -> None:
        typed(self.expected)

    def to_dict(self) -> dict:
        return {"choice": self.choice, "score": round(self.score, 3), "expected": figures_to_dict(self.expected),
                "why_not": self.why_not, "excluded": self.excluded}


@dataclass
class Recommendation:
    """One decision for one scope (``cluster`` or ``workload:<name>``)."""

    decision: str
    scope: str
    choice: str
    alternatives: list[Alternative] = field(default_factory=list)
    expected: dict[str, ExpectedFigure] = field(default_factory=dict)
    confidence: float = 0.5
    extrapolated: bool = False
    rationale: str = ""
    citations: list[dict] = field(default_factory=list)
    value: float | None = None
    score: float = 0.0
    rules: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    basis: str = "documents"
    details: dict[str, Any] = field(default_factory=dict)
    #: document notes on the rows this recommendation rests on (:mod:`advisor.notes`)
    notes: list[dict] = field(default_factory=list)

    def __post_init__(self) -> None:
        typed(self.expected)

    @property
    def confidence_label(self) -> str:
        return next(label for bound, label in CONFIDENCE_LABELS if self.confidence >= bound)

    def to_dict(self) -> dict:
        """The JSON form of the issue's interface (plus rules, conflicts, warnings, basis, details)."""
        out: dict[str, Any] = {"decision": self.decision, "scope": self.scope, "choice": self.choice}
        if self.value is not None:
            out["value"] = self.value
        out.update({
            "score": round(self.score, 3),
            "alternatives": [a.to_dict() for a in self.alternatives],
            "expected": figures_to_dict(self.expected),
            "confidence": round(self.confidence, 2), "confidence_label": self.confidence_label,
            "extrapolated": self.extrapolated, "rationale": self.rationale, "citations": self.citations,
            "rules": self.rules, "conflicts": self.conflicts, "warnings": self.warnings, "basis": self.basis,
        })
        if self.details:
            out["details"] = self.details
        if self.notes:
            out["notes"] = self.notes
        return out


class ModelAccess:
    """The regression families of :mod:`advisor.models`, trained once per knowledge base.

    :meth:`predict` returns ``None`` (and remembers why in :attr:`problems`) when a family is not
    available for this knowledge base (:class:`~advisor.models.base.FamilyUnavailable`) or
    refuses the inputs with a user-facing message, so a recommender can still decide from the
    rules alone. Anything else is a bug and propagates: a failing calibration never quietly
    turns calibrated advice into document-based advice.
    """

    def __init__(self, kb, calibration: dict | None = None):
        self.kb = kb
        self.calibration = calibration or None
        self.problems: dict[str, str] = {}
        self._families: dict[str, ModelFamily | None] = {}
        self._keys: dict[str, dict[tuple[str, str], list[str]]] = {}

    def family(self, name: str) -> ModelFamily | None:
        """The trained family ``name``, or None when it is not available (see :attr:`problems`)."""
        if name in self._families:
            return self._families[name]
        from advisor.models import get_family

        fam: ModelFamily | None = None
        try:
            fam = get_family(name, self.kb)
        except FamilyUnavailable as exc:
            self.problems[name] = str(exc)
        self._families[name] = fam
        return fam

    def predict(self, name: str, queries: Sequence[Mapping[str, Any]], calibrate: bool = True) -> Prediction | None:
        """A :class:`~advisor.models.base.Prediction` for ``queries`` (calibrated to the site unless
        ``calibrate`` is False), or None when the family is unavailable or refuses the inputs."""
        fam = self.family(name)
        if fam is None:
            return None
        try:
            return fam.predict(queries, calibration=self.calibration if calibrate else None)
        except UserFacingError as exc:  # a named condition (e.g. an input outside the family's domain)
            self.problems[name] = str(exc)
            return None

    def keys_by_locator(self, name: str) -> dict[tuple[str, str], list[str]]:
        """(document, locator) -> measurement keys of the family's training rows (memoised: a
        trained family's rows never change)."""
        if name in self._keys:
            return self._keys[name]
        fam = self.family(name)
        out: dict[tuple[str, str], list[str]] = {}
        if fam is None:
            return out
        self._keys[name] = out
        for p in fam.training_points():
            keys = str(p.key).split("+")
            if "|" in p.locator:  # a point derived from several rows: "doc|loc; doc|loc"
                sources = [tuple(part.strip().split("|", 1)) for part in p.locator.split(";")]
            else:
                sources = [(p.document, p.locator)] * len(keys)
            for (doc, loc), key in zip(sources, keys, strict=False):
                out.setdefault((doc, loc), []).append(key.split("@", 1)[0])  # "row@load": the row
        return out


class CitationIndex:
    """Resolves rule references (``doc:conclusion`` and ``doc:measurement``) to citations."""

    def __init__(self, kb):
        self.kb = kb
        self.docs = [d.id for d in kb.documents()]
        self.conclusions = {(c.document, c.id): c for c in kb.conclusions()}
        self.rows = {(m.document, m.key): m for m in kb.all_measurements()}
        self._memo: dict[tuple[str, ...], list[dict]] = {}

    def doc(self, prefix: str) -> str:
        return next((d for d in self.docs if d.startswith(prefix)), prefix)

    def resolve(self, ref: str) -> list[dict]:
        """Citations for one reference: a conclusion and its evidence rows, or one measurement."""
        prefix, _, key = ref.partition(":")
        doc = self.doc(prefix)
        if (doc, key) in self.conclusions:
            c = self.conclusions[(doc, key)]
            out = [{"document": doc, "locator": c.locator, "id": c.id}]
            for ev in c.evidence:
                if (doc, ev) in self.rows:
                    out.append(self.rows[(doc, ev)].citation())
            return out
        if (doc, key) in self.rows:
            return [self.rows[(doc, key)].citation()]
        raise KeyError(ref)

    def for_rules(self, rules: Iterable[Rule]) -> list[dict]:
        """Citations of every reference of ``rules``, without repeats (memoised per rule set)."""
        refs = tuple(ref for rule in rules for ref in (*rule.conclusions, *rule.evidence))
        if refs not in self._memo:
            out: list[dict] = []
            for ref in refs:
                out += self.resolve(ref)
            self._memo[refs] = dedupe(out)
        return [dict(c) for c in self._memo[refs]]


def dedupe(citations: Iterable[dict]) -> list[dict]:
    seen, out = set(), []
    for c in citations:
        key = (c["document"], c["locator"], c["id"])
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


@dataclass
class EngineContext:
    """Everything a recommender reads: scenario, knowledge base, models, facts, earlier choices."""

    scenario: Scenario
    kb: Any
    models: ModelAccess
    cites: CitationIndex
    facts: Facts
    calibration: Any = None  # advisor.calibration.Calibration
    hardware: Any = None  # advisor.hardware.Hardware (advisor.recommend.disks.hardware_of builds it)
    chosen: dict[str, Any] = field(default_factory=dict)
    #: values computed once per advice (see :meth:`once`); the scenario does not change meanwhile
    memo: dict[Any, Any] = field(default_factory=dict)

    def rule_ctx(self, workload: Workload | None = None) -> RuleContext:
        return RuleContext(self.scenario, self.facts, workload, memo=self.memo)

    def once(self, key: Any, compute: Callable[[], Any]) -> Any:
        """``compute()`` the first time ``key`` is asked for during this advice, then the same value
        (for aggregates over every workload that per-workload code would otherwise recompute: with
        thousands of workloads that is quadratic). ``key`` must name everything the value depends
        on besides the scenario (facts change while the host count is searched)."""
        try:
            return self.memo[key]
        except KeyError:
            value = self.memo[key] = compute()
            return value

    def model_citations(self, family: str, prediction=None) -> list[dict]:
        """Citations of a family's training rows (``id`` lists the rows' keys)."""
        if prediction is None or not prediction.citations:
            return []
        keys = self.models.keys_by_locator(family)
        out = []
        for doc, loc in prediction.citations:
            ids = keys.get((doc, loc), [])
            if ids:
                out.append({"document": doc, "locator": loc, "id": ", ".join(dict.fromkeys(ids))})
        return out


def prediction_figure(pred, i: int = 0, scale: float = 1.0, unit: str | None = None) -> ExpectedFigure:
    """Entry ``i`` of a Prediction as an expected figure (optionally rescaled)."""
    item = pred.item(i)
    return figure(item["value"] * scale, unit or item["unit"], item["low"] * scale, item["high"] * scale,
                  basis=item["basis"], extrapolated=item["extrapolated"], **({"level": item["level"]}
                                                                             if item.get("level") else {}))


def _deciding_rule(outcome: Outcome, best: str, other: str) -> Rule | None:
    """The fired rule that put ``best`` furthest ahead of ``other`` (None if no rule did)."""
    top, top_delta = None, 0.0
    for rule in outcome.fired:
        eff = rule.effect_for(outcome.ctx)
        delta = eff.scores.get(best, 0.0) - eff.scores.get(other, 0.0)
        if delta > top_delta + 1e-12:
            top, top_delta = rule, delta
    return top


def _confidence(total: Mapping[str, float], ranked: list[str], outcome: Outcome, extrapolated: bool,
                has_model: bool) -> float:
    """The confidence of the best of ``ranked``: its lead over the runner-up and the rules that fired,
    less for extrapolated figures or a missing model (0.05..0.97)."""
    best = ranked[0]
    margin = total[best] - total[ranked[1]] if len(ranked) > 1 else 3.0
    conf = 0.45 + 0.1 * min(max(margin, 0.0), 3.0) + 0.04 * min(len(outcome.fired), 3)
    if len(ranked) == 1 and outcome.excluded:
        conf = max(conf, 0.85)  # the safety rules leave one choice
    if extrapolated:
        conf -= 0.15
    if not has_model:
        conf -= 0.1
    return min(0.97, max(0.05, conf))


def decide(decision: str, scope: str, outcome: Outcome, ctx: EngineContext, *,
           extra_scores: Mapping[str, float] | None = None,
           expected: Mapping[str, Mapping[str, ExpectedFigure | Mapping[str, Any]]] | None = None,
           why: Mapping[str, str] | None = None,
           extrapolated: bool = False, model_citations: Iterable[dict] = (),
           summary: str = "", has_model: bool = True, order: Iterable[str] | None = None,
           keep: str | None = None) -> Recommendation:
    """The best non-excluded choice of ``outcome`` (plus ``extra_scores``) as a Recommendation.

    ``expected`` maps each choice to its expected figures; ``why`` adds a reason a choice lost
    (e.g. its predicted throughput). Ties keep the order of ``order`` (or of the outcome).
    ``keep``: the choice already taken, kept (a decision's figures refreshed at the facts a later
    decision settled, e.g. the storage figures at the recommended host count).
    """
    figures = {c: {k: as_figure(f) for k, f in figs.items()} for c, figs in (expected or {}).items()}
    why = why or {}
    total = {c: s + (extra_scores or {}).get(c, 0.0) for c, s in outcome.scores.items()}
    names = list(order or total)
    allowed = [c for c in names if c not in outcome.excluded]
    pin = fixed_choice(ctx, decision, scope)
    if pin is not None and pin not in names:
        pin = None
    if pin is not None:  # the scenario fixes the choice (preferences.fixed / .hypervisor): it is taken
        allowed = [pin] + [c for c in allowed if c != pin]
    first = pin
    if first is None and keep is not None and keep in names:
        first = keep
        allowed = [keep] + [c for c in allowed if c != keep]
    if not allowed:  # every choice excluded: take the least excluded, say so
        allowed = sorted(names, key=lambda c: len(outcome.excluded[c]))[:1]
    ranked = sorted(allowed, key=lambda c: (c != first, -total[c], names.index(c)))
    best = ranked[0]
    alternatives = []
    for c in ranked[1:]:
        reasons = [f"scored {total[c]:.2f} against {total[best]:.2f}"]
        lead = _deciding_rule(outcome, best, c)
        if lead is not None:
            reasons.insert(0, f"{lead.text.rstrip('.')} [{lead.id}]")
        if c in why:
            reasons.insert(0, why[c])
        if pin is not None:
            reasons.insert(0, f"the scenario fixes {pin} (preferences)")
        alternatives.append(Alternative(c, total[c], dict(figures.get(c, {})), "; ".join(reasons)))
    for c in names:
        if c in outcome.excluded and c != best:
            excluded = "; ".join(f"{reason} [{rule.id}]" for rule, reason in outcome.excluded[c])
            alternatives.append(Alternative(c, total[c], dict(figures.get(c, {})), f"excluded: {excluded}", True))
    figs = [f for f in figures.get(best, {}).values() if f.extrapolated is not None]
    if figs:
        extrapolated = any(f.extrapolated for f in figs)
    conf = _confidence(total, ranked, outcome, extrapolated, has_model)
    supporting = [r for r in outcome.fired if r.effect_for(outcome.ctx).scores.get(best, 0.0) > 0]
    conflicts = outcome.conflicts(best)
    parts = [summary] if summary else []
    parts += [r.text for r in supporting[:4]]
    safety = [r for r in outcome.fired if r.kind == "safety" and r.effect_for(outcome.ctx).exclude]
    parts += [r.text for r in safety if r not in supporting]
    if conflicts:
        parts.append("Conflicts resolved: " + "; ".join(conflicts) + ".")
    rec = Recommendation(
        decision=decision, scope=scope, choice=best, alternatives=alternatives,
        expected=dict(figures.get(best, {})), confidence=conf, extrapolated=extrapolated,
        rationale=" ".join(p.strip() for p in parts if p), score=total[best],
        citations=dedupe([*ctx.cites.for_rules(outcome.fired), *model_citations]),
        rules=[r.id for r in outcome.fired], conflicts=conflicts, warnings=list(dict.fromkeys(outcome.warnings)))
    rec.basis = summary_basis(f.basis for f in rec.expected.values())
    if pin is not None:
        against = [(rule.id, reason) for rule, reason in outcome.excluded.get(pin, [])]
        rec.details["fixed"] = {"choice": pin, "excluded_by": [rid for rid, _ in against]}
        rec.rationale = f"Fixed by the scenario's preferences. {rec.rationale}"
        if against:
            rec.warnings.append(f"the scenario fixes {pin} although the rules exclude it: "
                                + "; ".join(f"{reason} [{rid}]" for rid, reason in against))
            rec.confidence = min(rec.confidence, 0.2)
    return rec


def fixed_choice(ctx: EngineContext, decision: str, scope: str) -> str | None:
    """The choice the scenario fixes for ``decision`` at ``scope`` (``preferences.fixed``, or
    ``preferences.hypervisor`` for the cluster's hypervisor), or None."""
    prefs = ctx.scenario.preferences
    pinned = getattr(prefs, "pinned", None)
    if pinned is None:
        return None
    value = pinned(decision, scope.split(":", 1)[1] if scope.startswith("workload:") else None)
    return None if value is None else str(value)


#: score points a choice loses when it misses a soft target (or a hard one no choice meets)
TARGET_MISS_POINTS = 2.0


def mark_target_misses(outcome: Outcome, values: dict[str, float], limit: float, hard: bool, rule: Rule,
                       reason: Callable[[float], str], extra: dict, why: dict,
                       candidates: Iterable[str] | None = None) -> None:
    """The one rule for an upper target a choice's figure must meet: every choice of ``values``
    above ``limit`` is excluded by ``rule`` when the target is ``hard`` and one of ``candidates``
    (all choices unless given) meets it, else :data:`TARGET_MISS_POINTS` down in ``extra`` with
    ``why``; ``reason(value)`` says why."""
    meets = [k for k in (values if candidates is None else candidates) if values[k] <= limit * (1 + 1e-9)]
    for k, v in values.items():
        if k in meets:
            continue
        if hard and meets:
            outcome.excluded.setdefault(k, []).append((rule, reason(v)))
        else:
            extra[k] = extra.get(k, 0.0) - TARGET_MISS_POINTS
            why[k] = reason(v)
