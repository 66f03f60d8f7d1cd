"""Issue #34, point 6: ``optimize`` estimates its space before searching it and refuses one past
:data:`advisor.optimize.search.MAX_CONFIGURATIONS` (it ran for minutes and ~1 GB without a word at
``--host-counts 1000`` or with a 300-host-model catalogue), and never starts more processes than
the machine has CPUs. The refusals run bounded (tests/hostile.py)."""

from __future__ import annotations

import os

import pytest
import yaml

from advisor.optimize import SpaceOptions, optimize
from advisor.scenario import load_scenario
from knowledge.costs import example_path, parse_catalogue
from tests.advisor.examples import EXAMPLES
from tests.app import test_cli_kb
from tests.hostile import run_capped

kb_path = test_cli_kb.kb_path  # fixture: the compiled knowledge base
pytestmark = pytest.mark.timeout(600)


def test_a_thousand_host_counts_are_refused_at_once(kb_path):
    r = run_capped("optimize", EXAMPLES / "small-lab.json", "--catalogue", example_path(), "--host-counts", "1000",
                   "--kb", kb_path, timeout=120)
    assert r.code == 2 and not r.traceback and "--host-counts must be from 1 to 100" in r.err, r.err[-800:]


def test_a_300_host_model_catalogue_is_refused_with_its_size(kb_path, tmp_path):
    data = yaml.safe_load(example_path().read_text(encoding="utf-8"))
    base = data["hosts"]
    data["hosts"] = [{**base[i % len(base)], "name": f"model-{i:03d}"} for i in range(300)]
    cat = tmp_path / "costs.yaml"
    cat.write_text(yaml.safe_dump(data), encoding="utf-8")
    r = run_capped("optimize", EXAMPLES / "small-lab.json", "--catalogue", cat, "--kb", kb_path, timeout=180)
    assert r.code == 2 and not r.traceback, r.err[-2000:]
    assert "the design space has about" in r.err and "300 host models" in r.err and "--host-models" in r.err, r.err


def test_workers_are_capped_by_the_cpu_count(kb_path):
    from knowledge.store import KnowledgeBase

    catalogue = parse_catalogue(yaml.safe_load(example_path().read_text(encoding="utf-8")))
    scenario = load_scenario(EXAMPLES / "small-lab.json")
    options = SpaceOptions(host_models=[h.name for h in catalogue.hosts], host_counts=1, levels=["little"])
    with KnowledgeBase.open(kb_path) as kb:
        result = optimize(scenario, catalogue, kb, options=options, workers=10_000)
    assert 1 <= result.workers <= (os.cpu_count() or 1)
