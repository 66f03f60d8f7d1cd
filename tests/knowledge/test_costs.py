"""The cost catalogue: the YAML format is validated field by field (file and field named), the
example ships with example entries only, and the user database stores it transactionally across
a schema migration."""

from __future__ import annotations

import os
import sqlite3

import pytest

from knowledge import costs, userdb
from knowledge.costs import dumps_catalogue, example_path, load_catalogue, loads, parse_catalogue
from knowledge.infra.errors import DatabaseError, InputError
from knowledge.userdb import UserDatabase


def test_example_catalogue_is_valid_and_every_entry_says_it_is_an_example():
    cat = load_catalogue(example_path())
    entries = [e for s in costs.SECTIONS for e in cat.entries(s)]
    assert len(cat.hosts) >= 3 and len(cat.storage) == 3 and len(cat.licences) >= 4
    assert all(e.example for e in entries)
    assert cat.examples == len(entries)
    assert "placeholder" in cat.name.lower()
    kinds = {s.kind for s in cat.storage}
    assert kinds == {"nfs", "iscsi", "distributed"}
    assert {lic.hypervisor for lic in cat.licences if lic.hypervisor} >= {"VMware ESXi", "KVM"}
    assert any(lic.min_cores_per_cpu for lic in cat.licences)  # a per-core licence with a minimum


def test_yaml_round_trip_keeps_every_field():
    cat = load_catalogue(example_path())
    again = parse_catalogue(loads(dumps_catalogue(cat)), "again")
    assert again == cat
    assert parse_catalogue(loads(dumps_catalogue(cat, "json"), "json")) == cat


def test_hypervisor_names_are_the_engines():
    from advisor.scenario import HYPERVISORS

    assert costs.HYPERVISORS == HYPERVISORS


def test_problems_name_the_file_and_every_field(tmp_path):
    path = tmp_path / "prices.yaml"
    path.write_text("""
version: 1
years: 0
colour: blue
hosts:
  - name: small
    cpu: {sockets: 2, cores_per_socket: 8}
    ram_gib: 128
    price: -5
    power_w: 200
    idle_w: 300
  - name: small
    cpu: {sockets: 1, cores_per_socket: 4}
    ram_gib: 16
    price: 1000
    power_w: 90
storage:
  - {name: filer, kind: nfs, price_per_tb: 100, price_per_node: 5}
  - {name: tape, kind: tape, price_per_tb: 1}
licences:
  - {name: lic, per: core, min_cores_per_cpu: 16}
  - {name: lic2, hypervisor: Hyper-V, per: socket, per_year: 10}
  - {name: lic3, hypervisor: KVM, per: host, per_year: 10, min_cores_per_cpu: 8}
""")
    with pytest.raises(InputError) as err:
        load_catalogue(path)
    msg = str(err.value)
    assert msg.startswith(f"{path}: invalid cost catalogue")
    for expected in ("years: must be > 0", "colour: unknown field", "hosts[0].price: must be >= 0",
                     "hosts[0].idle_w: must be <= power_w (200)", "hosts[1].name: 'small' is used twice",
                     "storage[0]: give either price_per_tb", "storage[1].kind: must be one of nfs, iscsi, distributed",
                     "licences[0]: name the hypervisor or the storage kind",
                     "licences[0]: give price (paid once) and/or per_year",
                     "licences[1].hypervisor: must be one of KVM, VMware ESXi, XenServer, Xen, not 'Hyper-V'",
                     "licences[2].min_cores_per_cpu: only applies to licences per core"):
        assert expected in msg, expected


@pytest.mark.parametrize(("text", "where"), [
    ("hosts: [\n  {name: a,", "invalid YAML at line"),
    ("- just\n- a list\n", "catalogue: must be a mapping"),
    ("hosts: {name: a}\n", "hosts: must be a list"),
])
def test_unreadable_catalogues_are_refused_with_the_file_name(tmp_path, text, where):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(InputError, match=str(path)) as err:
        load_catalogue(path)
    assert where in str(err.value)


