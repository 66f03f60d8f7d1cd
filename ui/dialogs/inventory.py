"""File ▸ Import inventory…: today's estate shown, its workload groups adjusted, then used as the
scenario.

:class:`InventoryDialog` views and edits the :class:`advisor.inventory.Inventory` it is given
(through :class:`~ui.dialogs.inventory_groups.GroupsModel`): what was found, the groups (rename in place, merge, split, group
again), the totals of the source next to the scenario's, the values assumed because no export
carries them, and today's settings. Reading the files runs in the application's worker
(:func:`start_inventory_import`, with progress and cancel); the caller loads
:meth:`InventoryDialog.scenario_data` into the document when the dialog is accepted.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from knowledge.infra.errors import UserFacingError
from ui.dialogs.inventory_groups import GroupsModel
from ui.triggers import on_trigger

#: file chooser filter for estate exports and the utilisation series read beside them
INVENTORY_FILTER = ("Estate exports and utilisation series (*.xlsx *.csv *.xml *.json *.out *.txt);;RVTools, Live "
                    "Optics or Nutanix Collector workbook (*.xlsx);;CSV: RVTools tabs, Azure Migrate or AWS Migration "
                    "Hub import, inventory template (*.csv);;libvirt domain XML (*.xml);;JSON (*.json);;Utilisation "
                    "series: CSV vm,timestamp,cpu_pct,mem_pct or Prometheus query_range JSON (*.csv *.json);;"
                    "All files (*)")

GROUP_BY_LABELS = {"auto": "similar size (auto)", "size": "identical vCPU/RAM/disk", "name-prefix": "VM name prefix",
                   "cluster": "cluster or host"}
SPLIT_LABELS = {"size": "by &size", "name-prefix": "by &name prefix", "cluster": "by &cluster or host",
                "power": "&powered on / off", "half": "in &half (by RAM)"}
FIELD_LABELS = {"cpu_intensity": "CPU intensity", "io.pattern": "I/O pattern", "io.read_share": "read share",
                "io.intensity": "I/O intensity", "io.block_size_kib": "I/O block size, KiB",
                "io.disk_gb": "virtual disk, GB", "data_loss_tolerance": "data loss tolerance",
                "live_migration": "live migration", "containerizable": "containerizable", "vcpus": "vCPUs",
                "ram_gib": "RAM, GiB", "hosts.disks": "hosts' local disks", "hosts.nic_gbps": "host NIC, Gb/s",
                "hosts.reserve": "hosts kept free", "hosts.shared_storage": "shared storage",
                "hosts.shared_storage.network_gbps": "shared storage link, Gb/s", "hosts.count": "host count",
                "hosts.cpu": "host CPUs", "hosts.ram_gib": "host RAM, GiB", "hosts.cpu.ghz": "host CPU clock, GHz",
                "hosts.cpu.sockets": "host sockets", "hosts.cpu.threads_per_core": "threads per core",
                "hosts.cpu.cores_per_socket": "cores per socket"}


def _field(name: str) -> str:
    return FIELD_LABELS.get(name, name.replace("hosts.", "hosts: ").replace("_", " ").replace(".", " "))


class InventoryDialog(QDialog):
    """Shows what the import found and lets the user adjust the groups before using them."""

    sig_cancel_read = Signal()

    def __init__(self, parent: QWidget | None = None, files: list[Path] | None = None):
        super().__init__(parent)
        self.setWindowTitle("Import inventory")
        self.setObjectName("inventoryDialog")
        self.inventory: Any = None  # advisor.inventory.Inventory once read
        self.model: Any = None  # GroupsModel over it
        self.task: Any = None  # the ui.workers.TaskSlot reading the files
        self._select_after: list[int] = []  # groups to select once the worker has summed their series
        self._undo: Any = None  # the inventory's snapshot before an edit whose series the worker sums
        self.files = [Path(f) for f in files or []]
        lay = QVBoxLayout(self)
        self._add_status(lay)
        lay.addLayout(self._make_tools())
        lay.addWidget(self._make_groups(), 1)
        self._add_footer(lay)
        self._set_ready(False)

    def _add_status(self, lay: QVBoxLayout) -> None:
        """What was found, the error message (hidden), and the reading progress with its Stop button."""
        self.found = QLabel("Reading " + ", ".join(f.name for f in self.files) + "…" if self.files else "")
        self.found.setObjectName("inventoryFound")
        self.found.setWordWrap(True)
        self.found.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.found)
        self.message = QLabel()
        self.message.setObjectName("warning")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message.setStyleSheet("color: #b00020;")
        self.message.hide()
        lay.addWidget(self.message)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.cancel_read = QPushButton("&Stop reading")
        self.cancel_read.clicked.connect(self.sig_cancel_read)
        prow = QHBoxLayout()
        prow.addWidget(self.progress, 1)
        prow.addWidget(self.cancel_read)
        self.progress_row = QWidget()
        self.progress_row.setLayout(prow)
        lay.addWidget(self.progress_row)

    def _make_tools(self) -> QHBoxLayout:
        """Group by, powered-off VMs, Merge, Split (its menu) and Rename."""
        tools = QHBoxLayout()
        group_label = QLabel("&Group by:")
        tools.addWidget(group_label)
        self.group_by = QComboBox()
        for key, label in GROUP_BY_LABELS.items():
            self.group_by.addItem(label, key)
        group_label.setBuddy(self.group_by)
        self.group_by.setToolTip("How VMs are put into workload groups (each group shares one vCPU count)")
        self.group_by.currentIndexChanged.connect(self._regroup)
        tools.addWidget(self.group_by)
        self.powered_off = QCheckBox("Include &powered-off VMs")
        self.powered_off.setChecked(True)
        self.powered_off.setToolTip("Powered-off VMs need capacity when they start again; leave them out if they "
                                    "will be retired")
        self.powered_off.toggled.connect(self._toggle_powered_off)
        tools.addWidget(self.powered_off)
        tools.addWidget(self._make_percentile())
        tools.addStretch(1)
        self.merge_button = QPushButton("&Merge")
        self.merge_button.setToolTip("Merge the selected groups into one")
        self.merge_button.clicked.connect(self.merge_selected)
        self.split_button = QPushButton("Sp&lit")
        self.split_button.setToolTip("Split the selected group")
        menu = QMenu(self.split_button)
        self.split_actions: dict[str, QAction] = {}
        for key, label in SPLIT_LABELS.items():
            act = menu.addAction(label)
            on_trigger(act, lambda k=key: self.split_selected(k))
            self.split_actions[key] = act
        self.split_button.setMenu(menu)
        self.rename_button = QPushButton("&Rename")
        self.rename_button.setToolTip("Rename the selected group (F2, or double-click its name)")
        self.rename_button.clicked.connect(self.rename_selected)
        for b in (self.merge_button, self.split_button, self.rename_button):
            tools.addWidget(b)
        return tools

    def _make_percentile(self) -> QWidget:
        """The percentile of the utilisation series the CPU is sized on (shown when series were read)."""
        self.percentile_row = QWidget()
        row = QHBoxLayout(self.percentile_row)
        row.setContentsMargins(0, 0, 0, 0)
        label = QLabel("Size CPU on p&ercentile:")
        self.percentile = QSpinBox()
        self.percentile.setRange(1, 100)
        self.percentile.setObjectName("inventoryPercentile")
        label.setBuddy(self.percentile)
        tip = ("The percentile of the summed utilisation series the hosts' CPU is sized on (100: the peak); "
               "written to the scenario as preferences.sizing_percentile")
        for w in (label, self.percentile):
            w.setToolTip(tip)
            row.addWidget(w)
        self.percentile.setKeyboardTracking(False)  # a value typed is applied once, not digit by digit
        self.percentile.valueChanged.connect(self._set_percentile)
        self.percentile_row.hide()
        return self.percentile_row

    def _make_groups(self) -> QSplitter:
        """The groups table above the Assumed and Today texts (which scroll)."""
        split = QSplitter(Qt.Orientation.Vertical)
        self.table = QTableView()
        self.table.setObjectName("inventoryGroups")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        split.addWidget(self.table)
        info = QWidget()
        ilay = QHBoxLayout(info)
        ilay.setContentsMargins(0, 0, 0, 0)
        self.assumed = QLabel()
        self.assumed.setObjectName("inventoryAssumed")
        self.assumed.setWordWrap(True)
        self.assumed.setTextFormat(Qt.TextFormat.RichText)
        self.assumed.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.today = QLabel()
        self.today.setObjectName("inventoryToday")
        self.today.setWordWrap(True)
        self.today.setTextFormat(Qt.TextFormat.RichText)
        self.today.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        ilay.addWidget(self.assumed, 3)
        ilay.addWidget(self.today, 2)
        info_scroll = QScrollArea()  # the Today panel (with the measured load) may outgrow its pane: it scrolls
        info_scroll.setObjectName("inventoryInfo")
        info_scroll.setWidgetResizable(True)
        info_scroll.setFrameShape(QFrame.Shape.NoFrame)
        info_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        info_scroll.setWidget(info)
        info_scroll.setMinimumHeight(self.fontMetrics().lineSpacing() * 8)
        split.addWidget(info_scroll)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        return split

    def _add_footer(self, lay: QVBoxLayout) -> None:
        """The totals, Use as scenario / Cancel, and F2 to rename."""
        self.totals = QLabel()
        self.totals.setObjectName("inventoryTotals")
        self.totals.setTextFormat(Qt.TextFormat.RichText)
        self.totals.setWordWrap(True)
        lay.addWidget(self.totals)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.use_button = self.buttons.addButton("&Use as scenario", QDialogButtonBox.ButtonRole.AcceptRole)
        self.use_button.setDefault(True)
        self.use_button.setToolTip("Replace the current scenario by these groups and hosts, then advise")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        rename = QAction(self)
        rename.setShortcut(QKeySequence(Qt.Key.Key_F2))
        on_trigger(rename, self.rename_selected)
        self.addAction(rename)

    # --- reading -----------------------------------------------------------------------------
    def show_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(100 * fraction))
        self.progress.setFormat(f"{message} (%p%)" if message else "%p%")

    def show_failure(self, text: str) -> None:
        """The read failed: say why (file and column/element are in the message). A sum of the series
        after an edit that failed puts the groups back as they were before it, usable, and says why."""
        if self._undo is not None:
            self._resum_failed(text)
            return
        self.progress_row.hide()
        self.found.setText("<b>The files could not be imported.</b>")
        self.show_message(text)

    def _resum_failed(self, text: str) -> None:
        inventory, undo = self.inventory, self._undo
        files = ", ".join(Path(f.path).name for f in inventory.series.store.files)
        inventory.restore(undo)
        self._select_after = []
        self.set_inventory(inventory)
        self.show_message(f"Summing the utilisation series ({files}) again for this change failed: "
                          f"{text.strip().rstrip(':.')}. The groups are as they were before it.")

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.setVisible(bool(text))

    def _set_ready(self, ready: bool) -> None:
        for w in (self.group_by, self.powered_off, self.percentile, self.merge_button, self.split_button,
                  self.rename_button, self.use_button, self.table):
            w.setEnabled(ready)
        self.progress_row.setVisible(not ready and self.inventory is None and not self.message.isVisible())

    def set_inventory(self, inventory) -> None:
        """Show ``inventory`` (an advisor.inventory.Inventory) and let the user edit it."""
        self.inventory, self._undo = inventory, None
        self._show_groups(inventory)
        self.group_by.blockSignals(True)
        self.group_by.setCurrentIndex(max(0, self.group_by.findData(inventory.group_by)))
        self.group_by.blockSignals(False)
        self.powered_off.blockSignals(True)
        self.powered_off.setChecked(inventory.include_powered_off)
        self.powered_off.blockSignals(False)
        from advisor.inventory.series import SUMMED

        sized = inventory.sized_percentile  # of the series read, or of the VMs' own percentiles (Nutanix)
        series = inventory.series
        # no percentile where a collector gives only each VM's average and peak (Live Optics, AWS: sized on the peak)
        peaks_only = series is None and {k for v in inventory.vms for k in (v.cpu_pcts or {})} == {"peak"}
        self.percentile_row.setVisible(sized is not None and not peaks_only
                                       and (series is None or series.estate.get("basis") == SUMMED))
        if sized is not None:
            self.percentile.blockSignals(True)
            self.percentile.setValue(int(round(sized)))
            self.percentile.blockSignals(False)
        self.progress_row.hide()
        self._set_ready(True)
        self._refresh_text()
        rows, self._select_after = self._select_after, []
        if rows:
            self.select_rows(rows)
        self._update_buttons()
        QTimer.singleShot(0, self.fit_info)

    def _show_groups(self, inventory) -> None:
        """The groups table over ``inventory``: one model, made with the first inventory shown and reset
        with each after it (a re-sum shows the same inventory summed again)."""
        if self.model is not None:
            self.model.inventory = inventory
            self.model.reset()
            return
        self.model = GroupsModel(inventory, self)
        self.model.sig_error.connect(self.show_message)
        self.table.setModel(self.model)
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        self.model.dataChanged.connect(lambda *_: self._refresh_text())
        head = self.table.horizontalHeader()
        head.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        head.setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        head.setSectionResizeMode(6, QHeaderView.ResizeMode.Stretch)

    def fit_info(self) -> None:
        """Give the Assumed and Today texts the height they need (the groups table keeps a header and
        three rows, and scrolls), so that Today is read whole at 1280x720 without scrolling."""
        split, scroll = self.findChild(QSplitter), self.findChild(QScrollArea, "inventoryInfo")
        info = scroll.widget()
        need = info.heightForWidth(scroll.viewport().width())
        if need <= 0:
            need = info.sizeHint().height()
        total = sum(split.sizes())
        rows = self.table.verticalHeader().defaultSectionSize()
        table_min = self.table.horizontalHeader().height() + 3 * rows + 4
        bottom = max(scroll.minimumHeight(), min(need + 4, total - table_min))
        split.setSizes([total - bottom, bottom])

    # --- editing -------------------------------------------------------------------------------
    def selected_rows(self) -> list[int]:
        if self.table.selectionModel() is None:
            return []
        return sorted({i.row() for i in self.table.selectionModel().selectedRows()})

    def select_rows(self, rows: list[int]) -> None:
        if self.task is not None and self.task.running:  # the groups are summed: select them once shown
            self._select_after = list(rows)
            return
        sel = self.table.selectionModel()
        sel.clearSelection()
        for r in rows:
            sel.select(self.model.index(r, 0), QItemSelectionModel.SelectionFlag.Select
                       | QItemSelectionModel.SelectionFlag.Rows)
        if rows:
            self.table.scrollTo(self.model.index(rows[0], 0))

    def _update_buttons(self) -> None:
        rows = self.selected_rows()
        ready = self.inventory is not None
        self.merge_button.setEnabled(ready and len(rows) >= 2)
        self.split_button.setEnabled(ready and len(rows) == 1)
        self.rename_button.setEnabled(ready and len(rows) == 1)

    def _apply(self, fn, *args):
        """Group again by ``fn(*args)`` (quick); with utilisation series, their sums for the new groups
        are reduced in the worker (long for a large estate) and the dialog shows them as the import."""
        self.show_message("")
        undo = self.inventory.snapshot() if self.task is not None and self.inventory.series is not None else None
        try:
            result = fn(*args)
        except UserFacingError as exc:
            self.show_message(str(exc))
            return None
        if undo is not None:
            self._in_worker(undo, sum_series, self.inventory)
            return result
        self.model.reset()
        self._refresh_text()
        return result

    def merge_selected(self) -> None:
        rows = self.selected_rows()
        k = self._apply(self.inventory.merge, rows)
        if k is not None:
            self.select_rows([k])

    def split_selected(self, by: str) -> None:
        rows = self.selected_rows()
        if len(rows) != 1:
            return
        new = self._apply(self.inventory.split, rows[0], by)
        if new:
            self.select_rows(new)

    def rename_selected(self) -> None:
        rows = self.selected_rows()
        if len(rows) == 1:
            self.table.edit(self.model.index(rows[0], 0))

    def _regroup(self) -> None:
        if self.inventory is not None:
            self._apply(self.inventory.regroup, self.group_by.currentData())

    def _toggle_powered_off(self, on: bool) -> None:
        if self.inventory is not None:
            self._apply(self.inventory.set_include_powered_off, on)

    def _set_percentile(self, q: int) -> None:
        """Size on another percentile: series are reduced again in the worker (long for a large
        estate), the dialog shows the result as it showed the import; the VMs' own percentiles
        (Nutanix) at once."""
        if self.inventory is None or self.inventory.sized_percentile is None:
            return
        if self.task is None or self.inventory.series is None:
            self._apply(self.inventory.set_percentile, float(q))
            return
        self.show_message("")
        self._in_worker(self.inventory.snapshot(), resize_series, self.inventory, float(q))

    def _in_worker(self, undo, fn, *args) -> None:
        """The read inventory's series summed again in the worker; no Stop (stopping left the dialog with
        "could not be imported" and every control off, the inventory's groups changed and not shown).
        ``undo``: the inventory's snapshot before the change, put back if the sum fails."""
        self._undo = undo
        self._set_ready(False)
        self.progress_row.show()
        self.cancel_read.hide()
        self.task.start(fn, *args)

    # --- text ------------------------------------------------------------------------------------
    def _refresh_text(self) -> None:
        inv = self.inventory
        if inv is None:
            return
        s = inv.summary()
        f = s["found"]
        files = ", ".join(escape(Path(x["file"]).name) + f" ({escape(x['format'])})" for x in s["sources"])
        parts = [f"<b>{f['vms']}</b> VMs", f"<b>{f['powered_off']}</b> powered off", f"<b>{f['templates']}</b> templates"]
        if f["containers"]:
            parts.append(f"<b>{f['containers']}</b> containers")
        parts.append(f"<b>{f['hosts']}</b> hosts")
        notes = [escape(n) for src in s["sources"] for n in src["notes"]] + [escape(w) for w in s["warnings"]]
        self.found.setText("Found " + ", ".join(parts) + f" in {files}." + _series_html(s["series"])
                           + ("<br><span style='color:#b35900'>" + "<br>".join(notes[:4]) + "</span>" if notes else ""))
        src, sc = s["totals"]["source"], s["totals"]["scenario"]
        same = src["vms"] == sc["vms"] and src["vcpus"] == sc["vcpus"] and abs(src["ram_gib"] - sc["ram_gib"]) < 0.01
        colour = "" if same else " style='color:#b00020'"
        self.totals.setText(
            f"Today: <b>{src['vms']}</b> VMs, <b>{src['vcpus']}</b> vCPUs, <b>{src['ram_gib']:.1f}</b> GiB RAM"
            f"{'' if inv.include_powered_off else ' (powered-off VMs left out)'} &nbsp;→&nbsp; "
            f"<span{colour}>scenario: <b>{len(inv.groups)}</b> groups, <b>{sc['vms']}</b> VMs, "
            f"<b>{sc['vcpus']}</b> vCPUs, <b>{sc['ram_gib']:.1f}</b> GiB RAM</span>")
        rows = inv.assumptions()
        items = " · ".join(f"{escape(_field(k))} <b>{escape(v)}</b>" for k, v in rows)
        self.assumed.setText("<span style='color:#b35900'><b>⚠ Assumed</b></span> — no export carries these; "
                             f"check them in the scenario editor:<br>{items}")
        self.assumed.setToolTip("Each imported workload lists these fields under 'assumed'; the scenario file "
                                "marks them '# assumed'")
        from advisor.inventory import today_rows

        trs = "".join(f"<tr><td>{escape(label)}</td><td><b>{escape(text)}</b></td></tr>"
                      for label, text in today_rows(s["today"]))
        self.today.setText("<b>Today</b> (shown next to the advice once it is computed):"
                           f"<table cellspacing='0' cellpadding='1'>{trs}</table>" if trs else "")

    def scenario_data(self) -> dict:
        """The scenario to load (valid: advisor.inventory builds it and checks nothing is out of range)."""
        return self.inventory.to_scenario()


