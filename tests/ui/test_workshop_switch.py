"""Issue #29 point 2: entering and leaving workshop mode switches layouts only: no chart of the
window redrawn, the application's look and a
``--font-pt`` run's font untouched, and the window given back exactly (maximized, geometry)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.benchmarks.bench_gui import workshop_cpu
from ui.plots.charts import ChartWidget

# The CPU cost of a switch (target < 0.5 s) is measured by `tests/benchmarks/bench_gui.py --workshop`
# against a baseline in the same run, never asserted here: a loaded CI machine is no measure.


@pytest.mark.timeout(300)
def test_enter_and_leave_redraw_no_chart(window, qtbot, monkeypatch):
    workshop_cpu(window, rounds=2)  # every view made first
    drawn = []
    original = ChartWidget.set_spec
    monkeypatch.setattr(ChartWidget, "set_spec", lambda self, *a, **k: (drawn.append(self), original(self, *a, **k)))
    workshop_cpu(window, rounds=2)
    assert not drawn, f"{len(drawn)} charts redrawn by switching"


def test_the_application_look_and_a_font_pt_run_stay_as_they_are(window, qtbot):
    from ui import theme

    app = QApplication.instance()
    theme.apply(app, "light", 16.0)  # `capadvisor gui --font-pt 16`: not a saved preference
    QApplication.processEvents()
    assert window.font().pointSizeF() == 16.0
    sheet, font, palette = app.styleSheet(), app.font().pointSizeF(), app.palette().window().color().name()
    window.toggle_workshop(True, full_screen=False)
    assert (app.styleSheet(), app.font().pointSizeF()) == (sheet, font)
    assert window._workshop.palette().window().color().name() == theme.WORKSHOP["window"]
    window.toggle_workshop(False)
    assert (app.styleSheet(), app.font().pointSizeF(), app.palette().window().color().name()) == (
        sheet, font, palette)
    QApplication.processEvents()
    assert window.font().pointSizeF() == 16.0
    theme.apply(app, window.settings.theme, window.settings.font_pt)  # for the next tests


def test_leaving_gives_back_a_maximized_window(window, qtbot):
    window.showMaximized()
    qtbot.waitUntil(lambda: window.isMaximized(), timeout=5000)
    window.toggle_workshop(True)
    qtbot.waitUntil(lambda: window.isFullScreen(), timeout=5000)
    assert not window.menuBar().isVisible() and not window.statusBar().isVisible()
    window.toggle_workshop(False)
    qtbot.waitUntil(lambda: not window.isFullScreen(), timeout=5000)
    assert window.windowState() & Qt.WindowState.WindowMaximized
    assert window.menuBar().isVisible() and window.statusBar().isVisible()


def test_leaving_gives_back_the_geometry(window, qtbot):
    window.showNormal()
    window.setGeometry(30, 40, 700, 480)  # within the offscreen 800x600 screen
    for _ in range(3):
        QApplication.processEvents()
    before = window.geometry()
    window.toggle_workshop(True)
    qtbot.waitUntil(lambda: window.isFullScreen(), timeout=5000)
    window.toggle_workshop(False)
    qtbot.waitUntil(lambda: not window.isFullScreen(), timeout=5000)
    QApplication.processEvents()
    assert window.geometry() == before
    assert not window.windowState() & Qt.WindowState.WindowMaximized


@pytest.mark.timeout(300)
def test_the_first_entry_draws_each_chart_once_from_the_tabs_data(window, qtbot, monkeypatch):
    """Was: the first entry cost 0.5-0.74 s CPU (measured by the benchmark): every workshop chart was
    computed twice (inputs, then the advice's marks), drawn, then drawn again in the workshop's look,
    although the What-if tab had just computed the same charts."""
    import advisor.figures.charts as chart_builders
    from tests.ui.conftest import wait_idle
    from ui.screenshots import settle

    tab = window.show_view("whatif")
    wait_idle(qtbot, tab, 60000)
    settle(window)
    computed, built = [], []
    safe_chart = chart_builders.safe_chart
    monkeypatch.setattr(chart_builders, "safe_chart", lambda key, *a, **k: (computed.append(key),
                                                                             safe_chart(key, *a, **k))[1])
    build = ChartWidget._build
    monkeypatch.setattr(ChartWidget, "_build", lambda self, spec: (built.append(spec.key), build(self, spec))[1])
    window.toggle_workshop(True)
    shop = window._workshop.whatif
    assert not [k for k in computed if k != "realtime"], computed  # the tab's chart data, reused
    drawn = [k for k in built if k != "realtime"]
    assert sorted(drawn) == sorted(k for k in shop.charts if k != "realtime"), built  # each once
    wait_idle(qtbot, shop, 60000)
    window.toggle_workshop(False)
