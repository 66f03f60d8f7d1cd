"""Running the replay: each case's scenario advised, its figure found, compared with the document;
held out, the families refitted without the experiment's rows."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from typing import Any

from advisor.replay.coverage import NotExperiment, coverage
from advisor.replay.hosts import host_checks
from advisor.replay.measure import measured, within
from advisor.replay.results import CaseResult, ExperimentResult, ReplayResult
from advisor.replay.suite import Case, Experiment, Setup
from knowledge.infra.errors import InputError


def find_figure(advice, case: Case) -> tuple[dict | None, str]:
    """The expected figure ``case`` names in ``advice`` (None and why when it is missing); with
    ``relative_to``, that figure over the same figure of another choice (a ratio or a percent
    change, or a difference), with both figures' uncertainty (:func:`_combined`)."""
    out, problem = _one_figure(advice, case, case.choice)
    if out is None or not case.relative_to:
        return out, problem
    base, problem = _one_figure(advice, case, case.relative_to)
    if base is None:
        return None, problem
    label = {k: out.get(k) or base.get(k) for k in ("measured_on",) if out.get(k) or base.get(k)}
    if case.compare != "difference" and not float(base["value"]):
        return None, f"{case.decision} {case.relative_to}: {case.figure} is 0"
    value, low, high = _combined(out, base, case.compare == "difference")
    if case.compare == "difference":
        return {"value": value, "low": low, "high": high, "unit": out.get("unit")} | label, ""
    if case.compare == "percent_change":
        return {"value": 100.0 * (value - 1.0), "low": 100.0 * (low - 1.0), "high": 100.0 * (high - 1.0),
                "unit": "%"} | label, ""
    return {"value": value, "low": low, "high": high, "unit": "ratio"} | label, ""


def _combined(a: dict, b: dict, difference: bool) -> tuple[float, float, float]:
    """(value, low, high) of ``a - b`` (``difference``) or ``a / b``: the two figures' half-widths
    added in quadrature (absolute for a difference, in log units for a ratio), as for independent
    errors; a figure that states no spread adds none. Before, the ratio carried only ``a``'s interval,
    as if ``b`` were exact."""
    va, vb = float(a["value"]), float(b["value"])
    if difference:
        lo = math.hypot(va - float(a["low"]), float(b["high"]) - vb)
        hi = math.hypot(float(a["high"]) - va, vb - float(b["low"]))
        return va - vb, va - vb - lo, va - vb + hi
    value = va / vb
    ends = (float(a["low"]), float(a["high"]), float(b["low"]), float(b["high"]))
    if min(va, vb, *ends) <= 0:  # no log spread: the first figure's relative interval
        return value, ends[0] / vb, ends[1] / vb
    lo = math.hypot(math.log(va / ends[0]), math.log(ends[3] / vb))
    hi = math.hypot(math.log(ends[1] / va), math.log(vb / ends[2]))
    return value, value * math.exp(-lo), value * math.exp(hi)


def _one_figure(advice, case: Case, choice: str | None) -> tuple[dict | None, str]:
    rec = advice.find(case.decision, case.scope)
    if rec is None:
        return None, f"no {case.decision} recommendation for {case.scope}"
    figs = rec.expected
    if choice is not None and choice != rec.choice:
        alt = next((a for a in rec.alternatives if a.choice == choice), None)
        if alt is None:
            return None, f"{case.decision}: no choice {choice!r} (chosen {rec.choice!r})"
        figs = alt.expected
    fig = figs.get(case.figure)
    if fig is None:
        return None, f"{case.decision} {choice or rec.choice}: no figure {case.figure!r}"
    out = {"value": fig.value, "low": fig.low, "high": fig.high, "unit": fig.unit}
    if case.key:
        v = fig.number(case.key)
        if v is None:
            return None, f"{case.decision}: figure {case.figure!r} has no {case.key!r}"
        # a value inside the figure has the figure's relative interval around it
        base = float(fig.value) or 1.0
        out = {"value": v, "low": v * float(fig.low) / base, "high": v * float(fig.high) / base, "unit": fig.unit}
    if fig.measured_on:  # the document's own number on its testbed: no model predicts it
        out["measured_on"] = fig.measured_on
    if out["value"] is None:
        return None, f"{case.decision}: figure {case.figure!r} has no value"
    return out, ""


class _Advisor:
    """advise() with one result per distinct scenario (cases share scenarios)."""

    def __init__(self, kb):
        self.kb = kb
        self._cache: dict[str, Any] = {}

    def __call__(self, scenario: dict):
        from advisor.engine import advise

        key = json.dumps(scenario, sort_keys=True, default=str)
        if key not in self._cache:
            self._cache[key] = advise(scenario, kb=self.kb)
        return self._cache[key]


