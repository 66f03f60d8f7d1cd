"""The workbook (``capadvisor advise --format xlsx``) read back with openpyxl: every figure equals
the advice JSON's, and no name a user gives becomes a formula."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import openpyxl
import pytest

from advisor.deliverables.workbook import LINE_TOTAL, SUM_TOTAL, TOTAL_COLUMN, workbook_bytes
from tests.advisor.examples import EXAMPLES, SCENARIOS

CATALOGUE = EXAMPLES / "costs-example.yaml"
HOSTILE = ["=cmd|' /C calc'!A0", "@SUM(A1)", "+1", "-1+1", "<b>bold</b>", "Ünïcødé ✓ 名前 ☃"]

pytestmark = pytest.mark.timeout(300)


def _rows(book, sheet: str) -> list[tuple]:
    return list(book[sheet].iter_rows(min_row=2, values_only=True))


def _same(got, want) -> bool:
    if isinstance(want, bool) or want is None or isinstance(want, str):
        return got == want
    return got == pytest.approx(want, rel=1e-12, abs=1e-12)


def _check_decisions(book, data: dict) -> None:
    rows = iter(_rows(book, "Decisions"))
    for rec in data["recommendations"]:
        for key, fig in (rec.get("expected") or {None: None}).items():
            row = next(rows)
            assert row[1] == rec["scope"].removeprefix("workload:"), (rec["decision"], row)
            if key is None:
                assert row[4:7] == (None, None, None)
                continue
            for got, field in zip(row[4:7], ("value", "low", "high"), strict=True):
                assert _same(got, fig.get(field)), (rec["decision"], rec["scope"], key, field, got, fig)
            assert row[7] == (fig.get("unit") or None) and row[9] == fig.get("extrapolated")
            assert _same(row[10], rec["confidence"])
    assert next(rows, None) is None, "more decision rows than figures in the JSON"


def _check_targets(book, data: dict) -> None:
    rows = _rows(book, "Targets")
    assert len(rows) == len(data["targets"])
    for row, t in zip(rows, data["targets"], strict=True):
        assert _same(row[2], t["target"]) and _same(row[3], t["expected"]), (row, t)
        assert row[4] == t["unit"] and row[5] == t["met"] and row[6] == t["hard"]


def _check_bill(book, values, data: dict) -> None:
    cost = data.get("cost") or {}
    rows, cached = _rows(book, "Bill of materials"), _rows(values, "Bill of materials")
    if not cost.get("lines"):
        hc = next(r for r in data["recommendations"] if r["decision"] == "host_count" and r["scope"] == "cluster")
        assert rows[0][:4] == ("hosts", "hosts", hc["value"], "hosts")
        assert any(r[1] == "no prices are loaded" for r in rows)
        return
    for i, line in enumerate(cost["lines"]):
        row = rows[i]
        assert row[:4] == (line["category"], line["name"], pytest.approx(line["quantity"]), line["unit"])
        assert _same(row[4], line["capex"]) and _same(row[5], line["opex_per_year"]) and _same(row[6], cost["years"])
        assert row[7] == f"=E{i + 2}+F{i + 2}*G{i + 2}"
        assert _same(cached[i][7], line["capex"] + line["opex_per_year"] * cost["years"])
    total = rows[len(cost["lines"])]
    assert total[7] == f"=SUM(H2:H{len(cost['lines']) + 1})"
    assert _same(cached[len(cost["lines"])][7], cost["total"])
    assert _same(total[4], cost["capex"]) and _same(total[5], cost["opex_per_year"])


def _check_placement(book, data: dict) -> None:
    hc = next(r for r in data["recommendations"] if r["decision"] == "host_count" and r["scope"] == "cluster")
    rows = _rows(book, "Placement")
    want = [(g["hosts"], w, n) for g in hc["details"]["placement"] for w, n in g["vms"].items()]
    per_workload: dict[tuple, int] = {}
    for row in rows:  # a workload of two VM sizes has a row per size: their counts add up to its VMs
        per_workload[row[0], row[1], row[2]] = per_workload.get((row[0], row[1], row[2]), 0) + row[3]
    assert [(h, w, per_workload[g, h, w]) for g, h, w in dict.fromkeys(r[:3] for r in rows)] == want
    assert all(isinstance(r[4], int) and r[4] >= 1 for r in rows), rows  # vCPUs per VM


def _formulas_only_in_bill_totals(raw: bytes) -> None:
    book = openpyxl.load_workbook(io.BytesIO(raw))
    for ws in book:
        for row in ws.iter_rows():
            for cell in row:
                if cell.data_type != "f":
                    continue
                assert ws.title == "Bill of materials" and cell.column_letter == TOTAL_COLUMN, \
                    f"formula {cell.value!r} in {ws.title}!{cell.coordinate}"
                assert LINE_TOTAL.match(cell.value) or SUM_TOTAL.match(cell.value), cell.value


def _check_all(raw: bytes, data: dict) -> None:
    book = openpyxl.load_workbook(io.BytesIO(raw))
    values = openpyxl.load_workbook(io.BytesIO(raw), data_only=True)
    assert book.sheetnames[:6] == ["Design", "Bill of materials", "Placement", "Decisions", "Targets",
                                   "Assumptions"]
    assert ("Timeline" in book.sheetnames) == bool(data.get("timeline"))
    for ws in book:
        assert ws.freeze_panes == "A2" and ws.auto_filter.ref, ws.title
        assert all(0 < (d.width or 0) <= 61 for d in ws.column_dimensions.values()), ws.title
    _check_decisions(book, data)
    _check_targets(book, data)
    _check_bill(book, values, data)
    _check_placement(book, data)
    _formulas_only_in_bill_totals(raw)


def _advice_json(advice) -> dict:
    return json.loads(json.dumps(advice.to_dict(expand=True)))  # exactly what the CLI's JSON carries


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_every_example_scenario_reads_back_with_the_advice_json_figures(path: Path, advice_of):
    advice = advice_of(path)
    data = _advice_json(advice)
    _check_all(workbook_bytes(data, advice.scenario), data)


def test_a_priced_design_has_its_bill_with_totals_as_formulas(session_kb):
    from advisor.engine import advise
    from knowledge.costs import load_catalogue

    advice = advise(EXAMPLES / "scenario.yaml", kb=session_kb, catalogue=load_catalogue(CATALOGUE))
    data = _advice_json(advice)
    assert data["cost"]["lines"]
    _check_all(workbook_bytes(data, advice.scenario), data)


def test_hostile_names_stay_text_and_the_file_stays_whole(session_kb, tmp_path):
    from advisor.engine import advise

    scenario = json.loads((EXAMPLES / "small-lab.json").read_text(encoding="utf-8"))
    scenario["name"] = '=HYPERLINK("http://example.invalid","x")'
    base = scenario["workloads"][0]
    scenario["workloads"] = [{**base, "name": n} for n in HOSTILE]
    advice = advise(scenario, kb=session_kb)
    data = _advice_json(advice)
    raw = workbook_bytes(data, advice.scenario)
    with zipfile.ZipFile(io.BytesIO(raw)) as z:
        assert z.testzip() is None
    _check_all(raw, data)
    book = openpyxl.load_workbook(io.BytesIO(raw))
    texts = {c.value for ws in book for row in ws.iter_rows() for c in row if c.data_type == "s"}
    for name in HOSTILE:
        assert name in texts, name  # written as the text it is
    assert scenario["name"] in texts


def test_the_cli_needs_an_output_file_for_a_workbook(tmp_path, capsys):
    from app.cli import main

    assert main(["advise", str(EXAMPLES / "small-lab.json"), "--format", "xlsx", "--no-catalogue"]) == 2
    assert "-o FILE" in capsys.readouterr().err
    out = tmp_path / "design.xlsx"
    assert main(["advise", str(EXAMPLES / "small-lab.json"), "--format", "xlsx", "--no-catalogue",
                 "-o", str(out)]) == 0
    assert openpyxl.load_workbook(out).sheetnames[0] == "Design"


@pytest.mark.timeout(120)
def test_the_timeline_sheet_has_a_column_per_figure_and_the_runs_out_line(session_kb):
    # #31 review 3 finding 14: the growth example (costs-example.yaml): the sheet held dict reprs. Year 1:
    # RAM 49.2 %, 3,296.64 GiB; cost: capex 26,000, opex 20,155.01, cumulative 176,155.01; runs out year 4 (ram)
    import yaml

    from advisor.engine import advise
    from advisor.scenario import load_scenario
    from knowledge.costs import parse_catalogue

    root = Path(__file__).resolve().parents[2] / "resources" / "examples"
    cat = parse_catalogue(yaml.safe_load((root / "costs-example.yaml").read_text()))
    data = advise(load_scenario(root / "growth.yaml"), kb=session_kb, catalogue=cat).to_dict(expand=True)
    rows = list(openpyxl.load_workbook(io.BytesIO(workbook_bytes(data)))["Timeline"].iter_rows(values_only=True))
    year1 = dict(zip(rows[0], rows[2], strict=True))  # the header, year 0, year 1
    assert year1["Utilization: ram (%)"] == pytest.approx(49.2)
    assert year1["Demand: ram (GiB)"] == pytest.approx(3296.64)
    assert year1["Cost: cumulative (EUR)"] == pytest.approx(176155.01)
    assert not any(isinstance(v, str) and "{" in v for row in rows for v in row)
    assert rows[-1][0] == "The 10 planned hosts run out in year 4 (ram)."


@pytest.mark.timeout(120)
def test_the_deck_of_a_growth_scenario_has_a_growth_slide(session_kb):
    # #31 review 3 finding 14: the deck had no growth; the growth example runs out in year 4 (ram)
    from advisor.deliverables.slides import slide_texts, slides_bytes
    from advisor.engine import advise
    from advisor.scenario import load_scenario

    root = Path(__file__).resolve().parents[2] / "resources" / "examples"
    data = advise(load_scenario(root / "growth.yaml"), kb=session_kb).to_dict(expand=True)
    slide = next(t for t in slide_texts(slides_bytes(data)) if "Growth over the years" in t)
    assert "The 10 planned hosts run out in year 4 (ram)." in slide


def test_the_placement_sheet_gives_a_totals_workload_a_row_per_vm_size(session_kb):
    """growth.yaml's erp (given as totals) has VMs of 4 and of 3 vCPUs: the sheet said "erp 35" where the
    report says "erp 35 (16 of 4 vCPU, 19 of 3)"."""
    from advisor.engine import advise
    from advisor.scenario import load_scenario

    advice = advise(load_scenario(EXAMPLES / "growth.yaml"), kb=session_kb)
    data = _advice_json(advice)
    rows = _rows(openpyxl.load_workbook(io.BytesIO(workbook_bytes(data, advice.scenario))), "Placement")
    hc = next(r for r in data["recommendations"] if r["decision"] == "host_count" and r["scope"] == "cluster")
    vcpus = {w.name: w.vcpus for w in advice.scenario.workloads}
    for i, group in enumerate(hc["details"]["placement"], start=1):
        erp = [(n, size) for g, _h, w, n, size in rows if g == f"group {i}" and w == "erp"]
        shapes = group.get("vm_shapes", {}).get("erp") or [(group["vms"]["erp"], vcpus["erp"])]
        assert erp == [tuple(s) for s in shapes], (i, erp, group)
    first = [r for r in rows if r[0] == "group 1" and r[2] == "erp"]
    assert first == [("group 1", 1, "erp", 16, 4), ("group 1", 1, "erp", 19, 3)], first
    assert all(size == vcpus["web"] for _g, _h, w, _n, size in rows if w == "web")
