"""Coverage: every row of the five documents accounted for (replayed, on a setup, or a
``not_experiments`` entry with its reason class)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from advisor.replay.suite import Experiment, Setup, _files
from knowledge.infra.errors import InputError

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
