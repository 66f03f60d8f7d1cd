"""The advisor engine: a scenario in, cited recommendations with expected performance out.

:func:`advise` runs the recommenders of the decision catalogue (:mod:`advisor.recommend.catalog`)
in its order (later decisions read earlier choices: the over-allocation ratio feeds the host
count, the host count the VMs per host of the cache-mode decision, ...) and returns an
:class:`Advice`: the typed answer every front end reads (with the final :class:`Facts` the
decisions were taken on); :meth:`Advice.to_dict` is the JSON of ``capadvisor advise``, used only
at file and CLI edges. Pure Python; used by the CLI and
the GUI alike. Long steps report through ``progress`` and stop at ``cancel``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from advisor.calibration import Calibration, calibrate, documents_only, for_scenario
from advisor.cost import DesignCost, advice_cost
from advisor.growth import Timeline, timeline
from advisor.hardware import finish, summary_basis
from advisor.notes import NoteIndex
from advisor.notes import attach as attach_notes
from advisor.progress import CancelToken, ProgressCallback, check, report
from advisor.recommend import catalog
from advisor.recommend.base import CitationIndex, EngineContext, ModelAccess, Recommendation
from advisor.recommend.disks import hardware_of
from advisor.recommend.targets import TargetResult, final_results, implicit_targets
from advisor.rules import Facts
from advisor.scenario import Scenario, load_scenario, parse_scenario
from knowledge.infra.errors import InputError
from knowledge.infra.gcpause import paused_gc

#: citation indexes by knowledge-base digest (the knowledge base is read-only)
_CITES: dict[str, CitationIndex] = {}
#: from more workload groups than this (an estate), :meth:`Advice.to_dict` writes a recommendation
#: equal to an earlier one apart from its scope as a reference to it (``same_as``)
ESTATE_WORKLOADS = 200


def _sameness(rec: Recommendation) -> tuple:
    """What two recommendations must share to be equal apart from their scope: the same decision
    and choice, the same objects as alternatives, expected figures and citations (recommendations
    of one profile share them, :mod:`advisor.recommend.profile`), and equal everything else."""
    return (rec.decision, id(rec.alternatives), id(rec.expected), id(rec.citations), rec.choice, rec.value,
            rec.score, rec.confidence, rec.extrapolated, rec.rationale, tuple(rec.rules), tuple(rec.conflicts),
            tuple(rec.warnings), rec.basis, repr(rec.details) if rec.details else "")


def brief(rec: Recommendation, same_as: int) -> dict:
    """The short JSON form of a recommendation equal to entry ``same_as`` apart from its scope."""
    out: dict[str, Any] = {"decision": rec.decision, "scope": rec.scope, "choice": rec.choice}
    if rec.value is not None:
        out["value"] = rec.value
    out.update({"score": round(rec.score, 3), "same_as": same_as})
    return out


@dataclass
class Advice:
    """The engine's answer for one scenario."""

    scenario: Scenario
    recommendations: list[Recommendation]
    calibration: Calibration = field(default_factory=documents_only)
    model_problems: dict[str, str] = field(default_factory=dict)
    kb_digest: str = ""
    elapsed_s: float = 0.0
    #: the facts after the last decision (VMs per host on the recommended hosts, chosen backend, ...)
    facts: Facts | None = None
    #: the scenario's targets checked on the final plan (:mod:`advisor.recommend.targets`)
    targets: list[TargetResult] = field(default_factory=list)
    #: what the design costs with the user's cost catalogue (:mod:`advisor.cost`); None without one
    cost: DesignCost | None = None
    #: capacity over the years of the scenario's ``growth`` (:mod:`advisor.growth`); None without one
    timeline: Timeline | None = None
    _lookup: Any = field(default=None, repr=False, compare=False)

    def scopes(self) -> list[str]:
        """The scopes of the recommendations: ``cluster`` first, then the workloads by name."""
        return sorted({r.scope for r in self.recommendations}, key=lambda s: (s != "cluster", s))

    def first(self, decision: str, scope: str | None = None) -> Recommendation | None:
        """The recommendation for ``decision`` at ``scope`` if there is one, else its first of any scope."""
        recs = self.of(decision)
        if scope is not None:
            recs = [r for r in recs if r.scope == scope] or recs
        return recs[0] if recs else None

    def find(self, decision: str, scope: str = "cluster") -> Recommendation | None:
        """The recommendation for ``decision`` at ``scope`` (``cluster`` or ``workload:<name>``)."""
        return self._index()[0].get((decision, scope))

    def of(self, decision: str) -> list[Recommendation]:
        """Every recommendation of ``decision``, any scope."""
        return list(self._index()[1].get(decision, ()))

    def _index(self) -> tuple[dict[tuple[str, str], Recommendation], dict[str, list[Recommendation]]]:
        """(decision, scope) -> the first such recommendation, and decision -> its recommendations
        (remade when the list is replaced or grows: a report of an estate asks thousands of times)."""
        key = (id(self.recommendations), len(self.recommendations))
        if self._lookup is None or self._lookup[0] != key:
            first: dict[tuple[str, str], Recommendation] = {}
            by_decision: dict[str, list[Recommendation]] = {}
            for r in self.recommendations:
                first.setdefault((r.decision, r.scope), r)
                by_decision.setdefault(r.decision, []).append(r)
            self._lookup = (key, first, by_decision)
        return self._lookup[1], self._lookup[2]

    @property
    def warnings(self) -> list[str]:
        out: list[str] = []
        if self.calibration.rejected:
            out.append(f"calibration not applied: {self.calibration.rejected}; the scenario's own disk figures "
                       "(declared, else per-kind defaults) were used")
        for r in self.recommendations:
            if r.warnings:  # most of an estate's 30,000 have none
                out += [w for w in r.warnings if w not in out]
        return out

    @property
    def basis(self) -> str:
        """What the figures rest on, all together: a site's figures, the probe's, the per-kind
        defaults, the declared hardware, or the documents' testbeds (the weakest that occurs)."""
        return summary_basis(r.basis for r in self.recommendations) if self.recommendations \
            else self.calibration.basis

    def context(self, kb) -> EngineContext:
        """The engine context this advice was decided in (final facts, same calibration), for
        figures that evaluate the recommenders' own functions at other inputs (charts, what-if).
        Read-only use: nothing here changes the advice."""
        return EngineContext(scenario=self.scenario, kb=kb,
                             models=ModelAccess(kb, self.calibration.family_dict()), cites=citation_index(kb),
                             facts=self.facts if self.facts is not None else Facts.of(self.scenario),
                             calibration=self.calibration)

    @property
    def estate_scale(self) -> bool:
        """More than :data:`ESTATE_WORKLOADS` workload groups: identical recommendations are written once."""
        return len(self.scenario.workloads) > ESTATE_WORKLOADS

    def same_as(self) -> list[int | None]:
        """For each recommendation, the index of the first earlier one equal to it apart from the
        scope (None for the first of its kind)."""
        first: dict[tuple, int] = {}
        return [first.setdefault(_sameness(r), i) if r.scope != "cluster" else None
                for i, r in enumerate(self.recommendations)]

    def to_dict(self, expand: bool = False) -> dict:
        """JSON-ready: scenario name, basis, calibration, recommendations, warnings. At estate scale
        (:attr:`estate_scale`) a recommendation equal to an earlier one apart from its scope is
        written as :func:`brief` with ``same_as``, the index of that earlier entry in
        ``recommendations``, unless ``expand``."""
        if expand or not self.estate_scale:
            recs = [r.to_dict() for r in self.recommendations]
        else:
            recs = [r.to_dict() if ref is None or ref == i else brief(r, ref)
                    for i, (r, ref) in enumerate(zip(self.recommendations, self.same_as(), strict=True))]
        basis = self.basis  # of every recommendation: once (30,000 at estate scale)
        return {
            "scenario": self.scenario.name, "format_version": 1, "knowledge_base": self.kb_digest[:16],
            "basis": basis, "calibration": self.calibration.to_dict(basis),
            "recommendations": recs,
            "targets": [t.to_dict() for t in self.targets],
            "cost": self.cost.to_dict() if self.cost is not None else None,
            "timeline": self.timeline.to_list() if self.timeline is not None else [],
            "runs_out": self.timeline.runs_out if self.timeline is not None else None,
            "timeline_units": self.timeline.units() if self.timeline is not None else None,
            "timeline_notes": list(self.timeline.notes) if self.timeline is not None else [],
            "warnings": self.warnings, "model_problems": dict(self.model_problems),
            **self._placement(),
        }

    def _placement(self) -> dict:
        """``placement``: per host its ``host``, ``domain`` and VMs per workload, when the host
        count placed under constraints (#32; the unconstrained groups stay in its details)."""
        for r in self.recommendations:
            if r.decision == "host_count" and (r.details or {}).get("placement_by_host"):
                return {"placement": r.details["placement_by_host"]}
        return {}


