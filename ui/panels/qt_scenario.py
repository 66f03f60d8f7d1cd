"""The scenario editor: hosts, workload groups and preferences as forms with units, each field's
validation message right under it, and "Use this machine" (the hardware probe) for the hosts."""

from __future__ import annotations

import copy
import re

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from advisor.scenario import SHARED_KINDS
from advisor.scenario.fields import BY_PATH, TOTALS, TYPICAL_RAM_GIB, TYPICAL_VCPUS
from advisor.scenario.totals import Sized, size_totals
from ui.document import ScenarioDocument
from ui.first_paint import after_first_paint
from ui.panels.fields import MARKS, BoundForm, provenance, set_problem_words, table_specs
from ui.panels.record_table import RecordTable
from ui.panels.scenario_fold import (
    FoldedColumns,
    chain_tab_order,
    follow_in_tab_order,
    grow_form,
    tab_stops,
    workload_rows_in_view,
)
from ui.workers import TaskSlot

#: the workload's fields made with a panel made for no window (a 1280x800 window shows them); with a window, those
#: it shows (workload_rows_in_view, fill_view); the others follow its first paint (complete())
WORKLOAD_ROWS_SHOWN = 20

#: the forms of the scenario's mappings, from the field table (advisor.scenario.fields)
SCENARIO_SPECS = table_specs("", nested=False)
HOST_SPECS = table_specs("hosts")
DISK_SPECS = table_specs("hosts.disks")
SHARED_SPECS = table_specs("hosts.shared_storage")
WORKLOAD_SPECS = table_specs("workloads")
PREF_SPECS = table_specs("preferences")
GROWTH_SPECS = table_specs("growth")
EVENT_SPECS = table_specs("growth.events")


_SECTIONS = {"hosts": ("Hosts", HOST_SPECS), "preferences": ("Preferences", PREF_SPECS),
             "growth": ("Growth", GROWTH_SPECS)}
_LISTS = {("hosts", "disks"): ("Local disk group", DISK_SPECS),
          ("hosts", "shared_storage"): ("Shared storage", SHARED_SPECS),
          ("growth", "events"): ("Growth event", EVENT_SPECS)}
_PATH_PART = re.compile(r"([A-Za-z_]\w*)|\[(\d+)\]")
_RT_WORDS = {"realtime": "real-time tasks", "tasks": "task", "wcet": "WCET", "period": "period",
             "deadline": "deadline", "share": "share", "overhead": "overhead", "time_unit": "time unit"}


def _split(path_text: str) -> tuple:
    return tuple(int(i) if i else n for n, i in _PATH_PART.findall(path_text))


def _label(specs, rest: tuple) -> str | None:
    spec = next((s for s in specs if s.path == rest), None)
    return spec.label if spec else None


def field_title(path_text: str, data: dict | None = None) -> str:
    """A problem's field in the words of the editor: ``workloads[0].io.read_share`` ->
    ``Workload "web", Read share``; ``hosts.disks[1].count`` -> ``Local disk group 2, Count``."""
    parts = _split(path_text)
    if not parts:
        return "Scenario"
    if parts[0] == "workloads" and len(parts) > 1 and isinstance(parts[1], int):
        wls = (data or {}).get("workloads") or []
        w = wls[parts[1]] if parts[1] < len(wls) and isinstance(wls[parts[1]], dict) else {}
        who = f'Workload "{w["name"]}"' if w.get("name") else f"Workload {parts[1] + 1}"
        rest = parts[2:]
        label = _label(WORKLOAD_SPECS, rest)
        if label:
            return f"{who}, {label}"
        words = [f"{_RT_WORDS.get(x, x)} {y + 1}" if isinstance(y, int) else _RT_WORDS.get(str(x), str(x))
                 for x, y in zip(rest, (*rest[1:], None), strict=False) if not isinstance(x, int)]
        return ", ".join([who, *words]) if words else who
    for (a, b), (noun, specs) in _LISTS.items():
        if parts[:2] == (a, b):
            if len(parts) > 2 and isinstance(parts[2], int):
                label = _label(specs, parts[3:])
                return f"{noun} {parts[2] + 1}" + (f", {label}" if label else "")
            return noun
    if parts[0] in _SECTIONS:
        section, specs = _SECTIONS[parts[0]]
        return _label(specs, parts[1:]) or f"{section}, {' '.join(str(x) for x in parts[1:])}"
    return _label(SCENARIO_SPECS, parts) or path_text


