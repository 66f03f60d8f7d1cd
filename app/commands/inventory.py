"""``capadvisor inventory FILE...``: today's estate (RVTools, libvirt, Proxmox, OpenStack, our CSV
template) grouped into workload groups and written as a scenario."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from knowledge.infra import jsonout


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "inventory", help="import today's VM inventory (RVTools, Live Optics, Nutanix Collector, Azure Migrate, AWS Migration "
             "Hub, libvirt, Proxmox, OpenStack, CSV) into a scenario",
        description="Read estate exports, show what was found (VMs, powered off, templates, hosts), group the VMs "
                    "into workload groups and write a scenario. Formats are recognised from the content: RVTools "
                    ".xlsx (tabs vInfo, vHost, vCPU, vMemory, vDatastore, vDisk, vPartition) or those tabs as CSV; virsh dumpxml domain XML "
                    "and virsh list --all / dominfo / nodeinfo text; pvesh get /cluster/resources "
                    "--output-format json; openstack server list --long -f json with openstack flavor list -f "
                    "json (and openstack hypervisor list --long -f json for the hosts); Live Optics (Optical Prime) .xlsx (sheets "
                    "VMs, ESX Hosts; VM Performance and ESX Performance: the VMs' average and peak CPU %, the hosts' "
                    "average CPU and memory %); Nutanix Collector .xlsx (sheets vmList, vHosts; vCPU: the VMs' average, "
                    "median, 95th percentile and peak CPU %, sized at --percentile); the Azure Migrate import CSV; "
                    "the AWS Migration Hub import CSV; Capacity Advisor's inventory CSV template (see docs/inventory.md). Fields no export carries (I/O "
                    "pattern, loss tolerance, live migration ...) get defaults marked as assumed. Unless "
                    "--no-advise, the advice is computed and set next to today's settings (cache modes, "
                    "pinning, vCPUs per core). Without -o the scenario goes to stdout and the summary to stderr.")
    p.add_argument("files", nargs="+", type=Path, metavar="FILE",
                   help="export files (several are joined), then any utilisation SERIES files: a Prometheus "
                        "query_range answer (JSON), a CSV vm,timestamp,cpu_pct,mem_pct[,iops,mbps]; series are "
                        "joined to the inventory's VMs by name and recognised from their content")
    p.add_argument("--percentile", type=_percentile, metavar="N",
                   help="size the CPU on the N-th percentile (1-100; 100 or peak: the peak) of the summed series of the "
                        f"VMs [preferences.sizing_percentile, {DEFAULT_PERCENTILE:g}]")
    p.add_argument("--group-by", choices=("auto", "size", "name-prefix", "cluster"), default="auto",
                   help="auto: same vCPUs and similar RAM/disk, at most about 12 groups; size: same vCPU/RAM/disk "
                        "profile; name-prefix: VM names without their numbers (web-01 -> web); cluster: the "
                        "cluster (or host) each VM runs on [auto]")
    p.add_argument("-o", "--output", type=Path, metavar="SCENARIO",
                   help="write the scenario here (.yaml/.yml with comments, .json or .toml)")
    p.add_argument("--name", help="scenario name [estate from FILE]")
    p.add_argument("--exclude-powered-off", action="store_true", help="leave powered-off VMs out of the scenario")
    p.add_argument("--no-advise", action="store_true", help="do not compute the advice (no today-vs-advised lines)")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="summary as text, or one JSON document on stdout with the keys " + ", ".join(JSON_KEYS[:-1])
                        + " and, with -o, written")
    p.add_argument("--kb", type=Path, help="use this compiled knowledge base file instead of the shipped one")
    p.set_defaults(func=cmd_inventory)


#: the keys of the ``--format json`` document (its help names them; a test holds the two together)
JSON_KEYS = ("found", "group_by", "groups", "totals", "today", "warnings", "sources", "series", "scenario",
             "today_vs_advised", "written")
#: the percentile sized on when --percentile is not given (the scenario field's default)
DEFAULT_PERCENTILE = 95.0


def _percentile(text: str) -> float:
    """A percentile from 1 to 100, or ``peak``: the 100th (the name every other part gives it)."""
    from advisor.scenario.model import percentile_key

    if text.strip() == percentile_key(100):
        return 100.0
    try:
        q = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number: give a percentile from 1 to 100 or peak (the "
                                         "100th), as preferences.sizing_percentile takes it") from None
    if not 1 <= q <= 100:
        raise argparse.ArgumentTypeError(f"{text.strip()} is outside 1-100 (100 is the peak)")  # as typed: 1e309, not inf
    return q


def summary_lines(inv, advised_rows: list[dict] | None) -> list[str]:
    """The human summary: found, groups, totals, assumptions, today vs advised."""
    from advisor.inventory import format_today, today_rows

    s = inv.summary()
    f = s["found"]
    lines = ["Found: " + ", ".join([f"{f['vms']} VMs", f"{f['powered_off']} powered off", f"{f['templates']} templates"]
                                   + ([f"{f['containers']} containers"] if f["containers"] else [])
                                   + [f"{f['hosts']} hosts"])]
    for src in s["sources"]:
        lines.append(f"  {src['file']}: {src['format']}, {src['vms']} VMs listed, {src['hosts']} hosts")
        lines += [f"    note: {n}" for n in src["notes"]]
    lines += [f"  warning: {w}" for w in s["warnings"]]
    src_t, sc_t = s["totals"]["source"], s["totals"]["scenario"]
    lines.append(f"Imported: {src_t['vms']} VMs, {src_t['vcpus']} vCPUs, {src_t['ram_gib']:.1f} GiB RAM"
                 + ("" if inv.include_powered_off else " (powered-off VMs left out)"))
    lines.append(f"Groups ({s['group_by']}): {len(s['groups'])}; the scenario plans {sc_t['vms']} VMs, "
                 f"{sc_t['vcpus']} vCPUs, {sc_t['ram_gib']:.1f} GiB RAM")
    width = max((len(g["name"]) for g in s["groups"]), default=4)
    lines.append(f"  {'group':<{width}}  {'VMs':>5}  {'vCPU':>4}  {'RAM GiB':>8}  {'disk GB':>8}  today")
    for g in s["groups"]:
        disk = f"{g['disk_gb']:.0f}" if g["disk_gb"] else "-"
        lines.append(f"  {g['name']:<{width}}  {g['vms']:>5}  {g['vcpus']:>4}  {g['ram_gib']:>8.1f}  {disk:>8}  "
                     + g["today_text"])
    scenario = inv.to_scenario()
    host_assumed = scenario["estate"]["assumed"]
    w_assumed = sorted({a for w in scenario["workloads"] for a in w.get("assumed", [])})
    lines.append("Assumed (not in the export; check them): " + ", ".join(w_assumed))
    lines.append("  hosts: " + ", ".join(host_assumed))
    if inv.host_note():
        lines.append(f"  hosts: {inv.host_note()}")
    measured = sorted({a for w in scenario["workloads"] for a in w.get("measured", [])})
    if measured:
        lines.append("Measured (derived from the estate's usage, not assumed): " + ", ".join(measured)
                     + f" (each group's 'CPU ... % busy'; {_when_measured(s)}{_sized_on(scenario, s)})")
    lines += series_lines(s)
    t = s["today"]
    if t:
        lines.append("Today:")
        lines += [f"  {label}: {text}" for label, text in today_rows(t)]
    if advised_rows:
        lines.append("Today vs advised:")
        lines += [f"  {x}" for x in format_today(advised_rows)]
    return lines


def _sized_on(scenario: dict, s: dict) -> str:
    """What the busy shares are, when a collector's per-VM percentiles or peaks (not series) size them."""
    from advisor.inventory.writing import measured_basis

    if (s.get("series") or {}).get("days"):
        return ""
    sized = [w for w in scenario["workloads"] if w.get("cpu_busy_percentiles") and "cpu_busy_share" in w.get("measured", [])]
    bases = Counter(measured_basis(scenario, w) for w in sized)
    if len(bases) <= 1:
        return "".join(f"; sized on {b}" for b in bases)
    return "; sized on " + ", and on ".join(f"{b} ({n} group{'s' if n != 1 else ''})" for b, n in bases.items())


