"""How numbers and expected figures read, the same on a card, a chart, the what-if summary and
the report (plain text; front ends add their own markup around it)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from advisor.expected import as_figure

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")


def clean_text(value) -> str:
    """``value`` as text without lone surrogates or control characters (each becomes U+FFFD;
    tabs become spaces), so a report, a workbook or a slide always encodes as UTF-8."""
    return _CONTROL.sub("\ufffd", str(value).replace("\t", " "))


def fmt_value(value: float | None, digits: int = 4) -> str:
    """A number as people read it: ``digits`` significant digits below 1,000, whole numbers with thousands
    separators from 1,000 (``6,944``, as the totals' text writes them), no exponent for ordinary magnitudes."""
    if value is None:
        return ""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if value == 0:
        return "0"
    if 1e-3 <= abs(value) < 1e7:
        short = f"{value:.{digits}g}"
        # 1,000 and up with thousands separators, as the totals' text writes them (``num``), also
        # where rounding to ``digits`` carries a number up to the next power of ten (99.96 -> 100)
        if abs(float(short)) >= min(1000, 10 ** digits):
            return f"{value:,.0f}"
        return short
    return f"{value:.3g}"


#: words of the engine's figure names as people write them (``iops_share_per_vm`` -> ``IOPS share per VM``)
_WORDS = {"vm": "VM", "vms": "VMs", "iops": "IOPS", "cpu": "CPU", "ram": "RAM", "io": "I/O", "nfs": "NFS",
          "vcpu": "vCPU", "vcpus": "vCPUs", "gib": "GiB", "gb": "GB", "mb": "MB", "kib": "KiB", "nic": "NIC",
          "tps": "TPS", "rps": "req/s", "pct": "%", "ssd": "SSD", "hdd": "HDD", "iscsi": "iSCSI", "rt": "real-time"}


def figure_label(name: str) -> str:
    """An expected figure's name as people read it: ``iops_share_per_vm`` -> ``IOPS share per VM``."""
    return " ".join(_WORDS.get(w.lower(), w) for w in str(name).replace("_", " ").split())


def figure_parts(name: str, fig) -> tuple[str, str, str, str]:
    """(label, value, unit, interval) of an expected figure, as every front end shows them:
    ``("throughput per VM", "52.3", "MB/s", "45.1–60.2")``; the interval is empty when the figure
    has none, and names the testbed for a document's own measurement (``"measured on doc 003's testbed"``);
    a lower bound's value reads ``"at least 128"`` (:func:`at_least`)."""
    label = figure_label(name)
    if not isinstance(fig, Mapping):
        return label, str(fig), "", ""
    fig = as_figure(fig)
    value, low, high = fig.value, fig.low, fig.high
    shown = fmt_value(value) if isinstance(value, int | float) else str(value)
    if at_least(fig):
        shown = f"at least {shown}"
    interval = ""
    if fig.measured_on:  # the document's own number on its testbed, not a figure for the scenario
        interval = f"measured on {fig.measured_on}"
    elif isinstance(low, int | float) and isinstance(high, int | float) and (low != value or high != value):
        interval = f"{fmt_value(low)}–{fmt_value(high)}"
    unit = "" if str(fig.unit) == "1" else str(fig.unit)  # "1": a plain number (a share, a utilization)
    return label, shown, unit, interval


def at_least(fig) -> bool:
    """Whether an expected figure is a lower bound (``"at_least": true``: its search stopped at a
    limit, e.g. the room for more VMs under placement constraints)."""
    return isinstance(fig, Mapping) and fig.get("at_least") is True


def figure_text(name: str, fig) -> str:
    """``"throughput per VM: 52.3 MB/s (45.1–60.2)"``: an expected figure on one line."""
    label, value, unit, interval = figure_parts(name, fig)
    return f"{label}: {value} {unit}".rstrip() + (f" ({interval})" if interval else "")


def unit_for(value: float, unit: str) -> str:
    """``unit`` as it reads after ``value``: the first word in the singular for exactly one
    (``1 host``, ``1 vCPU per core``; ``2 hosts``)."""
    if value == 1 and unit:
        first, _sep, rest = unit.partition(" ")
        if first.endswith("s") and len(first) > 1:
            return first[:-1] + (" " + rest if rest else "")
    return unit


def plural(count: float, word: str) -> str:
    """``1 host``, ``12 hosts`` (``word`` in the plural)."""
    return f"{fmt_value(count)} {unit_for(count, word)}"


#: characters with a meaning in Markdown (or in the HTML a Markdown renderer passes through)
_MD_SPECIAL = re.compile(r"([\\`*_\[\]#|~])")
#: what would open a list or a numbered item at the start of a line
_MD_LEAD = re.compile(r"^(\s*)(?:([-+])|(\d{1,9})([.)]))(?=\s|$)")


def md_escape(value) -> str:
    """``value`` as inert Markdown inline text: clean (:func:`clean_text`), on one line, ``&``,
    ``<`` and ``>`` as HTML entities (no raw HTML passes into the Markdown), and every other
    Markdown control character backslash-escaped (no emphasis, link, table cell or heading)."""
    if isinstance(value, MarkdownText):
        return value.text
    text = clean_text(value).replace("\r\n", " ").replace("\r", " ").replace("\n", " ")
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _MD_SPECIAL.sub(r"\\\1", text)
    return _MD_LEAD.sub(lambda m: m.group(1) + (f"\\{m.group(2)}" if m.group(2) else
                                                 f"{m.group(3)}\\{m.group(4)}"), text)


@dataclass(frozen=True)
class MarkdownText:
    """Markdown the renderer itself made (never user text): passes :func:`md_escape` unchanged."""

    text: str
