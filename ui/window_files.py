"""The main window's files: the window title, the unsaved-changes question, new / open / save /
save as, recent files, benchmark and inventory imports, report and configuration exports, drag
and drop."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings

from knowledge.infra.errors import InputError, UserFacingError
from knowledge.infra.paths import user_config_dir
from ui.filedialogs import filter_suffix, safe_file_name, start_dir, with_suffix
from ui.triggers import on_trigger

if TYPE_CHECKING:
    from PySide6.QtWidgets import QFileDialog, QMessageBox

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


class FilesMixin:
    """Files and the unsaved-changes guard of :class:`ui.main_window.MainWindow`."""

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

    def unsaved_views(self) -> list[tuple[object, str]]:
        """The views holding edits the scenario does not have yet (the real-time task table), as
        (panel, what) pairs: unsaved changes as much as the document's own."""
        return [(p, what) for p in self.panels.values()
                if hasattr(p, "unsaved_edits") and (what := p.unsaved_edits())]

    def unsaved_box(self, views: list[tuple[object, str]]) -> QMessageBox:
        """The unsaved-changes question, its buttons with accelerator keys (Alt+S, Alt+D; Esc cancels)."""
        from PySide6.QtWidgets import QMessageBox  # on first use, not at start-up

        doc = self.session.document
        text = f"Save the changes to {doc.title}?"
        if views:
            text += "\n\nNot yet in the scenario: " + "; ".join(what for _p, what in views) + "."
        B = QMessageBox.StandardButton
        box = QMessageBox(QMessageBox.Icon.Question, "Unsaved changes", text, B.Save | B.Discard | B.Cancel, self)
        box.button(B.Save).setText("&Save")
        box.button(B.Discard).setText("&Don't save")
        box.button(B.Cancel).setText("Cancel")
        box.setDefaultButton(B.Save)
        box.setEscapeButton(B.Cancel)
        return box

    def maybe_discard(self) -> bool:
        """Ask what to do with unsaved changes (the document's and any view's); True if it is fine
        to go on. Save writes the views' edits into the scenario first."""
        views = self.unsaved_views()
        if not self.session.document.dirty and not views:
            return True
        from PySide6.QtWidgets import QMessageBox  # on first use, not at start-up
        answer = self.unsaved_box(views).exec()
        if answer == QMessageBox.StandardButton.Save:
            for panel, _what in views:
                if not panel.save_edits():  # a cell with a problem: stay, show it
                    self.show_view(next(n for n, p in self.panels.items() if p is panel))
                    return False
            return self.save()
        if answer == QMessageBox.StandardButton.Discard:
            for panel, _what in views:
                panel.discard_edits()
            return True
        return False

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
        from PySide6.QtWidgets import QFileDialog  # on first use, not at start-up

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
        if kind.kind in ("inventory", "series"):  # an estate export (or its series): File > Import inventory
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
        from PySide6.QtWidgets import QMessageBox  # on first use, not at start-up

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
        from PySide6.QtWidgets import QFileDialog  # on first use, not at start-up

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
        from PySide6.QtWidgets import QFileDialog  # on first use, not at start-up

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

        if Path(path).resolve().is_relative_to((bundle_root() / "resources" / "examples").resolve()):
            return  # the bundled examples are neither recent files nor the folder to save in (a file saved
            # anywhere else in the application's folder, e.g. a checkout, is: a restart reopens it)
        qs = window_settings()
        recent = [p for p in self.recent_files() if p != str(path)]  # one file reads back as a str
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
            on_trigger(act, lambda path=p: self.maybe_discard() and self.open_scenario(Path(path)))
        self.recent_menu.setEnabled(bool(files))

    def import_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog  # on first use, not at start-up

        paths, _ = QFileDialog.getOpenFileNames(self, "Import benchmark files", self.settings.last_dir)
        if paths:
            self.import_files([Path(p) for p in paths])

    def import_inventory(self, paths: list[Path] | None = None):
        """File > Import inventory…: read estate exports in the worker, let the user adjust the
        groups (ui/dialogs/inventory.py), then load the scenario. Returns the dialog."""
        from PySide6.QtWidgets import QFileDialog  # on first use, not at start-up

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

    def export_workbook(self) -> None:
        """File ▸ Export workbook… (Excel: design, bill of materials, placement, decisions, ...)."""
        self.deliverables().ask_and_export("xlsx", self)

    def export_slides(self) -> None:
        """File ▸ Export slides… (a 16:9 PowerPoint deck with the charts)."""
        self.deliverables().ask_and_export("pptx", self)

    def deliverables(self):
        """The window's :class:`ui.deliverables.Exporter` (made on first use)."""
        if getattr(self, "_exporter", None) is None:
            from ui.deliverables import Exporter

            self._exporter = Exporter(self.session, self)
        return self._exporter

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
        template) and the utilisation series beside them go to File > Import inventory (returned: its
        dialog); everything else is imported as benchmark output."""
        from advisor.files import classify_file

        kinds = {p: classify_file(p).kind for p in paths}
        scenarios = [p for p in paths if kinds[p] == "scenario"]
        inventories = [p for p in paths if kinds[p] in ("inventory", "series")]
        others = [p for p in paths if kinds[p] not in ("scenario", "inventory", "series")]
        dialog = None
        if scenarios and self.maybe_discard():
            self.open_scenario(scenarios[0])
        elif inventories:
            dialog = self.import_inventory(inventories)
        if others:
            self.import_files(others)
        return dialog