def _scenario(scenario: Scenario | dict | str | Path) -> Scenario:
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, dict):
        return parse_scenario(scenario)
    return load_scenario(scenario)


def citation_index(kb) -> CitationIndex:
    """The (cached) citation index of ``kb``."""
    digest = kb.digest
    if digest not in _CITES:
        _CITES[digest] = CitationIndex(kb)
    index = _CITES[digest]
    index.kb = kb
    return index


def advise(scenario: Scenario | dict | str | Path, kb=None, site: str | None = None, userdb=None,
           progress: ProgressCallback | None = None, cancel: CancelToken | None = None,
           calibration: Calibration | None = None, catalogue=None) -> Advice:
    """Recommendations for ``scenario`` (a Scenario, a mapping or a scenario file path).

    ``kb`` defaults to the shipped knowledge base; with ``site`` the predictions are calibrated
    to that site's imported benchmarks in ``userdb`` (default: the user's database); without it,
    to the site the scenario names (``calibration.site``), if this user database holds it (else
    the advice says so and stands on the documents' ratios). Raises
    :class:`~knowledge.infra.errors.InputError` for invalid scenarios or unknown sites and
    :class:`~advisor.progress.Cancelled` when ``cancel`` is set. ``calibration`` (instead of a
    site) gives the site figures directly (as :func:`advisor.calibration.for_scenario` would keep
    them): the bench plan asks which figures a site measurement would calibrate. With a cost
    ``catalogue`` (:class:`knowledge.costs.Catalogue`) the advice carries its ``cost``
    (:func:`advisor.cost.advice_cost`).
    """
    with paused_gc():  # millions of objects that stay alive: no collector walks over them meanwhile
        return _advise(scenario, kb, site, userdb, progress, cancel, calibration, catalogue)


