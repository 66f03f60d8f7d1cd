"""libvirt (KVM/QEMU): domain XML fragments and a complete example domain per workload group.

Per group, in ``libvirt/<group>/``:

- ``disk.xml``: the ``<disk>`` device with ``<driver cache=... io=...>`` (for ``virsh
  attach-device --config``); ``io='native'`` only with the modes that open the image with
  O_DIRECT (none, directsync), ``io='threads'`` otherwise, as QEMU requires;
- ``vcpu.xml``: the ``<vcpu>`` element;
- ``cputune.xml`` for real-time VMs: ``<vcpupin>`` per vCPU onto a core reserved for real-time
  VMs, ``<emulatorpin>`` onto the housekeeping core, and either ``<period>``/``<quota>`` in
  microseconds (the budget C_VM every T_VM, enforced by CFS bandwidth control; a high
  ``<shares>`` weight lets the vCPU run first among the CFS tasks of its core) or, for a VM that
  needs a whole core, ``<vcpusched scheduler='fifo'>`` (a FIFO vCPU is not limited by a CFS
  quota, so the two are never combined);
- ``domain.xml``: a complete domain for the group's first VM with all of the above.

A real-time group gets its ``<cputune>`` and its complete domain once per VM instead
(``<vm>.cputune.xml``, ``<vm>.domain.xml``): every real-time VM is pinned to cores of its own
(the plan's ``vm_cpus``), as the Xen and Proxmox exports pin them, so that two VMs of a group
never share a core their budgets were analysed for alone.

The over-allocation is a host-level limit libvirt has no setting for: the README gives the
number of vCPUs a host may carry. libvirt accepts periods of 1,000 to 1,000,000 us and quotas
of at least 1,000 us (the kernel's CFS limits): a period above is shortened (safe), a period
or budget below is reported and not exported.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape, quoteattr

from advisor.export.base import Export, readme, realtime_text
from advisor.export.hostsetup import rt_cpu_list
from advisor.export.plan import HOUSEKEEPING_CPU, ClusterPlan, GroupPlan, Source

TARGET = "libvirt"
#: CFS bandwidth limits libvirt enforces (microseconds)
MIN_PERIOD_US, MAX_PERIOD_US, MIN_QUOTA_US = 1000, 1_000_000, 1000
#: CPU weight of a real-time vCPU: the highest both cgroup v1 shares and cgroup v2 weights accept
RT_SHARES = 10000


#: characters XML 1.0 does not allow anywhere in a document (a name holding one would make the file ill-formed)
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: object) -> str:
    """``text`` with every character XML 1.0 forbids (control characters, lone surrogates,
    U+FFFE/U+FFFF) replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", str(text))


def xml_text(text: object) -> str:
    """Element content: markup characters escaped, forbidden characters replaced."""
    return escape(xml_safe(text))


