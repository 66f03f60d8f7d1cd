"""`capadvisor advise` of an estate (issue 19, 10,000 workload groups): above 200 workload groups a
recommendation equal to an earlier one apart from its scope is written as a reference to it
(``same_as``), ``--expand`` writes every entry in full, smaller scenarios keep the full format, and
the reports show each distinct recommendation once with its workloads."""

from __future__ import annotations

import json

import pytest
import yaml

from app.cli import main
from tests.app import test_cli_kb
from tests.benchmarks.bench_scale import estate

kb_path = test_cli_kb.kb_path  # fixture: the compiled knowledge base

BRIEF = {"decision", "scope", "choice", "score", "same_as"}


@pytest.fixture()
def advise(tmp_path, kb_path, capsys):
    def _run(n: int, *args: str) -> str:
        path, out = tmp_path / f"estate-{n}.yaml", tmp_path / f"advice-{n}-{len(args)}.out"
        if not path.exists():
            path.write_text(yaml.safe_dump(estate(n), sort_keys=False), encoding="utf-8")
        code = main(["advise", "--kb", str(kb_path), "--no-catalogue", str(path), "-o", str(out), *args])
        assert code == 0, capsys.readouterr().err
        return out.read_text(encoding="utf-8")
    return _run


def _without_scope(entry: dict) -> dict:
    return {k: v for k, v in entry.items() if k != "scope"}


def test_an_estate_writes_repeated_recommendations_as_references_that_round_trip(advise):
    text = advise(300)
    compact, full = json.loads(text)["recommendations"], json.loads(advise(300, "--expand"))["recommendations"]
    assert len(compact) == len(full) > 900
    refs = [r for r in compact if "same_as" in r]
    assert len(refs) > len(compact) // 2  # most workloads share a profile
    for i, (c, f) in enumerate(zip(compact, full, strict=True)):
        assert c["scope"] == f["scope"] and c["decision"] == f["decision"]
        if "same_as" not in c:
            assert c == f  # a full entry is the expanded one, key for key
            continue
        assert set(c) == BRIEF | ({"value"} if "value" in f else set())
        assert {k: f[k] for k in c if k != "same_as"} == {k: v for k, v in c.items() if k != "same_as"}
        j = c["same_as"]
        assert 0 <= j < i and "same_as" not in compact[j]  # an earlier entry, written in full
        assert compact[j]["decision"] == c["decision"]
        assert _without_scope(compact[j]) == _without_scope(f)  # equal content apart from the scope
    # one recommendation per line (pure-Python indenting took seconds at 10,000 groups), still JSON
    assert "\n    {\"decision\": \"hypervisor\", \"scope\": \"cluster\"" in text


def test_expand_writes_every_entry_in_full(advise):
    full = json.loads(advise(300, "--expand"))["recommendations"]
    assert all("same_as" not in r and "alternatives" in r and "citations" in r for r in full)


def test_a_scenario_of_200_groups_keeps_the_full_indented_format(advise):
    text = advise(200)
    recs = json.loads(text)["recommendations"]
    assert all("same_as" not in r and "alternatives" in r for r in recs)
    assert '\n      "decision": "hypervisor",' in text  # json.dumps(indent=2) as before


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_reports_of_an_estate_show_each_distinct_recommendation_once_with_its_workloads(advise, fmt):
    text = advise(300, "--format", fmt)
    data = json.loads(advise(300))
    sections = text.count("I/O block size — ")
    distinct = sum(1 for r in data["recommendations"] if r["decision"] == "io_block_size" and "same_as" not in r)
    assert sections == distinct < 20  # one section per distinct recommendation, not one per workload
    names = [r["scope"].removeprefix("workload:") for r in data["recommendations"] if r["decision"] == "io_block_size"]
    assert all(name in text for name in names)  # every workload is named under its group


def _one_per_line(data: dict) -> str:
    """The estate's JSON format written the plain way: indented, each recommendation on a line of its own."""
    from knowledge.infra import jsonout

    text = jsonout.dumps({**data, "recommendations": "@"}, indent=2)
    lines = ",\n".join("    " + jsonout.dumps(r) for r in data["recommendations"])
    return text.replace('"@"', "[\n" + lines + "\n  ]") + "\n"


NESTED = {"decision": "x", "details": {"placed": [{"decision": "y"}, {"decision": "z", "q": '}, {"decision": '}]}}


@pytest.mark.parametrize("recs", [
    [{"decision": "a", "scope": "cluster", "value": 1.5}, {"decision": "a", "scope": "w:1", "same_as": 0}],
    [{"decision": "a", "value": float("inf")}, {"decision": "b", "value": float("nan")}, {"decision": "c"}],
    [NESTED, {"decision": "b"}, NESTED],  # a decision inside an entry: each entry is written on its own
    [{"decision": "only", "text": 'a "quoted" }, {"decision": part'}],
    [{"scope": "no decision first"}, {"decision": "b"}],
])
def test_the_estate_json_writes_each_recommendation_on_its_line(recs):
    """json_text writes the entries of one JSON list (cut between them), or each on its own when
    a non-finite number (null) or a decision inside an entry makes the cut unsure: the same text."""
    from app.commands.advise import json_text

    data = {"scenario": "s", "recommendations": recs, "placement": [{"host": "h1", "vms": {"w": 2}}]}
    assert json_text(data, one_per_line=True) == _one_per_line(data)
