"""The number a document states for a case, and whether an interval agrees with it."""

from __future__ import annotations

import math
from dataclasses import dataclass

from advisor.replay.suite import Case

#: relative tolerance for the document's rounding: exact values, approximate (~) values
TOLERANCE = {"=": 0.005, "~": 0.05}


# --- measured values -------------------------------------------------------------------------
@dataclass
class Measured:
    value: float
    low: float | None
    high: float | None
    qualifier: str
    unit: str
    rounding: float = 0.0   # half a unit in the last place the document stated (in the figure's unit)


def half_ulp(value: float, qualifier: str) -> float:
    """Half a unit in the last place of a number as the document states it: decimals as given
    (4.013 -> 0.0005); an integer stated exactly (``=``) to its units (2 -> 0.5); an approximate one
    (``~``) to its last non-zero digit (~200 -> 50: "about 200" is rounded to hundreds)."""
    v = abs(float(value))
    if v == 0 or not math.isfinite(v):
        return 0.0
    text = f"{v:.10g}"
    if "e" in text:
        return 0.0
    if "." in text:
        return 0.5 * 10.0 ** -len(text.split(".")[1])
    if qualifier == "~":
        digits = text.rstrip("0")
        return 0.5 * 10.0 ** (len(text) - len(digits))
    return 0.5


def measured(kb, document: str, case: Case) -> Measured:
    """The number the document states for ``case`` (from its rows, per ``case.measure``)."""
    rows = [kb.get(document, key) for key in case.rows]
    first = rows[0]
    values = [r.value for r in rows]
    if case.measure == "value":
        v = values[0]
    elif case.measure == "product":
        v = math.prod(values)
    elif case.measure == "ratio":
        v = values[0] / values[1]
    elif case.measure == "sum":
        v = sum(values)
    elif case.measure == "over_rest":
        v = values[0] / (values[0] - values[1])
    elif case.measure == "equal":
        v = 1.0
    elif case.measure == "max":
        v = max(values)
    elif case.measure == "mean":
        v = sum(values) / len(values)
    elif case.measure == "percent_as_ratio":
        v = 1.0 + values[0] / 100.0
    else:
        v = values[0] - values[1]
    quals = {r.qualifier or "=" for r in rows}
    bounds = quals & {"<", "<=", ">", ">="}
    if case.measure == "equal":
        qual = "~"  # "about the same"
    elif len(rows) == 1:
        qual = first.qualifier or "="
    elif case.measure == "max":
        qual = next((r.qualifier or "=" for r in rows if r.value == v), "=")
    elif bounds and case.measure == "product" and len({q[0] for q in bounds}) == 1:
        qual = next(iter(bounds))[0]  # a product with a bound (all positive factors) is a bound
    else:
        qual = "~" if quals - {"="} else "="
    low = high = None
    if len(rows) == 1 and first.value_low is not None and first.value_high is not None:
        low, high = first.value_low * case.scale, first.value_high * case.scale
    rounding = 0.0
    if case.measure == "value" and len(rows) == 1:  # a number as stated: its rounding is the document's
        rounding = half_ulp(first.value, first.qualifier or "=") * abs(case.scale)
    return Measured(v * case.scale, low, high, qual, first.unit, rounding)


def within(m: Measured, low: float, high: float) -> bool:
    """Whether the measured number agrees with the interval ``[low, high]`` (see the module doc)."""
    if m.low is not None and m.high is not None:  # a stated range: it must overlap the interval
        lo, hi = min(low, high), max(low, high)
        return m.low <= hi + TOLERANCE["="] * abs(hi) and m.high >= lo - TOLERANCE["="] * abs(lo)
    if m.qualifier in ("<", "<="):
        return min(low, high) <= m.value + TOLERANCE["="] * abs(m.value)
    if m.qualifier in (">", ">="):
        return max(low, high) >= m.value - TOLERANCE["="] * abs(m.value)
    tol = TOLERANCE.get(m.qualifier, TOLERANCE["~"])
    lo, hi = min(low, high), max(low, high)
    # the document's rounding: a number stated as "about 2 min" may be anything from 1.5 to 2.5
    if m.low is None and m.rounding and (m.value - m.rounding <= hi and m.value + m.rounding >= lo):
        return True
    return lo - tol * abs(lo) - 1e-12 <= m.value <= hi + tol * abs(hi) + 1e-12
