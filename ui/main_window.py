"""The main window: one tab per view, menus and shortcuts, files, drag and drop, workshop mode,
and the single place where errors from every worker are shown (the error bar)."""

from __future__ import annotations

import logging

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QIcon
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QStackedWidget,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from knowledge.infra.errors import UserFacingError
from ui import theme
from ui.first_paint import after_first_paint
from ui.labels import strip_mnemonic
from ui.problem_banner import ProblemBanner
from ui.session import Session
from ui.views import SHORT_TITLES, VIEWS, view
from ui.views import view_names as _view_names
from ui.window_actions import ActionsMixin
from ui.window_files import FilesMixin, window_settings, with_scenario_suffix
from ui.window_keys import WindowKeysFirst
from ui.window_workshop import WorkshopMixin
from ui.workers import Failure

__all__ = ["ICON", "VIEWS", "MainWindow", "strip_mnemonic", "window_settings", "with_scenario_suffix"]

log = logging.getLogger(__name__)

#: the window manager's frame (borders, title bar) in pixels, assumed before the window has one
FRAME_GUESS = (8, 40)

#: views of data of their own (no scenario problem banner) and views that show only the advice
#: (hidden under the banner while there is no advice of a valid scenario)
OWN_DATA_VIEWS = ("scenario", "knowledge_base", "sites")
ADVICE_VIEWS = ("recommendations", "plots", "whatif", "compare", "report", "optimize")

ICON = theme.ICON  # the application icon (also used by the launcher)


