"""Proxmox VE: ``qm create`` / ``qm set`` lines per workload group and, for real-time VMs, a
hook script that gives them their exact period and budget.

Per group, ``proxmox/create-vms.sh`` defines a shell function with the group's ``qm create``
line (memory in MiB, cores, the disk with ``cache=`` and ``aio=`` on the advised storage) and
calls it once per VM. Real-time VMs then get ``qm set`` lines: ``--affinity`` (the cores
reserved for them), ``--cpuunits`` (the highest weight), ``--cpulimit`` (their share, which
Proxmox enforces over a fixed 100 ms period) and ``--hookscript``: the hook script rewrites
the VM's CFS limit to the advised T_VM and C_VM in microseconds after start (cgroup v2
``cpu.max``), or, for a VM that needs a whole core, makes its vCPU threads SCHED_FIFO.

A period or budget below what CFS bandwidth control takes (T_VM or C_VM under 1 ms) cannot be
expressed at all: ``--cpulimit`` would throttle the VM over Proxmox's 100 ms period, letting it
go without the CPU for up to 100 ms x (1 - share), far longer than its T_VM. Such a VM gets its
pinned core whole instead (``--affinity`` and the weight, no ``--cpulimit``, no hook), the
safe side of the analysis' budget, and the manifest carries a warning.
"""

from __future__ import annotations

import shlex
from decimal import ROUND_CEILING, Decimal

from advisor.export.base import Export, hash_comment, readme, realtime_text
from advisor.export.groups import proxmox_ha
from advisor.export.hostsetup import host_setup, rt_cpu_list
from advisor.export.libvirt import cfs_limits
from advisor.export.plan import ClusterPlan, GroupPlan

TARGET = "proxmox"
VMID_BASE = 1000
#: where images live -> (Proxmox storage id placeholder, volume format or None for raw block storage)
STORAGE = {"local_disk": ("local", "qcow2"), "nfs_file": ("nfs-images", "qcow2"), "iscsi": ("iscsi-lvm", None),
           "distributed": ("ceph-rbd", None)}
RT_CPUUNITS = 10000  # the highest weight cgroup v2 takes (Proxmox clamps to [1, 10000])


def cpulimit(budget_us: int, period_us: int, vcpus: int) -> str:
    """Proxmox's cpulimit for a share: CPUs' worth of time, rounded up to the 1/100 Proxmox
    keeps (it sets CPUQuota=int(cpulimit x 100) %)."""
    v = (Decimal(budget_us) * vcpus / Decimal(period_us)).quantize(Decimal("0.01"), rounding=ROUND_CEILING)
    return format(v.normalize(), "f")


