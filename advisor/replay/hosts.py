"""The documents' setups as a check of the host count: where a document ran a setup on a number of
hosts and reports that it fitted (its testbed's or an experiment's ``document_hosts``: hosts, the
rows saying so, a note), the replay compares the advised host count with it and says why they
differ (one JSON object per distinct setup, ``host_checks``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from knowledge.infra.errors import InputError


def document_hosts(testbeds: Mapping[str, dict], testbed: str, raw: Mapping[str, Any], where: str) -> dict | None:
    """The ``document_hosts`` of an experiment or setup (``raw``; ``null`` there: none), else of its
    testbed, validated: ``{"hosts": n >= 1, "rows": [...], "note": "..."}``."""
    value = raw["document_hosts"] if "document_hosts" in raw else (testbeds.get(testbed) or {}).get("document_hosts")
    if value is None:
        return None
    if not isinstance(value, Mapping) or not isinstance(value.get("hosts"), int) or value["hosts"] < 1:
        raise InputError(f"{where}: document_hosts of {raw.get('id', '?')!r}: 'hosts' must be a whole number >= 1")
    rows = value.get("rows") or []
    if not rows:
        raise InputError(f"{where}: document_hosts of {raw.get('id', '?')!r}: 'rows' (where the document says so) "
                         "is required")
    return {"hosts": int(value["hosts"]), "rows": [str(r) for r in rows], "note": str(value.get("note", ""))}


def _why(hc, hosts: int) -> str:
    """Why the advice's count differs from the document's ``hosts``: the resources that would run
    above the plan's usable capacity on that many hosts, or the placement, targets or reserve."""
    if hc.value is None:
        return "no host count meets a hard limit: " + "; ".join(hc.details.get("infeasible") or [])
    d = hc.details
    advised, reserve = int(hc.value), int(d.get("reserve", 0))
    need = d.get("hosts_needed") or {}
    budgets = d.get("budgets") or {}
    active = max(hosts - reserve, 1)
    if advised < hosts:
        top = max(need, key=lambda k: need[k]) if need else "nothing"
        return (f"fewer hosts than the document ran: the largest need, {top.replace('_', ' ')}, is "
                f"{need.get(top, 0.0):.2f} hosts' worth")
    over = {k: v / active for k, v in need.items() if v / active > 1.0 + 1e-9}
    parts = []
    for k, share in sorted(over.items(), key=lambda kv: -kv[1]):
        what = k.replace("_", " ")
        if k == "cpu_load":
            ceiling = budgets.get("cpu_ceiling_percent", 80.0)
            kept = budgets.get("cpu_points_reserved", 0.0)
            whom = " and ".join(x for x, rid in (("live-migration sources", "hc.migration-headroom"),
                                                 ("co-located database clusters", "hc.multi-cluster-cpu"))
                                if rid in (budgets.get("rules") or []))
            parts.append(f"{what} on {active} active hosts would be {share * ceiling:.0f} % of each host, above the "
                         f"plan's {ceiling:g} %" + (f" ({kept:g} points kept for {whom})" if kept else ""))
        else:
            parts.append(f"{what} would need {100 * share:.0f} % of the usable capacity of {active} active hosts")
    if not parts and d.get("hosts_by_targets"):
        parts.append(f"the targets need {d['hosts_by_targets']} active hosts")
    if not parts and d.get("hosts_by_packing", 0) > active:
        parts.append(f"placing whole VMs takes {d['hosts_by_packing']} active hosts")
    if not parts and reserve:
        parts.append(f"the plan keeps {reserve} host(s) in reserve (N+{reserve})")
    if not parts and (budgets.get("min_hosts") or 1) > active:
        parts.append("VMs that live-migrate need a second host")
    return "; ".join(parts) or "the advice's own rules"


def check(name: str, document: str, locator: str, ran: dict, advice) -> dict:
    """One setup's comparison: the document's hosts against the advised count, and why they differ."""
    hc = advice.find("host_count")
    advised = None if hc is None or hc.value is None else int(hc.value)
    out = {"setup": name, "document": document[:3], "locator": locator, "document_hosts": ran["hosts"],
           "rows": ran["rows"], "advised_hosts": advised, "agrees": advised == ran["hosts"]}
    if ran.get("note"):
        out["note"] = ran["note"]
    if not out["agrees"] and hc is not None:
        out["why"] = _why(hc, ran["hosts"])
    return out


def host_checks(advisor: Callable[[dict], Any], experiments: Iterable, setups: Iterable) -> list[dict]:
    """Every distinct scenario with ``document_hosts`` among the experiments' cases and the setups,
    compared once (``advisor``: scenario mapping -> Advice)."""
    seen: set[str] = set()
    out = []
    items = [(c.scenario, e.id, e.document, e.locator, e.document_hosts) for e in experiments for c in e.cases]
    items += [(s.scenario, s.id, s.document, s.locator, s.document_hosts) for s in setups]
    for scenario, name, document, locator, ran in items:
        if ran is None:
            continue
        key = json.dumps(scenario, sort_keys=True, default=str)
        if key in seen:
            continue
        seen.add(key)
        try:
            advice = advisor(scenario)
        except InputError:
            continue  # the experiment's own result reports the rejected scenario
        out.append(check(name, document, locator, ran, advice))
    return out
