"""`capadvisor export-config` through the real CLI entry point: files under -o DIR, --check,
stdout formats, and clear errors for bad input."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from app.cli import main
from tests.app import test_cli_kb

kb_path = test_cli_kb.kb_path  # fixture: the compiled knowledge base

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"


@pytest.fixture()
def run(capsys, kb_path):
    def _run(*args):
        code = main(["export-config", "--kb", str(kb_path), *args])
        out = capsys.readouterr()
        return code, out.out, out.err
    return _run


def test_all_targets_written_and_checked(run, tmp_path):
    code, _, err = run(str(EXAMPLES / "scenario.yaml"), "--target", "all", "-o", str(tmp_path), "--check")
    assert code == 0, err
    assert "check failed" not in err and "not checked" not in err
    for target in ("libvirt", "xen", "proxmox", "openstack"):
        manifest = json.loads((tmp_path / target / "export-manifest.json").read_text())
        assert manifest["target"] == target and manifest["values"]
        assert all((tmp_path / f).is_file() for f in manifest["files"])
    assert "<period>13291</period>" in (tmp_path / "libvirt/rtfunc/rtfunc-02.domain.xml").read_text()
    assert "xl sched-rtds -d rtfunc-01 -v all -p 13291 -b 9818" in (tmp_path / "xen/rtds.sh").read_text()
    script = tmp_path / "proxmox/create-vms.sh"
    assert os.stat(script).st_mode & stat.S_IXUSR
    assert "cpu_allocation_ratio = 2.0" in (tmp_path / "openstack/nova-compute-none.conf").read_text()


def test_one_target_to_stdout_as_text_and_json(run):
    code, out, err = run(str(EXAMPLES / "small-lab.json"), "--target", "libvirt")
    assert code == 0, err
    assert "==> libvirt/ci-runners/domain.xml <==" in out and "cache=\"writeback\"" in out
    code, out, _ = run(str(EXAMPLES / "small-lab.json"), "--target", "xen", "--format", "json")
    data = json.loads(out)
    assert data[0]["manifest"]["target"] == "xen" and "xen/wiki.cfg" in data[0]["files"]


def test_the_check_fails_with_exit_status_1_on_a_broken_file(run, monkeypatch, tmp_path):
    from advisor.export import libvirt

    real = libvirt.cfs_limits
    monkeypatch.setattr(libvirt, "cfs_limits", lambda p, b: (10, 5) if p > 1000 else real(p, b))  # below libvirt's
    code, _, err = run(str(EXAMPLES / "scenario.yaml"), "--target", "libvirt", "--check", "-o", str(tmp_path))
    assert code == 1
    assert "check failed: libvirt/rtfunc/rtfunc-01.cputune.xml: virt-xml-validate" in err


def test_bad_input_names_the_problem(run, tmp_path):
    code, _, err = run(str(tmp_path / "missing.yaml"), "--target", "xen")
    assert code == 2 and "missing.yaml" in err
    with pytest.raises(SystemExit):
        run(str(EXAMPLES / "scenario.yaml"), "--target", "vmware")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run(str(EXAMPLES / "small-lab.json"), "--target", "xen", "-o", str(blocker / "out"))
    assert code == 1 and "is a file, not a folder" in err
