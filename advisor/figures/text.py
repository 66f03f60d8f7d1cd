"""How numbers and expected figures read, the same on a card, a chart, the what-if summary and
the report (plain text; front ends add their own markup around it)."""

from __future__ import annotations

import math


def fmt_value(value: float | None, digits: int = 4) -> str:
    """A number as people read it: 4 significant digits, no exponent for ordinary magnitudes."""
    if value is None:
        return ""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if value == 0:
        return "0"
    if 1e-3 <= abs(value) < 1e7:
        return f"{value:.{digits}g}" if abs(value) < 10 ** digits else f"{value:,.0f}"
    return f"{value:.3g}"
