"""Workshop mode: full screen, large fonts, the sliders and plots of :class:`QtWorkshopPanel`
front and centre; leaving it restores the window as it was."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QSizePolicy, QToolBar

from ui import theme


class WorkshopMixin:
    """Workshop mode of :class:`ui.main_window.MainWindow`."""

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

