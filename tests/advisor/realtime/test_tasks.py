"""Task sets: units, priority order, CSV/JSON loading and the error messages that name file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.realtime import TaskSet, analyze, load_taskset
from advisor.realtime.tasks import Task, convert, parse_csv, parse_json, parse_time
from knowledge.infra.errors import InputError

EXAMPLES = Path(__file__).resolve().parents[3] / "resources" / "examples"


def test_units_convert_and_suffixes_parse():
    assert convert(1, "s", "ms") == 1000
    assert convert(250, "us", "ms") == 0.25
    assert parse_time("2ms", "us", "x") == 2000
    assert parse_time("0.5 s", "ms", "x") == 500
    assert parse_time(3, "ms", "x") == 3.0
    with pytest.raises(InputError, match=r"where: unknown time unit 'min'"):
        parse_time("3min", "ms", "where")
    with pytest.raises(InputError, match="not a time"):
        parse_time("fast", "ms", "x")


def test_priority_order_is_rate_monotonic_then_deadline_monotonic():
    ts = TaskSet.from_tuples([("slow", 50, 5), ("fast", 10, 1), ("mid", 20, 2)])
    assert [ts.tasks[i].name for i in ts.priority_order()] == ["fast", "mid", "slow"]
    dm = TaskSet.from_tuples([("a", 10, 1), ("b", 20, 2, 5)])
    assert dm.has_constrained_deadlines
    assert [dm.tasks[i].name for i in dm.priority_order()] == ["b", "a"]
    assert analyze(dm, share=0.8).priority_order == "dm"


def test_speed_scaling_divides_wcets():
    ts = TaskSet.from_tuples([("a", 10, 2), ("b", 20, 4)])
    fast = ts.scaled(2.0)
    assert [t.wcet for t in fast.tasks] == [1.0, 2.0]
    assert fast.utilization == pytest.approx(ts.utilization / 2)
    # a twice-as-fast host needs half the share for the same largest period of section 11.5's set
    thesis = load_taskset(EXAMPLES / "rt_thesis_example.csv")
    assert analyze(thesis, share=0.5, speed_scale=2.0).max_period > analyze(thesis, share=0.5).max_period
    with pytest.raises(InputError, match="speed scale"):
        ts.scaled(0)


def test_unit_conversion_of_a_whole_set():
    ts = TaskSet.from_tuples([("a", 10, 2, 8)], unit="ms").in_unit("us")
    assert ts.tasks[0] == Task("a", 10000, 2000, 8000) and ts.unit == "us"


def test_csv_example_loads(tmp_path):
    ts = load_taskset(EXAMPLES / "rt_thesis_example.csv")
    assert ts.unit == "ms" and len(ts) == 3
    us = load_taskset(EXAMPLES / "rt_thesis_example.csv", unit="us")
    assert us.unit == "us" and us.tasks[0].period == 16


def test_json_example_loads_with_mixed_units():
    ts = load_taskset(EXAMPLES / "rt_control_loops.json")
    assert ts.unit == "ms"
    first = ts.tasks[0]
    assert (first.name, first.period, first.wcet) == ("current_loop", 0.5, 0.04)
    assert ts.tasks[2].deadline == 8


def test_json_round_trip():
    ts = TaskSet.from_tuples([("a", 10, 2), ("b", 30, 3, 20)], unit="us")
    assert parse_json(json.dumps(ts.to_dict())) == ts


def test_json_list_form_and_unit_override():
    ts = parse_json('[{"name": "a", "period": 4, "wcet": 1}]', "x.json", unit="s")
    assert ts.unit == "s" and ts.tasks[0].period == 4


@pytest.mark.parametrize(("text", "message"), [
    ("name,period,wcet\na,10,2\nb,-5,1\n", r"f\.csv, line 3: task 'b': period must be a positive number"),
    ("name,period,wcet\na,10,x\n", r"f\.csv, line 2, wcet: 'x' is not a time"),
    ("name,period,wcet\na,10,12\n", r"f\.csv, line 2: task 'a': wcet 12 exceeds its deadline 10"),
    ("name,period,wcet,deadline\na,10,2,15\n", r"f\.csv, line 2: task 'a': deadline 15 is longer than the period"),
    ("name,period,cost\na,10,2\n", r"f\.csv, line 1: header must be name,period,wcet\[,deadline\]; unknown column"),
    ("name,period,wcet\na,10\n", r"f\.csv, line 2: missing wcet"),
    ("name,period,wcet\na,10,1,2,3\n", r"f\.csv, line 2: 5 fields, expected at most 3"),
    ("name,period,wcet\na,10,1\na,20,1\n", r"f\.csv: task name 'a' appears twice"),
    ("# only a comment\n", r"f\.csv: no tasks"),
])
def test_csv_errors_name_file_and_line(text, message):
    with pytest.raises(InputError, match=message):
        parse_csv(text, "f.csv")


@pytest.mark.parametrize(("text", "message"), [
    ('{"tasks": [{"name": "a", "period": 10}]}', r"j\.json: tasks\[0\]\.wcet: missing"),
    ('{"tasks": [{"name": "a", "period": 10, "wcet": 1, "prio": 3}]}', r"tasks\[0\]: unknown field\(s\) prio"),
    ('{"unit": "min", "tasks": []}', r"j\.json: unit: unknown time unit 'min'"),
    ('{"tasks": {"a": 1}}', r"j\.json: tasks: expected a list"),
    ('{"task": []}', r"j\.json: expected a key 'tasks'"),
    ('{"tasks": [\n{"name": "a",, }]}', r"j\.json: invalid JSON at line 2, column 14"),
    ('{"tasks": [{"name": "a", "period": 10, "wcet": 1, "wcet": 9}]}',
     r"j\.json: tasks\[0\]: wcet: duplicate key: a key may appear once in a mapping"),
    ('{"unit": "ms", "unit": "s", "tasks": []}', r"j\.json: unit: duplicate key"),
    ('{"tasks": [{"name": "a", "period": "10 parsecs", "wcet": 1}]}', r"tasks\[0\]\.period: unknown time unit 'parsecs'"),
    ('{"tasks": []}', r"j\.json: no tasks"),
])
def test_json_errors_name_file_and_field(text, message):
    with pytest.raises(InputError, match=message):
        parse_json(text, "j.json")


def test_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_taskset(tmp_path / "nope.csv")


def test_analyze_rejects_bad_arguments():
    ts = TaskSet.from_tuples([("a", 10, 2)])
    with pytest.raises(InputError, match="share"):
        analyze(ts, share=1.5)
    with pytest.raises(InputError, match="not both"):
        analyze(ts, share=0.5, period=3)
    with pytest.raises(InputError, match="overhead"):
        analyze(ts, share=0.5, overhead=-1)
    with pytest.raises(InputError, match="policy"):
        analyze(ts, share=0.5, policy="fifo")
