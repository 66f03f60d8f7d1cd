"""Where the labels of a chart's straight lines sit (pyqtgraph ``InfLineLabel`` items of
:class:`ui.plots.charts.ChartWidget`), in pixels so that it holds at any size and font:

- a horizontal line's label goes to the spot along its line, above or below it, that the fewest
  curves, points and vertical lines cross (was: always at its right end, under the line, where
  the timeline's step line ran through "planned: 9 active hosts" at 1024x700);
- vertical lines' labels are stacked one under the other where they would overlap, each in the
  highest free row that the fewest curves cross, and hidden (named in the legend instead) when no
  row inside the plot is free.
"""

from __future__ import annotations

import numpy as np

#: where along a vertical line (0 bottom, 1 top of the view) its label sits, before staggering
LABEL_TOP = 0.9
#: the spots along a horizontal line tried for its label (fractions of the view), after its own
_ALONG = (0.9, 0.1, 0.75, 0.25, 0.6, 0.4)
#: pixels between the points a drawn curve is sampled at when labels are kept clear of it
_SAMPLE_PX = 4.0


def _scene_points(viewbox, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Data (view) coordinates to scene pixels, for arrays."""
    t = viewbox.childGroup.sceneTransform()
    return t.m11() * x + t.m21() * y + t.dx(), t.m12() * x + t.m22() * y + t.dy()


def _densify(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points every few pixels along the polyline ``x, y`` (scene pixels; NaN points dropped)."""
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if len(x) < 2:
        return x, y
    dx, dy = np.diff(x), np.diff(y)
    n = np.clip(np.ceil(np.hypot(dx, dy) / _SAMPLE_PX), 1, 1000).astype(np.int64)
    seg = np.repeat(np.arange(len(n)), n)
    t = (np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)) / n[seg]
    return np.append(x[seg] + dx[seg] * t, x[-1]), np.append(y[seg] + dy[seg] * t, y[-1])


def drawn_points(viewbox, spec, items) -> tuple[np.ndarray, np.ndarray]:
    """Scene pixels the chart draws on: along every curve, every point, and every vertical line."""
    xs, ys = [], []
    for main, _lo, _hi in items["curves"]:
        x, y = main.getData()
        if x is not None and len(x):
            px, py = _scene_points(viewbox, np.asarray(x, dtype=float), np.asarray(y, dtype=float))
            px, py = _densify(px, py)
            xs.append(px)
            ys.append(py)
    for scatter in items["points"]:
        x, y = scatter.getData()
        if len(x):
            px, py = _scene_points(viewbox, np.asarray(x, dtype=float), np.asarray(y, dtype=float))
            xs.append(px)
            ys.append(py)
    (_x0, _x1), (y0, y1) = viewbox.viewRange()
    for line, drawn in zip(spec.lines, items["lines"], strict=True):
        if drawn is not None and line.axis == "x" and line.slope is None:
            v = float(drawn.value())
            px, py = _densify(*_scene_points(viewbox, np.array([v, v]), np.array([y0, y1])))
            xs.append(px)
            ys.append(py)
    if not xs:
        return np.zeros(0), np.zeros(0)
    return np.concatenate(xs), np.concatenate(ys)


def _hits(rect, px: np.ndarray, py: np.ndarray) -> int:
    """Drawn pixels inside ``rect`` (its edges, where the label's own line runs, left out)."""
    rect = rect.adjusted(2, 1, -2, -1)
    return int(np.count_nonzero((px >= rect.left()) & (px <= rect.right()) & (py >= rect.top())
                                & (py <= rect.bottom())))


