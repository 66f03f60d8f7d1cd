"""``capadvisor probe``: this machine as a candidate host, and optionally its micro-benchmarks.

Probes come from advisor.probes (built-ins) plus the entry-point group ``capadvisor.probes``;
a plug-in that fails to load or to probe is reported on standard error and skipped.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from knowledge.infra import jsonout
from knowledge.infra.errors import InputError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "probe", help="read this machine as a candidate host (and benchmark it with --bench)",
        description="Read this machine's CPU, memory, disks, file systems and network interfaces "
                    "(never needs root), say whether it is a VM or a container, optionally run short "
                    "disk and memory micro-benchmarks and store them as site measurements, and "
                    "optionally write a scenario skeleton whose hosts section is this machine.")
    p.add_argument("--bench", action="store_true",
                   help="also run the micro-benchmarks (sequential and random 4 KiB disk I/O, memory "
                        "bandwidth) and store the results in the user database")
    p.add_argument("--bench-dir", type=Path, metavar="DIR",
                   help="where the temporary benchmark folder goes (default: the user cache dir); "
                        "it is removed afterwards, also when interrupted")
    p.add_argument("--bench-seconds", type=float, default=10.0, metavar="N",
                   help="total time budget of the benchmarks in seconds (default 10, at least 1)")
    p.add_argument("--format", choices=("json", "text"), default="text")
    p.add_argument("--scenario-out", type=Path, metavar="FILE",
                   help="write a scenario skeleton with this machine as hosts (.yaml/.yml, .toml, else JSON)")
    p.add_argument("--site", help="site name for the benchmark results (default: the host name)")
    p.add_argument("--no-save", action="store_true", help="run the benchmarks without storing them")
    p.add_argument("--probe", dest="probe_name", metavar="NAME",
                   help="use only this probe (default: the best one for this platform)")
    p.set_defaults(func=cmd_probe)


class _TextProgress:
    """progress(fraction, message) printed on standard error, one line per new message
    (or one updating line on a terminal)."""

    def __init__(self, stream=None) -> None:
        self.stream = stream or sys.stderr
        self.last = ""
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, fraction: float, message: str) -> None:
        if self.tty:
            self.stream.write(f"\r[{fraction * 100:3.0f}%] {message:<40}")
            if fraction >= 1.0:
                self.stream.write("\n")
            self.stream.flush()
        elif message != self.last:
            self.stream.write(f"[{fraction * 100:3.0f}%] {message}\n")
        self.last = message


def load_registry():
    """The process registry (built-ins plus the entry-point plug-ins it loads itself), and the
    plug-ins that failed to load."""
    from advisor.probes import REGISTRY

    return REGISTRY, REGISTRY.plugin_failures


def cmd_probe(args) -> int:
    from dataclasses import asdict

    registry, failures = load_registry()
    run = registry.run(only=args.probe_name)  # ProbeRegistryError is user-facing
    failures = failures + run.failures
    for f in failures:
        print(f"capadvisor: warning: probe plug-in {f.name} skipped ({f.stage}): {f.error}", file=sys.stderr)
    facts = run.facts
    out = facts.to_dict()
    out["plugin_failures"] = [asdict(f) for f in failures]
    bench = None
    if args.bench:
        bench = _bench(args, facts)
        out["benchmarks"] = bench
    if args.scenario_out:
        from advisor.probes.skeleton import write_skeleton

        write_skeleton(facts, args.scenario_out, bench=bench)  # the disk's measured figures, source: probe
        out["scenario_out"] = str(args.scenario_out)
        print(f"wrote scenario skeleton {args.scenario_out}", file=sys.stderr)
    if args.format == "json":
        sys.stdout.write(jsonout.dumps(out, indent=2, default=str))
        print()
    else:
        print(render_text(facts, bench))
    return 0


def _bench(args, facts) -> dict:
    from advisor.probes.bench import run_benchmarks, save_results
    from advisor.probes.facts import UNKNOWN
    from advisor.probes.linux_storage import mount_of
    from knowledge.infra.paths import user_cache_dir

    if args.bench_seconds < 1:
        raise InputError(f"--bench-seconds {args.bench_seconds:g}: at least 1 second")
    directory = args.bench_dir or user_cache_dir()
    mount = mount_of(str(directory), facts.mounts)
    result = run_benchmarks(directory, args.bench_seconds, progress=_TextProgress(),
                            fstype=mount.fstype if mount else "")
    out = result.to_dict()
    site = args.site or (facts.hostname if facts.hostname != UNKNOWN else "this machine")
    if not args.no_save:
        host = {"cpu": facts.cpu.model, "threads": facts.cpu.threads,
                "memory_bytes": facts.memory.total_bytes, "hypervisor": facts.hypervisor}
        out["import_id"] = save_results(result, site, host=host)
        out["site"] = site
        print(f"stored {len(result.measurements)} measurements in site {site!r}", file=sys.stderr)
    for note in result.notes:
        print(f"capadvisor: note: {note}", file=sys.stderr)
    return out


def _fmt_bytes(value) -> str:
    if not isinstance(value, int | float) or isinstance(value, bool):
        return str(value)
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if value >= size:
            return f"{value / size:.1f} {unit}"
    return f"{value} B"


def _mhz(value) -> str:
    return f"{value:.0f} MHz" if isinstance(value, int | float) else str(value)


def render_text(facts, bench: dict | None = None) -> str:
    """A readable summary of the facts (and of the benchmark results)."""
    from app.textfmt import fmt_number, table

    c, m = facts.cpu, facts.memory
    lines = [f"host        {facts.hostname} (probe: {facts.probe}, {facts.platform})",
             f"cpu         {c.model}: {c.sockets} socket(s), {c.cores} cores, {c.threads} threads, "
             f"virtualization {c.virtualization}, governor {c.governor}, NUMA nodes {c.numa_nodes}",
             f"frequency   base {_mhz(c.base_mhz)}, max {_mhz(c.max_mhz)}, current {_mhz(c.current_mhz)}",
             f"memory      {_fmt_bytes(m.total_bytes)} total, {_fmt_bytes(m.available_bytes)} available, "
             f"huge pages {m.hugepages_total} x {_fmt_bytes(m.hugepage_size_bytes)}",
             f"kvm         {'usable' if facts.kvm_available is True else 'not usable'} (/dev/kvm)",
             f"virtual     VM: {facts.is_virtual_machine} (hypervisor {facts.hypervisor}); "
             f"container: {facts.is_container} ({facts.container})", ""]
    if facts.disks:
        lines.append(table(("disk", "size", "kind", "rotational", "sure", "transport", "scheduler", "model"),
                           [(d.name, _fmt_bytes(d.size_bytes), d.kind, d.rotational, d.rotational_confidence,
                             d.transport, d.scheduler, d.model) for d in facts.disks]))
        lines.append("")
    if facts.mounts:
        lines.append(table(("mount", "device", "fs", "size", "free"),
                           [(x.mountpoint, x.device, x.fstype, _fmt_bytes(x.size_bytes),
                             _fmt_bytes(x.free_bytes)) for x in facts.mounts]))
        lines.append("")
    if facts.nics:
        lines.append(table(("nic", "speed Mb/s", "up", "state", "virtual"),
                           [(n.name, n.speed_mbps, n.up, n.operstate, n.virtual) for n in facts.nics]))
        lines.append("")
    if facts.unknown:
        lines.append("unknown:")
        lines += [f"  {k}: {v}" for k, v in facts.unknown.items()]
    if bench:
        lines += ["", f"benchmarks in {bench['directory']} ({bench['fstype']}, direct I/O "
                      f"{'yes' if bench['direct_io'] else 'no'}), {bench['elapsed_s']:.1f} s:"]
        lines.append(table(("metric", "value", "unit", "operation", "block KiB"),
                           [(x["metric"], fmt_number(x["value"], 5), x["unit"], x["factors"]["operation"],
                             x["factors"].get("block_size", "")) for x in bench["measurements"]]))
    return "\n".join(lines).rstrip()
