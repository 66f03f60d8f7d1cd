"""What a site calibration did, in words: which site figures were used (value, unit, the tool and
the file they came from) and how each recommendation's figures moved from the documents' ratios
on the scenario's hardware to the site's measurements (the same decision and figure of an advice
without the site). Cards, the report and the Sites view read these; nothing here knows a widget."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath

from advisor.figures.prose import fmt_value

#: site figure -> (label, unit); units as the site summary gives them
SITE_FIGURES = {
    "seq_read_mib_s": ("sequential read", "MiB/s"),
    "seq_write_mib_s": ("sequential write", "MiB/s"),
    "rand_read_iops": ("random read", "IOPS"),
    "rand_write_iops": ("random write", "IOPS"),
    "rand_read_mib_s": ("random read", "MiB/s"),
    "rand_write_mib_s": ("random write", "MiB/s"),
    "cpu_events_per_s": ("CPU benchmark", "events/s"),
}


@dataclass(frozen=True)
class SiteFigure:
    """One figure a site contributed: ``used`` False when it was measured but not used."""

    name: str
    label: str
    value: float
    unit: str
    tool: str
    file: str
    used: bool

    def text(self) -> str:
        """``random read 45,000 IOPS (fio, randrw.json)``."""
        where = ", ".join(x for x in (self.tool, self.file) if x)
        return f"{self.label} {fmt_value(self.value)} {self.unit}" + (f" ({where})" if where else "")


@dataclass(frozen=True)
class FigureChange:
    """A recommendation's figure with the documents' ratios and with the site's figures."""

    key: str
    label: str
    unit: str
    documents: float
    site: float

    def text(self) -> str:
        """``throughput per VM: 6.9 -> 9.2 MB/s``."""
        return f"{self.label}: {fmt_value(self.documents)} -> {fmt_value(self.site)} {self.unit}".rstrip()


def _source(text: str) -> tuple[str, str]:
    tool, _, path = (text or "").partition(" ")
    return tool, PurePath(path).name if path else ""


def site_figures(advice) -> list[SiteFigure]:
    """The figures of the advice's calibration site, used ones first (empty without a site)."""
    return figures_of(advice.calibration)


def figures_of(cal) -> list[SiteFigure]:
    """The figures of a :class:`advisor.calibration.Calibration`, used ones first."""
    out = []
    for used, figures in ((True, cal.figures), (False, cal.unused)):
        for name, value in figures.items():
            label, unit = SITE_FIGURES.get(name, (name.replace("_", " "), ""))
            tool, file = _source(cal.sources.get(name, ""))
            out.append(SiteFigure(name, label, float(value), unit, tool, file, used))
    return out


def calibrated(advice) -> bool:
    """True when site figures calibrate the advice."""
    return bool(advice is not None and advice.calibration.figures)


def changes(advice, baseline) -> dict[tuple[str, str], list[FigureChange]]:
    """(decision, scope) -> the figures whose value the site moved (by at least 0.5 %), against
    ``baseline`` (the advice without the site); only recommendations whose figures rest on the
    site and whose choice is the same in both."""
    out: dict[tuple[str, str], list[FigureChange]] = {}
    if advice is None or baseline is None or not calibrated(advice):
        return out
    for rec in advice.recommendations:
        before = baseline.find(rec.decision, rec.scope)
        if before is None or before.choice != rec.choice:
            continue
        moved = []
        for key, fig in rec.expected.items():
            old = before.expected.get(key)
            if old is None:
                continue
            a, b = old.value, fig.value
            if not (isinstance(a, int | float) and isinstance(b, int | float)):
                continue
            if str(fig.basis or "").startswith("site:") and abs(b - a) > 0.005 * max(abs(a), 1e-12):
                moved.append(FigureChange(key, key.replace("_", " "), str(fig.unit), float(a), float(b)))
        if moved:
            out[(rec.decision, rec.scope)] = moved
    return out


def choice_changes(advice, baseline) -> dict[tuple[str, str], str]:
    """(decision, scope) -> the choice the documents' ratios alone led to, where the site changed it."""
    out: dict[tuple[str, str], str] = {}
    if advice is None or baseline is None or not calibrated(advice):
        return out
    for rec in advice.recommendations:
        before = baseline.find(rec.decision, rec.scope)
        if before is not None and before.choice != rec.choice:
            out[(rec.decision, rec.scope)] = before.choice
    return out


def summary_text(advice) -> str:
    """One sentence on the calibration: the site and its figures, or why none were used."""
    cal = advice.calibration
    if cal.figures:
        used = "; ".join(f.text() for f in site_figures(advice) if f.used)
        return f"Calibrated to site {cal.site}: the documents' ratios on the site's measured figures ({used})."
    if cal.site:
        why = cal.rejected or f"site {cal.site!r} has no disk benchmark figures"
        return f"Site {cal.site} chosen but not used: {why}."
    return "Not calibrated to a site: the documents' ratios on the scenario's hardware."
