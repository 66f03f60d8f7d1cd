"""The what-if's cost is the engine's cost: at the scenario's own values the what-if worker's bill
and the bill of the hosts planned equal the main advice's (closing note of round 3: the what-if
priced its power without the engine's context, by the old busy-core count, so on the example's
2.1 GHz hosts its power, and so its total, differed from the main card's for the same scenario)."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.engine import advise
from advisor.scenario import read_scenario_data
from knowledge.costs import load_catalogue
from knowledge.store import KnowledgeBase
from ui.whatif_state import advise_data, planned_cost, planned_hosts

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "scenario.yaml"
CATALOGUE = ROOT / "resources" / "examples" / "costs-example.yaml"


@pytest.mark.timeout(300)
def test_the_what_if_cost_at_the_scenarios_own_values_is_the_main_cost(kb_file, tmp_path):
    cat = load_catalogue(CATALOGUE)
    data = read_scenario_data(EXAMPLE)
    with KnowledgeBase(kb_file) as kb:
        needed = int(advise(data, kb=kb).find("host_count").value)
        data["hosts"]["count"] = needed  # the hosts planned are the hosts needed: one bill for both
        main = advise(data, kb=kb, catalogue=cat)
        what = advise_data(data, kb, None, tmp_path / "user.sqlite", catalogue=cat)
        assert planned_hosts(main) == int(main.find("host_count").value) == needed
        power = [line.opex_per_year for line in main.cost.lines if line.category == "power"]
        assert power and power[0] > 0  # the example's host model states idle_w: power follows the CPU load
        for bill in (what.cost, planned_cost(main, cat, kb)):
            assert bill.lines == main.cost.lines  # the power line too
            assert (bill.capex, bill.opex_per_year, bill.total) == (main.cost.capex, main.cost.opex_per_year,
                                                                      main.cost.total)
