"""``capadvisor export-config SCENARIO --target libvirt|xen|proxmox|openstack [-o DIR]``: the
settings the advice chose, as the target platform's own configuration files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

TARGET_NAMES = ("libvirt", "xen", "proxmox", "openstack")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export-config", help="write the advice as libvirt, Xen, Proxmox VE or OpenStack configuration",
        description="Advise on a scenario and write, per workload group, the settings the advice chose as the "
                    "target platform's own files: libvirt domain XML (disk cache and io mode, vCPUs, cputune with "
                    "pinning and CFS period/quota for real-time VMs), Xen xl configurations and RTDS commands, "
                    "Proxmox VE qm lines and hook scripts, OpenStack flavors and nova.conf values. Every setting is "
                    "commented with its recommendation and citations; <target>/export-manifest.json maps each "
                    "value to its recommendation. Real-time periods and budgets are written in microseconds.")
    p.add_argument("scenario", type=Path, metavar="SCENARIO", help="scenario file (.yaml, .yml, .toml, .json)")
    p.add_argument("--target", required=True, choices=(*TARGET_NAMES, "all"),
                   help="platform to write configuration for (all: every one)")
    p.add_argument("-o", "--output", type=Path, metavar="DIR",
                   help="write the files under DIR/<target>/ (default: print them)")
    p.add_argument("--site", metavar="NAME", help="calibrate the advice to this site's imported benchmarks")
    p.add_argument("--site-db", type=Path, metavar="FILE", help="user database holding the site benchmarks")
    p.add_argument("--kb", type=Path, help="use this compiled knowledge base file instead of the shipped one")
    p.add_argument("--check", action="store_true",
                   help="validate the files with each platform's parser or tool (virt-xml-validate, xl's parser, "
                        "bash -n, qm option schema, nova.conf types); exit status 1 if any check fails")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="without -o: the files as text, or JSON (manifest and files)")
    p.set_defaults(func=cmd_export_config)


def cmd_export_config(args) -> int:
    from advisor.export import export_config
    from advisor.export.check import check_files
    from app.commands.advise import advice_for
    from knowledge.infra import jsonout

    advice = advice_for(args)
    targets = TARGET_NAMES if args.target == "all" else (args.target,)
    exports = [export_config(advice, t) for t in targets]
    failed = False
    if args.check:
        for ex in exports:
            for finding in check_files(ex.files):
                if finding.ok is not True:
                    print(f"capadvisor: {'check failed' if finding.ok is False else 'warning'}: {finding}",
                          file=sys.stderr)
                failed = failed or finding.ok is False
            print(f"checked {len(ex.files)} {ex.target} files", file=sys.stderr)
    if args.output is not None:
        for ex in exports:
            written = ex.write(args.output)
            print(f"wrote {len(written)} {ex.target} files under {args.output / ex.target} "
                  f"({len(ex.values)} settings from {len({(v.decision, v.scope) for v in ex.values})} "
                  "recommendations)", file=sys.stderr)
            for note in [*ex.plan.notes, *ex.notes]:
                print(f"capadvisor: note: {note}", file=sys.stderr)
    elif args.format == "json":
        sys.stdout.write(jsonout.dumps([{"manifest": ex.manifest(), "files": ex.files} for ex in exports], indent=2)
                         + "\n")
    else:
        for ex in exports:
            for rel, text in ex.files.items():
                sys.stdout.write(f"==> {rel} <==\n{text}\n")
    return 1 if failed else 0
