"""Replay the documents: every experiment of the knowledge base as a scenario, checked against
the advice's expected figures.

The suite (``resources/replay/<document>.yaml``, one file per document, written once as data,
shipped with the app) holds, per document, the testbeds as the document states their hardware (a scenario's
``hosts`` block each) and the experiments: each table, figure series and worked example the
knowledge base holds, with

* the scenario of that testbed and workload (the testbed's hosts, the experiment's workloads
  and preferences, and per case the settings that differ: VMs per host, operation, load, ...);
* the measured value(s): knowledge-base row ids of the document (``rows``) and how they make
  the measured number (``measure``: ``value`` of the first row, ``product`` of the rows, e.g. a
  slowdown factor times the baseline it is relative to, ``ratio`` first / second, ``sum``,
  ``difference``, ``over_rest``: a peak (first row) some points (second row) above the others,
  as a ratio to them, ``equal``: the row states the compared platforms alike, ratio 1, ``max``
  and ``mean`` of the rows, e.g. the hottest of three hosts, ``percent_as_ratio``: a percent
  change as the ratio it means, 1 + p / 100);
* which expected figure of which decision must reproduce it (``decision``, ``scope``,
  ``choice``: the chosen one or an alternative, ``figure``, optionally ``key`` for a value
  inside the figure, e.g. one operation of a cache-mode figure).

A case is *within* when the measured number lies in the figure's stated interval ``[low,
high]`` (a value the document gives as approximate, ``~``, may lie 5 % outside it, one it gives
as exact 0.5 %, or, when that is wider, half a unit in the last place the document states: "=2
s" is 1.5-2.5 s, "~200 MB/s" 150-250, "=4.013 s" 4.0125-4.0135; ``<`` and ``>`` bounds must overlap the interval, as must a
stated range). An experiment passes when all its cases are within. The in-sample bar: at
least :data:`BAR` of the experiments pass, and every scenario of the suite (every setup a
document ran) gets a host count, never ``infeasible``.

Coverage: every row of the five documents is accounted for. A row is *replayed* (a case of an
experiment cites it), rests on a *setup* (a figure-less configuration that must get a host
count), or is listed under the file's ``not_experiments`` with a reason class
(:data:`REASONS`: a testbed description, a setting of the experiment, a count of what was
compared, a survey figure, a step of an analysis, a restatement of a replayed row, or a result
no decision predicts, each with its ``why``); an entry names a ``locator`` and, when it covers
only part of it, its ``rows``. :func:`coverage` counts them per document and lists the rows no
entry accounts for (the tests require none).

Leave-the-experiment-out (``held_out=True``): before an experiment is replayed, every training
point of every family that rests on one of its rows is removed and the family refitted, so the
figure is a prediction for a setup the models have not seen (``tests/benchmarks/bench_replay.py``).

Pure Python (no Qt); the CLI is ``capadvisor replay``.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from knowledge.infra.errors import InputError

#: share of the experiments that must pass in-sample
BAR = 0.95
#: relative tolerance for the document's rounding: exact values, approximate (~) values
TOLERANCE = {"=": 0.005, "~": 0.05}
MEASURES = ("value", "product", "ratio", "sum", "difference", "over_rest", "equal", "max", "mean",
            "percent_as_ratio")
KINDS = ("table", "figure", "worked_example", "section", "setup")


def default_suite_dir() -> Path:
    """``resources/replay`` of the installed program (the source tree, or the frozen bundle)."""
    from knowledge.infra.paths import bundle_root

    return bundle_root() / "resources" / "replay"


# --- the suite as data -----------------------------------------------------------------------
@dataclass
class Case:
    """One measured number and the figure of the advice that must reproduce it."""

    id: str
    rows: tuple[str, ...]
    scenario: dict
    decision: str
    scope: str
    figure: str
    choice: str | None = None  # None: the chosen recommendation's figures
    key: str | None = None     # a value inside the figure dict (e.g. operations.random_read)
    measure: str = "value"
    scale: float = 1.0         # measured x scale is in the figure's unit
    note: str = ""
    relative_to: str | None = None  # compare with the same figure of this choice ...
    compare: str = "ratio"          # ... as a ratio, a percent_change or a difference


@dataclass
class Experiment:
    """A table, a figure series or a worked example of one document."""

    id: str
    document: str
    locator: str
    kind: str
    title: str
    decision: str
    figure: str
    cases: list[Case]
    testbed: str = ""
    xfail: str = ""   # why it is known to fail (reported and counted, never hidden)
    note: str = ""

    @property
    def rows(self) -> list[str]:
        return list(dict.fromkeys(r for c in self.cases for r in c.rows))


def _merge(base: Any, over: Any) -> Any:
    """Deep merge of mappings (``over`` wins; lists are replaced)."""
    if isinstance(base, Mapping) and isinstance(over, Mapping):
        out = copy.deepcopy(dict(base))
        for k, v in over.items():
            out[k] = _merge(base.get(k), v) if k in base else copy.deepcopy(v)
        return out
    return copy.deepcopy(over)


def _set_path(data: dict, path: str, value: Any) -> None:
    """Set ``a.b.0.c`` (list items by index) in nested ``data``."""
    parts = path.split(".")
    cur: Any = data
    for i, p in enumerate(parts):
        last = i == len(parts) - 1
        if isinstance(cur, list):
            idx = int(p)
            if last:
                cur[idx] = value
            else:
                cur = cur[idx]
            continue
        if last:
            cur[p] = value
        else:
            if p not in cur or cur[p] is None:
                cur[p] = {}
            cur = cur[p]


def _parse_experiment(doc: str, testbeds: Mapping[str, dict], raw: Mapping[str, Any], where: str) -> Experiment:
    def need(key: str) -> Any:
        if key not in raw:
            raise InputError(f"{where}: experiment {raw.get('id', '?')!r}: {key!r} is required")
        return raw[key]

    eid = str(need("id"))
    kind = str(raw.get("kind", "table"))
    if kind not in KINDS:
        raise InputError(f"{where}: experiment {eid}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
    tb = str(raw.get("testbed", ""))
    if tb and tb not in testbeds:
        raise InputError(f"{where}: experiment {eid}: unknown testbed {tb!r}")
    base = _merge({"name": eid, "hosts": copy.deepcopy(testbeds[tb]["hosts"])} if tb else {"name": eid},
                  raw.get("scenario", {}))
    expect = dict(raw.get("expect", {}))
    decision = str(expect.get("decision", ""))
    cases = []
    raw_cases = raw.get("cases") or [{}]
    for i, rc in enumerate(raw_cases):
        rc = dict(rc)
        scen = _merge(base, rc.get("scenario", {}))
        for path, value in (rc.get("set") or {}).items():
            _set_path(scen, str(path), copy.deepcopy(value))
        e = {**expect, **{k: rc[k] for k in ("decision", "scope", "choice", "figure", "key", "relative_to", "compare")
                          if k in rc}}
        if e.get("compare", "ratio") not in ("ratio", "percent_change", "difference"):
            raise InputError(f"{where}: experiment {eid} case {i + 1}: compare must be ratio, percent_change or "
                             "difference")
        rows = rc.get("rows", raw.get("rows"))
        if not rows:
            raise InputError(f"{where}: experiment {eid} case {i + 1}: 'rows' (knowledge-base ids) is required")
        measure = str(rc.get("measure", raw.get("measure", "value")))
        if measure not in MEASURES:
            raise InputError(f"{where}: experiment {eid} case {i + 1}: measure must be one of "
                             f"{', '.join(MEASURES)}")
        for k in ("decision", "figure"):
            if not e.get(k):
                raise InputError(f"{where}: experiment {eid} case {i + 1}: expect.{k} is required")
        cases.append(Case(id=str(rc.get("id", f"{eid}#{i + 1}")), rows=tuple(str(r) for r in rows), scenario=scen,
                          decision=str(e["decision"]), scope=str(e.get("scope", "cluster")), figure=str(e["figure"]),
                          choice=None if e.get("choice") in (None, "") else str(e["choice"]),
                          key=None if e.get("key") in (None, "") else str(e["key"]), measure=measure,
                          scale=float(rc.get("scale", raw.get("scale", 1.0))), note=str(rc.get("note", "")),
                          relative_to=None if e.get("relative_to") in (None, "") else str(e["relative_to"]),
                          compare=str(e.get("compare", "ratio"))))
    return Experiment(id=eid, document=doc, locator=str(need("locator")), kind=kind, title=str(need("title")),
                      decision=decision or cases[0].decision, figure=str(expect.get("figure", cases[0].figure)),
                      cases=cases, testbed=tb, xfail=str(raw.get("xfail", "") or ""), note=str(raw.get("note", "")))


@dataclass
class Setup:
    """A setup a document ran that carries no figure of its own (a testbed configuration): its
    scenario must still get a host count."""

    id: str
    document: str
    locator: str
    title: str
    rows: tuple[str, ...]
    scenario: dict


def _parse_setup(doc: str, testbeds: Mapping[str, dict], raw: Mapping[str, Any], where: str) -> Setup:
    sid = str(raw.get("id", "?"))
    for key in ("id", "locator", "title", "rows"):
        if key not in raw:
            raise InputError(f"{where}: setup {sid!r}: {key!r} is required")
    tb = str(raw.get("testbed", ""))
    if tb and tb not in testbeds:
        raise InputError(f"{where}: setup {sid}: unknown testbed {tb!r}")
    base = {"name": sid, "hosts": copy.deepcopy(testbeds[tb]["hosts"])} if tb else {"name": sid}
    return Setup(sid, doc, str(raw["locator"]), str(raw["title"]), tuple(str(r) for r in raw["rows"]),
                 _merge(base, raw.get("scenario", {})))


def load_setups(directory: Path | str | None = None) -> list[Setup]:
    """Every ``setups`` entry of the replay files (see :class:`Setup`)."""
    out = []
    for path, data in _files(directory):
        for raw in data.get("setups") or []:
            out.append(_parse_setup(str(data["document"]), data.get("testbeds") or {}, raw, str(path)))
    return out


def _files(directory: Path | str | None) -> list[tuple[Path, Mapping]]:
    import yaml

    d = Path(directory) if directory is not None else default_suite_dir()
    if not d.is_dir():
        raise InputError(f"{d}: no replay suite there (the experiments are resources/replay/*.yaml "
                         "of the program; pass --suite DIR)")
    out = []
    for path in sorted(d.glob("*.yaml")):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except yaml.YAMLError as exc:
            raise InputError(f"{path}: not valid YAML: {exc}") from exc
        if not isinstance(data, Mapping) or "document" not in data:
            raise InputError(f"{path}: a replay file needs 'document' and 'experiments'")
        out.append((path, data))
    return out


def load_suite(directory: Path | str | None = None) -> list[Experiment]:
    """Every experiment of every ``*.yaml`` file under ``directory`` (default: the source tree's)."""
    out: list[Experiment] = []
    seen: dict[str, str] = {}
    for path, data in _files(directory):
        doc = str(data["document"])
        testbeds = data.get("testbeds") or {}
        for raw in data.get("experiments") or []:
            exp = _parse_experiment(doc, testbeds, raw, str(path))
            if exp.id in seen:
                raise InputError(f"{path}: experiment id {exp.id!r} also in {seen[exp.id]}")
            seen[exp.id] = str(path)
            out.append(exp)
    return out


# --- coverage: every row of the documents accounted for --------------------------------------
#: why a locator's rows are not an experiment the advice predicts (the class of a not_experiments entry)
REASONS = {
    "testbed": "describes the testbed (hosts, disks, links, software): the replay scenarios' hosts rest on it",
    "parameter": "a setting of the experiment (data set, offered load, thread count, level tested): an input",
    "count": "a count of what was compared or run (systems, tests, scenarios, nodes, runs)",
    "survey": "not an experiment of the document (literature survey, history, cost, figures it cites)",
    "analysis": "a step of an analytical derivation (formula coefficient, bound, time instant of a proof)",
    "restated": "the result of a replayed experiment, stated again (abstract, introduction, conclusions)",
    "no_decision": "a measured result that no decision of the advice predicts (why: in the entry)",
}


@dataclass
class NotExperiment:
    """Rows of one locator that are not an experiment the advice predicts, and why."""

    document: str
    locator: str
    reason: str
    why: str
    rows: tuple[str, ...] = ()   # empty: every row of the locator no experiment or setup cites
    see: str = ""                # for "restated": the experiment that replays the result


def load_not_experiments(directory: Path | str | None = None) -> list[NotExperiment]:
    """Every ``not_experiments`` entry of the replay files (see :class:`NotExperiment`)."""
    out = []
    for path, data in _files(directory):
        for i, raw in enumerate(data.get("not_experiments") or []):
            where = f"{path}: not_experiments entry {i + 1}"
            if not isinstance(raw, Mapping) or "locator" not in raw or "reason" not in raw:
                raise InputError(f"{where}: 'locator' and 'reason' are required")
            reason = str(raw["reason"])
            if reason not in REASONS:
                raise InputError(f"{where} ({raw['locator']}): reason must be one of {', '.join(REASONS)}, "
                                 f"not {reason!r}")
            why = str(raw.get("why", "") or "")
            if reason in ("no_decision", "restated") and not (why or raw.get("see")):
                raise InputError(f"{where} ({raw['locator']}): a {reason} entry says why (or 'see')")
            out.append(NotExperiment(str(data["document"]), str(raw["locator"]), reason, why,
                                     tuple(str(r) for r in raw.get("rows") or ()), str(raw.get("see", "") or "")))
    return out


def coverage(kb, experiments: Iterable[Experiment], setups: Iterable[Setup] = (),
             not_experiments: Iterable[NotExperiment] = ()) -> dict[str, dict]:
    """Per document: its measurement rows and locators, which are replayed, which rest on a
    setup, which are not experiments (by reason class), and the rows nothing accounts for."""
    exps, sets, nots = list(experiments), list(setups), list(not_experiments)
    out: dict[str, dict] = {}
    for doc in kb.documents():
        did = doc.id
        rows = kb.measurements(document=did)
        by_loc: dict[str, list[str]] = {}
        for r in rows:
            by_loc.setdefault(r.locator, []).append(r.key)
        mine = [e for e in exps if kb.resolve_document(e.document) == did]
        replayed = {k for e in mine for k in e.rows}
        on_setup = {k for x in sets if kb.resolve_document(x.document) == did for k in x.rows}
        reason_of: dict[str, str] = {}
        problems: list[str] = []
        for n in (n for n in nots if kb.resolve_document(n.document) == did):
            if n.locator not in by_loc:
                problems.append(f"not_experiments: no locator {n.locator!r} in {did}")
                continue
            picked = n.rows or tuple(k for k in by_loc[n.locator] if k not in replayed and k not in on_setup)
            for k in picked:
                if k not in by_loc[n.locator]:
                    problems.append(f"not_experiments {n.locator}: row {k!r} is not of that locator")
                elif n.rows and k in replayed:
                    problems.append(f"not_experiments {n.locator}: row {k} is replayed by an experiment")
                else:
                    reason_of.setdefault(k, n.reason)
        locs: dict[str, dict] = {}
        for loc, keys in by_loc.items():
            locs[loc] = {"rows": len(keys),
                         "replayed": sum(k in replayed for k in keys),
                         "setup": sum(k in on_setup and k not in replayed for k in keys),
                         "experiments": sorted({e.id for e in mine if set(e.rows) & set(keys)}),
                         "reasons": sorted({reason_of[k] for k in keys
                                            if k in reason_of and k not in replayed and k not in on_setup}),
                         "unaccounted": [k for k in keys if k not in replayed and k not in on_setup
                                         and k not in reason_of]}
        not_locs: dict[str, int] = {}
        for c in locs.values():
            if not c["replayed"] and c["reasons"]:
                for reason in c["reasons"]:
                    not_locs[reason] = not_locs.get(reason, 0) + 1
        out[did] = {"rows": len(rows), "locators": len(locs),
                    "experiments": len(mine),
                    "replayed_locators": sum(bool(c["replayed"]) for c in locs.values()),
                    "replayed_rows": len(replayed & {r.key for r in rows}),
                    "setup_locators": sum(bool(c["setup"]) and not c["replayed"] for c in locs.values()),
                    "not_experiment_locator_count": sum(not c["replayed"] and not c["setup"] for c in locs.values()),
                    "not_experiment_locators": not_locs,
                    "not_experiment_rows": _count(reason_of.values()),
                    "unaccounted": [f"{loc}: {k}" for loc, c in locs.items() for k in c["unaccounted"]],
                    "problems": problems,
                    "by_locator": locs}
    return out


def _count(values: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return dict(sorted(out.items()))


# --- measured values -------------------------------------------------------------------------
@dataclass
class Measured:
    value: float
    low: float | None
    high: float | None
    qualifier: str
    unit: str
    rounding: float = 0.0   # half a unit in the last place the document stated (in the figure's unit)


def half_ulp(value: float, qualifier: str) -> float:
    """Half a unit in the last place of a number as the document states it: decimals as given
    (4.013 -> 0.0005); an integer stated exactly (``=``) to its units (2 -> 0.5); an approximate one
    (``~``) to its last non-zero digit (~200 -> 50: "about 200" is rounded to hundreds)."""
    v = abs(float(value))
    if v == 0 or not math.isfinite(v):
        return 0.0
    text = f"{v:.10g}"
    if "e" in text:
        return 0.0
    if "." in text:
        return 0.5 * 10.0 ** -len(text.split(".")[1])
    if qualifier == "~":
        digits = text.rstrip("0")
        return 0.5 * 10.0 ** (len(text) - len(digits))
    return 0.5


def measured(kb, document: str, case: Case) -> Measured:
    """The number the document states for ``case`` (from its rows, per ``case.measure``)."""
    rows = [kb.get(document, key) for key in case.rows]
    first = rows[0]
    values = [r.value for r in rows]
    if case.measure == "value":
        v = values[0]
    elif case.measure == "product":
        v = math.prod(values)
    elif case.measure == "ratio":
        v = values[0] / values[1]
    elif case.measure == "sum":
        v = sum(values)
    elif case.measure == "over_rest":
        v = values[0] / (values[0] - values[1])
    elif case.measure == "equal":
        v = 1.0
    elif case.measure == "max":
        v = max(values)
    elif case.measure == "mean":
        v = sum(values) / len(values)
    elif case.measure == "percent_as_ratio":
        v = 1.0 + values[0] / 100.0
    else:
        v = values[0] - values[1]
    quals = {r.qualifier or "=" for r in rows}
    bounds = quals & {"<", "<=", ">", ">="}
    if case.measure == "equal":
        qual = "~"  # "about the same"
    elif len(rows) == 1:
        qual = first.qualifier or "="
    elif case.measure == "max":
        qual = next((r.qualifier or "=" for r in rows if r.value == v), "=")
    elif bounds and case.measure == "product" and len({q[0] for q in bounds}) == 1:
        qual = next(iter(bounds))[0]  # a product with a bound (all positive factors) is a bound
    else:
        qual = "~" if quals - {"="} else "="
    low = high = None
    if len(rows) == 1 and first.value_low is not None and first.value_high is not None:
        low, high = first.value_low * case.scale, first.value_high * case.scale
    rounding = 0.0
    if case.measure == "value" and len(rows) == 1:  # a number as stated: its rounding is the document's
        rounding = half_ulp(first.value, first.qualifier or "=") * abs(case.scale)
    return Measured(v * case.scale, low, high, qual, first.unit, rounding)


def within(m: Measured, low: float, high: float) -> bool:
    """Whether the measured number agrees with the interval ``[low, high]`` (see the module doc)."""
    if m.low is not None and m.high is not None:  # a stated range: it must overlap the interval
        lo, hi = min(low, high), max(low, high)
        return m.low <= hi + TOLERANCE["="] * abs(hi) and m.high >= lo - TOLERANCE["="] * abs(lo)
    if m.qualifier in ("<", "<="):
        return min(low, high) <= m.value + TOLERANCE["="] * abs(m.value)
    if m.qualifier in (">", ">="):
        return max(low, high) >= m.value - TOLERANCE["="] * abs(m.value)
    tol = TOLERANCE.get(m.qualifier, TOLERANCE["~"])
    lo, hi = min(low, high), max(low, high)
    # the document's rounding: a number stated as "about 2 min" may be anything from 1.5 to 2.5
    if m.low is None and m.rounding and (m.value - m.rounding <= hi and m.value + m.rounding >= lo):
        return True
    return lo - tol * abs(lo) - 1e-12 <= m.value <= hi + tol * abs(hi) + 1e-12


# --- running ---------------------------------------------------------------------------------
@dataclass
class CaseResult:
    case: Case
    measured: Measured
    expected: dict | None        # {value, low, high, unit} or None when the figure is missing
    within: bool
    host_count: str              # the advice's host_count choice for the case's scenario
    problem: str = ""

    @property
    def error(self) -> float | None:
        """Absolute percentage error of the expected value against the measured one."""
        if self.expected is None or not self.measured.value:
            return None
        return abs(self.expected["value"] - self.measured.value) / abs(self.measured.value) * 100.0

    def to_dict(self) -> dict:
        c = self.case
        out = {"id": c.id, "rows": list(c.rows), "measured": self.measured.value, "qualifier": self.measured.qualifier,
               "decision": c.decision, "scope": c.scope, "choice": c.choice, "figure": c.figure, "key": c.key,
               "expected": self.expected, "within": self.within, "host_count": self.host_count}
        if self.measured.low is not None:
            out["measured_range"] = [self.measured.low, self.measured.high]
        err = self.error
        out["error_pct"] = None if err is None else round(err, 2)
        if self.problem:
            out["problem"] = self.problem
        return out


@dataclass
class ExperimentResult:
    experiment: Experiment
    cases: list[CaseResult]

    @property
    def passed(self) -> bool:
        return bool(self.cases) and all(c.within for c in self.cases)

    @property
    def mdape(self) -> float | None:
        errs = sorted(e for e in (c.error for c in self.cases) if e is not None)
        if not errs:
            return None
        n = len(errs)
        return errs[n // 2] if n % 2 else (errs[n // 2 - 1] + errs[n // 2]) / 2

    def to_dict(self) -> dict:
        e = self.experiment
        md = self.mdape
        return {"id": e.id, "document": e.document, "locator": e.locator, "kind": e.kind, "title": e.title,
                "testbed": e.testbed, "decision": e.decision, "figure": e.figure, "rows": e.rows,
                "passed": self.passed, "xfail": e.xfail or None,
                "cases_within": sum(c.within for c in self.cases), "cases": [c.to_dict() for c in self.cases],
                "mdape_pct": None if md is None else round(md, 2)}


@dataclass
class ReplayResult:
    experiments: list[ExperimentResult]
    held_out: bool = False
    setups: dict[str, str] = field(default_factory=dict)  # scenario name -> host_count choice
    coverage: dict[str, dict] = field(default_factory=dict)  # document -> see :func:`coverage`

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.experiments)

    @property
    def share(self) -> float:
        return self.passed / len(self.experiments) if self.experiments else 0.0

    @property
    def infeasible_setups(self) -> list[str]:
        return sorted(k for k, v in self.setups.items() if not _is_count(v))

    @property
    def unaccounted(self) -> list[str]:
        """Rows of the documents that no experiment, setup or not_experiments entry accounts for."""
        return [f"{d[:3]} {x}" for d, c in self.coverage.items() for x in c["unaccounted"] + c["problems"]]

    @property
    def ok(self) -> bool:
        """The in-sample bar: BAR of the experiments pass, every setup gets a host count and every
        row of the documents is accounted for (when the coverage was computed)."""
        return self.share >= BAR and not self.infeasible_setups and not self.unaccounted

    def by_document(self) -> dict[str, dict]:
        out: dict[str, dict] = {}
        for r in self.experiments:
            d = out.setdefault(r.experiment.document, {"experiments": 0, "passed": 0, "xfail": 0, "cases": 0,
                                                       "cases_within": 0})
            d["experiments"] += 1
            d["passed"] += r.passed
            d["xfail"] += bool(r.experiment.xfail)
            d["cases"] += len(r.cases)
            d["cases_within"] += sum(c.within for c in r.cases)
        return out

    def to_dict(self) -> dict:
        cases = [c for r in self.experiments for c in r.cases]
        return {"mode": "leave-the-experiment-out" if self.held_out else "in-sample", "bar": BAR,
                "summary": {"experiments": len(self.experiments), "passed": self.passed,
                            "share": round(self.share, 4), "cases": len(cases),
                            "cases_within": sum(c.within for c in cases),
                            "xfail": sum(bool(r.experiment.xfail) for r in self.experiments),
                            "setups": len(self.setups), "setups_with_host_count": len(self.setups)
                            - len(self.infeasible_setups), "infeasible_setups": self.infeasible_setups,
                            "unaccounted_rows": self.unaccounted, "ok": self.ok},
                "documents": self.by_document(),
                "coverage": {d: {k: v for k, v in c.items() if k != "by_locator"}
                             | {"locators_detail": c["by_locator"]} for d, c in self.coverage.items()},
                "experiments": [r.to_dict() for r in self.experiments]}


def _is_count(choice: str) -> bool:
    try:
        return float(choice) >= 1
    except (TypeError, ValueError):
        return False


def find_figure(advice, case: Case) -> tuple[dict | None, str]:
    """The expected figure ``case`` names in ``advice`` (None and why when it is missing); with
    ``relative_to``, that figure over the same figure of another choice (a ratio or a percent
    change, with the first figure's relative interval, or a difference)."""
    out, problem = _one_figure(advice, case, case.choice)
    if out is None or not case.relative_to:
        return out, problem
    base, problem = _one_figure(advice, case, case.relative_to)
    if base is None:
        return None, problem
    b = float(base["value"])
    if case.compare == "difference":  # the first figure's interval, shifted by the other's value
        return {k: float(out[k]) - b for k in ("value", "low", "high")} | {"unit": out.get("unit")}, ""
    if not b:
        return None, f"{case.decision} {case.relative_to}: {case.figure} is 0"
    ratio = {k: float(out[k]) / b for k in ("value", "low", "high")}
    if case.compare == "percent_change":
        return {k: 100.0 * (v - 1.0) for k, v in ratio.items()} | {"unit": "%"}, ""
    return ratio | {"unit": "ratio"}, ""


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
    if not isinstance(fig, Mapping):
        return None, f"{case.decision} {choice or rec.choice}: no figure {case.figure!r}"
    out = {"value": fig.get("value"), "low": fig.get("low"), "high": fig.get("high"), "unit": fig.get("unit")}
    if case.key:
        cur: Any = fig
        for part in case.key.split("."):
            cur = cur.get(part) if isinstance(cur, Mapping) else None
        if not isinstance(cur, (int, float)):
            return None, f"{case.decision}: figure {case.figure!r} has no {case.key!r}"
        # a value inside the figure has the figure's relative interval around it
        v = float(cur)
        base = float(fig["value"]) or 1.0
        out = {"value": v, "low": v * float(fig["low"]) / base, "high": v * float(fig["high"]) / base,
               "unit": fig.get("unit")}
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


def replay_experiment(exp: Experiment, kb, advisor: Callable[[dict], Any]) -> ExperimentResult:
    """Run the cases of ``exp`` through ``advisor`` (scenario mapping -> Advice)."""
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
                    res = replay_experiment(exp, kb, _Advisor(kb))
            else:
                res = replay_experiment(exp, kb, shared)
            for c in res.cases:
                host_counts[c.case.scenario.get("name", exp.id) + f" [{c.case.id}]"] = c.host_count
            results.append(res)
        for x in extra:
            hc = shared(x.scenario).find("host_count")
            host_counts[f"{x.id} [setup, {x.locator}]"] = hc.choice if hc else "missing"
        return ReplayResult(results, held_out, host_counts, cov)
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
                fresh = models.FAMILIES[name].factory(kb)
                fitted[name] = fresh.fit(keep) if keep else None
                if fitted[name] is None:
                    raise InputError(f"{name}: no training points left without the experiment's rows")
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


# --- output ----------------------------------------------------------------------------------
def _fmt(x: float | None) -> str:
    if x is None:
        return "-"
    if x == 0:
        return "0"
    return f"{x:.4g}"


def to_markdown(result: ReplayResult) -> str:
    """The replay as Markdown: per-document summary, then every experiment and case."""
    d = result.to_dict()
    s = d["summary"]
    lines = [f"# Replay of the documents ({d['mode']})", "",
             f"{s['passed']} of {s['experiments']} experiments pass ({100 * s['share']:.1f} %; bar "
             f"{100 * BAR:.0f} %); {s['cases_within']} of {s['cases']} measured values lie within the advice's "
             f"interval; {s['setups_with_host_count']} of {s['setups']} setups get a host count; "
             f"{s['xfail']} known failures. **{'PASS' if s['ok'] else 'FAIL'}**", "",
             "| document | experiments | passed | known failures | values | within |", "|---|---|---|---|---|---|"]
    for doc, c in d["documents"].items():
        lines.append(f"| {doc} | {c['experiments']} | {c['passed']} | {c['xfail']} | {c['cases']} | "
                     f"{c['cases_within']} |")
    if s["infeasible_setups"]:
        lines += ["", "Setups without a host count: " + ", ".join(s["infeasible_setups"])]
    if d["coverage"]:
        lines += ["", "## Coverage of the documents' rows", "",
                  "| document | rows | locators | experiments | locators replayed | locators on setups only | "
                  "locators that are not experiments (by reason class; a locator may have two) | rows unaccounted |",
                  "|---|---|---|---|---|---|---|---|"]
        for doc, c in d["coverage"].items():
            nots = ", ".join(f"{k} {v}" for k, v in sorted(c["not_experiment_locators"].items())) or "-"
            lines.append(f"| {doc} | {c['rows']} | {c['locators']} | {c['experiments']} | {c['replayed_locators']} | "
                         f"{c['setup_locators']} | {c['not_experiment_locator_count']}: {nots} | "
                         f"{len(c['unaccounted']) + len(c['problems'])} |")
        lines += ["", "| document | locator | rows | replayed by | not an experiment |", "|---|---|---|---|---|"]
        for doc, c in d["coverage"].items():
            for loc, x in c["locators_detail"].items():
                left = f"; {len(x['unaccounted'])} UNACCOUNTED" if x["unaccounted"] else ""
                lines.append(f"| {doc[:3]} | {loc} | {x['rows']} | {', '.join(x['experiments']) or '-'} | "
                             f"{', '.join(x['reasons']) or '-'}{left} |")
    lines += ["", "| experiment | locator | decision / figure | rows | measured | expected [low, high] | "
                  "within | hosts |", "|---|---|---|---|---|---|---|---|"]
    for e in d["experiments"]:
        mark = "pass" if e["passed"] else ("FAIL (known: " + e["xfail"] + ")" if e["xfail"] else "FAIL")
        lines.append(f"| **{e['id']}** {e['title']} | {e['document'][:3]} {e['locator']} | {e['decision']} / "
                     f"{e['figure']} | | | | **{mark}** | |")
        for c in e["cases"]:
            exp = c["expected"]
            shown = (f"{_fmt(exp['value'])} [{_fmt(exp['low'])}, {_fmt(exp['high'])}] {exp['unit'] or ''}"
                     if exp else f"missing: {c.get('problem', '')}")
            q = "" if c["qualifier"] == "=" else c["qualifier"]
            lines.append(f"| {c['id']} | | {c['choice'] or '(chosen)'}{' ' + c['key'] if c['key'] else ''} | "
                         f"{', '.join(c['rows'])} | {q}{_fmt(c['measured'])} | {shown} | "
                         f"{'yes' if c['within'] else 'no'} | {c['host_count']} |")
    return "\n".join(lines) + "\n"


def to_text(result: ReplayResult) -> str:
    """A compact listing: one line per case, the summary last."""
    d = result.to_dict()
    out = []
    for e in d["experiments"]:
        status = "PASS" if e["passed"] else ("XFAIL" if e["xfail"] else "FAIL")
        out.append(f"{status:5} {e['id']}  {e['document'][:3]} {e['locator']}: {e['title']}"
                   + (f"  [known: {e['xfail']}]" if e["xfail"] and not e["passed"] else ""))
        for c in e["cases"]:
            exp = c["expected"]
            shown = (f"{_fmt(exp['value'])} [{_fmt(exp['low'])}, {_fmt(exp['high'])}] {exp['unit'] or ''}"
                     if exp else f"missing ({c.get('problem', '')})")
            q = "" if c["qualifier"] == "=" else c["qualifier"]
            out.append(f"   {'ok ' if c['within'] else 'OUT'} {','.join(c['rows']):<24} measured {q}{_fmt(c['measured'])}"
                       f"  expected {shown}  ({c['decision']}"
                       f"{' ' + c['choice'] if c['choice'] else ''} {c['figure']}{' ' + c['key'] if c['key'] else ''};"
                       f" hosts {c['host_count']})")
    for doc, c in d["coverage"].items():
        nots = ", ".join(f"{k} {v}" for k, v in sorted(c["not_experiment_locators"].items())) or "none"
        out.append(f"coverage {doc[:3]}: {c['rows']} rows in {c['locators']} locators; {c['experiments']} experiments "
                   f"replay {c['replayed_locators']} locators, {c['setup_locators']} rest on setups; "
                   f"{c['not_experiment_locator_count']} are not experiments ({nots}); "
                   f"{len(c['unaccounted']) + len(c['problems'])} rows unaccounted")
    s = d["summary"]
    out.append(f"{s['passed']}/{s['experiments']} experiments pass ({100 * s['share']:.1f} %, bar {100 * BAR:.0f} %),"
               f" {s['cases_within']}/{s['cases']} values within, {s['setups_with_host_count']}/{s['setups']} setups "
               f"with a host count, {s['xfail']} known failures: {'PASS' if s['ok'] else 'FAIL'}")
    return "\n".join(out) + "\n"
