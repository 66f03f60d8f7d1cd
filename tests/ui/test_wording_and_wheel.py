"""Issue #29, point 8: a field reached with Tab is not changed by the mouse wheel (only after a
click into it); a huge number reads as 1e300, not its 301 digits; card and cost texts use the
app's words (no rule ids, key paths or lower-case metric keys)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.ui.test_input_routing import _window
from tests.ui.userinput import click, focus, key, wheel


def test_a_field_reached_with_tab_ignores_the_wheel_until_clicked(qtbot):
    w = _window(qtbot, (1280, 800))
    panel = w.show_view("scenario")
    doc = w.session.document
    count = panel.hosts_form.editors[("count",)]
    reserve = panel.hosts_form.editors[("reserve",)]
    click(w, count)
    assert focus() is count
    before = doc.get(("hosts", "reserve"))
    for _ in range(6):  # Tab on until the reserve field has the focus (as a keyboard user does)
        if focus() is reserve:
            break
        key(Qt.Key.Key_Tab)
    assert focus() is reserve
    wheel(w, reserve, steps=1)
    assert doc.get(("hosts", "reserve")) == before  # the wheel scrolled, the value stayed
    click(w, reserve)
    wheel(w, reserve, steps=1)
    assert doc.get(("hosts", "reserve")) == before + 1
    key(Qt.Key.Key_Tab)
    key(Qt.Key.Key_Backtab)  # back by keyboard: disarmed again
    assert focus() is reserve
    wheel(w, reserve, steps=1)
    assert doc.get(("hosts", "reserve")) == before + 1


def test_a_huge_number_reads_in_exponent_form(qtbot):
    from ui.panels.editors import format_number

    assert format_number(1e300) == "1e300"
    assert len(format_number(1e300)) < 12
    assert format_number(256.0) == "256" and format_number(2.5) == "2.5" and format_number(1e-9) == "1e-09"
    w = _window(qtbot)
    panel = w.show_view("scenario")
    w.session.document.set(("hosts", "ram_gib"), 1e300, "huge")
    QApplication.processEvents()
    assert panel.hosts_form.editors[("ram_gib",)].text() == "1e300"


def test_a_fixed_hypervisor_reads_without_key_paths_or_rule_ids(window):
    from advisor.engine import advise
    from advisor.figures.prose import prose
    from advisor.scenario.reader import parse_scenario
    from ui.demo import demo_data

    data = demo_data()
    data.setdefault("preferences", {})["hypervisor"] = "Xen"
    advice = advise(parse_scenario(data), window.session.kb)
    rec = advice.first("hypervisor", "cluster")
    texts = [prose(a.why_not) for a in rec.alternatives] + [prose(rec.rationale)]
    assert any("the scenario's preferences fix the hypervisor to Xen" in t for t in texts), texts
    assert not [t for t in texts if "preferences.hypervisor" in t or "[hv." in t]


def test_figure_names_read_as_labels():
    from advisor.text import figure_parts

    assert figure_parts("iops_share_per_vm", {"value": 40.0, "unit": "%"})[0] == "IOPS share per VM"
    assert figure_parts("throughput_per_vm", {"value": 4.0, "unit": "MB/s"})[0] == "throughput per VM"


def test_at_1024_px_the_task_header_and_what_if_legends_are_whole(window, qtbot):
    """Was: 'Deadline D_' in the task table's header, 'directsync (estimated) ★ reco' under a
    what-if chart."""
    from PySide6.QtGui import QFontMetrics

    from tests.ui.conftest import wait_idle
    from ui.plots.charts import ChartWidget

    window.resize(1024, 700)
    panel = window.show_view("realtime")
    wait_idle(qtbot, panel)
    QApplication.processEvents()
    header = panel.table.horizontalHeader()
    fm = QFontMetrics(header.font())
    for col in range(panel.table.columnCount()):
        text = panel.table.horizontalHeaderItem(col).text()
        widest = max(fm.horizontalAdvance(line) for line in text.splitlines())
        assert widest + 8 <= header.sectionSize(col), (text, header.sectionSize(col))
    whatif = window.show_view("whatif")
    wait_idle(qtbot, whatif, 60000)
    qtbot.wait(100)
    QApplication.processEvents()
    charts = [c for c in whatif.findChildren(ChartWidget) if c.legend_label.isVisible()]
    assert charts
    for chart in charts:
        label = chart.legend_label
        assert label.minimumSizeHint().width() <= label.width(), (chart.spec.title, label.width())


def test_design_search_texts_name_storage_in_the_cards_words():
    from advisor.optimize.space import StorageOption

    assert StorageOption("nfs_file", "store-a").text() == "NFS, image files on store-a"
    assert StorageOption("local_disk").text() == "local disk"
    assert StorageOption("nfs_file", "store-a").label() == "nfs_file on store-a"  # the JSON's interface stays
