"""The journeys of issue #17, each on its own Xvfb with real X input (see conftest.py): a child
pytest runs ``journey_<name>.py`` with Qt's xcb platform; its screenshots are written to
``tests/gui_journeys/screenshots/<name>/`` to be looked at."""

from __future__ import annotations

import pytest


@pytest.mark.slow
@pytest.mark.timeout(330)
def test_architect_builds_a_scenario_from_scratch(journey):
    """(a) hosts, disks and shared storage typed into the tables, three workloads (one real-time),
    advice, save, reopen, PDF and HTML export with every chart."""
    journey("architect", "1920x1080")


@pytest.mark.slow
@pytest.mark.timeout(330)
def test_consultant_runs_a_workshop_on_a_projector(journey):
    """(b) example at 1280x720, workshop mode, sliders dragged, advice and host count change,
    apply, undo, guide, leave."""
    journey("consultant", "1280x720")


@pytest.mark.slow
@pytest.mark.timeout(330)
def test_site_team_imports_calibrates_and_restarts(journey):
    """(c) real fio, bonnie++, PostMark and sysbench outputs imported, the advice calibrated to the
    site, saved, the app restarted: still calibrated, the cards and the report say so."""
    journey("site_team", "1920x1080")


@pytest.mark.slow
@pytest.mark.timeout(330)
def test_bad_input_everywhere_is_explained_and_nothing_is_lost(journey):
    """(d) wrong values in every kind of field and table, a refused save, broken files."""
    journey("bad_input", "1920x1080")


@pytest.mark.slow
@pytest.mark.timeout(330)
def test_estate_user_imports_optimizes_and_exports_by_keyboard(journey):
    """(e, issue #29) File > Import inventory from the menu by keyboard only: import, cost catalogue,
    optimize, load the best design, export the configuration and the report."""
    journey("estate", "1280x720")


@pytest.mark.slow
@pytest.mark.timeout(330)
def test_a_screen_reader_hears_every_control_of_every_view(journey):
    """(f, issue #29) every view by its shortcut and the workshop by F11 on a real X display: every
    interactive widget has an accessible name, every chart its description, every what-if slider
    its value in its unit."""
    journey("screen_reader", "1280x720")
