"""Hostile scenario files (issue 19, points 8 and 10): numbers out of any sensible range, wrong types,
empty names, duplicate keys, nesting too deep for a parser, and files that are not regular files.
Each gives one InputError naming the file and the field (or line), never a traceback or a hang."""

from __future__ import annotations

import copy
import json
import os
import sys

import pytest
import yaml

import advisor.scenario as scenario_mod
import advisor.scenario.fields as scenario_fields
import knowledge.infra.userdata as userdata
from advisor.scenario import dumps, load_scenario, parse_scenario, to_toml
from knowledge.infra.errors import InputError
from tests.advisor.test_engine import BASE

BIG = int("1" + "0" * 400)


def write(tmp_path, data, fmt):
    path = tmp_path / f"s.{fmt}"
    text = {"json": lambda d: json.dumps(d), "yaml": lambda d: yaml.safe_dump(d, sort_keys=False),
            "toml": to_toml}[fmt](data)
    path.write_text(text, encoding="utf-8")
    return path


def with_(path: tuple, value):
    data = copy.deepcopy(BASE)
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


def load_error(path) -> str:
    with pytest.raises(InputError) as info:
        load_scenario(path)
    msg = str(info.value)
    assert msg.startswith(f"{path}"), msg
    return msg


RT = {"time_unit": "ms", "tasks": [{"name": "t1", "period": 10.0, "wcet": 1.0}]}


@pytest.mark.parametrize("fmt", ["yaml", "json", "toml"])
@pytest.mark.parametrize("where, value, expected", [
    (("hosts", "count"), BIG, "hosts.count: must be <= 1000000000000, not a 401-digit number"),
    (("hosts", "count"), 1e300, "hosts.count: must be <= 100000, not 1e+300"),
    (("hosts", "ram_gib"), 1e300, "hosts.ram_gib: must be <= 1048576"),
    (("workloads", 0, "vms"), 10**15, "workloads[0].vms: must be <= 1000000"),
    (("workloads", 0, "io"), {"iops": 1e200}, "workloads[0].io.iops: must be <= 1000000000"),
    (("workloads", 0, "realtime"), {**RT, "tasks": [{"name": "t1", "period": 1e300, "wcet": 1.0}]},
     "workloads[0].realtime.tasks[0].period: must be <= 1000000000, not 1e+300"),
    (("workloads", 0, "name"), ["a", "b"], "workloads[0].name: must be a string, not a list"),
    (("name",), ["a"], "name: must be a string, not a list"),
    (("workloads", 0, "name"), "", "workloads[0].name: must not be empty"),
    (("workloads", 0, "name"), "   ", "workloads[0].name: must not be empty"),
    (("name",), "", "name: must not be empty"),
    (("workloads", 0, "name"), "a\x00b", "workloads[0].name: must not contain control characters"),
    (("workloads", 0, "name"), "a\x1bb", "workloads[0].name: must not contain control characters"),
    (("workloads", 0, "name"), "x" * 201, "workloads[0].name: is 201 characters long; at most 200"),
    (("workloads", 0, "realtime"), {**RT, "tasks": [{"name": "", "period": 10.0, "wcet": 1.0}]},
     "workloads[0].realtime.tasks[0].name: must not be empty"),
])
def test_out_of_range_and_wrong_values_name_the_field(tmp_path, fmt, where, value, expected):
    msg = load_error(write(tmp_path, with_(where, value), fmt))
    assert expected in msg and "problem(s) in the scenario" in msg


def test_a_lone_surrogate_in_a_name_is_refused(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(with_(("workloads", 0, "name"), "web")).replace('"web"', '"\\ud800"'))
    assert "workloads[0].name: is not valid Unicode text" in load_error(path)


@pytest.mark.parametrize("fmt, text, expected", [
    ("yaml", "name: x\nname: y\nhosts: {count: 1}\n", "name: duplicate key (line 2)"),
    ("yaml", "hosts: {count: 1, count: 2}\n", "hosts.count: duplicate key (line 1)"),
    ("yaml", "hosts: {}\nworkloads:\n  - name: a\n    vms: 1\n    name: b\n",
     "workloads[0].name: duplicate key (line 5)"),
    ("json", '{"name": "x", "hosts": {"count": 1, "count": 2}}', "hosts.count: duplicate key"),
    ("json", '{"hosts": {}, "workloads": [{"name": "a", "vms": 1, "name": "b"}]}',
     "workloads[0].name: duplicate key"),
    ("toml", 'name = "x"\nname = "y"\n', "invalid TOML: Cannot overwrite a value (at line 2"),
])
def test_duplicate_keys_are_rejected_with_the_field(tmp_path, fmt, text, expected):
    path = tmp_path / f"s.{fmt}"
    path.write_text(text)
    msg = load_error(path)
    assert expected in msg
    if fmt == "toml":
        assert "name = \"y\"" in msg


def test_yaml_merge_keys_may_be_overridden(tmp_path):
    path = tmp_path / "s.yaml"
    data = yaml.safe_dump(BASE, sort_keys=False)
    path.write_text("defaults: &d {vms: 1, vcpus: 1, ram_gib: 1}\n" + data.replace(
        "workloads:\n", "workloads:\n- <<: *d\n  name: merged\n  vms: 3\n", 1))
    msg = load_error(path)  # 'defaults' is not a scenario key, but the merge itself is fine
    assert "defaults: unknown key" in msg and "duplicate" not in msg