def place_flat_labels(viewbox, spec, items) -> None:
    """Each horizontal line's label at the spot along its line, above or below it, crossed by the
    fewest drawn pixels and inside the plot (its own spot first, kept on a tie)."""
    flat = [(line, lab) for line, drawn in zip(spec.lines, items["lines"], strict=True)
            if (lab := getattr(drawn, "label", None)) is not None and line.axis == "y" and line.slope is None
            and lab.isVisible()]
    if not flat:
        return
    viewbox.updateMatrix()  # (pyqtgraph maps the new range or size only before painting)
    box = viewbox.sceneBoundingRect()
    if box.height() <= 0 or box.width() <= 0:
        return
    px, py = drawn_points(viewbox, spec, items)
    for _line, lab in flat:
        if not hasattr(lab, "home"):
            lab.home = (lab.orthoPos, tuple(lab.anchors[0]))
        pos0, anchor0 = lab.home
        best = None
        for pos in (pos0, *(p for p in _ALONG if p != pos0)):
            for below in (anchor0[1] == 0, anchor0[1] != 0):
                anchor = (1.0 if pos > 0.5 else 0.0, 0.0 if below else 1.0)
                lab.anchors = [anchor, anchor]
                lab.setPosition(pos)
                lab.updateTransform(force=True)
                rect = lab.sceneBoundingRect()
                inside = box.contains(rect)
                score = (not inside, _hits(rect, px, py))
                if best is None or score < best[0]:
                    best = (score, pos, anchor)
                if score == (False, 0):
                    break
            if best is not None and best[0] == (False, 0):
                break
        _score, pos, anchor = best
        lab.anchors = [anchor, anchor]
        lab.setPosition(pos)
        lab.updateTransform(force=True)


def stagger_labels(viewbox, spec, items) -> list[str]:
    """Vertical lines' labels one under the other where they would overlap: each goes to the
    highest row where it meets no label placed before it (left to right; horizontal lines' labels
    stay where they are and are kept clear of). Returns the lines whose label found no free row
    inside the plot (a short plot, large fonts): hidden, for the legend to name."""
    viewbox.updateMatrix()
    box = viewbox.sceneBoundingRect()
    (x_lo, x_hi), _ = viewbox.viewRange()
    fixed, vertical = [], []
    for line, drawn in zip(spec.lines, items["lines"], strict=True):
        lab = getattr(drawn, "label", None)
        if lab is None:
            continue
        if line.axis == "x" and line.slope is None:
            vertical.append((line, lab))
        elif lab.isVisible():
            fixed.append(lab)
    hidden: list[str] = []
    if box.height() <= 0:
        return hidden
    placed = []
    for lab in fixed:
        lab.updateTransform(force=True)
        placed.append(lab.sceneBoundingRect().adjusted(-2, -0.5, 2, 0.5))
    px, py = drawn_points(viewbox, spec, items) if vertical else (np.zeros(0), np.zeros(0))
    for line, lab in sorted(vertical, key=lambda item: item[1].line.value()):
        if not x_lo <= lab.line.value() <= x_hi:
            continue  # its line is out of view (the user zoomed or panned)
        if not lab.isVisible():
            lab.setVisible(True)
        _inside(lab, box)
        spot = _free_row(lab, box, placed, px, py)
        if spot is None:
            lab.setPosition(LABEL_TOP)
            lab.setVisible(False)
            hidden.append(line.label)
        else:
            lab.setPosition(spot[0])
            lab.updateTransform(force=True)
            placed.append(spot[1].adjusted(-2, -0.5, 2, 0.5))
    return hidden


def _inside(lab, box) -> None:
    """A vertical line's label moved along its row until it fits in the plot (right of its line, else left
    of it, else across it): "runs out: year 3 (cpu load" was cut at the right edge of a narrow chart."""
    lab.updateTransform(force=True)
    rect = lab.sceneBoundingRect()
    if rect.width() <= 0 or (rect.left() >= box.left() and rect.right() <= box.right()):
        return
    side = lab.anchors[0][0]
    at = rect.left() + side * rect.width()  # the line's x in the scene
    lo, hi = (at + rect.width() - box.right()) / rect.width(), (at - box.left()) / rect.width()
    side = min(max(side, lo, 0.0), hi, 1.0)
    lab.anchors = [(side, lab.anchors[0][1])] * 2
    lab.updatePosition()
    lab.updateTransform(force=True)


def _free_row(lab, box, placed: list, px: np.ndarray, py: np.ndarray):
    """``(position, rect)`` of the highest row down the label's line where it meets no label placed
    before it, preferring the highest of those that the fewest curves cross; None: no free row."""
    step = (lab.sceneBoundingRect().height() + 3) / box.height()
    best = None
    k = 0
    while (row := LABEL_TOP - k * step) > 0:
        k += 1
        lab.setPosition(row)
        rect = lab.sceneBoundingRect()
        if rect.bottom() > box.bottom() or any(rect.intersects(other) for other in placed):
            continue
        hits = _hits(rect, px, py)
        if best is None or hits < best[0]:
            best = (hits, row, rect)
        if hits == 0:
            break
    return None if best is None else best[1:]
