"""The Preferences dialog: edits a copy of the user's settings (``app.settings.Settings``, reached
through the injected :class:`ui.session.SettingsStore`: ui/ never imports app/).

The dialog only shows and edits values; the main window saves and applies what
:meth:`PreferencesDialog.result_settings` returns (``MainWindow.apply_preferences``). The ranges
of the editors are the store's ``limits``, the ones ``Settings.validate`` clamps to, so an
out-of-range value cannot be typed. A field set by a ``CAPADVISOR_<FIELD>`` environment
variable for this run is shown but not editable (the variable wins and is never saved).
"""

from __future__ import annotations

import copy
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ui.session import SettingsStore

#: the fields of Settings this dialog edits (the main window copies back exactly these)
FIELDS = ("theme", "font_pt", "workshop_font_pt", "whatif_debounce_ms", "auto_advise", "max_recent")

THEME_LABELS = {"system": "Follow the desktop", "light": "Light", "dark": "Dark"}


class PreferencesDialog(QDialog):
    """Theme, font sizes, what-if delay, automatic advice and recent-files length."""

    def __init__(self, settings: Any, store: SettingsStore, parent: QWidget | None = None):
        super().__init__(parent)
        self.store = store
        self.setWindowTitle("Preferences")
        self.setObjectName("preferencesDialog")
        self._settings = copy.deepcopy(settings)  # keeps the environment overrides it was loaded with
        self._overridden: set[str] = set(getattr(settings, "_overridden", set()))

        self._make_editors(store)
        form = self._form()
        for name in self._overridden & set(FIELDS):
            editor = self.editor(name)
            editor.setEnabled(False)
            editor.setToolTip(f"Set by the environment variable {store.env_prefix}{name.upper()} for this run.")
        self.buttons = self._make_buttons()

        lay = QVBoxLayout(self)
        lay.setContentsMargins(18, 16, 18, 12)
        lay.setSpacing(14)
        lay.addLayout(form)
        lay.addStretch(1)
        lay.addWidget(self.buttons)
        self.show_settings(self._settings)
        self.setMinimumWidth(max(420, self.sizeHint().width()))

    def _make_editors(self, store: SettingsStore) -> None:
        """One editor per field of :data:`FIELDS`, with its range, units and tooltip."""
        self.theme = QComboBox()
        for mode in store.themes:
            self.theme.addItem(THEME_LABELS.get(mode, mode.capitalize()), mode)
        self.theme.setToolTip("Colours of the window: the desktop's light or dark scheme, or always "
                              "light or dark. Workshop mode has its own high-contrast look.")

        self.font_pt = self._double_spin("font_pt", " pt", 0.5)
        self.font_pt.setSpecialValueText("Desktop default")
        self.font_pt.setToolTip("Base font size of the window, in points; the lowest value "
                                "(Desktop default) uses the desktop's own size.")

        self.workshop_font_pt = self._double_spin("workshop_font_pt", " pt", 0.5)
        self.workshop_font_pt.setToolTip("Base font size in workshop mode, in points (smaller on a "
                                         "narrow screen, so that the view fits a projector).")

        self.whatif_debounce_ms = self._int_spin("whatif_debounce_ms", " ms", 10)
        self.whatif_debounce_ms.setSpecialValueText("No delay")
        self.whatif_debounce_ms.setToolTip("How long the what-if view waits after a slider moves before "
                                           "it recomputes, in milliseconds (the recommendations wait "
                                           "four times as long). Raise it on a slow machine.")

        self.auto_advise = QCheckBox("After each edit of the scenario")
        self.auto_advise.setToolTip("Recompute the recommendations automatically after each edit. "
                                    "When off, use Edit ▸ Advise now (F5).")

        self.max_recent = self._int_spin("max_recent", " files", 1)
        self.max_recent.setToolTip("How many scenario files the File ▸ Open recent menu remembers.")

    def _form(self) -> QFormLayout:
        """The editors in three headed sections, each with a label that is its buddy, all one width."""
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        form.setHorizontalSpacing(14)
        form.setVerticalSpacing(8)
        sections = (("Appearance", (("&Theme:", self.theme), ("Base &font size:", self.font_pt),
                                    ("&Workshop font size:", self.workshop_font_pt))),
                    ("Advice", (("What-if &delay:", self.whatif_debounce_ms),
                                ("Re-run &advice:", self.auto_advise))),
                    ("Files", (("&Recent files:", self.max_recent),)))
        for i, (title, rows) in enumerate(sections):
            heading = QLabel(f"<b>{title}</b>")
            if i:
                heading.setContentsMargins(0, 8, 0, 0)
            form.addRow(heading)
            for text, editor in rows:
                label = QLabel(text)
                label.setBuddy(editor)
                label.setToolTip(editor.toolTip())
                label.setContentsMargins(12, 0, 0, 0)
                form.addRow(label, editor)
        width = max(self.theme.sizeHint().width(), self.font_pt.sizeHint().width())
        for editor in (self.theme, self.font_pt, self.workshop_font_pt, self.whatif_debounce_ms, self.max_recent):
            editor.setMinimumWidth(width)
        return form

    def _make_buttons(self) -> QDialogButtonBox:
        """OK, Cancel and Restore Defaults (which only refills the fields)."""
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
                                   | QDialogButtonBox.StandardButton.RestoreDefaults)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        restore = buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults)
        restore.setToolTip("Put the default values in the fields (nothing changes until OK)")
        restore.clicked.connect(self.restore_defaults)
        return buttons

    # --- editors -------------------------------------------------------------------------
    def _double_spin(self, name: str, suffix: str, step: float) -> QDoubleSpinBox:
        lo, hi = self.store.limits[name]
        spin = QDoubleSpinBox()
        spin.setDecimals(1)
        spin.setRange(lo, hi)
        spin.setSingleStep(step)
        spin.setSuffix(suffix)
        spin.setAccelerated(True)
        return spin

    def _int_spin(self, name: str, suffix: str, step: int) -> QSpinBox:
        lo, hi = self.store.limits[name]
        spin = QSpinBox()
        spin.setRange(int(lo), int(hi))
        spin.setSingleStep(step)
        spin.setSuffix(suffix)
        spin.setAccelerated(True)
        return spin

    def editor(self, name: str) -> QWidget:
        """The editor of field ``name`` (one of :data:`FIELDS`)."""
        return getattr(self, name)

    def show_settings(self, settings: Any, only_editable: bool = False) -> None:
        """Put the values of ``settings`` in the editors (skipping the fixed ones if ``only_editable``)."""
        for name in FIELDS:
            if only_editable and name in self._overridden:
                continue
            value = getattr(settings, name)
            editor = self.editor(name)
            if isinstance(editor, QComboBox):
                editor.setCurrentIndex(max(0, editor.findData(value)))
            elif isinstance(editor, QCheckBox):
                editor.setChecked(bool(value))
            else:
                editor.setValue(value)

    def restore_defaults(self) -> None:
        """The default values into the editors (those fixed by the environment stay)."""
        self.show_settings(self.store.defaults(), only_editable=True)

    def result_settings(self) -> Any:
        """The edited copy of the settings (the object given to the dialog is never changed)."""
        s = self._settings
        s.theme = self.theme.currentData()
        s.font_pt = self.font_pt.value()
        s.workshop_font_pt = self.workshop_font_pt.value()
        s.whatif_debounce_ms = self.whatif_debounce_ms.value()
        s.auto_advise = self.auto_advise.isChecked()
        s.max_recent = self.max_recent.value()
        return s.validate()