def hosts_to_last(scenario: Scenario, kb) -> int | None:
    """The most hosts (reserve included) a year of ``scenario``'s growth needs, as the timeline of
    its advice counts them (None without a ``growth`` section or without a host count today). Only
    the decisions up to the host count are taken: the later ones set no fact or choice the timeline
    reads, so the rest of the advice is not made (``optimize --horizon`` reads this of each
    configuration, then advises it once at that count)."""
    with paused_gc():
        advice = _advise(scenario, kb, None, None, None, None, None, None, through="host_count")
    hc = advice.find("host_count")
    if advice.timeline is None or hc is None or hc.value is None:
        return None
    return max(y.hosts for y in advice.timeline.years)


def _advise(scenario, kb, site, userdb, progress, cancel, calibration, catalogue,
            through: str | None = None) -> Advice:
    start = time.perf_counter()
    sc = _scenario(scenario)
    own_kb = kb is None
    if own_kb:
        from knowledge.store import KnowledgeBase

        kb = KnowledgeBase.open()
    own_db = False
    try:
        cal = documents_only() if calibration is None else for_scenario(calibration, sc)
        named = site is None and calibration is None and sc.calibration is not None and bool(sc.calibration.site)
        if named and sc.calibration is not None:
            site = sc.calibration.site
        if site and calibration is None:
            if userdb is None:
                from knowledge.userdb import UserDatabase

                userdb, own_db = UserDatabase(), True
            try:
                cal = for_scenario(calibrate(userdb, site), sc)
            except InputError as exc:
                if not named:
                    raise
                cal = Calibration(site=site, rejected=f"the scenario names site {site!r}, which this computer's "
                                                      f"user database does not hold ({exc})")
        report(progress, 0.02, "loading models")
        ctx = EngineContext(scenario=sc, kb=kb, models=ModelAccess(kb, cal.family_dict()), cites=citation_index(kb),
                            facts=Facts.of(sc), calibration=cal)
        recs: list[Recommendation] = []
        notes = NoteIndex(kb)
        decisions = catalog.ordered()
        for i, decision in enumerate(decisions):
            check(cancel)
            report(progress, 0.05 + 0.9 * i / len(decisions), f"deciding {decision.title.lower()}")
            # recommendations of one profile share their figures: basis and notes
            finished: dict[tuple[int, int], tuple[str, list[dict]]] = {}
            for rec in decision.recommender.recommend(ctx):
                shared = (id(rec.expected), id(rec.alternatives))
                if shared in finished:
                    rec.basis, rec.notes = finished[shared]
                else:
                    finish(rec, hardware_of(ctx), ctx.facts.storage_backend)  # every figure says its basis
                    attach_notes(rec, notes)  # the document notes on the rows it rests on
                    finished[shared] = (rec.basis, rec.notes)
                recs.append(rec)
            if decision.name == through:  # the decisions up to it and the timeline only (hosts_to_last)
                advice = Advice(sc, recs, cal, facts=ctx.facts)
                advice.timeline = timeline(ctx, advice.find("host_count"))
                return advice
        results = final_results(ctx, recs) + implicit_targets(recs)  # + each workload's io.iops
        advice = Advice(sc, recs, cal, dict(ctx.models.problems), kb.digest, 0.0, facts=ctx.facts, targets=results)
        if catalogue is not None:
            report(progress, 0.97, "pricing the design")
            advice.cost = advice_cost(advice, catalogue, ctx)
        if sc.growth is not None:
            report(progress, 0.98, "growing the demand over the horizon")
            advice.timeline = timeline(ctx, advice.find("host_count"), catalogue,
                                       advice.cost.design if advice.cost is not None else None)
        report(progress, 1.0, "done")
        advice.elapsed_s = time.perf_counter() - start
        return advice
    finally:
        if own_db and userdb is not None:
            userdb.close()
        if own_kb:
            kb.close()