def test_only_regular_files_are_read(tmp_path):
    """The safe read the scenario uses: a folder or a FIFO is refused by name, before it is opened."""
    with pytest.raises(InputError, match="is a folder, not a file; give a cost catalogue file"):
        load_catalogue(tmp_path)
    with pytest.raises(InputError, match="cannot read cost catalogue"):
        load_catalogue(tmp_path / "missing.yaml")
    fifo = tmp_path / "c.yaml"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="named pipe"):
        load_catalogue(fifo)


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("suffix", "text", "where"), [
    (".yaml", "hosts:\n  - name: a\n    cpu: {cores_per_socket: 8, ghz: 2.1, ghz: 9.9}\n    ram_gib: 64\n"
              "    price: 1000\n    power_w: 300\n", "hosts[0].cpu.ghz: duplicate key (line 3)"),
    (".json", '{"hosts": [{"name": "a", "cpu": {"cores_per_socket": 8, "ghz": 2.1, "ghz": 9.9}, "ram_gib": 64, '
              '"price": 1000, "power_w": 300}]}', "hosts[0].cpu.ghz: duplicate key"),
    (".yaml", "years: 5\nyears: 9\n", "years: duplicate key (line 2)"),
])
def test_a_key_given_twice_is_refused_like_the_scenario_refuses_it(tmp_path, suffix, text, where):
    """It kept the last value (ghz 9.9) without a word; the scenario refuses the same file."""
    from advisor.scenario import load_scenario

    path = tmp_path / f"c{suffix}"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        load_catalogue(path)
    assert f"{path}: invalid cost catalogue" in str(err.value)
    assert f"{where}: a key may appear once in a mapping" in str(err.value)
    scenario = tmp_path / "s.yaml"  # the scenario's words for the same mistake
    scenario.write_text("hosts:\n  cpu: {cores_per_socket: 8, ghz: 2.1, ghz: 9.9}\n")
    with pytest.raises(InputError, match=r"hosts.cpu.ghz: duplicate key \(line 2\): a key may appear once in a mapping"):
        load_scenario(scenario)


# --- the user database ---------------------------------------------------------------------------
def test_stored_catalogue_round_trips_and_merges(tmp_path):
    cat = load_catalogue(example_path())
    with UserDatabase(tmp_path / "u.sqlite") as db:
        assert db.cost_catalogue() is None
        db.save_cost_catalogue(cat)
        assert db.cost_catalogue() == cat
        extra = parse_catalogue({"name": "mine", "currency": "CHF", "years": 3, "licences": [
            {"name": "Example supported KVM distribution", "hypervisor": "KVM", "per": "host", "per_year": 999},
            {"name": "new", "hypervisor": "Xen", "per": "host", "price": 10}]})
        db.save_cost_catalogue(extra, merge=True)
        merged = db.cost_catalogue()
        assert (merged.name, merged.currency, merged.years) == ("mine", "CHF", 3)
        assert len(merged.hosts) == len(cat.hosts)  # kept
        kvm = next(x for x in merged.licences if x.name == "Example supported KVM distribution")
        assert (kvm.per, kvm.per_year) == ("host", 999)  # replaced in place
        assert merged.licences[-1].name == "new"
        db.remove_cost_entry("licences", "new")
        with pytest.raises(InputError, match="no licences entry named 'new'"):
            db.remove_cost_entry("licences", "new")
        db.save_cost_catalogue(extra)  # replace: the example's hosts are gone
        assert db.cost_catalogue().hosts == []
        db.clear_cost_catalogue()
        assert db.cost_catalogue() is None


def test_a_failed_store_leaves_the_stored_catalogue(tmp_path, monkeypatch):
    cat = load_catalogue(example_path())
    with UserDatabase(tmp_path / "u.sqlite") as db:
        db.save_cost_catalogue(cat)
        real = costs.entry_to_dict
        calls = []

        def fail_on_second(entry):  # the transaction dies half-way through the entries
            calls.append(entry.name)
            if len(calls) == 2:
                raise OSError(28, "No space left on device")
            return real(entry)

        monkeypatch.setattr(costs, "entry_to_dict", fail_on_second)
        with pytest.raises(DatabaseError):
            db.save_cost_catalogue(parse_catalogue({"name": "new", "hosts": [real(h) for h in cat.hosts]}))
        monkeypatch.setattr(costs, "entry_to_dict", real)
        assert db.cost_catalogue() == cat


def test_version_3_database_migrates_and_keeps_its_projects(tmp_path):
    path = tmp_path / "u.sqlite"
    userdb.create_database(path, target=3)
    con = sqlite3.connect(path)
    con.execute("INSERT INTO projects (name, scenario, saved_at) VALUES ('p', '{\"name\": \"x\"}', 1.0)")
    con.commit()
    con.close()
    with UserDatabase(path) as db:
        assert db.schema_version == 4
        assert db.load_project("p") == {"name": "x"}
        assert db.cost_catalogue() is None
        db.save_cost_catalogue(load_catalogue(example_path()))
    with UserDatabase(path) as db:
        assert db.cost_catalogue().name.startswith("Example")


def test_a_damaged_stored_entry_is_reported_not_priced(tmp_path):
    path = tmp_path / "u.sqlite"
    with UserDatabase(path) as db:
        db.save_cost_catalogue(load_catalogue(example_path()))
    con = sqlite3.connect(path)
    con.execute("UPDATE cost_entries SET data = '{\"name\": \"x\", \"price\": \"free\"}' WHERE section = 'hosts'")
    con.commit()
    con.close()
    with UserDatabase(path) as db, pytest.raises(DatabaseError, match="no longer validates"):
        db.cost_catalogue()