def humanize_message(message: str, data: dict | None = None, base: str = "") -> str:
    """A core validation message with the other fields it names (``io.disk_gb``) in the editor's
    words; ``base`` is the path of the problem's entry (``workloads[1]``)."""
    def repl(m: re.Match) -> str:
        full = f"{base}.{m.group(0)}" if base and not m.group(0).startswith(("hosts", "workloads")) else m.group(0)
        title = field_title(full, data)
        return title.split(", ", 1)[-1] if title != full else m.group(0)

    return re.sub(r"\b(?:[a-z_]+\.)+[a-z_]+\b(?:\[\d+\])?", repl, message)


def problem_message(path_text: str, message: str, data: dict | None = None) -> str:
    """A problem's message with the other fields it names in the editor's words, read from the
    problem's entry (``workloads[1]``, its ``io`` section included): the banner's and the field's."""
    base = path_text.rsplit(".", 1)[0] if "." in path_text else ""
    return humanize_message(message, data, re.sub(r"\.io$", "", base))


set_problem_words(problem_message)  # each form's own problem lines name other fields as the banner does


def describe_problem(path_text: str, message: str, data: dict | None = None) -> str:
    """``Workload "web", Read share: must be <= 1`` for a validation problem."""
    if not path_text:
        return message
    return f"{field_title(path_text, data)}: {problem_message(path_text, message, data)}"


def new_disk_group(existing: list) -> dict:
    """A new local-disk group: like the last one, else one 1 TB SSD."""
    last = existing[-1] if existing and isinstance(existing[-1], dict) else {}
    default = {key: BY_PATH[f"hosts.disks.{key}"].default for key in ("kind", "count", "size_gb")}
    return {"kind": last.get("kind", default["kind"]), "count": default["count"],
            "size_gb": last.get("size_gb", default["size_gb"])}


def new_shared_storage(existing: list) -> dict:
    """A new shared-storage entry: a kind not yet on offer, on the network of the last one."""
    kinds = [e.get("kind") for e in existing if isinstance(e, dict)]
    kind = next((k for k in SHARED_KINDS if k not in kinds), SHARED_KINDS[0])
    last = existing[-1] if existing and isinstance(existing[-1], dict) else {}
    return {"kind": kind, "network_gbps": last.get("network_gbps", BY_PATH["hosts.shared_storage.network_gbps"].default)}


def new_workload(existing: list[dict]) -> dict:
    """A sensible new workload group with a name not yet used."""
    names = {w.get("name") for w in existing}
    i = len(existing) + 1
    while f"workload{i}" in names:
        i += 1
    return {"name": f"workload{i}", "vms": 4, "vcpus": 2, "ram_gib": 4.0, "cpu_intensity": "medium",
            "io": {"pattern": "mixed", "read_share": 0.5, "intensity": "low", "block_size_kib": 4.0}}


#: seconds of disk micro-benchmark "Use this machine" spends measuring the disk's IOPS and MB/s
PROBE_BENCH_SECONDS = 3.0


def new_growth_event(existing: list, workloads: list) -> dict:
    """A step event: 10 VMs of the first workload a year after the last event (at most year 1 more)."""
    year = max((int(e.get("year", 0)) for e in existing if isinstance(e, dict)), default=0) + 1
    first = next((w.get("name") for w in workloads if isinstance(w, dict) and w.get("name")), "")
    return {"year": year, "workload": first, "add_vms": 10}


