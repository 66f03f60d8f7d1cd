"""Plain-text tables and number formatting for the CLI."""

from __future__ import annotations

import shutil
from collections.abc import Sequence


def fmt_number(value: float | None, digits: int = 4) -> str:
    """A compact, exact-looking rendering: 59.77, 1e-06, 12000."""
    if value is None:
        return ""
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.{digits}g}"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]], max_width: int | None = None) -> str:
    """Left-aligned columns; the widest column is cut to fit the terminal."""
    cells = [[("" if c is None else str(c)) for c in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        for i, c in enumerate(row):
            widths[i] = max(widths[i], len(c))
    limit = max_width or max(80, shutil.get_terminal_size((160, 20)).columns)
    while sum(widths) + 2 * (len(widths) - 1) > limit and max(widths) > 12:
        widest = widths.index(max(widths))
        widths[widest] -= 1

    def line(values: Sequence[str]) -> str:
        out = []
        for w, v in zip(widths, values, strict=False):
            out.append(v if len(v) <= w else v[: max(1, w - 1)] + "…")
        return "  ".join(o.ljust(w) for o, w in zip(out, widths, strict=False)).rstrip()

    sep = "  ".join("-" * w for w in widths)
    return "\n".join([line(list(headers)), sep, *(line(r) for r in cells)])
