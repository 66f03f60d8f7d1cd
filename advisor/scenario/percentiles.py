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


def not_stored(table: dict[str, float], q: float) -> str:
    """How the share at percentile ``q`` is read when ``table`` does not store it ("" when it does)."""
    if percentile_key(q) in table or not table:
        return ""
    keys = sorted(table, key=_q)
    below = [k for k in keys if _q(k) < q]
    above = [k for k in keys if _q(k) > q]
    if below and above:
        return f"interpolated linearly between {below[-1]} and {above[0]}"
    return f"the nearest stored one, {(below or above)[-1 if below else 0]}, is used"


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
    how: dict[str, list[str]] = {}
    for w in sized:
        read = not_stored(w.cpu_busy_percentiles or {}, q)
        if read:
            how.setdefault(read, []).append(w.name)
    for read, names in how.items():
        hint = (f"the collector gives only {', '.join(sorted(sized[0].cpu_busy_percentiles or {}, key=_q))} per VM"
                if _collector(sc) else f"import the series again with --percentile {q:g} for the exact one")
        out.warnings.append(f"the {key} is not stored for {', '.join(names)} (cpu_busy_percentiles): its busy share is "
                            f"{read}, an approximation of the {key}; {hint}")
    if out.warnings:
        out.text += " " + " ".join(f"T{w[1:]}." for w in out.warnings)
    return out