def totals_shape(w: dict) -> Sized | None:
    """The VMs a workload given as totals is sized as, as the reader sizes it (and its typical
    VM); None when it is not given as totals (or its values are not numbers yet)."""
    if not isinstance(w, dict) or not any(w.get(k) is not None for k in TOTALS):
        return None
    try:
        vcpus, ram = int(w.get("vcpus") or TYPICAL_VCPUS), float(w.get("ram_gib") or TYPICAL_RAM_GIB)
        cpu, mem, tb = w.get("total_vcpus"), w.get("total_ram_gib"), w.get("total_storage_tb")
        return size_totals(None if cpu is None else int(cpu), None if mem is None else float(mem),
                           None if tb is None else float(tb), vcpus, ram)
    except (TypeError, ValueError, ZeroDivisionError):
        return None


def _probe_hosts(progress=None, cancel=None) -> dict:
    """Worker: this machine as the ``hosts`` mapping of a scenario (from the hardware probe), its
    disk measured by a short micro-benchmark (figures marked ``source: probe``; none when the
    cache folder's file system cannot measure the device)."""
    from advisor.probes.bench import run_benchmarks
    from advisor.probes.registry import REGISTRY
    from advisor.probes.skeleton import hosts_section
    from knowledge.infra.errors import UserFacingError
    from knowledge.infra.paths import user_cache_dir

    def part(lo, hi):
        return (lambda f, m: progress(lo + (hi - lo) * f, m)) if progress else None

    run = REGISTRY.run(progress=part(0.0, 0.4), cancel=cancel)  # built-ins and entry-point plug-ins
    try:
        bench = run_benchmarks(user_cache_dir(), PROBE_BENCH_SECONDS, progress=part(0.4, 1.0), cancel=cancel)
    except UserFacingError:  # no room or no folder for the test file: the per-kind figures apply
        bench = None
    hosts, _notes = hosts_section(run.facts, bench)
    return hosts


