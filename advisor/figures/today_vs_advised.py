"""Today's settings next to the advice: for each decision on which the estate records what runs
today (hypervisor, vCPU over-allocation, host count, each workload's cache mode), what is advised,
whether it changes and why (:func:`today_vs_advised`, :func:`format_today`)."""

from __future__ import annotations

import math
import re
from typing import Any

#: a host count this many times the measured load's is flagged as far above it
WIDE_MARGIN = 1.5

_SCORE = re.compile(r";?\s*scored -?[\d.]+ against -?[\d.]+\s*$")


def _clean(reason: str) -> str:
    """A reason without its trailing score (``...; scored 0.91 against 3.00``)."""
    return _SCORE.sub("", reason or "").strip().rstrip(";").strip()


_TAGS = re.compile(r"(\s*\[[^\]]+\])+\s*$")


def _focus(reason: str, *choices: str) -> str:
    """The clauses of ``reason`` (split at ``; ``) that name one of ``choices`` (their first
    word, e.g. ``none``, ``writeback``, ``KVM``, ``VMware``), with its rule tags; the whole reason
    when no clause or every clause names one. A rule's statement often weighs several modes
    ("writethrough ... is the slowest; none is the middle ground ..."): the line about today's
    setting keeps the part that argues between the two it compares."""
    m = _TAGS.search(reason)
    tags = m.group(0).strip() if m else ""
    body = reason[:m.start()] if m else reason
    clauses = [c for c in body.split("; ") if c.strip()]
    words = {str(c).split()[0].lower() for c in choices if str(c).strip()}
    if not words or len(clauses) < 2:
        return reason
    keep = [c for c in clauses if any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", c, re.I) for w in words)]
    if not keep or len(keep) == len(clauses):
        return reason
    text = "; ".join(keep).strip()
    return (text[0].lower() + text[1:] if text[:1].isupper() and text[1:2].islower() else text) + \
        (f" {tags}" if tags else "")


def _alternative(r: dict, choice: str) -> dict | None:
    c = choice.strip().lower()
    return next((a for a in r.get("alternatives", []) if str(a.get("choice", "")).strip().lower() == c), None)


def _why_changed(r: dict, today: str) -> str:
    """Why the advice moves away from ``today``: the reason today's setting lost (the deciding
    rule or figures of this recommendation against it)."""
    alt = _alternative(r, today)
    if alt is None:
        return ""
    why = str(alt.get("why_not", ""))
    if why.startswith("excluded: "):
        return f"{alt.get('choice')} is ruled out: {why[len('excluded: '):].strip()}"
    reason = _focus(_clean(why), str(r.get("choice", "")), str(alt.get("choice", "")))
    m = re.search(r"scored (-?[\d.]+) against (-?[\d.]+)", why)
    if reason:
        return f"{reason}" + (f" ({r.get('choice')} scores {m.group(2)}, {alt.get('choice')} {m.group(1)})" if m else "")
    if m and abs(float(m.group(1)) - float(m.group(2))) < 1e-9:
        return (f"no rule of the documents separates {r.get('choice')} from {alt.get('choice')} (both score "
                f"{m.group(1)}): {r.get('choice')} comes first on a tie; keeping {alt.get('choice')} is as well "
                "supported")
    return f"{r.get('choice')} scores higher on the documents' rules ({m.group(2)} against {m.group(1)})" if m else ""


def _why_kept(r: dict) -> str:
    """Why the advice keeps today's setting: the strongest reason it beat the runner-up."""
    alts = [a for a in r.get("alternatives", []) if not a.get("excluded")]
    if alts:
        reason = _focus(_clean(str(alts[0].get("why_not", ""))), str(r.get("choice", "")),
                        str(alts[0].get("choice", "")))
        if reason:
            return f"it stays ahead of {alts[0].get('choice')}: {reason}"
    return ""


def _level_of_ratio(per_thread: float) -> str:
    """The over-allocation level (vCPUs per hardware thread) nearest to ``per_thread``."""
    from advisor.rules.conditions import OVERALLOCATION

    return min(OVERALLOCATION, key=lambda k: abs(math.log(OVERALLOCATION[k] / max(per_thread, 1e-6))))


def _setter_text(res: str, d: dict, scenario) -> str:
    """The resource that sets the host count, its demand against one host's usable capacity."""
    from advisor.recommend.host_count import LABELS, UNITS

    need = d.get("hosts_needed") or {}
    cap = d.get("per_host_capacity") or {}
    demand = d.get("demand") or {}
    budgets = d.get("budgets") or {}
    cores = scenario.hosts.cpu.cores
    if res == "cpu_allocation":
        ratio = demand.get("cpu_allocation", 0.0)
        vcpus = sum(w.all_vcpus for w in scenario.workloads)
        per_core = vcpus / ratio if ratio else 0.0
        return (f"CPU allocation sets it: {vcpus:,} vCPUs at up to {per_core:.3g} vCPUs per core (the vCPU "
                f"over-allocation advice) take {ratio:,.0f} cores, {need[res]:.1f} hosts of {cores} cores")
    if res == "cpu_load":
        ceiling = budgets.get("cpu_ceiling_percent")
        return (f"CPU load sets it: {demand.get('cpu_load', 0):,.1f} busy cores against {cap.get('cpu_load', 0):.3g}"
                f" per host ({cores} cores at {ceiling:g} % planned), {need[res]:.1f} hosts" if ceiling else
                f"CPU load sets it: {need[res]:.1f} hosts")
    if res == "ram":
        return (f"RAM sets it: {demand.get('ram', 0):,.0f} GiB of guest RAM (+2 % overhead, not over-committed) "
                f"against {cap.get('ram', 0):,.0f} GiB usable per host, {need[res]:.1f} hosts")
    return (f"{LABELS.get(res, res)} sets it: {demand.get(res, 0):,.0f} {UNITS.get(res, '')} against "
            f"{cap.get(res, 0):,.0f} per host, {need[res]:.1f} hosts")


def _on_assumed(res: str, scenario) -> list[str]:
    """The assumed host fields (and workload intensities) the resource ``res`` rests on."""
    host_assumed = set((getattr(scenario, "estate", None) or {}).get("assumed", []))
    rests = {"disk_capacity": ["hosts.disks"], "disk_iops": ["hosts.disks"],
             "network": ["hosts.nic_gbps", "hosts.shared_storage.network_gbps"],
             "ram": ["hosts.ram_gib"], "cpu_allocation": ["hosts.cpu", "hosts.cpu.cores_per_socket"],
             "cpu_load": ["hosts.cpu", "hosts.cpu.cores_per_socket"]}.get(res, [])
    on_assumed = [f for f in rests if f in host_assumed]
    assumed = [w for w in scenario.workloads if "cpu_intensity" in (w.assumed or [])]
    if res == "cpu_load" and len(assumed) == len(scenario.workloads):
        on_assumed.append("cpu_intensity (no CPU usage in the export)")
    elif res == "cpu_load" and assumed:  # the export measured the others: say which part is assumed
        vms = sum(w.vms for w in assumed)
        on_assumed.append(f"cpu_intensity of {len(assumed)} of {len(scenario.workloads)} groups ({vms} VM"
                          f"{'s' if vms != 1 else ''}, none of them measured)")
    return on_assumed


def _rest_texts(res: str, d: dict) -> list[str]:
    """What else the count holds: other resources, packing, targets, reserve, CPU kept back."""
    from advisor.recommend.host_count import CPU_POINTS, LABELS

    need = d.get("hosts_needed") or {}
    budgets = d.get("budgets") or {}
    reserve = int(d.get("reserve", 0))
    parts = []
    others = [f"{LABELS.get(k, k).split(' (')[0]} {v:.1f}" for k, v in sorted(need.items(), key=lambda kv: -kv[1])
              if k != res and v >= 0.05]
    if others:
        parts.append("other resources need " + ", ".join(others[:3]))
    if d.get("hosts_by_packing") and d["hosts_by_packing"] > math.ceil(need[res] - 1e-9):
        parts.append(f"whole VMs placed take {d['hosts_by_packing']} active hosts")
    if d.get("hosts_by_targets"):
        parts.append(f"the targets take {d['hosts_by_targets']} active hosts")
    parts.append(f"plus {reserve} reserve host{'s' if reserve != 1 else ''} (N+{reserve})" if reserve else "no reserve")
    points = budgets.get("cpu_points_reserved")
    if points:
        rules = [x for x in budgets.get("rules", []) if x in CPU_POINTS]
        parts.append(f"host CPU planned at {budgets.get('cpu_ceiling_percent'):g} % ({points:g} points kept back"
                     + (f" [{', '.join(rules)}]" if rules else "") + ")")
    return parts


def _load_check(r: dict, res: str, today: dict, on_assumed: list[str]) -> tuple[list[str], list[str]]:
    """Against the load measured today: how many active hosts would carry it (a text) and a
    warning when the advice is far above that. Returns (texts, warnings)."""
    from advisor.recommend.host_count import LABELS

    d = r.get("details") or {}
    cap = d.get("per_host_capacity") or {}
    hosts = int(r["value"])
    active = hosts - int(d.get("reserve", 0))
    busy = today.get("busy_cores")
    used_ram = today.get("ram_in_use_gib")
    if busy is None and used_ram is None:
        return [], []
    by_cpu = busy / cap["cpu_load"] if busy is not None and cap.get("cpu_load") else 0.0
    by_ram = used_ram / cap["ram"] if used_ram is not None and cap.get("ram") else 0.0
    load_hosts = max(1, math.ceil(max(by_cpu, by_ram) - 1e-9))
    measured = []
    if today.get("host_cpu_usage_pct") is not None:
        measured.append(f"{today['host_cpu_usage_pct']:g} % CPU ({busy:,.0f} busy cores)" if busy is not None
                        else f"{today['host_cpu_usage_pct']:g} % CPU")
    if today.get("host_mem_usage_pct") is not None:
        measured.append(f"{today['host_mem_usage_pct']:g} % memory ({used_ram:,.0f} GiB in use)")
    text = (f"at the load measured today ({', '.join(measured)} on {today.get('hosts', '?')} hosts) "
            f"{load_hosts} active host{'s' if load_hosts != 1 else ''} would carry it (CPU {by_cpu:.1f}, "
            f"RAM {by_ram:.1f} hosts' worth)")
    warnings: list[str] = []
    if active > WIDE_MARGIN * load_hosts and active - load_hosts >= 2:
        what = {"cpu_allocation": "the vCPU over-allocation limit (vCPUs per core), not the CPU load",
                "ram": "the RAM the VMs are allocated (never over-committed), not the RAM they use today",
                "cpu_load": "the CPU load the workloads are planned at (measured share or assumed intensity)"
                }.get(res, LABELS.get(res, res))
        warnings.append(
            f"the advice ({hosts} hosts, {active} active) is {active / load_hosts:.1f}x the {load_hosts} active "
            f"hosts the load measured today needs: it is set by {what}"
            + (f" (on assumed {', '.join(on_assumed)})" if on_assumed else "") + ". The measurement is a snapshot taken "
            "at export time; check it against the estate's peak before handing the count over"
            + ("; allowing more vCPUs per core (as today) would lower it" if res == "cpu_allocation" else ""))
    return [text], warnings


def _host_reasons(r: dict, scenario, today: dict) -> tuple[str, list[str]]:
    """Why the advised host count is what it is, against today's hosts at the measured load:
    the resource that sets it (demand against one host's usable capacity), the reserve and the
    rules that keep capacity back; a warning when the advice is far above what the measured load
    needs. Returns (because, warnings)."""
    d = r.get("details") or {}
    need = d.get("hosts_needed") or {}
    if not need or r.get("value") is None:
        return "", []
    res = d.get("bottleneck") or max(need, key=lambda k: need[k])
    parts = [_setter_text(res, d, scenario)]
    on_assumed = _on_assumed(res, scenario)
    if on_assumed:
        parts[-1] += f" — on assumed {', '.join(on_assumed)}: declare them to rely on this count"
    parts += _rest_texts(res, d)
    texts, warnings = _load_check(r, res, today, on_assumed)
    return "; ".join(parts + texts), warnings


def _row(decision: str, scope: str, now: str, advised: str, status: str, because: str,
         warnings: list[str] | None = None) -> dict[str, Any]:
    return {"decision": decision, "scope": scope, "today": now, "advised": advised, "because": because,
            "differs": status != "unchanged", "status": status, "warnings": warnings or []}


def _hypervisor_row(r: dict, hv: str) -> dict[str, Any]:
    choice = str(r.get("choice", ""))
    if hv.lower().startswith("unknown"):
        return _row("hypervisor", "cluster", hv, choice, "unknown", _why_kept(r))
    alt = next((a for a in r.get("alternatives", []) if str(a.get("choice", "")).split()[0].lower()
                in hv.lower()), None)
    if choice.split()[0].lower() in hv.lower():
        return _row("hypervisor", "cluster", hv, choice, "unchanged", _why_kept(r))
    return _row("hypervisor", "cluster", hv, choice, "changed", _why_changed(r, str(alt.get("choice"))) if alt else "")


def _overallocation_row(r: dict, today: dict, threads: int) -> dict[str, Any]:
    ratio = today.get("vcpus_per_core")
    per_thread = today.get("vcpus_per_thread")
    parts = []
    if ratio is not None or per_thread is not None:
        parts.append(f"{ratio:g} vCPUs per core" if ratio is not None else
                     f"{per_thread:g} vCPUs per hardware thread")
    if today.get("pinned_vms"):
        parts.append(f"{today['pinned_vms']} VM(s) with pinned vCPUs")
    now = "; ".join(parts)
    value = r.get("value")
    advised = f"{r.get('choice')} (up to {float(value):g} vCPUs per core)" if value else str(r.get("choice"))
    now_ratio = ratio if ratio is not None else (per_thread * threads if per_thread is not None else None)
    if now_ratio is None or not value:
        return _row("vcpu_overallocation", "cluster", now, advised, "unknown", _why_kept(r))
    if abs(now_ratio - float(value)) < 0.005:
        return _row("vcpu_overallocation", "cluster", now, advised, "unchanged", _why_kept(r))
    if now_ratio < float(value):
        return _row("vcpu_overallocation", "cluster", now, advised, "within",
                    f"today's {now_ratio:g} vCPUs per core stay within the advised limit of {float(value):g}")
    level = _level_of_ratio(now_ratio / max(threads, 1))
    why = _why_changed(r, level) if level != r.get("choice") else ""
    if why[:1].isupper() and why[1:2].islower():  # a rule's sentence, now inside a sentence
        why = why[0].lower() + why[1:]
    return _row("vcpu_overallocation", "cluster", now, advised, "changed",
                f"today's {now_ratio:g} vCPUs per core exceed the advised {float(value):g}"
                + (f" (today is about the {level} level: {why})" if why else ""))


def _cache_row(r: dict, name: str, cache: str) -> dict[str, Any]:
    choice = str(r.get("choice", ""))
    modes = [m.split(" (")[0].strip() for m in cache.split(", ")]
    changed = [m for m in dict.fromkeys(modes) if m.lower() != choice.lower()]
    if not changed:
        return _row("cache_mode", f"workload:{name}", cache, choice, "unchanged", _why_kept(r))
    reasons = [f"{m}: {_why_changed(r, m)}" if len(changed) > 1 else _why_changed(r, m) for m in changed]
    return _row("cache_mode", f"workload:{name}", cache, choice, "changed",
                "; ".join(x for x in reasons if x.strip(": ")))


def today_vs_advised(scenario, recommendations) -> list[dict[str, Any]]:
    """``[{decision, scope, today, advised, because, differs, status, warnings}]`` for each decision
    on which the scenario records today's setting. ``status`` is ``unchanged`` (the advice is what
    runs today), ``within`` (today's vCPUs per core stay within the advised limit), ``changed`` or
    ``unknown`` (today's setting is not in the export); ``because`` is the reason for *this*
    change (why today's setting lost, from the recommendation's deciding rule or figures), or
    for keeping it. ``scenario`` is a Scenario (or mapping); ``recommendations`` the engine's
    Recommendation objects or their dicts."""
    if isinstance(scenario, dict):
        from advisor.scenario import parse_scenario

        scenario = parse_scenario(scenario)
    estate = getattr(scenario, "estate", None) or {}
    today = estate.get("today") or {}
    recs = [r if isinstance(r, dict) else r.to_dict() for r in recommendations]

    def find(decision: str, scope: str = "cluster") -> dict | None:
        return next((r for r in recs if r.get("decision") == decision and r.get("scope") == scope), None)

    out: list[dict[str, Any]] = []
    r = find("hypervisor")
    if today.get("hypervisor") and r is not None:
        out.append(_hypervisor_row(r, str(today["hypervisor"])))
    r = find("vcpu_overallocation")
    if r is not None and (today.get("vcpus_per_core") is not None or today.get("vcpus_per_thread") is not None
                          or today.get("pinned_vms")):
        out.append(_overallocation_row(r, today, scenario.hosts.cpu.threads_per_core))
    r = find("host_count")
    if today.get("hosts") and r is not None and r.get("value") is not None:
        because, warns = _host_reasons(r, scenario, today)
        same = int(r["value"]) == int(today["hosts"])
        out.append(_row("host_count", "cluster", f"{today['hosts']} hosts", f"{int(r['value'])} hosts",
                        "unchanged" if same else "changed", because, warns))
    for w in scenario.workloads:
        t = getattr(w, "today", None) or {}
        r = find("cache_mode", f"workload:{w.name}")
        if t.get("cache") and r is not None:
            out.append(_cache_row(r, w.name, str(t["cache"])))
    return out


#: what each status adds after the advised value
MARKS = {"unchanged": " (unchanged)", "within": " (today is within it)", "unknown": " (today's setting unknown)",
         "changed": ""}


def format_today(rows: list[dict[str, Any]]) -> list[str]:
    """One line per decision: ``cache mode (web): today writeback; advised none, because ...``;
    a row's warnings follow it as ``warning: ...`` lines."""
    lines = []
    for r in rows:
        scope = "" if r["scope"] == "cluster" else f" ({r['scope'].split(':', 1)[1]})"
        mark = MARKS.get(r.get("status", ""), "" if r.get("differs") else " (unchanged)")
        b = r["because"]
        lower = len(b) > 1 and b[1].islower() and not b.startswith("KVM")
        because = f", because {b[0].lower() if lower else b[0]}{b[1:]}" if b else ""
        lines.append(f"{r['decision'].replace('_', ' ')}{scope}: today {r['today']}; advised {r['advised']}"
                     f"{mark}{because}")
        lines += [f"  warning: {w}" for w in r.get("warnings", [])]
    return lines


