"""The estate readers on published exports (tests/fixtures/inventory, sources in SOURCES.md) and
on broken or hostile files: what they find, and the messages that name file and column/element."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from knowledge.infra.errors import InputError
from knowledge.inventory import detect, read_inventory
from knowledge.inventory.common import parse_number
from knowledge.inventory.xlsx import Workbook, column_index
from tests import kept_out as where
from tests.knowledge import inventory_cases as C


def sized(estate):
    vms = [v for v in estate.vms if not v.template]
    ok = [v for v in vms if v.vcpus is not None]
    return (sum(v.count for v in vms), sum(v.vcpus * v.count for v in ok),
            sum(v.ram_mib * v.count for v in ok))


# --- RVTools ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", C.WORKBOOKS)
def test_rvtools_workbooks_match_openpyxl_totals(name):
    path = C.rvtools(name)
    estate = read_inventory([path])
    want = C.rvtools_xlsx_totals(path)
    vms, vcpus, ram = sized(estate)
    assert (vms, vcpus) == (want.vms, want.vcpus)
    assert ram == pytest.approx(want.ram_mib)
    assert len(estate.hosts) == C.rvtools_xlsx_hosts(path)
    facts = C.FACTS[name]
    assert {k: v for k, v in estate.counts().items() if k in facts} == \
        {k: v for k, v in facts.items() if k in estate.counts()}
    if "vcpus" in facts:  # generated: the estate written into the workbook, not read back
        assert (vms, vcpus, ram) == (facts["vms"], facts["vcpus"], facts["ram_mib"])


#: per workbook: (VMs, powered off, templates, hosts); a VM with its Total disk capacity MiB, In Use MiB,
#: (vCPUs, RAM MiB, cluster, host); a host with (sockets, cores per socket, threads per core, GHz, RAM MiB)
DETAILS = {
    "rvtools-4x.xlsx": ((41, 6, 2, 6), "db-03", 512000, 389120, (8, 32768, "prod-b", "esx-b1.lab.example"),
                        "esx-b2.lab.example", (2, 16, 2, 3.0, 524288)),  # the estate of rvtools_workbooks
    "RVTOOLEX.xlsx": ((133, 17, 0, 9), "D-CUSTOM-01", 368654, 130728, (8, 12288, "USFQ-TEST", "t-esx-02.usfq.edu.ec"),
                      "p-esx-01.usfq.edu.ec", (2, 18, 1, 2.3, 784897)),  # row 2 of vInfo, read by hand
}
DETAILS["rvtools-4x-sdk.xlsx"] = DETAILS["rvtools-4x.xlsx"]


@pytest.mark.parametrize("name", list(DETAILS))
def test_rvtools_4x_details(name):
    counts, vm_name, disk_mib, used_mib, vm_facts, host_name, host_facts = DETAILS[name]
    estate = read_inventory([C.rvtools(name)])
    c = estate.counts()
    assert (c["vms"], c["powered_off"], c["templates"], c["hosts"]) == counts
    vm = next(v for v in estate.vms if v.name == vm_name)
    assert vm.disk_gb == pytest.approx(disk_mib * 2**20 / 1e9)
    assert vm.used_gb == pytest.approx(used_mib * 2**20 / 1e9)
    assert (vm.vcpus, vm.ram_mib, vm.cluster, vm.host) == vm_facts
    h = next(h for h in estate.hosts if h.name == host_name)
    assert (h.sockets, h.cores_per_socket, h.threads_per_core, h.ghz, h.ram_mib) == host_facts


def test_rvtools_4x_power_and_templates():
    estate = read_inventory([C.rvtools("rvtools-4x.xlsx")])
    assert not next(v for v in estate.vms if v.name == "web-10").powered_on
    assert {v.name for v in estate.vms if v.template} == {"tpl-rhel9", "tpl-win2022"}


def test_old_rvtools_headers_and_templates_generated():
    """RVTools 3.x columns (Provisioned MB, In Use MB), Template as text; templates are counted apart;
    VMs on a host vHost does not list are still read."""
    estate = read_inventory([C.rvtools("rvtools-3x.xlsx")])
    c = estate.counts()
    assert (c["templates"], c["vms"], c["powered_off"], c["hosts"]) == (4, 56, 8, 4)
    vm = next(v for v in estate.vms if v.name == "srv005")  # profile (8 vCPUs, 32 GiB, 409600 MB) on esx01
    assert vm.disk_gb == pytest.approx(409600 * 2**20 / 1e9) and vm.used_gb == pytest.approx(245760 * 2**20 / 1e9)
    assert sum(1 for v in estate.vms if v.host == "esx05.corp.example") == \
        C.FACTS["rvtools-3x.xlsx"]["vms_on_unlisted_hosts"] > 0
    assert "esx05.corp.example" not in {h.name for h in estate.hosts}


def test_old_rvtools_headers_and_templates():
    """RVTools 3.x columns (Provisioned MB, In Use MB), Template as text; templates are counted apart."""
    estate = read_inventory([C.rvtools("SizingWorkshop-RVTools.xlsx")])
    c = estate.counts()
    assert c["templates"] == 10 and c["vms"] == 795
    vm = next(v for v in estate.vms if v.name == "wadfs1")
    assert vm.disk_gb == pytest.approx(86201 * 2**20 / 1e9) and vm.used_gb == pytest.approx(62420 * 2**20 / 1e9)


@pytest.mark.parametrize("name", ["rvtools-small.xlsx", "rvtools-small-complete.xlsx"])
def test_a_vhost_without_memory_is_read_and_said(name):
    estate = read_inventory([C.rvtools(name)])
    assert estate.hosts and all(h.ram_mib is None and h.cores for h in estate.hosts)
    assert any("no column '# Memory'" in n for s in estate.sources for n in s.notes)


@pytest.mark.parametrize("name", ["rvtools-4x.xlsx", "rvtools-4x-sdk.xlsx", "rvtools-3x.xlsx", "RVTOOLEX.xlsx"])
def test_fast_rows_equal_openpyxl_cells(name):
    import openpyxl

    path = C.rvtools(name)
    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    with Workbook(path) as fast:
        for tab in ("vInfo", "vHost"):
            ref = list(wb[tab].iter_rows(values_only=True))
            got = list(fast.rows(tab))
            assert len(got) == len(ref)
            for (n, cells), row in zip(got, ref, strict=True):
                for i, value in enumerate(row):
                    mine = cells.get(i)
                    if value is None or hasattr(value, "year"):  # dates: we keep the serial number
                        continue
                    if isinstance(value, bool):
                        assert mine is value
                    elif isinstance(value, (int, float)):
                        assert mine == pytest.approx(value), (tab, n, i)
                    else:
                        assert mine == value, (tab, n, i)
    wb.close()


@pytest.mark.parametrize("workbook", ["rvtools-4x.xlsx", "RVTOOLEX.xlsx"])
@pytest.mark.parametrize("prefixed,delimiter,thousands", [(False, ",", False), (True, ",", False),
                                                           (False, ";", True)])
def test_rvtools_csv_tabs_with_and_without_prefix(tmp_path, prefixed, delimiter, thousands, workbook):
    files = C.rvtools_csv_tabs(tmp_path, prefixed=prefixed, delimiter=delimiter, thousands=thousands,
                               workbook=workbook)
    estate = read_inventory(files)
    want = C.rvtools_xlsx_totals(C.rvtools(workbook))
    vms, vcpus, ram = sized(estate)
    assert (vms, vcpus, ram) == (want.vms, want.vcpus, pytest.approx(want.ram_mib))
    cores = {"rvtools-4x.xlsx": {36, 32, 16}, "RVTOOLEX.xlsx": {36, 24}}[workbook]
    assert len(estate.hosts) == C.FACTS[workbook]["hosts"] and all(h.cores in cores for h in estate.hosts)
    assert [s.format for s in estate.sources] == ["rvtools-csv (vInfo)", "rvtools-csv (vHost)"]


def test_column_index_and_numbers():
    assert (column_index("A1"), column_index("Z9"), column_index("AA10"), column_index("CO134")) == (0, 25, 26, 92)
    assert parse_number("16,384") == 16384 and parse_number("2,5") == 2.5 and parse_number("0%") == 0
    assert parse_number("1 048 576") == 1048576 and parse_number(" ") is None
    with pytest.raises(ValueError):
        parse_number("lots")


# --- libvirt ----------------------------------------------------------------------------------
XMLS = ["disk-cache.xml", "cputune.xml", "cpu-hotplug-startup.xml", "disk-network-rbd.xml", "testdomfv0.xml",
        "testdomfc4.xml", "testdomfc5.xml"]


@pytest.mark.parametrize("name", XMLS)
def test_domain_xml_totals(name):
    path = C.LIBVIRT / name
    want = C.domain_totals([path])
    vms, vcpus, ram = sized(read_inventory([path]))
    assert (vms, vcpus, ram) == (want.vms, want.vcpus, pytest.approx(want.ram_mib))


def test_domain_xml_cache_pinning_backing():
    cache = read_inventory([C.LIBVIRT / "disk-cache.xml"]).vms[0]
    assert cache.cache_modes == ["writeback", "unsafe", "none", "writethrough", "directsync"]
    assert cache.storage.count("iscsi") == 1 and cache.pinned is False
    tune = read_inventory([C.LIBVIRT / "cputune.xml"]).vms[0]
    assert tune.pinned is True and tune.cache_modes == ["default"] and tune.vcpus == 4
    hot = read_inventory([C.LIBVIRT / "cpu-hotplug-startup.xml"]).vms[0]
    assert hot.vcpus == 3  # current='3' of 6
    rbd = read_inventory([C.LIBVIRT / "disk-network-rbd.xml"]).vms[0]
    assert set(rbd.storage) == {"distributed"}
    fc5 = read_inventory([C.LIBVIRT / "testdomfc5.xml"]).vms[0]
    assert fc5.ram_mib == 2048 and fc5.storage == ["file", "iscsi"]  # cdrom and floppy are not disks


def test_same_domain_in_two_files_counts_once():
    estate = read_inventory([C.LIBVIRT / "disk-cache.xml", C.LIBVIRT / "cputune.xml"])
    assert len(estate.vms) == 1
    assert any("also described" in n for s in estate.sources for n in s.notes)


def test_virsh_list_and_nodeinfo():
    path = C.LIBVIRT / "virsh-info-default.out"
    estate = read_inventory([path])
    want = C.virsh_totals(path)
    assert len(estate.vms) == want.vms == 1 and estate.vms[0].vcpus is None and estate.vms[0].powered_on is True
    (h,) = estate.hosts
    # 16 CPUs = 2 NUMA cells x 2 sockets x 2 cores x 2 threads; virsh prints sockets per cell
    assert (h.sockets, h.cores_per_socket, h.threads_per_core, h.ghz, h.ram_mib) == (4, 2, 2, 1.4, 3072)


def test_virsh_dominfo_blocks_among_other_output():
    path = C.LIBVIRT / "virsh-lifecycle.out"
    estate = read_inventory([path])
    want = C.virsh_totals(path)
    vms, vcpus, ram = sized(estate)
    assert (vms, vcpus, ram) == (want.vms, want.vcpus, pytest.approx(want.ram_mib))
    assert want.unsized == 1 and next(v for v in estate.vms if v.name == "fv0").vcpus is None


def test_virsh_text_and_domain_xml_merge():
    estate = read_inventory([C.LIBVIRT / "virsh-lifecycle.out", C.LIBVIRT / "testdomfv0.xml",
                             C.LIBVIRT / "testdomfc4.xml", C.LIBVIRT / "testdomfc5.xml"])
    assert sorted(v.name for v in estate.vms) == ["fc4", "fc5", "fv0"]
    fv0 = next(v for v in estate.vms if v.name == "fv0")
    assert fv0.vcpus == 4 and fv0.powered_on is True  # size from the XML, state from virsh list


# --- Proxmox and OpenStack ----------------------------------------------------------------------
def test_proxmox_pvesh_list(tmp_path):
    items = C.proxmox_pvesh_items()
    path = tmp_path / "resources.json"
    path.write_text(json.dumps(items))
    estate = read_inventory([path])
    want = C.proxmox_totals(items)
    vms, vcpus, ram = sized(estate)
    assert (vms, vcpus, ram) == (want.vms, want.vcpus, pytest.approx(want.ram_mib))
    assert estate.counts()["containers"] == 2 and estate.hosts[0].logical_cpus == 4


def test_proxmox_api_response(tmp_path):
    path = tmp_path / "cluster-resources.json"
    path.write_text(C.proxmox_api_body())
    estate = read_inventory([path])
    want = C.proxmox_totals(json.loads(C.proxmox_api_body())["data"])
    assert sized(estate) == (want.vms, want.vcpus, pytest.approx(want.ram_mib))
    assert estate.hosts[0].name == "www1" and estate.hosts[0].ram_mib == 32768


def test_openstack_servers_with_flavor_list():
    s, f = C.OPENSTACK / "servers-details-resp.json", C.OPENSTACK / "flavors-detail-resp.json"
    want = C.openstack_totals(s, f)
    estate = read_inventory([s, f])
    assert sized(estate) == (want.vms, want.vcpus, pytest.approx(want.ram_mib))
    assert estate.vms[0].disk_gb == 1 and estate.vms[0].powered_on is True


def test_openstack_embedded_flavor():
    s = C.OPENSTACK / "v2.47-servers-details-resp.json"
    want = C.openstack_totals(s, None)
    assert sized(read_inventory([s])) == (want.vms, want.vcpus, pytest.approx(want.ram_mib))


def test_openstack_cli_json(tmp_path):
    """`openstack server list --long -f json` and `openstack flavor list -f json` column names."""
    servers = [{"ID": "a1", "Name": "web-1", "Status": "ACTIVE", "Power State": "Running", "Flavor Name": "m1.small",
                "Flavor ID": "2", "Host": "cmp-1", "Availability Zone": "nova"},
               {"ID": "a2", "Name": "db-1", "Status": "SHUTOFF", "Power State": "Shutdown", "Flavor Name": "m1.large",
                "Flavor ID": "4", "Host": "cmp-2", "Availability Zone": "nova"}]
    flavors = [{"ID": "2", "Name": "m1.small", "RAM": 2048, "Disk": 20, "Ephemeral": 0, "VCPUs": 1, "Is Public": True},
               {"ID": "4", "Name": "m1.large", "RAM": 8192, "Disk": 80, "Ephemeral": 0, "VCPUs": 4, "Is Public": True}]
    (tmp_path / "servers.json").write_text(json.dumps(servers))
    (tmp_path / "flavors.json").write_text(json.dumps(flavors))
    estate = read_inventory([tmp_path / "servers.json", tmp_path / "flavors.json"])
    assert sized(estate) == (2, 5, 10240) and estate.counts()["powered_off"] == 1


def test_openstack_without_flavors_says_what_to_add():
    with pytest.raises(InputError, match=r"servers-details-resp.json: server 0 \(new-server-test\).*flavor list"):
        read_inventory([C.OPENSTACK / "servers-details-resp.json"])


def test_template_example():
    vms, hosts = C.EXAMPLES / "inventory-vms.csv", C.EXAMPLES / "inventory-hosts.csv"
    estate = read_inventory([vms, hosts])
    want = C.template_totals(vms)
    assert sized(estate) == (want.vms, want.vcpus, pytest.approx(want.ram_mib))
    assert len(estate.hosts) == 4 and estate.hosts[0].cores == 32
    assert estate.counts()["templates"] == 1


# --- bad files ----------------------------------------------------------------------------------
def _xlsx(path: Path, sheets: dict[str, list[list]]) -> Path:
    from tests.knowledge.rvtools_workbooks import write_openpyxl

    return write_openpyxl(path, sheets)


def test_wrong_tab_names_file_and_tab(tmp_path):
    p = _xlsx(tmp_path / "hosts-only.xlsx", {"Sheet1": [["VM", "CPUs"], ["a", 1]]})
    with pytest.raises(InputError, match=r"hosts-only.xlsx: no vInfo tab.*Sheet1"):
        read_inventory([p])


def test_missing_column_names_file_tab_and_column(tmp_path):
    p = _xlsx(tmp_path / "nocpu.xlsx", {"vInfo": [["VM", "Powerstate", "Memory"], ["a", "poweredOn", 1024]]})
    with pytest.raises(InputError, match=r"nocpu.xlsx: tab vInfo has no column 'CPUs'.*VM, Powerstate, Memory"):
        read_inventory([p])


def test_bad_cell_names_row_and_column(tmp_path):
    """A bad cell leaves its VM out with a warning naming file, tab, row and column (#34: not the
    whole estate refused); a file of nothing but bad rows is refused, naming them."""
    p = _xlsx(tmp_path / "bad.xlsx", {"vInfo": [["VM", "CPUs", "Memory"], ["a", 2, 1024], ["b", "two", 1024]]})
    estate = read_inventory([p])
    assert [v.name for v in estate.vms] == ["a"] and estate.left_out == 1
    assert any(re.search(r"bad.xlsx: tab vInfo, row 3, column 'CPUs': 'two' is not a number", w) for w in estate.warnings)
    p = _xlsx(tmp_path / "worse.xlsx", {"vInfo": [["VM", "CPUs", "Memory"], ["b", "two", 1024]]})
    with pytest.raises(InputError, match=r"no VMs and no hosts found that could be imported.*row 2, column 'CPUs'"):
        read_inventory([p])


def test_truncated_workbook(tmp_path):
    data = C.rvtools("rvtools-small.xlsx").read_bytes()
    p = tmp_path / "cut.xlsx"
    p.write_bytes(data[: len(data) // 2])
    with pytest.raises(InputError, match=r"cut.xlsx: not a readable .xlsx workbook"):
        read_inventory([p])


def test_csv_missing_column(tmp_path):
    p = tmp_path / "RVTools_tabvInfo.csv"
    p.write_text("VM,Powerstate,Memory\nweb,poweredOn,2048\n")
    with pytest.raises(InputError, match=r"RVTools_tabvInfo.csv: tab vInfo has no column 'CPUs'"):
        read_inventory([p])


def test_binary_junk(tmp_path):
    p = tmp_path / "junk.bin"
    p.write_bytes(bytes(range(256)) * 64)
    with pytest.raises(InputError, match=r"junk.bin: binary data"):
        read_inventory([p])


def test_random_bytes_without_nul(tmp_path):
    import random

    rnd = random.Random(4)
    p = tmp_path / "noise.csv"
    p.write_bytes(bytes(rnd.choice(range(1, 256)) for _ in range(5000)))
    with pytest.raises(InputError, match=r"noise.csv: "):
        read_inventory([p])


BOMB = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<domain type='kvm'><name>&lol4;</name><memory>1024</memory><vcpu>1</vcpu></domain>
"""

