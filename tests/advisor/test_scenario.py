"""The scenario format: the three file formats, validation that lists every problem by path,
and round trips through YAML, JSON and TOML."""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path

import pytest

from advisor.scenario import Scenario, dumps, load_scenario, parse_scenario, save_scenario, to_toml
from knowledge.infra.errors import InputError
from tests.advisor.test_engine import BASE, make, workload

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.mark.parametrize("name", ["scenario.yaml", "small-lab.json", "cassandra-containers.toml"])
def test_the_shipped_examples_load(name):
    sc = load_scenario(EXAMPLES / name)
    assert isinstance(sc, Scenario) and sc.workloads and sc.hosts.cpu.cores >= 1


def test_the_commented_example_has_a_mixed_cluster_with_one_realtime_workload():
    sc = load_scenario(EXAMPLES / "scenario.yaml")
    assert len(sc.workloads) >= 3
    rt = [w for w in sc.workloads if w.realtime is not None]
    assert len(rt) == 1 and rt[0].realtime.tasks and rt[0].realtime.design_speed_ghz == 2.0
    assert sc.hosts.reserve == 1 and sc.hosts.cpu.cores == 40 and sc.hosts.cpu.threads == 80
    assert "#" in (EXAMPLES / "scenario.yaml").read_text()  # commented


def test_defaults_fill_optional_fields():
    sc = parse_scenario({"hosts": {"cpu": {"cores_per_socket": 8}, "ram_gib": 64},
                         "workloads": [{"name": "a", "vms": 2, "vcpus": 2, "ram_gib": 4}]})
    w = sc.workloads[0]
    assert sc.hosts.count == 1 and sc.hosts.reserve == 0 and sc.version == 1
    assert w.io.pattern == "mixed" and w.data_loss_tolerance == "none" and not w.live_migration
    assert sc.preferences.ram_overcommit == 1.0 and sc.preferences.max_host_cpu_percent == 80


def test_every_problem_is_listed_by_path_in_one_error():
    bad = make([workload("a"), workload("b"), workload("c", vcpus=0, io={"read_share": 1.5, "pattern": "zigzag"}),
                workload("a")], reserve=4, count=4)
    bad["hosts"]["cpu"]["virtualization"] = "vtx"
    bad["hosts"]["disks"][0]["kind"] = "tape"
    bad["workloads"][1]["colour"] = "red"
    bad["workloads"][0]["vms"] = "many"
    with pytest.raises(InputError) as info:
        parse_scenario(bad, "x.yaml")
    msg = str(info.value)
    for expected in ("workloads[2].vcpus: must be >= 1", "workloads[2].io.read_share: must be <= 1",
                     "workloads[2].io.pattern: must be one of random|sequential|mixed",
                     "hosts.cpu.virtualization: must be one of", "hosts.disks[0].kind: must be one of",
                     "workloads[1].colour: unknown key", "workloads[0].vms: must be an integer",
                     "workloads[3].name: duplicate of workloads[0].name",
                     "hosts.reserve: must be smaller than hosts.count"):
        assert expected in msg, (expected, msg)
    assert msg.startswith("x.yaml: 9 problem(s)")
    assert "Traceback" not in msg


def test_missing_required_parts_and_wrong_version():
    with pytest.raises(InputError) as info:
        parse_scenario({"version": 2})
    msg = str(info.value)
    assert "version: scenario format version 2 is not supported" in msg
    assert "hosts: is required" in msg and "workloads: is required" in msg
    with pytest.raises(InputError, match="must be a mapping"):
        parse_scenario(["not", "a", "mapping"])


def test_realtime_tasks_are_checked():
    rt = {"tasks": [{"name": "a", "period": 10, "wcet": 12}, {"name": "b", "period": 5, "wcet": 1, "deadline": 6},
                    {"name": "a", "period": 100, "wcet": 1}]}
    with pytest.raises(InputError) as info:
        parse_scenario(make([workload(realtime=rt)]))
    msg = str(info.value)
    assert "workloads[0].realtime.tasks[2].name: duplicate of tasks[0].name ('a')" in msg
    assert "workloads[0].realtime.tasks[0].wcet: must be <= period (10)" in msg
    assert "workloads[0].realtime.tasks[1].deadline: must be <= period (5)" in msg
    over = {"tasks": [{"name": "a", "period": 10, "wcet": 6}, {"name": "b", "period": 10, "wcet": 6}]}
    with pytest.raises(InputError, match="utilization 1.2 exceeds 1"):
        parse_scenario(make([workload(realtime=over)]))
    low_share = {"share": 0.3, "tasks": [{"name": "a", "period": 10, "wcet": 4}]}
    with pytest.raises(InputError, match=r"realtime\.share: must exceed the task utilization"):
        parse_scenario(make([workload(realtime=low_share)]))


def test_vms_bigger_than_a_host_are_rejected():
    with pytest.raises(InputError) as info:
        parse_scenario(make([workload(vcpus=100, ram_gib=1000)]))
    assert "workloads[0].vcpus: 100 vCPUs exceed the 64 hardware threads" in str(info.value)
    assert "workloads[0].ram_gib: 1000 GiB exceeds a host's RAM" in str(info.value)


@pytest.mark.parametrize("suffix", [".yaml", ".json", ".toml"])
def test_round_trip_through_every_format(tmp_path, suffix):
    original = load_scenario(EXAMPLES / "scenario.yaml")
    path = tmp_path / f"copy{suffix}"
    save_scenario(original, path)
    assert load_scenario(path) == original


def test_toml_writer_output_is_valid_toml():
    data = copy.deepcopy(BASE)
    data["name"] = 'quote " and backslash \\ survive'
    text = to_toml(parse_scenario(data).to_dict())
    assert tomllib.loads(text)["name"] == data["name"]
    assert json.loads(dumps(parse_scenario(data), "json"))["name"] == data["name"]


@pytest.mark.parametrize("name,text,match", [
    ("bad.yaml", "hosts: [unclosed\n", r"bad.yaml: invalid YAML at line 2"),
    ("bad.json", "{\"hosts\": }", r"bad.json: invalid JSON at line 1"),
    ("bad.toml", "hosts = = 1", r"bad.toml: invalid TOML"),
    ("bad.txt", "", r"unknown scenario format '.txt'"),
])
def test_syntax_errors_are_input_errors(tmp_path, name, text, match):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(InputError, match=match):
        load_scenario(path)


def test_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="cannot read scenario"):
        load_scenario(tmp_path / "nope.yaml")
