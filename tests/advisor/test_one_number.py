"""One number per quantity (issue 28): every place the advice states a quantity (a card's expected
figure, a warning's or an alternative's text, a target line, the what-if summary, the Markdown
report) states the same number for one workload, option and host count. Checked on every example
scenario and on every scenario the replay advises (its experiments' and setups'), and on the
issue's reproducer: a local-disk boot with I/O-heavy neighbours was 196.8 s on the storage card
and "about 30 s" in a warning and in the ``max_boot_time_s`` target (reported met)."""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass

import pytest

from advisor.engine import advise
from advisor.figures.summary import summary
from advisor.recommend import catalog
from advisor.render import to_markdown
from advisor.replay import load_setups, load_suite
from advisor.text import fmt_value
from tests.advisor.examples import SCENARIOS
from tests.advisor.test_engine import _kb_fixtures
from tests.advisor.test_targets import blade

kb_path, kb = _kb_fixtures.kb_path, _kb_fixtures.kb  # fixtures

NUM = r"([0-9][0-9,]*(?:\.[0-9]+)?)"


@dataclass(frozen=True)
class Stated:
    """One number stated for a quantity: where, the value, and how many digits the place shows."""

    where: str
    value: float
    digits: str  # "exact", "0f" (rounded to a unit), "3g", "4g"


def _num(text: str) -> float:
    return float(text.replace(",", ""))


def _agree(a: Stated, b: Stated) -> bool:
    """Whether two statements can be the same number as the places show it."""
    tol = 1e-5 * max(abs(a.value), abs(b.value), 1e-9)  # figures keep 6 significant digits
    for s in (a, b):
        if s.digits == "0f":
            tol = max(tol, 0.5 + 1e-9)
        elif s.digits.endswith("g"):
            tol = max(tol, 0.5 * 10 ** (-int(s.digits[0]) + 1) * abs(s.value) * 1.0001)
    return abs(a.value - b.value) <= tol


def _boot(advice, out: dict) -> None:
    sb = advice.find("storage_backend")
    if sb is None:
        return
    options = [(sb.choice, sb.expected, "")] + [(a.choice, a.expected, a.why_not) for a in sb.alternatives]
    for choice, expected, why in options:
        q = out.setdefault(("boot_time", choice), [])
        if "boot_time" in expected:
            q.append(Stated(f"storage card ({choice})", float(expected["boot_time"]["value"]), "exact"))
        for m in re.finditer(r"boot takes about " + NUM + " s", why):
            q.append(Stated(f"why not {choice}", _num(m.group(1)), "0f"))
    chosen = out.setdefault(("boot_time", sb.choice), [])
    for rec in advice.recommendations:
        for w in rec.warnings:
            for pattern in (r"a VM boot there takes about " + NUM + " s", r"\(expected " + NUM + " s against"):
                for m in re.finditer(pattern, w):
                    chosen.append(Stated(f"{rec.decision} warning", _num(m.group(1)), "0f"))
    for t in advice.targets:
        if t.name == "max_boot_time_s" and t.expected is not None:
            chosen.append(Stated(f"target {t.scope}", float(t.expected), "exact"))


def _host_cpu(advice, out: dict) -> None:
    hc = advice.find("host_count")
    if hc is None or "host_cpu_utilization" not in hc.expected:
        return
    q = out.setdefault(("host_cpu",), [])
    q.append(Stated("host count card", float(hc.expected["host_cpu_utilization"]["value"]), "exact"))
    oa = advice.find("vcpu_overallocation")
    if oa is not None and "host_cpu_utilization" in oa.expected:
        q.append(Stated("over-allocation card", float(oa.expected["host_cpu_utilization"]["value"]), "exact"))
    for w in hc.warnings:
        for m in re.finditer(r"host CPU is expected at about " + NUM + " %", w):
            q.append(Stated("host count warning", _num(m.group(1)), "0f"))
    points = 14.0 if "hc.migration-headroom" in hc.rules else 0.0
    for t in advice.targets:
        if t.name == "max_host_cpu_pct" and t.expected is not None:
            q.append(Stated("target (less the migration reserve)", float(t.expected) - points, "exact"))


