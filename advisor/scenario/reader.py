"""The validating reader of a scenario: :func:`parse_scenario` turns the plain data of a file into
a :class:`~advisor.scenario.model.Scenario`, every field read by its row of the field table
(:mod:`advisor.scenario.fields`), and collects *every* problem by path
(``workloads[2].vcpus: must be >= 1``) into one :class:`~knowledge.infra.errors.InputError`.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from typing import Any

from advisor.scenario.fields import (
    ASSUMABLE,
    BY_PATH,
    CHILDREN,
    MAX_PROBLEMS_LISTED,
    MEASURABLE,
    SCENARIO_VERSION,
    TOTALS,
    TYPICAL_RAM_GIB,
    TYPICAL_VCPUS,
    VALUE_KINDS,
    Field,
)
from advisor.scenario.model import (
    FIXABLE,
    TARGETS,
    CalibrationChoice,
    Cpu,
    Disk,
    FailureDomain,
    Growth,
    GrowthEvent,
    GrowthRates,
    HaPolicy,
    Hosts,
    IOProfile,
    Preferences,
    Realtime,
    RtTask,
    Scenario,
    SharedStorage,
    Survive,
    Target,
    Workload,
    level_of,
    percentile_of,
    share_at,
)
from advisor.scenario.placement_rules import check_constraints
from advisor.scenario.totals import num, size_totals
from knowledge.infra.errors import InputError
from knowledge.infra.reader import MAX_NUMBER, MISSING, MappingReader, Problems, is_number, text_problem
from knowledge.infra.reader import num as _num


class _Reader(MappingReader):
    """One mapping of a scenario file, its keys and their rules from the field table."""

    def __init__(self, data: Any, path: str, problems: Problems, known: tuple[str, ...] | None = None,
                 field: str | None = None):
        self.field = _field(path) if field is None else field  # the path without list indices: the table's
        super().__init__(data, path, problems, CHILDREN.get(self.field, ()) if known is None else known)

    def row(self, key: str) -> Field:
        return BY_PATH[f"{self.field}.{key}" if self.field else key]

    def get(self, key: str, default: Any = MISSING, *, fallback: bool = True) -> Any:
        """The value of field ``key`` as its row says (``default`` replaces the row's; without
        ``fallback``, a missing or wrong required value is None, not the row's fallback)."""
        return self._read(key, self.row(key), default, fallback)

    def _read(self, key: str, f: Field, default: Any = MISSING, fallback: bool = True) -> Any:
        """:meth:`get` of ``key`` whose row ``f`` is known."""
        if default is MISSING:
            default = MISSING if f.required else f.default
        word = self.data.get(key) if f.names else None
        value: Any
        if isinstance(word, str):  # a word a number field takes (peak)
            value = self._named(key, f, word, default)
        elif f.kind in ("int", "float"):
            value = self.number(key, default, minimum=f.minimum, maximum=f.bound, integer=f.kind == "int",
                                exclusive_min=f.exclusive_min)
        elif f.kind == "bool":
            value = self.boolean(key, default)
        elif f.kind == "group":  # true/false, or a group's name
            raw = self.raw(key, default)
            if isinstance(raw, (int, float)) and not isinstance(raw, bool):  # 0 or 1 is no group's name
                self.problems.add(self.p(key), f"must be true, false or a group name, not the number {raw}")
                value = default
            else:
                value = raw if isinstance(raw, bool) else self.string(key, default, empty=False)
        else:
            value = self.string(key, default, f.choices or None, empty=f.empty)
        return value if value or f.fallback is None or not fallback else f.fallback

    def _named(self, key: str, f: Field, word: str, default: Any) -> Any:
        """The number ``word`` stands for in field ``f`` (``peak``: 100), else a problem saying what ``f`` takes."""
        names = dict(f.names)
        if word in names:
            return names[word]
        self.problems.add(self.p(key), f"must be a number from {num(f.minimum or 0)} to {num(f.bound)} or "
                                       f"{' or '.join(names)}, not {word!r}")
        return default if default is not MISSING else None

    def values(self, *skip: str) -> dict[str, Any]:
        """Every value field of this mapping (but ``skip``), by key. A field the mapping leaves out
        takes its row's default (or fallback) at once: what :meth:`get` gives it (10,000 workloads
        leave out most of their fields)."""
        out, data = {}, self.data
        for key, f, quick in _value_rows(self.field):
            if key in skip:
                continue
            value = data.get(key)
            if value is None and not f.required:
                out[key] = f.default if f.default or f.fallback is None else f.fallback
            elif (value := quick(value)) is MISSING:
                out[key] = self._read(key, f)
            else:  # what _read gives a well-formed value
                out[key] = value if value or f.fallback is None else f.fallback
        return out

    def p_field(self, key: str) -> str:
        return f"{self.field}.{key}" if self.field else key

    def section(self, key: str) -> Any:
        """The raw data of the section ``key`` (its row's default when absent)."""
        f = self.row(key)
        return self.raw(key, MISSING if f.required else f.default)


@functools.cache
def _value_rows(field: str) -> tuple[tuple[str, Field, Callable[[Any], Any]], ...]:
    """(key, row, :func:`_quick` of the row) of every value field of the mapping at ``field`` (a
    path without indices)."""
    rows = ((key, BY_PATH[f"{field}.{key}" if field else key]) for key in CHILDREN.get(field, ()))
    return tuple((key, f, _quick(f)) for key, f in rows if f.kind in VALUE_KINDS)


def _quick(f: Field) -> Callable[[Any], Any]:
    """The value :meth:`_Reader._read` reads for row ``f`` from a well-formed value of the file (the
    row's default itself, a number in bounds, a boolean, a clean text or one of the choices), before
    the row's fallback; MISSING for any other value, which the full read reads and reports: nearly
    every value of an estate's 10,000 workload groups is well-formed."""
    kind, default, choices = f.kind, (MISSING if f.required else f.default), f.choices
    if kind in ("int", "float"):
        low, bound, integer, exclusive = f.minimum, f.bound, kind == "int", f.exclusive_min
        names = dict(f.names)

        def number(v: Any) -> Any:
            if v is default:  # read as it is, unchecked
                return v
            if type(v) is str:
                return names.get(v, MISSING)
            if not (type(v) is int or (type(v) is float and not integer and math.isfinite(v))):
                return MISSING
            if abs(v) > bound or (low is not None and (v <= low if exclusive else v < low)):
                return MISSING
            return v if integer else float(v)
        return number
    empty = f.empty and kind != "group"

    def text(v: Any) -> Any:
        if v is True or v is False:
            return v if kind in ("bool", "group") else MISSING
        if v is default:  # read as it is, unchecked
            return v
        if type(v) is not str or kind == "bool":
            return MISSING
        if choices:  # a choice of the table is a clean text
            return v if v in choices else MISSING
        return v if (empty or v.strip()) and text_problem(v) is None else MISSING
    return text


def _field(path: str) -> str:
    """``workloads[3].io.iops`` -> ``workloads.io.iops`` (the path of its row)."""
    return _INDEX.sub("", path) if "[" in path else path


_INDEX = re.compile(r"\[\d+\]")


def _hosts(data: Any, pr: Problems) -> Hosts:
    r = _Reader(data, "hosts", pr)
    disks = [Disk(**_Reader(d, f"hosts.disks[{i}]", pr).values()) for i, d in enumerate(r.items("disks", []))]
    shared = []
    for i, s in enumerate(r.items("shared_storage", [])):
        shared.append(SharedStorage(**_Reader(s, f"hosts.shared_storage[{i}]", pr).values()))
        if shared[-1].system is not None and shared[-1].kind != "distributed":
            pr.add(f"hosts.shared_storage[{i}].system", "is only for kind: distributed")
    values = r.values()
    count, reserve = values["count"], values["reserve"]
    # compared only when both were read: an unreadable count ("abc", 2.5) stands in as its default,
    # and "must be smaller than hosts.count (1)" spoke of a value nobody entered
    unread = any(p.startswith(("hosts.count:", "hosts.reserve:")) for p in pr.items)
    if reserve >= count and not unread:
        pr.add("hosts.reserve", f"must be smaller than hosts.count ({count})")
    cpu = Cpu(**_Reader(r.section("cpu"), "hosts.cpu", pr).values())
    domains = [FailureDomain(**_Reader(d, f"hosts.failure_domains[{i}]", pr).values())
               for i, d in enumerate(r.items("failure_domains", []))]
    if len({d.name for d in domains}) < len(domains):
        pr.add("hosts.failure_domains", "names must be unique")
    return Hosts(cpu=cpu, disks=disks, shared_storage=shared, failure_domains=domains, **values)


def _tasks(r: _Reader, path: str, pr: Problems) -> list[RtTask]:
    """The tasks of a real-time task set, each checked on its own and the names unique."""
    tasks = []
    for i, t in enumerate(r.items("tasks", limit=r.row("tasks").limit)):
        p = f"{path}.tasks[{i}]"
        tr = _Reader(t, p, pr)
        period, wcet = tr.get("period", fallback=False), tr.get("wcet", fallback=False)
        deadline = tr.get("deadline")
        if period and wcet and wcet > period:
            pr.add(f"{p}.wcet", f"must be <= period ({_num(period)})")
        if period and deadline and deadline > period:
            pr.add(f"{p}.deadline", f"must be <= period ({_num(period)})")
        if wcet and deadline and wcet > deadline:
            pr.add(f"{p}.wcet", f"must be <= deadline ({_num(deadline)})")
        tasks.append(RtTask(name=tr.get("name", f"t{i + 1}") or f"t{i + 1}",
                            period=period or tr.row("period").fallback, wcet=wcet or tr.row("wcet").fallback,
                            deadline=deadline))
    names: dict[str, int] = {}
    for i, t in enumerate(tasks):
        if t.name in names:
            pr.add(f"{path}.tasks[{i}].name", f"duplicate of tasks[{names[t.name]}].name ({t.name!r})")
        names.setdefault(t.name, i)
    if "tasks" in r.data and not tasks and isinstance(r.data["tasks"], list):
        pr.add(f"{path}.tasks", "must list at least one task")
    return tasks


def _realtime(data: Any, path: str, pr: Problems) -> Realtime:
    r = _Reader(data, path, pr)
    rt = Realtime(tasks=_tasks(r, path, pr), **r.values())
    tasks = rt.tasks
    if rt.period is not None and rt.share is not None and rt.period * rt.share <= rt.overhead:
        pr.add(f"{path}.period", f"the budget period x share ({_num(rt.period * rt.share)}) must exceed the "
                                 f"overhead ({_num(rt.overhead)})")
    if tasks and rt.utilization > 1:
        pr.add(f"{path}.tasks", f"utilization {rt.utilization:.3g} exceeds 1: no VM can schedule them")
    elif tasks and rt.share is not None and rt.share <= rt.utilization:
        pr.add(f"{path}.share", f"must exceed the task utilization ({rt.utilization:.3g})")
    elif tasks:
        _check_analysable(tasks, f"{path}.tasks", pr)
    return rt


def _check_analysable(tasks: list[RtTask], path: str, pr: Problems) -> None:
    """A problem at ``path`` when the exact real-time analysis would refuse the task set (too many
    checkpoints), so that the scenario says so up front, naming the field."""
    import numpy as np

    from advisor.realtime.intervals import MAX_CHECKPOINTS, count_points

    order = sorted(range(len(tasks)), key=lambda k: (tasks[k].deadline or tasks[k].period, tasks[k].period, k))
    periods = np.array([tasks[k].period for k in order], dtype=float)
    deadlines = np.array([tasks[k].deadline or tasks[k].period for k in order], dtype=float)
    if count_points(periods, deadlines, MAX_CHECKPOINTS) > MAX_CHECKPOINTS:
        pr.add(path, f"the exact analysis of these {len(tasks):,} tasks needs more than {MAX_CHECKPOINTS:,} "
                     "checkpoints (releases of higher-priority tasks before each deadline): the periods span "
                     "too large a ratio, or there are too many distinct periods")


def _names(r: _Reader, key: str, path: str, pr: Problems) -> list[str] | None:
    """A list of workload field names (``assumed``, ``measured``): those the table marks so."""
    value = r.raw(key, None)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        pr.add(f"{path}.{key}" if path else key, "must be a list of field names")
        return None
    known = {"assumed": ASSUMABLE, "measured": MEASURABLE}[key]
    for x in value:
        if x not in known:
            pr.add(f"{path}.{key}" if path else key, f"{x!r} is not a field that can be {key}")
    return list(value)


def _mapping(r: _Reader, key: str, path: str, pr: Problems) -> dict | None:
    value = r.raw(key, None)
    if value is None:
        return None
    if not isinstance(value, dict):
        pr.add(f"{path}.{key}" if path else key, "must be a mapping")
        return None
    return value


def _percentiles(r: _Reader, path: str, pr: Problems) -> dict[str, float] | None:
    """``cpu_busy_percentiles``: keys ``p<percentile>`` or ``peak``, busy shares 0-1."""
    table = _mapping(r, "cpu_busy_percentiles", path, pr)
    if table is None:
        return None
    out = {}
    for k, v in table.items():
        where = f"{path}.cpu_busy_percentiles.{k}"
        q = percentile_of(k)
        if q is None or not 0 < q <= 100:
            same = "; the 100th percentile is named peak" if re.fullmatch(r"p100(\.0*)?", str(k)) else ""
            pr.add(where, f"must be named p<percentile> below 100 (p50, p95, p99.9) or peak{same}")
        elif not is_number(v) or not 0 <= float(v) <= 1:
            pr.add(where, f"must be a busy share from 0 to 1, not {v!r}")
        else:
            out[str(k)] = float(v)
    return out


def _sized_at_percentile(workloads: list[Workload], prefs: Preferences) -> None:
    """A workload with measured percentiles is sized at ``preferences.sizing_percentile``: its
    ``cpu_busy_share`` (and, while measured, its ``cpu_intensity``) is the table's share there."""
    for w in workloads:
        measured = w.measured or []
        share = share_at(w.cpu_busy_percentiles or {}, prefs.sizing_percentile)
        if share is None or "cpu_busy_share" not in measured:
            continue
        w.cpu_busy_share = round(share, 4)
        if "cpu_intensity" in measured:
            w.cpu_intensity = level_of(share)


def _workload(data: Any, i: int, pr: Problems) -> Workload:
    path = f"workloads[{i}]"
    r = _Reader(data, path, pr, field="workloads")
    io = IOProfile(**_Reader(r.section("io"), f"{path}.io", pr, field="workloads.io").values())
    if io.footprint_gb is not None and io.disk_gb is not None and io.footprint_gb > io.disk_gb:
        pr.add(f"{path}.io.footprint_gb", f"must be <= io.disk_gb ({_num(io.disk_gb)})")
    if not r.data.keys().isdisjoint(TOTALS) and any(r.data.get(k) is not None for k in TOTALS):
        values = r.values("vms", "vcpus", "ram_gib")
        _totals(r, values, io, path, pr)
    else:
        values = r.values()
    values["name"] = values["name"] or f"workload{i + 1}"
    rt_data = r.raw("realtime", None)
    growth = r.raw("growth", None)
    return Workload(io=io, realtime=_realtime(rt_data, f"{path}.realtime", pr) if rt_data is not None else None,
                    cpu_busy_percentiles=_percentiles(r, path, pr),
                    assumed=_names(r, "assumed", path, pr), today=_mapping(r, "today", path, pr),
                    measured=_names(r, "measured", path, pr),
                    growth=None if growth is None else GrowthRates(**_Reader(growth, f"{path}.growth", pr).values()),
                    **values)


def _totals(r: _Reader, values: dict[str, Any], io: IOProfile, path: str, pr: Problems) -> None:
    """A workload given as totals: the VMs that hold every total, none larger than its typical VM
    (``vcpus`` / ``ram_gib``, else 4 vCPU / 16 GiB; :func:`advisor.scenario.totals.size_totals`),
    the total storage shared evenly (``io.disk_gb``). ``vms`` and ``io.disk_gb`` beside the totals
    they follow from are refused."""
    if r.data.get("vms") is not None:
        pr.add(f"{path}.vms", f"give either vms or the totals ({', '.join(k for k in TOTALS if k in r.data)}): "
                              "the VMs follow from the totals")
    if values.get("total_storage_tb") is not None and io.disk_gb is not None:
        pr.add(f"{path}.io.disk_gb", "give either io.disk_gb or total_storage_tb: the disk per VM follows from "
                                     "the total")
    if values.get("total_vcpus") is None and values.get("total_ram_gib") is None:  # #31 review 3 finding 4
        pr.add(f"{path}.total_storage_tb", "a storage total alone does not say how many VMs hold it (as one VM it "
                                           "fits no host): give total_vcpus or total_ram_gib beside it, or vms "
                                           "and io.disk_gb instead")
    typical = (r.get("vcpus", TYPICAL_VCPUS) or TYPICAL_VCPUS, r.get("ram_gib", TYPICAL_RAM_GIB) or TYPICAL_RAM_GIB)
    sized = size_totals(values["total_vcpus"], values["total_ram_gib"], values.get("total_storage_tb"), *typical)
    values.update(vms=sized.vms, vcpus=sized.vcpus, ram_gib=sized.ram_gib, typical=typical,
                  fewer_vcpu_vms=sized.fewer)
    if sized.disk_gb is not None and io.disk_gb is None:
        io.disk_gb = sized.disk_gb


def _target(name: str, raw: Any, path: str, workload: str | None, pr: Problems) -> Target | None:
    """One target: a number (a hard target) or ``{value, hard}``."""
    unit, _, scope = TARGETS[name]
    if scope == "cluster" and workload is not None:
        pr.add(path, "is a cluster target (it applies to every host), not one per workload")
        return None
    hard, value, where = True, raw, path
    if isinstance(raw, dict):
        r = _Reader(raw, path, pr, ("value", "hard"))
        value, where = r.raw("value"), f"{path}.value"
        hard = r.boolean("hard", True)
        if value is None:
            return None
    if not is_number(value) or value <= 0 or value > MAX_NUMBER:
        pr.add(where, f"must be a number > 0 ({unit})" + ("" if not is_number(value) or value <= 0
                                                             else f", at most {_num(MAX_NUMBER)}"))
        return None
    if name == "max_host_cpu_pct" and value > 100:
        pr.add(where, "must be <= 100 (%)")
        return None
    return Target(name=name, value=float(value), hard=bool(hard), workload=workload)


def targets(data: Any, workloads: set[str], pr: Problems) -> list[Target]:
    """``preferences.targets``: target keys (for every workload, or the cluster) and
    ``workloads: {name: {key: ...}}`` for one workload."""
    r = _Reader(data, "preferences.targets", pr, (*TARGETS, "workloads"))
    out = []
    for name in TARGETS:
        if name in r.data and r.data[name] is not None:
            t = _target(name, r.data[name], f"preferences.targets.{name}", None, pr)
            if t:
                out.append(t)
    per = r.raw("workloads", {})
    if not isinstance(per, dict):
        pr.add("preferences.targets.workloads", "must be a mapping of workload names to targets")
        return out
    for wname, raw in per.items():
        path = f"preferences.targets.workloads.{wname}"
        if wname not in workloads:
            pr.add(path, f"no workload named {wname!r}")
            continue
        wr = _Reader(raw, path, pr, tuple(TARGETS))
        for name in TARGETS:
            if name in wr.data and wr.data[name] is not None:
                t = _target(name, wr.data[name], f"{path}.{name}", str(wname), pr)
                if t:
                    out.append(t)
    return out


def _fixed(data: Any, workloads: set[str], reserve: int, pr: Problems) -> dict[str, Any]:
    """``preferences.fixed``: decision -> choice (see :data:`~advisor.scenario.model.FIXABLE`)."""
    r = _Reader(data, "preferences.fixed", pr, tuple(FIXABLE))
    out: dict[str, Any] = {}
    for name, choices in FIXABLE.items():
        if r.data.get(name) is None:
            continue
        path = f"preferences.fixed.{name}"
        if name == "host_count":
            n = r.number(name, None, minimum=1, integer=True)
            if n is not None and n <= reserve:
                pr.add(path, f"must be larger than hosts.reserve ({reserve})")
            elif n is not None:
                out[name] = n
        elif name == "cache_mode" and isinstance(r.data[name], dict):
            out[name] = _fixed_modes(r.data[name], path, choices, workloads, pr)
        else:
            value = r.string(name, None, choices)
            if value is not None and value in choices:
                out[name] = value
    return out


def _fixed_modes(data: dict, path: str, choices: tuple[str, ...], workloads: set[str],
                 pr: Problems) -> dict[str, str]:
    """``preferences.fixed.cache_mode`` given per workload: workload -> mode."""
    modes = {}
    for wname, mode in data.items():
        if wname not in workloads:
            pr.add(f"{path}.{wname}", f"no workload named {wname!r}")
        elif mode not in choices:
            pr.add(f"{path}.{wname}", f"must be one of {'|'.join(choices)}, not {mode!r}")
        else:
            modes[str(wname)] = mode
    return modes


def _preferences(data: Any, workloads: list[Workload], reserve: int, pr: Problems) -> Preferences:
    p = _Reader(data, "preferences", pr)
    names = {w.name for w in workloads}
    survive, ha = p.section("survive"), p.section("ha")
    return Preferences(targets=targets(p.section("targets"), names, pr),
                       fixed=_fixed(p.section("fixed"), names, reserve, pr),
                       survive=None if survive is None else Survive(**_Reader(survive, "preferences.survive",
                                                                               pr).values()),
                       ha=None if ha is None else HaPolicy(**_Reader(ha, "preferences.ha", pr).values()), **p.values())


def _check_workloads(workloads: list[Workload], hosts: Hosts, has_hosts: bool, pr: Problems) -> None:
    """Names given once; no VM larger than a host."""
    seen: dict[str, int] = {}
    for i, w in enumerate(workloads):
        if w.name in seen:
            pr.add(f"workloads[{i}].name", f"duplicate of workloads[{seen[w.name]}].name ({w.name!r})")
        seen.setdefault(w.name, i)
        typical = (" (a VM its totals are sized as, at most the typical VM: give a smaller vcpus / ram_gib)"
                   if w.from_totals else "")
        if w.vcpus > hosts.cpu.threads and hosts.cpu.threads > 0 and has_hosts:
            pr.add(f"workloads[{i}].vcpus", f"{w.vcpus} vCPUs exceed the {hosts.cpu.threads} hardware threads "
                                            f"of a host{typical}")
        if w.ram_gib > hosts.ram_gib and has_hosts:
            ram = num(w.ram_gib) if w.from_totals else _num(w.ram_gib)  # sized from totals: 4 digits
            pr.add(f"workloads[{i}].ram_gib", f"{ram} GiB exceeds a host's RAM "
                                              f"({_num(hosts.ram_gib)} GiB){typical}")


def _growth(data: Any, workloads: list[Workload], pr: Problems) -> Growth:
    """``growth``: rates, horizon and step events (each naming a workload of the scenario, in a
    year of the horizon, adding or retiring VMs)."""
    r = _Reader(data, "growth", pr)
    g = Growth(**r.values())
    names = {w.name: w for w in workloads}
    for i, e in enumerate(r.items("events", [], limit=r.row("events").limit)):
        p = f"growth.events[{i}]"
        er = _Reader(e, p, pr)
        ev = GrowthEvent(**er.values())
        if ev.year > g.horizon_years:
            pr.add(f"{p}.year", f"must be within the horizon (growth.horizon_years: {g.horizon_years})")
        if ev.workload and ev.workload not in names:
            pr.add(f"{p}.workload", f"no workload named {ev.workload!r}")
        if er.data.get("add_vms") == 0:
            pr.add(f"{p}.add_vms", "must not be 0 (VMs added, or retired when negative)")
        g.events.append(ev)
    for i, ev in enumerate(g.events):
        if ev.add_vms < 0 and ev.workload in names and ev.year <= g.horizon_years:
            _retired(g, names[ev.workload], i, pr)
    return g


def _retired(g: Growth, w: Workload, i: int, pr: Problems) -> None:
    """Event ``i`` retires VMs: no more than its workload is worth in its year (at its slowest
    growth rate, after the events before it), or it is refused naming ``add_vms`` (not clamped)."""
    ev = g.events[i]
    before = [e for j, e in enumerate(g.events) if e.workload == w.name and (e.year, j) < (ev.year, i)]
    worth = g.worth(w, ev.year, before)
    rate = min(worth, key=lambda r: worth[r])
    if -ev.add_vms > worth[rate] + 1e-9:
        have = f"{worth[rate]:,.0f}" if abs(worth[rate] - round(worth[rate])) < 1e-9 else f"{worth[rate]:,.2f}"
        pr.add(f"growth.events[{i}].add_vms",
               f"retires {-ev.add_vms:,} VMs in year {ev.year}, but {w.name} holds only {have} VMs' worth then "
               f"({rate} growing {g.rates(w)[rate]:g} %/year): add_vms >= {-math.floor(worth[rate] + 1e-9):,}")


def parse_scenario(data: Any, source: str = "scenario") -> Scenario:
    """A validated :class:`Scenario` from a plain mapping; raises one :class:`InputError` that
    lists every problem by path."""
    pr = Problems(MAX_PROBLEMS_LISTED)
    r = _Reader(data, "", pr)
    version = r.get("version")
    if version is not None and version != SCENARIO_VERSION:
        pr.add("version", f"scenario format version {version} is not supported (this program reads "
                          f"version {SCENARIO_VERSION})")
    if "hosts" in r.data:
        hosts = _hosts(r.data["hosts"], pr)
    else:
        pr.add("hosts", "is required")
        hosts = Hosts()
    workloads = [_workload(w, i, pr) for i, w in enumerate(r.items("workloads", limit=r.row("workloads").limit))]
    if isinstance(r.data.get("workloads"), list) and not workloads:
        pr.add("workloads", "must list at least one workload")
    _check_workloads(workloads, hosts, "hosts" in r.data, pr)
    prefs = _preferences(r.section("preferences"), workloads, hosts.reserve, pr)
    check_constraints(workloads, hosts, prefs.ram_overcommit if "hosts" in r.data else None, pr)
    _sized_at_percentile(workloads, prefs)
    growth = _growth(r.raw("growth"), workloads, pr) if r.raw("growth", None) is not None else None
    estate = _mapping(r, "estate", "", pr)
    calibration = None
    if r.raw("calibration", None) is not None:
        site = _Reader(r.raw("calibration", {}), "calibration", pr).get("site")
        calibration = CalibrationChoice(site=site.strip() if site else None)
    name = r.get("name")
    if pr.items:
        raise InputError(f"{source}: {len(pr.items)} problem(s) in the scenario:\n  {pr.listing()}")
    return Scenario(name=name, version=SCENARIO_VERSION, hosts=hosts,
                    workloads=workloads, preferences=prefs, estate=estate, growth=growth,
                    calibration=calibration if calibration is not None and calibration.site else None)