class ErrorBar(QFrame):
    """Shows the latest failure of any worker, with a Details button and a dismiss button."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("errorBar")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 6, 6, 6)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        details = QPushButton("Details")
        details.clicked.connect(self.show_details)
        close = QPushButton("Dismiss")
        close.clicked.connect(self.hide)
        lay.addWidget(self.label, 1)
        lay.addWidget(details)
        lay.addWidget(close)
        self.failure: Failure | None = None
        self.hide()

    def show_failure(self, failure: Failure) -> None:
        self.failure = failure
        from html import escape  # here, not at start-up (issue #30)

        kind = "" if failure.user_facing else "Unexpected error (a bug) in "
        task = failure.task[:1].upper() + failure.task[1:]
        self.label.setText(f"<b>{escape(kind + task)}</b>: {escape(failure.message)}")
        self.show()

    def clear(self, task: str | None = None) -> None:
        """Hide the bar: always (``task`` None), or when it shows a failure of ``task``."""
        if task is None or (self.failure is not None and self.failure.task == task):
            self.failure = None
            self.hide()

    def show_details(self) -> None:
        if self.failure:
            from PySide6.QtWidgets import QMessageBox

            box = QMessageBox(QMessageBox.Icon.Warning, "Error details", self.failure.message, parent=self)
            box.setDetailedText(self.failure.details or self.failure.message)
            box.open()


class MainWindow(ActionsMixin, FilesMixin, WorkshopMixin, QMainWindow):
    """Capacity Advisor's main window around one :class:`Session`."""

    sig_view_created = Signal(str)

    def __init__(self, session: Session, parent=None):
        super().__init__(parent)
        self.session = session
        if self.session.parent() is None:
            self.session.setParent(self)
        self.settings = self.session.settings
        self.setWindowTitle("Capacity Advisor")
        if ICON.exists():
            self.setWindowIcon(QIcon(str(ICON)))
        self.setAcceptDrops(True)
        self.panels: dict[str, QWidget] = {}
        self._workshop = None
        self._workshop_full_screen = True
        self.preferences_dialog = None

        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(False)
        self._placeholders: dict[str, QWidget] = {}
        for v in VIEWS:
            holder = QWidget()
            QVBoxLayout(holder).setContentsMargins(6, 6, 6, 6)
            self._placeholders[v.name] = holder
            idx = self.tabs.addTab(holder, v.title)
            self.tabs.setTabToolTip(idx, f"{strip_mnemonic(v.title)}: {v.tip}")
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.session.sig_advice.connect(lambda _a: self.name_widgets_soon())  # views rebuild their cards
        self.session.document.sig_changed.connect(lambda _p: self.name_widgets_soon())
        self.name_widgets_soon()
        self.tabs.installEventFilter(self)  # titles fit the width the tabs get

        self.error_bar = ErrorBar()
        self.session.notifier.sig_failure.connect(self.on_failure)
        self.session.notifier.sig_success.connect(self.error_bar.clear)
        self.session.notifier.sig_message.connect(lambda t, ms: self.statusBar().showMessage(t, ms))

        central = QWidget()
        lay = QVBoxLayout(central)
        lay.setContentsMargins(8, 4, 8, 4)
        lay.addWidget(self.error_bar)
        lay.addWidget(self.tabs, 1)
        self.stack = QStackedWidget()
        self.stack.addWidget(central)
        self._central = central
        self.tabs.setUsesScrollButtons(True)
        self.setCentralWidget(self.stack)

        self._build_status_bar()

        from ui.workers import MainThreadGarbageCollector

        after_first_paint(self, self._wrap_tooltips)

        self._collector = MainThreadGarbageCollector(self)
        self.session.sig_ready.connect(self._collector.keep_survivors)  # the knowledge base is long-lived

        hints = QApplication.styleHints()
        if hasattr(hints, "colorSchemeChanged"):  # follow the desktop's light/dark switch live
            hints.colorSchemeChanged.connect(self._on_color_scheme_changed)
        self._build_actions()
        self._window_keys = WindowKeysFirst(self)  # Ctrl+E etc. also from a text field (X11 keys)
        self._restore_state()
        self._update_title()
        self._on_tab_changed(self.tabs.currentIndex())

    def _wrap_tooltips(self) -> None:
        """Long tooltips wrapped, in every view: an application filter sees every event, so it comes
        once the window has been painted (no tooltip shows before; building the window is spared it)."""
        from ui.tooltips import ToolTipWrapper

        self._tooltips = ToolTipWrapper(self)
        QApplication.instance().installEventFilter(self._tooltips)

    def _build_status_bar(self) -> None:
        """The start-up progress bar and the status messages that follow the session and its document."""
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.setRange(0, 100)
        self.progress.hide()
        self.statusBar().addPermanentWidget(self.progress)
        self.session.startup_task.sig_progress.connect(self._on_startup_progress)
        self.session.startup_task.sig_finished.connect(self.progress.hide)
        self.session.sig_ready.connect(lambda: self.show_settled_status("Knowledge base and models ready"))
        self.session.sig_advice_busy.connect(
            lambda busy: self.statusBar().showMessage("Computing advice…", 0) if busy
            else self.show_settled_status("Advice up to date"))
        self.session.document.sig_validated.connect(lambda p: p and self.show_settled_status(""))
        self.session.document.sig_dirty.connect(lambda _d: self._update_title())
        self.session.document.sig_changed.connect(lambda _p: self._update_title())
        self.session.document.sig_path.connect(lambda _p: self._update_title())

    # --- views ---------------------------------------------------------------------------
    def view_names(self) -> list[str]:
        return _view_names()

    def panel(self, name: str) -> QWidget:
        """The panel of view ``name``, created on first use."""
        if name not in self.panels:
            widget = view(name).make(self.session)
            if hasattr(widget, "sig_status"):
                widget.sig_status.connect(lambda t: self.statusBar().showMessage(t, 4000))
            self._placeholders[name].layout().addWidget(widget)
            widget.show()  # shown now, not at the next event-loop turn
            if name not in OWN_DATA_VIEWS:  # every view of the advice says what is wrong with the scenario
                holder = self._placeholders[name]
                banner = ProblemBanner(self.session, widget if name in ADVICE_VIEWS else None, holder)
                banner.sig_open_scenario.connect(lambda: self.show_view("scenario"))
                holder.layout().insertWidget(0, banner)
            self.panels[name] = widget
            self.sig_view_created.emit(name)
        return self.panels[name]

    def show_view(self, name: str) -> QWidget:
        """Switch to the tab of view ``name`` and return its panel."""
        idx = self.view_names().index(name)
        self.tabs.setCurrentIndex(idx)
        return self.panel(name)

    def fit_tab_titles(self) -> None:
        """Full tab titles when they fit beside each other, the short ones otherwise, so that
        every tab stays visible (no scroll arrows)."""
        bar = self.tabs.tabBar()
        available = self.tabs.width() - 4
        for short, compact in ((False, False), (True, False), (True, True)):
            if bool(bar.property("compact")) != compact:
                bar.setProperty("compact", compact)
                bar.style().unpolish(bar)
                bar.style().polish(bar)
                QApplication.sendEvent(bar, QEvent(QEvent.Type.StyleChange))  # its tabs laid out anew
            for i, v in enumerate(VIEWS):
                text = SHORT_TITLES.get(v.name, v.title) if short else v.title
                if bar.tabText(i) != text:
                    bar.setTabText(i, text)
            if sum(bar.tabSizeHint(i).width() for i in range(bar.count())) <= available:
                break

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        if obj is self.tabs and event.type() == QEvent.Type.Resize:
            self.fit_tab_titles()
        return super().eventFilter(obj, event)

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)

        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            QTimer.singleShot(0, self, self.fit_tab_titles)

    def _on_tab_changed(self, idx: int) -> None:
        if 0 <= idx < len(VIEWS):
            self.panel(VIEWS[idx].name)
        self.name_widgets_soon()

    def name_widgets_soon(self) -> None:
        """Accessible names for the widgets of the view on show (and of the window's bars), once
        the events in hand have built them (:mod:`ui.accessible`); at start-up once the window
        has been painted."""
        if not getattr(self, "_naming", False):
            self._naming = True
            after_first_paint(self, self._name_widgets)

    def _name_widgets(self) -> None:
        from ui.accessible import name_all

        self._naming = False
        shop = self._workshop if self.in_workshop else None  # (its chart area's scroll bar, …)
        for root in (self.tabs.currentWidget(), shop, self.menuBar(), *self.findChildren(QToolBar), self.statusBar()):
            if root is not None:
                name_all(root)

    # --- errors and progress -------------------------------------------------------------
    def on_failure(self, failure: Failure) -> None:
        self.error_bar.show_failure(failure)
        self.statusBar().showMessage(f"{failure.task} failed", 6000)

    def show_settled_status(self, good_news: str) -> None:
        """The status bar once work is done: ``good_news`` only when nothing is wrong; the scenario's
        problems or the error shown above it otherwise (never "ready" under a red banner)."""
        bar = self.statusBar()
        problems = self.session.document.problems
        if problems:
            bar.showMessage(f"The scenario has {len(problems)} value(s) to fix (Scenario tab): no advice", 0)
        elif self.error_bar.isVisible() and self.error_bar.failure is not None:
            bar.showMessage(f"{self.error_bar.failure.task[:1].upper()}{self.error_bar.failure.task[1:]} failed "
                            "(the message above says why)", 0)
        elif good_news:
            bar.showMessage(good_news, 4000)

    def _on_startup_progress(self, fraction: float, message: str) -> None:
        self.progress.show()
        self.progress.setValue(int(fraction * 100))
        self.statusBar().showMessage(message.capitalize() + "…")

    # --- look ----------------------------------------------------------------------------
    def set_theme(self, mode: str) -> None:
        self.settings.theme = mode
        if mode in self.theme_actions:
            self.theme_actions[mode].setChecked(True)
        theme.apply(QApplication.instance(), mode, self.settings.font_pt)
        for panel in self.panels.values():
            if hasattr(panel, "on_theme_changed"):
                panel.on_theme_changed()

    def _on_color_scheme_changed(self, _scheme) -> None:
        if self.settings.theme == "system" and not self.in_workshop:
            self.set_theme("system")

    # --- help --------------------------------------------------------------------------
    def _help_dialog(self):
        from ui.dialogs.help import HelpDialog

        dlg = getattr(self, "help_dialog", None)
        if dlg is None:
            dlg = self.help_dialog = HelpDialog(self)
        return dlg

    @staticmethod
    def _present(dlg) -> None:
        """Show ``dlg`` with the keyboard focus (Esc closes it at once, as in any dialog)."""
        dlg.show()
        dlg.raise_()
        dlg.activateWindow()

    def show_user_guide(self):
        """The user guide (F1), at the section of the view in use."""
        dlg = self._help_dialog()
        if self.in_workshop:
            section = "Workshop mode"
        else:
            section = strip_mnemonic(VIEWS[self.tabs.currentIndex()].title)
        self._present(dlg)
        dlg.show_section(section)
        return dlg

    def show_shortcuts(self):
        """The user guide at its list of keyboard shortcuts (Ctrl+F1)."""
        dlg = self._help_dialog()
        self._present(dlg)
        dlg.show_section("Keyboard shortcuts")
        return dlg

    def show_welcome(self):
        """The welcome: new scenario, the example, open a file, import benchmark results."""
        from ui.dialogs.welcome import WelcomeDialog

        dlg = WelcomeDialog(self)
        self.welcome = dlg
        dlg.open()
        return dlg

    def show_about(self) -> None:
        from ui.dialogs.about import AboutDialog

        AboutDialog(self.session, self).open()

    # --- preferences ---------------------------------------------------------------------
    def show_cost_catalogue(self):
        """Open the cost catalogue editor; Save stores it and re-prices the advice."""
        from knowledge.infra.errors import UserFacingError
        from ui.dialogs.costs import CostCatalogueDialog

        try:
            dlg = CostCatalogueDialog(self.session.userdb, self)
        except UserFacingError as exc:  # a damaged or locked user database: say it, keep the window
            self.session.notifier.failure("opening the cost catalogue", exc)
            return None
        dlg.sig_saved.connect(self.session.set_catalogue)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dlg.open()
        self.cost_dialog = dlg
        return dlg

    def show_preferences(self):
        """Open the Preferences dialog (window-modal); OK saves and applies, Cancel changes nothing."""
        from ui.dialogs.preferences import PreferencesDialog

        old = self.preferences_dialog
        if old is not None and old.isVisible():
            old.raise_()
            old.activateWindow()
            return old
        if old is not None:
            old.deleteLater()
        dlg = PreferencesDialog(self.settings, self.session.store, self)
        dlg.accepted.connect(lambda: self.apply_preferences(dlg.result_settings()))
        self.preferences_dialog = dlg
        dlg.open()
        return dlg

    def apply_preferences(self, new) -> None:
        """Take the preferences edited in the dialog: save them at once (atomically) and apply them
        now. In workshop mode the workshop font size applies at once, the window's theme and font
        size at once (each look is its own)."""
        from ui.dialogs.preferences import FIELDS

        for name in FIELDS:
            setattr(self.settings, name, getattr(new, name))
        try:
            self.session.store.save(self.settings)
        except UserFacingError as exc:
            self.session.notifier.failure("saving the preferences", exc)
        self.set_theme(self.settings.theme)  # the workshop panel keeps its own look
        if self._workshop is not None:
            self._apply_workshop_look()
        for panel in [*self.panels.values(), self._workshop]:
            if panel is not None and hasattr(panel, "on_settings_changed"):
                panel.on_settings_changed()
        self.session.on_settings_changed()
        self._trim_recent()
        self.statusBar().showMessage("Preferences saved", 4000)

    # --- persistence ---------------------------------------------------------------------
    def _restore_state(self) -> None:
        qs = window_settings()
        geo = qs.value("geometry")
        if geo is None or not self.restoreGeometry(geo):
            self.resize(1280, 800)
        if self.isFullScreen():
            self.showNormal()
        self.fit_to_screen()
        tab = qs.value("tab")
        if isinstance(tab, str) and tab in self.view_names():
            QTimer.singleShot(0, lambda: self.show_view(tab))

    def fit_to_screen(self) -> None:
        """Keep the window within the available screen area (a geometry saved on a larger
        screen, or a window grown beyond it, is shrunk and moved back into view)."""
        screen = self.screen() or QApplication.primaryScreen()
        if screen is None:
            return
        avail = screen.availableGeometry()
        frame = self.frameGeometry()
        extra_w, extra_h = frame.width() - self.width(), frame.height() - self.height()
        if not self.isVisible() and (extra_w, extra_h) == (0, 0):  # no frame yet: leave room for the title bar
            extra_w, extra_h = FRAME_GUESS
        w = min(self.width(), avail.width() - extra_w)
        h = min(self.height(), avail.height() - extra_h)
        if (w, h) != (self.width(), self.height()):
            self.resize(max(w, 200), max(h, 200))
        frame = self.frameGeometry()
        x = min(max(frame.x(), avail.x()), avail.right() - frame.width() + 1)
        y = min(max(frame.y(), avail.y()), avail.bottom() - frame.height() + 1)
        if (x, y) != (frame.x(), frame.y()):
            self.move(x, y)

    #: whether closing saves the window's geometry, tab and settings (a --screenshots run leaves the
    #: user's own alone: it opened the next session on the last tab it rendered)
    saves_state = True

    def save_state(self) -> None:
        if not self.saves_state:
            return
        qs = window_settings()
        qs.setValue("geometry", self.geometry_to_save())  # never the full-screen one
        qs.setValue("tab", VIEWS[self.tabs.currentIndex()].name)
        qs.sync()
        try:
            self.session.store.save(self.settings)
        except UserFacingError as exc:
            log.warning("settings not saved: %s", exc)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        if not self.maybe_discard():
            event.ignore()
            return
        self.save_state()
        for panel in self.panels.values():
            if hasattr(panel, "shutdown"):
                panel.shutdown()
        self.session.close()
        self._collector.stop()
        event.accept()
