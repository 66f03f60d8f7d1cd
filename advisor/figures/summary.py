"""The design at one glance: the headline decisions of an Advice (the catalogue's ``headline``)
with the choice and the main expected figures, as the what-if banner, a design summary or a
report's first table show them."""

from __future__ import annotations

from dataclasses import dataclass

from advisor.figures.prose import figure_text, fmt_value
from advisor.recommend import catalog


@dataclass(frozen=True)
class SummaryItem:
    """One headline recommendation: decision, title, scope, choice text, value and figures."""

    decision: str
    title: str
    scope: str
    choice: str
    value: float | None
    figures: tuple[str, ...]


def summary(advice, every_scope: bool = False, figures: int = 2) -> list[SummaryItem]:
    """The headline decisions of ``advice`` in engine order: the cluster recommendation (or the
    first workload's) of each, or every scope with ``every_scope``; ``figures`` expected figures
    each, as text."""
    out = []
    for name in catalog.headline():
        recs = advice.of(name) if every_scope else [r for r in [advice.first(name, "cluster")] if r is not None]
        for r in recs:
            figs = tuple(figure_text(k, v) for k, v in list(r.expected.items())[:figures])
            out.append(SummaryItem(name, catalog.title(name), r.scope, catalog.choice_text(name, r.choice, r.value),
                                   r.value, figs))
    return out


def scenario_inputs(scenario) -> dict[str, str]:
    """A scenario's key inputs as label -> text (units in the labels), as the report and the
    comparison show them."""
    h = scenario.hosts
    disks = ", ".join(f"{d.count}x {d.kind} {fmt_value(d.size_gb)} GB" for d in h.disks)
    shared = ", ".join(f"{s.kind} {fmt_value(s.network_gbps)} Gb/s" for s in h.shared_storage)
    wls = scenario.workloads
    return {
        "Hosts (reserve)": f"{h.count} ({h.reserve} of them reserve)" if h.reserve else str(h.count),
        "Cores per host": str(h.cpu.sockets * h.cpu.cores_per_socket),
        "RAM per host (GiB)": fmt_value(h.ram_gib),
        "Network (Gb/s)": fmt_value(h.nic_gbps),
        "Local disks": disks or "none",
        "Shared storage": shared or "none",
        "Workload groups": str(len(wls)),
        "VMs in total": str(sum(w.vms for w in wls)),
        "vCPUs in total": str(sum(w.all_vcpus for w in wls)),
        "Open source only": "yes" if scenario.preferences.open_source_only else "no",
    }


def priced(cost) -> bool:
    """Whether a design's bill says anything: lines with money in them (a host model without a price
    leaves a bill of 0)."""
    return bool(cost is not None and cost.lines and abs(cost.total) >= 0.5)


def cost_summary(advice) -> str | None:
    """The design's cost at one glance (``150,384 EUR over 5 years (capex ..., opex ... per year)``),
    or None when the advice was not priced (no cost catalogue)."""
    cost = getattr(advice, "cost", None)
    if cost is None:
        return None
    if not priced(cost):  # never a "0 EUR" headline for a design the catalogue cannot price
        return "Cost: not priced" + (f" ({'; '.join(cost.notes)})" if cost.notes else "")
    return "Cost: " + cost.headline() + ("" if cost.complete else " (incomplete: see the cost notes)")


def _in_words(delta) -> str:
    """An alternative's cost line in the cards' words: "NFS root file system: ...", "iSCSI: ...",
    not the engine's "nfs_root: ..."."""
    from advisor.figures.prose import prose
    from advisor.recommend.catalog import choice_label

    text = delta.text
    if text.startswith(f"{delta.choice}:"):
        text = choice_label(delta.decision, delta.choice) + text[len(delta.choice):]
    return prose(text)


def card_cost_lines(advice, decision: str, scope: str) -> list[str]:
    """What a card says about money: its own share of the bill (licences on the hypervisor card,
    the hosts and the total on the host-count card, the storage on the storage card) and what each
    of its alternatives would change (:attr:`advisor.cost.DesignCost.alternatives`)."""
    from advisor.cost import money

    cost = getattr(advice, "cost", None)
    if cost is None or not cost.lines:
        return []
    cur = cost.currency
    out = []
    if decision == "hypervisor" and scope == "cluster":
        up, year = cost.of("licence")
        out.append(f"Licences: {money(year, cur)} per year" + (f" and {money(up, cur)} up front" if up else ""))
    elif decision == "host_count":
        up, year = cost.of("hosts")
        out.append(f"Hosts: {money(up, cur)} up front, {money(year, cur)} support per year; whole design: "
                   f"{cost.headline()}")
    elif decision == "storage_backend":
        up, year = cost.of("storage")
        out.append(f"Shared storage: {money(up, cur)} up front, {money(year, cur)} per year" if up or year
                   else "Images on the hosts' local disks: no shared storage to buy")
    alts = [_in_words(d) for d in cost.alternatives if d.decision == decision and d.scope == scope]
    if alts and not out:  # a decision with no line of its own: say what the lines below are
        out.append(f"Cost of the alternatives (whole design over {cost.years:g} years):")
    return out + alts


