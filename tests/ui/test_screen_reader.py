"""What a screen reader hears (issue #29, point 10): every tab of the real main window walked
through Qt's accessibility interface (QAccessible.queryAccessibleInterface, what AT-SPI reads);
every interactive widget (buttons, fields, combos, sliders, tables, tab bars, scroll bars and the
charts) has a name. Was: 44 of 170 unnamed (all what-if sliders, all charts, 9 of 10 tables,
icon-only tool buttons, 3 combos): "slider, 46". Each chart also offers its numbers as a table a
screen reader can read and as text to copy."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAccessible, QGuiApplication
from PySide6.QtWidgets import QApplication, QScrollBar, QWidget

from tests.ui.conftest import wait_idle


def _announced(widget: QWidget) -> tuple[str, str, str]:
    iface = QAccessible.queryAccessibleInterface(widget)
    assert iface is not None and iface.isValid(), widget
    return (iface.role().name, iface.text(QAccessible.Text.Name).strip(),
            iface.text(QAccessible.Text.Description).strip())


def _interactive(widget: QWidget) -> bool:
    import pyqtgraph as pg

    from ui.accessible import is_interactive

    if widget.objectName() == "qt_spinbox_lineedit":
        return False  # the text of a spin box: its spin box is the control, named
    return is_interactive(widget) or isinstance(widget, QScrollBar | pg.PlotWidget)


def _settle(qtbot, window) -> None:
    for _ in range(5):
        QApplication.processEvents()
    for panel in window.panels.values():
        if hasattr(panel, "busy"):
            wait_idle(qtbot, panel, 60000)
    qtbot.wait(50)


@pytest.mark.timeout(300)
def test_every_interactive_widget_of_every_tab_has_a_name(window, qtbot):
    seen: dict[int, tuple] = {}
    for name in window.view_names():
        window.show_view(name)
        _settle(qtbot, window)
        for w in [window, *window.findChildren(QWidget)]:
            if w.isVisible() and _interactive(w) and id(w) not in seen:
                seen[id(w)] = (name, type(w).__name__, w.objectName(), *_announced(w))
    unnamed = [v for v in seen.values() if not v[4]]
    assert len(seen) > 120  # the walk reached every view
    assert not unnamed, f"{len(unnamed)} of {len(seen)} unnamed: {unnamed[:12]}"
    charts = [v for v in seen.values() if v[1] == "PlotWidget"]
    assert len(charts) >= 8 and all(v[4].startswith("Chart: ") and v[5] for v in charts), charts


def test_a_what_if_slider_says_what_it_sets_and_its_value(window, qtbot):
    panel = window.show_view("whatif")
    _settle(qtbot, window)
    for slider in panel.findChildren(QWidget):
        if slider.objectName() == "slider_vms":
            _role, name, description = _announced(slider)
            assert name.startswith("VMs") and "VMs" in name
            assert description.startswith("Now ") and " VMs" in description.split(".")[0]
            break
    else:
        pytest.fail("no VMs slider")


def test_each_chart_has_a_data_table_and_copy(window, qtbot):
    from ui.plots.chart_data import ChartDataDialog, chart_table
    from ui.plots.charts import ChartWidget

    panel = window.show_view("plots")
    _settle(qtbot, window)
    charts = [c for c in panel.findChildren(ChartWidget) if c.spec is not None and not c.spec.empty]
    assert len(charts) >= 4
    for chart in charts:
        assert chart.data_button.isEnabled() and chart.data_button.menu() is not None
        assert chart.copy_data()
        text = QGuiApplication.clipboard().text()
        headers, rows = chart_table(chart.spec)
        assert text.splitlines()[0] == chart.spec.title and "\t".join(headers) in text
        assert rows and len(text.splitlines()) >= len(rows) + 2
        for curve in chart.spec.curves:
            assert any(r[0] == curve.name for r in rows)
    dialog = ChartDataDialog(charts[0].spec, window)
    qtbot.addWidget(dialog)
    dialog.show()
    _role, name, description = _announced(dialog.table)
    assert name == f"Data of the chart {charts[0].spec.title}" and description
    assert dialog.table.rowCount() == len(chart_table(charts[0].spec)[1])
    iface = QAccessible.queryAccessibleInterface(dialog.table)
    assert iface.role() == QAccessible.Role.Table and iface.childCount() > dialog.table.rowCount()  # cells
    dialog.close()


def test_a_what_if_slider_reports_the_value_it_stands_for_not_its_step(window, qtbot):
    """Was: "Hosts planned, slider, 4" while the label showed 6 hosts (the step number)."""
    import re

    panel = window.show_view("whatif")
    _settle(qtbot, window)
    sliders = panel.sliders
    assert len(sliders) >= 5
    for name, s in sliders.items():
        iface = QAccessible.queryAccessibleInterface(s.slider)
        shown = re.sub(r"<[^>]+>", "", s.value_label.text()).strip()
        assert iface.text(QAccessible.Text.Value) == shown, name
        assert iface.valueInterface().currentValue() == pytest.approx(s.value()), name
    hosts = sliders["hosts"]
    hosts.slider.triggerAction(hosts.slider.SliderAction.SliderSingleStepAdd)
    iface = QAccessible.queryAccessibleInterface(hosts.slider)
    assert iface.text(QAccessible.Text.Value) == f"{hosts.value():g} hosts"
    share = sliders["share"]
    iface = QAccessible.queryAccessibleInterface(share.slider)
    assert iface.valueInterface().maximumValue() == pytest.approx(share.hi)
    assert iface.valueInterface().minimumStepSize() == pytest.approx(0.01)


def test_a_field_s_clear_button_is_not_named_like_the_field(window, qtbot):
    """Was: the clear button (⊗) of "Scenario name" was announced "Scenario name, button"."""
    from PySide6.QtWidgets import QAbstractButton, QLineEdit

    seen = 0
    for name in window.view_names():
        window.show_view(name)
        _settle(qtbot, window)
        for field in window.findChildren(QLineEdit):
            for button in field.findChildren(QAbstractButton):
                if button.isVisible():
                    _role, heard, _d = _announced(button)
                    assert heard.startswith("Clear") and heard != _announced(field)[1], (heard, field.objectName())
                    seen += 1
    assert seen