def _when_measured(s: dict) -> str:
    """When the estate's usage was taken: the utilisation series (how many days, which percentile),
    else ``estate.today``'s ``measured_at`` (RVTools: a snapshot)."""
    at = s["today"].get("measured_at", "")
    when = "a snapshot at export time" if not at or at.startswith("export time (") else at
    e = s.get("series") or {}
    if not e.get("days"):
        return when
    from advisor.scenario.model import percentile_key

    series = f"the {percentile_key(e['percentile'])} of {e['days']:g} days of utilisation series"
    rest = [g["name"] for g in s["groups"] if not g.get("series") and g.get("cpu_measured")]
    return series + (f"; {', '.join(rest)}: {when}" if rest else "")


def series_lines(s: dict) -> list[str]:
    """The series part of the summary: what the sizing used, per group p50/p95/p99/peak."""
    e = s.get("series")
    if not e:
        return []
    files = ", ".join(f"{Path(f['file']).name} ({f['format']}, {f['vms']} VM{'s' if f['vms'] != 1 else ''}, "
                      f"{f['samples']:,} samples)"
                      for f in e["files"])
    step = f"; every {e['interval_s']:g} s, {e['steps']:,} steps" if e.get("steps") else ""
    lines = [f"Series: {files}{step}"]
    lines += [f"  note: {Path(f['file']).name}: {n}" for f in e["files"] for n in f.get("notes", [])]
    lines.append(f"  {e['text']}")
    from advisor.scenario.model import percentile_key

    key = percentile_key(e["percentile"])
    if e.get("trend"):
        from advisor.inventory.series import trend_text

        lines.append(f"  {trend_text(e['trend'])}")
    for g in s["groups"]:
        x = g.get("series")
        if x:
            cpu = ", ".join(f"{k} {v:g}" for k, v in x["cpu_busy_pct"].items())
            mem = (", memory % " + ", ".join(f"{k} {v:g}" for k, v in x["mem_busy_pct"].items())
                   if x.get("mem_busy_pct") else "")
            of = f" ({x['basis']})" if x.get("basis") else (
                f" busy (its share of the estate's summed {key}: the estate's figure apportioned by the groups' own "
                f"{key}, not this group's {key} alone)")
            w = x.get("without_series")
            rest = (f"; its {w['vms']} powered-on VM(s) without series at their own {w['busy_pct']:g} % "
                    f"({'assumed: ' if w['assumed'] and 'assumed' not in w['source'] else ''}{w['source']})"
                    if w else "")
            lines.append(f"  {g['name']}: CPU % of vCPUs {cpu}{mem} ({x['vms_measured']} of {x['vms']} VMs); "
                         f"sized at {x['sized_busy_pct']:g} %{of}{rest}")
    return lines


