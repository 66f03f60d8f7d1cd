"""The scenario skeleton from probed facts: hosts section of this machine, YAML/TOML/JSON by
extension, written atomically."""

from __future__ import annotations

import json
import tomllib

import pytest
import yaml

from advisor.probes.linux import LinuxProbe
from advisor.probes.skeleton import hosts_section, skeleton, write_skeleton
from advisor.scenario import load_scenario, parse_scenario, to_toml
from knowledge.infra.errors import InputError
from tests.advisor.probes import fake_host


@pytest.fixture()
def server_facts(tmp_path):
    return LinuxProbe(root=fake_host.server(tmp_path / "root")).probe()


def test_hosts_section_describes_the_server(server_facts):
    hosts, notes = hosts_section(server_facts)
    assert (hosts["count"], hosts["reserve"]) == (1, 0)
    assert hosts["cpu"] == {"model": "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz", "sockets": 2,
                            "cores_per_socket": 2, "threads_per_core": 2, "ghz": 2.1, "virtualization": "vmx"}
    assert hosts["ram_gib"] == pytest.approx(401408000 / 2**20, abs=0.05)
    # md0 is not a physical disk; sda+sdb group; the RAID volume sdc is a low-confidence ssd
    assert hosts["disks"] == [{"kind": "hdd", "count": 2, "size_gb": 4001},
                              {"kind": "nvme", "count": 1, "size_gb": 1920},
                              {"kind": "ssd", "count": 1, "size_gb": 6000}]
    assert hosts["nic_gbps"] == 10.0
    assert hosts["shared_storage"] == [{"kind": "nfs", "network_gbps": 10.0}]
    assert any("sdc" in n and "RAID" in n for n in notes)


def test_unknown_facts_are_left_out_with_a_note(tmp_path):
    facts = LinuxProbe(root=tmp_path).probe()
    hosts, notes = hosts_section(facts)
    assert hosts["cpu"] == {"virtualization": "unknown"}
    assert "ram_gib" not in hosts and "nic_gbps" not in hosts and hosts["disks"] == []
    assert any(n.startswith("cpu.model unknown") for n in notes)
    assert any(n.startswith("ram_gib unknown") for n in notes)


@pytest.mark.parametrize("name", ["s.yaml", "s.yml", "s.toml", "s.json", "s.scenario"])
def test_written_in_the_format_of_the_extension(server_facts, tmp_path, name):
    path = tmp_path / "out" / name
    data = write_skeleton(server_facts, path)
    text = path.read_text()
    if name.endswith((".yaml", ".yml")):
        loaded = yaml.safe_load(text)
        assert text.startswith("# Scenario skeleton")
    elif name.endswith(".toml"):
        loaded = tomllib.loads(text)
    else:
        loaded = json.loads(text)
    assert loaded == data
    assert loaded["version"] == 1 and loaded["name"] == "rack12-node3 (probed)"
    assert loaded["hosts"]["count"] == 1 and loaded["workloads"][0]["name"] == "replace-me"
    assert [p.name for p in path.parent.iterdir()] == [name]  # no temporary file left
    scenario = parse_scenario(loaded, name)  # the shared scenario format accepts it
    assert (scenario.hosts.count, scenario.hosts.cpu.sockets, scenario.hosts.cpu.virtualization) == (1, 2, "vmx")
    assert scenario.hosts.nic_gbps == 10.0 and len(scenario.hosts.disks) == 3
    if not name.endswith(".scenario"):
        assert load_scenario(path).hosts.ram_gib == data["hosts"]["ram_gib"]


def test_what_the_probe_cannot_tell_is_what_the_loader_asks_for(tmp_path):
    path = tmp_path / "bare.toml"
    write_skeleton(LinuxProbe(root=tmp_path / "empty").probe(), path)
    with pytest.raises(InputError) as err:
        load_scenario(path)
    assert sorted(line.strip().split(":")[0] for line in str(err.value).splitlines()[1:]) == [
        "hosts.cpu.cores_per_socket", "hosts.ram_gib"]
    assert "# cpu.cores_per_socket unknown" in path.read_text()


def test_portable_facts_give_a_loadable_skeleton(tmp_path):
    from advisor.probes.portable import PsutilProbe

    path = tmp_path / "portable.yaml"
    data = write_skeleton(PsutilProbe().probe(), path)
    assert "sockets" not in data["hosts"]["cpu"] and data["hosts"]["cpu"]["cores_per_socket"] >= 1
    assert load_scenario(path).hosts.cpu.sockets == 1


def test_toml_writer_round_trips_nested_values():
    data, _ = skeleton(LinuxProbe(root="/nonexistent").probe(), name='quote " and \\ back')
    data["hosts"]["disks"] = [{"kind": "ssd", "count": 2, "size_gb": 960}]
    assert tomllib.loads(to_toml(data)) == data
