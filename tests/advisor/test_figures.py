"""Figures in the core: a card, its chart mark, the what-if summary and the report show one number,
computed once by the engine, for every example scenario (the cache-mode VMs per host and the
real-time share and period included)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from advisor.engine import advise
from advisor.figures import registry
from advisor.figures.charts import CHARTS, build_charts
from advisor.figures.prose import figure_text, fmt_value
from advisor.figures.summary import summary
from advisor.figures.whatif import INPUTS, apply_inputs, default_inputs, read_at, readings
from advisor.recommend import catalog
from advisor.render import to_html, to_markdown
from advisor.scenario import load_scenario
from tests.advisor.test_engine import _kb_fixtures

kb_path, kb = _kb_fixtures.kb_path, _kb_fixtures.kb  # fixtures

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
#: the example scenarios (the other examples are task sets for ``capadvisor rt``)
SCENARIOS = sorted(p.name for p in EXAMPLES.iterdir()
                   if p.suffix in (".yaml", ".toml", ".json") and b"workloads" in p.read_bytes())
DECISION_CHARTS = sorted({key for d in catalog.CATALOG for key in registry.of_decision(d.name)})


def test_the_examples_are_found():
    assert {"scenario.yaml", "small-lab.json", "cassandra-containers.toml"} <= set(SCENARIOS)


def test_every_chart_of_the_catalogue_is_built_in_the_core():
    assert set(DECISION_CHARTS) <= set(CHARTS)


_RENDERED: dict[str, tuple] = {}


@pytest.fixture()
def rendered(kb):
    """Each example advised, charted and reported once (inside a test: the user folders are the
    test's), kept for the other tests of this module."""
    for name in SCENARIOS:
        if name not in _RENDERED:
            advice = advise(EXAMPLES / name, kb=kb)
            specs = build_charts(kb, advice.scenario, advice, {}, DECISION_CHARTS)
            _RENDERED[name] = advice, specs, to_markdown(advice), to_html(advice)
    return _RENDERED


def _highlighted(spec):
    return next(c for c in spec.curves if c.highlight)


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", SCENARIOS)
def test_cards_chart_marks_and_reports_agree(rendered, name):
    advice, specs, md, page = rendered[name]
    marked = 0
    for key, spec in specs.items():
        assert not spec.empty or spec.empty_reason, key
        for mark in spec.marks:
            if not mark.decision:
                continue
            rec = advice.find(mark.decision, mark.scope)
            assert rec is not None, (key, mark)
            if mark.y is not None:  # the chart's point is the card's figure ...
                fig = rec.expected[mark.figure]
                assert mark.y == fig["value"], key
                # ... and it lies on the recommended curve, which is the engine's own function
                assert float(np.interp(mark.x, _highlighted(spec).x, _highlighted(spec).mean)) == pytest.approx(
                    mark.y, rel=1e-5), key
                shown = fmt_value(fig["value"])
                assert shown in figure_text(mark.figure, fig)  # the card's text
                assert shown in md and shown in page, key  # the reports'
                marked += 1
    assert marked >= 2  # cache mode and over-allocation at least


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_cache_mode_chart_marks_the_vms_per_host_the_card_states(rendered, name):
    """Was: the card said 14 VMs per host (recommended hosts) while the chart marked 11.2 (planned)."""
    advice, specs, md, _page = rendered[name]
    spec = specs["cache_mode"]
    (mark,) = spec.marks
    rec = advice.find(mark.decision, mark.scope)
    stated = float(re.search(r"\(([\d.]+) VMs per host", rec.rationale).group(1))
    assert mark.x == advice.facts.vms_per_host
    assert f"{mark.x:.3g}" == f"{stated:.3g}"
    assert _highlighted(spec).name.split()[0] == rec.choice


def test_the_example_cases_of_the_issue(rendered):
    advice, specs, _md, _page = rendered["scenario.yaml"]
    assert specs["cache_mode"].marks[0].x == pytest.approx(14.0)  # not 11.2: 56 VMs on 4 active hosts
    rt = specs["realtime"]
    rec = advice.find("vm_period_budget", "workload:rtfunc")
    share = rec.expected["share"]["value"]
    assert share == pytest.approx(0.739, abs=5e-4)
    assert f"share {share:.3g}" in rt.title  # not 0.64
    (mark,) = rt.marks
    assert mark.x == rec.value and mark.decision == "vm_period_budget"
    assert any(r.start - 1e-9 <= mark.x <= r.end + 1e-9 for r in rt.regions)  # inside the shaded region
    curve = rt.curves[0]
    assert float(np.interp(mark.x, curve.x, curve.mean)) <= 1.0 + 1e-9  # deadlines met there


def test_whatif_starts_at_the_advice_and_reads_the_cards_figures(rendered, kb):
    advice, specs, _md, _page = rendered["scenario.yaml"]
    inputs = default_inputs(advice)
    assert set(inputs) == set(INPUTS)
    assert inputs["vms_per_host"] == advice.facts.vms_per_host
    assert inputs["overallocation"] == advice.find("vcpu_overallocation").value
    assert inputs["share"] == advice.find("vm_period_budget", "workload:rtfunc").expected["share"]["value"]
    at_advice = build_charts(kb, advice.scenario, advice, inputs, list(specs))
    assert [m.y for m in at_advice["cache_mode"].marks] == [m.y for m in specs["cache_mode"].marks]
    (heading, values), *_ = readings(at_advice, inputs)
    assert heading == "per VM at 14 VMs/host"
    card = advice.find("cache_mode", specs["cache_mode"].marks[0].scope)
    assert [round(v, 4) for _n, v, _u, hi in values if hi] == [round(card.expected["throughput_per_vm"]["value"], 4)]
    # a moved input moves the mark, which then no longer claims the card's figure
    moved = build_charts(kb, advice.scenario, advice, {**inputs, "vms_per_host": 8.0}, ["cache_mode"])["cache_mode"]
    assert [(m.x, m.y) for m in moved.marks] == [(8.0, None)]
    assert read_at(moved, 8.0)


def test_the_vms_per_host_mark_is_rounded_as_the_card_states_it(rendered, kb):
    """Was: "16.33 VMs/host" in the legend while the card says "16.3 VMs per host"."""
    advice, _specs, _md, _page = rendered["scenario.yaml"]
    inputs = {**default_inputs(advice), "vms_per_host": 49 / 3}
    spec = build_charts(kb, advice.scenario, advice, inputs, ["cache_mode"])["cache_mode"]
    assert [m.label for m in spec.marks] == ["16.3 VMs/host"]
    (heading, _values), *_ = readings({"cache_mode": spec}, inputs)
    assert heading == "per VM at 16.3 VMs/host"


def test_apply_inputs_changes_the_scenario_for_a_new_advice(kb):
    data = load_scenario(EXAMPLES / "scenario.yaml").to_dict()
    out = apply_inputs(data, {"vms_per_host": 10, "image_gb": 3.0, "share": 0.8})
    assert out["hosts"]["count"] == 6 + 1  # 56 VMs / 10 per host, + 1 reserve
    assert all(w["image_gb"] == 3.0 for w in out["workloads"])
    assert next(w for w in out["workloads"] if w.get("realtime"))["realtime"]["share"] == 0.8
    assert data["hosts"]["count"] == 6  # the input is left alone
    again = advise(out, kb=kb)
    assert again.find("vm_period_budget", "workload:rtfunc").expected["share"]["value"] == pytest.approx(0.8)


def test_the_summary_shows_the_headline_decisions_with_the_cards_text(rendered):
    advice, _specs, md, _page = rendered["scenario.yaml"]
    items = summary(advice)
    assert [i.decision for i in items] == [d for d in catalog.headline() if advice.first(d, "cluster")]
    over = next(i for i in items if i.decision == "vcpu_overallocation")
    assert over.choice == catalog.choice_text("vcpu_overallocation", advice.find("vcpu_overallocation").choice,
                                              advice.find("vcpu_overallocation").value)
    assert over.choice in md
    every = summary(advice, every_scope=True)
    assert {i.scope for i in every if i.decision == "cache_mode"} == {
        r.scope for r in advice.of("cache_mode")}


def test_safe_chart_reports_what_a_user_can_act_on_and_lets_bugs_through(monkeypatch):
    """An input the model refuses is an empty chart saying why; a bug in a chart builder (here a
    KeyError) is not turned into an empty chart (issue #15: no swallowed programming errors)."""
    import pytest

    from advisor.figures import charts
    from knowledge.infra.errors import InputError

    def refused(kb, scenario, advice, inputs):
        raise InputError("boot: concurrent_vms must be >= 1")

    def buggy(kb, scenario, advice, inputs):
        return {}["missing"]

    monkeypatch.setitem(charts.CHARTS, "boot", refused)
    spec = charts.safe_chart("boot", None, None, None, {})
    assert spec.empty_reason == "No chart: boot: concurrent_vms must be >= 1"
    monkeypatch.setitem(charts.CHARTS, "boot", buggy)
    with pytest.raises(KeyError):
        charts.safe_chart("boot", None, None, None, {})
