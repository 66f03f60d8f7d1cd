"""Every number the advice quotes from the documents ("about 40 % more CPU", "about 15x slower") is
re-derived here from the knowledge-base rows it cites, for every scenario of the replay suite and
the shipped examples."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor import replay
from advisor.engine import advise
from advisor.statements import DERIVATIONS, derive

pytestmark = pytest.mark.timeout(300)
EXAMPLES = [p for p in sorted((Path(__file__).resolve().parents[2] / "resources" / "examples").glob("*.*"))
            if p.suffix in (".yaml", ".toml", ".json") and not p.name.startswith(("rt_", "costs"))]  # not scenarios


def _statements(obj):
    """Every ``statements`` list anywhere in a recommendation's JSON (details and nested)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "statements" and isinstance(v, list):
                yield from v
            else:
                yield from _statements(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _statements(v)


@pytest.fixture(scope="module")
def quoted(session_kb):
    scenarios = [c.scenario for e in replay.load_suite() for c in e.cases]
    scenarios += [s.scenario for s in replay.load_setups()]
    seen, out = set(), []
    for sc in [*scenarios, *EXAMPLES]:
        advice = advise(sc, kb=session_kb)
        for rec in advice.recommendations:
            data = rec.to_dict()
            texts = " ".join([data["rationale"], *data["warnings"], *(a["why_not"] for a in data["alternatives"])])
            for st in _statements(data):
                key = (st["text"], tuple(st["rows"]))
                if key not in seen:
                    seen.add(key)
                    out.append((rec.decision, st, texts))
    return out


def test_the_advice_quotes_the_documents(quoted):
    decisions = {d for d, _, _ in quoted}
    assert {"hypervisor", "storage_backend", "host_count"} <= decisions


def test_each_statement_is_re_derived_from_the_rows_it_cites(quoted, session_kb):
    for decision, st, texts in quoted:
        assert st["derivation"] in DERIVATIONS
        value = derive(session_kb, st["rows"], st["derivation"])
        assert value == pytest.approx(st["value"], rel=1e-9), (decision, st)
        shown = f"{value:.{st['digits']}f}"
        assert shown in st["text"], (decision, st)
        assert st["text"] in texts, (decision, st["text"])  # the statement is what the user reads


def test_the_xenserver_and_boot_statements(quoted):
    by_text = {st["text"]: st for _, st, _ in quoted}
    xen = by_text["about 40 % more CPU than bare metal for the same work"]
    assert xen["rows"] == ["004:c5-F5.4-01", "004:c5-F5.4-02"]
    boot = by_text["about 15x slower"]
    assert boot["rows"] == ["002:F6-03"]