def cmd_inventory(args) -> int:
    from advisor.inventory import import_inventory, scenario_yaml, today_vs_advised, write_scenario

    inv = import_inventory(args.files, args.group_by, include_powered_off=not args.exclude_powered_off,
                           percentile=args.percentile, name=args.name or "")
    if inv.series is None and inv.sizing_percentile is None and args.percentile is not None:
        print("warning: --percentile without series files: nothing is sized on a percentile", file=sys.stderr)
    data = inv.to_scenario()
    from advisor.scenario import parse_scenario

    scenario = parse_scenario(data, "imported scenario")
    rows = None
    if not args.no_advise:
        from advisor.engine import advise
        from knowledge.store import KnowledgeBase

        with KnowledgeBase.open(args.kb) as kb:
            advice = advise(scenario, kb=kb)
        rows = today_vs_advised(scenario, advice.recommendations)
    if args.output:
        write_scenario(data, args.output)
    if args.format == "json":
        doc = inv.summary()
        doc["scenario"] = data
        doc["today_vs_advised"] = rows
        if args.output:
            doc["written"] = str(args.output)
        sys.stdout.write(jsonout.dumps(doc, indent=2) + "\n")
        return 0
    text = "\n".join(summary_lines(inv, rows)) + "\n"
    if args.output:
        sys.stdout.write(text)
        print(f"wrote the scenario ({len(inv.groups)} workload groups) to {args.output}", file=sys.stderr)
    else:
        sys.stderr.write(text)
        sys.stdout.write(scenario_yaml(data))
    return 0
