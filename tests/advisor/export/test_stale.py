"""A second export into the same folder leaves no files of the first behind (its manifest says
which they were), and never removes anything the tool did not write."""

from __future__ import annotations

import copy
import json

import yaml

from advisor.export import export_to
from tests.advisor.examples import EXAMPLES


def test_a_re_export_removes_only_what_the_first_wrote(advice_of, tmp_path):
    first = advice_of(EXAMPLES / "scenario.yaml")
    data = copy.deepcopy(yaml.safe_load((EXAMPLES / "scenario.yaml").read_text()))
    data["workloads"] = [w for w in data["workloads"] if w["name"] in ("web", "rtfunc")]
    data["workloads"][0]["name"] = "frontend"
    second = advice_of(data)
    out = tmp_path / "out"
    export_to(first, ["libvirt", "xen"], out, check=False)
    assert (out / "libvirt/batch/domain.xml").is_file() and (out / "xen/cassandra.cfg").is_file()
    (out / "libvirt/cassandra/my-notes.txt").write_text("mine")
    (out / "libvirt/README-site.md").write_text("mine too")
    (out / "elsewhere.txt").write_text("not the tool's")
    export_to(second, ["libvirt", "xen"], out, check=False)
    for target in ("libvirt", "xen"):
        manifest = json.loads((out / target / "export-manifest.json").read_text())
        tool_files = {str(p.relative_to(out)) for p in (out / target).rglob("*") if p.is_file()}
        tool_files -= {"libvirt/cassandra/my-notes.txt", "libvirt/README-site.md"}
        assert tool_files == {*manifest["files"], f"{target}/export-manifest.json"}
    assert not (out / "libvirt/batch").exists(), "an emptied folder of the first export is gone"
    assert not (out / "libvirt/web").exists() and (out / "libvirt/frontend/domain.xml").is_file()
    assert (out / "libvirt/cassandra/my-notes.txt").read_text() == "mine"
    assert not (out / "libvirt/cassandra/domain.xml").exists()
    assert (out / "libvirt/README-site.md").is_file() and (out / "elsewhere.txt").is_file()
    assert not (out / "xen/cassandra.cfg").exists() and (out / "xen/frontend.cfg").is_file()


def test_a_hostile_manifest_removes_nothing_outside(advice_of, tmp_path):
    out = tmp_path / "out"
    (out / "libvirt").mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    (out / "keep.txt").write_text("keep")
    (out / "libvirt/export-manifest.json").write_text(json.dumps(
        {"files": ["../victim.txt", str(victim), "keep.txt", "libvirt/../keep.txt", "xen/x.cfg"]}))
    export_to(advice_of(EXAMPLES / "small-lab.json"), ["libvirt"], out, check=False)
    assert victim.read_text() == "keep" and (out / "keep.txt").read_text() == "keep"
