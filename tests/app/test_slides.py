"""The slide deck (``capadvisor advise --format pptx``) read back with python-pptx: 16:9, every
number on a slide is a number of the advice JSON, each decision slide says the card's choice and
deciding figure and carries its chart whole; rendered with LibreOffice where it is installed."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess

import pytest
from pptx import Presentation

from advisor.cost import money
from advisor.deliverables.slides import CHART_PIXELS, chart_keys, choice_text, deciding_figure, slide_texts
from advisor.recommend import catalog
from advisor.text import fmt_value
from tests.advisor.examples import EXAMPLES, SCENARIOS

pytestmark = pytest.mark.timeout(600)
NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")


@pytest.fixture(scope="module")
def decks(qapp, tmp_path_factory):
    """scenario file -> (advice JSON, deck bytes), each deck written by the CLI's own function."""
    from advisor.engine import advise
    from app.deliverables import write_slides
    from knowledge.costs import load_catalogue

    out = {}
    folder = tmp_path_factory.mktemp("decks")
    for path in SCENARIOS:
        catalogue = load_catalogue(EXAMPLES / "costs-example.yaml") if path.name == "scenario.yaml" else None
        advice = advise(path, catalogue=catalogue)
        data = json.loads(json.dumps(advice.to_dict(expand=True)))
        target = folder / f"{path.stem}.pptx"
        write_slides(target, advice, data, catalogue=catalogue)
        out[path.name] = (data, target.read_bytes(), target)
    return out


def _json_numbers(data) -> set[str]:
    """Every number of the JSON as the deck may show it, and every number written inside its texts."""
    found: set[str] = set()

    def walk(x) -> None:
        if isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, bool):
            return
        elif isinstance(x, int | float):
            for text in (fmt_value(x), money(x), f"{x:g}"):
                found.update(NUMBER.findall(text))
        elif isinstance(x, str):
            found.update(NUMBER.findall(x))

    walk(data)
    return found


@pytest.mark.parametrize("name", [p.name for p in SCENARIOS])
def test_every_number_on_the_slides_is_the_advice_jsons(decks, name):
    data, raw, _ = decks[name]
    allowed = _json_numbers(data)
    for i, texts in enumerate(slide_texts(raw), start=1):
        for text in texts:
            if text.startswith("… and "):  # how many items a full slide leaves to the workbook
                continue
            stray = [n for n in NUMBER.findall(text) if n not in allowed]
            assert not stray, f"slide {i}: {text!r} shows {stray}, not numbers of the advice JSON"


@pytest.mark.parametrize("name", [p.name for p in SCENARIOS])
def test_decision_slides_say_the_cards_choice_and_figure_with_the_chart(decks, name):
    data, raw, _ = decks[name]
    prs = Presentation(io.BytesIO(raw))
    assert prs.slide_width * 9 == prs.slide_height * 16  # 16:9
    by_title = {s.shapes.title.text: s for s in prs.slides if s.shapes.title is not None}
    texts = {s.shapes.title.text: t for s, t in zip(prs.slides, slide_texts(raw), strict=True)
             if s.shapes.title is not None}
    charts = chart_keys(data)
    glance = texts["The design at a glance"]
    for name_ in catalog.headline():
        recs = [r for r in data["recommendations"] if r["decision"] == name_]
        if not recs:
            continue
        title = catalog.title(name_)
        assert title in by_title, f"no slide for {title}"
        lines = texts[title]
        for rec in recs[:11]:
            want = f"{rec['scope'].removeprefix('workload:')}: {choice_text(rec)}"
            assert want in lines, (want, lines)
            assert choice_text(rec) in glance or len(glance) > 3 * 12
        if deciding_figure(recs[0]):
            assert any(line.endswith(deciding_figure(recs[0])) for line in lines), lines
        pictures = [s for s in by_title[title].shapes if s.shape_type == 13]
        if name_ in charts:
            assert len(pictures) == 1, f"{title}: its chart is missing"
            pic = pictures[0]
            assert pic.image.size == CHART_PIXELS and pic.image.content_type == "image/png"
            assert pic.left >= 0 and pic.top >= 0
            assert pic.left + pic.width <= prs.slide_width and pic.top + pic.height <= prs.slide_height


def test_a_priced_deck_shows_the_cost_and_the_pareto_front(decks):
    data, raw, _ = decks["scenario.yaml"]
    prs = Presentation(io.BytesIO(raw))
    slides = {s.shapes.title.text: s for s in prs.slides if s.shapes.title is not None}
    cost = slides[f"Cost over {fmt_value(data['cost']['years'])} years"]
    cells = [c.text for shape in cost.shapes if shape.has_table for row in shape.table.rows for c in row.cells]
    for line in data["cost"]["lines"]:
        assert line["name"] in cells and money(line["capex"], data["cost"]["currency"]) in cells
    pareto = slides["Cost against the other designs (Pareto front)"]
    pictures = [s for s in pareto.shapes if s.shape_type == 13]
    assert len(pictures) == 1 and pictures[0].image.size == CHART_PIXELS
    assert pictures[0].width * CHART_PIXELS[1] == pytest.approx(pictures[0].height * CHART_PIXELS[0], rel=1e-3)


