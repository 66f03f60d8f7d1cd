"""A dialog that writes files into a folder with one worker task: the folder row, the action and
Open folder buttons, a progress bar, and a log of the outcome (Export configuration, Benchmark
plan)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
)

from ui.workers import TaskSlot


class FolderTaskDialog(QDialog):
    """``intro``, a form (``self.form``, the folder row last), progress, log and buttons; subclasses
    add form rows, start ``self.task`` from :meth:`run` and report in :meth:`on_done`."""

    def __init__(self, session, title: str, task_name: str, action: str, folder: Path, intro: str, parent=None):
        super().__init__(parent)
        self.session = session
        self.setWindowTitle(title)
        self.task = TaskSlot(task_name, session.notifier, parent=self)
        self.task.sig_progress.connect(self._on_progress)
        self.task.sig_done.connect(self._done)
        self.task.sig_failed.connect(lambda f: self.finish(f"{title} failed: {f.message}"))
        self.task.sig_cancelled.connect(lambda: self.finish(f"{title}: stopped."))
        self.intro = QLabel(intro)
        self.intro.setWordWrap(True)
        self.folder = QLineEdit(str(folder))
        browse = QPushButton("&Browse…")
        browse.clicked.connect(self.choose_folder)
        self.folder_row = QHBoxLayout()
        self.folder_row.addWidget(self.folder, 1)
        self.folder_row.addWidget(browse)
        self.form = QFormLayout()
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.hide()
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.action_button = self.buttons.addButton(action, QDialogButtonBox.ButtonRole.ActionRole)
        self.action_button.setObjectName("primary")
        self.action_button.setDefault(True)
        self.action_button.clicked.connect(self.run)
        self.open_button = self.buttons.addButton("&Open folder", QDialogButtonBox.ButtonRole.ActionRole)
        self.open_button.setEnabled(False)
        self.open_button.clicked.connect(self.open_folder)
        self.buttons.rejected.connect(self.reject)
        self.rejected.connect(self.task.cancel)
        lay = QVBoxLayout(self)
        lay.addWidget(self.intro)
        lay.addLayout(self.form)
        lay.addWidget(self.progress)
        lay.addWidget(self.log, 1)
        lay.addWidget(self.buttons)

    def add_folder_row(self) -> None:
        label = QLabel("&Folder:")
        label.setBuddy(self.folder)
        self.form.addRow(label, self.folder_row)

    @property
    def ready(self) -> bool:
        """Whether the action can run (subclasses: e.g. an advice exists)."""
        return True

    def folder_path(self) -> Path:
        return Path(self.folder.text().strip()).expanduser()

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.windowTitle(), self.folder.text() or str(Path.home()))
        if folder:
            self.folder.setText(folder)

    def start(self, fn, *args, message: str = "Working…") -> None:
        """Run ``fn(*args)`` in the worker, with progress in the dialog."""
        self.action_button.setEnabled(False)
        self.progress.setValue(0)
        self.progress.show()
        self.log.setPlainText(message)
        self.task.start(fn, *args)

    def run(self) -> None:  # pragma: no cover - subclasses
        raise NotImplementedError

    def on_done(self, result) -> str:  # pragma: no cover - subclasses
        raise NotImplementedError

    def _on_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(int(100 * fraction))
        self.progress.setFormat(message)

    def _done(self, result) -> None:
        text = self.on_done(result)
        self.open_button.setEnabled(True)
        self.finish(text)

    def finish(self, text: str) -> None:
        self.progress.hide()
        self.action_button.setEnabled(self.ready)
        self.log.setPlainText(text)

    def open_folder(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.folder_path())))
