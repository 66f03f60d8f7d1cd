"""Knowledge-base browser: every measurement (filterable, sortable), the testbeds and the conclusions."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from advisor.models import accuracy as replay_headline
from ui.tablemodels import FilterProxy, MeasurementTableModel, RecordTableModel

TESTBED_COLUMNS = ("document", "id", "locator", "cpu", "cores", "ram", "disks", "nic", "hypervisor",
                   "hypervisor_version", "host_os", "guest_os", "description")
CONCLUSION_COLUMNS = ("document", "id", "decision", "locator", "condition", "recommendation")


def _table(model, parent: QWidget) -> tuple[QTableView, FilterProxy]:
    proxy = FilterProxy(parent)
    proxy.setSourceModel(model)
    view = QTableView()
    view.setModel(proxy)
    view.setSortingEnabled(True)
    view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # documents' order until asked
    view.setAlternatingRowColors(True)
    view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(24)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    view.horizontalHeader().setStretchLastSection(True)
    return view, proxy


class QtKnowledgeBasePanel(QWidget):
    """Browse the knowledge base of the session (filled when it is open)."""

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter: words that must all appear, e.g. writeback postmark 2")
        self.filter.setClearButtonEnabled(True)
        self.filter.setToolTip("Rows containing every word in any column are shown (Ctrl+F)")
        self.document_combo = QComboBox()
        self.document_combo.setToolTip("Only the measurements of one document")
        self.metric_combo = QComboBox()
        self.metric_combo.setToolTip("Only one metric")
        for combo in (self.document_combo, self.metric_combo):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(14)
        self.count = QLabel()
        self.count.setObjectName("subtitle")
        self.count.setWordWrap(True)
        bar = QHBoxLayout()
        bar.addWidget(self.filter, 3)
        bar.addWidget(QLabel("Document:"))
        bar.addWidget(self.document_combo, 1)
        bar.addWidget(QLabel("Metric:"))
        bar.addWidget(self.metric_combo, 1)
        bar.addWidget(self.count)

        self.model = MeasurementTableModel(parent=self)
        self.view, self.proxy = _table(self.model, self)
        self.testbed_model = RecordTableModel(TESTBED_COLUMNS, parent=self)
        self.testbed_view, self.testbed_proxy = _table(self.testbed_model, self)
        self.conclusion_model = RecordTableModel(CONCLUSION_COLUMNS, parent=self)
        self.conclusion_view, self.conclusion_proxy = _table(self.conclusion_model, self)
        self.conclusion_view.setWordWrap(True)

        self.tabs = QTabWidget()
        self.tabs.addTab(self.view, "Measurements")
        self.tabs.addTab(self.testbed_view, "Testbeds")
        self.tabs.addTab(self.conclusion_view, "Conclusions")
        self.tabs.currentChanged.connect(lambda _i: self.apply_filter())
        # what the figures of the advice are worth out of sample: the replay's last held-out results
        self.replay_label = QLabel(replay_headline.text())
        self.replay_label.setObjectName("subtitle")
        self.replay_label.setWordWrap(True)
        self.replay_label.setAccessibleName("Replay of the documents, held out and in-sample")
        self.replay_label.setToolTip("capadvisor replay --held-out: each experiment's rows left out of the models "
                                     "before it is replayed (docs/replay.md)")
        root = QVBoxLayout(self)
        root.addLayout(bar)
        root.addWidget(self.replay_label)
        root.addWidget(self.tabs, 1)

        self.filter.textChanged.connect(lambda _t: self.apply_filter())
        self.document_combo.currentIndexChanged.connect(lambda _i: self.reload())
        self.metric_combo.currentIndexChanged.connect(lambda _i: self.reload())
        session.sig_ready.connect(self.populate)
        if session.kb is not None:
            self.populate()

    def populate(self) -> None:
        kb = self.session.kb
        for combo, items in ((self.document_combo, [f"{d.id[:3]} — {d.short}" for d in kb.documents()]),
                             (self.metric_combo, kb.metrics())):
            combo.blockSignals(True)
            combo.clear()
            combo.addItem("all")
            combo.addItems(items)
            combo.blockSignals(False)
        self.testbed_model.set_rows(kb.testbeds())
        self.conclusion_model.set_rows(kb.conclusions())
        self.reload()
        for v in (self.view, self.testbed_view, self.conclusion_view):
            v.resizeColumnsToContents()
            for c in range(v.model().columnCount()):
                v.setColumnWidth(c, min(v.columnWidth(c), 260))

    def reload(self) -> None:
        kb = self.session.kb
        if kb is None:
            return
        doc = self.document_combo.currentText()
        metric = self.metric_combo.currentText()
        rows = kb.measurements(document=doc.split(" ")[0] if doc and doc != "all" else None,
                               metric=metric if metric and metric != "all" else None)
        self.model.set_rows(rows)
        self.apply_filter()

    def apply_filter(self) -> None:
        shown = (self.proxy, self.testbed_proxy, self.conclusion_proxy)[self.tabs.currentIndex()]
        shown.set_text(self.filter.text())  # the other tabs are filtered when they are shown
        total = shown.sourceModel().rowCount()
        self.count.setText(f"{shown.rowCount()} of {total} rows")
