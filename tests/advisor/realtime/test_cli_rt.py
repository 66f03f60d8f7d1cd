"""``capadvisor rt`` through the real CLI entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main

EXAMPLE = Path(__file__).resolve().parents[3] / "resources" / "examples" / "rt_thesis_example.csv"
CONTROL = EXAMPLE.with_name("rt_control_loops.json")


@pytest.fixture()
def run(capsys):
    def _run(*args):
        code = main(["rt", *map(str, args)])
        out = capsys.readouterr()
        return code, out.out, out.err
    return _run


def test_share_query_json_has_the_interface_keys(run):
    code, out, _ = run(EXAMPLE, "--share", "0.4", "--format", "json")
    assert code == 0
    data = json.loads(out)
    for key in ("share", "overhead", "max_period", "budget", "critical_task", "feasible_intervals",
                "response_times", "bounds", "tasks"):
        assert key in data
    assert data["share"] == 0.4 and data["overhead"] == 0
    assert data["max_period"] == pytest.approx(10.0) and data["budget"] == pytest.approx(4.0)
    assert data["critical_task"] == "tau3"                       # section 11.5
    assert data["feasible_intervals"][-1] == [10.0, 10.0]
    assert data["feasible_intervals"][0] == [0.0, pytest.approx(22 / 3)]
    assert data["response_times"] == {"tau1": 14.0, "tau2": 15.0, "tau3": 36.0}
    assert "min_budget" not in data


def test_period_query_gives_min_budget(run):
    code, out, _ = run(EXAMPLE, "--period", "14", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["min_budget"] == pytest.approx(7.0)              # share 0.5 at T_VM 14, section 11.5
    assert data["critical_task"] == "tau1"
    assert data["response_times"]["tau1"] == pytest.approx(16.0)


def test_units_on_the_command_line(run):
    code, out, _ = run(EXAMPLE, "--period", "14000us", "--overhead", "0us", "--format", "json")
    assert code == 0 and json.loads(out)["min_budget"] == pytest.approx(7.0)


def test_text_output_is_a_table(run):
    code, out, _ = run(EXAMPLE, "--share", "0.5")
    assert code == 0
    assert "Largest T_VM: 14 ms, budget C_VM = 7 ms, critical task tau1" in out
    assert "prio  task" in out and "tau3" in out


def test_overhead_and_edf_and_curve(run):
    code, out, _ = run(CONTROL, "--share", "0.6", "--overhead", "20us", "--policy", "edf", "--curve", "50",
                       "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["policy"] == "edf" and data["overhead"] == pytest.approx(0.02)
    assert len(data["curve"]["periods"]) == 50 and len(data["curve"]["max_ratio"]) == 50
    assert data["max_period"] > 0


def test_no_share_or_period_reports_the_smallest_share(run):
    code, out, _ = run(EXAMPLE, "--overhead", "0.2", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert 0.3125 < data["min_share"] < 0.4
    assert data["feasible_intervals"]


def test_share_below_utilization_is_infeasible_with_the_reason(run):
    code, out, err = run(EXAMPLE, "--share", "0.25", "--format", "json")
    assert code == 1
    assert json.loads(out)["feasible"] is False
    assert "utilization 0.277778" in err and "share 0.25" in err


def test_overhead_not_below_the_period_is_infeasible(run):
    code, _, err = run(EXAMPLE, "--period", "2", "--overhead", "2")
    assert code == 1
    assert "overhead 2 is not below the period 2" in err


def test_overhead_too_large_for_the_share(run):
    code, out, err = run(EXAMPLE, "--share", "0.4", "--overhead", "3")
    assert code == 1
    assert "INFEASIBLE" in out and "no T_VM works at share 0.4 with overhead 3" in err


def test_bad_task_file_exits_2_with_file_and_line(run, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("name,period,wcet\nok,10,1\nbroken,ten,1\n")
    code, out, err = run(bad)
    assert code == 2 and out == ""
    assert f"{bad}, line 3, period: 'ten' is not a time" in err


def test_invalid_share_exits_2(run):
    code, _, err = run(EXAMPLE, "--share", "1.5")
    assert code == 2 and "share 1.5" in err


def test_share_and_period_are_exclusive(run):
    with pytest.raises(SystemExit) as exc:
        run(EXAMPLE, "--share", "0.5", "--period", "10")
    assert exc.value.code == 2


def test_vcpus_partition(run):
    code, out, _ = run(CONTROL, "--vcpus", "2", "--share", "0.4", "--overhead", "10us", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["feasible"] and len(data["vcpus"]) == 2
    assert sorted(n for c in data["vcpus"] for n in c["tasks"]) == sorted(
        ["current_loop", "speed_loop", "position_loop", "fieldbus", "supervisor", "logger"])


def test_a_whole_core_writes_an_unbounded_period_as_null(run):
    """--share 1: any period works (max_period is infinite); the JSON stays standard: null."""
    code, out, _ = run(EXAMPLE, "--share", "1", "--format", "json")
    assert code == 0

    def refuse(token):
        raise ValueError(token)

    data = json.loads(out, parse_constant=refuse)
    assert data["share"] == 1.0 and data["max_period"] is None


@pytest.mark.parametrize("rows", [
    ["a,1,0.1", "b,1000,10", "c,1000000000,1000"],                          # periods 1 .. 1e9
    ["a,1,0.05", "b,7,0.3", "c,130,3", "d,9999,50", "e,10000000,20000"],   # ratio 1e7
], ids=["span-1e9", "ratio-1e7"])
def test_sets_beyond_the_checkpoint_cap(run, tmp_path, rows):
    """Issue 19 point 5: refused at once with the file named, answered at a given period."""
    path = tmp_path / "hostile.csv"
    path.write_text("name,period,wcet\n" + "\n".join(rows) + "\n")
    code, out, err = run(path, "--share", "0.5")
    assert code == 2 and out == ""
    assert f"{path}: the exact fixed-priority analysis" in err and "Traceback" not in err
    code, out, err = run(path, "--period", "0.5", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["intervals_computed"] is False and data["min_budget"] > 0


def test_edf_curve_on_a_whole_core_is_drawn_not_a_traceback(run):
    """Share 1 without overhead: no deadline can be missed, so no checkpoint lies within the horizon;
    the curve still reads the first deadlines (max dbf(t)/t = 9/36 for the thesis' tasks), exit 0."""
    code, out, err = run(EXAMPLE, "--share", "1", "--policy", "edf", "--curve", "15", "--format", "json")
    assert code == 0, err
    ratios = json.loads(out)["curve"]["max_ratio"]
    assert len(ratios) == 15 and all(r == pytest.approx(0.25) for r in ratios)
