"""The groups of an imported estate as the table of the inventory dialog (:mod:`ui.dialogs.inventory`):
what each group holds, what its VMs run with today and what the utilisation series size it on; the
name column renames the group."""

from __future__ import annotations

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal

from knowledge.infra.errors import UserFacingError

_ROOT = QModelIndex()


class GroupsModel(QAbstractTableModel):
    """The groups of an Inventory as a table; the name column is editable (renames the group)."""

    COLUMNS = ("Group", "VMs", "vCPU", "RAM GiB", "Disk GB", "Today", "Note")
    sig_error = Signal(str)

    def __init__(self, inventory, parent=None):
        super().__init__(parent)
        self.inventory = inventory
        self._groups, self._profiles, self._series, self._sized = [], [], [], []  # filled by _cache
        self._cache()

    def _cache(self) -> None:
        # the groups as shown (and what a collector's percentiles size them on, which reads the series):
        # while a regroup's series are summed in the worker, the table keeps these and sums nothing itself
        self._groups = list(self.inventory.groups)
        self._profiles = [self.inventory.profile(g) for g in self._groups]
        self._series = [self.inventory.group_series(g) for g in self._groups]
        self._sized = [self.inventory.collector_sized(g) for g in self._groups]

    def reset(self) -> None:
        self.beginResetModel()
        self._cache()
        self.endResetModel()

    def rowCount(self, parent=_ROOT) -> int:  # noqa: N802 - Qt override
        return 0 if parent.isValid() else len(self._groups)

    def columnCount(self, parent=_ROOT) -> int:  # noqa: N802 - Qt override
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return ("The workload group's name (double-click to rename)", "VMs in the group",
                    "vCPUs per VM in the scenario", "RAM per VM in the scenario (the group's mean)",
                    "Virtual disk per VM (mean of the provisioned sizes)",
                    "What these VMs run with today: cache modes (counted per virtual disk), VMs pinned or "
                    "powered off, vCPU range, CPU use measured (at export time, or a collector's average over its "
                    "collection with its percentiles; 'assumed' where none of the VMs was measured), or the CPU "
                    "share the utilisation series size the group on",
                    "What the grouping changed")[section]
        return None

    def flags(self, index):
        base = super().flags(index)
        if index.isValid() and index.column() == 0:
            return base | Qt.ItemFlag.ItemIsEditable
        return base

    def today_text(self, p, series: dict | None = None) -> str:
        """What the group's VMs run with today, and the CPU share the utilisation series size it on."""
        text = p.today_text()
        if series:
            q = series["sizing_percentile"]
            basis = "the VMs' peaks" if series.get("basis") else f"p{q:g} of the summed series"
            text += ("; " if text else "") + (f"CPU sized {series['sized_busy_pct']:g} % busy ({basis}, "
                                              f"{series['vms_measured']} of {series['vms']} VMs measured)")
            w = series.get("without_series")
            if w:
                text += f"; {w['vms']} VM(s) without series at their own {w['busy_pct']:g} %"
        return text

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        g = self._groups[index.row()]
        p = self._profiles[index.row()]
        col = index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if col == 0:
                return g.name
            if col == 1:
                return p.vms
            if col == 2:
                return p.vcpus
            if col == 3:
                return f"{p.ram_gib:.1f}"
            if col == 4:
                return f"{p.disk_gb:.0f}" if p.disk_gb else "20 (assumed)"
            if col == 5:
                sized = self._sized[index.row()]  # a collector's percentiles: the one the box chose
                return "; ".join(t for t in (self.today_text(p, self._series[index.row()]), sized) if t)
            return g.note
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (1, 2, 3, 4):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and col == 5:  # the whole cell, which a narrow window cuts
            return self.data(index, Qt.ItemDataRole.DisplayRole)
        if role == Qt.ItemDataRole.ToolTipRole:
            lo, hi = p.ram_range_gib
            return (f"{g.name}: {p.vms} VMs, e.g. {', '.join(p.examples)}\n"
                    f"vCPUs today {p.vcpu_range[0]}-{p.vcpu_range[1]}, RAM today {lo:.1f}-{hi:.1f} GiB"
                    + (f"\non {', '.join(p.clusters)}" if p.clusters else ""))
        return None

    def setData(self, index, value, role=Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802 - Qt override
        if not index.isValid() or index.column() != 0 or role != Qt.ItemDataRole.EditRole:
            return False
        try:
            self.inventory.rename(index.row(), str(value))
        except UserFacingError as exc:
            self.sig_error.emit(str(exc))
            return False
        self.dataChanged.emit(index, index)
        return True