class _Gen:
    def __init__(self, plan: ClusterPlan):
        self.plan = plan
        self.ex = Export(TARGET, plan)

    def disk_option(self, g: GroupPlan, file: str, fn: str) -> str:
        p, ex = self.plan, self.ex
        if g.partition and p.backend == "local_disk":
            storage, fmt = "local-lvm", None
        else:
            storage, fmt = STORAGE.get(p.backend, ("local", "qcow2"))
        opts = [f"{storage}:{g.disk_gib}"]
        if fmt:
            opts.append(f"format={fmt}")
        if g.cache:
            opts.append("cache=" + ex.value(file, f"{fn} scsi0 cache", g.cache, g.cache_src))
            opts.append("aio=" + ex.value(file, f"{fn} scsi0 aio", g.io_mode, g.cache_src, g.cache,
                                          "cache none/directsync -> aio native, else threads"))
        opts += ["discard=on", "iothread=1"]
        return ",".join(opts)

    def group_block(self, g: GroupPlan, first_id: int, file: str) -> list[str]:
        p, ex = self.plan, self.ex
        fn = f"create_{g.slug.replace('-', '_')}"
        out = [f"# --- {g.label}: {g.vms} VMs ---"]
        lines = []
        if p.backend_src:
            lines += p.backend_src.lines()
        if g.placement_src:
            lines += g.placement_src.lines()
        if g.cache_src:
            lines += g.cache_src.lines()
        lines.append(f"disk: {g.gib_text()} (Proxmox sizes in GiB)" if g.gib_text() else
                     f"disk: {g.disk_gb:g} GB -> {g.disk_gib} GiB (Proxmox sizes in GiB, rounded up)")
        if g.block and g.block_src:
            lines.append(f"guest side: {g.block} I/O requests ({g.block_src.label})")
        if not (g.realtime and g.rt_cpus) and p.max_vcpus_per_host is not None:
            lines.append(f"hosts carry at most {p.max_vcpus_per_host} vCPUs ({p.overalloc_per_core:g} per physical core"
                         f" x {p.cores} cores): count these VMs' cores against that limit")
            if p.overalloc_src:
                lines += p.overalloc_src.lines()
        out.append("".join(f"# {x}\n" for x in lines).rstrip())
        out.append(f'{fn}() {{  # {fn} VMID NAME')
        args = ["qm", "create", '"$1"', "--name", '"$2"', "--ostype", "l26", "--memory", str(g.ram_mib),
                "--sockets", "1", "--cores", str(g.vcpus), "--cpu", "host", "--scsihw", "virtio-scsi-single"]
        if p.backend != "nfs_root":
            args += ["--scsi0", shlex.quote(self.disk_option(g, file, fn))]
        else:
            out.insert(1, "# NFS root: Proxmox VE has no NFS-root disk; boot the guest from the network (PXE) with "
                          "root=/dev/nfs")
            args += ["--boot", "order=net0"]
        args += ["--net0", "virtio,bridge=vmbr0"]
        out.append("  " + " ".join(args))
        out.append("}")
        for i, vm in enumerate(g.vm_names()):
            out.append(f"{fn} {first_id + i} {vm}")
        rt = g.realtime
        if rt is not None and g.rt_cpus and rt.period_us is not None and rt.budget_us is not None:
            limits = None if rt.dedicated else cfs_limits(rt.period_us, rt.budget_us)
            whole = isinstance(limits, str)
            extra = [realtime_text(g), "pinned and not over-allocated"]
            if whole:
                warning = (f"{g.name}: {limits}; Proxmox's --cpulimit enforces its share over a fixed 100 ms period "
                           f"and would throttle the VM for up to {100 * (1 - rt.budget_us / rt.period_us):.3g} ms at a "
                           "time, far beyond T_VM: no --cpulimit and no hook script, the VM gets its pinned core whole")
                ex.notes.append(warning)
                extra.append(f"warning: {warning}")
            out.append(hash_comment(rt.source, extra).rstrip())
            hook = f"local:snippets/capadvisor-rt-{g.slug}.sh"
            for i in range(g.vms):
                vmid = first_id + i
                conv = f"{rt.unit} -> us"
                aff = ex.value(file, f"qm set {vmid} --affinity", rt_cpu_list(g.vm_cpus(i)), rt.source,
                               rt.advised, "cores reserved for this VM's real-time vCPUs")
                units = ex.value(file, f"qm set {vmid} --cpuunits", RT_CPUUNITS, rt.source, rt.advised,
                                 "the highest CPU weight")
                args = ["qm", "set", str(vmid), "--affinity", aff, "--cpuunits", units]
                if not rt.dedicated and not whole:
                    lim = ex.value(file, f"qm set {vmid} --cpulimit", cpulimit(rt.budget_us, rt.period_us, g.vcpus),
                                   rt.source, rt.advised, f"{conv}: C_VM/T_VM x vCPUs, rounded up to 1/100")
                    args += ["--cpulimit", lim]
                if not whole:
                    args += ["--hookscript", hook]
                out.append(" ".join(args))
        out.append("")
        return out

    def hookscript(self, g: GroupPlan, file: str) -> str:
        rt, ex = g.realtime, self.ex
        assert rt is not None and rt.period_us is not None and rt.budget_us is not None
        out = ["#!/bin/bash", f"# Proxmox VE hook script for the real-time VMs of group {g.name}",
               "# (generated by capadvisor export-config). Install: copy to /var/lib/vz/snippets/ and make it",
               "# executable; qm set VMID --hookscript local:snippets/" + file.rsplit("/", 1)[-1],
               hash_comment(rt.source, [realtime_text(g)]).rstrip(), "set -eu",
               'vmid="$1"', 'phase="$2"', '[ "$phase" = "post-start" ] || exit 0']
        if rt.dedicated:
            out += ["# a whole core: SCHED_FIFO priority 1 for every vCPU thread (named 'CPU n/KVM')",
                    'pid=$(cat "/var/run/qemu-server/${vmid}.pid")',
                    'for task in /proc/"$pid"/task/*; do',
                    '  case "$(cat "$task/comm")" in',
                    "    CPU\\ */KVM) chrt --fifo -p " + ex.value(file, "chrt --fifo priority", 1, rt.source, rt.advised,
                                                            "dedicated core -> SCHED_FIFO")
                    + ' "${task##*/}" ;;',
                    "  esac", "done"]
        else:
            limits = cfs_limits(rt.period_us, rt.budget_us)
            assert not isinstance(limits, str), "no hook script for a period CFS cannot take"
            period, quota = limits
            conv = f"{rt.unit} -> us (period rounded down, budget rounded up), x {g.vcpus} vCPU(s)"
            q = ex.value(file, "cpu.max quota", quota * g.vcpus, rt.source, rt.advised, conv)
            per = ex.value(file, "cpu.max period", period, rt.source, rt.advised, conv)
            out += [f"# CFS bandwidth of the whole VM: {g.vcpus} x {quota} us every {period} us",
                    f'echo "{q} {per}" > "/sys/fs/cgroup/qemu.slice/${{vmid}}.scope/cpu.max"']
        out.append('echo "capadvisor: real-time settings applied to VM $vmid"')
        return "\n".join(out) + "\n"

    def build(self) -> Export:
        p, ex = self.plan, self.ex
        file = "proxmox/create-vms.sh"
        out = ["#!/bin/bash", f"# Proxmox VE: create the VMs of scenario {p.scenario}",
               f"# generated by capadvisor export-config (target proxmox); figures' basis: {p.basis}",
               "# VM ids, storage ids (local, local-lvm, nfs-images, iscsi-lvm, ceph-rbd) and bridges are "
               "placeholders", "set -eu", ""]
        if p.hypervisor != "KVM":
            out.insert(3, f"# note: the advice chose {p.hypervisor}; Proxmox VE runs KVM: these are the KVM settings")
        listing = [(file, "`qm create` per VM and `qm set` for real-time VMs")]
        groups = [g for g in p.whole_gib_groups() if not g.containers]
        for g, first in zip(groups, first_ids(groups), strict=True):
            out += self.group_block(g, first, file)
            rt = g.realtime
            if (rt is not None and g.rt_cpus and rt.period_us is not None and rt.budget_us is not None
                    and (rt.dedicated or not isinstance(cfs_limits(rt.period_us, rt.budget_us), str))):
                f = f"proxmox/snippets/capadvisor-rt-{g.slug}.sh"
                ex.add(f, self.hookscript(g, f))
                listing.append((f, f"hook script of {g.name}: {realtime_text(g)}"))
        ex.add(file, "\n".join(out))
        ex.add("proxmox/host-setup.sh", host_setup(ex, "proxmox/host-setup.sh", "Proxmox VE"))
        listing.append(("proxmox/host-setup.sh", "host settings: frequency governor, real-time cores"))
        how = ["1. Define the storages named in `create-vms.sh` (`pvesm add ...`) or rename them.",
               "2. Copy `proxmox/snippets/*.sh` to `/var/lib/vz/snippets/` on every node and `chmod +x` them.",
               "3. Run `bash proxmox/create-vms.sh` on a node (VM ids start at "
               f"{VMID_BASE + 1}; change them if taken).",
               "4. Run `proxmox/host-setup.sh` on every node.",
               "5. Keep each node below the vCPU limit above when you place VMs (HA groups, migrations)."]
        ex.add("proxmox/README.md", readme(ex, f"Proxmox VE configuration for {p.scenario}", how, listing,
                                           p.whole_gib_groups()))
        return ex


def first_ids(groups: list[GroupPlan]) -> list[int]:
    """The VM id of each group's first VM: workloads start at the next hundred after the last."""
    out, vmid, start = [], VMID_BASE, VMID_BASE + 1
    for g in groups:
        if not g.first:  # a workload's shape groups continue its ids (VM 17 of erp is erp's first id + 16)
            start = vmid + 1
            vmid += ((g.of or g.vms) // 100 + 1) * 100
        out.append(start + g.first)
    return out


def generate(plan: ClusterPlan) -> Export:
    """The Proxmox VE export of ``plan``."""
    ex = _Gen(plan).build()
    proxmox_ha(ex, first_ids(plan.vm_groups()))
    return ex
