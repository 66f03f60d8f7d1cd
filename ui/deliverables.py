"""The workbook and slide deck from the GUI and the CLI: the deck's chart images drawn by the GUI's
own chart code (:func:`ui.report.chart_images`, as the PDF report draws them) at slide resolution;
the files themselves are built by the Qt-free :mod:`advisor.deliverables`."""

from __future__ import annotations

from pathlib import Path

from advisor.deliverables.slides import CHART_PIXELS, chart_keys, write_slides
from advisor.deliverables.workbook import write_workbook


def deck_chart_specs(kb, advice, data: dict, progress=None, cancel=None) -> dict:
    """The chart data of the deck's decision slides (Qt-free: a worker may run it)."""
    from advisor.figures.charts import build_charts

    keys = sorted(set(chart_keys(data).values()))
    return build_charts(kb, advice.scenario, advice, {}, keys, progress=progress, cancel=cancel) if keys else {}


def deck_images(specs: dict) -> dict[str, bytes]:
    """PNG bytes of each non-empty chart of ``specs`` at :data:`CHART_PIXELS` (on the GUI thread)."""
    from ui.report import chart_images, image_png

    width, height = CHART_PIXELS
    return {key: image_png(img) for key, img in chart_images(specs, width, height).items()}


def export_slides(path: Path, advice, data: dict, specs: dict) -> Path:
    """Write the deck of ``advice`` (its JSON ``data``) with the charts of ``specs`` to ``path``."""
    write_slides(Path(path), data, deck_images(specs))
    return Path(path)


def export_workbook(path: Path, advice) -> Path:
    """Write the workbook of ``advice`` to ``path``."""
    write_workbook(Path(path), advice.to_dict(expand=True), advice.scenario)
    return Path(path)
