"""A room for more VMs whose constrained search stopped at its limit (``room.STEPS`` VMs more) is a
lower bound, and every place that states it says so: the host count's rationale ("for at least 128
more web VMs"), its figure in the JSON (``"at_least": true`` beside the unchanged keys), the Markdown
report and the workbook. Before, only a separate warning said "at least" and the sentence read "for
128 more web VMs". Real scenario file (review F2's s1), real CLI, real engine and knowledge base."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from advisor.recommend.room import STEPS
from app.cli import main
from tests.app import test_cli_kb

kb_path = test_cli_kb.kb_path  # fixture: the compiled knowledge base

SCENARIO = Path(__file__).resolve().parents[1] / "advisor" / "scenarios" / "room-at-least.yaml"
pytestmark = pytest.mark.timeout(300)


def _advise(capsys, kb_path, scenario: Path, *args: str) -> str:
    code = main(["advise", "--kb", str(kb_path), str(scenario), "--no-catalogue", *args])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def _card(capsys, kb_path, scenario: Path) -> dict:
    data = json.loads(_advise(capsys, kb_path, scenario, "--format", "json"))
    return next(r for r in data["recommendations"] if r["decision"] == "host_count")


def test_a_room_at_the_search_limit_says_at_least_in_its_sentence_figure_and_reports(capsys, kb_path, tmp_path):
    card = _card(capsys, kb_path, SCENARIO)
    active = int(card["expected"]["active_hosts"]["value"])
    web, db = card["expected"]["headroom_web"], card["expected"]["headroom_db"]
    assert (web["value"], web["low"], web["high"], web["unit"], web["workload"]) == (STEPS, STEPS, STEPS,
                                                                                     "more VMs", "web")
    assert web["at_least"] is True and "at_least" not in db  # db's room is exact (its anti-affinity bound)
    assert card["details"]["headroom_vms"]["web"] == STEPS
    assert (f"Still room on the {active} active hosts for at least {STEPS} more web VMs, "
            f"{int(db['value'])} more db VMs," in card["rationale"])
    assert any("web has room for at least the VMs given" in w for w in card["warnings"])

    # the lower bound holds: one VM more than the figure still places on the same active hosts
    sc = yaml.safe_load(SCENARIO.read_text())
    web_vms = next(w for w in sc["workloads"] if w["name"] == "web")
    web_vms["vms"] += STEPS + 1
    grown = tmp_path / "grown.yaml"
    grown.write_text(yaml.safe_dump(sc))
    assert int(_card(capsys, kb_path, grown)["expected"]["active_hosts"]["value"]) <= active

    md = _advise(capsys, kb_path, SCENARIO, "--format", "md")
    assert f"| headroom web | at least {STEPS} |" in md and f"| headroom db | {int(db['value'])} |" in md
    assert f"for at least {STEPS} more web VMs" in md

    import openpyxl

    book = tmp_path / "advice.xlsx"
    _advise(capsys, kb_path, SCENARIO, "--format", "xlsx", "-o", str(book))
    rows = list(openpyxl.load_workbook(book)["Decisions"].iter_rows(values_only=True))
    head = rows[0]
    named = {r[head.index("Figure")]: r[head.index("Value")] for r in rows[1:]}
    assert named["headroom web (at least)"] == STEPS and "headroom web" not in named
    assert named["headroom db"] == db["value"]
