"""Issue #28: the held-out replay is the headline: each experiment left out of the models, its values
against intervals calibrated on the other experiments, beside the in-sample replay.

The floors below pin what the held-out replay reaches now (a regression fails here); the issue's
targets that are not reached yet are ``xfail(strict=True)`` with the numbers in the reason, one test
per target, so each mark goes with its fix."""

from __future__ import annotations

import json

import pytest

from advisor import replay
from app.cli import main

pytestmark = pytest.mark.timeout(600)

#: what the held-out replay reaches now (see the module doc)
FLOOR = {"share": 0.919, "values_share": 0.915, "order_share": 0.96}  # 91 of 99, 336 of 367, 195 of 203
# (92 and 338 were an unconverged fit on one CPU kind: the same code gave 91 and 336 on another)
#: the issue's targets (#28, "Done when")
TARGET = {"share": 0.90, "values_share": 0.90, "interval_median_width": 0.40, "order_share": 0.97}


@pytest.fixture(scope="module")
def held(session_kb):
    return replay.run(replay.load_suite(), session_kb, held_out=True)


@pytest.fixture(scope="module")
def summary(held):
    return held.to_dict()["summary"]


def test_the_summary_states_level_width_echoes_and_order(summary):
    assert summary["level"] == 0.9
    for key in ("interval_median_width", "zero_width_echoes", "order_pairs", "order_pairs_kept", "order_share",
                "values_share", "experiments", "passed", "share", "cases", "cases_within"):
        assert key in summary, key
    assert summary["order_pairs"] >= 150  # option pairs the documents order (e.g. doc 001's cache modes)


def test_no_zero_width_echo_counts_held_out(held, summary):
    assert summary["zero_width_echoes"] == 0
    testbed = [c for r in held.experiments for c in r.cases if c.expected and c.expected.get("measured_on")]
    assert testbed, "doc 003's testbed figures (Table I, disk placement) are labelled measured_on"
    for c in testbed:  # the document's own number is not a prediction of itself
        assert not c.within and "measured on doc 003's testbed" in c.problem


def test_held_out_floors(summary):
    for key, floor in FLOOR.items():
        assert summary[key] >= floor, (key, summary[key])


def test_held_out_values_target(summary):
    assert summary["values_share"] >= TARGET["values_share"]  # 336 of 367


def test_held_out_experiments_target(summary):
    assert summary["share"] >= TARGET["share"]  # 91 of 99


@pytest.mark.xfail(strict=True, reason="issue #28 target not reached yet: median interval width 1.12")
def test_held_out_width_target(summary):
    assert summary["interval_median_width"] <= TARGET["interval_median_width"]


@pytest.mark.xfail(strict=True, reason="issue #28 target not reached yet: 96 % of option pairs in order")
def test_held_out_order_target(summary):
    assert summary["order_share"] >= TARGET["order_share"]


def test_the_cli_puts_held_out_beside_in_sample(tmp_path, session_kb, capsys):
    out = tmp_path / "r.json"
    assert main(["replay", "--held-out", "--document", "003", "--format", "json", "-o", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    side = data["side_by_side"]
    assert set(side) == {"held_out", "in_sample"}
    assert side["held_out"]["experiments"] == side["in_sample"]["experiments"] == data["summary"]["experiments"]
    # doc 003's Table I echoes pass in-sample and never held out
    assert side["held_out"]["passed"] < side["in_sample"]["passed"]
    assert data["figures"]["cpu_governor/testbed_request_rate"]["nominal"] == 0.9


def test_the_quoted_last_run_is_the_replay(held, summary, session_kb):
    from advisor.models.accuracy import LAST_RUN

    inside = replay.run(replay.load_suite(), session_kb).headline()
    for mode, got in (("held_out", held.headline()), ("in_sample", inside)):
        quoted = LAST_RUN[mode]
        for key in ("experiments", "passed", "cases", "cases_within", "order_pairs"):
            assert quoted[key] == got[key], (mode, key, got)
        for key in ("interval_median_width", "order_share"):
            assert quoted[key] == pytest.approx(got[key], abs=0.005), (mode, key, got)


def test_a_family_left_without_points_is_unavailable_not_a_rejected_scenario(session_kb):
    """000-F3 is image_transfer_time's only experiment: held out, the family has no rows left, and
    the advice is made without it (as for a knowledge base without those rows), not refused."""
    held = replay.run(replay.load_suite(), session_kb, documents=["000"], held_out=True)
    f3 = next(r for r in held.experiments if r.experiment.id == "000-F3")
    for c in f3.cases:
        assert c.host_count != "error" and "scenario rejected" not in c.problem, c.problem
        assert not c.within and "no figure" in c.problem


def test_the_held_out_text_reports_without_a_verdict_and_counts_only_failed_known_failures(held):
    """Review r10: held out the text ended "1 known failures: FAIL" and the command exited 0; the known
    failure (004-T9.2-cpu-rf1, in-sample) passes held out."""
    last = replay.to_text(held).splitlines()[-1]
    assert "FAIL" not in last and "PASS" not in last and "reported, not judged" in last, last
    known = sum(bool(r.experiment.xfail) and not r.passed for r in held.experiments)
    assert held.to_dict()["summary"]["xfail"] == known
    assert f"{known} known failure{'' if known == 1 else 's'}:" in last
    assert "**reported, not judged" in replay.to_markdown(held)
