"""The main window in a real session (issue #17): workshop mode on a projector and the window's
geometry (point 4), saving and error banners (7), messages and bad files (8), small screens and
large fonts (11), title, mnemonics, help and the first start (12)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox

from app.gui import settings_store
from tests.ui.cutcheck import cut_widgets
from tests.ui.userinput import click, type_text
from ui.demo import demo_data

DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture()
def make_window(qtbot):
    """``make_window(size)``: the real main window (no knowledge base) on the demo scenario."""
    from ui.main_window import MainWindow
    from ui.session import Session

    def make(size=(1280, 800), data=None):
        w = MainWindow(Session(settings_store()))
        qtbot.addWidget(w, before_close_func=lambda win: win.session.document.undo_stack.setClean())
        w.session.document.load_data(data or demo_data())
        w.resize(*size)
        w.show()
        w.activateWindow()
        qtbot.waitExposed(w)
        return w

    return make


# --- point 4 ---------------------------------------------------------------------------------
def test_workshop_mode_fits_a_1280x720_projector_and_gives_the_window_back(make_window, qtbot):
    w = make_window((760, 540))  # within the (offscreen) screen
    w.move(10, 10)
    before = w.geometry()
    w.session.document.set(("name",), "Mixed cluster with a real-time telecom function for a client")
    w.toggle_workshop(True, full_screen=False)
    w.resize(1280, 720)
    QApplication.processEvents()
    assert (w.width(), w.height()) == (1280, 720)  # nothing forces it wider than the projector
    leave = w._workshop.leave_button
    right = leave.mapTo(w, leave.rect().topRight()).x()
    assert leave.isVisible() and right <= w.width() and leave.width() >= leave.sizeHint().width()
    assert w._workshop.minimumSizeHint().width() <= 1280
    w.toggle_workshop(False)
    QApplication.processEvents()
    assert w.geometry().size() == before.size()


def test_saved_geometry_larger_than_the_screen_is_brought_back_onto_it(make_window, qtbot):
    from ui.main_window import MainWindow, window_settings
    from ui.session import Session

    avail = QApplication.primaryScreen().availableGeometry()
    w = make_window()
    w.setGeometry(avail.x() + 500, avail.y() + 300, avail.width() + 900, avail.height() + 400)
    w.save_state()
    assert window_settings().value("geometry") is not None
    again = MainWindow(Session(settings_store()))
    qtbot.addWidget(again)
    frame = again.frameGeometry()
    assert again.width() <= avail.width() and again.height() <= avail.height()
    assert avail.contains(frame.topLeft()) and frame.right() <= avail.right() + 1
    # entering workshop mode and quitting there does not save the full-screen size
    again.resize(700, 500)
    again.toggle_workshop(True, full_screen=False)
    again.resize(1280, 720)
    again.save_state()
    third = MainWindow(Session(settings_store()))
    qtbot.addWidget(third)
    assert (third.width(), third.height()) == (700, 500)


# --- point 7 ---------------------------------------------------------------------------------
def test_save_dialog_proposes_a_sensible_place_and_adds_the_extension(make_window, tmp_path):
    from knowledge.infra.paths import bundle_root
    from ui.main_window import with_scenario_suffix

    w = make_window()
    w.open_example()
    dlg = w.save_dialog()
    folder = Path(dlg.directory().absolutePath())
    assert not folder.resolve().is_relative_to(bundle_root().resolve())
    assert w.settings.last_dir == "" or not Path(w.settings.last_dir).resolve().is_relative_to(bundle_root())
    assert dlg.defaultSuffix() == "yaml"
    assert with_scenario_suffix(tmp_path / "lab", "TOML scenario (*.toml)") == tmp_path / "lab.toml"
    assert with_scenario_suffix(tmp_path / "lab.v2", "YAML scenario (*.yaml *.yml)") == tmp_path / "lab.v2.yaml"
    assert with_scenario_suffix(tmp_path / "lab.json", "YAML scenario (*.yaml *.yml)") == tmp_path / "lab.json"
    # a name typed without an extension is saved, with the chosen format's
    assert w._save_to(tmp_path / "client-a")
    assert (tmp_path / "client-a.yaml").exists() and w.session.document.path == tmp_path / "client-a.yaml"
    # next time the dialog starts where the user saved, with the scenario's file
    w.session.document.path = None
    assert Path(w.save_dialog().directory().absolutePath()) == tmp_path


def test_an_error_banner_goes_away_with_the_next_success(make_window, tmp_path):
    w = make_window()
    w.session.document.set(("hosts", "count"), 0)
    assert not w._save_to(tmp_path / "x.yaml")
    assert w.error_bar.isVisible()
    text = w.error_bar.label.text()
    assert "Hosts: must be &gt;= 1" in text or "Hosts: must be >= 1" in text
    assert "hosts.count" not in text
    w.session.document.undo_stack.undo()
    assert w._save_to(tmp_path / "x.yaml")
    assert not w.error_bar.isVisible()
    # a worker's error is cleared by the next success of the same task
    from knowledge.infra.errors import InputError

    w.session.notifier.failure("advice", InputError("no such site"))
    assert w.error_bar.isVisible()
    w.session.notifier.success("importing")
    assert w.error_bar.isVisible()
    w.session.notifier.success("advice")
    assert not w.error_bar.isVisible()


# --- point 8 ---------------------------------------------------------------------------------
def test_messages_name_fields_in_the_editors_words():
    from ui.panels.qt_scenario import describe_problem

    data = demo_data()
    assert describe_problem("workloads[0].io.read_share", "must be <= 1", data) == 'Workload "web", Read share: must be <= 1'
    assert describe_problem("workloads[1].io.footprint_gb", "must be <= io.disk_gb (500)", data) == \
        'Workload "database", Data footprint: must be <= Virtual disk (500)'
    assert describe_problem("hosts.disks[1].count", "must be >= 1", data) == "Local disk group 2, Count: must be >= 1"


def test_a_file_with_a_wrong_value_opens_to_be_fixed(make_window, tmp_path):
    w = make_window()
    data = demo_data()
    data["workloads"][0]["io"]["read_share"] = 1.7
    import yaml

    path = tmp_path / "client.yaml"
    path.write_text(yaml.safe_dump(data))
    assert w.open_scenario(path)
    doc = w.session.document
    assert doc.get(("workloads", 0, "io", "read_share")) == 1.7  # as written, not clamped
    panel = w.show_view("scenario")
    assert 'Workload "web", Read share: must be <= 1' in panel.banner.text()
    assert "workloads[0]" not in panel.banner.text()
    row = panel.workload_form.rows[("io", "read_share")]
    assert row.error.isVisibleTo(panel) and row.error.text() == "must be <= 1"
    editor = panel.workload_form.editors[("io", "read_share")]
    click(w, editor)
    editor.selectAll()
    type_text("0.7")
    assert doc.problems == {}
    assert w._save_to(path)


def test_typed_out_of_range_numbers_are_kept_and_flagged_not_clamped(make_window):
    w = make_window()
    panel = w.show_view("scenario")
    doc = w.session.document
    for path, text, value, message in ((("io", "read_share"), "1.5", 1.5, "must be <= 1"),
                                       (("io", "iops"), "-20", -20, ">"),
                                       (("vms",), "2.5", 2.5, "integer"),
                                       (("ram_gib",), "abc", "abc", "number")):
        editor = panel.workload_form.editors[path]
        click(w, editor)
        editor.selectAll()
        type_text(text)
        assert doc.get(("workloads", 0) + path) == value
        problem = doc.problems.get("workloads[0]." + ".".join(path), "")
        assert message in problem, (path, problem)
        assert editor.text() == text
        doc.undo_stack.undo()
    assert doc.problems == {}


def test_open_on_a_benchmark_file_offers_import(make_window, monkeypatch):
    w = make_window()
    asked, imported = [], []
    monkeypatch.setattr(w, "import_files", lambda paths: imported.extend(paths))

    def answer(box):
        asked.append(box.text())
        box.setProperty("_clicked", True)
        for b in box.buttons():
            if b.text().replace("&", "") == "Import…":
                b.click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", answer)
    fio = DATA / "fio3_randrw_2jobs.json"
    before = w.session.document.data
    assert not w.open_scenario(fio)
    assert asked and "fio" in asked[0] and "not a scenario" in asked[0]
    assert imported == [fio]
    assert w.session.document.data == before and not w.error_bar.isVisible()


# --- point 11 --------------------------------------------------------------------------------
VIEWS_CHECKED = ("scenario", "recommendations", "plots", "whatif", "realtime", "compare", "knowledge_base", "sites",
                 "report", "optimize")


@pytest.mark.parametrize("size,font_pt", [((1024, 700), 0.0), ((1024, 700), 16.0), ((1280, 720), 16.0)])
def test_nothing_is_cut_on_a_small_screen_or_with_large_fonts(make_window, size, font_pt):
    from ui import theme

    theme.apply(QApplication.instance(), "light", font_pt)
    try:
        w = make_window(size)
        for name in VIEWS_CHECKED:
            w.show_view(name)
            QApplication.processEvents()
            assert (w.width(), w.height()) == size, f"{name} makes the window {w.width()}x{w.height()}"
            assert cut_widgets(w) == [], name
        bar = w.tabs.tabBar()
        assert all(bar.tabRect(i).right() <= bar.width() for i in range(bar.count()))
        assert all(bar.tabToolTip(i) for i in range(bar.count()))
    finally:
        theme.apply(QApplication.instance(), "light", 0.0)


# --- point 12 --------------------------------------------------------------------------------
def test_title_follows_the_name_and_menus_show_no_literal_mnemonics(make_window):
    from ui.main_window import strip_mnemonic

    w = make_window()
    assert w.windowTitle().startswith("Regional private cloud (not saved)")
    w.session.document.set(("name",), "Client A")
    assert w.windowTitle().startswith("Client A (not saved)")
    assert w.isWindowModified()
    for act in w.actions():
        assert "&" not in act.toolTip().replace("&&", ""), act.toolTip()
    view_texts = [a.text() for a in w.menuBar().actions()[2].menu().actions() if a.text()]
    assert "Sites && imports" in view_texts  # shown as "Sites & imports" (no mnemonic on the space)
    assert strip_mnemonic("Sites && imports") == "Sites & imports"


def test_f1_opens_the_guide_at_the_view_and_lists_the_shortcuts(make_window, qtbot):
    w = make_window()
    help_menu = w.menuBar().actions()[-1].menu()
    texts = [a.text() for a in help_menu.actions()]
    assert texts[:3] == ["&User guide", "&Keyboard shortcuts", "&Welcome…"]
    w.show_view("realtime")
    from PySide6.QtGui import QKeySequence

    assert QKeySequence("F1") in w.act_guide.shortcuts()
    w.act_guide.trigger()  # (the journey tests press the real F1 key)
    dlg = w.help_dialog
    assert dlg.isVisible()
    assert dlg.section_at_top() == "Real-time"
    text = dlg.browser.toPlainText()
    w.show_shortcuts()
    assert dlg.section_at_top() == "Keyboard shortcuts"
    for keys in ("Ctrl+S", "F5", "F11", "Ctrl+Z", "F1", "Ctrl+Shift+Z"):
        assert keys in text, keys
    dlg.close()


def test_first_start_welcomes_instead_of_opening_the_example_silently(qtbot, kb_file):
    from app.gui import launch

    w = launch(kb_path=kb_file)
    qtbot.addWidget(w, before_close_func=lambda win: win.session.document.undo_stack.setClean())
    qtbot.waitUntil(lambda: getattr(w, "welcome", None) is not None and w.welcome.isVisible(), timeout=5000)
    assert w.session.document.title == "new scenario" and w.session.document.path is None
    assert w.recent_files() == []
    w.welcome.buttons["example"].click()
    assert not w.welcome.isVisible()
    assert w.session.document.path is None and w.session.document.title != "new scenario"
    assert "example" in w.statusBar().currentMessage()
    assert w.recent_files() == []  # the bundled file is not a recent file of the user
    w.session.startup_task.cancel()


def test_nothing_is_cut_with_the_advice_shown_at_1024x700_and_16pt(window, qtbot):
    """The views that fill with the advice (cards, what-if, plots, report) at 1024x700 and 16 pt."""
    from ui import theme
    from ui.screenshots import settle

    theme.apply(QApplication.instance(), "light", 16.0)
    try:
        window.resize(1024, 700)
        for name in ("recommendations", "whatif", "plots", "realtime", "report"):
            panel = window.show_view(name)
            settle(window, panel)
            QApplication.processEvents()
            assert (window.width(), window.height()) == (1024, 700), name
            assert cut_widgets(window) == [], name
    finally:
        theme.apply(QApplication.instance(), "light", 0.0)


def test_whatif_and_realtime_show_their_charts_whole_at_1280x720(window, qtbot):
    """On a 1280x720 projector the what-if tab shows all its charts with their legends without
    scrolling, and the real-time chart keeps its legend and caption in view: the scroll areas
    sized their pages to the charts' preferred 520 px and pushed every legend out of sight."""
    from PySide6.QtCore import QPoint

    from ui.screenshots import settle

    window.resize(1280, 720)
    whatif = window.show_view("whatif")
    settle(window, whatif)
    QApplication.processEvents()
    area = whatif.chart_area
    assert area.verticalScrollBar().maximum() == 0
    view = area.viewport()
    assert not whatif.charts["timeline"].isVisible()  # the example has no growth: no empty timeline
    for key, chart in whatif.charts.items():
        if key == "timeline":
            continue
        legend = chart.legend_label
        assert legend.isVisible(), key
        assert legend.mapTo(view, QPoint(0, legend.height())).y() <= view.height(), key
    rt = window.show_view("realtime")
    settle(window, rt)
    QApplication.processEvents()
    caption = rt.chart.caption
    page = rt.chart.parentWidget()
    assert caption.isVisible()
    area = page.parentWidget().parentWidget()  # the scroll area around the results
    assert caption.mapTo(area.viewport(), QPoint(0, caption.height())).y() <= area.viewport().height()

