"""Workshop mode: full screen, large fonts, the sliders and plots of :class:`QtWorkshopPanel`
front and centre; leaving it restores the window as it was.

Entering and leaving switch layouts only (issue #29 point 2): the workshop panel has a look of its
own (:func:`ui.theme.apply_to`), so the application's theme and font never change, no other widget
is polished again and no chart is redrawn; the panel and its charts are made once."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolBar

from ui import theme


class WorkshopMixin:
    """Workshop mode of :class:`ui.main_window.MainWindow`."""

    _workshop = None
    _workshop_font_pt = 0.0
    _state_before_workshop = None

    def toggle_workshop(self, on: bool | None = None, full_screen: bool = True) -> None:
        """Enter or leave workshop mode (full screen, large fonts, high contrast)."""
        if on is None:
            on = not self.in_workshop
        if on and not self.in_workshop:
            self._enter_workshop(full_screen)
        elif not on and self.in_workshop:
            self._leave_workshop()
        self.act_workshop.setChecked(self.in_workshop)

    def _workshop_panel(self):
        if self._workshop is None:
            from ui.panels.qt_workshop import QtWorkshopPanel

            self._workshop_font_pt = self._workshop_pt()
            self._workshop = QtWorkshopPanel(self.session, font_pt=self._workshop_font_pt)
            self._workshop.sig_exit.connect(lambda: self.toggle_workshop(False))
        return self._workshop

    def _chrome(self) -> list:
        """The window's bars, hidden in workshop mode."""
        return [self.menuBar(), self.statusBar(), *self.findChildren(QToolBar)]

    def _enter_workshop(self, full_screen: bool) -> None:
        self._state_before_workshop = (self.windowState(), self.geometry(), self.saveGeometry(),
                                       [w for w in self._chrome() if w.isVisible()])
        self._workshop_full_screen = full_screen
        panel = self._workshop_panel()
        self._apply_workshop_look()
        self.stack.addWidget(panel)
        self.stack.setCurrentWidget(panel)
        for bar in self._chrome():
            bar.hide()
        if full_screen:
            self.showFullScreen()
        self.name_widgets_soon()  # a screen reader hears a name for each of its controls

    def _leave_workshop(self) -> None:
        state, geometry, saved, bars = self._state_before_workshop
        self._state_before_workshop = None
        self.stack.setCurrentIndex(0)
        self.stack.removeWidget(self._workshop)  # out of the stack: its size must not bind the window
        self._workshop.hide()
        for bar in bars:
            bar.show()
        if self.windowState() != state:
            self.setWindowState(state)
        if not state & (Qt.WindowState.WindowMaximized | Qt.WindowState.WindowFullScreen):
            self.restoreGeometry(saved)
            self.setGeometry(geometry)
            self.fit_to_screen()

    def _apply_workshop_look(self) -> None:
        """Large, but never so large that the view overflows a small projector (pt per 90 px of
        width); applied again only when the size changes."""
        pt = self._workshop_pt()
        if pt != self._workshop_font_pt:
            self._workshop_font_pt = pt
            theme.apply_to(self._workshop, "workshop", pt)
            self._workshop.on_theme_changed()

    def _workshop_pt(self) -> float:
        full = getattr(self, "_workshop_full_screen", True) and self.screen() is not None
        width = self.screen().availableGeometry().width() if full else self.width()
        return min(self.settings.workshop_font_pt, max(11.0, width / 90))

    @property
    def in_workshop(self) -> bool:
        return self._workshop is not None and self.stack.currentWidget() is self._workshop

    def geometry_to_save(self):
        """The window's geometry to remember on closing: in workshop mode, the one before it."""
        return self._state_before_workshop[2] if self._state_before_workshop else self.saveGeometry()

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt override
        if event.key() == Qt.Key.Key_Escape and self.in_workshop:
            self.toggle_workshop(False)
            return
        super().keyPressEvent(event)