def resize_series(inventory, percentile: float, progress=None, cancel=None):
    """Worker: ``inventory`` sized on another percentile of its series (returned, for ``set_inventory``)."""
    from advisor.progress import report

    report(progress, 0.1, f"sizing on the p{percentile:g}")
    inventory.set_percentile(percentile)
    return inventory


def sum_series(inventory, progress=None, cancel=None):
    """Worker: the utilisation series of ``inventory``'s groups summed again after a regroup, merge or
    split (returned, for ``set_inventory``)."""
    from advisor.progress import report

    report(progress, 0.1, "summing the utilisation series of the groups")
    inventory.sized_series()
    return inventory


def _series_html(series: dict | None) -> str:
    """The utilisation series read beside the inventory: which files, and what the sizing used."""
    if not series:
        return ""
    files = ", ".join(f"{escape(Path(f['file']).name)} ({f['vms']} VMs)" for f in series.get("files", []))
    from advisor.inventory.series import trend_text

    trend = f" {escape(trend_text(series['trend']))}." if series.get("trend") else ""
    return f"<br>Utilisation series: {files}. {escape(series['text'])}.{trend}"


def start_inventory_import(parent: QWidget, paths: list[Path], notifier=None,
                           percentile: float | None = None) -> InventoryDialog:
    """Open the dialog and read ``paths`` (estate exports, and utilisation series beside them, sized on
    their ``percentile``: the scenario's default when None) in the worker, as ``capadvisor inventory``
    does (progress and cancel in the dialog). The caller connects ``accepted`` and reads
    :meth:`InventoryDialog.scenario_data`."""
    from advisor.inventory import import_inventory
    from ui.workers import TaskSlot

    dialog = InventoryDialog(parent, paths)
    slot = TaskSlot("importing the inventory", notifier=notifier, parent=dialog)
    dialog.task = slot
    slot.sig_progress.connect(dialog.show_progress)
    slot.sig_done.connect(dialog.set_inventory)
    slot.sig_failed.connect(lambda failure: dialog.show_failure(failure.message))
    slot.sig_cancelled.connect(lambda: dialog.show_failure("Reading stopped."))
    dialog.sig_cancel_read.connect(slot.cancel)
    dialog.rejected.connect(slot.cancel)
    dialog.resize(1000, 640)
    slot.start(import_inventory, [Path(p) for p in paths], percentile=percentile)
    return dialog
