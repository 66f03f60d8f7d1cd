"""Journey (c): a site team imports real outputs of fio, bonnie++, PostMark and sysbench (the
fixtures of tests/knowledge/importers, made with the real tools), calibrates the advice to their
site, saves, quits, starts the app again: the scenario comes back still calibrated, the cards say
what the site changed and the report says which site. Real X input on Xvfb (see conftest.py)."""

from __future__ import annotations

from pathlib import Path

from tests.gui_journeys.steps import answer_file_dialog, cell, choose, fill, pick_files
from tests.gui_journeys.xinput import wait_until

FIXTURES = Path(__file__).resolve().parents[1] / "knowledge" / "importers" / "fixtures"
FILES = ("fio3_randrw_2jobs.json", "fio3_seqread_2jobs.jsonplus", "bonnie2_csv.txt", "postmark_terse.txt",
         "sysbench10_cpu.txt")


def _settled(w) -> bool:
    s = w.session
    return (s.advice is not None and not s.advice_task.running and not s._debounce.isActive()
            and not s.baseline_task.running)


def test_site_team_imports_calibrates_and_restarts(x, launch, tmp_path):
    w = launch()
    wait_until(lambda: getattr(w, "welcome", None) is not None and w.welcome.isVisible(), 10, "the welcome")
    x.click(w.welcome.buttons["example"])
    x.focus(w)
    wait_until(lambda: _settled(w), 60, "the advice")
    # our hosts have NVMe disks, like the machine the benchmarks ran on
    panel = w.show_view("scenario")
    cell(x, panel.disks_table, 0, 0, "n")
    assert w.session.document.get(("hosts", "disks", 0, "kind")) == "nvme"

    # import the tools' outputs into site "lab" with the file dialog
    sites = w.show_view("sites")
    fill(x, sites.new_site, "lab")
    pick_files(x, FIXTURES, FILES)
    from PySide6.QtWidgets import QPushButton

    import_button = next(b for b in sites.findChildren(QPushButton) if b.text() == "Import files…")
    x.click(import_button)
    wait_until(lambda: sites.batch is not None and not sites.busy(), 60, "the import")
    x.focus(w)
    assert len([o for o in sites.batch.files if o.status == "imported"]) == len(FILES), sites.batch.summary()
    x.screenshot("imported", w)

    # calibrate to the site: stored in the scenario
    choose(x, sites.calibrate, "lab")
    wait_until(lambda: _settled(w) and w.session.baseline is not None, 60, "the calibrated advice")
    assert w.session.document.get(("calibration", "site")) == "lab"
    assert w.session.advice.calibration.figures
    assert "Calibrated to site lab" in sites.calibration_label.text()
    assert "fio3_randrw_2jobs.json" in sites.figures_label.text()
    x.screenshot("sites-calibrated", w)
    cards = w.show_view("recommendations")
    # the cards are laid out after the view is shown (a slower start under load than any fixed delay)
    wait_until(lambda: any(c.calibration_label is not None for c in cards.cards), 30, "the calibrated cards")
    noted = [c for c in cards.cards if c.calibration_label is not None]
    assert noted and "→ site" in " ".join(c.calibration_label.text() for c in noted)
    x.screenshot("cards-calibrated", w)

    # save, quit, start again
    saved = tmp_path / "lab-cluster.yaml"
    answer_file_dialog(x, saved, lambda: x.key("ctrl+shift+s"), w)
    wait_until(lambda: saved.exists(), 10, "the saved file")
    x.key("ctrl+q")
    wait_until(lambda: not w.isVisible(), 10, "the window to close")

    again = launch()
    wait_until(lambda: _settled(again) and again.session.baseline is not None, 90, "the advice after the restart")
    assert again.session.document.path == saved
    assert again.session.site == "lab" and again.session.advice.calibration.figures
    sites2 = again.show_view("sites")
    assert sites2.calibrate.currentText() == "lab"
    cards2 = again.show_view("recommendations")
    wait_until(lambda: any(c.calibration_label is not None for c in cards2.cards), 30, "the calibrated cards")
    assert "site lab" in cards2.design.text()
    x.focus(again)
    x.screenshot("restarted-still-calibrated", again)

    report = again.show_view("report")
    wait_until(lambda: not report.busy() and report.images, 60, "the report charts")
    html_path = tmp_path / "lab-report.html"
    answer_file_dialog(x, html_path, lambda: report.export_dialog("html"), again)
    wait_until(lambda: html_path.exists(), 30, "the HTML report")
    html = html_path.read_text(encoding="utf-8")
    assert "Calibrated to site lab" in html and "fio3_randrw_2jobs.json" in html
    assert "site" in report.images  # the site chart is in the report
    x.screenshot("report", again)
