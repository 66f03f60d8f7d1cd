"""The views of the main window, registered in code: one tab each, made on first use by a factory
that imports its panel (so start-up stays quick, and import-linter sees every panel module)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from PySide6.QtWidgets import QWidget


def _scenario(session) -> QWidget:
    from ui.panels.qt_scenario import QtScenarioPanel

    window = session.parent()  # the main window, at its size (the workload's fields it shows are made first)
    return QtScenarioPanel(session.document, session.notifier,
                           window=window.size() if isinstance(window, QWidget) else None)


def _recommendations(session) -> QWidget:
    from ui.panels.qt_recommendations import QtRecommendationsPanel

    return QtRecommendationsPanel(session)


def _plots(session) -> QWidget:
    from ui.panels.qt_plots import QtPlotsPanel

    return QtPlotsPanel(session)


def _whatif(session) -> QWidget:
    from ui.panels.qt_whatif import QtWhatIfPanel

    return QtWhatIfPanel(session)


def _realtime(session) -> QWidget:
    from ui.panels.qt_realtime import QtRealtimePanel

    return QtRealtimePanel(session)


def _compare(session) -> QWidget:
    from ui.panels.qt_compare import QtComparePanel

    return QtComparePanel(session)


def _knowledge_base(session) -> QWidget:
    from ui.panels.qt_kb_browser import QtKnowledgeBasePanel

    return QtKnowledgeBasePanel(session)


def _sites(session) -> QWidget:
    from ui.panels.qt_sites import QtSitesPanel

    return QtSitesPanel(session)


def _report(session) -> QWidget:
    from ui.panels.qt_report import QtReportPanel

    return QtReportPanel(session)


def _optimize(session) -> QWidget:
    from ui.panels.qt_optimize import QtOptimizePanel

    return QtOptimizePanel(session)


class View(NamedTuple):
    """A tab of the main window; ``name`` is also the screenshot name and the saved tab."""

    name: str
    title: str
    make: Callable[[object], QWidget]  # the panel, from the Session
    tip: str


VIEWS: tuple[View, ...] = (
    View("scenario", "Scenario", _scenario, "Hosts, workload groups and preferences"),
    View("recommendations", "Recommendations", _recommendations,
         "One card per decision, with expected figures and citations"),
    View("plots", "Plots", _plots, "Measured points and model curves behind the advice"),
    View("whatif", "What-if", _whatif, "Move the inputs that matter most"),
    View("realtime", "Real-time", _realtime, "VM period and budget for a task set"),
    View("compare", "Compare", _compare, "Two to four scenarios side by side"),
    View("knowledge_base", "Knowledge base", _knowledge_base, "Every measurement of the five documents"),
    View("sites", "Sites && imports", _sites, "Your own benchmark results"),
    View("report", "Report", _report, "Preview and export for a client"),
    View("optimize", "Optimize", _optimize, "The cheapest design that meets the targets, and cost against headroom"),
)
#: shorter tab titles for a narrow window or large fonts (the full title stays the tooltip)
SHORT_TITLES = {"recommendations": "Advice", "knowledge_base": "Knowledge", "sites": "Sites"}


def view_names() -> list[str]:
    return [v.name for v in VIEWS]


def view(name: str) -> View:
    return VIEWS[view_names().index(name)]