class QtScenarioPanel(FoldedColumns):
    """Edit the document's hosts, workloads and preferences."""

    sig_status = Signal(str)

    def __init__(self, document: ScenarioDocument, notifier=None, parent: QWidget | None = None,
                 window: QSize | None = None):
        """``window``: the size of the main window it is made for (its first paint shows the
        workload's fields that window shows, the others follow)."""
        super().__init__(parent)
        self.document = document
        self._below_fold: dict[str, QWidget] = {}  # made by complete()
        self.probe_task = TaskSlot("probing this machine", notifier, parent=self)
        self.probe_task.sig_done.connect(self.on_probe_done)
        self.probe_task.sig_finished.connect(lambda: self.probe_button.setEnabled(True))

        self.banner = QLabel()
        self.banner.setObjectName("banner")
        self.banner.setWordWrap(True)
        left = self._build_hosts_column(document)
        self._build_workload_column(document, window)
        self._build_columns(left)
        document.sig_changed.connect(self.on_document_changed)
        document.sig_validated.connect(self.on_validated)
        self.on_document_changed(())
        self.on_validated(document.problems)
        after_first_paint(self, self.complete)

    def _build_hosts_column(self, document: ScenarioDocument) -> QWidget:
        """The left column: scenario name, hosts and storage (preferences, targets and growth
        below them follow with :meth:`complete`)."""
        self.scenario_form = BoundForm(document, SCENARIO_SPECS, ())
        self.hosts_form = BoundForm(document, HOST_SPECS, ("hosts",))
        hosts_box = QGroupBox("Hosts (every host alike)")
        hb = QVBoxLayout(hosts_box)
        self.probe_button = QPushButton("Use this machine")
        self.probe_button.setToolTip("Fill the host fields from this computer's hardware (the probe)")
        self.probe_button.clicked.connect(self.on_probe)
        hb.addWidget(self.scenario_form)
        hb.addWidget(self.hosts_form)
        hb.addWidget(self.probe_button, 0, Qt.AlignmentFlag.AlignLeft)
        storage_box = QGroupBox("Storage")
        self.storage_layout = QVBoxLayout(storage_box)
        self.disks_table = RecordTable(document, ("hosts", "disks"), DISK_SPECS, new_disk_group, "disk group",
                                       "No local disks: VM images live on shared storage only.")
        self.storage_labels: dict[tuple, tuple[QLabel, str]] = {}
        self._add_storage_table("Local disks per host", self.disks_table, ("hosts", "disks"))
        self.storage_box = storage_box
        left = QWidget()
        self.left_layout = QVBoxLayout(left)
        self.left_layout.setContentsMargins(0, 0, 0, 0)
        self.left_layout.addWidget(hosts_box)
        self.left_layout.addWidget(storage_box)
        self.left_layout.addStretch(1)
        return left

    def _add_storage_table(self, title: str, table: RecordTable, path: tuple) -> None:
        label = QLabel(title)
        label.setObjectName("subheading")
        label.setTextFormat(Qt.TextFormat.RichText)
        self.storage_labels[path] = (label, title)
        self.storage_layout.addWidget(label)
        self.storage_layout.addWidget(table)

    # --- below the fold ------------------------------------------------------------------
    def complete(self) -> None:
        """Add what a 1280x800 window shows none of (shared storage, preferences, targets, growth, the
        workload's last fields, real-time line and own targets): after the panel's first paint (issue
        #30), or at once when one of them is asked for. Their fields keep their place in the Tab order."""
        if self._below_fold:
            return
        from ui.accessible import name_all
        from ui.panels.targets_form import TargetsForm  # here: the first paint needs neither form

        document = self.document
        self._below_fold["shared_table"] = shared = RecordTable(
            document, ("hosts", "shared_storage"), SHARED_SPECS, new_shared_storage, "shared storage",
            "No shared storage on offer: VM images stay on the hosts' local disks.")
        self._add_storage_table("Shared storage on offer", shared, ("hosts", "shared_storage"))
        prefs_box = QGroupBox("Preferences")
        self._below_fold["prefs_form"] = BoundForm(document, PREF_SPECS, ("preferences",))
        QVBoxLayout(prefs_box).addWidget(self._below_fold["prefs_form"])
        targets_box = QGroupBox("Targets the plan must meet")
        targets_box.setToolTip("preferences.targets: the host count is the smallest that meets them; a workload's "
                               "own targets (under the workload) replace these for it")
        self._below_fold["targets_form"] = TargetsForm(document)
        QVBoxLayout(targets_box).addWidget(self._below_fold["targets_form"])
        boxes = (prefs_box, targets_box, self._build_growth_box(document))
        for i, box in enumerate(boxes):
            self.left_layout.insertWidget(2 + i, box)
        follow_in_tab_order(self.disks_table, (shared,))
        follow_in_tab_order(self.storage_box, boxes)
        workload_parts = self._complete_workload(document)
        for part in (shared, *boxes, *workload_parts):
            part.show()  # now, not at the next turn of the event loop
            name_all(part)  # the rest of the view was named when it was shown
        self._show_storage_marks()
        self.on_workload_selected(self.workload_list.currentRow())
        QTimer.singleShot(0, self, self.arrange)  # once they are laid out: they may widen a column

    def _complete_workload(self, document: ScenarioDocument) -> list[QWidget]:
        """The workload's last fields, real-time line and own targets, in their place; returns them."""
        form = self._workload_form
        rows = grow_form(form)
        rt_label = self._below_fold["rt_label"] = QLabel()
        rt_label.setWordWrap(True)
        rt_label.setObjectName("hint")
        box = self._below_fold["workload_targets_box"] = QGroupBox("Targets for this workload")
        box.setToolTip("preferences.targets.workloads: targets of this workload only; they replace the targets for "
                       "every workload (shown as 'all: ...')")
        from ui.panels.targets_form import WorkloadTargetsForm
        self._below_fold["workload_targets"] = WorkloadTargetsForm(document)
        QVBoxLayout(box).addWidget(self._below_fold["workload_targets"])
        self.workload_layout.insertWidget(1, rt_label)
        self.workload_layout.insertWidget(2, box)
        chain_tab_order(tab_stops(form)[-1], [rt_label, box])
        return [*rows, rt_label, box]

    prefs_form = property(lambda self: self._below_fold_part("prefs_form"))
    targets_form = property(lambda self: self._below_fold_part("targets_form"))
    growth_form = property(lambda self: self._below_fold_part("growth_form"))
    events_table = property(lambda self: self._below_fold_part("events_table"))
    shared_table = property(lambda self: self._below_fold_part("shared_table"))
    workload_targets = property(lambda self: self._below_fold_part("workload_targets"))
    workload_targets_box = property(lambda self: self._below_fold_part("workload_targets_box"))
    rt_label = property(lambda self: self._below_fold_part("rt_label"))
    workload_form = property(lambda self: (self.complete(), self._workload_form)[1])  # with all of its fields

    def _below_fold_part(self, name: str) -> QWidget:
        self.complete()
        return self._below_fold[name]

    def _build_growth_box(self, document: ScenarioDocument) -> QGroupBox:
        """Growth over a horizon (rates per resource) and its step events (the advice's timeline)."""
        box = QGroupBox("Growth over the years")
        box.setToolTip("growth: demand growth per year, compounded; the advice's timeline shows the hosts each "
                       "year needs and the year the planned hosts run out")
        growth_form = self._below_fold["growth_form"] = BoundForm(document, GROWTH_SPECS, ("growth",))
        events_table = self._below_fold["events_table"] = RecordTable(
            document, ("growth", "events"), EVENT_SPECS, lambda existing: new_growth_event(existing, self.workloads()),
            "growth event", "No step events: demand grows by the rates only.")
        lay = QVBoxLayout(box)
        lay.addWidget(growth_form)
        label = QLabel("Step events (VMs added in a year)")
        label.setObjectName("subheading")
        lay.addWidget(label)
        lay.addWidget(events_table)
        return box

    def _build_workload_column(self, document: ScenarioDocument, window: QSize | None) -> None:
        """The workload list (middle) and the selected workload's form (right)."""
        self.workload_list = QListWidget()
        self.workload_list.setToolTip("Workload groups; select one to edit it")
        self.workload_list.currentRowChanged.connect(self.on_workload_selected)
        self.workload_list.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        self.workload_list.setWordWrap(True)  # a long line wraps instead of scrolling sideways
        self.workload_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        add = QPushButton("Add")
        add.setToolTip("Add a workload group (Ctrl+Shift+N)")
        add.clicked.connect(self.add_workload)
        dup = QPushButton("Duplicate")
        dup.clicked.connect(self.duplicate_workload)
        rem = QPushButton("Remove")
        rem.clicked.connect(self.remove_workload)
        buttons = QHBoxLayout()
        for b in (add, dup, rem):
            buttons.addWidget(b)
        wl_box = QGroupBox("Workload groups")
        wl = QVBoxLayout(wl_box)
        wl.addWidget(self.workload_list)
        wl.addLayout(buttons)

        self.workload_box = QGroupBox("Workload")
        line = self.fontMetrics().height()
        shown = WORKLOAD_ROWS_SHOWN  # (a window lower than the view's least height grows after its first paint:
        if window is not None and window.height() >= 13 * line + 260:  # with 16 fields or fewer, before it)
            shown = max(5, workload_rows_in_view(WORKLOAD_SPECS, window, line))  # at least to RAM per VM (_show_shape)
        self._workload_form = BoundForm(document, WORKLOAD_SPECS, ("workloads", 0), shown=shown)
        self.workload_layout = QVBoxLayout(self.workload_box)  # its real-time line and targets: complete()
        self.workload_layout.addWidget(self._workload_form)
        self.workload_layout.addStretch(1)

        middle = QWidget()
        ml = QVBoxLayout(middle)
        ml.setContentsMargins(0, 0, 0, 0)
        ml.addWidget(wl_box, 1)
        self.middle = middle

    # --- workloads -----------------------------------------------------------------------
    def workloads(self) -> list[dict]:
        return list(self.document.get(("workloads",), []) or [])

    def on_document_changed(self, path) -> None:
        wls = self.workloads()
        current = max(0, self.workload_list.currentRow())
        names = [str(w.get("name", f"workload{i + 1}")) for i, w in enumerate(wls)]
        if [self.workload_list.item(i).data(Qt.ItemDataRole.UserRole)
                for i in range(self.workload_list.count())] != names or not path:
            self.workload_list.blockSignals(True)
            self.workload_list.clear()
            for i, w in enumerate(wls):
                item = QListWidgetItem(self._workload_text(w))
                item.setData(Qt.ItemDataRole.UserRole, names[i])
                self.workload_list.addItem(item)
            self.workload_list.blockSignals(False)
            self.workload_list.setCurrentRow(min(current, len(wls) - 1))
        else:
            for i, w in enumerate(wls):
                self.workload_list.item(i).setText(self._workload_text(w))
        self.workload_box.setEnabled(bool(wls))
        self.on_workload_selected(self.workload_list.currentRow())
        self._show_storage_marks()

    def _show_storage_marks(self) -> None:
        for path, (label, title) in self.storage_labels.items():  # an imported estate's assumed storage
            mark = provenance(self.document.data, path)
            label.setText(title + (MARKS[mark][0] if mark else ""))
            label.setToolTip(MARKS[mark][1] if mark else "")

    @staticmethod
    def _workload_text(w: dict) -> str:
        shape = totals_shape(w)
        if shape is not None:
            fewer = f" ({shape.fewer} of them {shape.vcpus - 1})" if shape.fewer else ""  # the total spread exactly
            return (f"{w.get('name', '?')}\n  {shape.vms} VMs x {shape.vcpus} vCPU{fewer}, {shape.ram_gib:.4g} GiB "
                    "(from totals)")
        return (f"{w.get('name', '?')}\n  {w.get('vms', 1)} VMs x {w.get('vcpus', 1)} vCPU, "
                f"{w.get('ram_gib', 1)} GiB" + ("  · real-time" if w.get("realtime") else ""))

    def _show_shape(self, w: dict) -> None:
        """A workload given as totals: its VMs and typical VM as the placeholders of vms / vcpus /
        ram_gib (what the advice sizes), else the field table's defaults."""
        shape = totals_shape(w)
        for key, value, why in (("vms", shape and shape.vms, "from totals"),
                                ("vcpus", shape and shape.typical_vcpus, "typical VM"),
                                ("ram_gib", shape and shape.typical_ram_gib, "typical VM")):
            editor = self._workload_form.editors.get((key,))
            if editor is not None and hasattr(editor, "setPlaceholderText"):
                editor.setPlaceholderText(f"{value:g} ({why})" if shape else f"{BY_PATH['workloads.' + key].default:g} "
                                                                             "(default)")
        # the typical VM's fields hold its upper bound, not the sized VMs' (#31 review 3 finding 11)
        for key, sized in (("vcpus", shape and shape.vcpus), ("ram_gib", shape and shape.ram_gib)):
            spec = next((sp for sp in self._workload_form.specs if sp.path == (key,)), None)
            label = self._workload_form.labels.get((key,))
            if spec is not None and label is not None and label.textFormat() != Qt.TextFormat.RichText:
                label.setText(self._workload_form._label_text(spec)
                              + (f" — typical VM, at most (sized: {sized:.4g})" if shape else ""))

    def on_workload_selected(self, row: int) -> None:
        if row < 0:
            return
        self._workload_form.set_prefix(("workloads", row))
        w = self.workloads()[row] if row < len(self.workloads()) else {}
        self.workload_box.setTitle(f"Workload: {w.get('name', '')}")
        self._show_shape(w)
        if "workload_targets" not in self._below_fold:  # its targets and real-time line: complete()
            return
        targets = self._below_fold["workload_targets"]
        targets.refresh()  # first, as when it was made before the panel: a renamed workload's targets follow it
        targets.bind(row)
        rt = w.get("realtime")
        if rt:
            self.rt_label.setText(f"Real-time task set: {len(rt.get('tasks', []))} tasks "
                                  f"({rt.get('time_unit', 'ms')}); edit it in the Real-time tab.")
        else:
            self.rt_label.setText("No real-time tasks. The Real-time tab can add a task set.")

    def add_workload(self) -> None:
        data = copy.deepcopy(self.document.data)
        data.setdefault("workloads", []).append(new_workload(data["workloads"]))
        self.document.replace(data, "Add workload")
        self.workload_list.setCurrentRow(len(data["workloads"]) - 1)

    def duplicate_workload(self) -> None:
        row = self.workload_list.currentRow()
        data = copy.deepcopy(self.document.data)
        if row < 0 or row >= len(data.get("workloads", [])):
            return
        w = copy.deepcopy(data["workloads"][row])
        w["name"] = new_workload(data["workloads"])["name"]
        data["workloads"].insert(row + 1, w)
        self.document.replace(data, "Duplicate workload")
        self.workload_list.setCurrentRow(row + 1)

    def remove_workload(self) -> None:
        row = self.workload_list.currentRow()
        data = copy.deepcopy(self.document.data)
        if row < 0 or row >= len(data.get("workloads", [])):
            return
        name = data["workloads"][row].get("name") if isinstance(data["workloads"][row], dict) else None
        del data["workloads"][row]
        per = ((data.get("preferences") or {}).get("targets") or {}).get("workloads")
        if isinstance(per, dict) and name in per:  # its own targets go with it
            del per[name]
            if not per:
                del data["preferences"]["targets"]["workloads"]
        self.document.replace(data, "Remove workload")

    # --- validation banner ---------------------------------------------------------------
    def on_validated(self, problems: dict) -> None:
        if problems:
            data = self.document.data
            lines = [describe_problem(path, msg, data) for path, msg in problems.items()]
            more = f" (and {len(lines) - 3} more)" if len(lines) > 3 else ""
            self.banner.setProperty("state", "error")
            self.banner.setText(f"{len(problems)} problem(s) to fix before advice can be given: "
                                + "; ".join(lines[:3]) + more)
            self.banner.setToolTip("\n".join(lines))
        else:
            s = self.document.scenario
            hosts = s.hosts if s else None
            self.banner.setProperty("state", "ok")
            self.banner.setText(
                f"Valid scenario: {s.total_vms if s else 0} VMs in {len(s.workloads) if s else 0} "
                f"group(s) on {hosts.count if hosts else 0} host(s) of {hosts.cpu.cores if hosts else 0} "
                f"cores and {hosts.ram_gib if hosts else 0:g} GiB; advice follows every edit.")
        self.banner.style().polish(self.banner)

    # --- probe ---------------------------------------------------------------------------
    def on_probe(self) -> None:
        self.probe_button.setEnabled(False)
        self.sig_status.emit("Probing this machine…")
        self.probe_task.start(_probe_hosts)

    def on_probe_done(self, hosts: dict) -> None:
        data = copy.deepcopy(self.document.data)
        old = data.get("hosts", {})
        merged = dict(hosts)
        for key in ("count", "reserve", "shared_storage"):
            if key in old:
                merged[key] = old[key]
        data["hosts"] = merged
        self.document.replace(data, "Use this machine")
        self.sig_status.emit("Host fields filled from this machine")
