"""`capadvisor inventory ...` on every fixture (the generated RVTools workbooks, the public exports,
and the real RVTools exports where they are present): the scenario it writes is accepted by
`capadvisor advise` and carries the source's VM, vCPU and RAM totals (computed independently
from the source files in tests/knowledge/inventory_cases.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.scenario import load_scenario
from app.cli import main
from tests.app import test_cli_kb
from tests.knowledge import inventory_cases as C

kb_path = test_cli_kb.kb_path  # fixture: the compiled knowledge base


def _proxmox_pvesh(tmp: Path) -> list[Path]:
    p = tmp / "pvesh-cluster-resources.json"
    p.write_text(json.dumps(C.proxmox_pvesh_items()))
    return [p]


def _proxmox_api(tmp: Path) -> list[Path]:
    p = tmp / "api-cluster-resources.json"
    p.write_text(C.proxmox_api_body())
    return [p]


L, OS = C.LIBVIRT, C.OPENSTACK
#: id -> (input files, independent totals)
CASES = {
    **{f"rvtools-{n}": ((lambda t, n=n: [C.rvtools(n)]), (lambda n=n: C.rvtools_xlsx_totals(C.rvtools(n))))
       for n in C.WORKBOOKS},
    **{f"rvtools-csv-{w}": ((lambda t, w=w: C.rvtools_csv_tabs(t, workbook=w)),
                            (lambda w=w: C.rvtools_xlsx_totals(C.rvtools(w))))
       for w in ("rvtools-4x.xlsx", "RVTOOLEX.xlsx")},
    **{f"rvtools-csv-prefixed-{w}": ((lambda t, w=w: C.rvtools_csv_tabs(t, prefixed=True, delimiter=";",
                                                                        thousands=True, workbook=w)),
                                     (lambda w=w: C.rvtools_xlsx_totals(C.rvtools(w))))
       for w in ("rvtools-4x.xlsx", "RVTOOLEX.xlsx")},
    **{f"libvirt-{n}": ((lambda t, n=n: [L / n]), (lambda n=n: C.domain_totals([L / n])))
       for n in ("disk-cache.xml", "cputune.xml", "cpu-hotplug-startup.xml", "disk-network-rbd.xml",
                 "testdomfv0.xml", "testdomfc4.xml", "testdomfc5.xml")},
    "virsh-list-nodeinfo": (lambda t: [L / "virsh-info-default.out"], lambda: C.virsh_totals(L / "virsh-info-default.out")),
    "virsh-list-dominfo": (lambda t: [L / "virsh-lifecycle.out"], lambda: C.virsh_totals(L / "virsh-lifecycle.out")),
    "proxmox-pvesh": (_proxmox_pvesh, lambda: C.proxmox_totals(C.proxmox_pvesh_items())),
    "proxmox-api": (_proxmox_api, lambda: C.proxmox_totals(json.loads(C.proxmox_api_body())["data"])),
    "openstack-servers-flavors": (lambda t: [OS / "servers-details-resp.json", OS / "flavors-detail-resp.json"],
                                  lambda: C.openstack_totals(OS / "servers-details-resp.json",
                                                             OS / "flavors-detail-resp.json")),
    "openstack-servers-flavors-hypervisors": (lambda t: [OS / "servers-details-resp.json", OS / "flavors-detail-resp.json",
                                                         OS / "v2.53-hypervisors-detail-resp.json"],
                                              lambda: C.openstack_totals(OS / "servers-details-resp.json",
                                                                         OS / "flavors-detail-resp.json")),
    "openstack-embedded-flavor": (lambda t: [OS / "v2.47-servers-details-resp.json"],
                                  lambda: C.openstack_totals(OS / "v2.47-servers-details-resp.json", None)),
    "template": (lambda t: [C.EXAMPLES / "inventory-vms.csv", C.EXAMPLES / "inventory-hosts.csv"],
                 lambda: C.template_totals(C.EXAMPLES / "inventory-vms.csv")),
}


@pytest.mark.parametrize("case", list(CASES))
def test_every_fixture_becomes_an_advisable_scenario_with_the_source_totals(case, tmp_path, capsys, kb_path):
    files, expected = CASES[case]
    out = tmp_path / "estate.yaml"
    code = main(["inventory", *map(str, files(tmp_path)), "-o", str(out), "--no-advise"])
    cap = capsys.readouterr()
    assert code == 0, cap.err
    assert "Found:" in cap.out and "wrote the scenario" in cap.err
    sc = load_scenario(out)
    want = expected()
    sized = [w for w in sc.workloads if "vcpus" not in (w.assumed or [])]
    assert sum(w.vms for w in sc.workloads) == want.vms
    assert sum(w.vms for w in sc.workloads) - sum(w.vms for w in sized) == want.unsized
    assert sum(w.vms * w.vcpus for w in sized) == want.vcpus
    assert sum(w.vms * w.ram_gib for w in sized) == pytest.approx(want.ram_mib / 1024, rel=1e-4)
    code = main(["advise", "--kb", str(kb_path), str(out), "--format", "json"])
    cap = capsys.readouterr()
    assert code == 0, cap.err
    advice = json.loads(cap.out)
    assert advice["recommendations"]
    if sc.estate["today"]:
        assert isinstance(advice.get("today"), list)


def test_text_summary_with_today_vs_advised(tmp_path, capsys, kb_path):
    code = main(["inventory", str(C.LIBVIRT / "disk-cache.xml"), str(C.LIBVIRT / "virsh-info-default.out"),
                 "--kb", str(kb_path), "-o", str(tmp_path / "s.yaml")])
    out = capsys.readouterr().out
    assert code == 0
    assert "Found: 2 VMs, 0 powered off, 0 templates, 1 hosts" in out
    assert "Assumed (not in the export; check them):" in out and "io.pattern" in out
    line = next(x for x in out.splitlines() if x.strip().startswith("cache mode ("))
    assert ("today writeback (1 disk), unsafe (1 disk), none (1 disk), writethrough (1 disk), directsync (1 disk); "
            "advised ") in line
    assert ", because " in line


def test_json_output_and_scenario_on_stdout(tmp_path, capsys, kb_path):
    code = main(["inventory", str(C.LIBVIRT / "cputune.xml"), "--kb", str(kb_path), "--format", "json",
                 "--group-by", "size"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["group_by"] == "size"
    assert doc["found"]["vms"] == 1 and doc["scenario"]["workloads"][0]["today"]["pinned_vms"] == 1
    over = next(r for r in doc["today_vs_advised"] if r["decision"] == "vcpu_overallocation")
    assert "pinned" in over["today"] and over["advised"]
    code = main(["inventory", str(C.LIBVIRT / "cputune.xml"), "--no-advise"])
    cap = capsys.readouterr()
    assert code == 0 and cap.out.startswith("# Capacity Advisor scenario imported") and "Found:" in cap.err


@pytest.mark.parametrize("body,match", [
    (b"\x00\x01\x02binary", "junk.txt: binary data"),
    (b"VM,Powerstate,Memory\nweb,poweredOn,2048\n", "tab vInfo has no column 'CPUs'"),
])
def test_bad_file_exit_2_with_the_file_named(tmp_path, capsys, body, match):
    p = tmp_path / ("junk.txt" if body.startswith(b"\x00") else "RVTools_tabvInfo.csv")
    p.write_bytes(body)
    code = main(["inventory", str(p), "--no-advise"])
    err = capsys.readouterr().err
    assert code == 2 and match in err and err.startswith("capadvisor: error: ")


def test_group_by_choices_are_the_interface(capsys):
    with pytest.raises(SystemExit):
        main(["inventory", "x.xlsx", "--group-by", "colour"])
    assert "choose from 'auto', 'size', 'name-prefix', 'cluster'" in capsys.readouterr().err


def test_advise_markdown_of_an_imported_estate_has_today_vs_advised(tmp_path, capsys, kb_path):
    out = tmp_path / "estate.yaml"
    assert main(["inventory", str(C.EXAMPLES / "inventory-vms.csv"), str(C.EXAMPLES / "inventory-hosts.csv"),
                 "--no-advise", "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["advise", "--kb", str(kb_path), str(out), "--format", "md"]) == 0
    md = capsys.readouterr().out
    section = md.split("## Today vs advised", 1)[1]
    assert "- cache mode (web): today writeback; advised " in section
    assert "- vcpu overallocation: today " in section and "2 VM(s) with pinned vCPUs" in section
