"""Journey (a): an architect builds a scenario from scratch at 1920x1080: hosts, local disks and
shared storage typed into the forms and tables, three workload groups (one real-time, its tasks
pasted from a spreadsheet), advice, save (a name without extension), reopen, export PDF and
HTML and check their text and charts. Real X input on Xvfb (see conftest.py)."""

from __future__ import annotations

import re
import shutil
import subprocess

from PySide6.QtGui import QGuiApplication

from tests.gui_journeys.steps import answer_file_dialog, cell, choose, fill, scroll_to
from tests.gui_journeys.xinput import pump, wait_until


def _advice_settled(w) -> bool:
    s = w.session
    return (s.advice is not None and not s.advice_task.running and not s._debounce.isActive()
            and s.document.scenario is not None and s.advice.scenario.name == s.document.scenario.name
            and s.advice.scenario.total_vms == s.document.scenario.total_vms)


def test_architect_builds_saves_reopens_and_exports(x, launch, tmp_path):
    w = launch()
    wait_until(lambda: getattr(w, "welcome", None) is not None and w.welcome.isVisible(), 10, "the welcome")
    x.click(w.welcome.buttons["new"])
    x.focus(w)
    panel = w.show_view("scenario")
    doc = w.session.document
    x.screenshot("new-scenario", w)

    # hosts
    hosts = panel.hosts_form.editors
    fill(x, panel.scenario_form.editors[("name",)], "Acme private cloud")
    for path, text in ((("count",), "5"), (("reserve",), "1"), (("cpu", "model"), "EPYC 7313"),
                       (("cpu", "cores_per_socket"), "16"), (("cpu", "ghz"), "3"), (("ram_gib",), "512"),
                       (("nic_gbps",), "25")):
        fill(x, hosts[path], text)
    assert doc.get(("hosts", "count")) == 5 and doc.get(("hosts", "cpu", "model")) == "EPYC 7313"
    assert doc.get(("hosts", "cpu", "ghz")) == 3 and doc.get(("hosts", "ram_gib")) == 512
    assert w.windowTitle().startswith("Acme private cloud")

    # local disks: the row of the new scenario, then a second group of HDDs
    disks = panel.disks_table
    cell(x, disks, 0, 1, "4", end="Tab")  # count, then Tab into the size
    x.type("3840")
    x.key("Return")
    assert doc.get(("hosts", "disks", 0)) == {"kind": "ssd", "count": 4, "size_gb": 3840.0}
    x.click(disks.add_button)
    cell(x, disks, 1, 0, "h")
    cell(x, disks, 1, 1, "2")
    cell(x, disks, 1, 2, "8000")
    assert doc.get(("hosts", "disks", 1)) == {"kind": "hdd", "count": 2, "size_gb": 8000.0}
    # shared storage: NFS on a 25 Gb/s network with 100 TB
    shared = panel.shared_table
    x.click(shared.add_button)
    cell(x, shared, 0, 1, "25", end="Tab")
    x.type("100")
    x.key("Return")
    assert doc.get(("hosts", "shared_storage", 0)) == {"kind": "nfs", "network_gbps": 25.0, "capacity_tb": 100.0}
    assert doc.problems == {}
    x.screenshot("hosts-and-storage", w)

    # three workload groups
    form = panel.workload_form.editors
    fill(x, form[("name",)], "web")
    fill(x, form[("vms",)], "30")
    fill(x, form[("ram_gib",)], "4")
    x.click(panel.workload_list)  # back from the form
    add = next(b for b in panel.findChildren(type(disks.add_button)) if b.text() == "Add")
    x.click(add)
    fill(x, form[("name",)], "db")
    fill(x, form[("vms",)], "4")
    fill(x, form[("vcpus",)], "8")
    fill(x, form[("ram_gib",)], "32")
    choose(x, form[("cpu_intensity",)], "high")
    choose(x, form[("io", "intensity")], "high")
    x.click(add)
    fill(x, form[("name",)], "control")
    fill(x, form[("vms",)], "2")
    fill(x, form[("vcpus",)], "1")
    fill(x, form[("application",)], "telecom")
    assert [wl["name"] for wl in doc.get(("workloads",))] == ["web", "db", "control"]
    assert doc.get(("workloads", 1, "cpu_intensity")) == "high"
    x.screenshot("workloads", w)

    # the real-time tasks of "control": pasted from a spreadsheet, saved into the scenario
    rt = w.show_view("realtime")
    choose(x, rt.workload, "control")
    assert rt.table.rowCount() == 0  # no sample tasks
    QGuiApplication.clipboard().setText("task\tperiod\twcet\nsensor\t20\t2\nloop\t50\t8\nlog\t100\t15\n")
    x.click(rt.table.viewport())
    x.key("ctrl+v")
    wait_until(lambda: not rt.busy() and rt.result is not None, 30, "the real-time analysis")
    assert [r[0] for r in rt.rows()] == ["sensor", "loop", "log"]
    x.click(rt.save_button)
    assert [t["name"] for t in doc.get(("workloads", 2, "realtime", "tasks"))] == ["sensor", "loop", "log"]
    x.screenshot("realtime", w)

    # advice
    x.key("F5")
    wait_until(lambda: _advice_settled(w), 60, "the advice")
    advice = w.session.advice
    assert advice.find("vm_period_budget", "workload:control") is not None
    hosts_needed = advice.find("host_count").expected["hosts"]["value"]
    w.show_view("recommendations")
    pump(500)
    x.screenshot("recommendations", w)

    # save with a name typed without extension: the format's extension is added
    target = tmp_path / "acme"
    answer_file_dialog(x, target, lambda: x.key("ctrl+s"), w)
    saved = tmp_path / "acme.yaml"
    wait_until(lambda: saved.exists(), 10, "the saved file")
    assert doc.path == saved and not doc.dirty
    assert "acme.yaml" in w.windowTitle() or w.windowTitle().startswith("Acme private cloud")
    data = doc.data

    # reopen: a new scenario, then Open
    x.key("ctrl+n")
    wait_until(lambda: doc.title == "new scenario", 10, "the new scenario")
    answer_file_dialog(x, saved, lambda: x.key("ctrl+o"), w)
    wait_until(lambda: doc.path == saved, 10, "the reopened file")
    from advisor.scenario import parse_scenario

    assert parse_scenario(doc.data).to_dict() == parse_scenario(data).to_dict()  # nothing lost on the way
    wait_until(lambda: _advice_settled(w), 60, "the advice of the reopened file")
    assert w.session.advice.find("host_count").expected["hosts"]["value"] == hosts_needed
    x.screenshot("reopened", w)

    # export PDF and HTML from the Report view
    report = w.show_view("report")
    wait_until(lambda: not report.busy() and report.images, 60, "the report charts")
    pdf, html_path = tmp_path / "acme-report.pdf", tmp_path / "acme-report.html"
    answer_file_dialog(x, pdf, lambda: x.key("ctrl+e"), w)
    wait_until(lambda: pdf.exists(), 30, "the PDF")
    answer_file_dialog(x, tmp_path / "acme-report", lambda: report.export_dialog("html"), w)
    wait_until(lambda: html_path.exists(), 30, "the HTML")
    x.screenshot("report", w)

    html = html_path.read_text(encoding="utf-8")
    assert "Acme private cloud" in html and "Number of hosts" in html
    charts = len(re.findall(r"<img[^>]+src=\"data:image/png;base64,", html))
    assert charts == len(report.images) >= 6, charts
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, timeout=60).stdout
        assert "Acme private cloud" in text and "Number of hosts" in text
        assert f"{hosts_needed:g} hosts" in text
    if shutil.which("pdfimages"):
        listing = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True, text=True, timeout=60).stdout
        images = [ln for ln in listing.splitlines()[2:] if ln.strip()]
        assert len(images) >= len(report.images), listing
    scroll_to(x, report.preview)
