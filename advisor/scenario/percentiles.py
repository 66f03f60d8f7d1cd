"""What the advice says of workloads sized on measured CPU percentiles (``cpu_busy_percentiles`` and
``preferences.sizing_percentile``, #31): which percentile, of what (the summed series of N VMs, or the
VMs' own percentiles a collector gives), and when the percentile is not stored but interpolated
between the stored ones (:func:`advisor.scenario.model.share_at`). The host count card says it."""

from __future__ import annotations

from dataclasses import dataclass, field

from advisor.scenario.model import Scenario, Workload, percentile_key, percentile_of

#: ``estate.series.basis`` of a scenario imported with utilisation series (advisor.inventory.series)
SUMMED = "summed series"


def _q(key: str) -> float:
    return float(percentile_of(key) or 0.0)


def sized_on_percentiles(sc: Scenario) -> list[Workload]:
    """The workloads whose CPU busy share is read from their measured percentiles."""
    return [w for w in sc.workloads if w.cpu_busy_percentiles and "cpu_busy_share" in (w.measured or [])]


def _around(keys, q: float) -> tuple[str, str]:
    """The stored keys nearest below and above percentile ``q`` ("" where there is none)."""
    keys = sorted(keys, key=_q)
    below = [k for k in keys if _q(k) < q]
    above = [k for k in keys if _q(k) > q]
    return (below[-1] if below else ""), (above[0] if above else "")


def not_stored(table: dict[str, float], q: float) -> str:
    """How the share at percentile ``q`` is read when ``table`` does not store it ("" when it does)."""
    if percentile_key(q) in table or not table:
        return ""
    below, above = _around(table, q)
    if below and above:
        return f"interpolated linearly between {below} and {above}"
    return f"the nearest stored one, {below or above}, is used"


def figure_at(keys, q: float) -> str:
    """Which of a VM's own figures (the percentile ``keys`` its collector gives) stands for its percentile
    ``q`` when it lacks it: "their peak", "their p95 and peak, interpolated" ("" when ``keys`` has it)."""
    if percentile_key(q) in keys or not keys:
        return ""
    below, above = _around(keys, q)
    return f"their {below} and {above}, interpolated" if below and above else f"their {below or above}"


#: the VMs a note names (the rest are counted)
NAMED = 5


def figures_note(given: dict[str, tuple[int, list[str]]], q: float) -> str:
    """Of a group whose VMs' collectors give different percentiles (``given``: per set of keys, how many VMs
    and their names, which may be left out), the VMs sized on another figure than their percentile ``q``:
    "2 VMs at their peak (their collector gives only peak, no p95: web-01, web-02)"; "" when none."""
    parts = []
    for keys, (n, names) in given.items():
        fig = figure_at(keys.split(", "), q)
        if fig:
            listed = ", ".join(names[:NAMED]) + (f" and {len(names) - NAMED} more" if len(names) > NAMED else "")
            its = "their" if n != 1 else "its"
            parts.append(f"{n} VM{'s' if n != 1 else ''} at {fig.replace('their', its, 1)} ({its} collector gives only "
                         f"{keys}, no {percentile_key(q)}{': ' + listed if listed else ''})")
    return "; ".join(parts)


@dataclass
class PercentileSizing:
    """The sentence the host count's rationale carries, and the warnings (an interpolated percentile)."""

    text: str = ""
    warnings: list[str] = field(default_factory=list)


def _basis(sc: Scenario, key: str) -> str:
    series = (sc.estate or {}).get("series") or {}
    if series.get("basis") == SUMMED:
        n = series.get("series_vms", series.get("vms"))
        return (f"the summed utilisation series of {f'{n:,} VMs' if n else 'the VMs measured'} (busy cores added up per "
                f"sampling step, so peaks that do not coincide are not added up; not the sum of each VM's own {key})")
    return "the measured percentiles of each workload's VMs (no series to sum: the collector's own figures)"


def _collector(sc: Scenario) -> bool:
    """Whether the percentiles are a collector's own per-VM figures (no series to import again)."""
    return ((sc.estate or {}).get("series") or {}).get("basis") != SUMMED


def percentile_sizing(sc: Scenario) -> PercentileSizing:
    """Which percentile the CPU is sized on and of what; empty when no workload is sized on one."""
    sized = sized_on_percentiles(sc)
    if not sized:
        return PercentileSizing()
    q = sc.preferences.sizing_percentile
    key = percentile_key(q)
    shares = ", ".join(f"{w.name} {100 * (w.cpu_busy_share or 0):.4g} %" for w in sized)
    if all(set(w.cpu_busy_percentiles or {}) == {"peak"} for w in sized):  # Live Optics: an average and a peak
        return PercentileSizing(f"CPU is sized on the peak of each workload's VMs over the collection (the collector "
                                f"gives each VM's average and peak, no {key}; preferences.sizing_percentile cannot "
                                f"choose another): busy share of the vCPUs {shares}.")
    out = PercentileSizing(f"CPU is sized on the {key} (preferences.sizing_percentile) of {_basis(sc, key)}: "
                           f"busy share of the vCPUs {shares}.")
    how: dict[tuple[str, tuple[str, ...]], list[str]] = {}  # by how it is read and the keys stored
    for w in sized:
        read = not_stored(w.cpu_busy_percentiles or {}, q)
        if read:
            how.setdefault((read, tuple(sorted(w.cpu_busy_percentiles or {}, key=_q))), []).append(w.name)
    for (read, keys), names in how.items():
        hint = (f"the collector gives only {', '.join(keys)} per VM" if _collector(sc)
                else f"import the series again with --percentile {q:g} for the exact one")
        out.warnings.append(f"the {key} is not stored for {', '.join(names)} (cpu_busy_percentiles): its busy share is "
                            f"{read}, an approximation of the {key}; {hint}")
    for w in sized:  # a group whose VMs' collectors give different percentiles (today.cpu_percentiles_given)
        given = (w.today or {}).get("cpu_percentiles_given") or {}
        note = figures_note({k: (n, []) for k, n in given.items()}, q) if isinstance(given, dict) else ""
        if note:
            out.warnings.append(f"the {key} of {w.name} is each VM's own where its collector gives it: {note}")
    if out.warnings:
        out.text += " " + " ".join(f"T{w[1:]}." for w in out.warnings)
    return out
