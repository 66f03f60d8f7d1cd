"""Issue #34, points 3, 4 and 8: the libvirt XML stays well-formed whatever the names hold (``---``,
``--->``, control characters), the export's own instructions are written as they are, nothing is
written or deleted through a symbolic link inside the output folder (export-config and bench-plan
alike), and a write that fails part-way (a full disk) leaves the earlier export as it was."""

from __future__ import annotations

import errno
import json
import os

import defusedxml.ElementTree as ET
import pytest

from advisor.benchplan import make_plan
from advisor.export import confined, export_config, export_to
from knowledge.infra.errors import InputError, UserFacingError
from tests.advisor.examples import EXAMPLES

pytestmark = pytest.mark.timeout(300)


def _scenario(name: str, workload: str) -> dict:
    sc = json.loads((EXAMPLES / "small-lab.json").read_text())
    sc["name"] = name
    sc["workloads"][0]["name"] = workload
    return sc


@pytest.mark.parametrize("name, workload", [
    ("plain", "web---prod"),
    ("x ---> <evil/> <!-- y", "db--->"),
    ("tab\tand \ufffe end-", "w-"),
])
def test_every_xml_file_is_well_formed_and_names_stay_comments(advice_of, name, workload):
    ex = export_config(advice_of(_scenario(name, workload)), "libvirt")
    xml = {rel: text for rel, text in ex.files.items() if rel.endswith(".xml")}
    assert xml
    for rel, text in xml.items():
        root = ET.fromstring(text)  # ill-formed (a "--" in a comment, live markup) raises
        assert root.find(".//evil") is None and "evil" not in {el.tag for el in root.iter()}, rel
        for comment in text.split("<!--")[1:]:
            assert "--" not in comment.split("-->")[0], (rel, comment)


def test_the_instructions_are_not_mangled(advice_of):
    ex = export_config(advice_of(EXAMPLES / "small-lab.json"), "libvirt")
    text = "\n".join(ex.files.values())
    assert "- -config" not in text and "attach-device - -" not in text
    assert "virsh attach-device VM libvirt/<group>/disk.xml --config" in ex.files["libvirt/README.md"]


def test_no_write_or_delete_through_a_linked_folder(advice_of, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "domain.xml"
    victim.write_text("the user's own file")
    out = tmp_path / "out"
    (out / "libvirt").mkdir(parents=True)
    (out / "libvirt/ci-runners").symlink_to(outside, target_is_directory=True)
    (out / "libvirt/export-manifest.json").write_text(json.dumps({"files": ["libvirt/ci-runners/domain.xml"]}))
    with pytest.raises(InputError, match="symbolic link"):
        export_to(advice_of(EXAMPLES / "small-lab.json"), ["libvirt"], out, check=False)
    assert victim.read_text() == "the user's own file" and sorted(p.name for p in outside.iterdir()) == ["domain.xml"]
    assert not [p for p in out.iterdir() if p.name.startswith(".capadvisor")]


def test_a_planted_listing_deletes_nothing_through_a_link(tmp_path):
    outside = tmp_path / "outside"
    (outside / "x").mkdir(parents=True)
    victim = outside / "x" / "victim.fio"
    victim.write_text("keep")
    out = tmp_path / "out"
    out.mkdir()
    (out / "jobs").symlink_to(outside, target_is_directory=True)
    removed = confined.remove_stale(out, ["jobs/x/victim.fio", "../outside/x/victim.fio"], [], under="")
    assert removed == [] and victim.read_text() == "keep"


def test_bench_plan_does_not_delete_through_a_linked_jobs_folder(advice_of, session_kb, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "old.fio"
    victim.write_text("keep")
    out = tmp_path / "plan"
    out.mkdir()
    (out / "jobs").symlink_to(outside, target_is_directory=True)
    (out / "plan.json").write_text(json.dumps({"files": ["jobs/old.fio"]}))
    plan = make_plan(advice_of(EXAMPLES / "small-lab.json"), kb=session_kb, site="lab")
    with pytest.raises(InputError, match="symbolic link"):
        plan.write(out)
    assert victim.read_text() == "keep" and [p.name for p in outside.iterdir()] == ["old.fio"]


def test_a_full_disk_leaves_the_earlier_export_whole(advice_of, tmp_path, monkeypatch):
    out = tmp_path / "out"
    export_to(advice_of(EXAMPLES / "small-lab.json"), ["libvirt"], out, check=False)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    calls = {"n": 0}
    real_fsync = os.fsync

    def full(fd):
        calls["n"] += 1
        if calls["n"] > 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(confined.os, "fsync", full)
    with pytest.raises(UserFacingError, match="No space left") as info:
        export_to(advice_of(EXAMPLES / "scenario.yaml"), ["libvirt"], out, check=False)
    assert info.value.exit_code == 1 and "nothing was changed" in str(info.value)
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before  # byte for byte, manifest included; no temporary folder left
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


def test_output_on_a_dangling_link_is_named(advice_of, tmp_path):
    link = tmp_path / "out"
    link.symlink_to(tmp_path / "gone")
    with pytest.raises(InputError, match="does not exist"):
        export_to(advice_of(EXAMPLES / "small-lab.json"), ["libvirt"], link, check=False)
