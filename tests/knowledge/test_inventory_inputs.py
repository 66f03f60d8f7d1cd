"""Estate readers after review 1 (items 9, 10, 13, 15): the template's os stays the OS and only an
application column sets the application; a missing required column is named whatever the file's
name, once the header family says which format it is; several descriptions of one libvirt domain
keep the union of their facts and report conflicts; UTF-16 text; OpenStack's Host column and
hypervisor type; counts that say what they count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.inventory import Inventory
from knowledge.infra.errors import InputError
from knowledge.inventory import read_inventory

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "resources" / "examples"
LIBVIRT = ROOT / "tests" / "fixtures" / "inventory" / "libvirt"
OPENSTACK = ROOT / "tests" / "fixtures" / "inventory" / "openstack"


# --- item 9 ------------------------------------------------------------------------------------
def test_template_os_is_not_the_application(tmp_path):
    est = read_inventory([EXAMPLES / "inventory-vms.csv", EXAMPLES / "inventory-hosts.csv"])
    work = {w["name"]: w for w in Inventory(est).to_scenario()["workloads"]}
    assert work["cassandra"]["application"] == "cassandra" and work["postgres"]["application"] == "database"
    assert work["telecom"]["application"] == "telecom"
    assert all("Linux" not in w.get("application", "") and "Debian" not in w.get("application", "")
               for w in work.values())
    no_app = tmp_path / "vms.csv"
    no_app.write_text("name,vcpus,ram_gib,os\ncass-1,8,32,Rocky Linux 9\n")
    w = Inventory(read_inventory([no_app])).to_scenario()["workloads"][0]
    assert "application" not in w  # the OS says nothing about what runs


# --- item 10 -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["vms.csv", "rvtools_nocpu.csv", "RVTools_tabvInfo.csv"])
def test_template_missing_required_column_is_named(tmp_path, name):
    path = tmp_path / name
    path.write_text("name,ram_gib,disk_gb\nweb-1,4,40\n")
    with pytest.raises(InputError) as err:
        read_inventory([path])
    msg = str(err.value)
    if name.startswith("RVTools_tab"):  # the RVTools name wins: its own required columns
        assert "no column 'VM'" in msg or "no column 'CPUs'" in msg
    else:
        assert str(path) in msg and "no column 'vcpus'" in msg and "template" in msg


def test_template_hosts_missing_required_column_is_named(tmp_path):
    path = tmp_path / "hosts.csv"
    path.write_text("host,sockets,ram_gib,ghz\nkvm-1,2,512,2.4\n")
    with pytest.raises(InputError, match="no column 'cores_per_socket'"):
        read_inventory([path])


@pytest.mark.parametrize("delimiter", [",", ";"])
@pytest.mark.parametrize("name", ["rvtools_nocpu.csv", "export.csv", "RVTools_tabvInfo.csv"])
def test_rvtools_csv_missing_cpus_is_named_with_any_file_name(tmp_path, name, delimiter):
    path = tmp_path / name
    path.write_text(delimiter.join(["VM", "Powerstate", "Memory"]) + "\n"
                    + delimiter.join(["web-01", "poweredOn", "4096"]) + "\n")
    with pytest.raises(InputError) as err:
        read_inventory([path])
    assert str(path) in str(err.value) and "tab vInfo has no column 'CPUs'" in str(err.value)


def test_unknown_csv_still_says_not_recognised(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("colour,size\nred,3\n")
    with pytest.raises(InputError, match="format not recognised"):
        read_inventory([path])


# --- item 13 -----------------------------------------------------------------------------------
def test_merged_libvirt_domain_keeps_the_union_and_reports_conflicts():
    files = sorted(LIBVIRT.glob("*.xml")) + sorted(LIBVIRT.glob("*.out"))
    est = read_inventory(files)
    guest = [v for v in est.vms if v.name == "QEMUGuest1"]
    assert len(guest) == 1
    g = guest[0]
    assert g.pinned is True  # cputune.xml pins its vCPUs
    assert {"writeback", "unsafe", "none", "writethrough", "directsync"} <= set(g.cache_modes)  # disk-cache.xml
    assert len(g.cache_modes) == len(g.disk_ids) == len(set(g.disk_ids)) == len(g.storage)
    notes = [n for s in est.sources for n in s.notes if n.startswith("QEMUGuest1")]
    assert any("vCPUs differ" in n and "planned at" in n for n in notes), notes
    inv = Inventory(est)
    today = inv.to_scenario()["estate"]["today"]
    assert today["pinned_vms"] >= 1
    assert sum(today["cache_modes"].values()) == sum(len(v.cache_modes) for v in inv.vms)  # disks, not VMs


def test_template_cache_modes_count_disks_of_every_vm():
    inv = Inventory(read_inventory([EXAMPLES / "inventory-vms.csv", EXAMPLES / "inventory-hosts.csv"]))
    today = inv.to_scenario()["estate"]["today"]
    # none: pg-main 1 + pg-replica 2 + cassandra 6 + sip-proxy 2 (rows stand for `count` VMs, one disk each)
    assert today["cache_modes"]["none"] == 11 and today["cache_modes"]["writeback"] == 12 + 6 + 3
    rows = dict(__import__("advisor.inventory", fromlist=["today_rows"]).today_rows(today))
    assert "disk cache modes (per virtual disk)" in rows


# --- item 15 -----------------------------------------------------------------------------------
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_csv_is_read(tmp_path, encoding):
    text = (EXAMPLES / "inventory-vms.csv").read_text(encoding="utf-8")
    path = tmp_path / "vms.csv"
    path.write_bytes(text.encode(encoding))  # 'utf-16' writes a byte-order mark
    assert path.read_bytes()[:2] in ((b"\xff\xfe", b"\xfe\xff") if encoding == "utf-16" else (b"#\x00", b"\x00#"))
    est = read_inventory([path])
    assert est.counts()["vms"] == sum(int(r.split(",")[5]) for r in text.splitlines()[7:] if ",yes," in r
                                      or ",no," in r) - 1  # the template row is no VM


def test_openstack_host_column_lists_the_hosts_and_the_hypervisor_is_unknown():
    servers = OPENSTACK / "v2.47-servers-details-resp.json"
    doc = json.loads(servers.read_text())
    hosts = {s["OS-EXT-SRV-ATTR:host"] for s in doc["servers"]}
    est = read_inventory([servers])
    assert sorted(h.name for h in est.hosts) == sorted(hosts)
    data = Inventory(est).to_scenario()
    assert data["hosts"]["count"] == len(hosts) and "hosts.count" not in data["estate"]["assumed"]
    assert "hosts.cpu" in data["estate"]["assumed"]  # named, not described
    assert data["estate"]["today"]["hypervisor"].startswith("unknown")


def test_openstack_hypervisor_list_names_the_hypervisor_and_describes_the_host():
    path = OPENSTACK / "v2.53-hypervisors-detail-resp.json"
    raw = json.loads(path.read_text())["hypervisors"][0]
    est = read_inventory([OPENSTACK / "v2.47-servers-details-resp.json", path])
    described = next(h for h in est.hosts if h.logical_cpus)
    assert described.logical_cpus == raw["vcpus"] and described.ram_mib == raw["memory_mb"]
    assert described.sockets == raw["cpu_info"]["topology"]["sockets"]
    today = Inventory(est).to_scenario()["estate"]["today"]
    assert raw["hypervisor_type"] in today["hypervisor"] and not today["hypervisor"].startswith("unknown")
