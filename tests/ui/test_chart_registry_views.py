"""The GUI's chart views read the chart registry: the Plots tab, the report, the what-if tab and the
workshop show exactly the registry's charts, in its order."""

from __future__ import annotations

import pytest

from advisor.figures import registry

pytestmark = pytest.mark.timeout(60)


def test_the_panels_lists_are_the_registrys():
    from ui.panels import qt_plots, qt_report, qt_whatif

    assert qt_plots.KEYS == registry.keys(registry.PLOTS)
    assert qt_report.REPORT_CHARTS == registry.keys(registry.REPORT)
    assert qt_whatif.CHART_KEYS == registry.keys(registry.WHATIF)


def test_the_what_if_tab_and_the_workshop_show_the_registrys_charts(session, qtbot):
    from ui.panels.qt_whatif import QtWhatIfPanel

    tab, shop = QtWhatIfPanel(session), QtWhatIfPanel(session, large=True)
    qtbot.addWidget(tab)
    qtbot.addWidget(shop)
    assert tuple(tab.charts) == registry.keys(registry.WHATIF)
    assert tuple(shop.charts) == registry.keys(registry.WORKSHOP)
