"""The legend under a chart (:class:`ui.plots.charts.ChartWidget`): which series it names, with a
sample of how each is drawn, and the rich text of the label that shows them (under the plot, so it
never covers a point or a label)."""

from __future__ import annotations

import html

from advisor.figures.spec import ChartSpec

# the theme colour of each line kind (advisor.figures.spec.Line.kind), for the line and its legend entry
LINE_COLOR = {"limit": "bad", "bound": "muted", "marker": "accent"}
#: a line style as the legend draws it in text
_SAMPLES = {"solid": "━━", "dash": "╌╌", "dot": "┈┈"}
#: a point symbol (pyqtgraph's names) as the legend draws it in text: the legend shows the mark the chart draws
_SYMBOLS = {"o": "●", "s": "■", "d": "◆", "t": "▼", "t1": "▲", "t2": "▶", "t3": "◀", "star": "★", "+": "+",
            "x": "×"}
#: a legend name up to this many characters is kept on one line ("RAM demand" never splits)
_WHOLE_NAME = 22


def symbol_sample(symbol) -> str:
    """The legend's sample of points drawn with ``symbol`` (one name, or one per point)."""
    names = {symbol} if isinstance(symbol, str) else set(symbol)
    return _SYMBOLS.get(names.pop(), "●") if len(names) == 1 else "●"


def entries(spec: ChartSpec, colors: dict, pc: dict, compact: bool = False,
            hidden_labels: list[str] | tuple = ()) -> list[tuple[str, str, str, bool]]:
    """(name, colour, sample, chosen) of each series the legend names, the recommended option
    marked (curves, measured points, sloped lines and the advice's marks). ``colors``: each series'
    colour; ``pc``: the theme's plot colours; a ``compact`` chart names only the points that are not
    measurements; ``hidden_labels``: lines whose label had no room on the plot (named here instead)."""
    out = []
    several = len([c for c in spec.curves if c.in_legend]) > 1
    for c in spec.curves:
        if c.in_legend:
            sample = _SAMPLES.get(c.style, "━━")
            out.append((c.name + (" ★ recommended" if c.highlight and several else ""),
                        colors.get(c.color_key or c.name, pc["accent"]), sample, c.highlight))
    for pts in spec.points:  # a compact chart names only the points that are not measurements
        if not compact or pts.highlight or pts.symbol not in ("o", ["o"] * len(pts.x)):
            out.append((pts.name, colors.get(pts.color_key or pts.name, pc["accent"]), symbol_sample(pts.symbol),
                        pts.highlight))
    for line in spec.lines:
        if line.slope is not None:  # drawn in its kind's colour and dash (see _add_line)
            out.append((line.label, pc[LINE_COLOR[line.kind]], "╌╌" if line.kind == "bound" else "━━", False))
        elif line.label in hidden_labels and line.kind != "marker":
            out.append((line.label, pc[LINE_COLOR[line.kind]],
                        "┃" if line.kind == "limit" else "╎", False))
    for mark in spec.marks:
        if mark.label and not any(mark.label == e[0] for e in out):
            out.append((mark.label, pc["accent"], "┃", True))
    drawn = {c.style for c in spec.curves}
    for style, text in spec.style_notes.items():  # what solid and dashed stand for
        if style in drawn:
            out.append((text, pc["muted"], _SAMPLES.get(style, "━━"), False))
    return out


def html_text(rows: list[tuple[str, str, str, bool]], size: float, foreground: str) -> str:
    """The legend's rich text: each entry's sample in its colour before its name, the chosen ones bold."""
    parts = []
    for name, col, sample, chosen in rows:
        # the sample stays with the name; a long name wraps at its spaces after its first word (a
        # narrow chart at 1024 px cut "directsync (estimated) ★ recommended" at its right edge)
        first, _sep, rest = html.escape(name).partition(" ")  # (a 16-pt workshop chart cut "★ recommended")
        if len(name) <= _WHOLE_NAME:  # a short one stays whole ("RAM" / "demand" read as two entries)
            first, rest = html.escape(name), ""
        text = f"<span style='white-space:nowrap'><span style='color:{col}'>{sample}</span>&nbsp;{first}</span>"
        text += f" {rest}" if rest else ""
        parts.append(f"<b>{text}</b>" if chosen else text)
    return f"<span style='font-size:{size:.1f}pt; color:{foreground}'>" + " &nbsp; ".join(parts) + "</span>"
