"""The workbook and slide deck from the GUI (File > Export workbook…, Export slides…) and the CLI:
the deck's chart images are drawn by the GUI's own chart code (:func:`ui.report.chart_images`, as
the PDF report draws them) at slide resolution; the files themselves are built by the Qt-free
:mod:`advisor.deliverables` from the advice JSON. The slow parts (the JSON of a large estate, the
chart data, the workbook) run in a worker; the charts are drawn on the GUI thread."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from advisor.deliverables.slides import CHART_PIXELS, PARETO, chart_keys, write_slides
from advisor.deliverables.workbook import write_workbook
from ui.workers import TaskSlot

#: format -> (dialog title, file filter, the task's name)
KINDS = {"xlsx": ("Export workbook", "Excel workbook (*.xlsx)", "exporting the workbook"),
         "pptx": ("Export slides", "PowerPoint slides (*.pptx)", "exporting the slides")}


def deck_chart_specs(kb, advice, data: dict, catalogue=None, progress=None, cancel=None) -> dict:
    """The chart data of the deck's decision slides and, with a cost ``catalogue``, of the design
    search's Pareto front (one process, a few seconds for the example). Qt-free: a worker may run it."""
    from advisor.figures.charts import build_charts

    keys = sorted(set(chart_keys(data).values()))
    specs = build_charts(kb, advice.scenario, advice, {}, keys, progress=progress, cancel=cancel) if keys else {}
    if catalogue is not None and catalogue.hosts:
        from advisor.optimize import optimize
        from advisor.optimize.chart import pareto_figure

        specs[PARETO] = pareto_figure(optimize(advice.scenario, catalogue, kb, workers=1, cancel=cancel)).spec
    return specs


def deck_images(specs: dict) -> dict[str, bytes]:
    """PNG bytes of each non-empty chart of ``specs`` at :data:`CHART_PIXELS` (on the GUI thread)."""
    from ui.report import chart_images, image_png

    width, height = CHART_PIXELS
    return {key: image_png(img) for key, img in chart_images(specs, width, height).items()}


def export_slides(path: Path, data: dict, specs: dict, whatif: dict | None = None) -> Path:
    """Write the deck of the advice JSON ``data`` with the charts of ``specs`` (and the workshop's
    ``whatif`` comparison) to ``path``."""
    write_slides(Path(path), data, deck_images(specs), whatif)
    return Path(path)


def workshop_whatif(session):
    """(what moved, the what-if advice) when the What-if tab or workshop moved inputs that changed
    the scenario and its advice is there; else None."""
    from ui.whatif_state import QtWhatIfState

    state = session.findChild(QtWhatIfState)
    if state is None or not state.moved() or state.model.advice is None:
        return None
    return state.model.describe(), state.model.advice


def _workbook_job(path: Path, advice, progress=None, cancel=None) -> Path:
    write_workbook(path, advice.to_dict(expand=True), advice.scenario)
    return path


def _deck_job(path: Path, kb, advice, catalogue=None, whatif=None, progress=None, cancel=None) -> tuple:
    data = advice.to_dict(expand=True)
    compared = {"moved": whatif[0], "advice": whatif[1].to_dict(expand=True)} if whatif else None
    return path, data, deck_chart_specs(kb, advice, data, catalogue, progress=progress, cancel=cancel), compared


class Exporter(QObject):
    """Writes the workbook or the deck of the session's advice; ``sig_written(path)`` when done."""

    sig_written = Signal(object)

    def __init__(self, session, parent=None):
        super().__init__(parent)
        self.session = session
        self.task = TaskSlot("exporting", session.notifier, parent=self)
        self.task.sig_done.connect(self._on_done)

    def ask(self, kind: str, parent=None) -> Path | None:
        """Ask where to write the ``kind`` (xlsx or pptx) file; None when the user cancels."""
        from PySide6.QtWidgets import QFileDialog

        from ui.filedialogs import safe_file_name, start_dir, with_suffix

        title, name_filter, _ = KINDS[kind]
        name = str(Path(start_dir(self.session.settings.last_dir)) / f"{safe_file_name(self.session.document.title)}.{kind}")
        path, chosen = QFileDialog.getSaveFileName(parent, title, name, name_filter)
        if not path:
            return None
        return with_suffix(Path(path), chosen or name_filter, (f".{kind}",), kind)

    def export(self, kind: str, path: Path) -> bool:
        """Start writing the ``kind`` file of the current advice to ``path`` (False: no advice yet)."""
        advice = self.session.advice
        if advice is None:
            self.session.notifier.message("Nothing to export yet: the advice is still being computed")
            return False
        self.task.name = KINDS[kind][2]
        if kind == "xlsx":
            self.task.start(_workbook_job, Path(path), advice)
        else:
            self.task.start(_deck_job, Path(path), self.session.kb, advice, self.session.catalogue,
                            workshop_whatif(self.session))
        return True

    def ask_and_export(self, kind: str, parent=None) -> None:
        if self.session.advice is None:
            self.session.notifier.message("Nothing to export yet: the advice is still being computed")
            return
        path = self.ask(kind, parent)
        if path is not None:
            self.export(kind, path)

    def _on_done(self, result) -> None:
        if isinstance(result, tuple):  # the deck: its charts are drawn here, on the GUI thread
            path, data, specs, whatif = result
            result = export_slides(path, data, specs, whatif)
        self.session.settings.last_dir = str(Path(result).parent)
        self.session.notifier.message(f"Written to {result}")
        self.sig_written.emit(result)
