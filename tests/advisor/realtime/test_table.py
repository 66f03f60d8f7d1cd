"""Reading a task table typed by a person: every row is a task or a named problem."""

from __future__ import annotations

from advisor.realtime.table import read_task_rows


def test_good_rows_become_tasks_with_units_and_default_names():
    rows, problems = read_task_rows([["t1", "20", "2"], ["", "10ms", "1", "5"], ["", "", "", ""],
                                     ["t4", "2 ms", "500us"]], unit="ms")
    assert problems == {}
    assert rows == [("t1", 20.0, 2.0), ("t2", 10.0, 1.0, 5.0), ("t4", 2.0, 0.5)]


def test_every_bad_row_is_reported_in_its_cell_and_left_out_of_the_tasks():
    rows, problems = read_task_rows([["a", "abc", "1"], ["b", "10", ""], ["c", "10", "12"],
                                     ["d", "10", "2", "12"], ["e", "-5", "1"], ["f", "10", "1"]])
    assert rows == [("f", 10.0, 1.0)]
    assert set(problems) == {(0, 1), (1, 2), (2, 2), (3, 3), (4, 1)}
    assert "not a time" in problems[(0, 1)]
    assert problems[(1, 2)] == "WCET is missing"
    assert "exceeds its deadline" in problems[(2, 2)]
    assert "longer than the period" in problems[(3, 3)]
    assert "positive" in problems[(4, 1)]