def _throughput(advice, out: dict) -> None:
    for rec in advice.of("cache_mode"):
        fig = rec.expected.get("throughput_per_vm")
        if fig is None:
            continue
        tp = out.setdefault(("throughput_per_vm", rec.scope), [])
        iops = out.setdefault(("iops_per_vm", rec.scope), [])
        tp.append(Stated("cache-mode card", float(fig["value"]), "exact"))
        if "iops_per_vm" in rec.expected:
            iops.append(Stated("cache-mode card", float(rec.expected["iops_per_vm"]["value"]), "exact"))
        for w in rec.warnings:
            m = re.search(r"one VM gets about " + NUM + r" IOPS \(" + NUM + " MB/s\\)", w)
            if m:
                iops.append(Stated("cache-mode warning", _num(m.group(1)), "0f"))
                tp.append(Stated("cache-mode warning", _num(m.group(2)), "3g"))
        for t in advice.targets:
            if t.scope != rec.scope or t.expected is None:
                continue
            if t.name in ("min_throughput_mb_s", "requested_throughput_mb_s"):
                tp.append(Stated(f"target {t.name}", float(t.expected), "exact"))
            elif t.name == "requested_iops":
                iops.append(Stated(f"target {t.name}", float(t.expected), "exact"))


def _downtime(advice, out: dict) -> None:
    """The over-allocation card's migration downtime (s) and the ``max_migration_downtime_ms``
    targets (ms) of the workloads that migrate."""
    oa = advice.find("vcpu_overallocation")
    fig = oa.expected.get("migration_downtime") if oa is not None else None
    if fig is None:
        return
    q = out.setdefault(("migration_downtime_ms",), [])
    q.append(Stated("over-allocation card", 1000.0 * float(fig["value"]), "exact"))
    for t in advice.targets:
        if t.name == "max_migration_downtime_ms" and t.expected is not None:
            q.append(Stated(f"target {t.scope}", float(t.expected), "exact"))


def _hosts(advice, markdown: str, out: dict) -> None:
    hc = advice.find("host_count")
    if hc is None or hc.value is None:
        return
    q = out.setdefault(("hosts",), [])
    q.append(Stated("host count card", float(hc.value), "exact"))
    for item in summary(advice):
        if item.decision == "host_count" and item.value is not None:
            q.append(Stated("what-if summary", float(item.value), "exact"))
    title = catalog.title("host_count")
    m = re.search(r"\| " + re.escape(title) + r" \| cluster \| \*\*" + NUM + " hosts?\\b", markdown)
    assert m is not None, "the report's summary table names the host count"
    q.append(Stated("report", _num(m.group(1)), "exact"))


def _report_figures(advice, markdown: str, out: dict) -> None:
    """The report's expected-figure rows of the cards the quantities above come from."""
    from advisor.text import figure_parts

    for decision, key, quantity in (("storage_backend", "boot_time", "boot_time"),
                                    ("host_count", "host_cpu_utilization", "host_cpu"),
                                    ("cache_mode", "throughput_per_vm", "throughput_per_vm")):
        for rec in advice.of(decision):
            fig = rec.expected.get(key)
            if fig is None:
                continue
            label = figure_parts(key, fig)[0]
            head = f"### {catalog.title(decision)} — {rec.scope.replace('workload:', 'workload ')}: "
            start = markdown.find(head)
            if start < 0:
                continue
            section = markdown[start:markdown.find("\n### ", start + 1)]
            m = re.search(r"\n\| " + re.escape(label) + r" \| " + NUM + r" \|", section)
            if m is None:
                continue
            scope = (quantity, rec.choice) if quantity == "boot_time" else (
                (quantity,) if quantity == "host_cpu" else (quantity, rec.scope))
            out.setdefault(scope, []).append(Stated("report", _num(m.group(1)), "4g"))


