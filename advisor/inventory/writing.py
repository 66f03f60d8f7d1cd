"""The scenario an imported estate becomes: :class:`Inventory` (the groups of
:mod:`advisor.inventory.grouping` with the scenario mapping, its assumptions and a summary),
:func:`import_inventory`, and the scenario file (:func:`scenario_yaml`, :func:`write_scenario`)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from advisor.inventory.assumptions import assumption_rows, host_mapping, workload_mapping
from advisor.inventory.grouping import Group, Grouping
from advisor.inventory.series import (
    DEFAULT_PERCENTILE,
    SeriesSizing,
    apply_to_workload,
    read_for,
    seed_growth,
)
from knowledge.infra.errors import InputError


class Inventory(Grouping):
    """An estate and its workload groups (the model the CLI prints and the GUI edits), and the
    utilisation series read beside it (:meth:`add_series`)."""

    series: SeriesSizing | None = None
    _series_key: tuple = ()

    def add_series(self, paths, percentile: float | None = None, cancel=None) -> SeriesSizing:
        """Read utilisation series joined to these VMs by name; the groups are sized on their
        ``percentile`` (default: the scenario's) of the summed series from now on."""
        self.series = read_for(self, paths, percentile, cancel)
        self._series_key = self._grouping_key()
        return self.series

    def set_percentile(self, percentile: float) -> None:
        """Size the groups on another percentile of the series read (:meth:`add_series`), or of the
        VMs' own percentiles over the collection (Nutanix Collector's vCPU sheet)."""
        if self.sized_percentile is None:
            raise InputError("no utilisation series were read: nothing is sized on a percentile")
        if not 1 <= percentile <= 100:
            raise InputError(f"sizing percentile {percentile:g} is outside 1-100")
        if self.series is None:
            self.sizing_percentile = float(percentile)
            return
        self.series.percentile = float(percentile)
        self.series.compute(self)
        self._series_key = self._grouping_key()

    @property
    def sized_percentile(self) -> float | None:
        """The percentile the groups' CPU is sized on: of the series read, else of the VMs' own
        percentiles (the scenario's default unless set); None when nothing gives percentiles."""
        if self.series is not None:
            return self.series.percentile
        if any(v.cpu_pcts for v in self.vms):
            return self.sizing_percentile or DEFAULT_PERCENTILE
        return None

    def _grouping_key(self) -> tuple:
        return tuple((g.name, tuple(g.members)) for g in self.groups), self.include_powered_off

    def snapshot(self) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The groups, what they are sized on and the series' sums as they are now, for :meth:`restore`
        (an edit whose sum of the series failed is undone with them)."""
        state = dict(vars(self))
        state["groups"] = [Group(g.name, list(g.members), g.note) for g in self.groups]  # edits change them in place
        return state, dict(vars(self.series)) if self.series is not None else None

    def restore(self, snapshot: tuple[dict[str, Any], dict[str, Any] | None]) -> None:
        """Put back what :meth:`snapshot` took (the series' sums too, so nothing is summed again)."""
        state, series = snapshot
        vars(self).clear()
        vars(self).update(state)
        if self.series is not None and series is not None:
            vars(self.series).clear()
            vars(self.series).update(series)

    def sized_series(self) -> SeriesSizing | None:
        """The series reduced for the current groups (again after a regroup, merge or split)."""
        if self.series is not None and self._series_key != self._grouping_key():
            self.series.compute(self)
            self._series_key = self._grouping_key()
        return self.series

    def to_scenario(self, name: str | None = None) -> dict[str, Any]:
        """The scenario mapping (``advisor.scenario.parse_scenario`` accepts it)."""
        if not self.groups:
            raise InputError(self._nothing_to_plan())
        hosts, host_assumed, note = host_mapping(self)
        found = self.estate.counts()
        totals = self.source_totals()
        estate: dict[str, Any] = {
            "sources": [{"file": s.path, "format": s.format, "vms": s.vms, "hosts": s.hosts} for s in self.estate.sources],
            "found": found,
            "imported": {"vms": totals["vms"], "vcpus": totals["vcpus"], "ram_gib": round(totals["ram_gib"], 3),
                         "powered_off_included": self.include_powered_off},
            "group_by": self.group_by,
            "today": self.today(),
            "assumed": host_assumed,
        }
        notes = [n for n in [note] + self.warnings() + [f"{Path(s.path).name}: {x}" for s in
                                                        self.estate.sources for x in s.notes] if n]
        if notes:
            estate["notes"] = notes
        workloads = [self.workload(g) for g in self.groups]
        out: dict[str, Any] = {"version": 1, "name": name or self.name, "hosts": hosts, "workloads": workloads,
                               "estate": estate}
        series = self.sized_series()
        if series is not None and series.estate:
            estate["series"] = series.estate
            out["preferences"] = {"sizing_percentile": series.percentile}
            seed_growth(out, series.estate.get("trend"))
        elif any("cpu_busy_percentiles" in w for w in workloads):  # the VMs' own percentiles
            out["preferences"] = {"sizing_percentile": self.sized_percentile}
        return out

    def warnings(self) -> list[str]:
        """The sources' warnings, what the CPU figures cannot say (:meth:`cpu_warnings`) and what the
        series readers skipped or converted."""
        series = self.sized_series()
        files = series.store.files if series is not None else []
        return (list(self.estate.warnings) + self.cpu_warnings()
                + [f"{Path(f.path).name}: {w}" for f in files for w in f.warnings]
                + (list(series.warnings) if series is not None else []) + self._figure_warnings())

    def _figure_warnings(self) -> list[str]:
        """Per group whose VMs' collectors give different percentiles (Live Optics a peak, Nutanix p50/p95/peak),
        the VMs sized on another figure than the percentile sized on (:func:`figures_note`)."""
        from advisor.scenario.model import percentile_key
        from advisor.scenario.percentiles import figures_note

        q = self.sized_percentile
        if q is None or len({frozenset(v.cpu_pcts) for v in self.vms if v.cpu_pcts}) < 2:
            return []  # no percentiles, or every VM gives the same ones: no group mixes them
        out = []
        for g in self.groups:
            cpu = self.measured_cpu([self.vms[i] for i in g.members])
            note = figures_note(cpu.given, q) if cpu is not None and self.group_series(g) is None else ""
            if note:
                out.append(f"group {g.name}: CPU sized on each VM's {percentile_key(q)} where its collector gives it; "
                           f"{note}")
        return out

    def _nothing_to_plan(self) -> str:
        """Why there is no VM to plan, saying what the files held."""
        files = ", ".join(Path(s.path).name for s in self.estate.sources) or "the files"
        if not self.estate.vms:
            hosts = f"only {len(self.estate.hosts)} host(s)" if self.estate.hosts else "nothing usable"
            return (f"no VMs to plan: {files} describe {hosts} and no VM; add the VMs' export (virsh list --all, "
                    "virsh dominfo or dumpxml, vInfo, pvesh, openstack server list)")
        return f"no VMs to plan in {files}: every VM found is a template" + (
            "" if self.include_powered_off else " or powered off")

    def host_note(self) -> str:
        """How the scenario's hosts were chosen from today's (or why they are assumed)."""
        return host_mapping(self)[2] if self.groups else ""

    def assumptions(self) -> list[tuple[str, str]]:
        """``(field, value)`` for every assumed value of the scenario, for display: the workloads'
        defaults (``varies`` where groups differ) and the hosts' assumed fields."""
        return assumption_rows(self.to_scenario())

    def workload(self, g: Group) -> dict[str, Any]:
        """The scenario mapping of one group, with its assumptions and today's settings."""
        w = workload_mapping(self, g)
        series = self.sized_series()
        gs = series.groups.get(g.name) if series is not None else None
        if gs is not None and series is not None:
            apply_to_workload(w, gs, series.percentile)
        return w

    def group_series(self, g: Group) -> dict[str, Any] | None:
        """A group's series percentiles and the share it is sized on (None: no series)."""
        series = self.sized_series()
        gs = series.groups.get(g.name) if series is not None else None
        if gs is None or series is None:
            return None
        return {**gs.today(), "vms": gs.of, "sizing_percentile": series.percentile,
                "sized_busy_pct": round(100 * gs.share_at(series.percentile), 2)}

    def collector_sized(self, g: Group) -> str:
        """What a group sized on a collector's per-VM percentiles (Nutanix, AWS; no series) is sized on,
        e.g. "CPU sized 26.3 % busy (the VMs' p95, 2 of 2 measured)" ("" for any other group)."""
        from advisor.scenario.model import percentile_key, share_at
        from advisor.scenario.percentiles import figures_note

        p, q = self.profile(g), self.sized_percentile
        if q is None or p.cpu is None or not p.cpu.percentiles or self.group_series(g) is not None:
            return ""
        key, pcts = percentile_key(q), p.cpu.percentiles
        what = "peaks" if set(pcts) == {"peak"} else key if key in pcts else f"{key}, interpolated"
        flat = f"; {own_share_note(p.cpu.flat)}" if p.cpu.flat else ""
        others = figures_note(p.cpu.given, q)
        return (f"CPU sized {100 * float(share_at(pcts, q) or 0.0):.3g} % busy (the VMs' {what}, {p.cpu.vms} of "
                f"{p.cpu.of} measured{flat}{'; ' + others if others else ''})")

    def summary(self) -> dict[str, Any]:
        """Found, groups and totals, JSON-ready (the CLI's ``--format json`` and the GUI's labels)."""
        groups = []
        for g in self.groups:
            p = self.profile(g)
            groups.append({"name": g.name, "vms": p.vms, "vcpus": p.vcpus, "ram_gib": round(p.ram_gib, 3),
                           "disk_gb": round(p.disk_gb, 1) if p.disk_gb else None,
                           "vcpus_today": f"{p.vcpu_range[0]}" if not p.mixed_vcpus else
                           f"{p.vcpu_range[0]}-{p.vcpu_range[1]}",
                           "ram_gib_today": [round(p.ram_range_gib[0], 3), round(p.ram_range_gib[1], 3)],
                           "powered_off": p.powered_off, "cache_today": p.cache_today, "cache_disks": p.cache_disks,
                           "pinned": p.pinned, "examples": p.examples, "note": g.note,
                           "cpu_busy_pct": round(100.0 * p.cpu.share, 1) if p.cpu is not None else None,
                           "cpu_measured": p.cpu.source if p.cpu is not None else None,
                           "cpu_assumed": p.cpu.assumed if p.cpu is not None else None,
                           "today_text": "; ".join(t for t in (_today_text(p, self.group_series(g)),
                                                               self.collector_sized(g)) if t),
                           "series": self.group_series(g)})
        series = self.sized_series()
        return {"found": self.estate.counts(), "group_by": self.group_by, "groups": groups,
                "totals": {"source": self.source_totals(), "scenario": self.scenario_totals()},
                "today": self.today(), "warnings": self.warnings(),
                "sources": [{"file": s.path, "format": s.format, "vms": s.vms, "hosts": s.hosts, "notes": s.notes}
                            for s in self.estate.sources],
                "series": (dict(series.estate, text=series.text()) if series is not None and series.estate
                           else None)}


def _today_text(p, series: dict[str, Any] | None) -> str:
    """A group's today text; a group measured only by series says its percentile there (the table's cell
    would be empty)."""
    from advisor.scenario.model import percentile_key

    text = p.today_text()
    if p.cpu is not None or not series or series.get("basis"):
        return text
    k = percentile_key(series["sizing_percentile"])
    pct = series["cpu_busy_pct"].get(k)
    if pct is None:
        return text
    return text + ("; " if text else "") + (f"CPU {k} {pct:g} % busy (series, {series['vms_measured']} of "
                                            f"{series['vms']} VMs)")


def split_series(paths) -> tuple[list[Path], list[Path]]:
    """``(inventory files, series files)`` of ``paths``, told apart by their content
    (:func:`knowledge.series.detect_series`; a Live Optics workbook's per-VM average and peak are read
    with the workbook, by the inventory reader)."""
    from knowledge.series import detect_series

    files = [Path(p) for p in paths]
    kinds = {f: detect_series(f) for f in files}
    return [f for f in files if kinds[f] is None], [f for f in files if kinds[f] is not None]


def import_inventory(paths, group_by: str = "auto", include_powered_off: bool = True, percentile: float | None = None,
                     name: str = "", progress=None, cancel=None) -> Inventory:
    """Read the estate exports among ``paths``, group their VMs and join the utilisation series
    given beside them (sized on their ``percentile``): ``capadvisor inventory`` and the GUI's
    Import inventory (in its worker) both call this."""
    from advisor.progress import check, report
    from knowledge.inventory import UnknownFormat, read_inventory
    from knowledge.series import FORMATS as SERIES_FORMATS

    estate_files, series = split_series(paths)
    if series and not estate_files:
        raise InputError(f"only utilisation series given ({', '.join(p.name for p in series)}): add the inventory "
                         "whose VMs they measure (the estate export, e.g. RVTools or the inventory CSV template)")
    share = 0.6 if series else 0.9
    try:
        estate = read_inventory(estate_files, progress=(lambda f, m: report(progress, share * f, m)) if progress
                                else None, cancel=cancel)
    except UnknownFormat as exc:  # a file of neither kind: say that series are read too
        raise InputError(f"{exc}; or, beside them, utilisation series: " + "; ".join(SERIES_FORMATS.values())) from None
    check(cancel)
    report(progress, share + 0.02, "grouping the VMs")
    inv = Inventory(estate, group_by, include_powered_off, name=name)
    if series:
        report(progress, share + 0.05, f"reading the series ({', '.join(p.name for p in series)})")
        inv.add_series(series, percentile, cancel)
    elif any(v.cpu_pcts for v in estate.vms):  # the VMs' own percentiles over the collection (Nutanix Collector)
        inv.sizing_percentile = percentile
        _warn_not_given(estate, percentile)
    report(progress, 1.0, f"{len(inv.vms)} VMs in {len(inv.groups)} groups")
    return inv


def _warn_not_given(estate, percentile: float | None) -> None:
    """A percentile asked for that the collector's per-VM figures do not hold: say how it is read, at import."""
    from advisor.scenario.model import percentile_key
    from advisor.scenario.percentiles import not_stored

    if percentile is None:
        return
    given = dict.fromkeys(k for v in estate.vms for k in (v.cpu_pcts or {}))
    read = not_stored({k: 0.0 for k in given}, percentile)
    if read:
        estate.warnings.append(f"--percentile {percentile:g}: the collector gives only {', '.join(given)} per VM "
                               f"(no series): the {percentile_key(percentile)} cannot be read exactly: {read}")


def measured_comment(data: dict[str, Any], w: dict[str, Any]) -> str:
    """The YAML comment of a measured value of workload ``w``: ``measured (<its basis>)``
    (:func:`measured_basis`)."""
    return f"measured ({measured_basis(data, w)})"


def own_share_note(n: int) -> str:
    """Of a group sized on a collector's peaks or percentiles, the ``n`` VMs that enter at their own
    share (an RVTools VM beside Live Optics or Nutanix VMs: ``Measured.flat``); the summary's cell and
    the YAML comment say it in these words."""
    return f"{n} VM{'s' if n != 1 else ''} without the collector's figures, at their own share"


def measured_basis(data: dict[str, Any], w: dict[str, Any]) -> str:
    """What a measured value of workload ``w`` was measured on: its utilisation series (the percentile
    and the days), a collector's per-VM peaks or percentiles, else when the estate's usage was taken."""
    from advisor.inventory.today import EXPORT_TIME
    from advisor.scenario.model import percentile_key
    from advisor.scenario.percentiles import figures_note

    estate = data.get("estate") or {}
    series = estate.get("series") or {}
    if (w.get("today") or {}).get("series") and series.get("days"):
        return f"the {percentile_key(series['percentile'])} of {series['days']:g} days of utilisation series"
    pcts = w.get("cpu_busy_percentiles") or {}
    flat = (w.get("today") or {}).get("cpu_own_share_vms")
    own = f"; {own_share_note(flat)}" if flat else ""
    if set(pcts) == {"peak"}:  # Live Optics: each VM's average and peak over the collection
        return f"the VMs' peaks over the collection, vCPU-weighted; the collector gives no percentile{own}"
    if pcts:  # Nutanix Collector: each VM's median, 95th percentile and peak over the collection
        q = (data.get("preferences") or {}).get("sizing_percentile") or 95
        key = percentile_key(q)
        how = "" if key in pcts else f", interpolated: the collector gives only {', '.join(pcts)}"
        given = (w.get("today") or {}).get("cpu_percentiles_given") or {}
        others = figures_note({k: (n, []) for k, n in given.items()}, q)
        return (f"the VMs' {key} over the collection, the collector's per-VM figures, vCPU-weighted{how}{own}"
                f"{'; ' + others if others else ''}")
    at = (estate.get("today") or {}).get("measured_at", EXPORT_TIME)
    return "from the estate's usage at export time" if at == EXPORT_TIME else at


def scenario_yaml(data: dict[str, Any]) -> str:
    """The scenario as YAML with a header and an ``# assumed`` comment on every line whose value
    is an assumption (the ``assumed`` lists say the same for programs)."""
    import yaml

    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)
    host_assumed = set((data.get("estate") or {}).get("assumed", []))
    workloads = data.get("workloads", [])
    out: list[str] = []
    section = ""
    sub = ""
    w_index = -1
    for line in text.splitlines():
        top = re.match(r"^([a-z_]+):", line)
        if top:
            section, sub = top.group(1), ""
        comment = ""
        if section == "hosts":
            m = re.match(r"^  ([a-z_]+):", line)
            if m:
                sub = m.group(1)
                if f"hosts.{sub}" in host_assumed:
                    comment = "assumed"
            m2 = re.match(r"^    ([a-z_]+):", line)
            if m2 and sub == "cpu" and (f"hosts.cpu.{m2.group(1)}" in host_assumed or "hosts.cpu" in host_assumed):
                comment = "assumed"
        elif section == "growth" and line.startswith("  cpu_pct_per_year:"):
            t = ((data.get("estate") or {}).get("series") or {}).get("trend") or {}
            if t.get("seeds"):
                comment = (f"fitted to {t['days']} days of utilisation series ({100 * t['level']:g} % interval "
                           f"{t['low']:+g} to {t['high']:+g}): a trend of the past, not a plan; check it")
        elif section == "workloads":
            if line.startswith("- "):
                w_index += 1
                sub = ""
            assumed = set(workloads[w_index].get("assumed", [])) if 0 <= w_index < len(workloads) else set()
            measured = set(workloads[w_index].get("measured", [])) if 0 <= w_index < len(workloads) else set()
            m = re.match(r"^(?:- |  )([a-z_]+):", line)
            if m:
                sub = m.group(1)
                if sub in assumed and sub != "assumed":
                    comment = "assumed"
                elif sub in measured and sub != "measured":
                    comment = measured_comment(data, workloads[w_index])
            m2 = re.match(r"^    ([a-z_]+):", line)
            if m2 and sub == "io" and f"io.{m2.group(1)}" in assumed:
                comment = "assumed"
        out.append(f"{line}  # {comment}" if comment else line)
    sources = ", ".join(Path(s["file"]).name for s in (data.get("estate") or {}).get("sources", []))
    header = [
        "# Capacity Advisor scenario imported from today's estate"
        + (f" ({sources})" if sources else "") + " by `capadvisor inventory`.",
        "# Values marked '# assumed' (and listed under each workload's 'assumed' and estate.assumed) are",
        "# defaults, not facts from the export: check them before trusting the advice. Values marked",
        "# '# measured' (listed under 'measured') are derived from the usage the export or the series recorded.",
        "# 'today' and estate.today record what runs now (cache modes, pinning, vCPUs per core, hosts).",
        "# Units: RAM GiB, disk GB, links Gb/s, CPU GHz.",
    ]
    return "\n".join(header + out) + "\n"


def write_scenario(data: dict[str, Any], path: Path | str) -> None:
    """Write the imported scenario atomically (YAML with comments, or JSON/TOML by suffix)."""
    from advisor.scenario import dumps, format_of, parse_scenario
    from knowledge.infra.atomic import write_text_atomic

    path = Path(path)
    fmt = format_of(path)
    scenario = parse_scenario(data, str(path))  # never write what advise would refuse
    text = scenario_yaml(data) if fmt == "yaml" else dumps(scenario, fmt)
    write_text_atomic(path, text)