@pytest.mark.parametrize("fmt, text, expected", [
    ("json", "[" * 100_000 + "]" * 100_000, "invalid JSON: nested too deeply"),
    ("toml", "a = " + "[" * 100_000 + "]" * 100_000, "invalid TOML: nested too deeply"),
    ("yaml", "a: " + "[" * 100_000 + "]" * 100_000, "invalid YAML"),
])
def test_nesting_too_deep_is_an_error_of_the_right_format(tmp_path, fmt, text, expected):
    path = tmp_path / f"s.{fmt}"
    path.write_text(text)
    msg = load_error(path)
    assert expected in msg
    assert fmt == "yaml" or "YAML" not in msg


def test_json_integer_beyond_the_digit_limit_is_a_json_error(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"hosts": {"count": ' + "9" * 5000 + "}}")
    assert "invalid JSON" in load_error(path)


def test_too_many_problems_are_listed_up_to_a_limit():
    data = with_(("workloads",), [{"name": f"w{i}", "vms": 0} for i in range(500)])
    with pytest.raises(InputError) as info:
        parse_scenario(data, "many.yaml")
    msg = str(info.value)
    assert msg.count("\n  ") == scenario_mod.MAX_PROBLEMS_LISTED + 1 and "... and " in msg


def test_a_realtime_set_beyond_the_checkpoint_cap_is_refused_at_its_field():
    rt = {"time_unit": "us", "tasks": [{"name": "fast", "period": 1, "wcet": 0.1},
                                       {"name": "slow", "period": 1e9, "wcet": 1}]}
    with pytest.raises(InputError, match=r"workloads\[0\]\.realtime\.tasks: the exact analysis of these 2 tasks"):
        parse_scenario(with_(("workloads", 0, "realtime"), rt), "rt.yaml")


# --- regular files only (point 10) -------------------------------------------------------------

@pytest.mark.timeout(20)
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert "is a named pipe (FIFO), not a file" in load_error(fifo)


@pytest.mark.timeout(20)
@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_behind_a_scenario_name_is_refused(tmp_path):
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    assert "is a character device, not a file" in load_error(link)


def test_a_folder_is_refused(tmp_path):
    folder = tmp_path / "dir.json"
    folder.mkdir()
    assert "is a folder, not a file" in load_error(folder)


def test_a_file_above_the_size_limit_is_not_read(tmp_path, monkeypatch):
    monkeypatch.setattr(scenario_fields, "MAX_SCENARIO_BYTES", 1000)
    path = tmp_path / "big.yaml"
    path.write_text(dumps(parse_scenario(BASE), "yaml") + "#" * 2000)
    assert "is larger than a scenario may be" in load_error(path)


def test_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"name: x\nhosts: {}\n# caf\xe9\n")
    assert f"{path}, line 3: not UTF-8 text" in load_error(path)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_an_unreadable_file_is_an_input_error(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads through permission bits")
    path = write(tmp_path, BASE, "yaml")
    path.chmod(0)
    assert "cannot read scenario" in load_error(path)


YAML_DOCS = ["a: 1\na: 2\nb: {c: 1, c: [x, y]}\n", "x: &a [1, {k: v}]\ny: *a\n", "a: 012\nb: +5\nc: -0.5e3\nd: 'x'\ne: ~\n",
             "- 0x10\n- 1_000\n- 1:20\n- .inf\n- yes\n- Off\n- null\n", "", "3", "[1, {a: null}]", "'quoted: 1'",
             "- 2001-12-14\n", "{<<: {a: 1}, b: 2}", "a: !!set {x}", "? [1]\n: 2\n", "a: !!binary aGk=\n",
             "a: " + "[" * 80 + "]" * 80]


@pytest.mark.parametrize("text", YAML_DOCS)
def test_the_fast_yaml_construction_builds_what_the_loader_builds_or_leaves_it_to_it(text):
    """Issue 19 (10,000 workload groups): scenario YAML is built straight from the composed nodes;
    the same data, duplicate keys with their lines, aliases as one object, or (other tags, merge
    keys, complex keys, deep nesting) the loader's own construction."""
    loader = userdata._yaml_loader()
    try:
        fast = userdata._yaml_fast(text, loader)
    except userdata._Slow:
        assert any(s in text for s in ("-12-", "<<", "!!", "? ", "[" * 80))
        return
    slow = yaml.load(text, Loader=loader)  # noqa: S506 - the scenario's SafeLoader subclass
    assert fast == slow and type(fast) is type(slow)
    assert getattr(fast, "duplicates", None) == getattr(slow, "duplicates", None)
    if isinstance(fast, dict) and "y" in fast:
        assert fast["x"] is fast["y"]  # an alias is the anchored object itself
    if text.startswith("a: 1"):
        assert fast.duplicates == [("a", 2)] and fast["b"].duplicates == [("c", 3)]


def test_an_estate_scenario_takes_the_fast_yaml_path(monkeypatch, tmp_path):
    from tests.benchmarks.bench_scale import estate

    path = tmp_path / "estate.yaml"
    path.write_text(yaml.safe_dump(estate(50), sort_keys=False))
    monkeypatch.setattr(yaml, "load", lambda *a, **k: pytest.fail("the loader's own construction was used"))
    assert len(load_scenario(path).workloads) == 50
