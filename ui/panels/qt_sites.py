"""Sites and imports: the user's sites with their imported benchmark measurements; import files
(drop them on the window or use Import), each file's outcome listed, errors per file without
losing the others; choose the site that calibrates the advice."""

from __future__ import annotations

import html
import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from knowledge.infra.errors import UserFacingError
from ui.tablemodels import FilterProxy, RecordTableModel, fmt_value
from ui.workers import TaskSlot

SITE_COLUMNS = ("metric", "value", "unit", "tool", "subject", "factors")  # factors last: it stretches


def import_into_site(paths: list[Path], site: str, db_path: Path, progress=None, cancel=None):
    """Worker: the one site-import workflow (:func:`knowledge.importers.workflow.import_files`),
    the same the CLI runs; returns its ImportBatch."""
    from knowledge.importers.workflow import import_files

    return import_files(paths, site, db_path=db_path, progress=progress, cancel=cancel)


class QtSitesPanel(QWidget):
    """Sites, their measurements, and importing."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.task = TaskSlot("importing benchmark files", session.notifier, parent=self)
        self.task.sig_done.connect(self.on_imported)
        self.task.sig_cancelled.connect(self.on_cancelled)
        self.task.sig_progress.connect(lambda f, m: self.status.setText(f"{m} ({f:.0%})"))
        self.outcomes: list = []  # the FileResults of the last import in this window
        self.batch = None

        left_box = self._make_sites_box(session)
        self._make_measurements()
        right = self._make_right()
        split = QSplitter()
        split.addWidget(left_box)
        split.addWidget(right)
        split.setSizes([300, 900])
        QVBoxLayout(self).addWidget(split)
        session.sig_site.connect(lambda _s: self._show_calibration_choice())
        session.sig_advice.connect(lambda _a: self.show_calibration())
        self.refresh()

    def _make_sites_box(self, session) -> QGroupBox:
        """The sites, the site for new imports, Import / Delete / Benchmark plan and the calibration choice."""
        self.site_list = QListWidget()
        self.site_list.setToolTip("Your sites (a customer, a lab); select one to see its measurements")
        self.site_list.currentRowChanged.connect(lambda _r: self.show_site())
        self.new_site = QLineEdit()
        self.new_site.setPlaceholderText("Site for new imports, e.g. lab-1")
        self.new_site.setToolTip("Imported files go to this site (created if new)")
        imp = QPushButton("Import files…")
        imp.setObjectName("primary")
        imp.setToolTip("fio, bonnie++, sysbench, PostMark or IOzone output (or drop files on the window)")
        imp.clicked.connect(self.import_dialog)
        delete = QPushButton("Delete site")
        delete.clicked.connect(self.delete_site)
        remove = self.remove_button = QPushButton("&Remove a file…")
        remove.setToolTip("Remove one imported file of this site with its measurements (a wrong or bad file); "
                          "the site's other files stay")
        remove.clicked.connect(lambda: self.remove_import())
        plan = QPushButton("Benchmark &plan…")
        plan.setToolTip("The fio, sysbench and PostMark runs that would calibrate the advice to this site")
        plan.clicked.connect(self.bench_plan_dialog)
        self.calibrate = QComboBox()
        self.calibrate.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.calibrate.setMinimumContentsLength(24)
        from ui.panels.editors import guard_wheel

        guard_wheel(self.calibrate)
        self.calibrate.setToolTip("The advice scales the documents' ratios to this site's measured hardware")
        self.calibrate.activated.connect(lambda _i: session.set_site(
            "" if self.calibrate.currentIndex() == 0 else self.calibrate.currentText()))
        left_box = QGroupBox("Sites")
        ll = QVBoxLayout(left_box)
        ll.addWidget(self.site_list, 1)
        ll.addWidget(self.new_site)
        row = QHBoxLayout()
        row.addWidget(imp)
        row.addWidget(delete)
        ll.addLayout(row)
        ll.addWidget(remove)
        ll.addWidget(plan)
        ll.addWidget(QLabel("Calibrate the advice to:"))
        ll.addWidget(self.calibrate)
        hint = QLabel("Drag benchmark output files anywhere onto this window to import them.")
        hint.setObjectName("hint")
        hint.setWordWrap(True)
        ll.addWidget(hint)
        return left_box

    def _make_measurements(self) -> None:
        """The measurements' table and filter, and the page shown instead while there are none."""
        self.model = RecordTableModel(SITE_COLUMNS)
        self.proxy = FilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # documents' order until asked
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter measurements")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self.proxy.set_text)
        self.filter.setMinimumWidth(220)
        self.empty = QLabel(
            "<div style='font-size:15pt; font-weight:600'>No benchmark results yet</div><br>"
            "Drop output files of <b>fio</b> (JSON, json+, terse or text), <b>bonnie++</b> (CSV or table), "
            "<b>sysbench</b> (cpu, fileio, memory, oltp, threads, mutex), <b>PostMark</b> or <b>IOzone</b> anywhere on this window, "
            "or use <b>Import files…</b>.<br><br>Each file is stored with its tool, version and parameters "
            "under the site named on the left; a damaged file is reported here and the others are still "
            "imported. With a site chosen under <i>Calibrate the advice to</i>, the documents' ratios are "
            "scaled to your measured hardware.")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setObjectName("hint")
        self.empty.setMargin(16)
        empty_area = QScrollArea()  # the text stays whole with large fonts in a small window
        empty_area.setWidget(self.empty)
        empty_area.setWidgetResizable(True)
        empty_area.setFrameShape(QScrollArea.Shape.NoFrame)
        self.table_stack = QStackedWidget()
        self.table_stack.addWidget(empty_area)
        self._empty_page = empty_area
        self.table_stack.addWidget(self.table)

    def _make_right(self) -> QWidget:
        """Heading, filter and figures above the measurements, the import log below."""
        self.heading = QLabel("No site selected")
        self.heading.setObjectName("subtitle")
        self.heading.setWordWrap(True)
        self.log = QListWidget()
        self.log.setToolTip("The outcome of each imported file")
        self.log.setWordWrap(True)
        self.status = QLabel("")
        self.status.setObjectName("hint")
        self.figures_label = QLabel()
        self.figures_label.setObjectName("siteFigures")
        self.figures_label.setWordWrap(True)
        self.figures_label.setTextFormat(Qt.TextFormat.RichText)
        self.figures_label.setToolTip("The figures of this site that calibrate the advice: the best result of each "
                                      "kind (sequential, random; read, write), with the tool and file it came from")
        self.calibration_label = QLabel()
        self.calibration_label.setTextFormat(Qt.TextFormat.PlainText)
        self.calibration_label.setObjectName("banner")
        self.calibration_label.setWordWrap(True)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.calibration_label)
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.filter)
        rl.addLayout(top)
        rl.addWidget(self.figures_label)
        # measurements above, the import log below; the user can move the border (the log gets
        # room for about ten files, so a refused file is not scrolled out of sight)
        self.vsplit = QSplitter(Qt.Orientation.Vertical)
        self.vsplit.setChildrenCollapsible(False)
        self.vsplit.addWidget(self.table_stack)
        rl.addWidget(self.vsplit, 1)
        log_box = QGroupBox("Import log (one line per file)")
        lb = QVBoxLayout(log_box)
        lb.addWidget(self.log)
        lb.addWidget(self.status)
        self.vsplit.addWidget(log_box)
        self.vsplit.setStretchFactor(0, 3)
        self.vsplit.setStretchFactor(1, 2)
        return right

    def busy(self) -> bool:
        return self.task.running

    def refresh(self) -> None:
        try:
            sites = self.session.userdb.sites()
        except UserFacingError as exc:
            self.session.notifier.failure("opening the user database", exc)
            return
        current = self.site_list.currentItem().data(Qt.ItemDataRole.UserRole) if self.site_list.currentItem() else ""
        self.site_list.blockSignals(True)
        self.site_list.clear()
        for s in sites:
            item = QListWidgetItem(f"{s.name}\n  {s.imports} file(s), {s.measurements} measurements")
            item.setData(Qt.ItemDataRole.UserRole, s.name)
            self.site_list.addItem(item)
        self.site_list.blockSignals(False)
        names = [s.name for s in sites]
        if names:
            # keep the user's selection; else the site the advice is calibrated to; else the first
            first = current if current in names else (self.session.site if self.session.site in names else names[0])
            self.site_list.setCurrentRow(names.index(first))
        self.calibrate.clear()
        self.calibrate.addItem("documents only (no site)")
        self.calibrate.addItems(names)
        if self.session.site in names:
            self.calibrate.setCurrentText(self.session.site)
        if not self.new_site.text():
            self.new_site.setText(current or (names[0] if names else "my-site"))
        self.show_site()

    def show_site(self) -> None:
        item = self.site_list.currentItem()
        if item is None:
            self.model.set_rows([])
            self.heading.setText("No site yet: import benchmark files to create one.")
            self.figures_label.clear()
            self.show_calibration()
            self.table_stack.setCurrentWidget(self._empty_page)
            self.remove_button.setEnabled(False)  # no site: no file to remove
            return
        self.table_stack.setCurrentWidget(self.table)
        name = item.data(Qt.ItemDataRole.UserRole)
        self.remove_button.setEnabled(True)
        rows = [{"metric": m.metric, "value": m.value, "unit": m.unit, "factors": m.factors, "subject": m.subject,
                 "tool": m.tool} for m in self.session.userdb.site_measurements(name)]
        self.model.set_rows(rows)
        self.table.resizeColumnsToContents()
        for c in range(self.model.columnCount()):
            self.table.setColumnWidth(c, min(self.table.columnWidth(c), 420))
        if not self.outcomes:  # before any import in this window: what the site already holds
            self.log.clear()
            for rec in self.session.userdb.imports(name):
                item = QListWidgetItem(f"✔ {Path(rec.path).name}: {rec.tool} {rec.tool_version}".strip()
                                       + (f" ({len(rec.warnings)} warning(s))" if rec.warnings else ""))
                item.setToolTip("\n".join(rec.warnings) or rec.path)
                self.log.addItem(item)
        self.heading.setText(f"Site {name}: {len(rows)} measurements")
        self.show_site_figures(name)
        self.show_calibration()

    def show_site_figures(self, name: str) -> None:
        """What the site measured that calibrates advice: one readable line per figure."""
        from advisor.calibration import from_summary
        from advisor.figures.calibration_text import figures_of
        from knowledge.sites import summarize_site

        try:
            figures = figures_of(from_summary(summarize_site(self.session.userdb, name)))
        except UserFacingError as exc:
            self.figures_label.setText(html.escape(str(exc)))
            return
        if not figures:
            self.figures_label.setText("No disk figures among these results (a CPU or memory benchmark alone "
                                       "does not calibrate the advice).")
            return
        rows = "".join(f"<tr><td>{html.escape(f.label)}</td><td align='right'><b>{html.escape(fmt_value(f.value))}"
                       f"</b> {html.escape(f.unit)}</td><td>{html.escape(f.tool)}</td><td>{html.escape(f.file)}</td>"
                       f"<td>{'' if f.used else 'not used by the models'}</td></tr>" for f in figures)
        self.figures_label.setText(f"<b>What site {html.escape(name)} measured</b> (the best result of each kind)"
                                   f"<table cellspacing='0' cellpadding='2'>{rows}</table>")

    def show_calibration(self) -> None:
        """Which site calibrates the advice, and what it contributed (or why it did not)."""
        from advisor.figures.calibration_text import summary_text

        advice = self.session.advice
        if advice is None:
            self.calibration_label.setText("The advice is not computed yet.")
            return
        self.calibration_label.setText(summary_text(advice))
        self.calibration_label.setProperty("state", "ok" if advice.calibration.figures else "")
        self.calibration_label.style().polish(self.calibration_label)

    def _show_calibration_choice(self) -> None:
        site = self.session.site
        index = self.calibrate.findText(site) if site else 0
        self.calibrate.setCurrentIndex(max(0, index))

    def site_name(self) -> str:
        return self.new_site.text().strip() or "my-site"

    def bench_plan_dialog(self):
        """The benchmark plan for the current advice and the selected (or new) site."""
        from ui.dialogs.bench_plan import BenchPlanDialog

        item = self.site_list.currentItem()
        selected = item.data(Qt.ItemDataRole.UserRole) if item is not None else ""
        dialog = BenchPlanDialog(self.session, selected or self.new_site.text().strip(), self)
        dialog.open()
        return dialog

    def import_dialog(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Import benchmark files", self.session.settings.last_dir)
        if paths:
            self.import_files([Path(p) for p in paths])

    def import_files(self, paths: list[Path], site: str | None = None) -> None:
        """Import ``paths`` into ``site`` (default: the name in the site field) in a worker."""
        from knowledge.infra.paths import user_db_path

        self.status.setText(f"Importing {len(paths)} file(s)…")
        self.task.start(import_into_site, [Path(p) for p in paths], site or self.site_name(), user_db_path())

    def on_imported(self, batch) -> None:
        """Show an ImportBatch: one log line per file (newest first) and the summary line."""
        self.batch = batch
        self.outcomes = list(batch.files)
        # newest batch on top; in it refused files first, then files with skipped runs
        order = sorted(batch.files, key=lambda o: 0 if not o.ok else 1 if o.runs_skipped else 2)
        for o in reversed(order):
            self.log.insertItem(0, self.log_item(o, batch.site))
        self.status.setText(batch.summary())
        if batch.plugin_failures:
            self.session.notifier.message("; ".join(str(f) for f in batch.plugin_failures), 8000)
        self.refresh()
        self.session.sig_sites_changed.emit()

    @staticmethod
    def log_item(o, site: str) -> QListWidgetItem:
        """One import-log line: ✔ imported, ⚠ imported with runs skipped (the first reason shown),
        = already in the site, ✘ refused (the importer's message, after the file name)."""
        name = Path(o.path).name
        warn = f" ({len(o.warnings)} warning(s))" if o.warnings else ""
        if o.status == "imported":
            mark = "⚠" if o.runs_skipped else "✔"
            version = o.tool_version or "(version not in the file)"
            text = f"{mark} {name}: {o.tool} {version}, {o.summary()}, {len(o.measurements)} measurements{warn}"
            skipped = [w for w in o.warnings if w.rstrip().endswith("skipped")]
            if skipped:
                text += f" - {skipped[0][:160]}"
        elif o.status == "duplicate":
            text = f"= {name}: already imported into site {site!r}, not stored again"
        else:
            error = o.error[len(o.path):].lstrip(":, ") if o.error.startswith(o.path) else o.error
            if m := re.match(r"^((?:line \d+)?(?:, )?(?:key [^:]+)?): (.+)$", error, re.S):
                if m.group(1):
                    error = f"{m.group(2)} ({m.group(1)})"  # the reason first, where in the file after it
            text = f"✘ {name}: not imported - {error}"
        item = QListWidgetItem(text)
        item.setToolTip("\n".join(o.warnings) if o.ok and o.warnings else (o.error or o.note or o.path))
        return item

    def on_cancelled(self) -> None:
        """Files stored before the cancel stay (each whole): show what the site now holds."""
        self.status.setText("Import cancelled; the files imported before the cancel are kept")
        self.refresh()
        self.session.sig_sites_changed.emit()

    def delete_site(self) -> None:
        item = self.site_list.currentItem()
        if item is None:
            return
        name = item.data(Qt.ItemDataRole.UserRole)
        answer = QMessageBox.question(self, "Delete site", f"Delete site {name} and all its measurements?")
        if answer == QMessageBox.StandardButton.Yes:
            self.session.userdb.delete_site(name)
            if self.session.site == name:
                self.session.set_site("")
            self.refresh()
            self.session.sig_sites_changed.emit()

    def remove_import(self, import_id: int | None = None) -> None:
        """Remove one imported file of the selected site (asked for when ``import_id`` is None)."""
        item = self.site_list.currentItem()
        if item is None:
            return
        name = item.data(Qt.ItemDataRole.UserRole)
        records = self.session.userdb.imports(name)
        if import_id is None:
            if not records:
                return
            choices = [f"{Path(r.path).name} ({r.tool} {r.tool_version}".strip() + f", import {r.id})"
                       for r in records]
            text, ok = QInputDialog.getItem(self, "Remove an imported file",
                                            f"The file of site {name} to remove, with its measurements:",
                                            choices, 0, False)
            if not ok or text not in choices:
                return
            import_id = records[choices.index(text)].id
        try:
            rec, removed = self.session.userdb.delete_import(name, import_id)
        except UserFacingError as exc:
            self.session.notifier.failure("removing an imported file", exc)
            return
        self.status.setText(f"Removed {Path(rec.path).name} from site {name} ({removed} measurements)")
        self.outcomes = []  # the log lists what the site holds now
        self.refresh()
        self.session.sig_sites_changed.emit()
