"""The main window: one tab per view, menus and shortcuts, files, drag and drop, workshop mode,
and the single place where errors from every worker are shown (the error bar)."""

from __future__ import annotations

import html
import importlib
import logging
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from knowledge.infra.errors import InputError, UserFacingError
from knowledge.infra.paths import user_config_dir
from ui import theme
from ui.filedialogs import filter_suffix, safe_file_name, start_dir, with_suffix
from ui.labels import strip_mnemonic
from ui.session import Session
from ui.workers import Failure

log = logging.getLogger(__name__)

ICON = theme.ICON  # the application icon (also used by the launcher)

#: (view name, tab title, module in ui.panels, class, tooltip); the name is also the screenshot name
VIEWS = (
    ("scenario", "Scenario", "qt_scenario", "QtScenarioPanel", "Hosts, workload groups and preferences"),
    ("recommendations", "Recommendations", "qt_recommendations", "QtRecommendationsPanel",
     "One card per decision, with expected figures and citations"),
    ("plots", "Plots", "qt_plots", "QtPlotsPanel", "Measured points and model curves behind the advice"),
    ("whatif", "What-if", "qt_whatif", "QtWhatIfPanel", "Move the inputs that matter most"),
    ("realtime", "Real-time", "qt_realtime", "QtRealtimePanel", "VM period and budget for a task set"),
    ("compare", "Compare", "qt_compare", "QtComparePanel", "Two to four scenarios side by side"),
    ("knowledge_base", "Knowledge base", "qt_kb_browser", "QtKnowledgeBasePanel",
     "Every measurement of the five documents"),
    ("sites", "Sites && imports", "qt_sites", "QtSitesPanel", "Your own benchmark results"),
    ("report", "Report", "qt_report", "QtReportPanel", "Preview and export for a client"),
    ("optimize", "Optimize", "qt_optimize", "QtOptimizePanel",
     "The cheapest design that meets the targets, and cost against headroom"),
)
#: shorter tab titles for a narrow window or large fonts (the full title stays the tooltip)
SHORT_TITLES = {"recommendations": "Advice", "knowledge_base": "Knowledge", "sites": "Sites"}
OPEN_FILTER = "Scenarios (*.yaml *.yml *.toml *.json);;All files (*)"
SAVE_FILTERS = ("YAML scenario (*.yaml *.yml)", "TOML scenario (*.toml)", "JSON scenario (*.json)")
SCENARIO_SUFFIXES = (".yaml", ".yml", ".toml", ".json")


def with_scenario_suffix(path: Path, name_filter: str) -> Path:
    """``path`` with the extension of the chosen format when the name typed has none of the
    scenario extensions (``lab`` -> ``lab.yaml``; ``lab.v2`` -> ``lab.v2.yaml``)."""
    return with_suffix(path, name_filter, SCENARIO_SUFFIXES, "yaml")


def _short_paths(message: str, path: Path) -> str:
    """``/a/long/dir/lab.yaml: ...`` -> ``lab.yaml: ...`` (the name is what the user knows)."""
    return message.replace(str(path), path.name)




def window_settings() -> QSettings:
    """QSettings for geometry and recent files, in the user's config directory."""
    path = user_config_dir() / "window.ini"
    return QSettings(str(path), QSettings.Format.IniFormat)


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
        kind = "" if failure.user_facing else "Unexpected error (a bug) in "
        task = failure.task[:1].upper() + failure.task[1:]
        self.label.setText(f"<b>{html.escape(kind + task)}</b>: {html.escape(failure.message)}")
        self.show()

    def clear(self, task: str | None = None) -> None:
        """Hide the bar: always (``task`` None), or when it shows a failure of ``task``."""
        if task is None or (self.failure is not None and self.failure.task == task):
            self.failure = None
            self.hide()

    def show_details(self) -> None:
        if self.failure:
            box = QMessageBox(QMessageBox.Icon.Warning, "Error details", self.failure.message, parent=self)
            box.setDetailedText(self.failure.details or self.failure.message)
            box.open()


