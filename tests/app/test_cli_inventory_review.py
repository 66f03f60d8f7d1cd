"""`capadvisor inventory` after review 1 (items 13 and 15): the JSON document has the keys its
help names; merge notes are printed with their file, not under "hosts:"; counts say what they
count; a rewritten scenario keeps its mode, settings stay private."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest

from app.cli import build_parser, main
from tests.app import test_cli_kb

kb_path = test_cli_kb.kb_path  # fixture: the compiled knowledge base

ROOT = Path(__file__).resolve().parents[2]
LIBVIRT = ROOT / "tests" / "fixtures" / "inventory" / "libvirt"
EXAMPLES = ROOT / "resources" / "examples"


def _help(parser, command: str) -> str:
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return sub.choices[command].format_help()


def test_json_document_has_the_keys_its_help_names(tmp_path, capsys):
    text = " ".join(_help(build_parser(), "inventory").split())
    named = re.search(r"one JSON document on stdout with the keys (.*?) and, with -o, (\w+)", text)
    assert named, text
    keys = {k.strip() for k in named.group(1).split(",")} | {named.group(2)}
    code = main(["inventory", str(EXAMPLES / "inventory-vms.csv"), "--no-advise", "--format", "json",
                 "-o", str(tmp_path / "s.yaml")])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == keys


def test_merge_notes_stay_with_their_file_and_counts_say_what_they_count(tmp_path, capsys):
    files = [str(p) for p in sorted(LIBVIRT.glob("*.xml"))]
    assert main(["inventory", *files, "--no-advise", "-o", str(tmp_path / "s.yaml")]) == 0
    out = capsys.readouterr().out
    hosts_lines = [x for x in out.splitlines() if x.strip().startswith("hosts:")]
    assert hosts_lines and not any("also described" in x for x in hosts_lines), hosts_lines
    assert any(x.strip().startswith("note: QEMUGuest1: also described by") and "vCPUs differ" in x
               for x in out.splitlines())
    assert "disk cache modes (per virtual disk):" in out and "VMs with pinned vCPUs: 1" in out
    assert re.search(r"cache [a-z]+ \(\d+ disks?\), ", out) or re.search(r"cache [a-z]+ \(\d+ disks?\)", out)


def test_a_rewritten_scenario_keeps_the_mode_its_owner_gave_it(tmp_path):
    """New files the CLI writes are owner-only (issue 19 point 11: app/cli.py sets umask 077); a
    scenario its owner made readable to hand it over stays so when the import rewrites it (the
    atomic write used to replace it with a fresh 0600 file)."""
    old = os.umask(0o022)
    try:
        out = tmp_path / "estate.yaml"
        assert main(["inventory", str(EXAMPLES / "inventory-vms.csv"), "--no-advise", "-o", str(out)]) == 0
        assert stat.S_IMODE(out.stat().st_mode) & 0o077 == 0
        os.chmod(out, 0o644)
        assert main(["inventory", str(EXAMPLES / "inventory-vms.csv"), "--no-advise", "-o", str(out)]) == 0
        assert stat.S_IMODE(out.stat().st_mode) == 0o644
    finally:
        os.umask(old)


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600)])
def test_atomic_writes_follow_the_umask_unless_private(tmp_path, umask, mode):
    from knowledge.infra.atomic import write_text_atomic

    old = os.umask(umask)
    try:
        write_text_atomic(tmp_path / "a.txt", "x")
        write_text_atomic(tmp_path / "b.txt", "x", private=True)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.txt").stat().st_mode) == mode
    assert stat.S_IMODE((tmp_path / "b.txt").stat().st_mode) == 0o600


def test_settings_stay_private(tmp_path):
    from app import settings

    old = os.umask(0o022)
    try:
        path = settings.save(settings.Settings(), tmp_path / "settings.json")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_sized_on_names_each_basis_with_its_group_count_when_groups_differ():
    """review-inv: an estate of Live Optics groups (peaks) and Nutanix groups (p95) was described with the
    first group's basis only; each basis is named with how many groups are sized on it."""
    from advisor.inventory.writing import measured_basis
    from app.commands.inventory import _sized_on

    peak = {"cpu_busy_percentiles": {"peak": 0.4}, "measured": ["cpu_busy_share"]}
    p95 = {"cpu_busy_percentiles": {"p50": 0.1, "p95": 0.3, "peak": 0.5}, "measured": ["cpu_busy_share"]}
    scenario = {"workloads": [peak, dict(peak), p95], "preferences": {"sizing_percentile": 95}, "estate": {}}
    a, b = measured_basis(scenario, peak), measured_basis(scenario, p95)
    assert a != b
    assert _sized_on(scenario, {}) == f"; sized on {a} (2 groups), and on {b} (1 group)"
    one = {"workloads": [peak, dict(peak)], "estate": {}}
    assert _sized_on(one, {}) == f"; sized on {measured_basis(one, peak)}"
