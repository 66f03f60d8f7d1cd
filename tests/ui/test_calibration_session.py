"""Calibration is remembered and explained (issue #17, point 6): the site is part of the scenario
(saved, reopened, undoable); cards say what the site changed (documents' value -> site value) and
from which files and figures; the Sites view shows the site's figures readably; the report says
which site; the site chart plots byte rates only."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.ui.conftest import wait_idle

FIXTURES = Path(__file__).resolve().parents[1] / "knowledge" / "importers" / "fixtures"
FILES = ["fio3_randrw_2jobs.json", "fio3_seqread_2jobs.jsonplus", "bonnie2_csv.txt", "postmark_terse.txt",
         "sysbench10_cpu.txt"]


def test_calibration_is_stored_explained_and_reported(window, qtbot, tmp_path):
    s = window.session
    doc = s.document
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        doc.set(("hosts", "disks", 0, "kind"), "nvme")  # the site's hosts: NVMe, as its benchmarks
    sites = window.show_view("sites")
    with qtbot.waitSignal(sites.task.sig_done, timeout=60000):
        sites.import_files([FIXTURES / f for f in FILES], "lab")
    index = sites.calibrate.findText("lab")
    assert index > 0
    with qtbot.waitSignal(s.sig_baseline, timeout=60000):
        sites.calibrate.setCurrentIndex(index)
        sites.calibrate.activated.emit(index)
    assert s.site == "lab" and doc.get(("calibration",)) == {"site": "lab"}
    assert doc.undo_stack.undoText() == "Calibrate to site lab"
    advice = s.advice
    assert advice.calibration.site == "lab" and advice.calibration.figures  # the site figures are used

    # cards: the documents' value and the site's, with the files
    cards = window.show_view("recommendations")
    wait_idle(qtbot, cards)
    noted = [c for c in cards.cards if c.calibration_label is not None]
    assert noted, "no card says it is calibrated"
    text = " ".join(c.calibration_label.text() for c in noted)
    assert "Calibrated to site lab" in text and "documents " in text and "→ site" in text
    assert "fio3_randrw_2jobs.json" in text and "random read" in text
    assert "Calibration" in cards.design.text() and "site lab" in cards.design.text()

    # the Sites view: the site's figures readable, with their files; which site calibrates
    sites = window.show_view("sites")
    figs = sites.figures_label.text()
    assert "random read" in figs and "IOPS" in figs and "fio3_randrw_2jobs.json" in figs
    assert "Calibrated to site lab" in sites.calibration_label.text()

    # the report says so
    from ui.report import report_html

    html = report_html("r", s.advice, {}, {})
    assert "Calibrated to site lab" in html and "fio3_randrw_2jobs.json" in html

    # the site chart: byte rates only (PostMark's files/s and sysbench's events/s are left out)
    from advisor.figures.charts import site_chart

    chart = site_chart(s.kb, s.document.scenario, s.advice, {}, userdb=s.userdb, site="lab")
    lab = next(p for p in chart.points if p.name == "site lab")
    rates = [m for m in s.userdb.site_measurements("lab", "throughput") if m.unit.endswith("B/s")]
    assert len(lab.y) == len(rates) and chart.y_unit == "MB/s"

    # saved with the scenario; open again: still calibrated; undo takes the site away
    path = tmp_path / "calibrated.yaml"
    assert window._save_to(path)
    assert yaml.safe_load(path.read_text())["calibration"] == {"site": "lab"}
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        doc.undo_stack.undo()
    assert s.site == "" and sites.calibrate.currentIndex() == 0
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        window.open_scenario(path)
    assert s.site == "lab" and sites.calibrate.currentText() == "lab"


def test_a_scenario_naming_a_site_this_computer_lacks_is_advised_and_says_so(kb_file):
    from advisor.engine import advise
    from knowledge.store import KnowledgeBase
    from ui.demo import demo_data

    data = demo_data()
    data["calibration"] = {"site": "colleague-lab"}
    with KnowledgeBase.open(kb_file) as kb:
        advice = advise(data, kb=kb)
    assert advice.calibration.site == "colleague-lab" and not advice.calibration.figures
    assert any("colleague-lab" in w and "does not hold" in w for w in advice.warnings)


def test_the_app_opens_a_file_naming_a_site_it_lacks_and_says_so(window, qtbot, tmp_path):
    """A colleague's scenario calibrated to their site: the app advises it (it refused the advice
    with 'unknown site' when the session passed the site itself) and the Sites view says why the
    site is not used."""
    s = window.session
    data = s.document.data
    data = {**data, "calibration": {"site": "colleague-lab"}}
    path = tmp_path / "colleague.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with qtbot.waitSignal(s.sig_advice, timeout=60000):
        window.open_scenario(path)
    qtbot.waitUntil(lambda: not s.advice_task.running and not s._debounce.isActive(), timeout=60000)
    assert s.site == "colleague-lab" and s.advice.calibration.site == "colleague-lab"
    assert not s.advice.calibration.figures and not window.error_bar.isVisible()
    sites = window.show_view("sites")
    assert "Site colleague-lab chosen but not used" in sites.calibration_label.text()