class MainWindow(QMainWindow):
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
        self._theme_before_workshop = None
        self._geometry_before_workshop = None
        self.preferences_dialog = None

        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(False)
        self._placeholders: dict[str, QWidget] = {}
        for name, title, _m, _c, tip in VIEWS:
            holder = QWidget()
            QVBoxLayout(holder).setContentsMargins(6, 6, 6, 6)
            self._placeholders[name] = holder
            idx = self.tabs.addTab(holder, title)
            self.tabs.setTabToolTip(idx, f"{strip_mnemonic(title)}: {tip}")
        self.tabs.currentChanged.connect(self._on_tab_changed)
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

        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.setRange(0, 100)
        self.progress.hide()
        self.statusBar().addPermanentWidget(self.progress)
        self.session.startup_task.sig_progress.connect(self._on_startup_progress)
        self.session.startup_task.sig_finished.connect(self.progress.hide)
        self.session.sig_ready.connect(lambda: self.statusBar().showMessage(
            "Knowledge base and models ready", 4000))
        self.session.sig_advice_busy.connect(
            lambda busy: self.statusBar().showMessage("Computing advice…" if busy else "Advice up to date", 0
                                                      if busy else 3000))
        self.session.document.sig_dirty.connect(lambda _d: self._update_title())
        self.session.document.sig_changed.connect(lambda _p: self._update_title())
        self.session.document.sig_path.connect(lambda _p: self._update_title())

        from ui.workers import MainThreadGarbageCollector

        self._collector = MainThreadGarbageCollector(self)

        hints = QApplication.styleHints()
        if hasattr(hints, "colorSchemeChanged"):  # follow the desktop's light/dark switch live
            hints.colorSchemeChanged.connect(self._on_color_scheme_changed)
        self._build_actions()
        self._restore_state()
        self._update_title()
        self._on_tab_changed(self.tabs.currentIndex())

    # --- actions and menus ---------------------------------------------------------------
    def _action(self, text: str, slot, shortcut=None, tip: str = "") -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        plain = strip_mnemonic(text)
        shortcut_text = act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        act.setToolTip((tip or plain) + (f" ({shortcut_text})" if shortcut_text else ""))
        act.setStatusTip(tip or plain)
        act.triggered.connect(slot)
        self.addAction(act)
        return act

    def _build_actions(self) -> None:
        K = QKeySequence.StandardKey
        doc = self.session.document
        self.act_new = self._action("&New scenario", self.new_scenario, K.New, "Start an empty scenario")
        self.act_open = self._action("&Open…", self.open_dialog, K.Open, "Open a scenario file")
        self.act_save = self._action("&Save", self.save, K.Save, "Save the scenario")
        self.act_save_as = self._action("Save &as…", self.save_as, K.SaveAs, "Save under a new name")
        self.act_import = self._action("&Import benchmark files…", self.import_dialog, "Ctrl+I",
                                       "Import fio, bonnie++, sysbench, PostMark or IOzone output")
        self.act_import_inventory = self._action(
            "Import in&ventory…", self.import_inventory, None,
            "Start from today's estate: RVTools, libvirt, Proxmox VE, OpenStack or CSV inventory into a scenario")
        self.act_export = self._action("&Export report…", self.export_report, "Ctrl+E",
                                       "Export the report as PDF or HTML")
        self.act_export_config = self._action(
            "Export &configuration…", self.export_configuration, None,
            "The advice as libvirt, Xen, Proxmox VE or OpenStack configuration files")
        self.act_quit = self._action("&Quit", self.close, K.Quit)
        self.act_undo = doc.undo_stack.createUndoAction(self, "&Undo")
        self.act_undo.setShortcuts(K.Undo)
        self.act_redo = doc.undo_stack.createRedoAction(self, "&Redo")
        self.act_redo.setShortcuts(K.Redo)
        self.act_undo.setIconText("Undo")  # the tool bar keeps short texts; the menu says what is undone
        self.act_redo.setIconText("Redo")
        self.addActions([self.act_undo, self.act_redo])  # also while menus and tool bars are hidden (workshop)
        self.act_advise = self._action("&Advise now", self.session.advise_now, "F5",
                                       "Recompute the recommendations")
        self.act_workshop = self._action("&Workshop mode", self.toggle_workshop, "F11",
                                         "Full screen, large fonts, sliders and plots front and centre")
        self.act_workshop.setCheckable(True)
        # short texts on the tool bar (the menus keep the full ones)
        for act, short in ((self.act_import, "Import…"), (self.act_export, "Export…"), (self.act_workshop, "Workshop"),
                           (self.act_advise, "Advise")):
            act.setIconText(short)
        self.act_about = self._action("&About Capacity Advisor", self.show_about, None)
        self.act_guide = self._action("&User guide", self.show_user_guide, K.HelpContents,
                                      "How to use Capacity Advisor (opens at the view you are in)")
        self.act_shortcuts = self._action("&Keyboard shortcuts", self.show_shortcuts, "Ctrl+F1",
                                          "Every keyboard shortcut of the window")
        self.act_welcome = self._action("&Welcome…", self.show_welcome, None,
                                        "Start a new scenario, open the example or import benchmark results")
        self.act_costs = self._action("Cost &catalogue…", self.show_cost_catalogue, None,
                                      "Your prices of host models, storage, licences and power")
        self.act_preferences = self._action("&Preferences…", self.show_preferences, None,
                                            "Theme, font sizes, what-if delay, automatic advice, recent files")
        # the platform's shortcut (Ctrl+, on macOS, Ctrl+Shift+, on KDE); Ctrl+, where it has none
        self.act_preferences.setShortcuts(QKeySequence.keyBindings(K.Preferences) or [QKeySequence("Ctrl+,")])
        self.act_preferences.setMenuRole(QAction.MenuRole.PreferencesRole)

        mb = self.menuBar()
        m_file = mb.addMenu("&File")
        for a in (self.act_new, self.act_open):
            m_file.addAction(a)
        self.recent_menu = m_file.addMenu("Open &recent")
        m_file.addSeparator()
        for a in (self.act_save, self.act_save_as):
            m_file.addAction(a)
        m_file.addSeparator()
        m_file.addAction(self.act_import)
        m_file.addAction(self.act_import_inventory)
        m_file.addAction(self.act_export)
        m_file.addAction(self.act_export_config)
        m_file.addSeparator()
        m_file.addAction(self.act_quit)
        m_edit = mb.addMenu("&Edit")
        m_edit.addAction(self.act_undo)
        m_edit.addAction(self.act_redo)
        m_edit.addSeparator()
        m_edit.addAction(self.act_advise)
        m_edit.addSeparator()
        m_edit.addAction(self.act_costs)
        m_edit.addAction(self.act_preferences)
        m_view = mb.addMenu("&View")
        for i, (name, title, *_rest) in enumerate(VIEWS):
            act = self._action(title, lambda _c=False, n=name: self.show_view(n),
                               f"Ctrl+{i + 1}" if i < 9 else None, f"Show {title.replace('&&', 'and')}")
            m_view.addAction(act)
        m_view.addSeparator()
        m_view.addAction(self.act_workshop)
        m_theme = m_view.addMenu("&Theme")
        self.theme_actions: dict[str, QAction] = {}
        group = QActionGroup(self)  # exclusive: one look checked, also after a change in Preferences
        for mode in ("system", "light", "dark"):
            act = QAction(mode.capitalize(), self, checkable=True)
            act.setChecked(self.settings.theme == mode)
            act.triggered.connect(lambda _c=False, m=mode: self.set_theme(m))
            group.addAction(act)
            m_theme.addAction(act)
            self.theme_actions[mode] = act
        m_help = mb.addMenu("&Help")
        for a in (self.act_guide, self.act_shortcuts, self.act_welcome, None, self.act_about):
            m_help.addSeparator() if a is None else m_help.addAction(a)

        tb = QToolBar("Main")
        tb.setObjectName("mainToolbar")
        tb.setMovable(False)
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for a in (self.act_open, self.act_save, None, self.act_undo, self.act_redo, None, self.act_advise,
                  self.act_import, self.act_export, None, self.act_workshop):
            tb.addSeparator() if a is None else tb.addAction(a)
        self.addToolBar(tb)
        self._refresh_recent()

    # --- views ---------------------------------------------------------------------------
    def view_names(self) -> list[str]:
        return [v[0] for v in VIEWS]

    def panel(self, name: str) -> QWidget:
        """The panel of view ``name``, created on first use."""
        if name not in self.panels:
            spec = next(v for v in VIEWS if v[0] == name)
            module = importlib.import_module(f"ui.panels.{spec[2]}")
            cls = getattr(module, spec[3])
            if name == "scenario":
                widget = cls(self.session.document, self.session.notifier)
                widget.sig_status.connect(lambda t: self.statusBar().showMessage(t, 4000))
            else:
                widget = cls(self.session)
            self._placeholders[name].layout().addWidget(widget)
            widget.show()  # shown now, not at the next event-loop turn
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
            for i, (name, title, *_rest) in enumerate(VIEWS):
                text = SHORT_TITLES.get(name, title) if short else title
                if bar.tabText(i) != text:
                    bar.setTabText(i, text)
            if sum(bar.tabSizeHint(i).width() for i in range(bar.count())) <= available:
                break

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt override
        from PySide6.QtCore import QEvent

        if obj is self.tabs and event.type() == QEvent.Type.Resize:
            self.fit_tab_titles()
        return super().eventFilter(obj, event)

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        from PySide6.QtCore import QEvent

        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            QTimer.singleShot(0, self, self.fit_tab_titles)

    def _on_tab_changed(self, idx: int) -> None:
        if 0 <= idx < len(VIEWS):
            self.panel(VIEWS[idx][0])

    # --- errors and progress -------------------------------------------------------------
    def on_failure(self, failure: Failure) -> None:
        self.error_bar.show_failure(failure)
        self.statusBar().showMessage(f"{failure.task} failed", 6000)

    def _on_startup_progress(self, fraction: float, message: str) -> None:
        self.progress.show()
        self.progress.setValue(int(fraction * 100))
        self.statusBar().showMessage(message.capitalize() + "…")

    # --- files ---------------------------------------------------------------------------
    def _update_title(self) -> None:
        """``name (file) — Capacity Advisor``, with ``*`` while there are unsaved changes."""
        doc = self.session.document
        name = doc.title
        if doc.path is not None and doc.path.stem != name:
            name += f" ({doc.path.name})"
        elif doc.path is None:
            name += " (not saved)"
        self.setWindowTitle(f"{name.replace('[*]', '[ *]')}[*] — Capacity Advisor")
        self.setWindowModified(doc.dirty)

    def maybe_discard(self) -> bool:
        """Ask what to do with unsaved changes; True if it is fine to go on."""
        if not self.session.document.dirty:
            return True
        box = QMessageBox(QMessageBox.Icon.Question, "Unsaved changes",
                          f"Save the changes to {self.session.document.title}?",
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self)
        answer = box.exec()
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def new_scenario(self) -> None:
        """Start a new, unsaved scenario (after asking about unsaved changes)."""
        if self.maybe_discard():
            from ui.panels.qt_scenario import new_workload

            self.session.document.load_data({"name": "new scenario", "hosts": {
                "count": 4, "cpu": {"sockets": 2, "cores_per_socket": 8, "threads_per_core": 2, "ghz": 2.4,
                                    "virtualization": "vmx"},
                "ram_gib": 128, "nic_gbps": 10, "disks": [{"kind": "ssd", "count": 2, "size_gb": 960}]},
                "workloads": [new_workload([])]})
            self.error_bar.clear()

    def open_example(self) -> bool:
        """Open the bundled example as a new, unsaved scenario (Save asks where to put it)."""
        if not self.maybe_discard():
            return False
        from knowledge.infra.paths import bundle_root

        folder = bundle_root() / "resources" / "examples"
        path = folder / "scenario.yaml"
        if not self.open_scenario(path, remember=False):
            return False
        self.session.document.path = None
        self._update_title()
        self.statusBar().showMessage("Opened the example scenario (a regional private cloud); Save keeps a copy",
                                     6000)
        return True

    def open_dialog(self) -> None:
        if not self.maybe_discard():
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open scenario", self._start_dir(), OPEN_FILTER)
        if path:
            self.open_scenario(Path(path))

    def open_scenario(self, path: Path, remember: bool = True) -> bool:
        """Open a scenario file. A benchmark tool's output is offered for import instead; a
        scenario with wrong values opens with them marked, to be fixed. True when opened."""
        from advisor.files import classify_file

        path = Path(path)
        kind = classify_file(path)
        if kind.kind == "benchmark":
            self.offer_import(path, kind.label)
            return False
        if kind.kind == "inventory":  # an estate export: File > Import inventory
            self.import_inventory([path])
            return False
        try:
            self.session.document.open(path)
        except UserFacingError as exc:
            self.session.notifier.failure(f"opening {path.name}", UserFacingError(_short_paths(str(exc), path)))
            return False
        self.error_bar.clear()
        if remember:
            self._add_recent(path)
        problems = self.session.document.problems
        if problems:
            self.show_view("scenario")
            self.statusBar().showMessage(f"Opened {path.name}: {len(problems)} value(s) to fix, marked in red",
                                         0)
        else:
            self.statusBar().showMessage(f"Opened {path}", 4000)
        return True

    def offer_import(self, path: Path, label: str) -> bool:
        """Say that ``path`` is benchmark output, not a scenario, and offer to import it."""
        box = QMessageBox(QMessageBox.Icon.Question, "Not a scenario",
                          f"{path.name} is {label or 'benchmark output'}: a measurement of your own "
                          "hardware, not a scenario.\n\nImport it as site benchmark results? The advice can "
                          "then be calibrated to them (Sites & imports).", QMessageBox.StandardButton.NoButton, self)
        imp = box.addButton("&Import…", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(imp)
        box.exec()
        if box.clickedButton() is imp:
            self.import_files([path])
            return True
        return False

    def save(self) -> bool:
        if self.session.document.path is None:
            return self.save_as()
        return self._save_to(self.session.document.path)

    def _start_dir(self) -> str:
        """Where file dialogs start (:func:`ui.filedialogs.start_dir`)."""
        return start_dir(self.settings.last_dir)

    def save_dialog(self) -> QFileDialog:
        """The Save As dialog: in the last folder (or documents), the scenario's name proposed,
        the format's extension added to a name typed without one."""
        doc = self.session.document
        if doc.path is not None:
            start = doc.path
        else:
            start = Path(self._start_dir()) / f"{safe_file_name(doc.title)}.yaml"
        dlg = QFileDialog(self, "Save scenario", str(start.parent))
        dlg.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dlg.setNameFilters(list(SAVE_FILTERS))
        dlg.selectNameFilter(next((f for f in SAVE_FILTERS if start.suffix.lower() in f), SAVE_FILTERS[0]))
        dlg.setDefaultSuffix(start.suffix.lstrip(".") or "yaml")
        dlg.filterSelected.connect(lambda f: dlg.setDefaultSuffix(filter_suffix(f)))
        dlg.selectFile(start.name)
        return dlg

    def save_as(self) -> bool:
        dlg = self.save_dialog()
        if dlg.exec() != QFileDialog.DialogCode.Accepted or not dlg.selectedFiles():
            return False
        path = with_scenario_suffix(Path(dlg.selectedFiles()[0]), dlg.selectedNameFilter())
        return self._save_to(path)

    def _save_to(self, path: Path) -> bool:
        path = with_scenario_suffix(Path(path), "")
        try:
            self.session.document.save(path)
        except UserFacingError as exc:
            self.session.notifier.failure("saving the scenario", UserFacingError(self._describe(str(exc), path)))
            return False
        self.error_bar.clear()
        self._add_recent(path)
        self.statusBar().showMessage(f"Saved {path}", 4000)
        return True

    def _describe(self, message: str, path: Path) -> str:
        """A scenario message in the editor's words (fields by their labels, files by name)."""
        from ui.document import problems_by_path
        from ui.panels.qt_scenario import describe_problem

        lines = message.splitlines()
        if len(lines) > 1 and "problem(s) in the scenario" in lines[0]:
            problems = problems_by_path(InputError(message))
            items = [describe_problem(k, v, self.session.document.data) for k, v in problems.items()]
            return (f"{len(items)} value(s) to fix first (marked in red in the Scenario view): "
                    + "; ".join(items))
        return _short_paths(message, path)

    def _add_recent(self, path: Path) -> None:
        from knowledge.infra.paths import bundle_root

        if Path(path).resolve().is_relative_to(bundle_root().resolve()):
            return  # the bundled examples are neither recent files nor the folder to save in
        qs = window_settings()
        recent = [p for p in (qs.value("recent_files", []) or []) if p != str(path)]
        recent.insert(0, str(path))
        qs.setValue("recent_files", recent[: self.settings.max_recent])
        self.settings.last_dir = str(path.parent)
        self._refresh_recent()

    def recent_files(self) -> list[str]:
        value = window_settings().value("recent_files", []) or []
        return [value] if isinstance(value, str) else list(value)

    def _trim_recent(self) -> None:
        """Keep at most ``settings.max_recent`` recent files (stored and in the menu)."""
        files = self.recent_files()
        if len(files) > self.settings.max_recent:
            qs = window_settings()
            qs.setValue("recent_files", files[: self.settings.max_recent])
            qs.sync()
        self._refresh_recent()

    def _refresh_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for p in files:
            act = self.recent_menu.addAction(p)
            act.triggered.connect(lambda _c=False, path=p: self.maybe_discard() and self.open_scenario(Path(path)))
        self.recent_menu.setEnabled(bool(files))

    def import_dialog(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Import benchmark files", self.settings.last_dir)
        if paths:
            self.import_files([Path(p) for p in paths])

    def import_inventory(self, paths: list[Path] | None = None):
        """File > Import inventory…: read estate exports in the worker, let the user adjust the
        groups (ui/dialogs/inventory.py), then load the scenario. Returns the dialog."""
        from ui.dialogs.inventory import INVENTORY_FILTER, start_inventory_import

        if not self.maybe_discard():
            return None
        if paths is None:
            names, _ = QFileDialog.getOpenFileNames(self, "Import inventory", self.settings.last_dir, INVENTORY_FILTER)
            paths = [Path(p) for p in names]
        if not paths:
            return None
        dialog = start_inventory_import(self, paths, self.session.notifier)
        dialog.accepted.connect(lambda: (self.session.document.load_data(dialog.scenario_data()),
                                         self.show_view("recommendations")))
        dialog.open()
        return dialog

    def import_files(self, paths: list[Path]) -> None:
        """Import benchmark output files into the current site (Sites tab)."""
        panel = self.show_view("sites")
        panel.import_files(paths)

    def export_report(self) -> None:
        self.show_view("report").export_dialog()

    def export_configuration(self):
        """File ▸ Export configuration… (the current advice as a platform's files)."""
        from ui.dialogs.export_config import ExportConfigDialog

        dialog = ExportConfigDialog(self.session, self)
        dialog.open()
        return dialog

    # --- drag and drop -------------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:  # noqa: N802 - Qt override
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:  # noqa: N802 - Qt override
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        self.handle_dropped(paths)
        event.acceptProposedAction()

    def handle_dropped(self, paths: list[Path]):
        """A scenario file opens; estate exports (RVTools, libvirt, Proxmox, OpenStack, the inventory
        template) go to File > Import inventory (returned: its dialog); everything else is imported
        as benchmark output."""
        from advisor.files import classify_file

        kinds = {p: classify_file(p).kind for p in paths}
        scenarios = [p for p in paths if kinds[p] == "scenario"]
        inventories = [p for p in paths if kinds[p] == "inventory"]
        others = [p for p in paths if kinds[p] not in ("scenario", "inventory")]
        dialog = None
        if scenarios and self.maybe_discard():
            self.open_scenario(scenarios[0])
        elif inventories:
            dialog = self.import_inventory(inventories)
        if others:
            self.import_files(others)
        return dialog

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

    def toggle_workshop(self, on: bool | None = None, full_screen: bool = True) -> None:
        """Enter or leave workshop mode (full screen, large fonts, high contrast)."""
        if on is None:
            on = not self.in_workshop
        app = QApplication.instance()
        if on and not self.in_workshop:
            self._geometry_before_workshop = self.geometry()
        if on:
            if self._workshop is None:
                from ui.panels.qt_workshop import QtWorkshopPanel

                self._workshop = QtWorkshopPanel(self.session)
                self._workshop.sig_exit.connect(lambda: self.toggle_workshop(False))
            if self.stack.indexOf(self._workshop) < 0:
                self.stack.addWidget(self._workshop)
            self._workshop_full_screen = full_screen
            self._apply_workshop_look()
            self._central.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
            self._central.setMinimumSize(0, 0)
            self.tabs.setMinimumSize(0, 0)
            self.stack.setCurrentWidget(self._workshop)
            self._workshop.on_theme_changed()
            self.menuBar().hide()
            for tb in self.findChildren(QToolBar):
                tb.hide()
            if full_screen:
                self.showFullScreen()
        else:
            theme.apply(app, self.settings.theme, self.settings.font_pt)
            self._central.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
            self.stack.setCurrentIndex(0)
            if self._workshop is not None:  # out of the stack: its size must not bind the window
                self.stack.removeWidget(self._workshop)
                self._workshop.hide()
            self.menuBar().show()
            for tb in self.findChildren(QToolBar):
                tb.show()
            if self.isFullScreen():
                self.showNormal()
            if self._geometry_before_workshop is not None:
                before = self._geometry_before_workshop
                self._geometry_before_workshop = None
                self.setGeometry(before)
                QApplication.processEvents()  # menus and tool bars back in the layout first
                self.setGeometry(before)
            self.fit_to_screen()
            for panel in self.panels.values():
                if hasattr(panel, "on_theme_changed"):
                    panel.on_theme_changed()
        self.act_workshop.setChecked(on)

    def _apply_workshop_look(self) -> None:
        # large, but never so large that the view overflows a small projector (pt per 75 px of width)
        full = self._workshop_full_screen and self.screen() is not None
        screen = self.screen().availableGeometry().width() if full else self.width()
        theme.apply(QApplication.instance(), "workshop", min(self.settings.workshop_font_pt, max(11.0, screen / 90)))

    @property
    def in_workshop(self) -> bool:
        return self._workshop is not None and self.stack.currentWidget() is self._workshop

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt override
        if event.key() == Qt.Key.Key_Escape and self.in_workshop:
            self.toggle_workshop(False)
            return
        super().keyPressEvent(event)

    # --- help --------------------------------------------------------------------------
    def _help_dialog(self):
        from ui.dialogs.help import HelpDialog

        dlg = getattr(self, "help_dialog", None)
        if dlg is None:
            dlg = self.help_dialog = HelpDialog(self)
        return dlg

    def show_user_guide(self):
        """The user guide (F1), at the section of the view in use."""
        dlg = self._help_dialog()
        if self.in_workshop:
            section = "Workshop mode"
        else:
            section = strip_mnemonic(VIEWS[self.tabs.currentIndex()][1])
        dlg.show()
        dlg.raise_()
        dlg.show_section(section)
        return dlg

    def show_shortcuts(self):
        """The user guide at its list of keyboard shortcuts (Ctrl+F1)."""
        dlg = self._help_dialog()
        dlg.show()
        dlg.raise_()
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
        size on leaving it."""
        from ui.dialogs.preferences import FIELDS

        for name in FIELDS:
            setattr(self.settings, name, getattr(new, name))
        try:
            self.session.store.save(self.settings)
        except UserFacingError as exc:
            self.session.notifier.failure("saving the preferences", exc)
        if not self.in_workshop:
            self.set_theme(self.settings.theme)
        else:  # the window's theme and font apply on leaving workshop mode
            if self.settings.theme in self.theme_actions:
                self.theme_actions[self.settings.theme].setChecked(True)
            self._apply_workshop_look()
            self._workshop.on_theme_changed()
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
        w = min(self.width(), avail.width() - extra_w)
        h = min(self.height(), avail.height() - extra_h)
        if (w, h) != (self.width(), self.height()):
            self.resize(max(w, 200), max(h, 200))
        frame = self.frameGeometry()
        x = min(max(frame.x(), avail.x()), avail.right() - frame.width() + 1)
        y = min(max(frame.y(), avail.y()), avail.bottom() - frame.height() + 1)
        if (x, y) != (frame.x(), frame.y()):
            self.move(x, y)

    def save_state(self) -> None:
        qs = window_settings()
        if self.in_workshop and self._geometry_before_workshop is not None:
            current = self.geometry()  # never the full-screen one: the window's size before
            self.setGeometry(self._geometry_before_workshop)
            qs.setValue("geometry", self.saveGeometry())
            self.setGeometry(current)
        else:
            qs.setValue("geometry", self.saveGeometry())
        qs.setValue("tab", VIEWS[self.tabs.currentIndex()][0])
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
