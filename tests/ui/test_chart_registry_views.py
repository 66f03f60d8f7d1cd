"""The GUI's chart views read the chart registry: the Plots tab, the report, the what-if tab and the
workshop show exactly the registry's charts, in its order (the views with their charts drawn are
checked by tests/ui/test_window_session.py and test_main_window.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.figures import registry

pytestmark = pytest.mark.timeout(60)


def test_the_panels_lists_are_the_registrys():
    from ui.panels import qt_plots, qt_report, qt_whatif

    assert qt_plots.KEYS == registry.keys(registry.PLOTS)
    assert qt_report.REPORT_CHARTS == registry.keys(registry.REPORT)
    assert qt_whatif.CHART_KEYS == registry.keys(registry.WHATIF)
    assert "registry.keys(registry.WORKSHOP) if large else CHART_KEYS" in Path(qt_whatif.__file__).read_text()



def test_the_plots_tab_states_the_models_interval_level(window):
    """The bands the charts draw are the models' conformal intervals: the tab says their level (it said
    80 % while the intervals were 90 %)."""
    from advisor.models.conformal import LEVEL

    plots = window.show_view("plots")
    assert f"bands are {round(100 * LEVEL)} % intervals" in plots.info.text()