@dataclass(frozen=True)
class DesignLine:
    """One line of the design at a glance: what (``Hosts``), the design (``8 hosts …``), and
    ``state`` ``ok``, ``missed`` (a target or a warning) or ``""``."""

    what: str
    design: str
    state: str = ""


def design(advice) -> list[DesignLine]:
    """The cluster as a bill of materials, from the advice: the hosts to buy (count, CPU, RAM,
    disks, NIC), the hypervisor, over-allocation, storage, each workload's cache mode and real-time
    budget, the calibration, and the scenario's targets met or missed."""
    from advisor.figures.calibration_text import summary_text
    from advisor.figures.prose import fmt_value

    sc = advice.scenario
    h = sc.hosts
    out: list[DesignLine] = []
    hc = advice.first("host_count", "cluster")
    parts = []
    if hc is not None and "hosts" in hc.expected:
        n = hc.expected["hosts"].value
        active = hc.expected["active_hosts"].value if "active_hosts" in hc.expected else None
        reserve = hc.expected["reserve_hosts"].value if "reserve_hosts" in hc.expected else h.reserve
        parts.append(f"{fmt_value(n)} hosts" + (f" ({fmt_value(active)} active + {fmt_value(reserve)} reserve)"
                                               if active is not None and reserve else ""))
    hw = [f"{h.cpu.sockets} x {h.cpu.cores_per_socket} cores"
          + (f" {fmt_value(h.cpu.ghz)} GHz" if h.cpu.ghz else "")
          + (f" ({h.cpu.model})" if h.cpu.model else ""), f"{fmt_value(h.ram_gib)} GiB RAM"]
    hw += [f"{d.count} x {fmt_value(d.size_gb)} GB {d.kind.upper()}" for d in h.disks]
    hw.append(f"{fmt_value(h.nic_gbps)} Gb/s NIC")
    planned = "" if hc is None or str(h.count) == hc.choice else f"; {h.count} planned"
    out.append(DesignLine("Hosts", (parts[0] + ", each " if parts else "Each host: ") + ", ".join(hw) + planned,
                          "missed" if hc is not None and planned and h.count < (hc.value or 0) else ""))
    for name, what in (("hypervisor", "Hypervisor"), ("vcpu_overallocation", "vCPU over-allocation"),
                       ("storage_backend", "VM images on"), ("image_transfer", "Image transfer")):
        r = advice.first(name, "cluster")
        if r is not None:
            out.append(DesignLine(what, catalog.choice_text(name, r.choice, r.value)))
    for w in sc.workloads:
        scope = f"workload:{w.name}"
        bits = [f"{w.vms} VMs x {w.vcpus_label} vCPUs, {fmt_value(w.ram_gib)} GiB"]
        for name, label in (("hypervisor", "runs as"), ("cache_mode", "cache"), ("vm_period_budget", "real time")):
            r = advice.find(name, scope)
            if r is not None:
                bits.append(f"{label} {catalog.choice_text(name, r.choice, r.value)}")
        out.append(DesignLine(f"Workload {w.name}", "; ".join(bits)))
    out.append(DesignLine("Calibration", summary_text(advice)))
    targets = list(getattr(advice, "targets", []) or [])
    if targets:
        missed = [t for t in targets if t.met is False]
        text = (f"{len(targets) - len(missed)} of {len(targets)} met"
                + (": missed " + "; ".join(f"{t.name.replace('_', ' ')} ({t.scope.replace('workload:', '')}: "
                                           f"{fmt_value(t.expected)} {t.unit} against {fmt_value(t.target)})"
                                           for t in missed) if missed else ""))
        out.append(DesignLine("Targets", text, "missed" if missed else "ok"))
    cost = cost_summary(advice)
    if cost is not None:
        out.append(DesignLine("Cost", cost.removeprefix("Cost: ")))
    return out