def replay_experiment(exp: Experiment, kb, advisor: Callable[[dict], Any], held_out: bool = False) -> ExperimentResult:
    """Run the cases of ``exp`` through ``advisor`` (scenario mapping -> Advice). Held out, a figure
    that is the document's own measurement on its testbed (``measured_on``) predicts nothing: it is
    never within (an echo of the number it would be checked against)."""
    out = []
    for case in exp.cases:
        m = measured(kb, exp.document, case)
        try:
            advice = advisor(case.scenario)
        except InputError as exc:
            out.append(CaseResult(case, m, None, False, "error", f"scenario rejected: {exc}"))
            continue
        hc = advice.find("host_count")
        fig, problem = find_figure(advice, case)
        ok = fig is not None and within(m, float(fig["low"]), float(fig["high"]))
        if held_out and fig is not None and fig.get("measured_on"):
            ok = False
            problem = (f"measured on {fig['measured_on']}: the document's own number, which no model predicts "
                       "once the experiment is left out")
        out.append(CaseResult(case, m, fig, ok, hc.choice if hc else "missing", problem))
    return ExperimentResult(exp, out)


def run(experiments: Iterable[Experiment], kb=None, *, documents: Iterable[str] | None = None,
        held_out: bool = False, progress: Callable[[int, int, str], None] | None = None,
        setups: Iterable[Setup] = (), not_experiments: Iterable[NotExperiment] | None = None) -> ReplayResult:
    """Replay ``experiments`` (optionally only those of ``documents``, ids or prefixes) against
    ``kb`` (default: the shipped knowledge base); ``held_out`` refits, per experiment, every
    family without that experiment's rows. ``setups`` (figure-less configurations the documents
    ran) are advised too: each must get a host count. With ``not_experiments`` (even empty) the
    coverage of the documents' rows is computed too (over every experiment and setup given)."""
    own = kb is None
    if own:
        from knowledge.store import KnowledgeBase

        kb = KnowledgeBase.open()
    try:
        exps = list(experiments)
        extra = list(setups)
        cov = {} if not_experiments is None else coverage(kb, exps, extra, not_experiments)
        if documents:
            wanted = [kb.resolve_document(d) for d in documents]
            exps = [e for e in exps if kb.resolve_document(e.document) in wanted]
            extra = [x for x in extra if kb.resolve_document(x.document) in wanted]
            cov = {d: c for d, c in cov.items() if d in wanted}
        results = []
        host_counts: dict[str, str] = {}
        shared = _Advisor(kb)
        for i, exp in enumerate(exps):
            if progress:
                progress(i, len(exps), exp.id)
            if held_out:
                with _without_rows(kb, kb.resolve_document(exp.document), exp.rows):
                    res = replay_experiment(exp, kb, _Advisor(kb), held_out=True)
            else:
                res = replay_experiment(exp, kb, shared)
            for c in res.cases:
                host_counts[c.case.scenario.get("name", exp.id) + f" [{c.case.id}]"] = c.host_count
            results.append(res)
        for x in extra:
            hc = shared(x.scenario).find("host_count")
            host_counts[f"{x.id} [setup, {x.locator}]"] = hc.choice if hc else "missing"
        return ReplayResult(results, held_out, host_counts, cov, host_checks(shared, exps, extra))
    finally:
        if own:
            kb.close()


class _without_rows:
    """Context: the model families see ``kb`` without the training points resting on ``rows``
    of ``document`` (refitted on the rest); everything else is unchanged."""

    def __init__(self, kb, document: str, rows: Iterable[str]):
        self.kb = kb
        self.doc = document
        self.rows = set(rows)
        self._saved = None

    def __enter__(self):
        import advisor.models as models

        real = models.get_family
        doc, rows, fitted = self.doc, self.rows, {}

        def held_out(name: str, kb):
            if name in fitted:
                return fitted[name]
            fam = real(name, kb)
            pts = fam.training_points()
            keep = [p for p in pts if not _rests_on(p, doc, rows)]
            if len(keep) == len(pts):
                fitted[name] = fam
            else:
                if not keep:  # as for a knowledge base without its rows: the advice decides without it
                    raise models.FamilyUnavailable(f"{name}: no training points left without the experiment's rows")
                fitted[name] = models.FAMILIES[name].factory(kb).fit(keep)
            return fitted[name]

        self._saved = real
        models.get_family = held_out
        return self

    def __exit__(self, *exc):
        import advisor.models as models

        models.get_family = self._saved


def _rests_on(point, document: str, rows: set[str]) -> bool:
    """Whether a training point was derived from one of ``rows`` of ``document``."""
    keys = [k.split("@", 1)[0] for k in str(point.key).split("+")]
    if "|" in point.locator:
        docs = [part.strip().split("|", 1)[0] for part in point.locator.split(";")]
    else:
        docs = [point.document] * len(keys)
    return any(k in rows and d == document for k, d in zip(keys, docs + [point.document] * len(keys),
                                                             strict=False))
