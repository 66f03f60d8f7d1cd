"""The documents' experiments replayed as scenarios (resources/replay/*.yaml).

Every experiment must pass — its measured values within the advice's stated intervals — or be
marked ``xfail`` with the reason it still fails (counted and reported by ``capadvisor replay``);
an experiment marked ``xfail`` that passes fails here, so the mark is removed with the fix.
"""

from __future__ import annotations

import json

import pytest

from advisor import replay
from advisor.scenario import parse_scenario

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def suite():
    return replay.load_suite()


@pytest.fixture(scope="module")
def result(suite, session_kb):
    return replay.run(suite, session_kb)


def test_every_document_has_experiments(suite, session_kb):
    docs = {session_kb.resolve_document(e.document) for e in suite}
    assert docs == {d.id for d in session_kb.documents()}


def test_rows_exist_and_scenarios_parse(suite, session_kb):
    for exp in suite:
        doc = session_kb.resolve_document(exp.document)
        for case in exp.cases:
            for key in case.rows:
                session_kb.get(doc, key)  # raises for an unknown row
            parse_scenario(case.scenario, source=case.id)


def test_ids_unique_and_cases_named(suite):
    ids = [c.id for e in suite for c in e.cases]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("field", ["experiments", "passed", "cases", "cases_within", "setups"])
def test_summary_counts(result, field):
    s = result.to_dict()["summary"]
    assert isinstance(s[field], int) and s[field] >= 0


def test_each_experiment_passes_or_is_known(result):
    unexpected = [r.experiment.id for r in result.experiments if not r.passed and not r.experiment.xfail]
    fixed = [r.experiment.id for r in result.experiments if r.passed and r.experiment.xfail]
    assert not unexpected, f"experiments that fail without an xfail reason: {unexpected}"
    assert not fixed, f"experiments marked xfail that pass now (remove the mark): {fixed}"


def test_in_sample_bar(result):
    s = result.to_dict()["summary"]
    assert s["share"] >= replay.BAR, replay.to_text(result)
    assert not s["infeasible_setups"], s["infeasible_setups"]
    assert result.ok


def test_within_reads_qualifiers():
    m = replay.Measured(10.0, None, None, "<", "s")
    assert replay.within(m, 8.0, 12.0) and not replay.within(m, 10.5, 12.0)
    m = replay.Measured(240.0, None, None, ">", "s")
    assert replay.within(m, 200.0, 239.0) and not replay.within(m, 100.0, 200.0)
    m = replay.Measured(30.0, None, None, "~", "s")
    assert replay.within(m, 20.0, 29.0) and not replay.within(m, 20.0, 27.0)
    m = replay.Measured(30.0, None, None, "=", "s")
    assert not replay.within(m, 20.0, 29.0)
    m = replay.Measured(18.5, 18.0, 19.0, "=", "min")
    assert replay.within(m, 18.8, 25.0) and not replay.within(m, 19.5, 25.0)


def test_held_out_refits_without_the_rows(suite, session_kb):
    exp = next(e for e in suite if e.id == "001-T1")
    inside = replay.run([exp], session_kb)
    held = replay.run([exp], session_kb, held_out=True)
    a = [c.expected["value"] for c in inside.experiments[0].cases]
    b = [c.expected["value"] for c in held.experiments[0].cases]
    assert a != b  # the figures moved: Table 1's rows were not in the training set
    assert held.to_dict()["mode"] == "leave-the-experiment-out"


def test_cli_replay_json(capsys, kb_path):
    from app.cli import main

    code = main(["replay", "--kb", str(kb_path), "--document", "001", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert {e["document"] for e in data["experiments"]} == {"001_59d3b1dfbc4dd7d1"}
    case = data["experiments"][0]["cases"][0]
    assert {"rows", "measured", "expected", "within", "host_count"} <= set(case)
    assert code == (0 if data["summary"]["ok"] else 1)


def test_cli_replay_markdown_lists_every_experiment(capsys, suite, kb_path):
    from app.cli import main

    main(["replay", "--kb", str(kb_path), "--format", "md"])
    out = capsys.readouterr().out
    for exp in suite:
        assert f"**{exp.id}**" in out


@pytest.fixture(scope="module")
def coverage(suite, session_kb):
    return replay.coverage(session_kb, suite, replay.load_setups(), replay.load_not_experiments())


def test_every_row_of_every_document_is_accounted_for(coverage, session_kb):
    """Each measurement row is replayed, rests on a setup, or is listed as not an experiment with a
    reason class; the entries name real locators and rows and never a replayed row."""
    assert set(coverage) == {d.id for d in session_kb.documents()}
    for doc, c in coverage.items():
        assert not c["problems"], (doc, c["problems"])
        assert not c["unaccounted"], (doc, c["unaccounted"][:20])
        assert c["experiments"] > 0 and c["replayed_locators"] > 0


def test_measured_locators_not_replayed_say_why(coverage, session_kb):
    """A locator with measured rows (not only set-up values) that no experiment replays carries a
    reason class; "no_decision" and "restated" entries say why in words."""
    entries = replay.load_not_experiments()
    assert all(n.reason in replay.REASONS for n in entries)
    assert all(n.why for n in entries if n.reason in ("no_decision", "restated"))
    for doc, c in coverage.items():
        for loc, x in c["by_locator"].items():
            if not x["replayed"] and not x["setup"]:
                assert x["reasons"], (doc, loc)


def test_not_experiment_entries_are_checked(tmp_path, session_kb):
    """A wrong reason class or an unknown locator is reported, not ignored."""
    bad = tmp_path / "x.yaml"
    bad.write_text("document: '001'\nexperiments: []\nnot_experiments:\n  - {locator: Table 1, reason: because}\n")
    with pytest.raises(replay.InputError, match="reason must be one of"):
        replay.load_not_experiments(tmp_path)
    bad.write_text("document: '001'\nexperiments: []\nnot_experiments:\n  - {locator: Table 99, reason: count}\n")
    cov = replay.coverage(session_kb, [], [], replay.load_not_experiments(tmp_path))
    assert any("Table 99" in p for p in cov["001_59d3b1dfbc4dd7d1"]["problems"])


def test_cli_reports_coverage(capsys, kb_path):
    from app.cli import main

    code = main(["replay", "--kb", str(kb_path), "--document", "002", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    cov = data["coverage"]["002_c73d40531a11425b"]
    assert cov["unaccounted"] == [] and cov["experiments"] >= 8
    assert set(cov["not_experiment_locators"]) <= set(replay.REASONS)
    assert code == 0 and data["summary"]["unaccounted_rows"] == []
