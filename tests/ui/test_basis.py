"""Cards and the report show what each figure rests on (issue 23): the basis and the hardware figures."""

from __future__ import annotations

from pathlib import Path

from advisor.engine import advise
from knowledge.store import KnowledgeBase
from ui.panels.qt_recommendations import RecommendationCard, basis_text
from ui.report import report_html

EXAMPLE = Path(__file__).resolve().parents[2] / "resources" / "examples" / "scenario.yaml"


def test_card_and_report_show_the_basis_and_the_hardware(qtbot, kb_file):
    with KnowledgeBase.open(kb_file) as kb:
        advice = advise(EXAMPLE, kb=kb)
    rec = advice.find("cache_mode", "workload:web")
    card = RecommendationCard(rec)
    qtbot.addWidget(card)
    text = card.basis_label.text()
    assert "Basis: <b>scenario hardware (per-kind defaults)</b>" in text
    assert "SSD" in text and "50,000 IOPS" in text and "(per-kind default)" in text and "10 Gb/s (declared)" in text
    assert "doc 001 TB1" in card.basis_label.toolTip()  # the testbed the ratios come from
    # a card whose figures rest on two bases says which is which
    two = basis_text({"a": {"value": 1, "basis": "documents", "hardware": []},
                      "b": {"value": 2, "basis": "scenario hardware (declared)", "hardware": ["host NIC: 10 Gb/s (declared)"]}})
    assert "<b>scenario hardware (declared)</b> (b) — on host NIC: 10 Gb/s (declared)" in two
    assert "<b>documents</b> (a)" in two
    page = report_html("r", advice, {})
    assert "scenario hardware (per-kind defaults)" in page and "50,000 IOPS each (per-kind default)" in page


def test_use_this_machine_measures_the_disk(monkeypatch):
    """The worker behind "Use this machine" probes this machine and runs the disk micro-benchmark;
    its figures land on the disk group with ``source: probe`` (here the benchmark is replaced by a
    recorded run, so the test does not depend on this machine's file system)."""
    import advisor.probes.bench as bench
    from advisor.probes.bench import BenchMeasurement, BenchResult
    from ui.panels import qt_scenario

    calls = []

    def recorded(directory, seconds, progress=None, cancel=None, **kw):
        calls.append(seconds)
        run = BenchResult(directory=str(directory), fstype="ext4", direct_io=True, file_bytes=1 << 28, budget_s=seconds)
        for metric, op, value, unit in (("throughput", "sequential_read", 500.0, "MiB/s"),
                                        ("throughput", "sequential_write", 450.0, "MiB/s"),
                                        ("iops", "random_read", 70000.0, "ops/s"),
                                        ("iops", "random_write", 50000.0, "ops/s")):
            run.measurements.append(BenchMeasurement(metric, value, unit, {"operation": op}))
        return run

    monkeypatch.setattr(bench, "run_benchmarks", recorded)
    hosts = qt_scenario._probe_hosts()
    assert calls == [qt_scenario.PROBE_BENCH_SECONDS]
    measured = [d for d in hosts.get("disks", []) if d.get("source") == "probe"]
    if len(hosts.get("disks", [])) == 1:  # one disk group: the benchmark measured it
        assert measured and measured[0]["iops"] == 50000 and measured[0]["mb_s"] == round(450 * 1.048576, 1)
