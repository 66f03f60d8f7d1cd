"""Standard JSON out: every document this program writes is strict JSON (RFC 8259).

Python's :mod:`json` writes ``Infinity`` and ``NaN`` for non-finite floats, which other JSON
readers reject. :func:`dumps` writes them as ``null`` instead (an unbounded period, an unknown
figure) and refuses anything else that is not JSON.
"""

from __future__ import annotations

import json
import math
from typing import Any


def finite(obj: Any) -> Any:
    """``obj`` with every non-finite float (inf, -inf, nan) replaced by None, recursively
    (dicts, lists and tuples; tuples become lists, as JSON has no tuples)."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite(v) for v in obj]
    return obj


def dumps(obj: Any, **kwargs) -> str:
    """:func:`json.dumps` of :func:`finite` ``(obj)``, never emitting Infinity or NaN.

    Written straight away when every float is finite (the usual case: the C encoder refuses the
    others); only a document that holds a non-finite float is copied through :func:`finite` (for
    an advice of 10,000 workloads that copy took as long as the encoding)."""
    try:
        return json.dumps(obj, allow_nan=False, **kwargs)
    except ValueError as exc:
        if "Out of range float" not in str(exc):
            raise
    return json.dumps(finite(obj), allow_nan=False, **kwargs)