XXE = """<?xml version="1.0"?>
<!DOCTYPE domain [ <!ENTITY secret SYSTEM "file:///etc/passwd"> ]>
<domain type='kvm'><name>&secret;</name><memory>1024</memory><vcpu>1</vcpu></domain>
"""


@pytest.mark.parametrize("text", [BOMB, XXE], ids=["billion-laughs", "external-entity"])
def test_xml_bombs_and_external_entities_refused(tmp_path, text):
    p = tmp_path / "domain.xml"
    p.write_text(text)
    with pytest.raises(InputError, match=r"domain.xml: refused"):
        read_inventory([p])


def test_workbook_with_a_dtd_is_refused(tmp_path):
    p = _xlsx(tmp_path / "ok.xlsx", {"vInfo": [["VM", "CPUs", "Memory"], ["a", 1, 1024]]})
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(p) as src, zipfile.ZipFile(bomb, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == "xl/worksheets/sheet1.xml":
                decl, sep, rest = data.partition(b"?>")
                data = (decl + sep if sep else b"") + b'<!DOCTYPE x [<!ENTITY a "aaaa">]>' + (rest if sep else data)
            dst.writestr(item, data)
    with pytest.raises(InputError, match=r"bomb.xlsx.*refused"):
        read_inventory([bomb])


@pytest.mark.parametrize("body,match", [
    ("<domain type='kvm'><memory>1</memory><vcpu>1</vcpu></domain>", r"element <domain> has no <name>"),
    ("<domain type='kvm'><name>a</name><vcpu>1</vcpu></domain>", r"domain a: element <memory> is missing"),
    ("<domain type='kvm'><name>a</name><memory unit='parsec'>1</memory><vcpu>1</vcpu></domain>",
     r"element <memory>: unknown unit 'parsec'"),
    ("<domain type='kvm'><name>a</name><memory>1</memory><vcpu>many</vcpu></domain>",
     r"element <vcpu>: 'many' is not a vCPU count"),
    ("<domain type='kvm'><name>a</name><memory>1", r"broken XML at line 1"),
    ("<network><name>default</name></network>", r"XML, but not a libvirt <domain>"),
])
def test_domain_xml_problems_name_the_element(tmp_path, body, match):
    p = tmp_path / "dom.xml"
    p.write_text(body)
    with pytest.raises(InputError, match=r"dom.xml: .*" + match):
        read_inventory([p])


@pytest.mark.parametrize("text,match", [
    ('[{"type": "qemu", "vmid": 100, "name": "a", "maxcpu": "x"}]', r"entry 0 \(qemu 'a'\).*'maxcpu': 'x' is not"),
    ('{"data": [1, 2', r"invalid JSON at line 1"),
    ('{"hello": "world"}', r"JSON, but neither"),
    ("", r"the file is empty"),
    ("name,vcpus,ram_gib\nweb,two,4\n", r"line 2, column vcpus: 'two' is not a number"),
])
def test_json_and_csv_problems(tmp_path, text, match):
    p = tmp_path / "input.json"
    p.write_text(text)
    with pytest.raises(InputError, match=r"input.json: .*" + match):
        read_inventory([p])


def test_old_excel_and_missing_file(tmp_path):
    p = tmp_path / "old.xls"
    p.write_bytes(b"\xd0\xcf\x11\xe0" + b"\0" * 100)
    with pytest.raises(InputError, match=r"old.xls: an old binary Excel"):
        detect(p)
    with pytest.raises(InputError, match=r"nothere.xlsx: no such file"):
        read_inventory([tmp_path / "nothere.xlsx"])


def test_cancel_stops_the_read():
    class Stop(Exception):
        pass

    class Token:
        def raise_if_cancelled(self):
            raise Stop()

    with pytest.raises(Stop):
        read_inventory([C.rvtools("rvtools-4x.xlsx")], cancel=Token())


def test_progress_reaches_one():
    seen = []
    read_inventory([C.rvtools("rvtools-small.xlsx")], progress=lambda f, m: seen.append((f, m)))
    assert seen[-1][0] == 1.0 and all(0 <= f <= 1 for f, _ in seen)


def test_fixtures_are_the_recorded_bytes():
    """Every file in SOURCES.md has the bytes recorded there: the git blob id of a committed copy, the
    sha256 of a file obtained via the stored index; a fetched snapshot is not committed (it is checked
    when present in local/)."""
    import hashlib
    import re
    import subprocess

    rows = C.source_rows()
    assert len(rows) >= 17
    tracked = subprocess.run(["git", "-C", str(C.ROOT), "ls-files", str(C.FIX)], capture_output=True, text=True)
    for name, cells in rows.items():
        kept_out = any(c.startswith("fetched snapshot") for c in cells)
        if kept_out:
            assert tracked.returncode or name not in tracked.stdout, f"{name} is committed"
            if where.find(name, C.LOCAL):
                C.kept_out(name)  # asserts its sha256
            continue
        path = next(p for p in C.FIX.rglob(name) if "local" not in p.parts)
        data = path.read_bytes()
        blob = cells[-1] if re.fullmatch(r"[0-9a-f]{40}", cells[-1]) else None  # libvirt: | file | path | commit | blob |
        sha = cells[-1] if re.fullmatch(r"[0-9a-f]{64}", cells[-1]) else None
        assert sha or blob, name
        if sha:
            assert hashlib.sha256(data).hexdigest() == sha, name
            assert re.search(r"via the stored index, file id \d+, commit [0-9a-f]{40}", " ".join(cells)), name
        if blob:
            assert hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() == blob, name