def _summary_figures(advice, out: dict) -> None:
    """The what-if summary's figure texts (``label: value unit``) of the quantities above."""
    from advisor.text import figure_parts

    keys = {"boot_time": "boot_time", "host_cpu_utilization": "host_cpu", "throughput_per_vm": "throughput_per_vm"}
    for item in summary(advice, every_scope=True, figures=99):
        rec = advice.find(item.decision, item.scope)
        if rec is None:
            continue
        for key, quantity in keys.items():
            fig = rec.expected.get(key)
            if fig is None:
                continue
            label = figure_parts(key, fig)[0]
            for text in item.figures:
                m = re.match(re.escape(label) + ": " + NUM, text)
                if m is None:
                    continue
                scope = (quantity, rec.choice) if quantity == "boot_time" else (
                    (quantity,) if quantity == "host_cpu" else (quantity, rec.scope))
                if quantity == "host_cpu" and item.decision != "host_count":
                    continue  # the over-allocation card's is its chosen level's, compared above
                out.setdefault(scope, []).append(Stated("what-if summary", _num(m.group(1)), "4g"))


def statements(advice) -> dict[tuple, list[Stated]]:
    """Every number the advice states, per quantity."""
    markdown = to_markdown(advice)
    out: dict[tuple, list[Stated]] = {}
    _boot(advice, out)
    _host_cpu(advice, out)
    _throughput(advice, out)
    _downtime(advice, out)
    _hosts(advice, markdown, out)
    _report_figures(advice, markdown, out)
    _summary_figures(advice, out)
    return out


def disagreements(advice) -> list[str]:
    """Pairs of places that state different numbers for one quantity."""
    bad = []
    for quantity, said in statements(advice).items():
        for a in said:
            for b in said:
                if a is not b and not _agree(a, b):
                    bad.append(f"{quantity}: {a.where} says {fmt_value(a.value)}, {b.where} {fmt_value(b.value)}")
    return sorted(set(bad))


def _replayed() -> list[dict]:
    """Every distinct scenario the replay advises: its experiments' cases and its setups."""
    seen: dict[str, dict] = {}
    for exp in load_suite():
        for case in exp.cases:
            seen.setdefault(json.dumps(case.scenario, sort_keys=True, default=str), case.scenario)
    for setup in load_setups():
        seen.setdefault(json.dumps(setup.scenario, sort_keys=True, default=str), setup.scenario)
    return list(seen.values())


def test_the_reproducer_states_one_boot_time(kb):
    """Seven I/O-heavy VMs planned on one blade with a 60 s boot target: the target spreads them
    over seven hosts; the storage card, its warning, the host count's warning and the target line
    all state the boot time there (one I/O-heavy neighbour, about 30 s), not the planned host's."""
    sc = copy.deepcopy(blade({"max_boot_time_s": 60}))
    sc["workloads"][1]["vms"] = 7
    advice = advise(sc, kb=kb)
    said = statements(advice)[("boot_time", "local_disk")]
    assert len(said) >= 3 and {s.where.split()[0] for s in said} >= {"storage", "target"}
    assert disagreements(advice) == []
    card = advice.find("storage_backend").expected["boot_time"]["value"]
    assert card < 60 and next(t for t in advice.targets if t.name == "max_boot_time_s").met is True


@pytest.mark.timeout(600)
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_every_example_states_one_number_per_quantity(kb, path):
    assert disagreements(advise(path, kb=kb)) == []


@pytest.mark.timeout(900)
def test_every_replayed_scenario_states_one_number_per_quantity(kb):
    problems = {}
    for sc in _replayed():
        bad = disagreements(advise(sc, kb=kb))
        if bad:
            problems[sc.get("name", "?")] = bad
    assert problems == {}


def test_the_downtime_target_states_the_cards_downtime(kb):
    """Doc 004 chapter 8 (heavy tests) with a downtime target: the over-allocation card and the
    target state one downtime for the migrating VM."""
    sc = copy.deepcopy(next(e for e in load_suite() if e.id == "004-T8.3-downtime-heavy").cases[0].scenario)
    sc["preferences"]["targets"] = {"max_migration_downtime_ms": 5000}
    advice = advise(sc, kb=kb)
    said = statements(advice)[("migration_downtime_ms",)]
    assert {s.where.split()[0] for s in said} == {"over-allocation", "target"}
    assert disagreements(advice) == []
