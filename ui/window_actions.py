"""The main window's actions, menus and tool bar; every action is connected through
:func:`ui.triggers.on_trigger` (slots take no arguments: no ``checked`` flag reaches them)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QToolBar

from ui.labels import strip_mnemonic
from ui.triggers import on_trigger
from ui.views import VIEWS

#: the view shortcuts: Ctrl+1 ... Ctrl+9, then Ctrl+0 for the tenth view
VIEW_KEYS = tuple(f"Ctrl+{i}" for i in (1, 2, 3, 4, 5, 6, 7, 8, 9, 0))
THEMES = ("system", "light", "dark")


def main_window_actions(window) -> list[QAction]:
    """Every action of ``window``'s menus (sub-menus included, separators left out), in menu order."""

    def walk(menu: QMenu) -> list[QAction]:
        found: list[QAction] = []
        for act in menu.actions():
            if act.menu() is not None:
                found.extend(walk(act.menu()))
            elif not act.isSeparator():
                found.append(act)
        return found

    return [a for m in window.menuBar().actions() if m.menu() is not None for a in walk(m.menu())]


class ActionsMixin:
    """The actions, menus and tool bar of :class:`ui.main_window.MainWindow`."""

    def _action(self, text: str, slot: Callable[[], object], shortcut=None, tip: str = "") -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        plain = strip_mnemonic(text)
        shortcut_text = act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        act.setToolTip((tip or plain) + (f" ({shortcut_text})" if shortcut_text else ""))
        act.setStatusTip(tip or plain)
        on_trigger(act, slot)
        self.addAction(act)
        return act

    def _build_actions(self) -> None:
        self._build_file_actions()
        self._build_edit_actions()
        self._build_help_actions()
        self._build_menus()
        self._build_toolbar()
        self._refresh_recent()

    def _build_file_actions(self) -> None:
        K = QKeySequence.StandardKey
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
        self.act_export_workbook = self._action("Export &workbook…", self.export_workbook, None,
                                                "The advice as an Excel workbook: design, bill of materials, "
                                                "placement, decisions, targets, assumptions")
        self.act_export_slides = self._action("Export s&lides…", self.export_slides, None,
                                              "The design as 16:9 PowerPoint slides with the charts")
        self.act_export_config = self._action(
            "Export &configuration…", self.export_configuration, None,
            "The advice as libvirt, Xen, Proxmox VE or OpenStack configuration files")
        self.act_quit = self._action("&Quit", self.close, QKeySequence.StandardKey.Quit)

    def _build_edit_actions(self) -> None:
        K = QKeySequence.StandardKey
        doc = self.session.document
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
        self.act_costs = self._action("Cost &catalogue…", self.show_cost_catalogue, None,
                                      "Your prices of host models, storage, licences and power")
        self.act_preferences = self._action("&Preferences…", self.show_preferences, None,
                                            "Theme, font sizes, what-if delay, automatic advice, recent files")
        # the platform's shortcut (Ctrl+, on macOS, Ctrl+Shift+, on KDE); Ctrl+, where it has none
        self.act_preferences.setShortcuts(QKeySequence.keyBindings(K.Preferences) or [QKeySequence("Ctrl+,")])
        self.act_preferences.setMenuRole(QAction.MenuRole.PreferencesRole)

    def _build_help_actions(self) -> None:
        K = QKeySequence.StandardKey
        self.act_about = self._action("&About Capacity Advisor", self.show_about, None)
        self.act_guide = self._action("&User guide", self.show_user_guide, K.HelpContents,
                                      "How to use Capacity Advisor (opens at the view you are in)")
        self.act_shortcuts = self._action("&Keyboard shortcuts", self.show_shortcuts, "Ctrl+F1",
                                          "Every keyboard shortcut of the window")
        self.act_welcome = self._action("&Welcome…", self.show_welcome, None,
                                        "Start a new scenario, open the example or import benchmark results")

    def _build_menus(self) -> None:
        mb = self.menuBar()
        m_file = mb.addMenu("&File")
        m_file.addActions([self.act_new, self.act_open])
        self.recent_menu = m_file.addMenu("Open &recent")
        m_file.addSeparator()
        m_file.addActions([self.act_save, self.act_save_as])
        m_file.addSeparator()
        m_file.addActions([self.act_import, self.act_import_inventory, self.act_export, self.act_export_workbook,
                           self.act_export_slides, self.act_export_config])
        m_file.addSeparator()
        m_file.addAction(self.act_quit)
        m_edit = mb.addMenu("&Edit")
        for a in (self.act_undo, self.act_redo, None, self.act_advise, None, self.act_costs, self.act_preferences):
            m_edit.addSeparator() if a is None else m_edit.addAction(a)
        m_view = mb.addMenu("&View")
        self.view_actions: dict[str, QAction] = {}
        for v, key in zip(VIEWS, VIEW_KEYS, strict=False):
            act = self._action(v.title, lambda n=v.name: self.show_view(n), key,
                               f"Show {v.title.replace('&&', 'and')}")
            self.view_actions[v.name] = act
            m_view.addAction(act)
        m_view.addSeparator()
        m_view.addAction(self.act_workshop)
        self._build_theme_menu(m_view.addMenu("&Theme"))
        m_help = mb.addMenu("&Help")
        for a in (self.act_guide, self.act_shortcuts, self.act_welcome, None, self.act_about):
            m_help.addSeparator() if a is None else m_help.addAction(a)

    def _build_theme_menu(self, menu: QMenu) -> None:
        self.theme_actions: dict[str, QAction] = {}
        group = QActionGroup(self)  # exclusive: one look checked, also after a change in Preferences
        for mode in THEMES:
            act = QAction(mode.capitalize(), self, checkable=True)
            act.setChecked(self.settings.theme == mode)
            on_trigger(act, lambda m=mode: self.set_theme(m))
            group.addAction(act)
            menu.addAction(act)
            self.theme_actions[mode] = act

    def _build_toolbar(self) -> None:
        tb = QToolBar("Main")
        tb.setObjectName("mainToolbar")
        tb.setMovable(False)
        tb.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for a in (self.act_open, self.act_save, None, self.act_undo, self.act_redo, None, self.act_advise,
                  self.act_import, self.act_export, None, self.act_workshop):
            tb.addSeparator() if a is None else tb.addAction(a)
        self.addToolBar(tb)
