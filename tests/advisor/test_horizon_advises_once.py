"""`capadvisor optimize --horizon` advises each configuration once (closing note of session 6: it
advised each twice, once without a host count only to read the most hosts its timeline needs in a
year, then again at that count). The count now comes from the decisions up to the host count and
the timeline alone (:func:`advisor.engine.hosts_to_last`), and it is the count a whole advice's
timeline gives. Real scenario file (the growth example), real CLI, real engine and catalogue."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import advisor.engine as engine
from advisor.optimize import horizon
from advisor.optimize.space import design_scenario
from advisor.recommend.room import bounded
from app.cli import main
from knowledge.costs import load_catalogue

ROOT = Path(__file__).resolve().parents[2]
GROWTH = ROOT / "resources" / "examples" / "growth.yaml"
CATALOGUE = ROOT / "resources" / "examples" / "costs-example.yaml"
SPACE = ["--host-counts", "2", "--levels", "none,moderate", "--cache-modes", "writethrough", "--workers", "1"]
pytestmark = pytest.mark.timeout(600)


def test_each_configuration_is_advised_once_at_the_count_its_timeline_needs(capsys, kb_path, session_kb,
                                                                              monkeypatch):
    advised: list[list[int]] = []  # per configuration: the host counts it was advised at (None: free)
    configs = []
    real_advise, real_lasting = engine.advise, horizon.lasting

    def advise(sc, *args, **kwargs):
        advised[-1].append(sc.preferences.fixed.get("host_count"))
        return real_advise(sc, *args, **kwargs)

    def lasting(scenario, catalogue, design, kb, ceiling=0):
        advised.append([])
        configs.append((scenario, catalogue, design))
        return real_lasting(scenario, catalogue, design, kb, ceiling)

    monkeypatch.setattr(engine, "advise", advise)
    monkeypatch.setattr(horizon, "lasting", lasting)
    code = main(["optimize", "--kb", str(kb_path), str(GROWTH), "--catalogue", str(CATALOGUE), "--horizon", *SPACE,
                 "--format", "json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    data = json.loads(out.out)
    assert len(configs) >= 4 and data["best"] is not None
    assert [len(counts) for counts in advised] == [1] * len(configs)  # was [2, 2, ...]
    monkeypatch.undo()
    # the count each was advised at is what a whole advice of the configuration (no host count) says
    # its timeline needs: the decisions after the host count change nothing the timeline reads
    cat = load_catalogue(CATALOGUE)
    for (scenario, _cat, design), (count,) in zip(configs, advised, strict=True):
        sc = design_scenario(scenario, cat, design)
        sc.preferences.fixed.pop("host_count", None)
        with bounded():
            whole = engine.advise(sc, kb=session_kb)
        assert count == max(y.hosts for y in whole.timeline.years)