@pytest.mark.parametrize("name", [p.name for p in SCENARIOS])
def test_no_internal_names_on_the_slides(decks, name):
    _, raw, _ = decks[name]
    text = "\n".join(t for texts in slide_texts(raw) for t in texts)
    for d in catalog.CATALOG:
        if "_" in d.name:  # "hypervisor" is also a word
            assert d.name not in text, d.name
        for ident, _label in d.labels:
            if "_" in ident:
                assert ident not in text, ident
    assert "workload:" not in text
    assert not re.search(r"\[[a-z]{2}\.[a-z0-9.-]+\]", text), "a rule id"


def test_the_cli_writes_a_deck_and_needs_an_output_file(qapp, tmp_path, capsys):
    from app.cli import main

    path = EXAMPLES / "small-lab.json"
    assert main(["advise", str(path), "--format", "pptx", "--no-catalogue"]) == 2
    assert "-o FILE" in capsys.readouterr().err
    out = tmp_path / "deck.pptx"
    assert main(["advise", str(path), "--format", "pptx", "--no-catalogue", "-o", str(out)]) == 0
    assert Presentation(str(out)).slides[0].shapes.title.text == "Cluster design: Small KVM lab on local disks"


def test_the_deck_renders_with_libreoffice_with_every_chart_whole(decks, tmp_path):
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None or shutil.which("pdftoppm") is None:
        pytest.skip("LibreOffice (soffice) or pdftoppm is not installed: the deck was not rendered "
                    "(./run tests installs libreoffice-impress and poppler-utils)")
    from PIL import Image

    data, raw, path = decks["scenario.yaml"]
    subprocess.run([soffice, "--headless", f"-env:UserInstallation=file://{tmp_path}/profile",
                    "--convert-to", "pdf", "--outdir", str(tmp_path), str(path)],
                   check=True, capture_output=True, timeout=240)
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(tmp_path / "scenario.pdf"), str(tmp_path / "page")],
                   check=True, timeout=120)
    pages = sorted(tmp_path.glob("page-*.png"))
    prs = Presentation(io.BytesIO(raw))
    assert len(pages) == len(prs.slides)
    for page, slide in zip(pages, prs.slides, strict=True):
        image = Image.open(page).convert("L")
        w, h = image.size
        for pic in (s for s in slide.shapes if s.shape_type == 13):
            box = tuple(int(v * w / prs.slide_width) for v in (pic.left, pic.top, pic.left + pic.width,
                                                               pic.top + pic.height))
            region = image.crop(box)
            assert region.getextrema()[0] < 128, f"{page.name}: the chart is blank"  # drawn
            assert box[2] <= w and box[3] <= h  # whole on the page


def test_hostile_names_stay_text_on_the_slides():
    """Names a user gives (formula-like, markup, a tab, any script) are the slides' plain text; the
    deck opens again."""
    from advisor.deliverables.slides import slides_bytes
    from advisor.engine import advise

    names = ["=cmd|' /C calc'!A0", "@SUM(A1)", "+1", "<b>bold</b>", "Ünïcødé ✓ 名前", "tab\there"]
    scenario = json.loads((EXAMPLES / "small-lab.json").read_text(encoding="utf-8"))
    scenario["name"] = '=HYPERLINK("http://example.invalid","x")'
    scenario["workloads"] = [{**scenario["workloads"][0], "name": n} for n in names]
    data = json.loads(json.dumps(advise(scenario).to_dict(expand=True)))
    text = "\n".join(t for texts in slide_texts(slides_bytes(data)) for t in texts)
    assert f"Cluster design: {scenario['name']}" in text
    for name in names[:5]:
        assert f"{name}: " in text, name  # the decision slides name each workload as given
    assert "tab here: " in text  # a tab (the one control character a name may hold) becomes a space


def test_the_workshops_what_if_is_compared_on_a_slide():
    """A what-if from the workshop (more VMs) gets a slide: what moved, and each headline choice as
    advised and with the what-if, read from the two advices' JSON."""
    from advisor.deliverables.slides import slides_bytes
    from advisor.engine import advise

    base = json.loads((EXAMPLES / "small-lab.json").read_text(encoding="utf-8"))
    bigger = json.loads(json.dumps(base))
    bigger["workloads"][0]["vms"] = 40
    data = json.loads(json.dumps(advise(base).to_dict(expand=True)))
    other = json.loads(json.dumps(advise(bigger).to_dict(expand=True)))
    raw = slides_bytes(data, whatif={"moved": "VMs 2 -> 40", "advice": other})
    prs = Presentation(io.BytesIO(raw))
    slide = next(s for s in prs.slides if s.shapes.title is not None and s.shapes.title.text == "What-if in the workshop")
    texts = [p.text for s in slide.shapes if s.has_text_frame for p in s.text_frame.paragraphs]
    assert "Moved: VMs 2 -> 40" in texts
    table = next(s.table for s in slide.shapes if s.has_table)
    rows = [[c.text for c in row.cells] for row in table.rows][1:]
    hosts = next(r for r in rows if r[0] == catalog.title("host_count"))
    want = [choice_text(next(r for r in d["recommendations"] if r["decision"] == "host_count"))
            for d in (data, other)]
    assert hosts[2:] == want and want[0] != want[1], hosts
    assert "What-if in the workshop" not in [s.shapes.title.text for s in Presentation(
        io.BytesIO(slides_bytes(data))).slides if s.shapes.title is not None]