def xml_attr(text: object) -> str:
    """An attribute value with its quotes: markup characters and quotes escaped, forbidden
    characters replaced (line breaks as character references, so they survive as written)."""
    return quoteattr(xml_safe(text), {"\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def comment_text(line: object) -> str:
    """One line of comment text that cannot end the comment or break the document: every ``-``
    followed by another gets a space after it (``--`` and ``-->`` cannot occur, whatever the
    run of dashes), line breaks become spaces, forbidden characters U+FFFD."""
    text = xml_safe(line).replace("\r", " ").replace("\n", " ")
    return re.sub("-(?=-)", "- ", text).rstrip()


def xml_comment(lines: list[str], indent: str = "") -> str:
    """An XML comment of ``lines`` (each through :func:`comment_text`)."""
    body = [comment_text(line) for line in lines]
    if not body:
        return ""
    if len(body) == 1:
        return f"{indent}<!-- {body[0]} -->\n"
    return f"{indent}<!--\n" + "".join(f"{indent}  {b}\n" for b in body) + f"{indent}-->\n"


def cfs_limits(period_us: int, budget_us: int) -> tuple[int, int] | str:
    """(period, quota) libvirt accepts for an advised period and budget, or why there is none:
    a period above the maximum is shortened with the share kept (never lowered)."""
    if period_us > MAX_PERIOD_US:
        quota = -(-budget_us * MAX_PERIOD_US // period_us)
        period_us, budget_us = MAX_PERIOD_US, min(quota, MAX_PERIOD_US)
    if period_us < MIN_PERIOD_US:
        return (f"T_VM = {period_us} us is below the shortest CFS period libvirt sets ({MIN_PERIOD_US} us): "
                "use Xen RTDS or a dedicated core")
    if budget_us < MIN_QUOTA_US:
        return (f"C_VM = {budget_us} us is below the smallest CFS quota ({MIN_QUOTA_US} us): "
                "use Xen RTDS or a dedicated core")
    return period_us, budget_us


class _Gen:
    def __init__(self, plan: ClusterPlan):
        self.plan = plan
        self.ex = Export(TARGET, plan)

    # --- fragments ------------------------------------------------------------------------
    def disk(self, g: GroupPlan, vm: str, file: str, indent: str) -> str:
        """The <disk> element (or a comment when images are not disks: NFS root)."""
        p, ex = self.plan, self.ex
        i2 = indent + "  "
        out = ""
        if p.backend == "nfs_root":
            return xml_comment(["storage_backend: nfs_root: the guest mounts its root file system over NFS "
                                "(kernel command line below); there is no disk image, so no cache mode applies",
                                *(p.backend_src.lines() if p.backend_src else [])], indent)
        src_lines = []
        if p.backend_src:
            src_lines += p.backend_src.lines()
        if g.placement_src:
            src_lines += g.placement_src.lines()
        if g.partition and p.backend == "local_disk":
            kind, fmt = "block", "raw"
            source = f"<source dev={xml_attr(f'/dev/vg_vms/{vm}')}/>"
            src_lines.append(f"a logical volume of {g.disk_bytes} bytes ({g.disk_gb:g} GB) per VM"
                             + (" on the outer (first) zone of the disk" if "outer" in (g.placement or "") else ""))
        elif p.backend == "iscsi":
            kind, fmt = "block", "raw"
            dev = f"/dev/disk/by-path/ip-192.0.2.10:3260-iscsi-iqn.2024-01.com.example:{vm}-lun-0"
            source = f"<source dev={xml_attr(dev)}/>"
            src_lines.append(f"an iSCSI LUN of {g.disk_bytes} bytes per VM (placeholder portal and IQN)")
        elif p.backend == "distributed":
            kind, fmt = "network", "raw"
            source = (f"<source protocol='rbd' name={xml_attr(f'vms/{vm}')}>"
                      "<host name='ceph-mon.example.com' port='6789'/></source>")
            src_lines.append(f"an RBD image of {g.disk_bytes} bytes per VM (placeholder pool and monitor)")
        else:
            kind, fmt = "file", "qcow2"
            folder = "/var/lib/libvirt/images/nfs" if p.backend == "nfs_file" else "/var/lib/libvirt/images"
            source = f"<source file={xml_attr(f'{folder}/{vm}.qcow2')}/>"
            src_lines.append(f"qemu-img create -f qcow2 {folder}/{vm}.qcow2 {g.disk_bytes}  "
                             f"({g.disk_gb:g} GB, thin-provisioned)")
        out += xml_comment(src_lines, indent)
        inner = ""
        driver = "<driver name='qemu' type=" + xml_attr(fmt)
        if g.cache:
            inner += xml_comment(g.cache_src.lines() if g.cache_src else [], i2)
            cache = ex.value(file, "disk/driver@cache", g.cache, g.cache_src)
            driver += f" cache={xml_attr(cache)}"
            if kind != "network":  # QEMU's rbd driver has no aio= option
                io = ex.value(file, "disk/driver@io", g.io_mode, g.cache_src,
                              advised=g.cache, conversion="cache none/directsync -> io native, else threads")
                driver += f" io={xml_attr(io)}"
        driver += " discard='unmap'/>"
        inner += xml_comment([f"guest side: {g.block} I/O requests ({g.block_src.label})"]
                             if g.block and g.block_src else [], i2)
        return (out + f"{indent}<disk type='{kind}' device='disk'>\n{inner}{i2}{driver}\n{i2}{source}\n"
                f"{i2}<target dev='vda' bus='virtio'/>\n{indent}</disk>\n")

    def vcpu(self, g: GroupPlan, file: str, indent: str) -> str:
        p = self.plan
        lines = [f"{g.vcpus} vCPU{'s' if g.vcpus != 1 else ''} per VM"]
        src: Source | None
        if g.realtime is not None and g.rt_cpus:
            lines.append("real-time VM: its vCPUs are pinned, not over-allocated")
            src = g.realtime.source
        else:
            src = p.overalloc_src
            if p.max_vcpus_per_host is not None:
                lines.append(f"hosts carry at most {p.max_vcpus_per_host} vCPUs ({p.overalloc_per_core:g} per "
                             f"physical core x {p.cores} cores): count this VM's vCPUs against that limit")
        out = xml_comment(lines + (src.lines() if src else []), indent)
        # the vCPU count is the scenario's; what the advice adds is the limit, recorded in the README
        return out + f"{indent}<vcpu placement='static'>{g.vcpus}</vcpu>\n"

    def cputune(self, g: GroupPlan, file: str, indent: str, index: int = 0) -> str:
        """The <cputune> of VM ``index`` (0-based) of the group: its vCPUs on cores of its own."""
        rt, ex = g.realtime, self.ex
        if rt is None or not g.rt_cpus or rt.period_us is None or rt.budget_us is None:
            return ""
        i2 = indent + "  "
        src: Source = rt.source
        vm = g.vm_names()[index]
        body = xml_comment(src.lines() + [realtime_text(g), f"{vm}: host CPUs {rt_cpu_list(g.vm_cpus(index))}, "
                                          "reserved for this VM alone"], i2)
        for v, cpu in enumerate(g.vm_cpus(index)):
            body += f"{i2}<vcpupin vcpu='{v}' cpuset='{ex.value(file, f'cputune/vcpupin[{v}]@cpuset', cpu, src, rt.advised, 'a core reserved for real-time vCPUs')}'/>\n"
        body += (f"{i2}<emulatorpin cpuset='{ex.value(file, 'cputune/emulatorpin@cpuset', HOUSEKEEPING_CPU, src, rt.advised, 'the housekeeping core')}'/>\n")
        if rt.dedicated:
            body += xml_comment(["the task set needs a whole core: SCHED_FIFO for the pinned vCPUs, no CFS quota"], i2)
            vcpus = "0" if g.vcpus == 1 else f"0-{g.vcpus - 1}"
            pol = ex.value(file, "cputune/vcpusched@scheduler", "fifo", src, rt.advised, "dedicated core -> fifo")
            body += f"{i2}<vcpusched vcpus='{vcpus}' scheduler='{pol}' priority='1'/>\n"
        else:
            limits = cfs_limits(rt.period_us, rt.budget_us)
            if isinstance(limits, str):
                self.ex.notes.append(f"{g.name}: {limits}")
                body += xml_comment([limits], i2)
            else:
                period, quota = limits
                conv = (f"{rt.unit} -> us (period rounded down, budget rounded up)" if period == rt.period_us
                        else f"{rt.unit} -> us, period shortened to libvirt's {MAX_PERIOD_US} us, share kept")
                body += xml_comment([f"CFS bandwidth: at most {quota} us of CPU every {period} us per vCPU; "
                                     "the weight below lets the vCPU run first on its core"], i2)
                body += f"{i2}<shares>{RT_SHARES}</shares>\n"
                body += f"{i2}<period>{ex.value(file, 'cputune/period', period, src, rt.advised, conv)}</period>\n"
                body += f"{i2}<quota>{ex.value(file, 'cputune/quota', quota, src, rt.advised, conv)}</quota>\n"
        return f"{indent}<cputune>\n{body}{indent}</cputune>\n"

    # --- files ----------------------------------------------------------------------------
    def header(self, g: GroupPlan, what: str) -> str:
        p = self.plan
        lines = [f"{what} for workload group {g.label} ({g.vms} VM{'s' if g.vms != 1 else ''}) of scenario {p.scenario}",
                 f"generated by capadvisor export-config (target libvirt); figures' basis: {p.basis}"]
        if p.hypervisor != "KVM":
            lines.append(f"note: the advice chose {p.hypervisor} for the cluster; these are the KVM equivalents")
        return xml_comment(lines)

    def domain(self, g: GroupPlan, file: str, index: int = 0) -> str:
        vm = g.vm_names()[index]
        p = self.plan
        os_lines = "    <type arch='x86_64' machine='q35'>hvm</type>\n"
        if p.backend == "nfs_root":
            os_lines += ("    <kernel>/var/lib/libvirt/boot/vmlinuz</kernel>\n"
                         "    <initrd>/var/lib/libvirt/boot/initrd.img</initrd>\n"
                         f"    <cmdline>{xml_text(f'root=/dev/nfs nfsroot=192.0.2.20:/export/vms/{vm},vers=3 ip=dhcp rw')}"
                         "</cmdline>\n")
        else:
            os_lines += "    <boot dev='hd'/>\n"
        ram = g.ram_kib
        what = (f"complete domain of {g.vm_number(index)}" if self.pinned(g)
                else "complete example domain (its first VM)")
        return (self.header(g, what)
                + "<domain type='kvm'>\n"
                f"  <name>{xml_text(vm)}</name>\n"
                f"  <title>{xml_text(f'{g.name} {g.vm_number(index)}')}</title>\n"
                + xml_comment([f"{g.ram_gib:g} GiB = {ram} KiB"], "  ")
                + f"  <memory unit='KiB'>{ram}</memory>\n  <currentMemory unit='KiB'>{ram}</currentMemory>\n"
                + self.vcpu(g, file, "  ") + self.cputune(g, file, "  ", index)
                + f"  <os>\n{os_lines}  </os>\n  <features>\n    <acpi/>\n    <apic/>\n  </features>\n"
                "  <cpu mode='host-passthrough' check='none'/>\n  <clock offset='utc'/>\n"
                "  <on_poweroff>destroy</on_poweroff>\n  <on_reboot>restart</on_reboot>\n  <on_crash>destroy</on_crash>\n"
                "  <devices>\n    <emulator>/usr/bin/qemu-system-x86_64</emulator>\n"
                + self.disk(g, vm, file, "    ")
                + "    <interface type='bridge'>\n      <source bridge='br0'/>\n      <model type='virtio'/>\n"
                "    </interface>\n    <serial type='pty'/>\n    <console type='pty'/>\n  </devices>\n</domain>\n")

    def build(self) -> Export:
        p, ex = self.plan, self.ex
        listing: list[tuple[str, str]] = []
        for g in p.vm_groups():
            d = f"libvirt/{g.slug}"
            vm = g.vm_names()[0]
            if p.backend != "nfs_root":
                f = f"{d}/disk.xml"
                ex.add(f, self.header(g, "disk device for virsh attach-device (the command, with its options, is step 3 of libvirt/README.md)")
                       + self.disk(g, vm, f, ""))
                listing.append((f, f"`<disk>` of {g.label} (cache {g.cache}, io {g.io_mode})"))
            f = f"{d}/vcpu.xml"
            ex.add(f, self.header(g, "<vcpu> element (virsh edit)") + self.vcpu(g, f, ""))
            listing.append((f, f"`<vcpu>` of {g.label}"))
            if self.pinned(g):  # every real-time VM on cores of its own: its own <cputune> and domain
                for i, name in enumerate(g.vm_names()):
                    f = f"{d}/{name}.cputune.xml"
                    ex.add(f, self.header(g, f"<cputune> element of {name} (virsh edit {name})")
                           + self.cputune(g, f, "", i))
                    listing.append((f, f"`<cputune>` of {name}: host CPUs {rt_cpu_list(g.vm_cpus(i))}, "
                                       f"{realtime_text(g)}"))
                for i, name in enumerate(g.vm_names()):
                    f = f"{d}/{name}.domain.xml"
                    ex.add(f, self.domain(g, f, i))
                    listing.append((f, f"complete domain of {name}, pinned to host CPUs {rt_cpu_list(g.vm_cpus(i))} "
                                       f"(virsh define {f})"))
                continue
            f = f"{d}/domain.xml"
            ex.add(f, self.domain(g, f))
            listing.append((f, f"complete domain of {vm} (virsh define {f})"))
        ex.add("libvirt/host-setup.sh", self.host_setup())
        listing.append(("libvirt/host-setup.sh", "host settings: CPU frequency governor, real-time cores"))
        how = ["1. Check the files: `virt-xml-validate libvirt/<group>/domain.xml domain`.",
               "2. New VMs: edit names, bridges and image paths, then `virsh define libvirt/<group>/domain.xml` "
               "(once per VM, with its own name and image). Real-time VMs have a domain each, "
               "`libvirt/<group>/<vm>.domain.xml`, pinned to cores of their own: define each as it is (keep its "
               "`<cputune>`; never copy one VM's pinning to another).",
               "3. Existing VMs: `virsh attach-device VM libvirt/<group>/disk.xml --config` after detaching the old "
               "disk, and paste `vcpu.xml` / `<vm>.cputune.xml` into `virsh edit VM`.",
               "4. Run `libvirt/host-setup.sh` on each host (as root; it prints what it changes).",
               "5. Keep each host below the vCPU limit above when you place VMs."]
        ex.add("libvirt/README.md", readme(ex, f"libvirt configuration for {p.scenario}", how, listing))
        return ex

    @staticmethod
    def pinned(g: GroupPlan) -> bool:
        """A real-time group whose VMs are pinned (one <cputune> and domain per VM)."""
        return g.realtime is not None and bool(g.rt_cpus) and bool(g.realtime.period_us)

    def host_setup(self) -> str:
        from advisor.export.hostsetup import host_setup

        return host_setup(self.ex, "libvirt/host-setup.sh", "KVM/libvirt")


def generate(plan: ClusterPlan) -> Export:
    """The libvirt export of ``plan`` (with a folder per host when it was placed under constraints)."""
    from advisor.export.groups import libvirt_hosts

    ex = _Gen(plan).build()
    libvirt_hosts(ex)
    return ex
