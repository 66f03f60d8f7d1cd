"""The replay suite as data: experiments, their cases and the setups, read from
``resources/replay/<document>.yaml`` (see :mod:`advisor.replay`)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from advisor.replay.hosts import document_hosts
from knowledge.infra.errors import InputError

MEASURES = ("value", "product", "ratio", "sum", "difference", "over_rest", "equal", "max", "mean",
            "percent_as_ratio")
KINDS = ("table", "figure", "worked_example", "section", "setup")
#: the largest replay suite file read (the whole suite of the program is a few hundred KiB)
MAX_SUITE_FILE_BYTES = 16 * 1024 * 1024


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
    document_hosts: dict | None = None  # the hosts the document ran it on, where it fitted (replay.hosts)

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
                      cases=cases, testbed=tb, xfail=str(raw.get("xfail", "") or ""), note=str(raw.get("note", "")),
                      document_hosts=document_hosts(testbeds, tb, raw, where))


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
    document_hosts: dict | None = None  # the hosts the document ran it on (replay.hosts)


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
                 _merge(base, raw.get("scenario", {})), document_hosts(testbeds, tb, raw, where))


def load_setups(directory: Path | str | None = None) -> list[Setup]:
    """Every ``setups`` entry of the replay files (see :class:`Setup`)."""
    out = []
    for path, data in _files(directory):
        for raw in data.get("setups") or []:
            out.append(_parse_setup(str(data["document"]), data.get("testbeds") or {}, raw, str(path)))
    return out


def _files(directory: Path | str | None) -> list[tuple[Path, Mapping]]:
    import yaml

    from knowledge.infra.files import read_regular_text

    d = Path(directory) if directory is not None else default_suite_dir()
    if not d.is_dir():
        raise InputError(f"{d}: no replay suite there (the experiments are resources/replay/*.yaml "
                         "of the program; pass --suite DIR)")
    out = []
    for path in sorted(d.glob("*.yaml")):
        text = read_regular_text(path, "replay suite", MAX_SUITE_FILE_BYTES)  # no FIFO, device, giant
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise InputError(f"{path}: not valid YAML: {exc}") from exc
        except RecursionError:
            raise InputError(f"{path}: not valid YAML: nested too deeply") from None
        _check_numbers(data, str(path))
        if not isinstance(data, Mapping) or "document" not in data:
            raise InputError(f"{path}: a replay file needs 'document' and 'experiments'")
        out.append((path, data))
    return out


def _check_numbers(data: Any, where: str) -> None:
    """Every number of a suite file finite and at most 1e12 in size (the one check every number read
    from a file goes through, #34); an InputError naming the file and the key path otherwise."""
    import math

    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        key, value = stack.pop()
        if isinstance(value, Mapping):
            stack += [(f"{key}.{k}" if key else str(k), v) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [(f"{key}[{i}]", v) for i, v in enumerate(value)]
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and (
                abs(value) > 1e12 or (isinstance(value, float) and not math.isfinite(value))):
            shown = f"a {len(str(abs(value)))}-digit number" if isinstance(value, int) else f"{value:g}"
            raise InputError(f"{where}: {key or 'the document'}: {shown} is not a finite number of at most 1e12")


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
