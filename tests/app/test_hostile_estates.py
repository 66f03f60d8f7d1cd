"""Issue #34, points 1, 2, 7 and 8: hostile and unlucky estate files, each fed to ``capadvisor
inventory`` in a child process under a 2 GiB address-space limit and a timeout (tests/hostile.py).

Every case ends either refused (exit 2, a message naming the file and what is wrong) or imported
with the VMs that cannot be planned left out, each named in a warning (file, row, field); never
a traceback, never unbounded time or memory. The workbooks are written here byte by byte (the
shapes RVTools writes, tests/knowledge/rvtools_workbooks.py) and then damaged."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from tests.hostile import run_capped
from tests.knowledge.rvtools_workbooks import write_sdk_style

pytestmark = pytest.mark.timeout(600)

HEADER = ["VM", "Powerstate", "CPUs", "Memory", "Provisioned MiB"]
GOOD = ["good-01", "poweredOn", 2, 4096, 20480]


def _xlsx(path: Path, rows: list[list], patch=None) -> Path:
    write_sdk_style(path, {"vInfo": rows})
    if patch is not None:
        _rewrite(path, "xl/worksheets/sheet1.xml", patch)
    return path


def _rewrite(path: Path, member: str, patch) -> None:
    with zipfile.ZipFile(path) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    parts[member] = patch(parts[member])
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            z.writestr(name, data)


def _corrupt_deflate(path: Path) -> None:
    """Flip bytes in the middle of the sheet's compressed data (the zip directory stays intact)."""
    with zipfile.ZipFile(path) as z:
        info = z.getinfo("xl/worksheets/sheet1.xml")
    data = bytearray(path.read_bytes())
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for k in range(start + info.compress_size // 3, start + info.compress_size // 3 + 40):
        data[k] ^= 0x5A
    path.write_bytes(bytes(data))


def _shared_bomb(path: Path) -> Path:
    _xlsx(path, [HEADER, GOOD])
    with zipfile.ZipFile(path) as z:
        parts = {i.filename: z.read(i) for i in z.infolist()}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in parts.items():
            if not name.endswith("sharedStrings.xml"):
                z.writestr(name, data)
        with z.open("xl/sharedStrings.xml", "w", force_zip64=True) as fh:
            fh.write(parts["xl/sharedStrings.xml"][:-len(b"</x:sst>")])
            chunk = b"<x:si><x:t>" + b"a" * (1 << 20) + b"</x:t></x:si>"
            for _ in range(40):
                fh.write(chunk)
            fh.write(b"</x:sst>")
    return path


def _csv(path: Path, rows: list[list]) -> Path:
    path.write_text("\n".join(",".join(str(c) for c in r) for r in rows) + "\n")
    return path


def _domain(name: str, memory: str, unit: str = "KiB", vcpus: str = "2") -> str:
    return (f"<domain type='kvm'><name>{name}</name><memory unit='{unit}'>{memory}</memory><vcpu>{vcpus}</vcpu>"
            "<devices><disk type='file' device='disk'><driver name='qemu' cache='none'/>"
            "<target dev='vda'/></disk></devices></domain>\n")


def _files(tmp: Path, case: str) -> list[Path]:  # noqa: C901 - one table of cases
    x = tmp / "estate.xlsx"
    if case == "xlsx-column-zzzzzzzzzz":
        return [_xlsx(x, [HEADER, GOOD], lambda b: b.replace(b'r="A1"', b'r="ZZZZZZZZZZ1"', 1))]
    if case == "xlsx-row-two":
        return [_xlsx(x, [HEADER, GOOD], lambda b: b.replace(b'<x:row r="2">', b'<x:row r="two">'))]
    if case == "xlsx-corrupt-deflate":
        _xlsx(x, [HEADER] + [[f"vm-{i:05d}", "poweredOn", 2, 4096, 20480] for i in range(3000)])
        _corrupt_deflate(x)
        return [x]
    if case == "xlsx-shared-strings-bomb":
        return [_shared_bomb(x)]
    if case == "xlsx-nan-inf-1e309":
        return [_xlsx(x, [HEADER, GOOD, ["nan-cpus", "poweredOn", "nan", 4096, 1], ["inf-mem", "poweredOn", 2,
                                                                                     float("inf"), 1],
                          ["huge-disk", "poweredOn", 2, 4096, "1e309"]])]
    if case == "xlsx-260000-rows":
        rows = [HEADER] + [[f"v{i}", "poweredOn", 2, 4096, 20480] for i in range(260_000)]
        return [_xlsx(x, rows)]
    c = tmp / "RVTools_tabvInfo.csv"
    if case == "csv-field-200000":
        return [_csv(c, [HEADER, GOOD, ["x" * 200_000, "poweredOn", 2, 4096, 1]])]
    if case == "csv-nan-inf-1e309":
        return [_csv(c, [HEADER, GOOD, ["a", "poweredOn", "nan", 4096, 1], ["b", "poweredOn", 2, "inf", 1],
                         ["c", "poweredOn", 2, 4096, "1e309"], ["d", "poweredOn", "9" * 400, 4096, 1]])]
    if case == "csv-long-name-tiny-disk-zero-memory":
        return [_csv(c, [HEADER, GOOD, ["n" * 5000, "poweredOn", 2, 4096, 1], ["tiny", "poweredOn", 2, 4096, 1],
                         ["zero", "poweredOn", 2, 0, 1]])]
    if case == "csv-1000000-rows":
        c.write_text(",".join(HEADER) + "\n" + "".join(f"v{i},poweredOn,2,4096,1\n" for i in range(1_000_000)))
        return [c]
    if case == "libvirt-memory":
        out = []
        for i, (mem, unit) in enumerate([("4194304", "KiB"), ("nan", "KiB"), ("1e309", "KiB"), ("1", "P"),
                                         ("1", "E"), ("9" * 400, "KiB"), ("0", "KiB")]):
            p = tmp / f"dom{i}.xml"
            p.write_text(_domain(f"dom{i}", mem, unit))
            out.append(p)
        return out
    if case == "libvirt-20mb-attribute":
        p = tmp / "big.xml"
        p.write_text("<domain type='kvm' x='" + "a" * (20 << 20) + "'><name>a</name></domain>")
        return [p]
    if case == "virsh-400-digit-max-memory":
        p = tmp / "dominfo.txt"
        p.write_text(f"Id:             1\nName:           good\nCPU(s):         2\nMax memory:     4194304 KiB\n"
                     f"State:          running\n\nId:             2\nName:           bad\nCPU(s):         2\n"
                     f"Max memory:     {'9' * 400} KiB\nState:          running\n")
        return [p]
    if case == "virsh-nodeinfo-nan":
        p = tmp / "node.txt"
        p.write_text("CPU model:           x86_64\nCPU(s):              nan\nMemory size:         1 KiB\n\n"
                     "Id:             1\nName:           good\nCPU(s):         2\nMax memory:     4194304 KiB\n"
                     "State:          running\n")
        return [p]
    if case == "virsh-nodeinfo-alone":
        p = tmp / "node.txt"
        p.write_text("CPU model:           x86_64\nCPU(s):              32\nCPU frequency:       2400 MHz\n"
                     "CPU socket(s):        1\nCore(s) per socket:  8\nThread(s) per core:  2\nNUMA cell(s):        2\n"
                     "Memory size:         263855132 KiB\n")
        return [p]
    return _json_files(tmp, case)


def _json_files(tmp: Path, case: str) -> list[Path]:
    j = tmp / "resources.json"
    vm = {"type": "qemu", "vmid": 100, "name": "good", "maxcpu": 2, "maxmem": 4 << 30, "maxdisk": 20 << 30,
          "status": "running", "node": "pve1"}
    if case == "proxmox-nan-inf":
        j.write_text(json.dumps([vm, {**vm, "vmid": 101, "name": "a", "maxcpu": "nan"},
                                 {**vm, "vmid": 102, "name": "b", "maxmem": "inf"},
                                 {**vm, "vmid": 103, "name": "c", "maxdisk": "1e309"},
                                 {**vm, "vmid": 104, "name": "d", "maxmem": 10**400}]))
        return [j]
    if case == "proxmox-nan-literal":
        j.write_text('[{"type": "qemu", "vmid": 1, "name": "a", "maxcpu": NaN, "maxmem": 1}]')
        return [j]
    if case == "proxmox-not-objects":
        j.write_text(json.dumps({"data": [1, "x", vm]}))
        return [j]
    if case == "json-100000-deep":
        j.write_text("[" * 100_000 + "]" * 100_000)
        return [j]
    if case == "proxmox-1000000-vms":
        with open(j, "w") as fh:
            fh.write("[" + ",".join(json.dumps({**vm, "vmid": i, "name": f"v{i}"}) for i in range(1_000_000)) + "]")
        return [j]
    if case == "openstack-hypervisor-nan":
        server = {"ID": "1", "Name": "good", "Status": "ACTIVE", "Flavor": {"vcpus": 2, "ram": 4096, "disk": 20}}
        j.write_text(json.dumps({"servers": [server]}))
        h = tmp / "hypervisors.json"
        h.write_text(json.dumps({"hypervisors": [{"hypervisor_hostname": "cn1", "vcpus": "nan", "memory_mb": 1024},
                                                 "x", {"hypervisor_hostname": "cn2", "vcpus": 32,
                                                       "memory_mb": 262144}]}))
        return [j, h]
    if case == "openstack-nan-and-not-objects":
        server = {"ID": "1", "Name": "good", "Status": "ACTIVE", "Flavor": {"vcpus": 2, "ram": 4096, "disk": 20}}
        j.write_text(json.dumps({"servers": [server, 7, {**server, "ID": "2", "Name": "bad",
                                                         "Flavor": {"vcpus": "nan", "ram": 1e300, "disk": 1}}]}))
        return [j]
    raise KeyError(case)


#: case -> ("refused", what the message says) or ("left out", VMs imported, what a warning says)
CASES = {
    "xlsx-column-zzzzzzzzzz": ("refused", r"estate.xlsx: tab vInfo: refused, cell 'ZZZZZZZZZZ1' lies beyond the last column"),
    "xlsx-row-two": ("refused", r"estate.xlsx: tab vInfo: refused, row number 'two'"),
    "xlsx-corrupt-deflate": ("refused", r"estate.xlsx: .*(damaged|not a readable|broken XML)"),
    "xlsx-shared-strings-bomb": ("refused", r"estate.xlsx: part xl/sharedStrings.xml unpacks to 40 MiB"),
    "xlsx-nan-inf-1e309": ("left out", 1, r"row 3, column 'CPUs': nan is not a finite number \(VM 'nan-cpus'\)"),
    "xlsx-260000-rows": ("refused", r"estate.xlsx: tab vInfo: refused, more than 250,000 rows"),
    "csv-field-200000": ("refused", r"RVTools_tabvInfo.csv: line 3: not a readable CSV row"),
    "csv-nan-inf-1e309": ("left out", 1, r"row 6, column 'CPUs': '9999.*is not a number \(VM 'd'\)"),
    "csv-long-name-tiny-disk-zero-memory": ("left out", 2, r"row 3, column 'VM': VM 'nnnn.*5,000 characters"),  # 'zero' too
    "csv-1000000-rows": ("refused", r"RVTools_tabvInfo.csv: more than 250,000 rows"),
    "libvirt-memory": ("left out", 2, r"dom1.xml: element <memory>: 'nan'.*|dom4.xml, dominfo|dom4.xml: VM 'dom4'"),
    "libvirt-20mb-attribute": ("refused", r"big.xml: 20 MiB of XML is more than the 16 MiB"),
    "virsh-400-digit-max-memory": ("left out", 1, r"dominfo.txt: dominfo of bad \(line 10\): Max memory: "),
    "virsh-nodeinfo-nan": ("left out", 1, r"node.txt: nodeinfo \(line 2\): 'CPU\(s\): nan' is not a number"),
    "openstack-hypervisor-nan": ("left out", 1, r"hypervisor 0 \(cn1\), field vcpus: nan is not a finite number"),
    "virsh-nodeinfo-alone": ("refused", r"no VMs to plan: node.txt describe only 1 host\(s\) and no VM"),
    "proxmox-nan-inf": ("left out", 1, r"entry 1 \(qemu 'a'\), field 'maxcpu': nan is not a finite number"),
    "proxmox-nan-literal": ("refused", r"resources.json: invalid JSON: NaN is not a number JSON allows"),
    "proxmox-not-objects": ("refused", r"resources.json: JSON, but neither a Proxmox"),
    "json-100000-deep": ("refused", r"resources.json: invalid JSON: nested too deeply"),
    "proxmox-1000000-vms": ("refused", r"resources.json: [\d.]+ MiB (of JSON )?is (more|larger) than"),
    "openstack-nan-and-not-objects": ("left out", 1, r"server 1: not a JSON object"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_estate_file(tmp_path, case):
    files = _files(tmp_path, case)
    out = tmp_path / "scenario.yaml"
    r = run_capped("inventory", *files, "--no-advise", "-o", out, timeout=240)
    assert not r.traceback, r.err[-3000:]
    expect = CASES[case]
    if expect[0] == "refused":
        assert r.code == 2 and re.search(expect[1], r.err), r.err[-1500:]
        assert not out.exists()
        return
    text = r.out + r.err  # with -o the summary goes to stdout
    assert r.code == 0 and out.is_file(), text[-1500:]
    imported = re.search(r"Imported: (\d+) VMs", text)
    assert imported and int(imported.group(1)) == expect[1], text[-1500:]
    assert re.search(r"warning: left out: .*(" + expect[2] + ")", text), text[-1500:]
